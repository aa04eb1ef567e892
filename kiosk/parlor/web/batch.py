"""What a kiosk posts to ``/api/tables/<name>/events``, parsed once at the edge.

    {"games": [{"game": "3f9c0a1b2c4d", "revision": 0, "cut": null,
                "events": [{"index": 0, "event": {"type": "game_started", ...}}, ...]}]}

`revision` and `cut` carry the kiosk's undos (see `kiosk.parlor.store.ledger`). Every number and
string is bounded, and anything wrong is a `BatchError` naming the field, e.g.
``games[0].events[2].event.hands[0].han``. Events are kept as `scorer.table.record`'s compact
JSON of the parsed event, so the same event always compares equal however the kiosk spaced it.

>>> parse({"games": [{"game": "g1", "revision": 0, "events": [{"index": 0, "event": 7}]}]})
Traceback (most recent call last):
...
kiosk.parlor.web.batch.BatchError: games[0].events[0].event: expected an object, got int
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from scorer.limits import GAME_EVENTS, brief
from scorer.table import Event, RecordError, event_from_dict, event_to_json

MAX_GAMES = 20  # games in one batch
MAX_EVENTS = 200  # events in one batch, all games together
MAX_REVISION = 1_000_000_000
MAX_BODY = 4 * 1024 * 1024  # bytes of one request (kiosks send at most 512 KB of events)
MAX_BREAKDOWN = 16 * 1024  # bytes of a win's breakdown as stored (a real one: about 1 KB)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


class BatchError(ValueError):
    def __init__(self, field: str, problem: str, status: int = 400) -> None:
        super().__init__(f"{field}: {problem}")
        self.field, self.problem, self.status = field, problem, status


@dataclass(frozen=True, slots=True)
class SentEvent:
    index: int
    event: Event
    body: str  # the canonical JSON kept in the store


@dataclass(frozen=True, slots=True)
class GameBatch:
    game: str
    revision: int
    cut: int | None  # drop the events from this index on first (once per revision)
    events: tuple[SentEvent, ...]


@dataclass(frozen=True, slots=True)
class Batch:
    games: tuple[GameBatch, ...]

    @property
    def event_count(self) -> int:
        return sum(len(g.events) for g in self.games)


def _whole(raw: Any, field: str, low: int, high: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise BatchError(field, f"expected a whole number from {low:,} to {high:,}, "
                                f"got {brief(raw)}")
    return raw


def _object(raw: Any, field: str, allowed: set[str], required: set[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise BatchError(field, f"expected an object, got {type(raw).__name__}")
    unknown = sorted(str(k)[:40] for k in set(raw) - allowed)
    if unknown:
        raise BatchError(field, f"unknown field(s) {', '.join(unknown)} (known: "
                                f"{', '.join(sorted(allowed))})")
    missing = sorted(required - set(raw))
    if missing:
        raise BatchError(f"{field}.{missing[0]}" if field else missing[0], "missing")
    return raw


def _list(raw: Any, field: str, low: int, high: int) -> list[Any]:
    if not isinstance(raw, list):
        raise BatchError(field, f"expected a list, got {type(raw).__name__}")
    if not low <= len(raw) <= high:
        raise BatchError(field, f"expected {low}-{high} items, got {len(raw):,}")
    return raw


def _event(raw: Any, where: str) -> Event:
    try:
        return event_from_dict(raw)
    except RecordError as error:
        raise BatchError(f"{where}.{error.field}" if error.field else where,
                         error.reason) from None


def _check_breakdowns(event: Event, where: str) -> None:
    """A win's breakdown is kept for history only: at most `MAX_BREAKDOWN` bytes (413)."""
    for h, hand in enumerate(getattr(event, "hands", ())):
        if hand.breakdown is not None:
            size = len(json.dumps(dict(hand.breakdown), separators=(",", ":")).encode())
            if size > MAX_BREAKDOWN:
                raise BatchError(f"{where}.hands[{h}].breakdown", f"{size:,} bytes; at most "
                                 f"{MAX_BREAKDOWN // 1024} KB", 413)


def _game(raw: Any, where: str, budget: int) -> GameBatch:
    obj = _object(raw, where, {"game", "revision", "cut", "events"}, {"game", "revision",
                                                                       "events"})
    game = obj["game"]
    if not isinstance(game, str) or not GAME_ID.fullmatch(game):
        raise BatchError(f"{where}.game", f"expected a game id (1-40 letters, digits, '_' or "
                                          f"'-'), got {brief(game)}")
    revision = _whole(obj["revision"], f"{where}.revision", 0, MAX_REVISION)
    cut = obj.get("cut")
    if cut is not None:
        cut = _whole(cut, f"{where}.cut", 0, GAME_EVENTS)
    events: list[SentEvent] = []
    for i, sent in enumerate(_list(obj["events"], f"{where}.events", 0, budget)):
        at = f"{where}.events[{i}]"
        item = _object(sent, at, {"index", "event"}, {"index", "event"})
        index = _whole(item["index"], f"{at}.index", 0, GAME_EVENTS - 1)
        if events and index != events[-1].index + 1:
            raise BatchError(f"{at}.index", f"expected {events[-1].index + 1} (events in order, "
                                            f"none left out), got {index}")
        event = _event(item["event"], f"{at}.event")
        _check_breakdowns(event, f"{at}.event")
        events.append(SentEvent(index, event, event_to_json(event)))
    return GameBatch(game, revision, cut, tuple(events))


def parse(raw: Any) -> Batch:
    """A batch from the request's JSON; a `BatchError` names the first field that is wrong."""
    obj = _object(raw, "", {"games"}, {"games"})
    games: list[GameBatch] = []
    budget = MAX_EVENTS
    for i, item in enumerate(_list(obj["games"], "games", 1, MAX_GAMES)):
        game = _game(item, f"games[{i}]", budget)
        if any(g.game == game.game for g in games):
            raise BatchError(f"games[{i}].game", f"game {game.game} is in the batch twice")
        budget -= len(game.events)
        games.append(game)
    if sum(len(g.events) for g in games) > MAX_EVENTS:  # the budget stops it first; belt and braces
        raise BatchError("games", f"at most {MAX_EVENTS} events in one batch")
    return Batch(tuple(games))
