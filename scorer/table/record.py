"""The JSON game record: a game's events, self-contained and versioned (docs/game-record.md).

`dumps(events)` writes a record; `loads(text)` reads one back strictly: every unknown key, wrong
type or impossible event is a `RecordError` naming the event's index and the field, and the
events are replayed so a record that loads is a game that can be played. Each exported event
carries the points, honba and sticks after it (`after`); when present they must match the replay,
which catches hand-edited values.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import fields
from enum import Enum
from typing import Any

from scorer.limits import GAME_EVENTS, JsonError, brief, load_json
from scorer.rules import RULESETS, Ruleset, Uma
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
from scorer.table.state import TableState

FORMAT = "riichi-game-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read: says which event (index, type) and which field."""

    def __init__(self, reason: str, *, field: str | None = None, index: int | None = None,
                 event_type: str | None = None) -> None:
        self.reason, self.field, self.index, self.event_type = reason, field, index, event_type
        super().__init__(str(self))

    def __str__(self) -> str:
        where = "record" if self.index is None else f"event {self.index}"
        if self.index is not None and self.event_type:
            where += f" ({self.event_type})"
        if self.field:
            where += f", field '{self.field}'"
        return f"{where}: {self.reason}"

    def at(self, index: int, event_type: str | None) -> RecordError:
        return RecordError(self.reason, field=self.field, index=index, event_type=event_type)

    def inside(self, prefix: str) -> RecordError:
        field = prefix + ("." + self.field if self.field else "")
        return RecordError(self.reason, field=field, index=self.index,
                           event_type=self.event_type)


# --- rules -------------------------------------------------------------------------------------

def rules_to_dict(rules: Ruleset) -> dict[str, Any]:
    """Every option, so a record does not depend on this version's presets."""
    options: dict[str, Any] = {}
    for f in fields(rules):
        if f.name != "name":
            options[f.name] = _option_to_json(getattr(rules, f.name))
    return {"name": rules.name, "options": options}


def _option_to_json(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, Uma):
        return {"fixed": list(value.fixed),
                "floating": {str(n): list(uma) for n, uma in value.floating}}
    return value


def rules_from_dict(data: Any) -> Ruleset:
    """Options left out take the named preset's value (or the defaults for an unknown name)."""
    obj = _object(data, None, {"name", "options"}, {"name"})
    name = _str(obj["name"], "name")
    options = _object(obj.get("options", {}), "options", None, set())
    base = RULESETS.get(name, Ruleset())
    known = {f.name for f in fields(Ruleset)} - {"name"}
    changes: dict[str, Any] = {"name": name}
    for key, raw in options.items():
        if key not in known:
            raise RecordError("unknown rule option", field=f"options.{key}")
        changes[key] = _option_from_json(raw, getattr(base, key), f"options.{key}")
    rules = base.with_options(**changes)
    # The uma has one value a player, and the players may be read after it.
    for where, values in (("fixed", rules.uma.fixed),
                          *((f"floating.{n}", uma) for n, uma in rules.uma.floating)):
        if len(values) != rules.players:
            raise RecordError(f"{rules.players} players need {rules.players} uma values, got "
                              f"{len(values)}", field=f"options.uma.{where}")
    return rules


def _option_from_json(raw: Any, default: Any, field: str) -> Any:
    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise RecordError(f"expected true or false, got {brief(raw)}", field=field)
        return raw
    if isinstance(default, int):
        return _int(raw, field)
    if isinstance(default, str):
        return _str(raw, field)
    if isinstance(default, Enum):
        choices = [m.value for m in type(default)]
        if raw not in choices:
            raise RecordError(f"expected one of {choices}, got {brief(raw)}", field=field)
        return type(default)(raw)
    if isinstance(default, frozenset):
        return frozenset(_str(v, f"{field}[{i}]") for i, v in enumerate(_list(raw, field)))
    if isinstance(default, Uma):
        obj = _object(raw, field, {"fixed", "floating"}, {"fixed"})
        floating = _object(obj.get("floating", {}), f"{field}.floating", None, set())
        pairs = []
        for key, value in sorted(floating.items()):
            if key not in {"1", "2", "3", "4"}:
                raise RecordError("expected a count of players 1-4", field=f"{field}.floating")
            pairs.append((int(key), _uma_ints(value, f"{field}.floating.{key}")))
        return Uma(_uma_ints(obj["fixed"], f"{field}.fixed"), tuple(pairs))
    raise RecordError(f"cannot read option of type {type(default).__name__}", field=field)


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
            "breakdown": None if hand.breakdown is None else dict(hand.breakdown)}


_HAND_KEYS = {"winner", "han", "fu", "yakuman", "liable", "liable_yakuman", "hand", "breakdown"}
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
        None if text is None else _str(text, f"{where}.hand"), breakdown)


# --- the record -------------------------------------------------------------------------------

def record_to_dict(events: Sequence[Event]) -> dict[str, Any]:
    """The record of a game, each event with the state it left (points, honba, sticks)."""
    state = replay(events)
    rows = []
    for event, row in zip(events, state.history, strict=True):
        data = event_to_dict(event)
        data["after"] = {"points": list(row.points), "honba": row.honba, "sticks": row.sticks}
        rows.append(data)
    return {"format": FORMAT, "version": VERSION, "events": rows}


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
            after = _object(raw["after"], "after", {"points", "honba", "sticks"}, set())
        except RecordError as error:
            raise error.at(index, raw.get("type")) from None
        replayed = {"points": list(row.points), "honba": row.honba, "sticks": row.sticks}
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

def _object(raw: Any, field: str | None, allowed: Iterable[str] | None,
            required: Iterable[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise RecordError(f"expected an object, got {_kind(raw)}", field=field)
    prefix = f"{field}." if field else ""
    if allowed is not None:
        for key in raw:
            if key not in allowed:
                raise RecordError("unknown key", field=prefix + str(key))
    for key in required:
        if key not in raw:
            raise RecordError("missing", field=prefix + key)
    return raw


def _list(raw: Any, field: str) -> list[Any]:
    if not isinstance(raw, list):
        raise RecordError(f"expected a list, got {_kind(raw)}", field=field)
    return raw


def _int(raw: Any, field: str) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise RecordError(f"expected a whole number, got {_kind(raw)} {brief(raw)}", field=field)
    return raw


def _str(raw: Any, field: str) -> str:
    if not isinstance(raw, str):
        raise RecordError(f"expected text, got {_kind(raw)} {brief(raw)}", field=field)
    return raw


def _uma_ints(raw: Any, field: str) -> tuple[int, ...]:
    """One uma a player: 4 numbers, or 3 at a three-player table (checked against the rules'
    `players` when the game starts)."""
    values = _list(raw, field)
    if len(values) not in (3, 4):
        raise RecordError(f"expected 4 numbers (3 at a three-player table), got {len(values)}",
                          field=field)
    return tuple(_int(v, f"{field}[{i}]") for i, v in enumerate(values))


def _seat_set(raw: Any, field: str) -> frozenset[int]:
    values = [_int(v, f"{field}[{i}]") for i, v in enumerate(_list(raw, field))]
    if len(set(values)) != len(values):
        raise RecordError("a seat is listed twice", field=field)
    return frozenset(values)


def _kind(raw: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false",
            type(None): "null", float: "a decimal number", int: "a number"}.get(type(raw),
                                                                            type(raw).__name__)

