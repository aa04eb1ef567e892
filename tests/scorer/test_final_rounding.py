"""Final scores rounded as each table rounds them (`Ruleset.final_rounding`), worked by hand.

Sources: Japanese Wikipedia's "Final points and place" (the three below first rounded to the
thousand, first place takes the rest; example 43,600 / 14,500 / 15,400 / 26,500), Tenhou's rule
page ("rounded to the closest thousand, 4 down, 5 up") and its games in
../shared/scoring/tenhou-games-dev, the mahjlocal wiki's table of 五捨六入 (28,500 -> -2,
28,700 -> -1, 30,500 -> 0), the handbook's exact tables (riichi-rich-handbook.txt l.535-577) and
Mahjong Soul's end score, (points - 25,000) / 1000 + uma +15/+5/-5/-15 (riichi.wiki "Majsoul").
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from scorer.rules import RULESETS, FinalRounding, Ruleset
from scorer.table.standings import rounded_thousands, standings

TENHOU = RULESETS["tenhou"]
HALF_DOWN = TENHOU.with_options(final_rounding=FinalRounding.THOUSAND_HALF_DOWN)
PLAYERS = ("A", "B", "C", "D")


def finals(rules: Ruleset, points: tuple[int, int, int, int]) -> list[tuple[int, Fraction]]:
    """(seat, final score) from first place to last."""
    return [(s.seat, s.score) for s in standings(PLAYERS, points, (0,) * 4, 0, rules)]


def scores(*pairs: tuple[int, str]) -> list[tuple[int, Fraction]]:
    return [(seat, Fraction(score)) for seat, score in pairs]


@pytest.mark.parametrize(("points", "half_up", "half_down"), [
    # mahjlocal: 四捨五入 28,500 -> 29 (-1); 五捨六入 28,500 -> 28 (-2); both 28,700 -> 29.
    (28500, 29, 28), (28700, 29, 29), (28300, 28, 28), (29500, 30, 29), (30500, 31, 30),
    (30700, 31, 31), (31500, 32, 31), (30000, 30, 30),
    # Below zero by size: Tenhou counts -500 as -1,000 (a -31 before uma in its games).
    (-500, -1, 0), (-4500, -5, -4), (-3300, -3, -3), (-600, -1, -1), (0, 0, 0),
    # A 150-point stick can leave 550: past the half, so up either way.
    (25550, 26, 26),
], ids=lambda v: str(v))
def test_points_round_to_the_thousand(points: int, half_up: int, half_down: int) -> None:
    assert rounded_thousands(points, FinalRounding.THOUSAND_HALF_UP) == half_up
    assert rounded_thousands(points, FinalRounding.THOUSAND_HALF_DOWN) == half_down
    assert rounded_thousands(points, FinalRounding.EXACT) == Fraction(points, 1000)


@pytest.mark.parametrize(("rules", "points", "expected"), [
    # Wikipedia: B 14,500 -> 15,000, C 15,400 -> 15,000, D 26,500 -> 27,000; A takes
    # 120,000 - 57,000 = 63,000: +33 / -3 / -15 / -15 with the oka, then Tenhou's uma
    # +20/+10/-10/-20: A +53, D +7, C -25, B -35 (not A's exact 53.6).
    pytest.param(TENHOU, (43600, 14500, 15400, 26500),
                 scores((0, "53"), (3, "7"), (2, "-25"), (1, "-35")), id="tenhou-wikipedia"),
    # Tenhou's game ...-6142ee41: 27,600 / 37,800 / 35,100 / -500 ended -12 / +48 / +15 / -51:
    # 35 - 30 + 10, 28 - 30 - 10, -1 - 30 - 20, and first place the rest.
    pytest.param(TENHOU, (27600, 37800, 35100, -500),
                 scores((1, "48"), (2, "15"), (0, "-12"), (3, "-51")), id="tenhou-below-zero"),
    # 五捨六入 on the same points as Wikipedia: D 26, C 15, B 14: -4 + 10, -15 - 10, -16 - 20,
    # and A 120 - 55 - 30 + 20 = 55.
    pytest.param(HALF_DOWN, (43600, 14500, 15400, 26500),
                 scores((0, "55"), (3, "6"), (2, "-25"), (1, "-36")), id="half-down"),
    # The casual table rounds as Tenhou does.
    pytest.param(RULESETS["casual"], (43600, 14500, 15400, 26500),
                 scores((0, "53"), (3, "7"), (2, "-25"), (1, "-35")), id="casual"),
    # M.League in tenths: 45.3 - 30 + 30 + 20, 27.2 - 30 + 10, 16.1 - 30 - 10, 11.4 - 30 - 30.
    pytest.param(RULESETS["mleague"], (45300, 27200, 16100, 11400),
                 scores((0, "65.3"), (1, "7.2"), (2, "-23.9"), (3, "-48.6")), id="mleague"),
    # Mahjong Soul from 25,000 with +15/+5/-5/-15: 20.3 + 15, 2.2 + 5, -8.9 - 5, -13.6 - 15.
    pytest.param(RULESETS["mahjong_soul"], (45300, 27200, 16100, 11400),
                 scores((0, "35.3"), (1, "7.2"), (2, "-13.9"), (3, "-28.6")), id="mahjong-soul"),
    # WRC from 30,000, no oka, +15/+5/-5/-15: 8.3 + 15, 1.2 + 5, -2.3 - 5, -7.2 - 15.
    pytest.param(RULESETS["wrc"], (38300, 31200, 27700, 22800),
                 scores((0, "23.3"), (1, "6.2"), (2, "-7.3"), (3, "-22.2")), id="wrc"),
    pytest.param(RULESETS["ema"], (38300, 31200, 27700, 22800),
                 scores((0, "23.3"), (1, "6.2"), (2, "-7.3"), (3, "-22.2")), id="ema"),
    # JPML, one player at or above 30,000: +12/-1/-3/-8 on the exact differences.
    pytest.param(RULESETS["jpml"], (38300, 29200, 27700, 24800),
                 scores((0, "20.3"), (1, "-1.8"), (2, "-5.3"), (3, "-13.2")), id="jpml"),
    # 101: +1 to first, -1 to fourth, no oka.
    pytest.param(RULESETS["renmei101"], (38300, 31200, 27700, 22800),
                 scores((0, "9.3"), (1, "1.2"), (2, "-2.3"), (3, "-8.2")), id="renmei101"),
    # Tied first places share the rest: 35,400 each (uma (20 + 10) / 2, oka 10 each) less half
    # of the +0.8 the two 14,600s (-15 each, uma -15 each) were rounded by: +30 / +30 / -30 / -30.
    pytest.param(TENHOU.with_options(split_ties=True), (35400, 35400, 14600, 14600),
                 scores((0, "30"), (1, "30"), (2, "-30"), (3, "-30")), id="split-tie-at-the-top"),
])
def test_final_scores(rules: Ruleset, points: tuple[int, int, int, int],
                      expected: list[tuple[int, Fraction]]) -> None:
    assert finals(rules, points) == expected
    assert sum(score for _, score in expected) == 0


def test_each_preset_rounds_as_its_table_publishes() -> None:
    assert {name: rules.final_rounding for name, rules in RULESETS.items()} == {
        "tenhou": FinalRounding.THOUSAND_HALF_UP, "casual": FinalRounding.THOUSAND_HALF_UP,
        "mahjong_soul": FinalRounding.EXACT, "mleague": FinalRounding.EXACT,
        "wrc": FinalRounding.EXACT, "ema": FinalRounding.EXACT, "jpml": FinalRounding.EXACT,
        "renmei101": FinalRounding.EXACT,
        # Three-player rooms round as the same platform's four-player ones.
        "tenhou_sanma": FinalRounding.THOUSAND_HALF_UP, "mahjong_soul_sanma": FinalRounding.EXACT}


def test_the_rounding_is_shown_on_each_row() -> None:
    rows = standings(PLAYERS, (43600, 14500, 15400, 26500), (0,) * 4, 0, TENHOU)
    # D +0.5, C -0.4, B +0.5 to the thousand; first place gives back the 0.6.
    assert [(r.seat, r.rounding) for r in rows] == [
        (0, Fraction("-0.6")), (3, Fraction("0.5")), (2, Fraction("-0.4")), (1, Fraction("0.5"))]


def test_a_chombo_penalty_comes_off_after_the_rounding() -> None:
    # The penalty is a whole deduction from one player's result, not part of the points rounded.
    rows = standings(PLAYERS, (43600, 14500, 15400, 26500), (0, 20000, 0, 0), 0, TENHOU)
    assert [(r.seat, r.score) for r in rows] == scores((0, "53"), (3, "7"), (2, "-25"),
                                                       (1, "-55"))
