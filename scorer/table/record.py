"""The JSON game record: a game's events, self-contained and versioned (docs/game-record.md).

`dumps(events)` writes a record; `loads(text)` reads one back strictly: every unknown key, wrong
type or impossible event is a `RecordError` naming the event's index and the field, and the
events are replayed so a record that loads is a game that can be played. Each exported event
carries the points, honba and sticks after it (`after`); when present they must match the replay,
which catches hand-edited values.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from scorer.limits import GAME_EVENTS, JsonError, brief, load_json
from scorer.table.events import (
    AbortiveDraw,
    AbortKind,
    Chombo,
    Correction,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    IllegalEvent,
    RiichiDeclared,
    Transfer,
    Win,
    WinningHand,
)
from scorer.table.game import replay
from scorer.table.record_json import (
    RecordError,
    _int,
    _list,
    _object,
    _str,
    rules_from_dict,
    rules_to_dict,
)
from scorer.table.state import HistoryRow, TableState

__all__ = ["FORMAT", "VERSION", "RecordError", "dumps", "event_from_dict", "event_from_json",
           "event_to_dict", "event_to_json", "events_from_record", "loads", "parse_json",
           "record_to_dict", "rules_from_dict", "rules_to_dict"]

FORMAT = "riichi-game-record"
VERSION = 1


# --- events --------------------------------------------------------------------------------------

def event_to_dict(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"type": event.TYPE}
    if isinstance(event, GameStarted):
        data.update(players=list(event.players), first_dealer=event.first_dealer,
                    rules=rules_to_dict(event.rules))
    elif isinstance(event, RiichiDeclared | Chombo):
        data["seat"] = event.seat
    elif isinstance(event, Win):
        data["discarder"] = event.discarder
        data["hands"] = [_hand_to_dict(hand) for hand in event.hands]
    elif isinstance(event, ExhaustiveDraw):
        data.update(tenpai=sorted(event.tenpai), nagashi=sorted(event.nagashi))
    elif isinstance(event, AbortiveDraw):
        data["kind"] = event.kind.value
    elif isinstance(event, Correction):
        data["transfers"] = [{"payer": t.payer, "payee": t.payee, "points": t.points}
                             for t in event.transfers]
        data["reason"] = event.reason
    elif isinstance(event, GameEnded):
        data["reason"] = event.reason
    return data


def _hand_to_dict(hand: WinningHand) -> dict[str, Any]:
    return {"winner": hand.winner, "han": hand.han, "fu": hand.fu, "yakuman": hand.yakuman,
            "liable": hand.liable, "liable_yakuman": hand.liable_yakuman, "hand": hand.hand,
            "breakdown": None if hand.breakdown is None else dict(hand.breakdown),
            **({"chips": hand.chips} if hand.chips else {})}


_HAND_KEYS = {"winner", "han", "fu", "yakuman", "liable", "liable_yakuman", "hand", "breakdown",
              "chips"}
_EVENT_KEYS: dict[str, tuple[set[str], set[str]]] = {  # type -> (allowed, required)
    "game_started": ({"players", "first_dealer", "rules"}, {"players", "rules"}),
    "riichi": ({"seat"}, {"seat"}),
    "win": ({"discarder", "hands"}, {"hands"}),
    "exhaustive_draw": ({"tenpai", "nagashi"}, {"tenpai"}),
    "abortive_draw": ({"kind"}, {"kind"}),
    "chombo": ({"seat"}, {"seat"}),
    "correction": ({"transfers", "reason"}, {"transfers", "reason"}),
    "game_ended": ({"reason"}, {"reason"}),
}


def event_from_dict(data: Any) -> Event:
    """One event from its JSON object; a `RecordError` names the field (the caller the index)."""
    if not isinstance(data, dict):
        raise RecordError(f"expected an object, got {type(data).__name__}")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _EVENT_KEYS:
        raise RecordError(f"unknown event type {brief(kind)} (known: {', '.join(_EVENT_KEYS)})",
                          field="type")
    allowed, required = _EVENT_KEYS[kind]
    obj = _object(data, None, allowed | {"type", "after"}, required | {"type"})
    if kind == "game_started":
        players = [_str(p, f"players[{i}]") for i, p in enumerate(_list(obj["players"],
                                                                           "players"))]
        try:
            rules = rules_from_dict(obj["rules"])
        except RecordError as error:
            raise error.inside("rules") from None
        except ValueError as bad:  # (a name of its own: compiled, a name keeps one type)
            raise RecordError(str(bad), field="rules") from None
        # As many names as the rules seat players: 4, or 3 at a three-player table.
        if len(players) != rules.players:
            raise RecordError(f"{rules.name} seats {rules.players} players, got {len(players)}",
                              field="players")
        return GameStarted(tuple(players), rules,
                           _int(obj.get("first_dealer", 0), "first_dealer"))
    if kind == "riichi":
        return RiichiDeclared(_int(obj["seat"], "seat"))
    if kind == "chombo":
        return Chombo(_int(obj["seat"], "seat"))
    if kind == "win":
        discarder = obj.get("discarder")
        hands = tuple(_hand_from_dict(h, f"hands[{i}]")
                      for i, h in enumerate(_list(obj["hands"], "hands")))
        return Win(hands, None if discarder is None else _int(discarder, "discarder"))
    if kind == "exhaustive_draw":
        return ExhaustiveDraw(_seat_set(obj["tenpai"], "tenpai"),
                              _seat_set(obj.get("nagashi", []), "nagashi"))
    if kind == "abortive_draw":
        choices = [k.value for k in AbortKind]
        if obj["kind"] not in choices:
            raise RecordError(f"expected one of {choices}, got {brief(obj['kind'])}", field="kind")
        return AbortiveDraw(AbortKind(obj["kind"]))
    if kind == "correction":
        transfers = []
        for i, raw in enumerate(_list(obj["transfers"], "transfers")):
            where = f"transfers[{i}]"
            t = _object(raw, where, {"payer", "payee", "points"}, {"payer", "payee", "points"})
            transfers.append(Transfer(_int(t["payer"], f"{where}.payer"),
                                      _int(t["payee"], f"{where}.payee"),
                                      _int(t["points"], f"{where}.points")))
        return Correction(tuple(transfers), _str(obj["reason"], "reason"))
    return GameEnded(_str(obj["reason"], "reason"))


def _hand_from_dict(raw: Any, where: str) -> WinningHand:
    obj = _object(raw, where, _HAND_KEYS, {"winner", "han", "fu"})

    def optional_int(key: str) -> int | None:
        value = obj.get(key)
        return None if value is None else _int(value, f"{where}.{key}")

    text = obj.get("hand")
    breakdown = obj.get("breakdown")
    if breakdown is not None:
        breakdown = _object(breakdown, f"{where}.breakdown", None, set())
    return WinningHand(
        _int(obj["winner"], f"{where}.winner"), _int(obj["han"], f"{where}.han"),
        _int(obj["fu"], f"{where}.fu"), _int(obj.get("yakuman", 0), f"{where}.yakuman"),
        optional_int("liable"), optional_int("liable_yakuman"),
        None if text is None else _str(text, f"{where}.hand"), breakdown,
        _int(obj.get("chips", 0), f"{where}.chips"))


# --- the record -------------------------------------------------------------------------------

def record_to_dict(events: Sequence[Event]) -> dict[str, Any]:
    """The record of a game, each event with the state it left (points, honba, sticks)."""
    state = replay(events)
    rows = []
    for event, row in zip(events, state.history, strict=True):
        data = event_to_dict(event)
        data["after"] = _after(row, state.rules.chips.pays)
        rows.append(data)
    return {"format": FORMAT, "version": VERSION, "events": rows}


def _after(row: HistoryRow, chips: bool) -> dict[str, Any]:
    """What an event left: points, honba, sticks, and each seat's chips where the rules pay
    them (a record without chips says nothing of them, as before)."""
    after: dict[str, Any] = {"points": list(row.points), "honba": row.honba,
                             "sticks": row.sticks}
    if chips:
        after["chips"] = list(row.chips)
    return after


def dumps(events: Sequence[Event], indent: int | None = 2) -> str:
    return json.dumps(record_to_dict(events), indent=indent, ensure_ascii=False)


def events_from_record(data: Any) -> tuple[tuple[Event, ...], TableState]:
    """Read and check a whole record: format, version, each event, then the replay."""
    obj = _object(data, None, {"format", "version", "events"}, {"format", "version", "events"})
    if obj["format"] != FORMAT:
        raise RecordError(f"expected {FORMAT!r}, got {brief(obj['format'])}", field="format")
    if obj["version"] != VERSION:
        raise RecordError(f"this program reads version {VERSION}, got {brief(obj['version'])}",
                          field="version")
    raws = _list(obj["events"], "events")
    if len(raws) > GAME_EVENTS:
        raise RecordError(f"a game holds at most {GAME_EVENTS:,} events, this one has "
                          f"{len(raws):,}", field="events")
    events: list[Event] = []
    for index, raw in enumerate(raws):
        kind = raw.get("type") if isinstance(raw, dict) else None
        try:
            events.append(event_from_dict(raw))
        except RecordError as error:
            raise error.at(index, kind if isinstance(kind, str) and kind in _EVENT_KEYS
                           else None) from None
    try:
        state = replay(events)
    except IllegalEvent as illegal:
        raise RecordError(illegal.reason, field=illegal.field, index=illegal.index,
                          event_type=illegal.event_type) from None
    _check_after(raws, state)
    return tuple(events), state


def _check_after(raws: Sequence[Any], state: TableState) -> None:
    for index, (raw, row) in enumerate(zip(raws, state.history, strict=True)):
        if "after" not in raw:
            continue
        try:
            after = _object(raw["after"], "after", {"points", "honba", "sticks", "chips"},
                            set())
        except RecordError as error:
            raise error.at(index, raw.get("type")) from None
        replayed = _after(row, True)
        for key, value in after.items():
            if value != replayed[key]:
                raise RecordError(f"the record says {brief(value, 200)} but its events give "
                                  f"{replayed[key]!r} (edited by hand?)", field=f"after.{key}",
                                  index=index, event_type=raw.get("type"))


def parse_json(text: str | bytes) -> Any:
    """A record's JSON, within `scorer.limits` (size, nesting, numbers), else a `RecordError`."""
    try:
        return load_json(text)
    except JsonError as error:
        raise RecordError(f"not JSON: {error}") from None


def loads(text: str | bytes) -> tuple[Event, ...]:
    """The events of a JSON record, checked; see `events_from_record`."""
    return events_from_record(parse_json(text))[0]


def event_to_json(event: Event) -> str:
    """One event as compact JSON (how the kiosk's store keeps them)."""
    return json.dumps(event_to_dict(event), separators=(",", ":"), ensure_ascii=False)


def event_from_json(text: str) -> Event:
    return event_from_dict(parse_json(text))


# --- strict readers ---------------------------------------------------------------------------

def _seat_set(raw: Any, field: str) -> frozenset[int]:
    values = [_int(v, f"{field}[{i}]") for i, v in enumerate(_list(raw, field))]
    if len(set(values)) != len(values):
        raise RecordError("a seat is listed twice", field=field)
    return frozenset(values)
