"""Field checks for the API: the bounds of `scorer.limits`, a failure a 400 naming the field.

Every number and text a request brings passes one of these before anything is stored.
"""

from __future__ import annotations

from typing import Any

from kiosk.errors import ApiError
from scorer.limits import Range, brief, number_problem, text_problem


def whole(value: Any, field: str, bounds: Range) -> int:
    problem = number_problem(value, bounds)
    if problem:
        raise ApiError(400, f"{field}: {problem}")
    return int(value)


def text(value: Any, field: str, max_length: int, *, required: bool = True) -> str:
    """Text of at most `max_length` printable characters (not blank when `required`)."""
    problem = text_problem(value, max_length)
    if problem:
        raise ApiError(400, f"{field}: {problem}")
    if required and not value.strip():
        raise ApiError(400, f"{field}: must not be blank")
    return str(value)


def seat(value: Any, field: str, seats: int = 4) -> int:
    """A seat number of a table of `seats`: 0-3, or 0-2 at a three-player table (there is no
    seat 3 to win, deal in or pay there, so it is a 400 before the rules core sees it)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise ApiError(400, f"{field}: expected a seat 0-{seats - 1}, got {brief(value)}")
    return value
