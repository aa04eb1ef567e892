"""Bounds on everything that comes from outside (the kiosk's API, game records, the CLIs).

Wide enough for any real game, narrow enough that no accepted value can overflow a standing's
float, pass Python's 4,300-digit int-to-text limit or make every live update megabytes long.
The checks return a problem (text) or None, and each caller raises it as its own error naming the
field: a 400 in the kiosk, a `RecordError` in a record, an `IllegalEvent` at the table.

>>> number_problem(8000, POINTS) is None, number_problem(-1, HAN)
(True, 'expected a whole number from 0 to 100, got -1')
>>> text_problem("Ann\\x07", NAME_LENGTH)
'has a control character (U+0007) at position 3'
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Range:
    low: int
    high: int

    def __str__(self) -> str:
        return f"from {self.low:,} to {self.high:,}"


POINTS = Range(-10_000_000, 10_000_000)  # a seat's points, a delta, a payment
PAYMENT = Range(1, POINTS.high)  # one transfer of points from a payer to a payee
HAN = Range(0, 100)
FU = Range(0, 140)
YAKUMAN = Range(0, 10)  # yakuman units in one hand (a real hand stacks at most 6)
HONBA = Range(0, 1000)
STICKS = Range(0, 1000)  # riichi sticks on the table
KITA = Range(0, 4)  # Norths pulled out at a three-player table (a set has four)
UMA = Range(-1000, 1000)  # placement bonus, in thousands of points
RED_FIVES = Range(0, 4)  # red fives of one suit a set holds (`Ruleset.red_fives`)
CHIPS = Range(0, 1000)  # chips a convention pays (`Ruleset.chips`), chips a win moves per payer
CHIP_FACTOR = Range(1, 10)  # `Chips.tsumo_factor`
MONEY = Range(0, 1_000_000)  # each value of `Ruleset.stakes`, in the house's money unit

_POINT_OPTION = Range(0, POINTS.high)
#: Every whole-number rule option (tests check that none is missing).
RULE_OPTIONS: dict[str, Range] = {
    "players": Range(3, 4),  # sanma or a four-player table
    "min_han": Range(0, 13),
    "double_wind_pair_fu": Range(0, 8),
    "honba_value": _POINT_OPTION,
    "riichi_stick": _POINT_OPTION,
    "noten_total": _POINT_OPTION,
    "riichi_abort_count": Range(0, 4),
    "chombo_points": _POINT_OPTION,
    "chombo_each": _POINT_OPTION,
    "start_points": Range(1, POINTS.high),
    "return_points": _POINT_OPTION,
    "target_points": _POINT_OPTION,
}

NAME_LENGTH = 24  # a player's name
REASON_LENGTH = 200  # why points were corrected, why a game ended
LABEL_LENGTH = 40  # a ruleset's name, a yaku id
BREAKDOWN_TEXT_LENGTH = 1000  # a text in a win's breakdown (a yaku, a fu item, the reading)
HAND_TEXT_LENGTH = 200  # a hand as text ("234m456p22s345678s win 8s [777z]")
TILES_TEXT_LENGTH = 200  # tiles as the API takes them ("2m,3m,4m" or "234m")
LABELS = 16  # names in one set option (e.g. the yakuman with pao)

GAME_EVENTS = 1000  # events in one game (real Tenhou games: at most 32); each change replays them

JSON_MAX_BYTES = 4 * 1024 * 1024
JSON_MAX_DEPTH = 32  # a game record needs 8 levels, a request 5

# (The escapes are the pattern's own: mypyc takes no surrogates in a string literal.)
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def brief(value: Any, limit: int = 60) -> str:
    """`repr(value)` for a message: cut to `limit` characters, and never raising (Python refuses
    to print an int past 4,300 digits)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    try:
        text = repr(value)
    except ValueError:
        return f"a {type(value).__name__} holding a number too long to print"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def number_problem(value: Any, bounds: Range) -> str | None:
    """None for a whole number within `bounds` (not a bool), else what is wrong."""
    if isinstance(value, bool) or not isinstance(value, int) or not (
            bounds.low <= value <= bounds.high):
        return f"expected a whole number {bounds}, got {brief(value)}"
    return None


def text_problem(value: Any, max_length: int) -> str | None:
    """None for text of at most `max_length` characters with nothing unprintable (control
    characters, lone surrogates: they break the store, the exports and the pages)."""
    if not isinstance(value, str):
        return f"expected text, got {brief(value)}"
    if len(value) > max_length:
        return f"at most {max_length} characters, got {len(value):,}"
    bad = _UNPRINTABLE.search(value)
    if bad:
        code = ord(bad.group())
        what = "lone surrogate" if 0xD800 <= code <= 0xDFFF else "control character"
        return f"has a {what} (U+{code:04X}) at position {bad.start()}"
    return None


def json_value_problem(value: Any, max_text: int = BREAKDOWN_TEXT_LENGTH) -> tuple[str, str] | None:
    """(path, problem) for the first out-of-bounds number or text (keys too) in a parsed JSON
    value kept as it is (a win's breakdown), or None."""
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        path, node = stack.pop()
        problem = None
        if isinstance(node, dict):
            for key, child in node.items():
                problem = text_problem(key, LABEL_LENGTH)
                if problem:
                    return path or ".", f"key {brief(key)}: {problem}"
                stack.append((f"{path}.{key}", child))
        elif isinstance(node, list):
            stack.extend((f"{path}[{i}]", child) for i, child in enumerate(node))
        elif isinstance(node, str):
            problem = text_problem(node, max_text)
        elif isinstance(node, float):
            problem = None if abs(node) <= POINTS.high else f"expected a number {POINTS}"
        elif isinstance(node, int) and not isinstance(node, bool):
            problem = number_problem(node, POINTS)
        if problem:
            return path.lstrip(".") or ".", problem
    return None


class JsonError(ValueError):
    """JSON that is malformed, too large or nested too deeply; the message says which."""


class JsonTooLarge(JsonError):
    pass


class JsonTooDeep(JsonError):
    pass


def _no_constant(name: str) -> Any:
    raise JsonError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise JsonError(f"{brief(text, 20)} is too large for a number")
    return value


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)
#: `json.loads` of a text with load_json's hooks, and without its other checks: the part of a
#: line `scorer.record_reader` has checked already.
DECODE: Callable[[str], Any] = _DECODER.decode


def load_json(text: str | bytes, max_bytes: int = JSON_MAX_BYTES,
              max_depth: int = JSON_MAX_DEPTH) -> Any:
    """`json.loads` that refuses, as a `JsonError`, what would crash or swamp its reader: more
    than `max_bytes`, nesting past `max_depth`, NaN / Infinity (written, or as 1e999), a number
    of 4,300+ digits."""
    if len(text) > max_bytes:
        raise JsonTooLarge(f"too large: more than {max_bytes:,} bytes")
    try:
        if isinstance(text, str) and not text.startswith("\ufeff"):
            # json.loads with these hooks would build a decoder per call; this one is built once
            # (a BOM or bytes take json.loads, for its exact errors and decoding).
            data = DECODE(text)
        else:
            data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise JsonTooDeep(f"nested too deeply: more than {max_depth} levels") from None
    except (JsonError, json.JSONDecodeError, UnicodeDecodeError) as error:
        raise JsonError(str(error)) from None
    except ValueError:  # Python's limit on converting digits to an int
        raise JsonError("a number has more digits than Python reads (4,300)") from None
    # Nesting cannot exceed the brackets there are: most texts need no walk.
    opened = (text.count(b"[") + text.count(b"{") if isinstance(text, bytes)
              else text.count("[") + text.count("{"))
    if opened > max_depth and _depth(data) > max_depth:
        raise JsonTooDeep(f"nested too deeply: more than {max_depth} levels")
    return data


def _depth(data: Any) -> int:
    deepest = 0
    stack = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            deepest = max(deepest, depth)
            children = node.values() if isinstance(node, dict) else node
            stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return deepest
