"""Yakuman: limit hands. A hand with any of them drops its ordinary yaku and dora.

Double forms (13-sided kokushi, suuankou tanki, junsei chuuren, daisuushii) keep their own ids;
they are worth two units only where `Ruleset.double_yakuman` is on.
"""

from __future__ import annotations

from scorer.context import WinContext
from scorer.decompose import HONOUR, NOT_GREEN, SIMPLE, SUIT_BITS, Form, Reading, Wait
from scorer.rules import Ruleset
from scorer.yaku.base import Scope, Yaku, one_suit

H = Scope.HAND
R = Scope.READING
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _daisangen(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    c = r.shape.counts
    return c[31] >= 3 and c[32] >= 3 and c[33] >= 3


def _suuankou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.anko == 4 and r.wait is not Wait.TANKI


def _suuankou_tanki(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.anko == 4 and r.wait is Wait.TANKI


def _tsuuiisou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return not r.shape.mask & SUIT_BITS


def _ryuuiisou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return not r.shape.mask & NOT_GREEN


def _chinroutou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return not r.shape.mask & (SIMPLE | HONOUR)


def _nine_gates(r: Reading) -> tuple[int, ...] | None:
    """The suit's 9 counts when the hand is 1112345678999 plus one tile of that suit, closed."""
    shape = r.shape
    if shape.meld_sets or shape.mask & HONOUR or not one_suit(shape.mask):
        return None
    base = shape.win - shape.win % 9
    c9 = shape.counts[base:base + 9]
    if all(n >= need for n, need in zip(c9, _NINE_GATES, strict=True)):
        return c9
    return None


def _is_junsei(r: Reading, c9: tuple[int, ...]) -> bool:
    """Nine-sided: the thirteen tiles before the win were exactly 1112345678999."""
    i = r.shape.win % 9
    return c9[:i] + (c9[i] - 1,) + c9[i + 1:] == _NINE_GATES


def _chuuren(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    c9 = _nine_gates(r)
    return c9 is not None and not _is_junsei(r, c9)


def _junsei_chuuren(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    c9 = _nine_gates(r)
    return c9 is not None and _is_junsei(r, c9)


def _kokushi(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.form is Form.KOKUSHI and r.wait is not Wait.THIRTEEN_SIDED


def _kokushi_13(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.form is Form.KOKUSHI and r.wait is Wait.THIRTEEN_SIDED


def _daisuushii(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    c = r.shape.counts
    return c[27] >= 3 and c[28] >= 3 and c[29] >= 3 and c[30] >= 3


def _shousuushii(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    winds = sorted(r.shape.counts[27:31])
    return winds[0] == 2 and winds[1] >= 3


def _suukantsu(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.shape.kans == 4


DAISANGEN = Yaku("daisangen", 0, 0, H, _daisangen, yakuman=1)
SUUANKOU = Yaku("suuankou", 0, None, R, _suuankou, yakuman=1)
SUUANKOU_TANKI = Yaku("suuankou_tanki", 0, None, R, _suuankou_tanki, yakuman=1,
                      double_form=True)
TSUUIISOU = Yaku("tsuuiisou", 0, 0, H, _tsuuiisou, yakuman=1)
RYUUIISOU = Yaku("ryuuiisou", 0, 0, H, _ryuuiisou, yakuman=1)
CHINROUTOU = Yaku("chinroutou", 0, 0, H, _chinroutou, yakuman=1)
CHUUREN_POUTOU = Yaku("chuuren_poutou", 0, None, H, _chuuren, yakuman=1)
JUNSEI_CHUUREN_POUTOU = Yaku("junsei_chuuren_poutou", 0, None, H, _junsei_chuuren, yakuman=1,
                             double_form=True)
KOKUSHI_MUSOU = Yaku("kokushi_musou", 0, None, R, _kokushi, yakuman=1)
KOKUSHI_MUSOU_13 = Yaku("kokushi_musou_13", 0, None, R, _kokushi_13, yakuman=1,
                        double_form=True)
DAISUUSHII = Yaku("daisuushii", 0, 0, H, _daisuushii, yakuman=1, double_form=True)
SHOUSUUSHII = Yaku("shousuushii", 0, 0, H, _shousuushii, yakuman=1)
SUUKANTSU = Yaku("suukantsu", 0, 0, H, _suukantsu, yakuman=1)
