"""What a yaku is: an id, its han closed and open (or yakuman units), and a pure predicate.

A predicate looks at one `Reading` (whose `shape` is the whole hand), the `WinContext` and the
`Ruleset`, and answers whether the yaku is there. `Scope.HAND` yaku read only the tiles and the
context, so they are checked once per hand; `Scope.READING` yaku depend on the decomposition.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Final

from scorer.context import WinContext
from scorer.decompose import MAN, ORPHANS, PIN, SOU, SUIT_BITS, Reading
from scorer.rules import Ruleset

Predicate = Callable[[Reading, WinContext, Ruleset], bool]


class Scope(Enum):
    HAND = "hand"  # the same for every reading of a hand (tiles, melds, situation)
    READING = "reading"  # depends on the decomposition and the wait


@dataclass(frozen=True, slots=True)
class Yaku:
    """One yaku: `closed_han` / `open_han` (None: closed hands only) or `yakuman` units.

    `double_form` marks the forms worth two yakuman where `Ruleset.double_yakuman` is on
    (13-sided kokushi, suuankou tanki, junsei chuuren, daisuushii).
    """

    id: str
    closed_han: int
    open_han: int | None
    scope: Scope
    test: Predicate
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


def one_suit(mask: int) -> bool:
    """Exactly one of man, pin and sou among the tiles of a hand's `mask`."""
    return (mask & SUIT_BITS) in (MAN, PIN, SOU)


def yakuhai_pair(pair: int, ctx: WinContext) -> bool:
    """A pair that pays fu and breaks pinfu: a dragon, the seat wind or the round wind."""
    return pair >= 31 or pair == 26 + ctx.seat_wind or pair == 26 + ctx.round_wind
