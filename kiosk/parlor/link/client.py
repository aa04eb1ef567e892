"""The kiosk's HTTP calls to its parlor (standard library only): post a batch of events, and look
members up for the new-game form's picker.

Every outcome is a value or one of three errors the outbox treats differently: the parlor could
not be reached or failed (`Unreachable`: retry later), it refused the token (`Refused`: retry
much later, staff must act), or it refused the batch (`Rejected`, with the game it names).
"""

from __future__ import annotations

import http.client
import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

ANSWER_MAX = 1024 * 1024  # bytes read of an answer (a receipt per game is tiny)
# A kiosk talks to its parlor directly (on the LAN): an http_proxy meant for the internet must
# not carry the table's token elsewhere, so no proxy is taken from the environment.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class ParlorCallError(Exception):
    pass


class Unreachable(ParlorCallError):
    """No answer (refused, reset, timed out) or a server error: try again later."""


class Refused(ParlorCallError):
    """401/403: the token is unknown, revoked or another table's."""


class Rejected(ParlorCallError):
    """400/409/422: the batch itself was refused; `answer` is the parlor's JSON."""

    def __init__(self, status: int, answer: dict[str, Any]) -> None:
        super().__init__(f"{status}: {str(answer.get('error', ''))[:300]}")
        self.status, self.answer = status, answer


@dataclass(frozen=True, slots=True)
class ParlorLink:
    url: str  # the parlor's base URL, http(s)://host:port
    table: str
    token: str = ""

    def __repr__(self) -> str:  # never the token in a log or a traceback
        return f"ParlorLink({self.url!r}, {self.table!r})"

    @property
    def events_url(self) -> str:
        return f"{self.url.rstrip('/')}/api/tables/{quote(self.table, safe='')}/events"

    def members_url(self, search: str, limit: int) -> str:
        query = urlencode({"q": search, "limit": limit})
        return f"{self.url.rstrip('/')}/api/tables/{quote(self.table, safe='')}/members?{query}"


def _json(raw: bytes) -> dict[str, Any]:
    try:
        value = json.loads(raw[:ANSWER_MAX])
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def post_batch(link: ParlorLink, body: dict[str, Any], timeout: float) -> dict[str, Any]:
    """The parlor's answer to a batch (its ``games`` receipts), or one of the errors above."""
    request = urllib.request.Request(
        link.events_url, data=json.dumps(body, separators=(",", ":")).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {link.token}"})
    return _call(request, timeout)


def find_members(link: ParlorLink, search: str, limit: int,
                 timeout: float) -> list[dict[str, str]]:
    """Members whose name holds `search` or whose number it is (``{number, name}`` each), or one
    of the errors above (a refused search is `Rejected`)."""
    request = urllib.request.Request(link.members_url(search, limit),
                                     headers={"Authorization": f"Bearer {link.token}"})
    found = _call(request, timeout).get("members")
    if not isinstance(found, list):
        raise Unreachable("the parlor's answer has no members list")
    return [{"number": m["number"], "name": m["name"]} for m in found
            if isinstance(m, dict) and isinstance(m.get("number"), str)
            and isinstance(m.get("name"), str)]


def _call(request: urllib.request.Request, timeout: float) -> dict[str, Any]:
    try:
        with _OPENER.open(request, timeout=timeout) as response:
            return _json(response.read(ANSWER_MAX))
    except urllib.error.HTTPError as error:
        try:
            answer = _json(error.read(ANSWER_MAX) if error.fp else b"")
        except (OSError, http.client.HTTPException):  # the connection broke mid-answer
            answer = {}
        if error.code in (401, 403):
            raise Refused(f"{error.code}: {str(answer.get('error', ''))[:300]}") from None
        if error.code in (400, 409, 413, 422):
            raise Rejected(error.code, answer) from None
        raise Unreachable(f"HTTP {error.code}") from None
    except (OSError, ValueError, http.client.HTTPException) as error:  # URLError, timeouts,
        # resets, a torn answer (IncompleteRead, BadStatusLine)
        raise Unreachable(str(getattr(error, "reason", error))[:200]) from None
