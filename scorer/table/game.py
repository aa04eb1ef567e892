"""The game at the table, event-sourced: `replay(events)` folds them into a `TableState`.

`apply(state, event)` is the one step: it checks the event can happen (else `IllegalEvent`), pays
it by the rule texts (see `scorer.table.settlement`), moves the deal and honba, and ends the game
when the rules say so (see `_end_hand`). Undo is dropping the last event; `Table` keeps a redo
list too.

>>> from scorer.rules import RULESETS
>>> start = GameStarted(("A", "B", "C", "D"), RULESETS["tenhou"])
>>> state = replay([start, RiichiDeclared(1), Win.ron(0, WinningHand(1, 3, 30))])
>>> state.points, state.label
((21100, 28900, 25000, 25000), 'East 2, 0 honba')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from scorer.limits import GAME_EVENTS
from scorer.rules import ChomboPenalty, ExtraRoundRenchan, Renchan, TripleRon
from scorer.table.events import (
    AbortiveDraw,
    AbortKind,
    Chombo,
    Correction,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    IllegalEvent,
    RiichiDeclared,
    Win,
    WinningHand,
)
from scorer.table.settlement import (
    Deltas,
    add,
    chip_deltas,
    chombo_deltas,
    nagashi_deltas,
    noten_deltas,
    rons_paid,
    win_deltas,
)
from scorer.table.standings import ranking, standings, with_leftover_sticks
from scorer.table.state import EndReason, HistoryRow, TableState
from scorer.table.validation import (
    check_draw,
    check_reason,
    check_seat,
    check_start,
    check_transfer,
    check_win,
)


def start(event: GameStarted) -> TableState:
    """The state before the first hand: everyone on the starting points, East 1, 0 honba."""
    check_start(event)
    seats = event.rules.players
    points = (event.rules.start_points,) * seats
    state = TableState(event.rules, tuple(event.players), event.first_dealer, points,
                       penalties=(0,) * seats, chips=(0,) * seats)
    row = HistoryRow(0, state.label, f"game started ({event.rules.name})", (0,) * seats, points,
                     0, 0, state.chips)
    return replace(state, history=(row,))


def apply(state: TableState | None, event: Event) -> TableState:
    """The state after `event`; raises `IllegalEvent` when it cannot happen now."""
    if state is None:
        if not isinstance(event, GameStarted):
            raise IllegalEvent("a game begins with game_started")
        return start(event)
    if isinstance(event, GameStarted):
        raise IllegalEvent("the game has already started")
    if state.ended is not None:
        raise IllegalEvent(f"the game is over ({state.ended.value}); nothing can follow",
                           code="game_over")
    if isinstance(event, RiichiDeclared):
        return _riichi(state, event)
    if isinstance(event, Win):
        return _win(state, event)
    if isinstance(event, ExhaustiveDraw):
        return _exhaustive_draw(state, event)
    if isinstance(event, AbortiveDraw):
        return _abortive_draw(state, event.kind, f"abortive draw ({event.kind.value})")
    if isinstance(event, Chombo):
        return _chombo(state, event)
    if isinstance(event, Correction):
        return _correction(state, event)
    if isinstance(event, GameEnded):
        check_reason(event.reason, "say why the game ends early")
        return _finish(state, EndReason.CALLED, f"game ended: {event.reason}")
    raise IllegalEvent(f"not an event: {type(event).__name__}")


def replay(events: Iterable[Event]) -> TableState:
    """Fold a game's events; an `IllegalEvent` names the index of the event that failed."""
    state: TableState | None = None
    for index, event in enumerate(events):
        try:
            state = apply(state, event)
        except IllegalEvent as error:
            raise error.at(index, getattr(event, "TYPE", type(event).__name__)) from None
    if state is None:
        raise IllegalEvent("a game needs at least its game_started event")
    return state


@dataclass(frozen=True, slots=True)
class Table:
    """A game in memory with undo and redo: `events` played, `undone` (most recent last)."""

    events: tuple[Event, ...]
    state: TableState
    undone: tuple[Event, ...] = ()

    @classmethod
    def begin(cls, event: GameStarted) -> Table:
        return cls((event,), start(event))

    @classmethod
    def of(cls, events: Iterable[Event]) -> Table:
        played = tuple(events)
        return cls(played, replay(played))

    def play(self, event: Event) -> Table:
        """Apply one more event; playing something new forgets what could be redone."""
        if len(self.events) >= GAME_EVENTS:
            raise IllegalEvent(f"a game holds at most {GAME_EVENTS:,} events: end this one and "
                               "start a new game")
        return Table(self.events + (event,), apply(self.state, event))

    @property
    def can_undo(self) -> bool:
        return len(self.events) > 1

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def undo(self) -> Table:
        if not self.can_undo:
            raise IllegalEvent("nothing to undo: the game has only started", code="nothing_to_undo")
        kept = self.events[:-1]
        return Table(kept, replay(kept), self.undone + self.events[-1:])

    def redo(self) -> Table:
        if not self.undone:
            raise IllegalEvent("nothing to redo", code="nothing_to_redo")
        event = self.undone[-1]
        return Table(self.events + (event,), apply(self.state, event), self.undone[:-1])


def _name(state: TableState, seat: int) -> str:
    return state.players[seat]


def _row(before: TableState, after: TableState, what: str) -> TableState:
    deltas = tuple(a - b for a, b in zip(after.points, before.points, strict=True))
    row = HistoryRow(len(before.history), before.label, what, deltas, after.points, after.honba,
                     after.sticks, after.chips)
    return replace(after, history=before.history + (row,))


def _riichi(state: TableState, event: RiichiDeclared) -> TableState:
    rules = state.rules
    seat = check_seat(event.seat, "seat", state.seats)
    if seat in state.riichi:
        raise IllegalEvent(f"seat {seat} has already declared riichi this hand", field="seat",
                           code="riichi_twice", values={"seat": seat})
    if rules.riichi_needs_points and state.points[seat] < rules.riichi_stick:
        raise IllegalEvent(f"seat {seat} has {state.points[seat]} points; riichi needs "
                           f"{rules.riichi_stick}", field="seat", code="riichi_points",
                           values={"seat": seat, "points": state.points[seat],
                                   "stick": rules.riichi_stick})
    points = add(state.points, tuple(-rules.riichi_stick if s == seat else 0
                                     for s in range(state.seats)))
    after = replace(state, points=points, sticks=state.sticks + 1, riichi=state.riichi | {seat})
    return _row(state, after, f"riichi: {_name(state, seat)}")


def _describe_win(state: TableState, hands: Iterable[WinningHand], discarder: int | None) -> str:
    parts = []
    for hand in hands:
        value = hand.value(state.rules)
        worth = (f"{value.real_yakuman}x yakuman" if value.real_yakuman
                 else f"{hand.han} han {hand.fu} fu")
        pao = f", pao {_name(state, hand.liable)}" if hand.liable is not None else ""
        parts.append(f"{_name(state, hand.winner)} {worth}{pao}")
    how = "tsumo" if discarder is None else f"ron off {_name(state, discarder)}"
    return f"{how}: " + "; ".join(parts)


def _win(state: TableState, event: Win) -> TableState:
    check_win(event, state.rules)
    paid = rons_paid(event, state.rules)
    if paid is None:
        return _abortive_draw(state, AbortKind.TRIPLE_RON, "three rons: abortive draw")
    deltas = win_deltas(paid, event.discarder, state.rules, state.dealer, state.honba,
                        state.sticks)
    dealer_won = any(hand.winner == state.dealer for hand in paid)
    # Chips beside the points: each paid hand's from the discarder, or from each other player
    # on a tsumo (`scorer.chips`); pao and honba do not touch them.
    chips = add(state.chips, chip_deltas(paid, event.discarder, state.seats))
    return _end_hand(replace(state, chips=chips), deltas,
                     _describe_win(state, paid, event.discarder),
                     repeat=dealer_won, honba=state.honba + 1 if dealer_won else 0, sticks=0,
                     yame=EndReason.AGARI_YAME if state.rules.agari_yame else None)


def _exhaustive_draw(state: TableState, event: ExhaustiveDraw) -> TableState:
    rules = state.rules
    check_draw(event, rules)
    if event.nagashi:
        deltas = nagashi_deltas(event.nagashi, state.dealer, rules)
        names = ", ".join(_name(state, s) for s in sorted(event.nagashi))
        what = f"exhaustive draw, nagashi mangan: {names}"
    else:
        deltas = noten_deltas(event.tenpai, rules)
        names = ", ".join(_name(state, s) for s in sorted(event.tenpai)) or "nobody"
        what = f"exhaustive draw, tenpai: {names}"
    # Tenpai renchan keeps the deal when the dealer is tenpai; agari renchan only on a win
    # (tutorial-yaku-calls-rounds.txt l.148-150). Every draw adds a honba (l.206).
    repeat = rules.renchan is Renchan.TENPAI and state.dealer in event.tenpai
    return _end_hand(state, deltas, what, repeat=repeat, honba=state.honba + 1,
                     sticks=state.sticks,
                     yame=EndReason.TENPAI_YAME if rules.tenpai_yame else None, draw=True)


def _abortive_draw(state: TableState, kind: AbortKind, what: str) -> TableState:
    rules = state.rules
    if kind is AbortKind.TRIPLE_RON:
        if rules.triple_ron is not TripleRon.ABORT:
            raise IllegalEvent(f"under {rules.name} three rons are {rules.triple_ron.value}, "
                               "not an abortive draw", field="kind")
    elif not rules.abortive_draws:
        raise IllegalEvent(f"{rules.name} plays without abortive draws", field="kind")
    elif kind is AbortKind.FOUR_WINDS and state.seats < 4:
        raise IllegalEvent("four wind discards need four players", field="kind")
    elif kind is AbortKind.FOUR_RIICHI and len(state.riichi) < rules.riichi_abort_count:
        raise IllegalEvent(f"only {len(state.riichi)} riichi declared this hand; the abort needs "
                           f"{rules.riichi_abort_count}", field="kind")
    # Redealt (handbook l.283) by the same dealer unless `abortive_renchan` is off (overview
    # l.287); a draw adds a honba and the riichi sticks stay on the table.
    return _end_hand(state, (0,) * state.seats, what, repeat=rules.abortive_renchan,
                     honba=state.honba + 1, sticks=state.sticks, yame=None)


def _chombo(state: TableState, event: Chombo) -> TableState:
    rules = state.rules
    seat = check_seat(event.seat, "seat", state.seats)
    # The hand is redealt: no honba, the deal stays, this hand's riichi sticks go back to
    # their owners; sticks from earlier hands stay (furiten-optional l.205).
    returned = tuple(rules.riichi_stick if s in state.riichi else 0 for s in range(state.seats))
    deltas = add(chombo_deltas(seat, state.dealer, rules), returned)
    penalties = state.penalties
    if rules.chombo is ChomboPenalty.POINTS:
        penalties = tuple(p + (rules.chombo_points if s == seat else 0)
                          for s, p in enumerate(penalties))
    after = replace(state, points=add(state.points, deltas), riichi=frozenset(),
                    sticks=state.sticks - len(state.riichi), penalties=penalties)
    what = f"chombo: {_name(state, seat)} ({rules.chombo.value})"
    if _bust(after):
        return _finish(state, EndReason.BUST, what, after)
    return _row(state, after, what)


def _correction(state: TableState, event: Correction) -> TableState:
    check_reason(event.reason, "a correction needs a reason")
    if not event.transfers:
        raise IllegalEvent("a correction moves at least one amount", field="transfers")
    deltas: Deltas = (0,) * state.seats
    for i, transfer in enumerate(event.transfers):
        check_transfer(transfer, f"transfers[{i}]", state.seats)
        deltas = add(deltas, tuple(-transfer.points if s == transfer.payer else
                                   transfer.points if s == transfer.payee else 0
                                   for s in range(state.seats)))
    after = replace(state, points=add(state.points, deltas))
    return _row(state, after, f"correction: {event.reason}")


def _reached(state: TableState, points: int) -> bool:
    target = state.rules.target_points
    return points > target if state.rules.target_must_exceed else points >= target


def _bust(state: TableState) -> bool:
    if not state.rules.tobi:
        return False
    # Below zero ends the game; exactly zero only where the table says so (furiten-optional
    # l.118, tutorial l.212).
    return any(p <= 0 if state.rules.tobi_at_zero else p < 0 for p in state.points)


def _plays_on(rules: ExtraRoundRenchan, draw: bool) -> bool:
    """Whether a dealer repeat in the extra round plays on past the target (see the enum)."""
    return rules is ExtraRoundRenchan.ALWAYS or (rules is ExtraRoundRenchan.AT_DRAW and draw)


def _end_hand(state: TableState, deltas: Deltas, what: str, *, repeat: bool, honba: int,
              sticks: int, yame: EndReason | None, draw: bool = False) -> TableState:
    """Pay the hand, then move on: renchan or the next dealer, or the end of the game.

    The game ends (tutorial-yaku-calls-rounds.txt l.208-218, furiten-optional l.110-128) when
    someone busts; when the last dealer repeats in first place under agari/tenpai-yame (with the
    extra round on, only at or above the target); when the all-last hand passes and someone has
    the target (or there is no extra round); in the extra round as soon as someone has the target
    after a hand, unless the dealer repeats where `extra_round_renchan` plays on (Tenhou: at an
    exhaustive draw, `draw`); and when the extra round's last hand passes (its fourth, or third
    at three players).
    """
    after = replace(state, points=add(state.points, deltas), honba=honba, sticks=sticks,
                    riichi=frozenset())
    if _bust(after):
        return _finish(state, EndReason.BUST, what, after)
    index, last = state.hand_index, state.last_hand_index
    dealer = state.dealer
    if (repeat and yame is not None and index >= last
            and ranking(after.points, state.first_dealer)[0] == dealer
            and (not state.rules.west_round or _reached(state, after.points[dealer]))):
        return _finish(state, yame, what, after)
    anyone_reached = any(_reached(state, p) for p in after.points)
    if state.in_extra_round and anyone_reached and not (
            repeat and _plays_on(state.rules.extra_round_renchan, draw)):
        return _finish(state, EndReason.TARGET_REACHED, what, after)
    following = index if repeat else index + 1
    if index == last and following > last and (not state.rules.west_round or anyone_reached):
        return _finish(state, EndReason.LAST_HAND, what, after)
    if following > last + state.seats:
        return _finish(state, EndReason.EXTRA_ROUND_OVER, what, after)
    return _row(state, replace(after, hand_index=following), what)


def _finish(before: TableState, reason: EndReason, what: str,
            after: TableState | None = None) -> TableState:
    """End the game: left-over sticks by rule, then the standings with uma and oka."""
    final = before if after is None else after
    rules = final.rules
    points = with_leftover_sticks(final.points, final.sticks, final.first_dealer, rules)
    sticks = final.sticks if points == final.points else 0
    table = standings(final.players, points, final.penalties, final.first_dealer, rules)
    done = replace(final, points=points, sticks=sticks, ended=reason, standings=table)
    return _row(before, done, f"{what}; game over ({reason.value})")
