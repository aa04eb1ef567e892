"""An adapter to the `mahjong` library (PyPI), the independent oracle of the differential tests
and the peer of `python -m scorer bench`. The only module of `scorer` that imports a third-party
package, and only when called: scoring itself never needs it (install the `test` extra).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorer.context import Blessing, Riichi, WinContext
from scorer.hand import Hand, MeldKind
from scorer.rules import KazoeLimit, RenhouValue, Ruleset
from scorer.tiles import Tile

# The mahjong library's yaku ids -> ours (../shared/scoring/yaku-ids.txt).
YAKU_IDS = {
    0: "menzen_tsumo", 1: "riichi", 3: "ippatsu", 4: "chankan", 5: "rinshan_kaihou",
    6: "haitei_raoyue", 7: "houtei_raoyui", 8: "double_riichi", 10: "nagashi_mangan",
    11: "renhou", 12: "pinfu", 13: "tanyao", 14: "iipeikou", 15: "haku", 16: "hatsu", 17: "chun",
    18: "seat_wind_east", 19: "seat_wind_south", 20: "seat_wind_west", 21: "seat_wind_north",
    22: "round_wind_east", 23: "round_wind_south", 24: "round_wind_west",
    25: "round_wind_north", 26: "sanshoku_doujun", 27: "ittsu", 28: "chanta", 29: "honroutou",
    30: "toitoi", 31: "sanankou", 32: "sankantsu", 33: "sanshoku_doukou", 34: "chiitoitsu",
    35: "shousangen", 36: "honitsu", 37: "junchan", 38: "ryanpeikou", 39: "chinitsu",
    100: "kokushi_musou", 101: "chuuren_poutou", 102: "suuankou", 103: "daisangen",
    104: "shousuushii", 105: "ryuuiisou", 106: "suukantsu", 107: "tsuuiisou", 108: "chinroutou",
    111: "daisuushii", 112: "kokushi_musou_13", 113: "suuankou_tanki",
    114: "junsei_chuuren_poutou", 115: "tenhou", 116: "chiihou", 117: "renhou",
    120: "dora", 121: "aka_dora", 122: "ura_dora",
}


@dataclass(frozen=True)
class PeerResult:
    han: int
    fu: int
    yaku: tuple[tuple[str, int], ...]  # sorted (id, han); yakuman as 13 per unit
    total: int  # the hand's value before honba and sticks
    error: str | None = None


class _Ids:
    """Hands out distinct 136-format ids; a red five takes copy 0 as the library expects."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, tile: Tile) -> int:
        order = (0, 1, 2, 3) if tile.is_red else (1, 2, 3, 0)
        for copy in order:
            ident = tile.kind * 4 + copy
            if ident not in self.used:
                self.used.add(ident)
                return ident
        raise ValueError(f"a fifth {tile}")


def _options(rules: Ruleset) -> Any:
    from mahjong.hand_calculating.hand_config import HandConstants, OptionalRules

    return OptionalRules(
        has_open_tanyao=rules.kuitan, has_aka_dora=rules.red_fives.any,
        has_double_yakuman=rules.double_yakuman,
        kazoe_limit=(HandConstants.KAZOE_LIMITED if rules.kazoe is KazoeLimit.YAKUMAN
                     else HandConstants.KAZOE_SANBAIMAN),
        kiriage=rules.kiriage, fu_for_open_pinfu=True, fu_for_pinfu_tsumo=False,
        renhou_as_yakuman=rules.renhou is RenhouValue.YAKUMAN)


def peer_call(hand: Hand, ctx: WinContext, rules: Ruleset) -> tuple[Any, ...]:
    """The library's inputs for one hand: (tiles, win_tile, melds, dora, config, ura)."""
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld as PeerMeld

    ids = _Ids()
    concealed = [ids.take(t) for t in hand.concealed]
    melds = []
    all_ids = list(concealed)
    kinds = {MeldKind.CHI: PeerMeld.CHI, MeldKind.PON: PeerMeld.PON, MeldKind.MINKAN: PeerMeld.KAN,
             MeldKind.ANKAN: PeerMeld.KAN, MeldKind.KAKAN: PeerMeld.SHOUMINKAN}
    for meld in hand.melds:
        meld_ids = [ids.take(t) for t in meld.tiles]
        all_ids += meld_ids
        melds.append(PeerMeld(meld_type=kinds[meld.kind], tiles=meld_ids, opened=meld.is_open))
    win = next(i for t, i in zip(hand.concealed, concealed, strict=True) if t == hand.win_tile)
    riichi = ctx.riichi is not Riichi.NONE
    config = HandConfig(
        is_tsumo=ctx.tsumo, is_riichi=riichi, is_daburu_riichi=ctx.riichi is Riichi.DOUBLE,
        is_ippatsu=ctx.ippatsu, is_rinshan=ctx.rinshan, is_chankan=ctx.chankan,
        is_haitei=ctx.last_tile and ctx.tsumo, is_houtei=ctx.last_tile and not ctx.tsumo,
        is_tenhou=ctx.blessing is Blessing.TENHOU, is_chiihou=ctx.blessing is Blessing.CHIIHOU,
        is_renhou=ctx.blessing is Blessing.RENHOU and rules.renhou is not RenhouValue.OFF,
        player_wind=26 + ctx.seat_wind, round_wind=26 + ctx.round_wind,
        kyoutaku_number=ctx.riichi_sticks, tsumi_number=ctx.honba, options=_options(rules))
    indicator_ids = _Ids()
    indicator_ids.used = set(all_ids)
    dora = [indicator_ids.take(t) for t in ctx.dora_indicators]
    ura = [indicator_ids.take(t) for t in ctx.ura_indicators] if riichi else []
    return all_ids, win, melds, dora, config, ura


def estimate(call: tuple[Any, ...]) -> Any:
    """The library's own scoring of the inputs made by `peer_call` (its HandResponse)."""
    from mahjong.hand_calculating.hand import HandCalculator

    tiles, win, melds, dora, config, ura = call
    return HandCalculator.estimate_hand_value(tiles, win, melds=melds, dora_indicators=dora,
                                              config=config, ura_dora_indicators=ura)


def estimator() -> Callable[[tuple[Any, ...]], Any]:
    """`estimate` with the library looked up once, as a benchmark times it: the import in
    `estimate` would be charged to the library on every hand."""
    from mahjong.hand_calculating.hand import HandCalculator

    estimate_hand_value = HandCalculator.estimate_hand_value

    def run(call: tuple[Any, ...]) -> Any:
        tiles, win, melds, dora, config, ura = call
        return estimate_hand_value(tiles, win, melds=melds, dora_indicators=dora, config=config,
                                   ura_dora_indicators=ura)
    return run


def peer_score(hand: Hand, ctx: WinContext, rules: Ruleset) -> PeerResult:
    """Score one hand with the `mahjong` library."""
    result = estimate(peer_call(hand, ctx, rules))
    if result.error:
        return PeerResult(0, 0, (), 0, str(result.error))
    is_open = not hand.is_closed
    yaku = []
    for y in result.yaku or []:
        if y.yaku_id in (120, 121, 122):
            han = y.han_open if is_open and y.yaku_id != 122 else y.han_closed
        else:
            han = y.han_open if is_open else y.han_closed
        yaku.append((YAKU_IDS.get(y.yaku_id, y.name), int(han)))
    cost = result.cost
    assert cost is not None and result.han is not None and result.fu is not None
    total = int(cost["main"]) + 2 * int(cost["additional"]) if ctx.tsumo and not ctx.is_dealer \
        else int(cost["main"]) * (3 if ctx.tsumo else 1)
    return PeerResult(int(result.han), int(result.fu), tuple(sorted(yaku)), total)
