"""What the parlor's outbox sends next and what it heard back, read from and written to the
kiosk's own store: the games' events past each game's `Mark` (`kiosk.store.marks`, which the
store's undo keeps), batched oldest game first.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from kiosk.store.marks import KEY, Mark, read_mark, write_mark

if TYPE_CHECKING:
    from kiosk.store.event_log import EventStore


@dataclass(frozen=True, slots=True)
class Pending:
    """One game's events the parlor has not acknowledged, read with the mark they follow."""

    game: str
    mark: Mark
    first: int  # index of events[0]
    events: tuple[str, ...]  # the stored JSON, as the kiosk recorded it

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "revision": self.mark.revision, "cut": self.mark.cut,
                "events": [{"index": self.first + i, "event": json.loads(body)}
                           for i, body in enumerate(self.events)]}


def pending(store: EventStore, max_events: int, max_games: int, max_bytes: int,
            skip: frozenset[str] = frozenset()) -> tuple[Pending, ...]:
    """The oldest games with something to send: at most `max_events` events and (past the
    first event) `max_bytes` of their JSON in all.

    The marks are read before the events: on PostgreSQL each statement reads afresh, and an undo
    landing between the two then shows as events under the older revision, which the parlor
    refuses or the next round repairs, never as the older events under the newer revision.
    """
    with store.transaction(write=False) as tx:
        marks = {key[len(KEY):]: Mark.from_text(value) for key, value in tx.rows(
            "SELECT key, value FROM store_meta WHERE key LIKE ?", (KEY + "%",))}
        counts = tx.rows("SELECT g.id, COUNT(e.idx) FROM games g LEFT JOIN events e "
                         "ON e.game_id = g.id GROUP BY g.seq, g.id ORDER BY g.seq")
        out: list[Pending] = []
        budget, room = max_events, max_bytes
        for game, count in counts:
            mark = marks.get(game, Mark())
            if game in skip or (int(count) <= mark.start and mark.cut is None):
                continue
            if budget <= 0 or room <= 0 or len(out) >= max_games:
                break
            start = min(mark.start, int(count))
            bodies: list[str] = []
            for (body,) in tx.rows("SELECT body FROM events WHERE game_id = ? AND idx >= ? "
                                   "ORDER BY idx LIMIT ?", (game, start, budget)):
                if (bodies or out) and len(body) > room:
                    break
                bodies.append(body)
                room -= len(body)
            if bodies or mark.cut is not None:
                out.append(Pending(game, mark, start, tuple(bodies)))
            budget -= len(bodies)
    return tuple(out)


def acknowledge(store: EventStore, sent: Sequence[Pending], answers: dict[str, Any]) -> int:
    """Record what the parlor holds now; returns the events newly acknowledged. A game undone
    while the batch was on its way keeps its cut (its revision moved on): the next round sends
    it."""
    newly = 0
    with store.transaction() as tx:
        for item in sent:
            answer = answers.get(item.game)
            if not isinstance(answer, dict) or not isinstance(answer.get("stored"), int):
                continue
            if not tx.rows(f"SELECT id FROM games WHERE id = ?{store.lock_clause}",
                           (item.game,)):
                continue  # deleted here while the batch was on its way: no mark to keep
            mark = read_mark(tx, item.game)
            stored = max(0, answer["stored"])
            if mark.revision == item.mark.revision:
                newly += max(0, stored - item.mark.start)
                write_mark(tx, item.game, Mark(stored, mark.revision, None))
            else:
                write_mark(tx, item.game, replace(mark, sent=stored))
    return newly


def start_over(store: EventStore, game: str, parlor_revision: int) -> None:
    """The parlor's copy disagrees (a conflict, or a revision ahead of ours: this kiosk's store
    was replaced): send the whole game again under a revision above both, replacing it."""
    with store.transaction() as tx:
        if not tx.rows(f"SELECT id FROM games WHERE id = ?{store.lock_clause}", (game,)):
            return  # deleted here since
        mark = read_mark(tx, game)
        write_mark(tx, game, Mark(0, max(mark.revision, parlor_revision) + 1, 0))


def unsent(store: EventStore) -> int:
    """Events (and pending undos) the parlor has not acknowledged yet, over every game."""
    with store.transaction(write=False) as tx:
        marks = {key[len(KEY):]: Mark.from_text(value) for key, value in tx.rows(
            "SELECT key, value FROM store_meta WHERE key LIKE ?", (KEY + "%",))}
        counts = tx.rows("SELECT game_id, COUNT(*) FROM events GROUP BY game_id")
    total = 0
    for game, count in counts:
        mark = marks.get(game, Mark())
        total += max(0, int(count) - mark.start) + (mark.cut is not None)
    return total
