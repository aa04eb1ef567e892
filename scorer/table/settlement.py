"""Settlement: who pays whom when a hand ends. Pure functions over seats and a `Ruleset`.

Every function returns one change per seat. A hand's changes sum to the riichi sticks the winner
took off the table (x1,000), or to zero: points are never made or lost.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scorer.points import HandValue, split_evenly, win_payments
from scorer.rules import ChomboPenalty, Ruleset, TripleRon
from scorer.table.events import SEATS, Win, WinningHand

Deltas = tuple[int, ...]
NO_CHANGE: Deltas = (0,) * SEATS  # at a four-player table; `no_change(rules)` at any


def no_change(rules: Ruleset) -> Deltas:
    return (0,) * rules.players


def add(*deltas: Sequence[int]) -> Deltas:
    """Seat-wise sum of several changes (at least one)."""
    return tuple(sum(column) for column in zip(*deltas, strict=True)) if deltas else NO_CHANGE


def turn_distance(source: int, seat: int, seats: int = SEATS) -> int:
    """How many turns after `source` the `seat` plays (turns go counter-clockwise: seat + 1)."""
    return (seat - source) % seats


def rons_paid(win: Win, rules: Ruleset) -> tuple[WinningHand, ...] | None:
    """The rons the rules pay, nearest the discarder first; None when they abort the hand.

    Double ron: both win, honba and sticks to the nearest winner; atamahane (`double_ron` off):
    only the nearest wins (furiten-optional-rules-penalties.txt l.160-166). Three rons follow
    `triple_ron`: an abortive draw (Tenhou), all paid (Mahjong Soul) or the head bump.
    """
    hands = win.hands
    if win.discarder is not None:
        discarder = win.discarder
        hands = tuple(sorted(hands, key=lambda h: turn_distance(discarder, h.winner,
                                                                rules.players)))
    if len(hands) == 2 and not rules.double_ron:
        return hands[:1]
    if len(hands) == 3:
        if rules.triple_ron is TripleRon.ABORT:
            return None
        if rules.triple_ron is TripleRon.HEAD_BUMP:
            return hands[:1]
    return hands


def hand_payment(hand: WinningHand, rules: Ruleset, dealer: int, discarder: int | None,
                 honba: int, sticks: int) -> Deltas:
    """One winner's payment: the hand, `honba` repeat counters and `sticks` riichi sticks.

    Pao (handbook l.338-374): on a tsumo the liable player pays everything, honba included; on
    a ron liable player and discarder split the hand and the discarder pays the honba. When only
    some of a stacked yakuman is liable, that part is paid so and the rest the ordinary way.
    """
    value = hand.value(rules)
    if hand.liable is None:
        return win_payments(value, hand.winner, dealer, discarder, honba, sticks, rules)
    units = value.real_yakuman if hand.liable_yakuman is None else hand.liable_yakuman
    if units >= value.real_yakuman:
        return win_payments(value, hand.winner, dealer, discarder, honba, sticks, rules,
                            liable=hand.liable)
    liable_part = HandValue.of(0, 0, rules, yakuman=units)
    rest = HandValue.of(0, 0, rules, yakuman=value.real_yakuman - units)
    return add(
        win_payments(liable_part, hand.winner, dealer, discarder, honba, sticks, rules,
                     liable=hand.liable),
        win_payments(rest, hand.winner, dealer, discarder, 0, 0, rules),
    )


def win_deltas(hands: Sequence[WinningHand], discarder: int | None, rules: Ruleset,
               dealer: int, honba: int, sticks: int) -> Deltas:
    """All paid winners of one discard (or a tsumo); the first takes honba and sticks."""
    return add(no_change(rules), *(
        hand_payment(hand, rules, dealer, discarder, honba if i == 0 else 0,
                     sticks if i == 0 else 0)
        for i, hand in enumerate(hands)
    ))


def chip_deltas(hands: Sequence[WinningHand], discarder: int | None, seats: int) -> Deltas:
    """Chips moved by the paid hands of one discard (or a tsumo): each hand's `chips` from the
    discarder, or from each other player on a tsumo (see `scorer.chips`)."""
    out = [0] * seats
    for hand in hands:
        payers = [discarder] if discarder is not None else \
            [s for s in range(seats) if s != hand.winner]
        for payer in payers:
            out[payer] -= hand.chips
            out[hand.winner] += hand.chips
    return tuple(out)


def noten_deltas(tenpai: Iterable[int], rules: Ruleset) -> Deltas:
    """Noten payments: the noten players pay `noten_total` between them to the tenpai players.

    1 tenpai: 1,000 from each; 2: 1,500 from each noten player to each tenpai one; 3: 1,000 to
    each from the one noten player; 0 or 4: nothing (tutorial-yaku-calls-rounds.txt l.196-200).
    At three players with Tenhou's 2,000: 1 tenpai takes 1,000 from each of two; 2 take 1,000
    each from the one noten player; 0 or 3: nothing.
    """
    seats = rules.players
    ready = sorted(set(tenpai))
    noten = [seat for seat in range(seats) if seat not in ready]
    if not ready or not noten:
        return no_change(rules)
    return add(split_evenly(rules.noten_total, ready, seats),
               split_evenly(-rules.noten_total, noten, seats))


def mangan_tsumo(seat: int, dealer: int, rules: Ruleset) -> Deltas:
    """What a mangan by tsumo moves, without honba or sticks."""
    return win_payments(HandValue.of(5, 0, rules), seat, dealer, None, 0, 0, rules)


def nagashi_deltas(seats: Iterable[int], dealer: int, rules: Ruleset) -> Deltas:
    """Nagashi mangan: each is paid as a mangan by tsumo (furiten-optional l.154-156).

    Like Tenhou, no honba is paid, the riichi sticks stay and no noten payments are made.
    """
    return add(no_change(rules), *(mangan_tsumo(seat, dealer, rules) for seat in sorted(seats)))


def chombo_deltas(seat: int, dealer: int, rules: Ruleset) -> Deltas:
    """The chombo penalty that moves points now (POINTS is taken off the final score instead).

    Reverse mangan: the offender pays each other player what they would have paid on the
    offender's mangan tsumo: a non-dealer 4,000 to the dealer and 2,000 to each other (8,000),
    a dealer 4,000 to each (12,000) (furiten-optional-rules-penalties.txt l.200-203).
    """
    if rules.chombo is ChomboPenalty.REVERSE_MANGAN:
        return tuple(-change for change in mangan_tsumo(seat, dealer, rules))
    if rules.chombo is ChomboPenalty.PAY_EACH:
        # handbook l.400: "a 1000 points penalty can be imposed, to be paid to every player"
        return tuple(-rules.chombo_each * (rules.players - 1) if s == seat else rules.chombo_each
                     for s in range(rules.players))
    return no_change(rules)
