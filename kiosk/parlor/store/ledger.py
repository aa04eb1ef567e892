"""Every game's events as each kiosk recorded them: storing a batch, reading a game back.

Idempotent by (table, game, index): an event sent again with the same content is accepted and
changes nothing; a different event at a stored index is a `Conflict` (409). A batch is stored
whole or not at all, and its events must follow the stored ones without a gap and replay
legally after them (the live page and later statistics replay them).

Undo. A kiosk's undo deletes its last event (`kiosk.store.event_log.EventStore.truncate`), so the
game it later records can differ at an index the parlor already holds. The kiosk therefore counts
its undos per game (`revision`) and says from where its events changed (`cut`). The parlor applies a
cut once, when a batch brings a higher revision than it holds, and refuses a lower revision as
stale: a batch that the kiosk gave up waiting for, arriving late, can then never put back what
an undo removed nor drop what followed it. The parlor's copy of a game therefore always ends as
the kiosk's events, and what counts as the game here is exactly what the kiosk counts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from kiosk.parlor.store import held, quota
from kiosk.parlor.store.db import Database
from kiosk.parlor.store.registry import ParlorError, now
from kiosk.parlor.web.batch import Batch, GameBatch
from kiosk.store.event_log import Tx
from scorer.table import (
    Event,
    IllegalEvent,
    RecordError,
    TableState,
    apply,
    event_from_json,
    replay,
)


class Conflict(ParlorError):
    """The batch disagrees with what the parlor holds; `stored` and `revision` say what that is,
    so the kiosk can start again from there."""

    def __init__(self, message: str, game: str, stored: int, revision: int,
                 field: str | None = None) -> None:
        super().__init__(message, 409, field)
        self.game, self.stored, self.revision = game, stored, revision


@dataclass(frozen=True, slots=True)
class Receipt:
    """What the parlor holds of a game after a batch: the kiosk's acknowledgement."""

    game: str
    stored: int  # events held, so the highest index is stored - 1
    revision: int
    held: bool = False  # a change to a finished game, kept for staff to accept or refuse

    def to_json(self) -> dict[str, Any]:
        answer: dict[str, Any] = {"stored": self.stored, "last_index": self.stored - 1,
                                  "revision": self.revision}
        return {**answer, "held": True} if self.held else answer


@dataclass(frozen=True, slots=True)
class GameRow:
    table_id: int
    game: str
    revision: int
    events: int
    first_received: str
    last_received: str


def store_batch(db: Database, table_id: int, batch: Batch,
                limits: quota.Quota | None = None) -> tuple[Receipt, ...]:
    lock = " FOR UPDATE" if db.dialect == "postgresql" else ""
    received = datetime.fromisoformat(now())
    # A kiosk sends its games oldest first; a batch that carries several (a kiosk catching up)
    # marks each a millisecond after the one before, so "the table's latest game" (the live
    # page) and the order games are rated in stay the kiosk's, not a tie.
    with db.transaction() as tx:
        if limits is not None:
            _charge(tx, table_id, batch, limits, received)
        return tuple(_store_game(tx, table_id, game, f"games[{i}]", (received + timedelta(
            milliseconds=i)).isoformat(timespec="milliseconds"), lock)
                     for i, game in enumerate(batch.games))


def _charge(tx: Tx, table_id: int, batch: Batch, limits: quota.Quota, at: datetime) -> None:
    """The batch's new games and the bytes of its events not held yet, against the quota."""
    marks = ", ".join("?" for _ in batch.games)
    stored = dict(tx.rows(f"SELECT game_id, events FROM parlor_games WHERE table_id = ? AND "
                          f"game_id IN ({marks})", (table_id, *(g.game for g in batch.games))))
    size = 0
    for game in batch.games:
        start = min(int(stored.get(game.game, 0)), game.cut if game.cut is not None else 1 << 30)
        size += sum(len(e.body.encode()) for e in game.events if e.index >= start)
    quota.charge(tx, table_id, limits, at, sum(g.game not in stored for g in batch.games), size)


def _store_game(tx: Tx, table_id: int, sent: GameBatch, where: str, received: str,
                lock: str, accepted: bool = False) -> Receipt:
    # Insert-if-missing first, then lock the row: two parlor processes taking the same new game
    # at once both end up waiting on one row instead of one failing on the primary key.
    tx.run("INSERT INTO parlor_games (table_id, game_id, revision, events, first_received, "
           "last_received) VALUES (?, ?, ?, 0, ?, ?) ON CONFLICT DO NOTHING",
           (table_id, sent.game, sent.revision, received, received))
    revision, stored = tx.rows("SELECT revision, events FROM parlor_games WHERE table_id = ? "
                               f"AND game_id = ?{lock}", (table_id, sent.game))[0]
    if sent.revision < revision:
        raise Conflict(f"{where}.revision: game {sent.game} is at revision {revision} here, "
                       f"the batch at {sent.revision} (a batch from before an undo, sent late)",
                       sent.game, stored, revision, f"{where}.revision")
    if sent.revision > revision:
        if sent.cut is not None and sent.cut < stored and not accepted and _rewrites_finished(
                tx, table_id, sent):
            # A game the parlor has seen finish is not changed by a kiosk (its fees and scores
            # are reported): the change waits for staff (`kiosk.parlor.store.held`).
            held.hold(tx, table_id, sent, received)
            tx.run("UPDATE parlor_games SET revision = ? WHERE table_id = ? AND game_id = ?",
                   (sent.revision, table_id, sent.game))
            return Receipt(sent.game, stored, sent.revision, held=True)
        if sent.cut is not None and sent.cut < stored:
            tx.run("DELETE FROM parlor_events WHERE table_id = ? AND game_id = ? AND idx >= ?",
                   (table_id, sent.game, sent.cut))
            stored = sent.cut
        revision = sent.revision
    bodies = [b for (b,) in tx.rows("SELECT body FROM parlor_events WHERE table_id = ? AND "
                                    "game_id = ? ORDER BY idx", (table_id, sent.game))]
    new = [e for e in sent.events if e.index >= stored]
    if sent.events and sent.events[0].index > stored:
        raise Conflict(f"{where}.events[0].index: game {sent.game} has {stored} events here; "
                       f"the batch starts at {sent.events[0].index} (send from {stored})",
                       sent.game, stored, revision, f"{where}.events[0].index")
    for i, event in enumerate(sent.events):
        if event.index < stored and bodies[event.index] != event.body:
            raise Conflict(f"{where}.events[{i}]: game {sent.game} already has a different "
                           f"event at index {event.index}", sent.game, stored, revision,
                           f"{where}.events[{i}]")
    if new:
        _check_legal(bodies, sent, where)
        for event in new:
            tx.run("INSERT INTO parlor_events (table_id, game_id, idx, body, received) "
                   "VALUES (?, ?, ?, ?, ?)", (table_id, sent.game, event.index, event.body,
                                              received))
        stored += len(new)
        tx.run("UPDATE parlor_games SET last_received = ? WHERE table_id = ? AND game_id = ?",
               (received, table_id, sent.game))
    tx.run("UPDATE parlor_games SET revision = ?, events = ? WHERE table_id = ? AND game_id = ?",
           (revision, stored, table_id, sent.game))
    return Receipt(sent.game, stored, revision)


class Unreadable(ParlorError):
    """The parlor's own copy of a game no longer replays (a changed scorer, a damaged row): 422
    naming the game, which the kiosk sets aside while it sends its other games."""

    def __init__(self, message: str, game: str, field: str) -> None:
        super().__init__(message, 422, field)
        self.game = game


def _rewrites_finished(tx: Tx, table_id: int, sent: GameBatch) -> bool:
    """True when the stored game finished and the cut would leave other events than stored
    (sending the same events again after a cut, as a kiosk starting over does, changes
    nothing)."""
    bodies = [b for (b,) in tx.rows("SELECT body FROM parlor_events WHERE table_id = ? AND "
                                    "game_id = ? ORDER BY idx", (table_id, sent.game))]
    cut = sent.cut or 0
    after = bodies[:cut] + [e.body for e in sent.events if e.index >= cut]
    if after == bodies:
        return False
    try:
        state = replay([event_from_json(b) for b in bodies])
    except (IllegalEvent, RecordError):
        return False  # unreadable: the kiosk's copy may mend it
    return state.finished


def _check_legal(bodies: list[str], sent: GameBatch, where: str) -> None:
    """The new events must replay after the stored ones (as the kiosk checked them)."""
    state: TableState | None = None
    for index, body in enumerate(bodies[:sent.events[0].index]):
        try:
            state = apply(state, event_from_json(body))
        except (IllegalEvent, RecordError) as error:
            raise Unreadable(f"{where}: game {sent.game} as stored here no longer replays (event "
                             f"{index}: {str(error)[:200]}); the parlor's staff must look at it",
                             sent.game, where) from None
    for i, event in enumerate(sent.events):
        try:
            state = apply(state, event.event)
        except IllegalEvent as error:
            raise ParlorError(f"{where}.events[{i}] (index {event.index}): {error}", 422,
                              f"{where}.events[{i}]") from None


def decide_held(db: Database, table_id: int, game: str, accept: bool) -> Receipt | None:
    """Staff's answer to a held change: accepted, the game becomes what the kiosk sent (checked
    as any batch); refused, it stays as it is (and the refusal is remembered for the daily
    report). Either way the request is gone."""
    lock = " FOR UPDATE" if db.dialect == "postgresql" else ""
    with db.transaction() as tx:
        sent = held.take(tx, table_id, game)
        if not accept:
            held.refused(tx, table_id, sent, now())
            return None
        held.accepted(tx, table_id, game)
        revision = int(tx.rows("SELECT revision FROM parlor_games WHERE table_id = ? AND "
                               f"game_id = ?{lock}", (table_id, game))[0][0])
        return _store_game(tx, table_id, replace(sent, revision=revision + 1), "held",
                           now(), lock, accepted=True)


def game_rows(db: Database, table_id: int | None = None) -> list[GameRow]:
    """Games, most recently changed first (all tables, or one)."""
    sql = ("SELECT table_id, game_id, revision, events, first_received, last_received "
           "FROM parlor_games")
    params: tuple[Any, ...] = ()
    if table_id is not None:
        sql, params = sql + " WHERE table_id = ?", (table_id,)
    with db.transaction() as tx:
        rows = tx.rows(sql + " ORDER BY last_received DESC", params)
    return [GameRow(int(r[0]), r[1], int(r[2]), int(r[3]), r[4], r[5]) for r in rows]


def latest_games(db: Database) -> dict[int, GameRow]:
    """Each table's game that changed last (the one being played, or the last one played)."""
    latest: dict[int, GameRow] = {}
    with db.transaction() as tx:
        rows = tx.rows("SELECT g.table_id, g.game_id, g.revision, g.events, g.first_received, "
                       "g.last_received FROM parlor_games g WHERE g.last_received = (SELECT "
                       "MAX(h.last_received) FROM parlor_games h WHERE h.table_id = g.table_id)")
    for r in rows:  # two games of one table changed in one millisecond: the later started
        row = GameRow(int(r[0]), r[1], int(r[2]), int(r[3]), r[4], r[5])
        found = latest.get(row.table_id)
        if found is None or row.first_received > found.first_received:
            latest[row.table_id] = row
    return latest


def events(db: Database, table_id: int, game: str) -> list[Event]:
    """A game's events as stored (they replayed when they arrived)."""
    with db.transaction() as tx:
        rows = tx.rows("SELECT idx, body FROM parlor_events WHERE table_id = ? AND game_id = ? "
                       "ORDER BY idx", (table_id, game))
    out = []
    for index, body in rows:
        try:
            out.append(event_from_json(body))
        except RecordError as error:
            raise ParlorError(f"game {game}, event {index} is unreadable: {error}", 500) from None
    return out


def event_bodies(db: Database, table_id: int, game: str) -> list[tuple[int, str]]:
    """(index, JSON) of a game's stored events, for tests and exports."""
    with db.transaction() as tx:
        return [(int(i), b) for i, b in tx.rows(
            "SELECT idx, body FROM parlor_events WHERE table_id = ? AND game_id = ? ORDER BY idx",
            (table_id, game))]
