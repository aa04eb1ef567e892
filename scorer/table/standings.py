"""Final standings: left-over sticks, placement, uma and oka (riichi-rich-handbook.txt l.496-577),
and the rounding of the final scores (`Ruleset.final_rounding`).

Ties go by seat order from the first dealer unless `split_ties`, when tied players share the uma
(and oka) of the places they occupy, and what rounding leaves to first place. The table has as
many seats as `points` has entries (4, or 3 at a three-player table).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from scorer.rules import FinalRounding, LeftoverSticks, Ruleset
from scorer.table.state import Standing


def seat_order(seat: int, first_dealer: int, seats: int = 4) -> int:
    return (seat - first_dealer) % seats


def ranking(points: Sequence[int], first_dealer: int) -> list[int]:
    """Seats from first place to last; equal points: the seat nearer the first dealer first."""
    seats = len(points)
    return sorted(range(seats), key=lambda s: (-points[s], seat_order(s, first_dealer, seats)))


def with_leftover_sticks(points: Sequence[int], sticks: int, first_dealer: int,
                         rules: Ruleset) -> tuple[int, ...]:
    """Sticks still on the table at the end go to first place (shared when tied and split) or are
    lost."""
    final = list(points)
    if not sticks or rules.leftover_sticks is LeftoverSticks.LOST:
        return tuple(final)
    order = ranking(points, first_dealer)
    top = [s for s in order if points[s] == points[order[0]]] if rules.split_ties else order[:1]
    # Shared in hundreds; what is under 100 (a stick of 150 points) goes to the first of them,
    # so no point is lost.
    hundreds, odd = divmod(sticks * rules.riichi_stick, 100)
    share, rest = divmod(hundreds, len(top))
    for i, seat in enumerate(top):
        final[seat] += (share + (1 if i < rest else 0)) * 100 + (odd if i == 0 else 0)
    return tuple(final)


def placement_bonus(points: Sequence[int], rules: Ruleset) -> tuple[list[Fraction], list[Fraction]]:
    """Uma and oka by place (1st to last), in thousands.

    Floating uma (JPML) depends on how many finish at or above the return points.
    """
    if rules.floating_uma_at_return:
        above = sum(1 for p in points if p >= rules.return_points)
    else:
        above = sum(1 for p in points if p > rules.return_points)
    uma = [Fraction(u) for u in rules.uma.for_players_above(above)]
    oka = [Fraction(rules.oka, 1000)] + [Fraction(0)] * (len(points) - 1)
    return uma, oka


def rounded_thousands(points: int, rounding: FinalRounding) -> Fraction:
    """Points in thousands as the final score counts them.

    Rounded by size, so a player below zero is rounded away from it as far as one above
    (Tenhou counts -500 as -1,000, like 500 as 1,000).

    >>> [rounded_thousands(p, FinalRounding.THOUSAND_HALF_UP) for p in (28500, 28400, -500)]
    [Fraction(29, 1), Fraction(28, 1), Fraction(-1, 1)]
    >>> rounded_thousands(28500, FinalRounding.THOUSAND_HALF_DOWN)
    Fraction(28, 1)
    """
    if rounding is FinalRounding.EXACT:
        return Fraction(points, 1000)
    thousands, rest = divmod(abs(points), 1000)
    half_goes_up = rounding is FinalRounding.THOUSAND_HALF_UP
    if rest > 500 or (rest == 500 and half_goes_up):
        thousands += 1
    return Fraction(thousands if points >= 0 else -thousands)


def rounding_adjustments(points: Sequence[int], order: Sequence[int],
                         rules: Ruleset) -> list[Fraction]:
    """What rounding adds to each seat's (points - return) / 1000, in thousands.

    Everyone below first place is rounded; first place (every seat tied with it where ties are
    split) is left exact and takes what the others' rounding gave or took, in equal shares, so
    the scores still add up to what the points do.
    """
    adjustments = [Fraction(0)] * len(points)
    if rules.final_rounding is FinalRounding.EXACT:
        return adjustments
    top = [s for s in order if points[s] == points[order[0]]] if rules.split_ties else [order[0]]
    for seat in order:
        if seat not in top:
            adjustments[seat] = (rounded_thousands(points[seat], rules.final_rounding)
                                 - Fraction(points[seat], 1000))
    rest = -sum(adjustments, Fraction(0))
    for seat in top:
        adjustments[seat] = rest / len(top)
    return adjustments


def standings(players: Sequence[str], points: Sequence[int], penalties: Sequence[int],
              first_dealer: int, rules: Ruleset) -> tuple[Standing, ...]:
    """The final table, first place first, from the final points (sticks already settled)."""
    order = ranking(points, first_dealer)
    uma, oka = placement_bonus(points, rules)
    rounding = rounding_adjustments(points, order, rules)
    rows = []
    place = 0
    seats = len(points)
    while place < seats:
        group = [order[place]]
        while (rules.split_ties and place + len(group) < seats
               and points[order[place + len(group)]] == points[group[0]]):
            group.append(order[place + len(group)])
        places = range(place, place + len(group))
        shared_uma = Fraction(sum(uma[p] for p in places), len(group))
        shared_oka = Fraction(sum(oka[p] for p in places), len(group))
        for seat in group:
            penalty = Fraction(penalties[seat], 1000)
            score = (Fraction(points[seat] - rules.return_points, 1000) + rounding[seat]
                     + shared_uma + shared_oka)
            rows.append(Standing(seat, players[seat], place + 1, points[seat], rounding[seat],
                                 shared_uma, shared_oka, penalty, score - penalty))
        place += len(group)
    return tuple(rows)
