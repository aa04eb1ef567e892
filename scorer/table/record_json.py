"""The game record's rules and its strict JSON readers (docs/game-record.md, "Rules").

`rules_to_dict` writes every option of a `Ruleset`, so a record does not depend on this
version's presets; `rules_from_dict` reads them back, options left out taking the named preset's
value. Every wrong key or type is a `RecordError` naming the field; `scorer.table.record` adds
the event's index.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields, replace
from enum import Enum
from typing import Any

from scorer.limits import brief
from scorer.rules import PARLOR_RULESETS, RULESETS, Chips, RedFives, Ruleset, Stakes, Uma


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
    if isinstance(value, RedFives):  # one each / none as the true / false of older records
        if value.one_each or not value.any:
            return value.any
        return {"m": value.m, "p": value.p, "s": value.s}
    if isinstance(value, Chips | Stakes):
        return {f.name: getattr(value, f.name) for f in fields(value)}
    return value


def rules_from_dict(data: Any) -> Ruleset:
    """Options left out take the named preset's value (or the defaults for an unknown name)."""
    obj = _object(data, None, {"name", "options"}, {"name"})
    name = _str(obj["name"], "name")
    options = _object(obj.get("options", {}), "options", None, set())
    base = RULESETS.get(name) or PARLOR_RULESETS.get(name) or Ruleset()
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
    if isinstance(default, RedFives):
        if isinstance(raw, bool):
            return RedFives.of(raw)
        obj = _object(raw, field, {"m", "p", "s"}, {"m", "p", "s"})
        return RedFives(*(_int(obj[suit], f"{field}.{suit}") for suit in "mps"))
    if isinstance(default, Chips | Stakes):
        obj = _object(raw, field, {f.name for f in fields(default)}, set())
        return replace(default, **{key: _option_from_json(value, getattr(default, key),
                                                          f"{field}.{key}")
                                   for key, value in obj.items()})
    raise RecordError(f"cannot read option of type {type(default).__name__}", field=field)


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


def _kind(raw: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false",
            type(None): "null", float: "a decimal number", int: "a number"}.get(type(raw),
                                                                            type(raw).__name__)

