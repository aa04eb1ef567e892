"""Yaku of the hand's pattern: sequences, triplets, suits, terminals and honour tiles."""

from __future__ import annotations

from collections.abc import Callable

from scorer.context import WinContext, Wind
from scorer.decompose import HONOUR, SIMPLE, TERMINAL, Form, Reading, Wait
from scorer.rules import Ruleset
from scorer.yaku.base import IS_HONOUR, IS_ORPHAN, Scope, Yaku, one_suit, yakuhai_pair

H = Scope.HAND
R = Scope.READING


def is_pinfu(r: Reading, ctx: WinContext) -> bool:
    """Closed, four sequences, a pair that pays no fu, won on a two-sided wait."""
    return (r.form is Form.STANDARD and r.wait is Wait.RYANMEN and not r.trips
            and r.shape.closed and not yakuhai_pair(r.pair, ctx))


def peikou(seqs: tuple[int, ...]) -> int:
    """How many disjoint pairs of identical sequences (1: iipeikou, 2: ryanpeikou)."""
    ordered = sorted(seqs)
    n = i = 0
    while i < len(ordered) - 1:
        if ordered[i] == ordered[i + 1]:
            n += 1
            i += 2
        else:
            i += 1
    return n


def _pinfu(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return is_pinfu(r, ctx)


def _tanyao(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return not r.shape.mask & (TERMINAL | HONOUR) and (r.shape.closed or rules.kuitan)


def _iipeikou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.shape.closed and len(r.seqs) >= 2 and peikou(r.seqs) == 1


def _ryanpeikou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.shape.closed and len(r.seqs) == 4 and peikou(r.seqs) == 2


def _chiitoitsu(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.form is Form.CHIITOITSU


def _seat_wind(wind: Wind) -> Callable[[Reading, WinContext, Ruleset], bool]:
    def test(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
        return ctx.seat_wind is wind and r.shape.counts[26 + wind] >= 3
    return test


def _round_wind(wind: Wind) -> Callable[[Reading, WinContext, Ruleset], bool]:
    def test(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
        return ctx.round_wind is wind and r.shape.counts[26 + wind] >= 3
    return test


def _dragon(kind: int) -> Callable[[Reading, WinContext, Ruleset], bool]:
    # In a standard hand three or more of an honour are always a triplet or quad.
    def test(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
        return r.shape.counts[kind] >= 3
    return test


def _outside(r: Reading, honours: bool) -> bool:
    """Every set and the pair holds a terminal (or an honour), with at least one sequence."""
    if r.form is not Form.STANDARD or not r.seqs:
        return False
    has_honour = IS_HONOUR[r.pair]
    if not IS_ORPHAN[r.pair]:
        return False
    for s in r.seqs:
        if s % 9 not in (0, 6):
            return False
    for k in r.trips:
        if not IS_ORPHAN[k]:
            return False
        has_honour = has_honour or IS_HONOUR[k]
    return has_honour == honours


def _chanta(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return _outside(r, honours=True)


def _junchan(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return _outside(r, honours=False)


def _ittsu(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    seqs = r.seqs
    if len(seqs) < 3:
        return False
    return any(s in seqs and s + 3 in seqs and s + 6 in seqs for s in (0, 9, 18))


def _sanshoku_doujun(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    seqs = r.seqs
    if len(seqs) < 3:
        return False
    return any(s < 7 and s + 9 in seqs and s + 18 in seqs for s in seqs)


def _sanshoku_doukou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    trips = r.trips
    if len(trips) < 3:
        return False
    return any(k < 9 and k + 9 in trips and k + 18 in trips for k in trips)


def _sankantsu(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.shape.kans == 3


def _toitoi(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return len(r.trips) == 4


def _sanankou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    return r.anko == 3


def _shousangen(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    c = r.shape.counts
    dragons = sorted((c[31], c[32], c[33]))
    return dragons[0] == 2 and dragons[1] >= 3


def _honroutou(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    # All terminals and honours. Only honours (tsuuiisou), only terminals (chinroutou) and kokushi
    # are yakuman, which drop this yaku anyway.
    return not r.shape.mask & SIMPLE


def _honitsu(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    mask = r.shape.mask
    return bool(mask & HONOUR) and one_suit(mask)


def _chinitsu(r: Reading, ctx: WinContext, rules: Ruleset) -> bool:
    mask = r.shape.mask
    return not mask & HONOUR and one_suit(mask)


PINFU = Yaku("pinfu", 1, None, R, _pinfu)
TANYAO = Yaku("tanyao", 1, 1, H, _tanyao)  # open only with kuitan: the predicate checks it
IIPEIKOU = Yaku("iipeikou", 1, None, R, _iipeikou)
SEAT_WINDS = tuple(Yaku(f"seat_wind_{w.name.lower()}", 1, 1, H, _seat_wind(w)) for w in Wind)
ROUND_WINDS = tuple(Yaku(f"round_wind_{w.name.lower()}", 1, 1, H, _round_wind(w)) for w in Wind)
HAKU = Yaku("haku", 1, 1, H, _dragon(31))
HATSU = Yaku("hatsu", 1, 1, H, _dragon(32))
CHUN = Yaku("chun", 1, 1, H, _dragon(33))
CHIITOITSU = Yaku("chiitoitsu", 2, None, R, _chiitoitsu)
CHANTA = Yaku("chanta", 2, 1, R, _chanta)
ITTSU = Yaku("ittsu", 2, 1, R, _ittsu)
SANSHOKU_DOUJUN = Yaku("sanshoku_doujun", 2, 1, R, _sanshoku_doujun)
SANSHOKU_DOUKOU = Yaku("sanshoku_doukou", 2, 2, R, _sanshoku_doukou)
SANKANTSU = Yaku("sankantsu", 2, 2, H, _sankantsu)
TOITOI = Yaku("toitoi", 2, 2, R, _toitoi)
SANANKOU = Yaku("sanankou", 2, 2, R, _sanankou)
SHOUSANGEN = Yaku("shousangen", 2, 2, H, _shousangen)
HONROUTOU = Yaku("honroutou", 2, 2, H, _honroutou)
RYANPEIKOU = Yaku("ryanpeikou", 3, None, R, _ryanpeikou)
JUNCHAN = Yaku("junchan", 3, 2, R, _junchan)
HONITSU = Yaku("honitsu", 3, 2, H, _honitsu)
CHINITSU = Yaku("chinitsu", 6, 5, H, _chinitsu)
