"""Yaku of the situation: riichi, tsumo, lucky timings and the first-turn blessings.

The situation's facts (see `scorer.yaku.facts`) are the whole condition for all but the
blessings, whose value depends on the rules.
"""

from __future__ import annotations

from scorer.context import Blessing, WinContext
from scorer.decompose import Reading
from scorer.rules import RenhouValue, Ruleset
from scorer.yaku import facts as f
from scorer.yaku.base import Yaku


def _renhou_han(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.blessing is Blessing.RENHOU and rules.renhou is RenhouValue.HAN5


def _renhou_yakuman(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.blessing is Blessing.RENHOU and rules.renhou is RenhouValue.YAKUMAN


def _tenhou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.blessing is Blessing.TENHOU


def _chiihou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.blessing is Blessing.CHIIHOU


MENZEN_TSUMO = Yaku("menzen_tsumo", 1, None, f.TSUMO)
RIICHI = Yaku("riichi", 1, None, f.RIICHI)  # double riichi replaces it
IPPATSU = Yaku("ippatsu", 1, None, f.IPPATSU)
CHANKAN = Yaku("chankan", 1, 1, f.CHANKAN)
RINSHAN_KAIHOU = Yaku("rinshan_kaihou", 1, 1, f.RINSHAN)
HAITEI_RAOYUE = Yaku("haitei_raoyue", 1, 1, f.HAITEI)
HOUTEI_RAOYUI = Yaku("houtei_raoyui", 1, 1, f.HOUTEI)
DOUBLE_RIICHI = Yaku("double_riichi", 2, None, f.DOUBLE_RIICHI)
#: Renhou as a 5-han yaku that adds to the others (RenhouValue.HAN5). As a mangan that does not
#: combine (RenhouValue.MANGAN) it is a separate candidate value: see `scorer.score`.
RENHOU = Yaku("renhou", 5, None, f.BLESSING, _renhou_han)
RENHOU_YAKUMAN = Yaku("renhou", 0, None, f.BLESSING, _renhou_yakuman, yakuman=1)
TENHOU = Yaku("tenhou", 0, None, f.BLESSING, _tenhou, yakuman=1)
CHIIHOU = Yaku("chiihou", 0, None, f.BLESSING, _chiihou, yakuman=1)
