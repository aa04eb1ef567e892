"""Member cards: what a card's QR code says, the name a kiosk writes for a member, and reading a
card in a camera frame.

A card's QR code holds ``riichi-member:<number>`` (`CARD_PREFIX` and the member number, e.g.
``riichi-member:00012``): plain text any phone's scanner shows as it is, that says whose parlor
thing it is, and no secret (the number is printed on the card beside it). The QR code is made by
the kiosk's one encoder (`kiosk.web.qr.qr_svg`, segno) and read with OpenCV's `cv2.QRCodeDetector`.

A member at a kiosk's seat is written ``Name #NUMBER`` (`seat_name`): the parlor counts a seat
whose player's name ends so for that member (`kiosk.parlor.store.results.member_tag`).

>>> card_text("00012"), card_number("riichi-member:00012"), card_number("https://example.com")
('riichi-member:00012', '00012', None)
>>> seat_name("Ana", "00012"), seat_name("Bartholomew Cunningham-Smythe", "00012")
('Ana #00012', 'Bartholomew Cunni #00012')
"""

from __future__ import annotations

from typing import Any

from kiosk.parlor.store.registry import MEMBER_NUMBER
from scorer.limits import NAME_LENGTH

CARD_PREFIX = "riichi-member:"


def card_text(number: str) -> str:
    """What the QR code of member `number`'s card says."""
    return CARD_PREFIX + number


def card_number(text: str) -> str | None:
    """The member number a card's QR text carries, or None for any other QR code."""
    if not text.startswith(CARD_PREFIX):
        return None
    number = text[len(CARD_PREFIX):].strip()
    return number if MEMBER_NUMBER.fullmatch(number) else None


def card_svg(number: str) -> str:
    """The card's QR code as inline SVG (the kiosk's own encoder)."""
    from kiosk.web.qr import qr_svg

    return qr_svg(card_text(number))


def seat_name(name: str, number: str) -> str:
    """``Name #NUMBER`` within a player's name length (`NAME_LENGTH`): a long name is cut, the
    number never is (the parlor reads the seat's member from it)."""
    tag = f" #{number}"
    return name.strip()[:max(NAME_LENGTH - len(tag), 0)].rstrip() + tag


def read_card(image: Any) -> str | None:
    """The text of a QR code in `image` (BGR pixels), or None when none can be read. A small
    code far from the camera is looked for again in the frame enlarged twice."""
    import cv2

    detector = cv2.QRCodeDetector()
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    for attempt in (gray, None):
        if attempt is None:
            if max(gray.shape[:2]) > 2000:
                break
            attempt = cv2.resize(gray, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
        try:
            text, _, _ = detector.detectAndDecode(attempt)
        except cv2.error:  # a frame OpenCV's detector cannot take: no card in it
            text = ""
        if text:
            return str(text)
    return None
