"""Correcting a hand already played (`scorer.table.amend`): the game replayed and re-paid from it.

Every expected value is worked by hand in the comments, under Tenhou's rules (25,000 each, seat 0
deals East 1, 300 a honba on a ron, 100 from each payer on a tsumo, noten payments 3,000, tobi
below zero). Payments: 1 han 30 fu ron 1,000; 3 han 30 fu ron 3,900 (dealer 5,800); 2 han 30 fu
tsumo 500/1,000 (dealer 1,000 all); a non-dealer yakuman ron 32,000.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorer.rules import RULESETS
from scorer.table import (
    EndReason,
    Event,
    ExhaustiveDraw,
    GameStarted,
    IllegalEvent,
    RiichiDeclared,
    Win,
    amend,
    replay,
)
from tests.scorer.table_notation import hand, ron, tsumo

START = GameStarted(("Aki", "Bun", "Chie", "Dai"), RULESETS["tenhou"])

# The game as played, each event's points after it:
PLAYED: tuple[Event, ...] = (
    START,
    # 1. East 1, 0 honba: Bun (seat 1) rons Chie for 3 han 30 fu: 3,900.
    #    (25000, 28900, 21100, 25000); Bun deals East 2.
    ron(2, hand(1, 3, 30)),
    # 2. East 2, 0 honba: dealer Bun tsumo 2 han 30 fu: 1,000 all.
    #    (24000, 31900, 20100, 24000); renchan: East 2, 1 honba.
    tsumo(1, 2, 30),
    # 3. Dai (seat 3) declares riichi: (24000, 31900, 20100, 23000), 1 stick.
    RiichiDeclared(3),
    # 4. Exhaustive draw, Bun and Dai tenpai: 1,500 from each noten to each tenpai seat.
    #    (22500, 33400, 18600, 24500); dealer tenpai: East 2, 2 honba, the stick stays.
    ExhaustiveDraw(frozenset({1, 3})),
    # 5. Dai rons Aki 1 han 30 fu: 1,000 + 2 x 300 honba + 1,000 stick: Aki -1,600, Dai +2,600.
    #    (20900, 33400, 18600, 27100); East 3, 0 honba.
    ron(0, hand(3, 1, 30)),
)


def test_the_game_as_played() -> None:
    state = replay(PLAYED)
    assert state.points == (20900, 33400, 18600, 27100)
    assert (state.label, state.sticks) == ("East 3, 0 honba", 0)


def test_hand_1_won_by_the_dealer_moves_the_deal_honba_and_every_later_payment() -> None:
    # Hand 1 corrected: Aki (seat 0, the dealer) won it off Chie, not Bun: a dealer's 3 han 30 fu
    # is 5,800 -> (30800, 25000, 19200, 25000), and the dealer repeats: East 1, 1 honba.
    # 2. Bun's tsumo is now a non-dealer's 2 han 30 fu with 1 honba: the dealer Aki pays
    #    1,000 + 100, Chie and Dai 500 + 100 each, Bun takes 2,300 -> (29700, 27300, 18600,
    #    24400); the deal passes to Bun: East 2, 0 honba.
    # 3. Dai's riichi: (29700, 27300, 18600, 23400), 1 stick.
    # 4. Bun and Dai tenpai: (28200, 28800, 17100, 24900); dealer Bun tenpai: East 2, 1 honba.
    # 5. Dai rons Aki: 1,000 + 300 + 1,000 stick: (26900, 28800, 17100, 27200); East 3, 0 honba.
    fixed = amend(PLAYED, 1, ron(2, hand(0, 3, 30)))
    assert fixed.state.points == (26900, 28800, 17100, 27200)
    assert (fixed.state.label, fixed.state.sticks, fixed.state.dealer) == ("East 3, 0 honba", 0, 2)
    assert fixed.events == (START, ron(2, hand(0, 3, 30)), *PLAYED[2:])
    assert (fixed.dropped, fixed.refusal) == ((), None)
    assert (fixed.played, fixed.was, fixed.replaced) == (PLAYED, replay(PLAYED), PLAYED[1])
    assert [(r.index, r.old.hand, r.new.hand) for r in fixed.rows] == [
        (1, "East 1, 0 honba", "East 1, 0 honba"),
        (2, "East 2, 0 honba", "East 1, 1 honba"),
        (3, "East 2, 1 honba", "East 2, 0 honba"),
        (4, "East 2, 1 honba", "East 2, 0 honba"),
        (5, "East 2, 2 honba", "East 2, 1 honba"),
    ]
    assert [(r.old.deltas, r.new.deltas) for r in fixed.rows] == [
        ((0, 3900, -3900, 0), (5800, 0, -5800, 0)),
        ((-1000, 3000, -1000, -1000), (-1100, 2300, -600, -600)),
        ((0, 0, 0, -1000), (0, 0, 0, -1000)),
        ((-1500, 1500, -1500, 1500), (-1500, 1500, -1500, 1500)),
        ((-1600, 0, 0, 2600), (-1300, 0, 0, 2300)),
    ]
    assert [r.new.points for r in fixed.rows] == [
        (30800, 25000, 19200, 25000), (29700, 27300, 18600, 24400),
        (29700, 27300, 18600, 23400), (28200, 28800, 17100, 24900),
        (26900, 28800, 17100, 27200)]
    assert [(r.old.honba, r.new.honba, r.new.sticks) for r in fixed.rows] == [
        (0, 1, 0), (1, 0, 0), (1, 0, 1), (2, 1, 1), (0, 0, 0)]
    assert all(r.changed for r in fixed.rows)


def test_the_tenpai_seats_of_a_draw_corrected() -> None:
    # Draw 4 corrected: only Dai tenpai. Dai takes 1,000 from each of the three noten seats:
    # from (24000, 31900, 20100, 23000) to (23000, 30900, 19100, 26000); dealer Bun noten: the
    # deal passes to Chie, East 3, 2 honba (every draw adds one), the stick stays.
    # 5. Dai rons Aki: 1,000 + 2 x 300 + 1,000 stick: (21400, 30900, 19100, 28600); Dai deals
    #    East 4, 0 honba.
    fixed = amend(PLAYED, 4, ExhaustiveDraw(frozenset({3})))
    assert [r.new.deltas for r in fixed.rows] == [(-1000, -1000, -1000, 3000),
                                                  (-1600, 0, 0, 2600)]
    assert fixed.rows[1].new.hand == "East 3, 2 honba"
    assert fixed.state.points == (21400, 30900, 19100, 28600)
    assert (fixed.state.label, fixed.state.dealer) == ("East 4, 0 honba", 3)
    assert fixed.rows[0].index == 4 and fixed.rows[1].changed


def test_a_game_that_now_ends_earlier_drops_the_later_hands_and_says_why() -> None:
    # Hand 1 corrected to a yakuman: Bun rons Chie for 32,000; Chie has -7,000: tobi ends the
    # game there. Tenhou's standings: Bun 57,000 first.
    fixed = amend(PLAYED, 1, ron(2, hand(1, 13, 0, yakuman=1)))
    assert fixed.state.points == (25000, 57000, -7000, 25000)
    assert fixed.state.ended is EndReason.BUST
    assert fixed.events == (START, ron(2, hand(1, 13, 0, yakuman=1)))
    assert fixed.dropped == (2, 3, 4, 5)
    refusal = fixed.refusal
    assert refusal is not None
    assert (refusal.index, refusal.event_type, refusal.code) == (2, "win", "game_over")
    assert str(refusal) == "event 2 (win): the game is over (bust); nothing can follow"
    assert [r.index for r in fixed.rows] == [1]


def test_a_game_that_ended_plays_on_when_the_bust_is_corrected() -> None:
    # Played: the yakuman busts Chie at once. Corrected to 3 han 30 fu (3,900): nobody busts,
    # the game goes on in East 2 (Bun deals).
    played = (START, ron(2, hand(1, 13, 0, yakuman=1)))
    fixed = amend(played, 1, ron(2, hand(1, 3, 30)))
    assert replay(played).finished and not fixed.state.finished
    assert (fixed.state.points, fixed.state.label) == ((25000, 28900, 21100, 25000),
                                                       "East 2, 0 honba")


@pytest.mark.parametrize(("index", "event", "code", "field"), [
    pytest.param(0, ron(2, hand(1, 3, 30)), "amend_no_event", "index", id="the-start"),
    pytest.param(6, ron(2, hand(1, 3, 30)), "amend_no_event", "index", id="past-the-end"),
    pytest.param(1, START, "amend_start", "event", id="a-start-as-a-hand"),
    pytest.param(1, ron(2, hand(1, 3, 30)), "amend_same", "event", id="unchanged"),
    pytest.param(1, ron(2, hand(2, 3, 30)), None, "hands[0].winner", id="own-discard"),
])
def test_a_correction_that_cannot_be_is_refused(index: int, event: Event, code: str | None,
                                                field: str) -> None:
    with pytest.raises(IllegalEvent) as refused:
        amend(PLAYED, index, event)
    assert (refused.value.code, refused.value.field) == (code, field)
    if code is None:  # the rules' own refusal, placed at the corrected event
        assert refused.value.index == 1


def test_the_caller_says_what_is_the_event_as_played() -> None:
    """A caller whose events carry words (a win's breakdown in the language it was scored in)
    compares what the event is: the same han and fu in other words changes nothing."""
    def same(a: Event, b: Event) -> bool:
        return a == b or (isinstance(a, Win) and isinstance(b, Win) and a.discarder == b.discarder
                          and [replace(h, breakdown=None) for h in a.hands]
                          == [replace(h, breakdown=None) for h in b.hands])

    worded = ron(2, replace(hand(1, 3, 30), breakdown={"summary": "3翻30符"}))
    assert amend(PLAYED, 1, worded).rows[0].changed is False  # equality: a different event
    with pytest.raises(IllegalEvent) as refused:
        amend(PLAYED, 1, worded, same)
    assert refused.value.code == "amend_same"
    # 3 han 40 fu is another hand: a ron of 5,200 instead of 3,900, Bun ends 1,300 higher
    assert amend(PLAYED, 1, ron(2, hand(1, 3, 40)), same).state.points[1] == 33400 + 1300
