"""The table refuses impossible events (naming the field), keeps history, undoes and redoes."""

from __future__ import annotations

import pytest

from scorer.rules import RULESETS, ExtraRoundRenchan, GameLength, Ruleset
from scorer.table import (
    AbortiveDraw,
    AbortKind,
    Chombo,
    Correction,
    EndReason,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    IllegalEvent,
    RiichiDeclared,
    Table,
    TableState,
    Transfer,
    Win,
    WinningHand,
    apply,
    replay,
)

TENHOU = RULESETS["tenhou"]
NAMES = ("Ana", "Ben", "Chie", "Dai")


def play(rules: Ruleset, *events: Event) -> TableState:
    return replay((GameStarted(NAMES, rules), *events))


def ron(discarder: int, winner: int, han: int = 1, fu: int = 30, **extra: object) -> Win:
    return Win.ron(discarder, WinningHand(winner, han, fu, **extra))  # type: ignore[arg-type]


BROKE = (ron(3, 0, 8), ron(3, 0, 2))  # seat 3 on 25,000 - 24,000 - 3,200 = -2,200: bust
NO_BUST = TENHOU.with_options(tobi=False)


@pytest.mark.parametrize(("rules", "before", "event", "field", "message"), [
    # overview l.71: "You must have at least 1,000 points" to declare riichi.
    (NO_BUST, BROKE, RiichiDeclared(3), "seat", "has -2200 points; riichi needs 1000"),
    (TENHOU, (RiichiDeclared(1),), RiichiDeclared(1), "seat", "already declared riichi"),
    (TENHOU, (), RiichiDeclared(4), "seat", "no seat 4"),
    (TENHOU, (), Win.ron(0, WinningHand(5, 1, 30)), "hands[0].winner", "no seat 5"),
    (TENHOU, (), ron(2, 2), "hands[0].winner", "cannot ron their own discard"),
    (TENHOU, (), Win((WinningHand(1, 1, 30), WinningHand(2, 1, 30))), "hands",
     "a tsumo has one winner"),
    (TENHOU, (), Win.ron(0, WinningHand(1, 1, 30), WinningHand(1, 2, 30)), "hands[1].winner",
     "wins twice"),
    (TENHOU, (), ron(0, 1, 0, 30), "hands[0].han", "at least 1"),
    (TENHOU, (), ron(0, 1, 2, 35), "hands[0].fu", "35 fu is not a hand's fu"),
    (TENHOU, (), ron(0, 1, 5, 30, liable=2), "hands[0].liable", "yakuman only"),
    (TENHOU, (), ron(0, 1, 0, 0, yakuman=1, liable=1), "hands[0].liable", "own hand"),
    (TENHOU.with_options(pao=frozenset()), (), ron(0, 1, 0, 0, yakuman=1, liable=2),
     "hands[0].liable", "plays without pao"),
    (TENHOU, (), ron(0, 1, 0, 0, yakuman=1, liable=2, liable_yakuman=2),
     "hands[0].liable_yakuman", "only 1 yakuman"),
    # handbook l.492: four riichi means all four.
    (TENHOU, (RiichiDeclared(0), RiichiDeclared(1), RiichiDeclared(2)),
     AbortiveDraw(AbortKind.FOUR_RIICHI), "kind", "only 3 riichi declared"),
    (RULESETS["wrc"], (), AbortiveDraw(AbortKind.FOUR_WINDS), "kind", "without abortive draws"),
    (RULESETS["mahjong_soul"], (), AbortiveDraw(AbortKind.TRIPLE_RON), "kind", "all_paid"),
    # options l.156: M-League, WRC and EMA play without nagashi mangan.
    (RULESETS["mleague"], (), ExhaustiveDraw(nagashi=frozenset({1})), "nagashi",
     "without nagashi mangan"),
    (TENHOU, (), ExhaustiveDraw(frozenset({7})), "tenpai", "no seat 7"),
    (TENHOU, (), Correction((Transfer(1, 1, 100),), "x"), "transfers[0].payee",
     "one player to another"),
    (TENHOU, (), Correction((Transfer(1, 2, 0),), "x"), "transfers[0].points", "at least 1"),
    (TENHOU, (), Correction((Transfer(1, 2, 100),), " "), "reason", "needs a reason"),
    (TENHOU, (), GameEnded(""), "reason", "say why"),
])
def test_impossible_events_are_refused(rules: Ruleset, before: tuple[Event, ...], event: Event,
                                       field: str, message: str) -> None:
    state = play(rules, *before)
    with pytest.raises(IllegalEvent, match=message) as error:
        apply(state, event)
    assert error.value.field == field


def test_riichi_below_1000_is_allowed_where_the_rules_allow_it() -> None:
    ema = RULESETS["ema"]  # riichi_needs_points off (and no bust)
    state = play(ema, ron(3, 0, 8), ron(3, 0, 4, 40), RiichiDeclared(3))
    assert state.points[3] == 30000 - 24000 - (12000 + 300) - 1000


def test_nothing_follows_the_end_of_a_game() -> None:
    state = play(TENHOU, *BROKE)
    assert state.ended is EndReason.BUST
    for event in (RiichiDeclared(0), ExhaustiveDraw(), Chombo(1), GameEnded("x")):
        with pytest.raises(IllegalEvent, match="the game is over"):
            apply(state, event)


def test_a_game_starts_once_and_first() -> None:
    start = GameStarted(NAMES, TENHOU)
    with pytest.raises(IllegalEvent, match="begins with game_started"):
        apply(None, RiichiDeclared(0))
    with pytest.raises(IllegalEvent, match="already started"):
        apply(replay([start]), start)
    with pytest.raises(IllegalEvent, match="seats 4 players"):
        replay([GameStarted(NAMES[:3], TENHOU)])  # type: ignore[arg-type]


def test_replay_names_the_failing_event() -> None:
    events = [GameStarted(NAMES, TENHOU), RiichiDeclared(0), ExhaustiveDraw(),
              RiichiDeclared(2), RiichiDeclared(2)]
    with pytest.raises(IllegalEvent) as error:
        replay(events)
    assert (error.value.index, error.value.event_type) == (4, "riichi")
    assert str(error.value) == ("event 4 (riichi), field 'seat': seat 2 has already declared "
                                "riichi this hand")


def test_history_rows_show_each_events_payments() -> None:
    state = play(TENHOU, RiichiDeclared(1), ron(0, 1, 3, 30), ExhaustiveDraw(frozenset({1})))
    assert [(r.index, r.hand, r.deltas) for r in state.history] == [
        (0, "East 1, 0 honba", (0, 0, 0, 0)),
        (1, "East 1, 0 honba", (0, -1000, 0, 0)),
        (2, "East 1, 0 honba", (-3900, 4900, 0, 0)),
        (3, "East 2, 0 honba", (-1000, 3000, -1000, -1000)),
    ]
    assert state.history[2].what == "ron off Ana: Ben 3 han 30 fu"
    assert state.history[-1].points == state.points == (20100, 31900, 24000, 24000)


def test_a_correction_moves_points_and_nothing_else() -> None:
    state = play(TENHOU, Correction((Transfer(2, 0, 1500),), "honba forgotten"))
    assert state.points == (26500, 25000, 23500, 25000)
    assert (state.label, state.dealer) == ("East 1, 0 honba", 0)


def test_the_first_dealer_can_sit_anywhere() -> None:
    # Settlement takes an explicit dealer (STYLE.md 8): seat 2 deals East 1, seat 3 East 2.
    state = replay([GameStarted(NAMES, TENHOU, first_dealer=2),
                    Win.tsumo(WinningHand(2, 5, 30))])  # dealer mangan: 4,000 all
    assert state.points == (21000, 21000, 37000, 21000)
    assert (state.dealer, state.label, state.seat_wind(2).name) == (2, "East 1, 1 honba", "EAST")
    state = apply(state, ExhaustiveDraw())
    assert (state.dealer, state.seat_wind(3).name, state.seat_wind(0).name) == (3, "EAST", "SOUTH")


def test_an_east_only_game_goes_into_south_without_a_target() -> None:
    # options l.112-114: the extra round is sudden death until someone reaches 30,000.
    state = play(TENHOU.with_options(length=GameLength.EAST), *[ExhaustiveDraw()] * 4)
    assert (state.finished, state.label) == (False, "South 1, 4 honba")


def test_the_west_round_goes_on_below_the_target() -> None:
    state = play(TENHOU, *[ExhaustiveDraw()] * 8)
    assert state.label == "West 1, 8 honba" and state.in_extra_round
    state = apply(state, ron(0, 1, 1, 30))  # 1,000 + 2,400: 28,400 is not 30,000
    assert (state.finished, state.label, state.points) == \
        (False, "West 2, 0 honba", (21600, 28400, 25000, 25000))


def test_the_target_can_require_more_than_30000() -> None:
    # tutorial l.215 says "exceeds 30,000"; options l.114 "30,000 or more". Seat 2 reaches
    # exactly 30,000 in West 2 (1,000 + 2,400 honba, then 1,600).
    events = (*[ExhaustiveDraw()] * 8, ron(0, 2, 1, 30), ron(3, 2, 1, 50))
    strict = play(TENHOU.with_options(target_must_exceed=True), *events)
    assert strict.points[2] == 30000
    assert (strict.finished, strict.label) == (False, "West 3, 0 honba")
    assert play(TENHOU, *events).ended is EndReason.TARGET_REACHED


def test_the_all_last_dealer_not_in_first_place_plays_on() -> None:
    # tutorial l.213-214: agari-yame only for a dealer in first place.
    state = play(TENHOU, *[ExhaustiveDraw()] * 6, ron(0, 1, 5), ron(0, 3, 2, 30))
    assert state.points == (12300, 34800, 25000, 27900)
    assert (state.finished, state.label) == (False, "South 4, 1 honba")


def test_a_chombo_can_bust_a_player() -> None:
    state = play(TENHOU, ron(3, 1, 6), ron(3, 2, 6), Chombo(3))  # 1,000 - 8,000
    assert state.ended is EndReason.BUST and state.points[3] == -7000


def test_table_undo_and_redo() -> None:
    table = Table.begin(GameStarted(NAMES, TENHOU))
    table = table.play(RiichiDeclared(0)).play(ron(0, 1, 2, 30))
    undone = table.undo()
    assert undone.state == replay(undone.events) and undone.can_redo
    assert undone.state.points == (24000, 25000, 25000, 25000)
    redone = undone.redo()
    assert redone.state == table.state and not redone.can_redo
    assert not undone.play(ExhaustiveDraw()).can_redo  # a new event forgets the redo list
    with pytest.raises(IllegalEvent, match="nothing to undo"):
        Table.begin(GameStarted(NAMES, TENHOU)).undo()
    with pytest.raises(IllegalEvent, match="nothing to redo"):
        table.redo()
    assert Table.of(table.events).state == table.state


# East-only, into its extension (South): East 1 seat 1 rons seat 3 for 3,900 (3 han 30 fu);
# East 2-4 are drawn with nobody tenpai. Nobody has 30,000: South 1, seat 0 deals, 3 honba, on
# 25,000 / 28,900 / 25,000 / 21,100.
EXTENSION = (ron(3, 1, 3, 30), *[ExhaustiveDraw()] * 3)
EAST_ONLY = TENHOU.with_options(length=GameLength.EAST)


def test_tenhou_plays_on_when_the_dealer_repeats_at_an_extension_draw() -> None:
    # issue 39, item 3 (a real east-only phoenix game; hagurin-tenhou.com: "西場でも流局時に親が
    # テンパイ、かつ親がトップ目でない場合は、親以外が30000点以上になっても1本場が始まる").
    # South 1 is drawn with seats 0 and 1 tenpai: 1,500 from each noten seat to each tenpai one,
    # so seat 1 has 30,400 and the dealer, tenpai, 26,500: not first.
    drawn = (*EXTENSION, ExhaustiveDraw(frozenset({0, 1})))
    state = play(EAST_ONLY, *drawn)
    assert state.points == (26500, 30400, 23500, 19600)
    assert (state.finished, state.label, state.dealer) == (False, "South 1, 4 honba", 0)
    # Under the rule texts (options l.114, tutorial l.215) the game ends there.
    ends = play(EAST_ONLY.with_options(extra_round_renchan=ExtraRoundRenchan.OFF), *drawn)
    assert ends.ended is EndReason.TARGET_REACHED
    # The next hand that passes the deal ends it: seat 2 rons seat 3, 1,000 + 1,200 honba.
    after = apply(state, ron(3, 2, 1, 30))
    assert after.ended is EndReason.TARGET_REACHED and after.points[1] == 30400


def test_a_dealer_win_in_the_extension_ends_it_on_tenhou_not_on_mahjong_soul() -> None:
    # South 1: seat 3 deals into the dealer (1 han 30 fu: 1,500 + 900 honba) and seat 1 (2 han
    # 30 fu: 2,000), who reaches 30,900. Tenhou plays on only after a draw (hagurin-tenhou.com);
    # Mahjong Soul ends "once someone has 30,000 and the dealer does not repeat" (mj-news.net).
    double = Win.ron(3, WinningHand(0, 1, 30), WinningHand(1, 2, 30))
    tenhou = play(EAST_ONLY, *EXTENSION, double)
    assert tenhou.points == (27400, 30900, 25000, 16700)
    assert tenhou.ended is EndReason.TARGET_REACHED
    soul = play(EAST_ONLY.with_options(extra_round_renchan=ExtraRoundRenchan.ALWAYS),
                *EXTENSION, double)
    assert (soul.finished, soul.label) == (False, "South 1, 4 honba")
    assert RULESETS["mahjong_soul"].extra_round_renchan is ExtraRoundRenchan.ALWAYS
    assert RULESETS["tenhou_sanma"].extra_round_renchan is ExtraRoundRenchan.AT_DRAW
