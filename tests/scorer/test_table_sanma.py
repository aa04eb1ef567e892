"""A three-player (sanma) game at the table: seats, dealer rotation, payments, the record.

The whole game below is worked by hand from the `tenhou_sanma` preset (35,000 start, 40,000
return, uma +20/0/-20, 200 a honba, tsumo loss, 2,000 noten points; see scorer.rules), each
payment from the formula base = fu x 2^(2 + han), rounded up to 100.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from scorer.__main__ import main
from scorer.rules import RULESETS, Uma
from scorer.table import (
    AbortiveDraw,
    AbortKind,
    EndReason,
    Event,
    ExhaustiveDraw,
    GameStarted,
    IllegalEvent,
    RecordError,
    RiichiDeclared,
    dumps,
    loads,
    replay,
)
from tests.scorer.table_notation import hand, ron, tsumo

SANMA = RULESETS["tenhou_sanma"]
START = GameStarted(("Ana", "Ben", "Chie"), SANMA)

# (event, points after it, the hand the next event is in), seat 0 deals East 1.
GAME: list[tuple[Event, tuple[int, int, int], str]] = [
    (START, (35000, 35000, 35000), "East 1, 0 honba"),
    (RiichiDeclared(1), (35000, 34000, 35000), "East 1, 0 honba"),
    # Riichi tsumo 2 han 30 fu (base 480) by a non-dealer, tsumo loss: 1,000 from the dealer,
    # 500 from the other, and the stick: +2,500.
    (tsumo(1, 2, 30), (34000, 36500, 34500), "East 2, 0 honba"),
    # 3 han 40 fu (base 1,280) ron by a non-dealer: 5,200.
    (ron(2, hand(0, 3, 40)), (39200, 36500, 29300), "East 3, 0 honba"),
    # Only the dealer tenpai: 1,000 from each of the two others (2,000 noten points).
    (ExhaustiveDraw(frozenset({2})), (38200, 35500, 31300), "East 3, 1 honba"),
    # Dealer tsumo 4 han 30 fu (base 1,920): 3,900 from each of two, + 100 each for the honba.
    (tsumo(2, 4, 30), (34200, 31500, 39300), "East 3, 2 honba"),
    # 1 han 30 fu ron off the dealer at 2 honba: 1,000 + 2 x 200.
    (ron(2, hand(1, 1, 30)), (34200, 32900, 37900), "South 1, 0 honba"),
    # Dealer and one other tenpai: the noten player pays 1,000 to each.
    (ExhaustiveDraw(frozenset({0, 1})), (35200, 33900, 35900), "South 1, 1 honba"),
    # Nobody tenpai: no payment, the deal moves on, a honba is added.
    (ExhaustiveDraw(), (35200, 33900, 35900), "South 2, 2 honba"),
    (RiichiDeclared(2), (35200, 33900, 34900), "South 2, 2 honba"),
    # Dealer mangan ron: 12,000 + 2 x 200, and the stick.
    (ron(0, hand(1, 5, 30)), (22800, 47300, 34900), "South 2, 3 honba"),
    # Non-dealer tsumo 3 han 30 fu (base 960) at 3 honba: 2,000 + 300 from the dealer,
    # 1,000 + 300 from the other.
    (tsumo(2, 3, 30), (21500, 45000, 38500), "South 3, 0 honba"),
    # All last: 2 han 30 fu (base 480) ron, 2,000. Ben has 40,000: no West round.
    (ron(1, hand(0, 2, 30)), (23500, 43000, 38500), "South 3, 0 honba"),
]


def test_a_whole_three_player_game_pays_every_hand_as_worked_by_hand() -> None:
    played: list[Event] = []
    for event, points, where in GAME:
        played.append(event)
        state = replay(played)
        assert (state.points, state.label) == (points, where), event
        assert sum(state.points) + state.sticks * 1000 == 105000
    assert state.ended is EndReason.LAST_HAND
    # Final scores (Tenhou: everyone but first rounded to the thousand, 500 up; oka 15,000):
    # Chie 38,500 -> 39: -1 + 0 = -1; Ana 23,500 -> 24: -16 - 20 = -36; Ben first: 3 and the
    # others' rounding (-0.5 - 0.5) + oka 15 + uma 20 = +37.
    assert [(s.name, s.rank, s.score) for s in state.standings] == [
        ("Ben", 1, Fraction(37)), ("Chie", 2, Fraction(-1)), ("Ana", 3, Fraction(-36))]


def test_the_dealer_moves_over_three_seats_into_the_west_round() -> None:
    state = replay([START, *(ExhaustiveDraw() for _ in range(6))])
    # Six dealers passed: East 1-3, South 1-3; nobody has 40,000, so West 1 follows.
    assert (state.label, state.dealer, state.round_wind.name) == ("West 1, 6 honba", 0, "WEST")
    assert [state.seat_wind(s).name for s in range(3)] == ["EAST", "SOUTH", "WEST"]
    over = replay([START, *(ExhaustiveDraw() for _ in range(9))])
    assert over.ended is EndReason.EXTRA_ROUND_OVER


@pytest.mark.parametrize(("event", "message"), [
    (RiichiDeclared(3), "no seat 3: seats are 0-2"),
    (ron(3, hand(0, 1)), "no seat 3: seats are 0-2"),
    (ExhaustiveDraw(frozenset({3})), "no seat 3: seats are 0-2"),
    (ron(0, hand(1, 1), hand(2, 1), hand(3, 1)), "at most 2 players can ron one discard"),
    (AbortiveDraw(AbortKind.FOUR_WINDS), "four wind discards need four players"),
])
def test_a_three_player_table_refuses_what_it_cannot_have(event: Event, message: str) -> None:
    with pytest.raises(IllegalEvent, match=message):
        replay([START, event])


def test_the_players_and_the_uma_match_the_rules() -> None:
    with pytest.raises(IllegalEvent, match="tenhou_sanma seats 3 players, got 4"):
        replay([GameStarted(("A", "B", "C", "D"), SANMA)])
    with pytest.raises(IllegalEvent, match="3 players need 3 uma values, got 4"):
        replay([GameStarted(("A", "B", "C"), SANMA.with_options(uma=Uma()))])


def test_a_three_player_record_round_trips_and_four_player_ones_are_unchanged() -> None:
    events = [event for event, _, _ in GAME]
    text = dumps(events)
    assert list(loads(text)) == events
    assert '"players": 3' in text and '"points": [\n' in text
    with pytest.raises(RecordError, match="tenhou_sanma seats 3 players, got 4"):
        loads(text.replace('"Chie"', '"Chie", "Dai"', 1))


def test_table_replay_prints_a_three_player_game(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "sanma.json"
    record.write_text(dumps([event for event, _, _ in GAME]))
    assert main(["table", "replay", str(record)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["rules: tenhou_sanma", "finished (last_hand) after South 3, 0 honba"]
    assert out[-5:] == [
        "rank  player            points  round    uma    oka  penalty   score",
        "1     Ben                43000   -1.0  +20.0  +15.0        0   +37.0",
        "2     Chie               38500   +0.5      0      0        0    -1.0",
        "3     Ana                23500   +0.5  -20.0      0        0   -36.0",
        "(final scores: points rounded to the thousand, 500 up; first place takes the rest)",
    ]
