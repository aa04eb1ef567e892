"""Decompositions, readings and waits: hand-picked shapes plus hypothesis properties."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorer.context import WinContext
from scorer.decompose import Form, HandShape, Wait, decompositions, read
from scorer.rules import RULESETS
from scorer.score import score
from scorer.tiles import RED_FIVE_KINDS, TILES, Tile, counts, format_tiles, parse_tiles
from scorer.waits import winning_kinds
from tests.scorer.notation import hand

tiles_strategy = st.lists(
    st.builds(lambda k, red: Tile(k, red and k in RED_FIVE_KINDS),
              st.integers(0, 33), st.booleans()), max_size=20)


@given(tiles_strategy)
def test_mpsz_round_trip(tiles: list[Tile]) -> None:
    assert parse_tiles(format_tiles(tiles)) == tuple(tiles)
    assert all(Tile.parse(str(t)) == t for t in tiles)


_STARTS = [k for k in range(27) if k % 9 <= 6]


@st.composite
def standard_hands(draw: st.DrawFn) -> tuple[list[int], tuple[int, list[int], list[int]]]:
    """Counts of a random 14-tile standard hand and the decomposition it was built from."""
    pair = draw(st.integers(0, 33))
    groups = draw(st.lists(st.tuples(st.booleans(), st.integers(0, 33)), min_size=4,
                           max_size=4))
    used = [0] * 34
    used[pair] += 2
    seqs = sorted(_STARTS[n % len(_STARTS)] for is_seq, n in groups if is_seq)
    trips = sorted(n for is_seq, n in groups if not is_seq)
    for start in seqs:
        for i in range(3):
            used[start + i] += 1
    for kind in trips:
        used[kind] += 3
    assume(max(used) <= 4)
    return used, (pair, seqs, trips)


@settings(max_examples=300)
@given(standard_hands())
def test_the_building_decomposition_is_found(built: tuple[list[int], tuple[int, list[int],
                                                                            list[int]]]) -> None:
    used, (pair, seqs, trips) = built
    found = decompositions(used)
    assert (pair, tuple(seqs), tuple(trips)) in [(p, tuple(sorted(s)), tuple(sorted(t)))
                                                 for p, s, t in found]
    for p, s, t in found:  # every decomposition uses exactly the hand's tiles
        again = [0] * 34
        again[p] += 2
        for k in s:
            for i in range(3):
                again[k + i] += 1
        for k in t:
            again[k] += 3
        assert again == used


@settings(max_examples=200)
@given(standard_hands(), st.integers(0, 13), st.booleans(), st.randoms())
def test_every_tile_of_a_winning_hand_is_a_wait(built: tuple[list[int], object], pick: int,
                                                tsumo: bool, rng: random.Random) -> None:
    used = built[0]
    kinds = [k for k in range(34) for _ in range(used[k])]
    win = kinds[pick]
    rest = kinds[:pick] + kinds[pick + 1:]
    assert win in winning_kinds([TILES[k] for k in rest])
    rng.shuffle(rest)
    shape = HandShape.of(hand(format_tiles(TILES[k] for k in rest), TILES[win].__str__()))
    readings = read(shape, tsumo)
    assert readings
    for r in readings:  # the winning tile lies in the group its wait names
        if r.wait is Wait.TANKI:
            assert r.pair == win
        elif r.wait is Wait.SHANPON:
            assert r.win_group == win and win in r.hand_trips
        else:
            assert r.win_group <= win <= r.win_group + 2 and r.win_group in r.hand_seqs


@settings(max_examples=100)
@given(standard_hands(), st.randoms())
def test_score_does_not_depend_on_tile_order(built: tuple[list[int], object],
                                             rng: random.Random) -> None:
    # A set with red fives has one red copy of each five: four fives include it.
    tiles = [Tile(k, k in RED_FIVE_KINDS and built[0][k] == 4 and i == 0)
             for k in range(34) for i in range(built[0][k])]
    win = tiles[-1]
    a = hand(format_tiles(tiles), str(win))
    rng.shuffle(tiles)
    b = hand(format_tiles(tiles), str(win))
    ctx = WinContext(tsumo=True)
    sa, sb = score(a, ctx, RULESETS["tenhou"]), score(b, ctx, RULESETS["tenhou"])
    assert (sa.outcome, sa.yaku, sa.yakuman, sa.han, sa.fu, sa.points) == \
        (sb.outcome, sb.yaku, sb.yakuman, sb.han, sb.fu, sb.points)


@pytest.mark.parametrize(("tiles", "win", "waits"), [
    ("234m456p789s345s11p", "2m", ["ryanmen"]),
    ("234m456p789s345s11p", "3m", ["kanchan"]),
    ("123m456p789s345s11p", "3m", ["penchan"]),
    ("789m456p789s345s11p", "7m", ["penchan"]),
    ("123m456p789s345s11p", "1p", ["tanki"]),
    ("222m456p789s345s11p", "2m", ["shanpon"]),
    ("444456m567p789s11z", "4m", ["ryanmen", "shanpon"]),
    ("111222333m456p77z", "3m", ["penchan", "shanpon"]),
    ("1113m456p789s345s", "3m", ["tanki"]),  # 111 + 3 waits on 3 alone (also 2m: kanchan)
    ("1112345678999m", "5m", ["tanki"]),  # only 111 234 55 678 999
    ("1112345678999m", "1m", ["ryanmen", "shanpon"]),  # 111 123 456 789 99
])
def test_waits(tiles: str, win: str, waits: list[str]) -> None:
    readings = read(HandShape.of(hand(tiles, win)), tsumo=False)
    assert sorted({r.wait.value for r in readings}) == waits


def test_seven_pairs_and_thirteen_orphans() -> None:
    (pairs,) = read(HandShape.of(hand("1133m4466p2288s55z", "5z")), tsumo=False)
    assert (pairs.form, pairs.wait, len(pairs.pairs)) == (Form.CHIITOITSU, Wait.TANKI, 7)
    (orphans,) = read(HandShape.of(hand("119m19p19s1234567z", "1m")), tsumo=False)
    assert (orphans.form, orphans.wait) == (Form.KOKUSHI, Wait.THIRTEEN_SIDED)
    assert read(HandShape.of(hand("1111m3344p5566s77z", "7z")), tsumo=False) == []


def test_a_ryanpeikou_hand_is_not_read_as_seven_pairs() -> None:
    readings = read(HandShape.of(hand("223344m556677p55s", "4m")), tsumo=False)
    assert readings and all(r.form is Form.STANDARD for r in readings)


def test_decompositions_of_a_nine_gates_hand() -> None:
    found = decompositions(counts(parse_tiles("11123455678999m")))
    assert len(found) == 1  # 111 234 55 678 999
    assert found[0] == (4, (1, 5), (0, 8))
