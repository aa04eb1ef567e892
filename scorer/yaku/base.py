"""What a yaku is: an id, its han closed and open (or yakuman units), the facts it needs and,
where those are not the whole condition, a pure predicate for the rest.

`needs` names facts (see `scorer.yaku.facts`) that must all hold. When they are the whole
condition (riichi, tanyao, honitsu, a dragon set, ...) `test` is None; otherwise `test` looks at
one `Reading` (whose `shape` is the whole hand), the `WinContext` and the `Ruleset`, and
decides, given the needs, whether the yaku is there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from scorer.context import WinContext
from scorer.decompose import ORPHANS, Reading
from scorer.rules import Ruleset
from scorer.shape import MAN, PIN, SOU, SUIT_BITS

Predicate = Callable[[Reading, WinContext, Ruleset], bool]


@dataclass(frozen=True, slots=True)
class Yaku:
    """One yaku: `closed_han` / `open_han` (None: closed hands only) or `yakuman` units.

    `double_form` marks the forms worth two yakuman where `Ruleset.double_yakuman` is on
    (13-sided kokushi, suuankou tanki, junsei chuuren, daisuushii).
    """

    id: str
    closed_han: int
    open_han: int | None
    needs: int
    test: Predicate | None = None
    yakuman: int = 0
    double_form: bool = False

    def han(self, closed: bool) -> int | None:
        """Han in a closed or open hand (None when the yaku needs a closed hand)."""
        return self.closed_han if closed else self.open_han

    def units(self, rules: Ruleset) -> int:
        """Yakuman units under `rules` (0 for an ordinary yaku)."""
        if self.double_form and rules.double_yakuman:
            return 2
        return self.yakuman


def _flags(kinds: frozenset[int]) -> tuple[bool, ...]:
    return tuple(k in kinds for k in range(34))


#: Per kind: is it a terminal or honour / an honour.
IS_ORPHAN: Final = _flags(frozenset(ORPHANS))
IS_HONOUR: Final = _flags(frozenset(range(27, 34)))
#: Bits of kinds (as in `Reading.trip_bits`): the simples; the honours.
SIMPLE_KINDS: Final = sum(1 << k for k in range(34) if not IS_ORPHAN[k])
HONOUR_KINDS: Final = sum(1 << k for k in range(27, 34))
#: Bits of sequence starts (as in `Reading.seq_bits`) that hold no terminal: 234 to 678.
MIDDLE_STARTS: Final = sum(1 << k for k in range(27) if k % 9 not in (0, 6))


def one_suit(mask: int) -> bool:
    """Exactly one of man, pin and sou among the tiles of a hand's `mask`."""
    return (mask & SUIT_BITS) in (MAN, PIN, SOU)


def yakuhai_pair(pair: int, ctx: WinContext, rules: Ruleset) -> bool:
    """A pair that pays fu and breaks pinfu: a dragon, the seat wind or the round wind (or
    North, where it is a value tile for everyone: `Ruleset.north_yakuhai`)."""
    return (pair >= 31 or pair == 26 + ctx.seat_wind or pair == 26 + ctx.round_wind
            or (pair == 30 and rules.north_yakuhai))
