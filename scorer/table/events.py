"""What happens at the table, as events: a game is the ordered list of them.

Events record what the table saw, not what the rules make of it: a `Win` lists every ron called
on the discard, and the ruleset decides whether all are paid, the head bump wins or the hand is
aborted. Seats are 0-3 counter-clockwise (0-2 at a three-player table: `Ruleset.players`);
nothing assumes seat 0 deals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from scorer.points import HandValue
from scorer.rules import Ruleset

#: The seats of a four-player table, the default. A game's own count is its rules' `players`
#: (`TableState.seats`): nothing in the table assumes four.
SEATS = 4


class IllegalEvent(ValueError):
    """An event that cannot happen in the current state of the game; the message says why.

    `field` names the offending field (e.g. ``hands[1].winner``) when one is to blame; `index`
    is the event's position in the game once `scorer.table.replay` knows it. `code` (with its
    `values`, e.g. the seat) names the refusal for a front end that words it in another language.
    """

    def __init__(self, reason: str, *, field: str | None = None, index: int | None = None,
                 event_type: str | None = None, code: str | None = None,
                 values: dict[str, object] | None = None) -> None:
        self.reason = reason
        self.field = field
        self.index = index
        self.event_type = event_type
        self.code = code
        self.values = dict(values or {})
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.index is not None:
            where.append(f"event {self.index}" + (f" ({self.event_type})" if self.event_type
                                                  else ""))
        if self.field:
            where.append(f"field '{self.field}'")
        return (", ".join(where) + ": " if where else "") + self.reason

    def at(self, index: int, event_type: str) -> IllegalEvent:
        """The same error, placed at event `index` of a game."""
        return IllegalEvent(self.reason, field=self.field, index=index, event_type=event_type,
                            code=self.code, values=self.values)


class AbortKind(Enum):
    """Abortive draws (tochuu ryuukyoku): the hand ends without a winner and is redealt."""

    NINE_TERMINALS = "nine_terminals"  # kyuushu kyuuhai
    FOUR_WINDS = "four_winds"  # suufon renda
    FOUR_RIICHI = "four_riichi"  # suucha riichi (or sancha riichi, by `riichi_abort_count`)
    FOUR_KANS = "four_kans"  # suukaikan
    TRIPLE_RON = "triple_ron"  # sanchahou, where `triple_ron` is ABORT


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The first event: who sits where, under which rules (in full, so a record stands alone).

    One name a seat, `rules.players` of them (4, or 3 for sanma). Everyone starts with
    `rules.start_points`; `first_dealer` deals East 1.
    """

    players: tuple[str, ...]
    rules: Ruleset
    first_dealer: int = 0
    TYPE: ClassVar[str] = "game_started"


@dataclass(frozen=True, slots=True)
class RiichiDeclared:
    """A riichi that stands (its discard was not ronned): 1,000 points go to the table."""

    seat: int
    TYPE: ClassVar[str] = "riichi"


@dataclass(frozen=True, slots=True)
class WinningHand:
    """One winner's hand as scored: han, fu and real yakuman units (see `HandValue.of`).

    `liable` is the pao player; `liable_yakuman` how many of the yakuman they answer for when
    the hand stacks several (None: all of them). `hand` and `breakdown` are kept for history only;
    `chips` are moved beside the points.
    """

    winner: int
    han: int
    fu: int
    yakuman: int = 0
    liable: int | None = None
    liable_yakuman: int | None = None
    hand: str | None = None
    breakdown: Mapping[str, Any] | None = field(default=None, hash=False)
    # Chips (祝儀) the hand takes from each payer: the discarder, or each other player on a
    # tsumo (`scorer.chips.win_chips(score).each`); 0 where the rules pay none.
    chips: int = 0

    def value(self, rules: Ruleset) -> HandValue:
        return HandValue.of(self.han, self.fu, rules, yakuman=self.yakuman)

    @classmethod
    def of(cls, winner: int, value: HandValue, **extra: Any) -> WinningHand:
        """From the scorer's `HandValue` (a counted yakuman keeps its han, a real one its units)."""
        return cls(winner, value.han, value.fu, value.real_yakuman, **extra)


@dataclass(frozen=True, slots=True)
class Win:
    """A tsumo (`discarder` None, one hand) or every ron called on one discard (1-3 hands)."""

    hands: tuple[WinningHand, ...]
    discarder: int | None = None
    TYPE: ClassVar[str] = "win"

    @classmethod
    def tsumo(cls, hand: WinningHand) -> Win:
        return cls((hand,), None)

    @classmethod
    def ron(cls, discarder: int, *hands: WinningHand) -> Win:
        return cls(tuple(hands), discarder)


@dataclass(frozen=True, slots=True)
class ExhaustiveDraw:
    """The wall ran out: who was tenpai, and who made nagashi mangan."""

    tenpai: frozenset[int] = frozenset()
    nagashi: frozenset[int] = frozenset()
    TYPE: ClassVar[str] = "exhaustive_draw"


@dataclass(frozen=True, slots=True)
class AbortiveDraw:
    kind: AbortKind
    TYPE: ClassVar[str] = "abortive_draw"


@dataclass(frozen=True, slots=True)
class Chombo:
    """A serious foul by `seat`: the hand ends and is redealt (see `Ruleset.chombo`)."""

    seat: int
    TYPE: ClassVar[str] = "chombo"


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: int
    payee: int
    points: int


@dataclass(frozen=True, slots=True)
class Correction:
    """Points moved by hand, for whatever the rules do not cover; never ends a hand."""

    transfers: tuple[Transfer, ...]
    reason: str
    TYPE: ClassVar[str] = "correction"


#: The reason a `GameEnded` keeps when the table gave none (the kiosk's End game with nothing
#: typed), stored as these words; a front end says it in its own language, and a reason a player
#: typed as typed.
ENDED_AT_TABLE = "ended at the table"


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The table ends the game early (a time limit, a player leaves): standings as they stand.
    `reason` is what the table said, or `ENDED_AT_TABLE`."""

    reason: str
    TYPE: ClassVar[str] = "game_ended"


Event = (GameStarted | RiichiDeclared | Win | ExhaustiveDraw | AbortiveDraw | Chombo | Correction
         | GameEnded)
EVENT_TYPES: tuple[type[Any], ...] = (GameStarted, RiichiDeclared, Win, ExhaustiveDraw,
                                      AbortiveDraw, Chombo, Correction, GameEnded)
