"""Yaku of the situation: riichi, tsumo, lucky timings and the first-turn blessings."""

from __future__ import annotations

from scorer.context import Blessing, Riichi, WinContext
from scorer.decompose import Reading
from scorer.rules import RenhouValue, Ruleset
from scorer.yaku.base import Scope, Yaku


def _menzen_tsumo(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.tsumo and r.shape.closed


def _riichi(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.riichi is Riichi.RIICHI  # double riichi replaces it


def _double_riichi(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.riichi is Riichi.DOUBLE


def _ippatsu(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.ippatsu and rules.ippatsu


def _chankan(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.chankan


def _rinshan(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.rinshan


def _haitei(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.last_tile and ctx.tsumo


def _houtei(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.last_tile and not ctx.tsumo


def _renhou_han(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.blessing is Blessing.RENHOU and rules.renhou is RenhouValue.HAN5


def _renhou_yakuman(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.blessing is Blessing.RENHOU and rules.renhou is RenhouValue.YAKUMAN


def _tenhou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.blessing is Blessing.TENHOU


def _chiihou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return ctx.blessing is Blessing.CHIIHOU


H = Scope.HAND
MENZEN_TSUMO = Yaku("menzen_tsumo", 1, None, H, _menzen_tsumo)
RIICHI = Yaku("riichi", 1, None, H, _riichi)
IPPATSU = Yaku("ippatsu", 1, None, H, _ippatsu)
CHANKAN = Yaku("chankan", 1, 1, H, _chankan)
RINSHAN_KAIHOU = Yaku("rinshan_kaihou", 1, 1, H, _rinshan)
HAITEI_RAOYUE = Yaku("haitei_raoyue", 1, 1, H, _haitei)
HOUTEI_RAOYUI = Yaku("houtei_raoyui", 1, 1, H, _houtei)
DOUBLE_RIICHI = Yaku("double_riichi", 2, None, H, _double_riichi)
#: Renhou as a 5-han yaku that adds to the others (RenhouValue.HAN5). As a mangan that does not
#: combine (RenhouValue.MANGAN) it is a separate candidate value: see `scorer.score`.
RENHOU = Yaku("renhou", 5, None, H, _renhou_han)
RENHOU_YAKUMAN = Yaku("renhou", 0, None, H, _renhou_yakuman, yakuman=1)
TENHOU = Yaku("tenhou", 0, None, H, _tenhou, yakuman=1)
CHIIHOU = Yaku("chiihou", 0, None, H, _chiihou, yakuman=1)
