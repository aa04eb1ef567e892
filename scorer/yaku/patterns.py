"""Yaku of the hand's pattern: sequences, triplets, suits, terminals and honour tiles.

Most are their facts alone (see `scorer.yaku.facts`); the predicates here decide the rest,
given those facts.
"""

from __future__ import annotations

from typing import Final

from scorer.context import WinContext, Wind
from scorer.decompose import Form, Reading, Wait
from scorer.rules import Ruleset
from scorer.yaku import facts as f
from scorer.yaku.base import HONOUR_KINDS, IS_ORPHAN, SIMPLE_KINDS, Yaku, yakuhai_pair

# Enum members as module names (see scorer.shape: `Wait.TANKI` is slow under Python 3.11).
_STANDARD: Final = Form.STANDARD
_RYANMEN: Final = Wait.RYANMEN


def is_pinfu(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    """Closed, four sequences, a pair that pays no fu, won on a two-sided wait."""
    return (r.form is _STANDARD and r.wait is _RYANMEN and not r.trip_bits
            and r.shape.closed and not yakuhai_pair(r.pair, ctx, rules))


def _outside(r: Reading, honours: bool) -> bool:
    """Given OUTSIDE: the pair and every triplet hold a terminal (or an honour) too."""
    if not IS_ORPHAN[r.pair] or r.trip_bits & SIMPLE_KINDS:
        return False
    return bool((r.trip_bits | 1 << r.pair) & HONOUR_KINDS) == honours


def _chanta(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return _outside(r, honours=True)


def _junchan(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return _outside(r, honours=False)


def _shousangen(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.pair >= 31  # two dragon sets, and the third dragon as the pair


_WIND_SETS = (f.EAST_SET, f.SOUTH_SET, f.WEST_SET, f.NORTH_SET)
_SEATS = (f.SEAT_EAST, f.SEAT_SOUTH, f.SEAT_WEST, f.SEAT_NORTH)
_ROUNDS = (f.ROUND_EAST, f.ROUND_SOUTH, f.ROUND_WEST, f.ROUND_NORTH)

PINFU = Yaku("pinfu", 1, None, f.PINFU)
TANYAO = Yaku("tanyao", 1, 1, f.TANYAO)  # open only with kuitan: the fact says
IIPEIKOU = Yaku("iipeikou", 1, None, f.ONE_PEIKOU)
SEAT_WINDS = tuple(Yaku(f"seat_wind_{w.name.lower()}", 1, 1, _WIND_SETS[w - 1] | _SEATS[w - 1])
                   for w in Wind)
ROUND_WINDS = tuple(Yaku(f"round_wind_{w.name.lower()}", 1, 1, _WIND_SETS[w - 1] | _ROUNDS[w - 1])
                    for w in Wind)
# Sanma where North is a value tile for everyone (Mahjong Soul; `Ruleset.north_yakuhai`).
YAKUHAI_NORTH = Yaku("yakuhai_north", 1, 1, f.NORTH_SET | f.NORTH_VALUE)
HAKU = Yaku("haku", 1, 1, f.HAKU_SET)
HATSU = Yaku("hatsu", 1, 1, f.HATSU_SET)
CHUN = Yaku("chun", 1, 1, f.CHUN_SET)
CHIITOITSU = Yaku("chiitoitsu", 2, None, f.SEVEN_PAIRS)
CHANTA = Yaku("chanta", 2, 1, f.OUTSIDE, _chanta)
ITTSU = Yaku("ittsu", 2, 1, f.STRAIGHT)
SANSHOKU_DOUJUN = Yaku("sanshoku_doujun", 2, 1, f.THREE_COLOUR_RUN)
SANSHOKU_DOUKOU = Yaku("sanshoku_doukou", 2, 2, f.THREE_COLOUR_SETS)
SANKANTSU = Yaku("sankantsu", 2, 2, f.THREE_KANS)
TOITOI = Yaku("toitoi", 2, 2, f.FOUR_TRIPS)
SANANKOU = Yaku("sanankou", 2, 2, f.THREE_CONCEALED)
SHOUSANGEN = Yaku("shousangen", 2, 2, f.TWO_DRAGON_SETS, _shousangen)
# All terminals and honours. Only honours (tsuuiisou), only terminals (chinroutou) and kokushi
# are yakuman, which drop this yaku anyway.
HONROUTOU = Yaku("honroutou", 2, 2, f.NO_SIMPLES)
RYANPEIKOU = Yaku("ryanpeikou", 3, None, f.TWO_PEIKOU)
JUNCHAN = Yaku("junchan", 3, 2, f.OUTSIDE, _junchan)
HONITSU = Yaku("honitsu", 3, 2, f.ONE_SUIT_OR_HONOURS)
CHINITSU = Yaku("chinitsu", 6, 5, f.ONE_SUIT)
