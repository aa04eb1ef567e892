"""An adapter to riichienv (PyPI, a Rust engine with Python bindings; the `bench` extra), a peer
of `python -m scorer bench`. Like `scorer.peer_mahjong` it imports the library only when called:
scoring never needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorer.context import Blessing, Riichi, WinContext
from scorer.hand import Hand, MeldKind
from scorer.peer_mahjong import _Ids
from scorer.rules import Ruleset

_KIND_NAMES = {MeldKind.CHI: "Chi", MeldKind.PON: "Pon", MeldKind.MINKAN: "Daiminkan",
               MeldKind.ANKAN: "Ankan", MeldKind.KAKAN: "Kakan"}
_WIND_NAMES = ("East", "South", "West", "North")


def peer_call(hand: Hand, ctx: WinContext, rules: Ruleset) -> tuple[Any, ...]:
    """The library's inputs for one hand: (evaluator class, concealed ids (sorted, the winning
    tile included), melds, winning tile id, dora ids, ura ids, conditions)."""
    import riichienv._riichienv as rc

    ids = _Ids()
    concealed = [ids.take(t) for t in hand.concealed]
    win = next(i for t, i in zip(hand.concealed, concealed, strict=True) if t == hand.win_tile)
    melds = [rc.Meld(getattr(rc.MeldType, _KIND_NAMES[m.kind]), [ids.take(t) for t in m.tiles],
                     m.is_open) for m in hand.melds]
    riichi = ctx.riichi is not Riichi.NONE
    conditions = rc.Conditions(
        tsumo=ctx.tsumo, riichi=riichi, double_riichi=ctx.riichi is Riichi.DOUBLE,
        ippatsu=ctx.ippatsu, haitei=ctx.last_tile and ctx.tsumo,
        houtei=ctx.last_tile and not ctx.tsumo, rinshan=ctx.rinshan, chankan=ctx.chankan,
        tsumo_first_turn=ctx.blessing in (Blessing.TENHOU, Blessing.CHIIHOU),
        player_wind=getattr(rc.Wind, _WIND_NAMES[ctx.seat_wind - 1]),
        round_wind=getattr(rc.Wind, _WIND_NAMES[ctx.round_wind - 1]),
        riichi_sticks=ctx.riichi_sticks, honba=ctx.honba, kita_count=hand.kita,
        is_sanma=rules.players == 3, num_players=rules.players)
    indicator_ids = _Ids()
    indicator_ids.used = set(ids.used)
    dora = [indicator_ids.take(t) for t in ctx.dora_indicators]
    ura = [indicator_ids.take(t) for t in ctx.ura_indicators] if riichi else []
    evaluator = rc.HandEvaluator3P if rules.players == 3 else rc.HandEvaluator
    return evaluator, sorted(concealed), melds, win, dora, ura, conditions


def estimator() -> Callable[[tuple[Any, ...]], Any]:
    """Scores the inputs made by `peer_call` (a WinResult): the evaluator is built per hand, as
    it holds the hand's tiles."""
    import riichienv._riichienv  # noqa: F401  (fails here, not in the timing, when missing)

    def run(call: tuple[Any, ...]) -> Any:
        evaluator, tiles, melds, win, dora, ura, conditions = call
        return evaluator(tiles, melds).calc(win, dora, ura, conditions)
    return run


def result_json(result: Any) -> dict[str, Any]:
    """The library's result as plain data (a JSON line of its own)."""
    return {"is_win": result.is_win, "han": result.han, "fu": result.fu, "yaku": result.yaku,
            "yakuman": result.yakuman, "ron": result.ron_agari,
            "tsumo_dealer": result.tsumo_agari_oya, "tsumo_other": result.tsumo_agari_ko}
