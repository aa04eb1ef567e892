"""The game: state, new game, riichi, draws, chombo, corrections, undo/redo, end, exports, live.
The games list, resuming and importing are in `kiosk.web.api.games`."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Response

from kiosk.errors import ApiError
from kiosk.table import checks, export_name, present, rule_form, rules_json
from kiosk.web.api.common import blueprint, json_object
from kiosk.web.context import language, services
from kiosk.web.idempotency import Answer, keyed
from scorer.limits import GAME_EVENTS, NAME_LENGTH, POINTS, REASON_LENGTH, Range, brief
from scorer.table import (
    ENDED_AT_TABLE,
    AbortiveDraw,
    AbortKind,
    Chombo,
    Correction,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    RiichiDeclared,
    Transfer,
    dumps,
)

EVENTS = Range(1, GAME_EVENTS)  # a game's events, its start included (`state.game.events`)
_COUNT = {3: "three", 4: "four"}  # how many sit at a table (`Ruleset.players`), in words


def state() -> dict[str, Any]:
    return services().game.state_json()


def _table_seats() -> int:
    """How many sit at the current table: 4, or 3 at a three-player one (4 before any game,
    where the change is refused for want of a game anyway)."""
    game = services().game
    return game.table.state.seats if game.has_game else 4


def _seat(body: dict[str, Any], field: str = "seat", seats: int | None = None) -> int:
    return checks.seat(body.get(field), field, _table_seats() if seats is None else seats)


def _seats(body: dict[str, Any], field: str) -> frozenset[int]:
    values = body.get(field, [])
    if not isinstance(values, list):
        raise ApiError(400, f"{field}: expected a list of seats", code="field_list",
                       words={"field": field})
    last = _table_seats() - 1
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= last:
            raise ApiError(400, f"{field}: {brief(v)} is not a seat 0-{last}",
                           code="field_seat", words={"field": field, "last": last,
                                                     "got": brief(v)})
    return frozenset(values)


@blueprint.get("/state")
def get_state() -> dict[str, Any]:
    return state()


@blueprint.get("/rulesets")
def rulesets() -> dict[str, Any]:
    return {"default": services().config.ruleset,
            "presets": {name: rules_json.to_json(r)
                        for name, r in sorted(rules_json.PRESETS.items())},
            "fields": rules_json.option_fields(), "groups": rule_form.groups_json()}


# Every change of the game is `keyed`: sent twice with one Idempotency-Key, recorded once.

@blueprint.post("/games")
@keyed(201)
def new_game(answer: Answer) -> None:
    body = json_object()
    checks.known_fields(body, {"players", "ruleset", "options", "first_dealer"})
    preset = body.get("ruleset") or services().config.ruleset
    if not isinstance(preset, str):
        raise ApiError(400, f"ruleset: expected a preset name such as 'tenhou', got "
                       f"{brief(preset)}", code="unknown_preset", words={
                           "preset": brief(preset), "known": rules_json.preset_words()})
    rules = rules_json.from_json(preset, body.get("options"))
    # One name a seat: the rules say how many sit (4, or 3 at a sanma table).
    seats = rules.players
    players = body.get("players")
    if (not isinstance(players, list) or len(players) != seats
            or not all(isinstance(p, str) and p.strip() for p in players)):
        raise ApiError(400, f"players: expected {_COUNT[seats]} non-empty names, East seat first "
                       f"({rules.name} seats {seats} players)", code="players_count",
                       words={"n": seats})
    names = [checks.text(p, f"players[{i}]", NAME_LENGTH).strip() for i, p in enumerate(players)]
    first = _seat(body, "first_dealer", seats) if "first_dealer" in body else 0
    services().game.start(GameStarted(tuple(names), rules, first), answer)


@blueprint.post("/riichi")
@keyed()
def riichi(answer: Answer) -> None:
    services().game.play(RiichiDeclared(_seat(json_object())), answer)


@blueprint.post("/draws")
@keyed()
def exhaustive_draw(answer: Answer) -> None:
    body = json_object()
    services().game.play(ExhaustiveDraw(_seats(body, "tenpai"), _seats(body, "nagashi")), answer)


@blueprint.post("/aborts")
@keyed()
def abortive_draw(answer: Answer) -> None:
    kind = json_object().get("kind")
    try:
        event = AbortiveDraw(AbortKind(kind))
    except ValueError:
        choices = ", ".join(k.value for k in AbortKind)
        raise ApiError(400, f"kind: {kind!r} is not one of {choices}", code="field_choice",
                       words={"field": "kind", "got": brief(kind), "allowed": choices}) from None
    services().game.play(event, answer)


@blueprint.post("/chombo")
@keyed()
def chombo(answer: Answer) -> None:
    services().game.play(Chombo(_seat(json_object())), answer)


def transfers_for(deltas: list[int]) -> tuple[Transfer, ...]:
    """Signed changes per seat (summing to zero) as payer -> payee transfers."""
    owed = [[s, -d] for s, d in enumerate(deltas) if d < 0]
    due = [[s, d] for s, d in enumerate(deltas) if d > 0]
    out = []
    for payee in due:
        for payer in owed:
            amount = min(payee[1], payer[1])
            if amount > 0:
                out.append(Transfer(payer[0], payee[0], amount))
                payee[1] -= amount
                payer[1] -= amount
    return tuple(out)


@blueprint.post("/corrections")
@keyed()
def correction(answer: Answer) -> None:
    body = json_object()
    deltas, reason = body.get("deltas"), body.get("reason")
    seats = _table_seats()
    if not isinstance(deltas, list) or len(deltas) != seats:
        raise ApiError(400, f"deltas: expected {_COUNT[seats]} whole numbers, one per seat",
                       code="deltas_count", words={"n": seats})
    for i, delta in enumerate(deltas):
        checks.whole(delta, f"deltas[{i}]", POINTS)
    if sum(deltas) != 0:
        raise ApiError(400, f"deltas: must sum to zero (they sum to {sum(deltas):+})",
                       code="deltas_sum", words={"sum": f"{sum(deltas):+,}"})
    if not any(deltas):
        raise ApiError(400, "deltas: nothing to correct (all zero)", code="deltas_zero")
    if reason is None or (isinstance(reason, str) and not reason.strip()):
        raise ApiError(400, "reason: say why the points are corrected", code="reason_missing")
    reason = checks.text(reason, "reason", REASON_LENGTH)
    services().game.play(Correction(transfers_for(deltas), reason.strip()), answer)


@blueprint.post("/undo")
@keyed()
def undo(answer: Answer) -> None:
    """Drops the last event; with `{game, events}` (from the state a change answered) only while
    that change is still the last one (409 otherwise)."""
    body = json_object(required=False)
    checks.known_fields(body, {"game", "events"})
    expected = None
    if body:
        game = body.get("game")
        if not isinstance(game, str):
            raise ApiError(400, f"game: expected the game's id from the state, got {brief(game)}",
                           code="field_text", words={"field": "game", "got": brief(game)})
        expected = (game, checks.whole(body.get("events"), "events", EVENTS))
    services().game.undo(expected, answer)


@blueprint.post("/redo")
@keyed()
def redo(answer: Answer) -> None:
    services().game.redo(answer)


@blueprint.post("/end")
@keyed(render=lambda table, _game: present.standings_json(table))
def end_game(answer: Answer) -> None:
    reason = json_object(required=False).get("reason") or ENDED_AT_TABLE
    reason = checks.text(reason, "reason", REASON_LENGTH)
    game = services().game
    if game.table.state.finished:
        raise ApiError(409, "the game is already over", code="game_over")
    game.play(GameEnded(reason), answer)


@blueprint.get("/history")
def history() -> dict[str, Any]:
    return present.history_json(services().game.table, language())


@blueprint.get("/standings")
def standings() -> dict[str, Any]:
    return present.standings_json(services().game.table)


def _download(extension: str) -> str:
    """The current game's file, named by the day it started and its players
    (`kiosk.table.export_name`)."""
    game = services().game
    info = next((g for g in game.log.games() if g["id"] == game.game_id), None)
    created = info["created"] if info else datetime.now(UTC).isoformat()
    return export_name.disposition(
        export_name.stem(created, game.table.state.players), extension)


@blueprint.get("/export.json")
def export_json() -> Response:
    game = services().game
    return Response(dumps(game.table.events), mimetype="application/json",
                    headers={"Content-Disposition": _download("json")})


@blueprint.get("/export.csv")
def export_csv() -> Response:
    game = services().game
    return Response(present.history_csv(game.table, language()), mimetype="text/csv",
                    headers={"Content-Disposition": _download("csv")})


@blueprint.get("/display")
def display() -> dict[str, Any]:
    return services().display.status()
