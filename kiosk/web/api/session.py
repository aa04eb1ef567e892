"""Session, PIN and device tokens, language."""

from __future__ import annotations

from typing import Any

from flask import request, session

from kiosk.errors import ApiError
from kiosk.table import checks
from kiosk.web.api.common import blueprint, json_object
from kiosk.web.context import language, services
from kiosk.web.security import is_local
from kiosk.words import i18n
from scorer.limits import brief


@blueprint.get("/session")
def get_session() -> dict[str, Any]:
    kiosk = services()
    local = is_local(request)
    out = {"csrf": kiosk.security.csrf_token(), "local": local,
           "can_change": local or kiosk.security.has_pin_session(),
           "lan": kiosk.config.listens_on_lan, "language": language()}
    if local:
        out["pin"] = kiosk.security.pin  # shown on the kiosk's own screen only
        out["pin_alarm"] = kiosk.security.pin_alarm()
    return out


@blueprint.post("/session/pin")
def enter_pin() -> dict[str, Any]:
    kiosk = services()
    body = json_object()
    kiosk.security.check_pin(request.remote_addr or "?", body.get("pin"))
    kiosk.security.start_pin_session()
    return {"ok": True, "csrf": kiosk.security.csrf_token()}


@blueprint.post("/session/logout")
def logout() -> dict[str, Any]:
    services().security.end_pin_session()
    return {"ok": True}


@blueprint.post("/session/language")
def set_language() -> dict[str, Any]:
    lang = json_object().get("language")
    if lang not in i18n.LANGS:
        raise ApiError(400, f"language: {lang!r} is not one of {', '.join(i18n.LANGS)}",
                       code="field_choice", words={"field": "language", "got": brief(lang),
                                                   "allowed": ", ".join(i18n.LANGS)})
    session["lang"] = lang
    return {"language": lang}


@blueprint.post("/tokens")
def issue_token() -> tuple[dict[str, Any], int]:
    _kiosk_screen_only()  # a PIN session must not outlive its logout as a token
    name = checks.text(json_object().get("name"), "name", 60).strip()
    return {"name": name, "token": services().security.issue_token(name)}, 201


def _kiosk_screen_only() -> None:
    if request.environ.get("kiosk.who") != "kiosk" and not is_local(request):
        raise ApiError(403, "device tokens are listed and revoked on the kiosk's own screen",
                       code="tokens_kiosk_only")


@blueprint.get("/tokens")
def list_tokens() -> dict[str, Any]:
    _kiosk_screen_only()
    return {"tokens": services().security.list_tokens()}


@blueprint.delete("/tokens/<token_id>")
def revoke_token(token_id: str) -> dict[str, Any]:
    _kiosk_screen_only()
    return {"revoked": services().security.revoke_token(token_id)}
