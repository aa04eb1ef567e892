"""The members' rating: Tenhou's R, written from its definition.

After each game every member's R moves by

    (placement base + (average R of the table - own R) / 40) x games coefficient

with the base +30 / +10 / -10 / -30 for first to fourth place (three players: +30 / 0 / -30),
the average over every seat (a guest counts as a newcomer, 1500), and the coefficient
1 - 0.002 x the games the member had played before (0.2 from 400 games on). Everyone starts at
1500. Players tied for a place that the rules split (`split_ties`) take the mean of the bases of
the places they share, as they share the uma; otherwise the scorer's tie rule already gave them
different places.

Why R and not a library: R is made for four players placed 1-4 in one game (Elo and Glicko rate
pairs; TrueSkill-like models would need a dependency and their parameters explained to a
parlor), it is what Japanese players know from Tenhou, it needs nothing beyond arithmetic, and
every value can be checked by hand. All games count in order (the game's first event's arrival),
so a member's R at the end of a month is their R over every game up to then.

>>> r = ratings([[RatedSeat(1, 1, 1), RatedSeat(None, 2, 2), RatedSeat(None, 3, 3),
...               RatedSeat(2, 4, 4)]])
>>> r[1], r[2]
(Rating(rating=1530.0, games=1), Rating(rating=1470.0, games=1))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

START = 1500.0
BASES = {4: (30, 10, -10, -30), 3: (30, 0, -30)}
SPREAD = 40  # R points of difference to the table's average worth one placement point
FULL_GAMES = 400  # from here on the coefficient stays at its floor


@dataclass(frozen=True, slots=True)
class RatedSeat:
    member: int | None  # None: a guest
    rank: int  # the place (1 = first); tied players share it where ties are split
    low: int  # the lowest place the seat occupies (= rank unless tied)


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float
    games: int


def coefficient(games: int) -> float:
    """How far a game moves a member who played `games` before it."""
    return 1 - 0.002 * games if games < FULL_GAMES else 0.2


def base(seat: RatedSeat, seats: int) -> float:
    shared = BASES[seats][seat.rank - 1:seat.low]
    return sum(shared) / len(shared)


def changes(game: Sequence[RatedSeat], before: dict[int, Rating]) -> dict[int, float]:
    """Each member's change of R from one game (ratings as they stood before it)."""
    if len(game) not in BASES:
        return {}
    now = [before.get(s.member, Rating(START, 0)) if s.member is not None else Rating(START, 0)
           for s in game]
    average = sum(r.rating for r in now) / len(now)
    return {s.member: (base(s, len(game)) + (average - r.rating) / SPREAD) * coefficient(r.games)
            for s, r in zip(game, now, strict=True) if s.member is not None}


def ratings(games: Iterable[Sequence[RatedSeat]],
            start: dict[int, Rating] | None = None) -> dict[int, Rating]:
    """Every member's R after `games`, played in this order."""
    current = dict(start or {})
    for game in games:
        for member, change in changes(game, current).items():
            was = current.get(member, Rating(START, 0))
            current[member] = Rating(was.rating + change, was.games + 1)
    return current
