"""The money a parlor settles at the end of a game: final scores and chips at the table's
stakes, less the game fee. A pure function of the standings, each seat's chips and the `Stakes`
(`Ruleset.stakes`, see `scorer.rule_values.Stakes`).

A free parlor (フリー雀荘) plays for a rate per 1,000 points of final score (点5: 50 yen, ピン:
100 yen), a value per chip (100 yen is usual at 点5) and a game fee (場代) to the house:
"1ゲーム600円 → ピン、300~400円 → 点5" (note.com/seaburaroushi "How to フリー雀荘①"); some
take it, or more of it, from the top player only (paioniya.okoshi-yasu.net: the top pays 1,000
yen a hanchan). The final score already holds uma and oka (`scorer.table.standings`), so
points and chips become money by multiplication alone.

>>> from fractions import Fraction
>>> from scorer.table.state import Standing
>>> rows = [Standing(s, n, r, 0, Fraction(0), Fraction(0), Fraction(0), Fraction(0),
...                  Fraction(score)) for s, n, r, score in
...         [(0, "A", 1, "48.3"), (1, "B", 2, "7.2"), (2, "C", 3, "-18.9"), (3, "D", 4, "-36.6")]]
>>> [line.total for line in settle_money(rows, (3, -1, 0, -2), Stakes(50, 100, 400))]
[2315, -140, -1345, -2430]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from scorer.rule_values import Stakes
from scorer.table.state import Standing

__all__ = ["MoneyLine", "Stakes", "settle_money"]


@dataclass(frozen=True, slots=True)
class MoneyLine:
    """One player's settlement: the final score and chips, what each is worth, the fee paid
    and the total (positive: the player takes money)."""

    seat: int
    name: str
    rank: int
    score: Fraction
    chips: int
    for_score: int
    for_chips: int
    fee: int
    total: int


def _whole(value: Fraction) -> int:
    """To the whole unit, half away from zero (as money is counted out)."""
    sign = -1 if value < 0 else 1
    return sign * int(abs(value) + Fraction(1, 2))


def settle_money(standings: Sequence[Standing], chips: Sequence[int],
                 stakes: Stakes) -> tuple[MoneyLine, ...]:
    """Each player's money, in standings order (first place first).

    Scores sum to zero, and so do chips; the score's money is rounded to the whole unit for
    everyone but first place, who takes the rest, so the players' money still sums to minus the
    fees the house keeps.
    """
    if len(chips) != len(standings):
        raise ValueError(f"{len(standings)} players need {len(standings)} chip counts, "
                         f"got {len(chips)}")
    ordered = sorted(standings, key=lambda s: s.rank)
    others = [_whole(s.score * stakes.rate) for s in ordered[1:]]
    for_score = [_whole(sum((s.score for s in ordered), Fraction(0)) * stakes.rate) - sum(others),
                 *others]
    out = []
    for i, (row, money) in enumerate(zip(ordered, for_score, strict=True)):
        fee = stakes.game_fee + (stakes.top_fee if i == 0 else 0)
        chip_money = chips[row.seat] * stakes.chip
        out.append(MoneyLine(row.seat, row.name, row.rank, row.score, chips[row.seat], money,
                             chip_money, fee, money + chip_money - fee))
    return tuple(out)
