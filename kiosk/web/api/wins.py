"""Scoring a win: preview the breakdown (nothing changes), then apply it to the table."""

from __future__ import annotations

from typing import Any

from kiosk.errors import ApiError
from kiosk.table import checks, scoring, winspec
from kiosk.web.api.common import blueprint, json_object
from kiosk.web.context import language, services
from kiosk.web.idempotency import Answer, keyed
from scorer.waits import winning_tiles


def _specs(body: dict[str, Any]) -> list[dict[str, Any]]:
    if "wins" in body:
        wins = body["wins"]
        if set(body) != {"wins"}:
            raise ApiError(400, "with 'wins', give nothing else at the top level",
                           code="wins_alone")
        if not isinstance(wins, list) or not 1 <= len(wins) <= 3:
            raise ApiError(400, "wins: expected a list of 1-3 wins", code="wins_list")
        return wins
    return [body]


def _score_all(body: dict[str, Any]) -> list[scoring.Scored]:
    table_state = services().game.table.state
    if table_state.finished:
        raise ApiError(409, "the game is over; start a new game", code="game_over")
    out = []
    for i, raw in enumerate(_specs(body)):
        try:
            out.append(scoring.score_spec(winspec.parse_spec(raw, table_state), table_state,
                                          language()))
        except ApiError as e:
            if len(_specs(body)) > 1:
                e.message = f"wins[{i}]: {e.message}"
            raise
    scoring.add_payment_lines(out, table_state, language())
    return out


def _payments(scored: list[scoring.Scored]) -> list[int]:
    game = services().game
    before = game.table.state.points
    after = game.preview(scoring.win_event(scored)).state.points
    return [a - b for a, b in zip(after, before, strict=True)]


@blueprint.post("/tenpai")
def tenpai() -> dict[str, Any]:
    """Is a 13-tile hand (concealed + melds) tenpai, and on what? For the exhaustive draw."""
    body = json_object()
    checks.known_fields(body, {"concealed", "melds"})
    concealed = winspec.parse_tile_list(body.get("concealed"), "concealed")
    melds = winspec.parse_melds(body.get("melds"))
    size = len(concealed) + 3 * len(melds)
    if size != 13:
        raise ApiError(422, f"concealed: {len(concealed)} tiles with {len(melds)} melds make "
                       f"{size}; a waiting hand has 13 (a kan counts as 3)", code="tenpai_count",
                       words={"concealed": len(concealed), "melds": len(melds), "size": size})
    waits = winning_tiles(concealed, melds)
    return {"tenpai": bool(waits), "waits": [str(t) for t in waits]}


@blueprint.get("/quick")
def quick_choices() -> dict[str, Any]:
    """What the quick form may offer under the table's rules: the han, and for each han and win
    type the fu a real hand can have (none from 5 han: a limit hand, fu do not count)."""
    return scoring.quick_choices(services().game.table.state.rules, language())


@blueprint.post("/score")
def preview() -> dict[str, Any]:
    """The breakdown and each seat's payment; a hand that does not win says why (no change)."""
    scored = _score_all(json_object())
    losers = [s for s in scored if not s.breakdown["is_win"]]
    if losers:
        return {**losers[0].breakdown, "winner": losers[0].spec.winner}
    payments = _payments(scored)
    out = dict(scored[-1].breakdown)
    out.update(payments=payments, winners=[s.spec.winner for s in scored],
               breakdowns=[s.breakdown for s in scored])
    return out


@blueprint.post("/wins")
@keyed(201)
def apply(answer: Answer) -> None:
    kiosk = services()
    scored = _score_all(json_object())
    for s in scored:
        if not s.breakdown["is_win"]:
            # The verdict is already in the session's language (kiosk.table.scorer_adapter).
            raise ApiError(422, f"not applied: {s.breakdown['verdict']}",
                           s.breakdown.get("problems", []), breakdown=s.breakdown,
                           code="not_applied", words={"verdict": s.breakdown["verdict"]})
    captures = [kiosk.captures.check(s.spec.capture) for s in scored]
    event = scoring.win_event(scored)
    before = kiosk.game.table.state.points
    answer.render = lambda table, game_id: {
        "state": kiosk.game.state_of(table, game_id),
        "deltas": [a - b for a, b in zip(table.state.points, before, strict=True)],
        "breakdowns": [s.breakdown for s in scored]}
    kiosk.game.play(event, answer)
    for s, checked in zip(scored, captures, strict=True):
        if checked is not None:
            capture, tiles = checked
            total = 14 + sum(1 for m in (s.spec.hand or {}).get("melds", [])
                             if str(m.get("kind", "")).endswith("kan"))
            kiosk.captures.confirm(capture, tiles, s.hand_text or "", len(tiles) >= total)
