"""Statistics, leaderboards, the day's games, the daily report, settings and seasons (JSON/CSV),
and a member's own sign-in.

Staff see everything. A signed-in member sees their own statistics and games
(``/api/members/<their number>/...`` or ``/api/me``) and the leaderboards. Every read first
brings the results up to date with the stored games (`Results.refresh`: only the games that
moved are replayed).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request

from kiosk.errors import ApiError
from kiosk.parlor.standings.reports import daily_report, played_games, report_csv
from kiosk.parlor.standings.stats import leaderboard, member_stats, stats_by_member
from kiosk.parlor.store import held, settings
from kiosk.parlor.store.registry import MEMBER_NUMBER, ParlorError, member_number
from kiosk.parlor.store.results import MEMBER_TAG, seat_rows
from kiosk.parlor.web import access, query, sessions
from kiosk.parlor.web.context import json_object, known_fields, parlor, password_checked, staff_name

blueprint = Blueprint("stats", __name__, url_prefix="/api")


def _fresh() -> settings.Settings:
    services = parlor()
    services.results.refresh()
    return settings.read_settings(services.store.db)


def members_stats(args: dict[str, str]) -> dict[str, Any]:
    """Every member (a page of them, by number) with their figures over the period."""
    found = _fresh()
    chosen = query.period(args, found)
    store = parlor().store
    listed = store.members(args.get("q", "").strip(), query.whole(args, "limit", 100,
                                                                  query.MAX_LIMIT) or 1,
                           query.whole(args, "offset", 0, query.MAX_OFFSET))
    figures = stats_by_member(seat_rows(store.db, chosen.start, chosen.end))
    return {"period": chosen.to_json(), "members": [
        {**m.to_json(), "stats": figures.get(m.id, member_stats(())).to_json()} for m in listed]}


@blueprint.get("/stats")
def all_stats() -> dict[str, Any]:
    staff_name()
    return members_stats(query.checked(request.args, {"from", "to", "q", "limit", "offset"}))


def one_member(number: str, args: dict[str, str]) -> dict[str, Any]:
    found = _fresh()
    chosen = query.period(args, found)
    store = parlor().store
    member = store.member(number)
    rows = seat_rows(store.db, chosen.start, chosen.end, member=member.id)
    return {**member.to_json(), "period": chosen.to_json(),
            "stats": member_stats(rows).to_json()}


def member_games(number: str, args: dict[str, str]) -> dict[str, Any]:
    """The member's finished games in the period, newest first, a page at a time."""
    found = _fresh()
    chosen = query.period(args, found)
    store = parlor().store
    member = store.member(number)
    limit = query.whole(args, "limit", 50, query.MAX_LIMIT) or 1
    offset = query.whole(args, "offset", 0, query.MAX_OFFSET)
    mine = [(r.table, r.game) for r in seat_rows(store.db, chosen.start, chosen.end,
                                                 member=member.id)]
    wanted = set(list(reversed(mine))[offset:offset + limit])
    games = [g for g in played_games(seat_rows(store.db, chosen.start, chosen.end))
             if (g.table, g.game) in wanted]
    return {**member.to_json(), "period": chosen.to_json(), "total": len(mine), "games": [
        _names_only(g.to_json({}), next(s.seat for s in g.seats if s.member == member.id))
        for g in reversed(games)]}


def _names_only(game: dict[str, Any], own_seat: int) -> dict[str, Any]:
    """The others at a member's games by name only: the ``#NUMBER`` a kiosk writes after a
    member's name is cut (one member's history must not list others' numbers)."""
    for seat in game["seats"]:
        if seat["seat"] != own_seat:
            seat["player"] = MEMBER_TAG.sub("", seat["player"]).rstrip() or "(a member)"
    return {**game, "own_seat": own_seat}


@blueprint.get("/members/<number>/stats")
def get_member_stats(number: str) -> dict[str, Any]:
    number = member_number(number)
    access.staff_or_member(number)
    return one_member(number, query.checked(request.args, {"from", "to"}))


@blueprint.get("/members/<number>/games")
def get_member_games(number: str) -> dict[str, Any]:
    number = member_number(number)
    access.staff_or_member(number)
    return member_games(number, query.checked(request.args, {"from", "to", "limit", "offset"}))


def board(args: dict[str, str]) -> dict[str, Any]:
    found = _fresh()
    store = parlor().store
    chosen, label = query.board_period(args, store.db, found)
    least = query.min_games(args, found)
    order = query.order(args)
    rows = leaderboard(store.db, store.members_by_id, chosen, least, order)
    return {"board": label, "period": chosen.to_json(), "min_games": least, "order": order,
            "rows": [r.to_json() for r in rows[:query.MAX_LIMIT]]}


@blueprint.get("/leaderboard")
def get_leaderboard() -> dict[str, Any]:
    access.anyone_signed_in()
    return board(query.checked(request.args, {"month", "season", "from", "to", "min_games",
                                              "order"}))


def day_games(args: dict[str, str]) -> dict[str, Any]:
    found = _fresh()
    chosen = query.day(args, found)
    store = parlor().store
    games = played_games(seat_rows(store.db, chosen.start, chosen.end, finished_only=False),
                         held.states(store.db))
    shown = query.page(args, "/api/games", "games", games)
    members = store.members_by_id({s.member for g in shown["games"] for s in g.seats
                                   if s.member is not None})
    return {"date": chosen.first.isoformat(), **shown,
            "games": [g.to_json(members) for g in shown["games"]]}


@blueprint.get("/games")
def get_games() -> dict[str, Any]:
    """One day's games (``date``, today by default) with their results, every table, a page
    at a time (``limit``, default `query.PAGE`; ``offset``; ``next`` links the next page)."""
    staff_name()
    return day_games(query.checked(request.args, {"date", "limit", "offset"}))


def report(args: dict[str, str]) -> Response:
    found = _fresh()
    chosen = query.day(args, found)
    store = parlor().store
    games = played_games(seat_rows(store.db, chosen.start, chosen.end, finished_only=False),
                         held.states(store.db))
    lines = daily_report([t.name for t in store.tables()], games, found.fee_per_game)
    name = f"parlor-report-{chosen.first.isoformat()}.csv"
    return Response(report_csv(chosen, found.fee_per_game, lines), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@blueprint.get("/report.csv")
def get_report() -> Response:
    staff_name()
    return report(query.checked(request.args, {"date"}))


@blueprint.put("/tables/<name>/games/<game>/seats/<int:seat>")
def link_seat(name: str, game: str, seat: int) -> dict[str, Any]:
    """Staff say which member sat at a game's seat (``{"member": "00012"}``), or that it was a
    guest (``{"member": null}``); this overrides a ``#NUMBER`` in the player's name."""
    staff_name()
    body = json_object()
    known_fields(body, {"member"})
    parlor().results.refresh()  # the game's seats as its events stand now
    store = parlor().store
    table = next((t for t in store.tables() if t.name == name), None)
    if table is None:
        raise ParlorError(f"no table {name[:40]!r}", 404, "name")
    raw = body.get("member")
    member = None if raw is None else store.member(member_number(raw, "member"))
    with store.db.transaction() as tx:
        found = tx.rows("SELECT seats FROM parlor_results WHERE table_id = ? AND game_id = ?",
                        (table.id, game))
        if not found or not 0 <= seat < int(found[0][0]):
            raise ParlorError(f"seat: table {name!r} has no game {game[:40]!r} with a seat "
                              f"{seat}", 404, "seat")
        tx.run("DELETE FROM parlor_seats WHERE table_id = ? AND game_id = ? AND seat = ?",
               (table.id, game, seat))
        if member is not None:
            if tx.rows("SELECT seat FROM parlor_seats WHERE table_id = ? AND game_id = ? AND "
                       "member_id = ?", (table.id, game, member.id)):
                raise ParlorError(f"member: {member.number} already sits at another seat of "
                                  "this game", 409, "member")
            tx.run("INSERT INTO parlor_seats VALUES (?, ?, ?, ?)",
                   (table.id, game, seat, member.id))
    return {"table": name, "game": game, "seat": seat,
            "member": None if member is None else member.number}


@blueprint.post("/games/<table>/<game>/seats/<int:seat>/confirm")
def confirm_seat(table: str, game: str, seat: int) -> dict[str, Any]:
    """Staff confirm that the member a seat's ``#NUMBER`` names sat there: from now on the seat
    counts for that member in the statistics and boards (a tag alone never does)."""
    staff_name()
    known_fields(json_object(required=False), set())
    parlor().results.refresh()
    store = parlor().store
    found = next((t for t in store.tables() if t.name == table), None)
    if found is None:
        raise ParlorError(f"no table {table[:40]!r}", 404, "table")
    with store.db.transaction() as tx:
        rows = tx.rows("SELECT s.tag, m.id, m.number FROM parlor_result_seats s LEFT JOIN "
                       "parlor_members m ON m.number = s.tag WHERE s.table_id = ? AND "
                       "s.game_id = ? AND s.seat = ?", (found.id, game, seat))
        if not rows:
            raise ParlorError(f"seat: table {table!r} has no game {game[:40]!r} with a seat "
                              f"{seat}", 404, "seat")
        tag, member_id, number = rows[0]
        linked = tx.rows("SELECT m.number FROM parlor_seats l JOIN parlor_members m ON m.id = "
                         "l.member_id WHERE l.table_id = ? AND l.game_id = ? AND l.seat = ?",
                         (found.id, game, seat))
        if linked:  # staff linked it already: confirmed
            return {"table": table, "game": game, "seat": seat, "member": linked[0][0],
                    "confirmed": True}
        if member_id is None:
            raise ParlorError(f"seat: seat {seat} names no member" + (
                f" (no member {tag})" if tag else "") + "; link one with PUT /api/tables/"
                "<name>/games/<game>/seats/<seat>", 409, "seat")
        if tx.rows("SELECT seat FROM parlor_seats WHERE table_id = ? AND game_id = ? AND "
                   "member_id = ?", (found.id, game, member_id)):
            raise ParlorError(f"member: {number} already sits at another seat of this game",
                              409, "member")
        tx.run("INSERT INTO parlor_seats VALUES (?, ?, ?, ?)", (found.id, game, seat, member_id))
    return {"table": table, "game": game, "seat": seat, "member": number, "confirmed": True}


# --- settings and seasons (staff) -----------------------------------------------------------

@blueprint.get("/settings")
def get_settings() -> dict[str, Any]:
    staff_name()
    db = parlor().store.db
    return {**settings.read_settings(db).to_json(),
            "seasons": [s.to_json() for s in settings.seasons(db)]}


@blueprint.patch("/settings")
def patch_settings() -> dict[str, Any]:
    staff_name()
    return settings.update_settings(parlor().store.db, json_object()).to_json()


@blueprint.post("/seasons")
def add_season() -> tuple[dict[str, Any], int]:
    staff_name()
    body = json_object()
    known_fields(body, {"name", "from", "to"})
    found = settings.add_season(parlor().store.db, body.get("name"), body.get("from"),
                                body.get("to"))
    return found.to_json(), 201


@blueprint.delete("/seasons/<name>")
def remove_season(name: str) -> dict[str, Any]:
    staff_name()
    settings.remove_season(parlor().store.db, settings.season_name(name))
    return {"deleted": name}


# --- a member's own sign-in -----------------------------------------------------------------

@blueprint.post("/members/<number>/password")
def set_password(number: str) -> dict[str, Any]:
    """Staff set (or reset) the password a member signs in with."""
    staff_name()
    body = json_object()
    known_fields(body, {"password"})
    store = parlor().store
    access.set_member_password(store.db, store.member(member_number(number)),
                               body.get("password"))
    return {"number": number, "can_sign_in": True}


@blueprint.post("/member/login")
def member_login() -> dict[str, Any]:
    body = json_object()
    known_fields(body, {"number", "password"})
    number, store = body.get("number"), parlor().store
    member = None
    if isinstance(number, str) and MEMBER_NUMBER.fullmatch(number):
        try:
            member = store.member(number)
        except ParlorError:  # the same answer as a wrong password, after the same work
            member = None
    if not password_checked(f"member:{str(number)[:40]}", lambda: access.check_member(
            store.db, member, body.get("password"))) or member is None:
        raise ApiError(403, "wrong member number or password")
    return {"member": member.number, "csrf": sessions.begin(store.db, member_id=member.id)}


@blueprint.get("/me")
def me() -> dict[str, Any]:
    """The signed-in member and their figures (``from``/``to`` as for any member)."""
    member = access.signed_in_member()
    if member is None:
        raise ApiError(401, "members only: sign in first (POST /api/member/login)",
                       needs_login=True)
    return one_member(member.number, query.checked(request.args, {"from", "to"}))
