"""Yakuman: limit hands. A hand with any of them drops its ordinary yaku and dora.

Double forms (13-sided kokushi, suuankou tanki, junsei chuuren, daisuushii) keep their own ids;
they are worth two units only where `Ruleset.double_yakuman` is on. Their facts (see
`scorer.yaku.facts`) rule them out for nearly every hand; the predicates decide the rest.
"""

from __future__ import annotations

from scorer.context import WinContext
from scorer.decompose import Reading, Wait
from scorer.rules import Ruleset
from scorer.shape import count_in
from scorer.yaku import facts as f
from scorer.yaku.base import Yaku

_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _tanki(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.wait is Wait.TANKI


def _not_tanki(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.wait is not Wait.TANKI


def _thirteen_sided(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.wait is Wait.THIRTEEN_SIDED


def _one_sided(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.wait is not Wait.THIRTEEN_SIDED


def _nine_gates(r: Reading) -> tuple[int, ...] | None:
    """Given ONE_SUIT and CLOSED: the suit's 9 counts when the hand is 1112345678999 plus one
    tile of that suit, with no kan."""
    shape = r.shape
    if shape.meld_sets:
        return None
    base = shape.win - shape.win % 9
    c9 = tuple(count_in(shape.suits, base + i) for i in range(9))
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


def _shousuushii(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return 27 <= r.pair <= 30  # three wind sets, and the fourth wind as the pair


DAISANGEN = Yaku("daisangen", 0, 0, f.THREE_DRAGON_SETS, yakuman=1)
SUUANKOU = Yaku("suuankou", 0, None, f.FOUR_CONCEALED, _not_tanki, yakuman=1)
SUUANKOU_TANKI = Yaku("suuankou_tanki", 0, None, f.FOUR_CONCEALED, _tanki, yakuman=1,
                      double_form=True)
TSUUIISOU = Yaku("tsuuiisou", 0, 0, f.HONOURS_ONLY, yakuman=1)
RYUUIISOU = Yaku("ryuuiisou", 0, 0, f.ALL_GREEN, yakuman=1)
CHINROUTOU = Yaku("chinroutou", 0, 0, f.TERMINALS_ONLY, yakuman=1)
CHUUREN_POUTOU = Yaku("chuuren_poutou", 0, None, f.ONE_SUIT, _chuuren, yakuman=1)
JUNSEI_CHUUREN_POUTOU = Yaku("junsei_chuuren_poutou", 0, None, f.ONE_SUIT, _junsei_chuuren,
                             yakuman=1, double_form=True)
KOKUSHI_MUSOU = Yaku("kokushi_musou", 0, None, f.THIRTEEN_ORPHANS, _one_sided, yakuman=1)
KOKUSHI_MUSOU_13 = Yaku("kokushi_musou_13", 0, None, f.THIRTEEN_ORPHANS, _thirteen_sided,
                        yakuman=1, double_form=True)
DAISUUSHII = Yaku("daisuushii", 0, 0, f.FOUR_WIND_SETS, yakuman=1, double_form=True)
SHOUSUUSHII = Yaku("shousuushii", 0, 0, f.THREE_WIND_SETS, _shousuushii, yakuman=1)
SUUKANTSU = Yaku("suukantsu", 0, 0, f.FOUR_KANS, yakuman=1)
