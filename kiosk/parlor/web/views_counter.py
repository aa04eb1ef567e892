"""The counter's pages (staff signed in): every table live, today's games, members with their
figures and their printable cards, the leaderboards and the daily report. They show what the
JSON API answers (`views_stats`), through the same functions and the same checked parameters; a
page asked for without a staff sign-in goes to the sign-in form.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from flask import Blueprint, Response, redirect, request
from markupsafe import Markup

from kiosk.errors import ApiError
from kiosk.parlor.link.cards import card_svg, card_text
from kiosk.parlor.standings.stats import ORDERS
from kiosk.parlor.store import settings
from kiosk.parlor.store.registry import member_number
from kiosk.parlor.web import access, query, sessions, views_stats
from kiosk.parlor.web.context import parlor, password_checked, signed_in_staff
from kiosk.parlor.web.pages import (
    BOARD,
    CARD,
    LOGIN,
    MEMBERS,
    TABLE_ROWS,
    TABLES,
    TODAY,
    fragment,
    language,
    page,
)
from kiosk.web.security import Security
from kiosk.words.i18n import t

blueprint = Blueprint("counter", __name__, url_prefix="/counter")
REFRESH = 15  # seconds between reloads of the tables page, in a browser without scripts
POLL = 2  # seconds between the tables page's asks for news (/counter/live), with scripts


def _staff() -> str:
    return str(signed_in_staff())


def _render(title: str, body: str, **values: Any) -> str:
    return page(title, body, staff=_staff(), csrf=Security.csrf_token(), **values)


@blueprint.before_request
def signed_in() -> Any:
    if request.endpoint in ("counter.login_form", "counter.login") or access.is_staff():
        return None
    return redirect("/counter/login")


def _args(allowed: set[str]) -> dict[str, str]:
    """The page's checked query parameters; ``lang`` (the pages' language, `pages.language`)
    may come with any of them."""
    return query.checked({k: v for k, v in request.args.items() if k != "lang"}, allowed)


@blueprint.get("/login")
def login_form() -> str:
    return page("parlor.page.title_login", LOGIN, staff=None, csrf=Security.csrf_token(),
                message="")


@blueprint.post("/login")
def login() -> Any:
    name, store = request.form.get("name", ""), parlor().store
    try:
        if password_checked(f"staff:{name[:40]}",
                            lambda: store.check_staff(name, request.form.get("password", ""))):
            sessions.begin(store.db, staff=name)
            return redirect("/counter/")
        message, status = t("parlor.page.wrong_password", language()), 403
    except ApiError as wait:
        message, status = f"{wait.message[0].upper()}{wait.message[1:]}.", wait.status
    return page("parlor.page.title_login", LOGIN, staff=None, csrf=Security.csrf_token(),
                message=message), status


@blueprint.post("/logout")
def logout() -> Any:
    sessions.end(parlor().store.db)
    return redirect("/counter/login")


def _live() -> tuple[list[dict[str, Any]], str]:
    """Every table now, and an ETag of what the page shows of them (minutes played included,
    seconds not: the tag moves when a row would)."""
    services = parlor()
    live = services.live.tables_json(services.store.tables())
    shown = [{**t, "game": t["game"] and {**t["game"], "playing_seconds":
                                          t["game"]["playing_seconds"] // 60}} for t in live]
    digest = hashlib.sha256(json.dumps(shown, sort_keys=True, default=str).encode())
    return live, f'"{digest.hexdigest()[:24]}"'


@blueprint.get("/")
def tables() -> str:
    live, etag = _live()
    return _render("parlor.page.tables", TABLES, tables=live, refresh=REFRESH, poll=POLL, etag=etag)


@blueprint.get("/live")
def live_rows() -> Response:
    """The tables page's rows alone, for its script: 304 while they are what it holds. One
    short request every `POLL` s a page, no connection held open between them."""
    live, etag = _live()
    if etag in request.headers.get("If-None-Match", ""):
        return Response(status=304, headers={"ETag": etag})
    return Response(fragment(TABLE_ROWS, tables=live), headers={"ETag": etag},
                    mimetype="text/html")


def _fields(args: dict[str, str], *names: tuple[str, str, str]) -> list[tuple[str, str, str,
                                                                              str]]:
    return [(name, label, args.get(name, ""), kind) for name, label, kind in names]


@blueprint.get("/members")
def members() -> str:
    args = _args({"from", "to", "q"})
    answer = views_stats.members_stats(args)
    fields = _fields(args, ("q", "parlor.page.name_or_number", "search"),
                     ("from", "parlor.page.from", "date"), ("to", "parlor.page.to", "date"))
    return _render("parlor.page.members", MEMBERS, members=answer["members"], fields=fields,
                   orders=())


@blueprint.get("/members/<number>/card")
def card(number: str) -> str:
    """A member's card to print: name, number and the QR code (`kiosk.parlor.link.cards`)."""
    member = parlor().store.member(member_number(number))
    return _render("parlor.page.title_card", CARD, title_values={"number": member.number},
                   member=member,
                   qr=Markup(card_svg(member.number)), text=card_text(member.number))


@blueprint.get("/leaderboard")
def leaderboard() -> str:
    args = _args({"month", "season", "from", "to", "min_games", "order"})
    answer = views_stats.board(args)
    fields = _fields(args, ("month", "parlor.page.month", "month"),
                     ("from", "parlor.page.from", "date"), ("to", "parlor.page.to", "date"),
                     ("min_games", "parlor.page.min_games", "number"))
    return _render("parlor.page.leaderboard", BOARD, board=answer, fields=fields, orders=ORDERS,
                   order=answer["order"], seasons=settings.seasons(parlor().store.db))


@blueprint.get("/today")
def today() -> str:
    args = _args({"date"})
    answer = views_stats.day_games(args)
    grouped: dict[str, list[dict[str, Any]]] = {}
    for game in answer["games"]:
        grouped.setdefault(game["table"], []).append(game)
    return _render("parlor.page.title_today", TODAY, title_values={"date": answer["date"]},
                   tables=grouped, day=answer["date"],
                   fields=_fields(args, ("date", "parlor.page.day", "date")), orders=())


@blueprint.get("/report.csv")
def report() -> Response:
    return views_stats.report(query.checked(request.args, {"date"}))
