"""From han and fu to base points, limit hands and who pays what.

Computed from the formula (base = fu x 2^(2 + han), capped at mangan), never from a table: the
tables in the rule texts are tests (tests/scorer/test_points.py checks every cell).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from scorer.rules import KazoeLimit, Ruleset, TsumoPayment

MANGAN_BASE: Final = 2000


class Limit(Enum):
    NONE = ""
    MANGAN = "mangan"
    HANEMAN = "haneman"
    BAIMAN = "baiman"
    SANBAIMAN = "sanbaiman"
    KAZOE_YAKUMAN = "kazoe yakuman"  # 13+ counted han
    YAKUMAN = "yakuman"  # a real yakuman (or several: see `HandValue.yakuman`)


@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """What a hand is worth before the table pays it: han, fu, yakuman count, base points.

    Ordered so that the best reading of a hand is `max(...)`: base points first, then han, then fu.
    A real yakuman beats a counted one at the same base.
    """

    base: int
    real_yakuman: int  # yakuman units from real yakuman (2 = double yakuman)
    han: int
    fu: int
    limit: Limit

    @classmethod
    def of(cls, han: int, fu: int, rules: Ruleset, yakuman: int = 0) -> HandValue:
        base, limit = base_points(han, fu, rules, yakuman)
        return cls(base, yakuman, han, fu, limit)

    @property
    def yakuman_units(self) -> int:
        return self.base // (4 * MANGAN_BASE)

    def ron(self, dealer: bool) -> int:
        return ron_points(self.base, dealer)

    def tsumo(self, dealer: bool, rules: Ruleset | None = None) -> tuple[int, int]:
        """(what the dealer pays, what each non-dealer pays); see `tsumo_points`."""
        return tsumo_points(self.base, dealer, rules)

    def total(self, dealer: bool, tsumo: bool, rules: Ruleset | None = None) -> int:
        """The hand's value before honba and sticks (at four players without `rules`)."""
        return total_points(self.base, dealer, tsumo, rules)


def ron_points(base: int, dealer: bool) -> int:
    """What a ron on a hand of `base` points pays."""
    return round_up(base * (6 if dealer else 4))


def tsumo_points(base: int, dealer: bool, rules: Ruleset | None = None) -> tuple[int, int]:
    """(what the dealer pays, what each non-dealer pays) for a tsumo on a hand of `base` points;
    a dealer's tsumo: both the same.

    At a three-player table the missing seat is always a non-dealer: under tsumo loss
    nobody pays its share; under north bisection each payer adds half of it, split in base
    points before the rounding to 100, so that the tsumo pays what a ron does (a non-dealer's
    1 han 30 fu: 600 + 400 for the ron's 1,000; `Ruleset.tsumo_payment`).
    """
    bisect = (rules is not None and rules.players == 3
              and rules.tsumo_payment is not _TSUMO_LOSS)
    if dealer:
        each = round_up(base * 3 if bisect else base * 2)
        return each, each
    if bisect:  # (a base is always even: the halves are whole)
        return round_up(base * 5 // 2), round_up(base * 3 // 2)
    return round_up(base * 2), round_up(base)


def total_points(base: int, dealer: bool, tsumo: bool, rules: Ruleset | None = None) -> int:
    """What a hand of `base` points is worth before honba and sticks (at four players without
    `rules`)."""
    if not tsumo:
        return ron_points(base, dealer)
    from_dealer, from_other = tsumo_points(base, dealer, rules)
    others = 4 if rules is None else rules.players
    return (others - 1) * from_other if dealer else from_dealer + (others - 2) * from_other


# Limit members as module names: under Python 3.11 `Limit.MANGAN` goes through the enum
# metaclass's __getattr__ hook (about 0.1 us a time); base_points runs for every reading.
_NO_LIMIT: Final = Limit.NONE
_MANGAN: Final = Limit.MANGAN
_HANEMAN: Final = Limit.HANEMAN
_BAIMAN: Final = Limit.BAIMAN
_SANBAIMAN: Final = Limit.SANBAIMAN
_KAZOE_YAKUMAN: Final = Limit.KAZOE_YAKUMAN
_YAKUMAN: Final = Limit.YAKUMAN
_TSUMO_LOSS: Final = TsumoPayment.TSUMO_LOSS


def round_up(points: int) -> int:
    return -(-points // 100) * 100


def base_points(han: int, fu: int, rules: Ruleset, yakuman: int = 0) -> tuple[int, Limit]:
    """Base points and limit name for a hand of `han` and `fu`, or of `yakuman` yakuman units.

    >>> from scorer.rules import RULESETS
    >>> base_points(3, 30, RULESETS["tenhou"])
    (960, <Limit.NONE: ''>)
    >>> base_points(4, 30, RULESETS["casual"])  # kiriage
    (2000, <Limit.MANGAN: 'mangan'>)
    """
    if yakuman:
        return 4 * MANGAN_BASE * yakuman, _YAKUMAN
    if han >= 13:
        if rules.kazoe is KazoeLimit.YAKUMAN:
            return 4 * MANGAN_BASE, _KAZOE_YAKUMAN
        return 3 * MANGAN_BASE, _SANBAIMAN
    if han >= 11:
        return 3 * MANGAN_BASE, _SANBAIMAN
    if han >= 8:
        return 2 * MANGAN_BASE, _BAIMAN
    if han >= 6:
        return 3 * MANGAN_BASE // 2, _HANEMAN
    if han == 5:
        return MANGAN_BASE, _MANGAN
    base = fu << (2 + han)  # fu x 2^(2 + han)
    if base >= MANGAN_BASE or (rules.kiriage and base >= 1920):
        return MANGAN_BASE, _MANGAN
    return base, _NO_LIMIT


def win_payments(value: HandValue, winner: int, dealer: int, discarder: int | None,
                 honba: int = 0, sticks: int = 0, rules: Ruleset | None = None,
                 liable: int | None = None, players: int | None = None) -> tuple[int, ...]:
    """Each seat's change for one win: the hand, honba and the riichi sticks on the table.

    `discarder` is None for a tsumo. `liable` is the pao player: on a tsumo they pay everything
    (honba too), on a ron they split the hand's value with the discarder, who pays the honba.
    Seats are 0..players-1 (`players` defaults to the rules', else 4); nothing assumes seat 0
    is the dealer. A tsumo's payers share the honba (Tenhou's sanma: 200, 100 from each).
    """
    honba_value = rules.honba_value if rules else 300
    stick = rules.riichi_stick if rules else 1000
    if players is None:
        players = rules.players if rules else 4
    is_dealer = winner == dealer
    delta = [0] * players
    if discarder is None:
        if liable is not None:
            delta[liable] -= value.ron(is_dealer) + honba * honba_value
        else:
            from_dealer, from_other = value.tsumo(is_dealer, rules)
            for seat in range(players):
                if seat != winner:
                    pay = from_dealer if seat == dealer else from_other
                    delta[seat] -= pay + honba * honba_value // (players - 1)
    else:
        full = value.ron(is_dealer)
        if liable is not None and liable != discarder:
            half = round_up(full // 2)
            delta[liable] -= half
            delta[discarder] -= full - half + honba * honba_value
        else:
            delta[discarder] -= full + honba * honba_value
    delta[winner] = -sum(delta) + sticks * stick
    return tuple(delta)


def split_evenly(total: int, seats: Sequence[int], players: int = 4) -> tuple[int, ...]:
    """`total` shared equally by `seats` (noten payments and the like); when it does not divide,
    the first seats take one point more, so that the shares always add up to `total`.

    >>> split_evenly(-1000, [1, 2, 3])
    (0, -334, -333, -333)
    """
    delta = [0] * players
    share, odd = divmod(abs(total), len(seats))
    sign = -1 if total < 0 else 1
    for i, seat in enumerate(seats):
        delta[seat] = sign * (share + (1 if i < odd else 0))
    return tuple(delta)
