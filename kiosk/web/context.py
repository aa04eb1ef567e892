"""What a request handler reads from the running app: its services and the page language. Read
from `current_app.extensions` (as Flask's own extensions do), so the blueprints never import
`kiosk.web.app`, which imports them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import current_app, session

from kiosk.words import i18n

if TYPE_CHECKING:
    from kiosk.services import Services


def services() -> Services:
    kiosk: Services = current_app.extensions["kiosk"]
    return kiosk


def language() -> str:
    lang = session.get("lang")
    return lang if lang in i18n.LANGS else services().config.language
