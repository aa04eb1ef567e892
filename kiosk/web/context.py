"""What a request handler reads from the running app: its services and the page language. Read
from `current_app.extensions` (as Flask's own extensions do), so the blueprints never import
`kiosk.web.app`, which imports them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import current_app, request, session

from kiosk.web.security import is_local
from kiosk.words import i18n

if TYPE_CHECKING:
    from kiosk.services import Services


def services() -> Services:
    kiosk: Services = current_app.extensions["kiosk"]
    return kiosk


def language() -> str:
    """The session's choice (the switch, `?lang=`, POST /api/session/language); else, on a
    phone or laptop, the first of its browser's languages the pages speak (Accept-Language);
    else the kiosk's configured language, which its own screen always starts in."""
    lang = session.get("lang")
    if lang in i18n.LANGS:
        return str(lang)
    if not is_local(request):
        wanted = i18n.negotiate(request.accept_languages.values())
        if wanted is not None:
            return wanted
    return services().config.language
