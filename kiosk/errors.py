"""The one error the kiosk refuses a request with: an HTTP status, a message, the problems named and
coded for other languages. Plain Python (no Flask): the services raise it, and the web layer's
handler (`kiosk.web.error_handler`) answers it as JSON or HTML."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kiosk.words import refusal_words
from scorer.hand import InvalidInput, Problem


class ApiError(Exception):
    """A request the kiosk refuses, with an HTTP status and the problems named.

    `code` (with its `words`) names the refusal for a page in another language: the answer
    carries both, and a session in Japanese gets `error` worded from the catalogue's
    ``err.<code>`` (its words worded too: `kiosk.words.refusal_words.word`); English keeps
    `message`. `coded` gives the `problems` the same way (``[{"code", "words"}]``, one per problem):
    a session not in English gets each worded from its ``err.<code>``.
    """

    def __init__(self, status: int, message: str, problems: Sequence[str] = (), *,
                 code: str | None = None, words: dict[str, Any] | None = None,
                 coded: Sequence[dict[str, Any]] = (), **extra: Any):
        super().__init__(message)
        self.status = status
        self.message = message
        self.problems = list(problems)
        self.extra = extra
        if code:
            self.extra = {**extra, "code": code, "words": dict(words or {})}
        if coded:
            self.extra["problem_codes"] = list(coded)


def bad_request(message: str, problems: Sequence[str] = (), **extra: Any) -> ApiError:
    return ApiError(400, message, problems, **extra)


def unprocessable(message: str, problems: Sequence[str] = (), **extra: Any) -> ApiError:
    return ApiError(422, message, problems, **extra)


def from_invalid(e: InvalidInput, message: str = "the hand or situation is not valid",
                 code: str = "hand_or_situation") -> ApiError:
    """The rules core's refusal of a hand: each of its problems named, and coded."""
    return impossible(message, e.problems, code)


def impossible(message: str, problems: Sequence[Problem], code: str) -> ApiError:
    """A 422 for a hand or situation that cannot be, its problems coded for other languages."""
    return ApiError(422, message, [str(p) for p in problems], code=code,
                    coded=refusal_words.coded(problems))
