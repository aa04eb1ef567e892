"""Rulesets to and from JSON for the API and the new-game form, option by option.

Generic over `Ruleset`'s fields (read from the tenhou preset's values), so a new rule option shows
up on the form without a change here. Bad values are rejected naming the option.
"""

from __future__ import annotations

import re
from dataclasses import fields, replace
from enum import Enum
from typing import Any

from kiosk.errors import ApiError
from scorer.limits import (
    CHIP_FACTOR,
    CHIPS,
    LABEL_LENGTH,
    LABELS,
    MONEY,
    RULE_OPTIONS,
    UMA,
    Range,
    brief,
    number_problem,
    text_problem,
)
from scorer.rules import PARLOR_RULESETS, RULESETS, Chips, RedFives, Ruleset, Stakes, Uma
from scorer.table import IllegalEvent, RecordError, rules_from_dict, rules_to_dict
from scorer.table.validation import check_rules

#: Yakuman a liable (pao) player can answer for, offered on the form.
PAO_CHOICES = ("daisangen", "daisuushii", "suukantsu")


#: Every preset a game may start from: the usual ones, then the free parlors' with chips and
#: stakes (`scorer.rules.PARLOR_RULESETS`).
PRESETS: dict[str, Ruleset] = {**RULESETS, **PARLOR_RULESETS}

#: Rule options the form does not offer (none now): a preset's value holds.
NOT_ON_FORM: tuple[str, ...] = ()

#: Options that are values of several parts (`Ruleset.chips`, `Ruleset.stakes`): the form shows
#: each part as an option of its own, `chips.ura`, `stakes.rate`, and `POST /api/games` takes
#: them so, or the whole option as an object as the game record writes it.
PARTS: dict[str, type[Chips] | type[Stakes]] = {"chips": Chips, "stakes": Stakes}
#: The bounds of each whole-number part, as the table checks them (`scorer.limits`).
PART_BOUNDS: dict[str, Range] = {
    **{f"chips.{f.name}": CHIPS for f in fields(Chips) if f.type in (int, "int")},
    "chips.tsumo_factor": CHIP_FACTOR,
    **{f"stakes.{f.name}": MONEY for f in fields(Stakes)},
}


def bounds(name: str) -> Range | None:
    """A whole-number option's (or part's) bounds; None for any other."""
    return RULE_OPTIONS.get(name) or PART_BOUNDS.get(name)


def _kind(value: Any) -> str:
    if isinstance(value, bool | RedFives):
        return "bool"  # red fives: on (the preset's, else one a suit) or off
    if isinstance(value, int):
        return "int"
    if isinstance(value, Enum):
        return "enum"
    if isinstance(value, Uma):
        return "uma"
    if isinstance(value, frozenset):
        return "set"
    return "text"


def option_fields() -> list[dict[str, Any]]:
    """Every rule option: name, kind (bool/int/enum/uma/set/text) and choices where closed."""
    sample = RULESETS["tenhou"]
    out: list[dict[str, Any]] = []
    for f in fields(Ruleset):
        if f.name in NOT_ON_FORM:
            continue
        if f.name in PARTS:
            out.extend({"name": f"{f.name}.{part.name}",
                        "kind": _kind(getattr(getattr(sample, f.name), part.name))}
                       for part in fields(PARTS[f.name]))
            continue
        value = getattr(sample, f.name)
        entry: dict[str, Any] = {"name": f.name, "kind": _kind(value)}
        if isinstance(value, Enum):
            entry["choices"] = [m.value for m in type(value)]
        elif isinstance(value, frozenset):
            entry["choices"] = sorted(set(PAO_CHOICES) | {v for r in RULESETS.values()
                                                          for v in getattr(r, f.name)})
        out.append(entry)
    return out


def uma_text(uma: Uma) -> str:
    fixed = ",".join(str(u) for u in uma.fixed)
    floating = ";".join(f"{k}:{','.join(str(u) for u in v)}" for k, v in uma.floating)
    return fixed + (f" | {floating}" if floating else "")


def to_json(rules: Ruleset) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(rules):
        value = getattr(rules, f.name)
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, Uma):
            value = uma_text(value)
        elif isinstance(value, frozenset):
            value = sorted(value)
        elif isinstance(value, RedFives | Chips | Stakes):
            value = rules_to_dict(rules)["options"][f.name]  # as the game record writes it
        out[f.name] = value
        if f.name in PARTS:  # and each part as the form's inputs hold it
            out.update((f"{f.name}.{k}", v) for k, v in value.items())
    return out


def preset_words() -> list[str]:
    """The presets as a refusal's words name them (`kiosk.words.refusal_words.word`)."""
    return ["t:ruleset." + name for name in sorted(PRESETS)]


def _option(name: str) -> str:
    """An option as a refusal's words name it: its name on the form, in the page's language."""
    return "t:opt." + name


def _number(value: Any, name: str, bounds: Range) -> int:
    problem = number_problem(value, bounds)
    if problem:
        raise ApiError(400, f"option {name}: {problem}", code="rule_number", words={
            "option": _option(name), "low": f"{bounds.low:,}", "high": f"{bounds.high:,}",
            "got": brief(value)})
    return int(value)


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise ApiError(400, f"option {name}: expected true or false, got {brief(value)}",
                       code="rule_bool", words={"option": _option(name), "got": brief(value)})
    return value


def _text(value: Any, name: str) -> str:
    problem = text_problem(value, LABEL_LENGTH)
    if problem or not value.strip():
        raise ApiError(400, f"option {name}: {problem or 'must not be blank'}", code="rule_text",
                       words={"option": _option(name), "most": LABEL_LENGTH})
    return str(value)


def _values(text: str, name: str) -> tuple[int, ...]:
    """One uma value a player: four, or three at a three-player table (`from_json` checks the
    count against the rules' `players`)."""
    try:
        values = tuple(int(v) for v in re.split(r"[,\s]+", text.strip()) if v)
    except ValueError:  # not digits, or more digits than Python converts
        raise ApiError(400, f"option {name}: {brief(text)} is not whole numbers",
                       code="uma_numbers", words={"got": brief(text)}) from None
    if len(values) not in (3, 4):
        raise ApiError(400, f"option {name}: needs four values (1st to 4th), or three at a "
                       f"three-player table, got {len(values)}", code="uma_count",
                       words={"count": len(values)})
    for value in values:
        _number(value, name, UMA)
    return values


def parse_uma(value: Any) -> Uma:
    """`"20,10,-10,-20"`, `"20,0,-20"` (three players) or
    `"12,-1,-3,-8 | 1:12,-1,-3,-8;2:8,4,-4,-8"` (floating uma)."""
    if not isinstance(value, str):
        raise ApiError(400, "option uma: expected text like '20,10,-10,-20'", code="uma_text")
    fixed_text, _, floating_text = value.partition("|")
    floating = []
    for part in filter(None, (p.strip() for p in floating_text.split(";"))):
        key, sep, rest = part.partition(":")
        if not sep or key.strip() not in ("1", "2", "3", "4"):
            raise ApiError(400, f"option uma: floating part {brief(part)} is not 'N:a,b,c,d' "
                           "(N: how many players finish at or above the return points, 1-4)",
                           code="uma_floating", words={"part": brief(part)})
        floating.append((int(key), _values(rest, "uma")))
    return Uma(_values(fixed_text, "uma"), tuple(floating))


def _check_uma(rules: Ruleset) -> Ruleset:
    """One uma value a player, named here rather than refused later by the table's check."""
    for values in (rules.uma.fixed, *(v for _, v in rules.uma.floating)):
        if len(values) != rules.players:
            raise ApiError(400, f"option uma: {rules.players} players need {rules.players} "
                           f"values (1st to last), got {len(values)}", code="uma_players",
                           words={"players": rules.players, "count": len(values)})
    return rules


def _record_option(base: Ruleset, name: str, value: Any) -> Any:
    """An option written as the game record writes it (red fives per suit `{"m": 1, "p": 2,
    "s": 1}`, chips and stakes objects): read by the record's reader, its bounds checked by the
    table's."""
    try:
        rules = rules_from_dict({"name": base.name, "options": {name: value}})
        check_rules(rules)
    except (RecordError, IllegalEvent) as bad:
        if name == "red_fives":  # (the form's words: a checkbox, on or off)
            raise ApiError(400, f"option {name}: {bad}", code="rule_bool",
                           words={"option": _option(name), "got": brief(value)}) from None
        raise ApiError(400, f"option {name}: {bad}", code="field_object",
                       words={"field": f"options.{name}"}) from None
    return getattr(rules, name)


def from_json(preset: str, options: Any) -> Ruleset:
    """A preset with some options changed; unknown options and bad values are 400s naming them."""
    if preset not in PRESETS:
        raise ApiError(400, f"unknown ruleset preset {brief(preset)}",
                       [f"known: {', '.join(sorted(PRESETS))}"], code="unknown_preset",
                       words={"preset": brief(preset), "known": preset_words()})
    base = PRESETS[preset]
    if options is None:
        return base
    if not isinstance(options, dict):
        raise ApiError(400, "options: expected an object of rule options", code="field_object",
                       words={"field": "options"})
    known = {f.name for f in fields(Ruleset)} | {f"{name}.{part.name}" for name, kind
                                                  in PARTS.items() for part in fields(kind)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ApiError(400, f"unknown rule option(s): {', '.join(unknown)}", code="rule_unknown",
                       words={"options": ", ".join(u[:60] for u in unknown)})
    changes: dict[str, Any] = {}
    parts: dict[str, dict[str, Any]] = {}
    for name, value in options.items():
        if "." in name:  # one part of chips or stakes, as the form posts it
            option, part = name.split(".")
            current = getattr(getattr(base, option), part)
            if isinstance(current, bool):
                parts.setdefault(option, {})[part] = _bool(value, name)
            else:
                parts.setdefault(option, {})[part] = _number(value, name, PART_BOUNDS[name])
            continue
        current = getattr(base, name)
        kind = _kind(current)
        if isinstance(current, RedFives | Chips | Stakes) and not isinstance(value, bool):
            value = _record_option(base, name, value)
        elif isinstance(current, RedFives):  # the form's checkbox: the preset's red fives or none
            value = (current if current.any else RedFives()) if value else RedFives(0, 0, 0)
        elif kind == "bool":
            value = _bool(value, name)
        elif kind == "int":
            value = _number(value, name, RULE_OPTIONS[name])
        elif kind == "enum":
            try:
                value = type(current)(value)
            except ValueError:
                choices = ", ".join(m.value for m in type(current))
                raise ApiError(400, f"option {name}: {brief(value)} is not one of "
                               f"{choices}", code="rule_choice", words={
                                   "option": _option(name), "got": brief(value),
                                   "choices": [f"t:choice.{name}.{m.value}"
                                               for m in type(current)]}) from None
        elif kind == "uma":
            value = parse_uma(value)
        elif kind == "set":
            if not isinstance(value, list) or len(value) > LABELS:
                raise ApiError(400, f"option {name}: expected a list of at most {LABELS} names",
                               code="rule_list", words={"option": _option(name), "most": LABELS})
            value = frozenset(_text(v, name) for v in value)
        else:
            value = _text(value, name)
        changes[name] = value
    for option, values in parts.items():  # the parts over the whole option, where both came
        changes[option] = replace(changes.get(option, getattr(base, option)), **values)
    return _check_uma(replace(base, **changes))
