"""The new-game form's member picker, where a parlor is configured (docs/parlor.md).

``POST /api/members/search {q}`` asks the parlor (with the table's token) for members by name or
number; ``POST /api/members/scan`` reads a member card's QR code in the camera's picture and asks
the parlor whose it is. Each answers the member as the seat's name is written (``Name #NUMBER``,
`kiosk.parlor.link.cards.seat_name`). Both are POSTs, so they pass the check every change passes
(the kiosk's own screen, or a PIN session with its CSRF token): the parlor's members are shown to
whoever may start a game at this table, not to any phone on the network.

The parlor is asked with a short timeout and never by the outbox's thread; when it cannot be
reached the search says so (503 ``parlor_unreachable``) and the player types the name, and a
scanned card still gives its number (``offline``: the form writes it after the typed name).
"""

from __future__ import annotations

from typing import Any

from device.camera import CameraError
from kiosk.errors import ApiError
from kiosk.table import checks
from kiosk.web.api.common import blueprint, json_object
from kiosk.web.context import services
from scorer.limits import brief

SEARCH_LENGTH = 40  # the parlor's own bound (kiosk.parlor.web.views_kiosks)
RESULTS = 8  # members one search shows
TIMEOUT = 3.0  # seconds the form waits for the parlor
SCAN_FRAMES = 4  # camera pictures looked at for a card before saying none is seen


def _link() -> Any:
    config = services().config
    if not config.parlor_url:
        raise ApiError(404, "no parlor is configured: type the players' names",
                       code="parlor_none")
    from kiosk.parlor.link.client import ParlorLink

    return ParlorLink(config.parlor_url, config.parlor_table, config.parlor_token)


def _find(search: str) -> list[dict[str, str]]:
    """The parlor's members for `search`, or a coded refusal saying why there are none."""
    from kiosk.parlor.link.cards import seat_name
    from kiosk.parlor.link.client import Refused, Rejected, Unreachable, find_members

    link = _link()
    try:
        found = find_members(link, search, RESULTS, TIMEOUT)
    except Unreachable:
        raise ApiError(503, "the parlor cannot be reached: type the player's name (a member "
                       "adds #number)", code="parlor_unreachable") from None
    except Refused:
        raise ApiError(503, "the parlor refused this table's token: ask the parlor's staff",
                       code="parlor_refused") from None
    except Rejected as e:
        raise ApiError(400, f"the parlor refused the search: {str(e)[:200]}",
                       code="member_search_refused") from None
    return [{**m, "seat_name": seat_name(m["name"], m["number"])} for m in found]


@blueprint.post("/members/search")
def search_members() -> dict[str, Any]:
    body = json_object()
    checks.known_fields(body, ("q",))
    raw = body.get("q")
    search = raw.strip() if isinstance(raw, str) else ""
    if not 1 <= len(search) <= SEARCH_LENGTH:
        raise ApiError(400, f"q: type 1-{SEARCH_LENGTH} characters of a name or a member "
                       "number", code="member_query", words={"most": SEARCH_LENGTH})
    return {"members": _find(search)}


def _card_text() -> str:
    """The QR text of a card in one of the camera's next pictures, or a coded refusal."""
    from kiosk.parlor.link.cards import read_card

    camera = services().camera
    for _ in range(SCAN_FRAMES):
        try:
            still = camera.capture()
        except CameraError:
            raise ApiError(503, "no photo from the camera", code="camera_no_photo") from None
        text = read_card(still.image)
        if text:
            return text
    raise ApiError(422, "no member card seen: hold the card's QR code in front of the camera",
                   code="member_card_unseen")


@blueprint.post("/members/scan")
def scan_card() -> dict[str, Any]:
    from kiosk.parlor.link.cards import card_number

    checks.known_fields(json_object(required=False), ())
    _link()  # no parlor: nothing to scan a card for
    text = _card_text()
    number = card_number(text)
    if number is None:
        raise ApiError(422, f"that QR code is not a member card ({brief(text)})",
                       code="member_card_foreign", words={"got": brief(text)})
    try:
        found = _find(number)
    except ApiError as e:
        if e.extra.get("code") != "parlor_unreachable":
            raise
        return {"member": {"number": number, "name": None, "seat_name": None},
                "offline": True}
    match = next((m for m in found if m["number"] == number), None)
    if match is None:
        raise ApiError(404, f"the parlor has no member {number}", code="member_missing",
                       words={"number": number})
    return {"member": match, "offline": False}
