"""The pages: server-rendered HTML; the scripts they load talk to the JSON API."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from kiosk.table import present, rule_form
from kiosk.web.context import services
from kiosk.web.qr import qr_svg, table_url
from kiosk.web.security import is_local

blueprint = Blueprint("pages", __name__)


@blueprint.get("/")
def table() -> str:
    kiosk = services()
    url = table_url(kiosk.config, request.host_url)
    local = is_local(request)
    game = kiosk.game
    state = present.state_json(game._table, game.game_id)  # noqa: SLF001  (a snapshot read)
    lan = kiosk.config.listens_on_lan or bool(kiosk.config.public_url)
    return render_template("table.html", qr_svg=qr_svg(url), table_url=url, state=state, lan=lan,
                           show_pin=local, pin=kiosk.security.pin if local else "",
                           pin_alarm=kiosk.security.pin_alarm() if local else None)


@blueprint.get("/new")
def new_game() -> str:
    return render_template("new_game.html", presets=rule_form.presets(),
                           default_ruleset=services().config.ruleset,
                           groups=rule_form.groups(), values=rule_form.form_values(),
                           parlor=bool(services().config.parlor_url))


@blueprint.get("/win")
def win() -> str:
    return render_template("win.html")


@blueprint.get("/draw")
def draw() -> str:
    return render_template("draw.html")


@blueprint.get("/other")
def other() -> str:
    return render_template("other.html", local=is_local(request))


@blueprint.get("/teach")
def teach() -> str:
    return render_template("teach.html")


@blueprint.get("/history")
def history() -> str:
    return render_template("history.html")


@blueprint.get("/standings")
def standings() -> str:
    return render_template("standings.html")


@blueprint.get("/games")
def games() -> str:
    return render_template("games.html")


# Screens that watch the table (issue 38, item 7): a TV beside it, a phone that keeps its own
# seat at the bottom, and the final ranking by itself (kiosk/web/static/tv.js, me.js,
# results.js; the moment after a win: moments.js).
@blueprint.get("/tv")
def tv() -> str:
    return render_template("tv.html")


@blueprint.get("/me")
def me() -> str:
    return render_template("me.html")


@blueprint.get("/results")
def results() -> str:
    return render_template("results.html")
