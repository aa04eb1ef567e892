"""Correcting a hand already played: one event replaced, the game replayed from there.

Events record what the table saw; what they paid is always derived by the rules. So a mistake
three hands ago (the wrong winner, payer, han and fu, tenpai seats) is corrected by replacing
that one event and replaying every later event as it was seen: each is paid again by the rules
from the state the correction leaves (the dealer, honba and riichi sticks move with it).

A later event the corrected game cannot reach is never applied quietly: the replay stops at the
first one (a game that now ends earlier, a riichi a player can no longer afford), and the
`Amendment` names it with the rules' reason and every event dropped from there. Whoever applies
the amendment decides whether to accept the loss (the kiosk asks).

>>> from scorer.rules import RULESETS
>>> from scorer.table import GameStarted, Win, WinningHand
>>> played = (GameStarted(("A", "B", "C", "D"), RULESETS["tenhou"]),
...           Win.ron(2, WinningHand(1, 3, 30)), Win.tsumo(WinningHand(1, 2, 30)))
>>> fixed = amend(played, 1, Win.ron(2, WinningHand(0, 3, 30)))
>>> fixed.state.points
(29700, 27300, 18600, 24400)
>>> [(r.old.hand, r.new.hand) for r in fixed.rows]
[('East 1, 0 honba', 'East 1, 0 honba'), ('East 2, 0 honba', 'East 1, 1 honba')]
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scorer.table.events import Event, GameStarted, IllegalEvent
from scorer.table.game import Table, apply, replay
from scorer.table.state import HistoryRow, TableState


@dataclass(frozen=True, slots=True)
class Repaid:
    """One event of the corrected game from the edited one on: its history row as it was played
    (`old`) and as the rules pay it after the correction (`new`)."""

    index: int
    event: Event
    old: HistoryRow
    new: HistoryRow

    @property
    def changed(self) -> bool:
        """Whether the event pays anything else, happens in another hand or leaves other points."""
        return (self.old.deltas, self.old.hand, self.old.points, self.old.honba, self.old.sticks,
                self.old.chips) != (self.new.deltas, self.new.hand, self.new.points,
                                    self.new.honba, self.new.sticks, self.new.chips)


@dataclass(frozen=True, slots=True)
class Amendment:
    """A game with event `index` replaced and replayed from there.

    `played` are the game's events before the correction and `was` their replay; `events` the
    corrected game's (the events after the first unreachable one left out) and `state` theirs;
    `rows` the replaced event and each later one kept, old and new. `dropped` holds the old
    game's indices of the events that can no longer happen, `refusal` why the first of them
    cannot (None when every event is kept).
    """

    index: int
    replacement: Event
    played: tuple[Event, ...]
    events: tuple[Event, ...]
    state: TableState
    was: TableState
    rows: tuple[Repaid, ...]
    dropped: tuple[int, ...] = ()
    refusal: IllegalEvent | None = None

    @property
    def replaced(self) -> Event:
        return self.played[self.index]

    @property
    def table(self) -> Table:
        """The corrected game as a `Table` (nothing to redo)."""
        return Table(self.events, self.state)


def amend(events: Sequence[Event], index: int, replacement: Event,
          same: Callable[[Event, Event], bool] = operator.eq) -> Amendment:
    """Replace event `index` of a game with `replacement` and replay the later events.

    Raises `IllegalEvent` when there is no such event to replace (the start is not a hand: a new
    game is), when the replacement is the event as played (`same(replacement, played)`, by
    default equality: a caller whose events carry words, such as a win's breakdown in the
    language it was scored in, compares what the event is instead), or when it cannot happen
    where the replaced one did (the error placed at `index`).
    """
    played = tuple(events)
    if not 1 <= index < len(played):
        raise IllegalEvent(f"no event {index} to correct: the game's events are 1-"
                           f"{len(played) - 1} (0 is its start)", field="index",
                           code="amend_no_event", values={"index": index})
    if isinstance(replacement, GameStarted):
        raise IllegalEvent("a game's start is not a hand: start a new game instead",
                           field="event", code="amend_start")
    if same(replacement, played[index]):
        raise IllegalEvent("the correction is the event as it was played: nothing changes",
                           field="event", code="amend_same")
    was = replay(played)
    state = replay(played[:index])
    try:
        state = apply(state, replacement)
    except IllegalEvent as error:
        raise error.at(index, getattr(replacement, "TYPE", type(replacement).__name__)) from None
    kept = list(played[:index]) + [replacement]
    refusal: IllegalEvent | None = None
    for later in range(index + 1, len(played)):
        event = played[later]
        try:
            state = apply(state, event)
        except IllegalEvent as error:
            refusal = error.at(later, getattr(event, "TYPE", type(event).__name__))
            break
        kept.append(event)
    rows = tuple(Repaid(i, kept[i], was.history[i], state.history[i])
                 for i in range(index, len(kept)))
    return Amendment(index, replacement, played, tuple(kept), state, was, rows,
                     tuple(range(len(kept), len(played))), refusal)
