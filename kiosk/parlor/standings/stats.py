"""Member statistics and leaderboards over a period, from the games' results (`results`).

Only finished games count, each on the local day its first event reached the parlor. Per member:

- `games`; `average_place` (1 = first); `first_share` / `last_share`: of the games, how many
  ended in first / last place (a place shared by a split tie counts for each who shares it);
- `average_score`: the final score in thousands with uma and oka, as the scorer's standings
  give it (`total_score` is its sum, what the boards rank by default);
- per hand played (a win, a draw, an abortive draw or a chombo ends one): `win_rate`,
  `deal_in_rate` (a ron paid off the member's discard; a double ron counts once), `riichi_rate`;
- `average_win`: what a won hand paid, honba and riichi sticks left out (None without a win);
- `chips`: the chips (祝儀) won, less those paid; `money`: what the games under rules with stakes
  settled, fees paid (None without such a game; `scorer.table.money`).

Rates are fractions (0.25 = 25 %), rounded to 4 places; averages to 3.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import groupby
from typing import Any

from kiosk.parlor.standings.rating import RatedSeat, Rating, ratings
from kiosk.parlor.store.db import Database
from kiosk.parlor.store.registry import Member
from kiosk.parlor.store.results import SeatRow, seat_rows
from kiosk.parlor.store.settings import Period

ORDERS = ("score", "average_score", "average_place", "rating", "games")
EARLIEST = "2000"  # sorts before every stored time: "every game up to the end of the period"


@dataclass(frozen=True, slots=True)
class MemberStats:
    games: int = 0
    hands: int = 0
    total_score: float = 0.0
    average_score: float | None = None
    average_place: float | None = None
    first_share: float | None = None
    last_share: float | None = None
    wins: int = 0
    win_rate: float | None = None
    deal_in_rate: float | None = None
    riichi_rate: float | None = None
    average_win: float | None = None
    chips: int = 0
    money: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


def _share(part: float, whole: int, places: int = 4) -> float | None:
    return round(part / whole, places) if whole else None


def member_stats(rows: Iterable[SeatRow]) -> MemberStats:
    """One member's figures from their seats of finished games."""
    rows = [r for r in rows if r.finished and r.rank is not None and r.score is not None]
    games = len(rows)
    if not games:
        return MemberStats()
    hands = sum(r.hands for r in rows)
    wins = sum(r.wins for r in rows)
    total = sum(r.score for r in rows if r.score is not None)
    settled = [r.money for r in rows if r.money is not None]
    return MemberStats(
        games=games, hands=hands, total_score=round(total, 3),
        average_score=round(total / games, 3),
        average_place=round(sum(r.rank for r in rows if r.rank) / games, 3),
        first_share=_share(sum(1 for r in rows if r.rank == 1), games),
        last_share=_share(sum(1 for r in rows if r.low == r.seats), games),
        wins=wins, win_rate=_share(wins, hands),
        deal_in_rate=_share(sum(r.deal_ins for r in rows), hands),
        riichi_rate=_share(sum(r.riichi for r in rows), hands),
        average_win=round(sum(r.win_points for r in rows) / wins, 3) if wins else None,
        chips=sum(r.chips for r in rows), money=sum(settled) if settled else None,
    )


def stats_by_member(rows: Iterable[SeatRow]) -> dict[int, MemberStats]:
    mine: dict[int, list[SeatRow]] = {}
    for row in rows:
        if row.member is not None:
            mine.setdefault(row.member, []).append(row)
    return {member: member_stats(seats) for member, seats in mine.items()}


def games_of(rows: Iterable[SeatRow]) -> list[list[SeatRow]]:
    """Seat rows (ordered by game, as `seat_rows` gives them) grouped into games."""
    return [list(g) for _, g in groupby(rows, key=lambda r: (r.table, r.game))]


def ratings_until(db: Database, end: str) -> dict[int, Rating]:
    """Every member's R after all finished games that started before `end`."""
    games = games_of(seat_rows(db, EARLIEST, end))
    return ratings([RatedSeat(s.member, s.rank, s.low) for s in game
                    if s.rank is not None and s.low is not None] for game in games)


@dataclass(frozen=True, slots=True)
class BoardRow:
    place: int
    member: Member
    stats: MemberStats
    rating: Rating

    def to_json(self) -> dict[str, Any]:
        return {"place": self.place, "number": self.member.number, "name": self.member.name,
                "rating": round(self.rating.rating, 2), "rated_games": self.rating.games,
                **self.stats.to_json()}


def _key(order: str, row: BoardRow) -> tuple[Any, ...]:
    s = row.stats
    main: float = {
        "score": -s.total_score,
        "average_score": -(s.average_score or 0.0),
        "average_place": s.average_place or 5.0,
        "rating": -row.rating.rating,
        "games": -s.games,
    }[order]
    return (main, -s.games, row.member.number)


def leaderboard(db: Database, members: Callable[[set[int]], dict[int, Member]], period: Period,
                min_games: int, order: str = "score") -> list[BoardRow]:
    """Members with at least `min_games` finished games in the period, best first by `order`
    (ties: more games first, then the member number); their R as it stood at the period's end.
    `members` names the members of a set of ids (`ParlorStore.members_by_id`)."""
    by_member = {mid: stats for mid, stats in
                 stats_by_member(seat_rows(db, period.start, period.end)).items()
                 if stats.games >= min_games}
    rated = ratings_until(db, period.end)
    known = members(set(by_member))
    rows = [BoardRow(0, known[mid], stats, rated.get(mid, Rating(1500.0, 0)))
            for mid, stats in by_member.items() if mid in known]
    rows.sort(key=lambda r: _key(order, r))
    return [BoardRow(i + 1, r.member, r.stats, r.rating) for i, r in enumerate(rows)]
