"""Field checks for the API: the bounds of `scorer.limits`, a failure a 400 naming the field.

Every number and text a request brings passes one of these before anything is stored. Each
refusal carries a code and its details (the field, the bounds, what came), so a page in another
language says it in its own words (kiosk/words/locale/, `err.*`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from kiosk.errors import ApiError
from scorer.limits import Range, brief, number_problem, text_problem

_UNPRINTABLE_AT = re.compile(r"U\+([0-9A-F]+)")


def whole(value: Any, field: str, bounds: Range) -> int:
    problem = number_problem(value, bounds)
    if problem:
        raise ApiError(400, f"{field}: {problem}", code="field_number", words={
            "field": field, "low": f"{bounds.low:,}", "high": f"{bounds.high:,}",
            "got": brief(value)})
    return int(value)


def text(value: Any, field: str, max_length: int, *, required: bool = True) -> str:
    """Text of at most `max_length` printable characters (not blank when `required`)."""
    problem = text_problem(value, max_length)
    if problem:
        words: dict[str, Any]
        if not isinstance(value, str):
            code, words = "field_text", {"got": brief(value)}
        elif len(value) > max_length:
            code, words = "field_too_long", {"most": max_length, "n": f"{len(value):,}"}
        else:
            at = _UNPRINTABLE_AT.search(problem)
            code, words = "field_unprintable", {"char": at[1] if at else "?"}
        raise ApiError(400, f"{field}: {problem}", code=code, words={"field": field, **words})
    if required and not value.strip():
        raise ApiError(400, f"{field}: must not be blank", code="field_blank",
                       words={"field": field})
    return str(value)


def seat(value: Any, field: str, seats: int = 4) -> int:
    """A seat number of a table of `seats`: 0-3, or 0-2 at a three-player table (there is no
    seat 3 to win, deal in or pay there, so it is a 400 before the rules core sees it)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise ApiError(400, f"{field}: expected a seat 0-{seats - 1}, got {brief(value)}",
                       code="field_seat", words={"field": field, "last": seats - 1,
                                                 "got": brief(value)})
    return value


def flag(value: Any, field: str) -> bool:
    """true or false, nothing else (not 0 / 1, not "yes")."""
    if not isinstance(value, bool):
        raise ApiError(400, f"{field}: expected true or false, got {brief(value)}",
                       code="field_bool", words={"field": field, "got": brief(value)})
    return value


def known_fields(body: dict[str, Any], known: Iterable[str], where: str = "") -> None:
    """A 400 naming every field of `body` not in `known` (`where`: the object's own name)."""
    unknown = sorted(set(body) - set(known))
    if unknown:
        fields = ", ".join(unknown)
        raise ApiError(400, f"{where}: unknown field(s): {fields}" if where else
                       f"unknown field(s): {fields}", code="unknown_fields",
                       words={"fields": f"{where}: {fields}" if where else fields})
