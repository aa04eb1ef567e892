"""The state of a game at the table: always the fold of its events (see `scorer.table.replay`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from scorer.context import Wind
from scorer.rules import GameLength, Ruleset


class EndReason(Enum):
    LAST_HAND = "last_hand"  # the last hand of the game ended without a renchan
    BUST = "bust"  # tobi: a player went below zero (or to zero, by rule)
    AGARI_YAME = "agari_yame"  # the last dealer won in first place
    TENPAI_YAME = "tenpai_yame"  # the last dealer was tenpai at the draw in first place
    TARGET_REACHED = "target_reached"  # sudden death in the extra round: someone reached the target
    EXTRA_ROUND_OVER = "extra_round_over"  # the extra (West) round ended without anyone reaching it
    CALLED = "called"  # the table ended the game (GameEnded)


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's final result.

    `score` = (points - return) / 1000 + rounding + uma + oka - penalty, all in thousands of
    points; `rounding` is what `Ruleset.final_rounding` added (first place: the others' rest).
    """

    seat: int
    name: str
    rank: int
    points: int
    rounding: Fraction
    uma: Fraction
    oka: Fraction
    penalty: Fraction
    score: Fraction


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One event as the table saw it: the hand it happened in, what it moved, where it left us."""

    index: int
    hand: str  # e.g. "East 2, 1 honba", before the event
    what: str
    deltas: tuple[int, ...]
    points: tuple[int, ...]
    honba: int
    sticks: int
    chips: tuple[int, ...] = ()  # each seat's chips after it (`Ruleset.chips`), from 0


@dataclass(frozen=True, slots=True)
class TableState:
    """Points, dealer, round, honba, sticks, riichi, and at the end the standings.

    `hand_index` counts dealer changes from East 1 (0) on: East 1-4 are 0-3, South 1-4 are 4-7,
    West 1-4 are 8-11 (at three players East 1-3 are 0-2, South 1-3 3-5, West 1-3 6-8).
    `penalties` are chombo points taken off the final score (POINTS rule), one a seat.
    """

    rules: Ruleset
    players: tuple[str, ...]
    first_dealer: int
    points: tuple[int, ...]
    hand_index: int = 0
    honba: int = 0
    sticks: int = 0
    riichi: frozenset[int] = frozenset()
    penalties: tuple[int, ...] = ()
    chips: tuple[int, ...] = ()  # each seat's chips won (+) or paid (-), beside the points
    ended: EndReason | None = None
    standings: tuple[Standing, ...] = ()
    history: tuple[HistoryRow, ...] = ()

    @property
    def seats(self) -> int:
        """How many play: 4, or 3 at a three-player table (the rules' `players`)."""
        return len(self.points)

    @property
    def finished(self) -> bool:
        return self.ended is not None

    @property
    def dealer(self) -> int:
        return (self.first_dealer + self.hand_index) % self.seats

    @property
    def round_wind(self) -> Wind:
        return Wind(self.hand_index // self.seats + 1)

    @property
    def hand_number(self) -> int:
        return self.hand_index % self.seats + 1

    @property
    def last_hand_index(self) -> int:
        """All last: East 4 in an east-only game, South 4 in a hanchan (East 3 / South 3 at
        three players)."""
        rounds = 1 if self.rules.length is GameLength.EAST else 2
        return rounds * self.seats - 1

    @property
    def in_extra_round(self) -> bool:
        return self.hand_index > self.last_hand_index

    def seat_wind(self, seat: int) -> Wind:
        return Wind((seat - self.dealer) % self.seats + 1)

    @property
    def label(self) -> str:
        return f"{self.round_wind.name.title()} {self.hand_number}, {self.honba} honba"

    @property
    def total(self) -> int:
        """Points in play: the players' and the sticks on the table."""
        return sum(self.points) + self.sticks * self.rules.riichi_stick
