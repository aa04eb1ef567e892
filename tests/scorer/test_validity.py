"""The fast path of validation never lets a bad input through, and the rule-aware checks.

`plainly_valid` proves the common valid case from the tally; whenever it says True, the detailed
checks (`Hand.problems`, `WinContext.problems`, `rule_problems`) must find nothing. Random legal
wins are broken in every way the detailed checks know, and the two are compared.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from scorer.context import Blessing, Riichi, WinContext, Wind
from scorer.hand import CalledFrom, Hand, InvalidInput, Meld, MeldKind
from scorer.records_io import from_record
from scorer.rules import RULESETS, Ruleset
from scorer.score import score
from scorer.shape import HandShape
from scorer.tiles import RED_FIVES, TILES, Tile
from scorer.validity import plainly_valid, rule_problems
from tests.scorer.hand_generator import random_wins
from tests.scorer.notation import hand
from tests.scorer.tenhou_data import SCORING, json_lines

TENHOU = RULESETS["tenhou"]


def _tile(rng: random.Random) -> Tile:
    return rng.choice((*TILES, *RED_FIVES.values()))


def _break_meld(rng: random.Random, meld: Meld) -> Meld:
    tiles = list(meld.tiles)
    roll = rng.random()
    if roll < 0.3:
        tiles[rng.randrange(len(tiles))] = _tile(rng)
    elif roll < 0.45:
        tiles.append(rng.choice(tiles))
    elif roll < 0.55:
        tiles.pop()
    elif roll < 0.7:
        return dataclasses.replace(meld, kind=rng.choice(list(MeldKind)))
    elif roll < 0.85:
        return dataclasses.replace(meld, called=_tile(rng))
    else:
        return dataclasses.replace(meld, source=rng.choice([None, *CalledFrom]))
    return dataclasses.replace(meld, tiles=tuple(tiles))


def _break_hand(rng: random.Random, h: Hand) -> Hand:
    concealed = list(h.concealed)
    melds = list(h.melds)
    win = h.win_tile
    for _ in range(rng.choice((1, 1, 2, 3))):
        roll = rng.random()
        if roll < 0.3:
            concealed[rng.randrange(len(concealed))] = _tile(rng)
        elif roll < 0.4:
            concealed.append(_tile(rng))
        elif roll < 0.5 and len(concealed) > 1:
            concealed.remove(rng.choice(concealed))
        elif roll < 0.6:
            win = _tile(rng)
        elif roll < 0.75 and melds:
            i = rng.randrange(len(melds))
            melds[i] = _break_meld(rng, melds[i])
        elif roll < 0.85 and melds:
            melds.append(rng.choice(melds))  # the same set twice
        else:
            kind = rng.randrange(34)
            melds.append(Meld(MeldKind.ANKAN, (TILES[kind],) * 4))
    return Hand(tuple(concealed), tuple(melds), win)


def _break_context(rng: random.Random, ctx: WinContext) -> WinContext:
    roll = rng.random()
    if roll < 0.5:
        flag = rng.choice(["tsumo", "ippatsu", "rinshan", "chankan", "chankan_of_ankan",
                           "last_tile"])
        return dataclasses.replace(ctx, **{flag: not getattr(ctx, flag)})
    if roll < 0.6:
        return dataclasses.replace(ctx, riichi=rng.choice(list(Riichi)))
    if roll < 0.7:
        return dataclasses.replace(ctx, blessing=rng.choice([None, *Blessing]))
    if roll < 0.8:
        return dataclasses.replace(ctx, honba=-1) if rng.random() < 0.5 else \
            dataclasses.replace(ctx, riichi_sticks=-1)
    indicators = tuple(_tile(rng) for _ in range(rng.randrange(8)))
    return dataclasses.replace(ctx, dora_indicators=indicators) if rng.random() < 0.5 else \
        dataclasses.replace(ctx, ura_indicators=indicators)


def _problems(h: Hand, ctx: WinContext, rules: Ruleset) -> list[str]:
    return [str(p) for p in h.problems() + ctx.problems(h) + rule_problems(h, rules, ctx)]


@pytest.mark.parametrize("rules", ["tenhou", "wrc"])
def test_the_fast_path_never_passes_a_bad_input(rules: str) -> None:
    ruleset = RULESETS[rules]
    rng = random.Random(f"validity-{rules}")
    passed = rejected = 0
    for h, ctx in random_wins(seed=7, count=6000):
        if rng.random() < 0.8:
            h = _break_hand(rng, h)
        if rng.random() < 0.5:
            ctx = _break_context(rng, ctx)
        if plainly_valid(HandShape.of(h), h, ctx, ruleset):
            assert _problems(h, ctx, ruleset) == [], (str(h), ctx)
            passed += 1
        else:
            rejected += _problems(h, ctx, ruleset) != []
    # Both sides were exercised: valid inputs pass, broken ones are looked at closely.
    assert passed > 1000 and rejected > 2000, (passed, rejected)


def _break_for_sanma(rng: random.Random, h: Hand, ctx: WinContext) -> tuple[Hand, WinContext]:
    """What only a three-player table rejects: 2m-8m, a North seat, a call from opposite, kita
    out of range or with Norths enough already."""
    roll = rng.random()
    if roll < 0.2:
        return dataclasses.replace(h, kita=rng.choice((-1, 0, 1, 2, 3, 4, 5))), ctx
    if roll < 0.35:
        return h, dataclasses.replace(ctx, seat_wind=rng.choice(list(Wind)))
    if roll < 0.5 and h.melds:
        melds = list(h.melds)
        i = rng.randrange(len(melds))
        melds[i] = dataclasses.replace(melds[i], source=rng.choice(list(CalledFrom)))
        return dataclasses.replace(h, melds=tuple(melds)), ctx
    if roll < 0.65:
        extra = (rng.choice(TILES[:9]),)
        return h, dataclasses.replace(ctx, dora_indicators=ctx.dora_indicators[:4] + extra)
    if roll < 0.8:
        return dataclasses.replace(h, kita=rng.randrange(5)), dataclasses.replace(
            ctx, rinshan=not ctx.rinshan)
    return _break_hand(rng, h), ctx


def test_the_fast_path_never_passes_a_bad_three_player_input() -> None:
    """Real three-player wins (kita included) and random four-player ones, broken at random."""
    ruleset = RULESETS["tenhou_sanma"]
    rng = random.Random("validity-sanma")
    cases = [from_record(row) for row in json_lines(SCORING / "tenhou-sanma-wins-dev.jsonl")]
    cases += random_wins(seed=11, count=1000)
    passed = rejected = 0
    for h, ctx in cases * 3:
        if rng.random() < 0.7:
            h, ctx = _break_for_sanma(rng, h, ctx)
        if rng.random() < 0.2:
            ctx = _break_context(rng, ctx)
        if plainly_valid(HandShape.of(h), h, ctx, ruleset):
            assert _problems(h, ctx, ruleset) == [], (str(h), ctx)
            passed += 1
        else:
            rejected += _problems(h, ctx, ruleset) != []
    assert passed > 500 and rejected > 2000, (passed, rejected)


def test_four_plain_fives_under_red_fives() -> None:
    # A set with red fives has one red copy of each five, so its fourth 5m is the 0m.
    four_plain = hand("345m555m678p678s22p", "3m")
    with pytest.raises(InvalidInput) as info:
        score(four_plain, WinContext(), TENHOU)
    assert [(p.field, p.message) for p in info.value.problems] == [
        ("tiles", "four plain 5m, but this set's fourth 5m is the red 0m")]
    # The melds count too.
    with pytest.raises(InvalidInput, match="four plain 5p, but this set's fourth 5p is the red 0p"):
        score(hand("345p234m789m11s", "1s", "pon:555p"), WinContext(), TENHOU)
    # With the red one among them, or without red fives in the set, the hand is fine.
    assert score(hand("340m555m678p678s22p", "3m"), WinContext(), TENHOU).aka_dora == 1
    assert score(four_plain, WinContext(), RULESETS["wrc"]).is_win


def test_robbing_a_closed_kan_needs_chankan() -> None:
    with pytest.raises(InvalidInput, match="chankan_of_ankan: robbing a closed kan is a chankan"):
        score(hand("19m19p19s1234567z", "9m"), WinContext(chankan_of_ankan=True), TENHOU)


def test_counts_far_beyond_four_are_caught() -> None:
    # Eighteen 1m (four closed kans and a pair) and ten 1m indicators: past what the packed
    # counts of the fast path hold, so it must not be the one to answer.
    kans = tuple(Meld(MeldKind.ANKAN, (TILES[0],) * 4) for _ in range(4))
    h = Hand((TILES[0], TILES[0]), kans, TILES[0])
    ctx = WinContext(dora_indicators=(TILES[0],) * 5, ura_indicators=(TILES[0],) * 5,
                     riichi=Riichi.RIICHI)
    assert not plainly_valid(HandShape.of(h), h, ctx, TENHOU)
    with pytest.raises(InvalidInput, match="18 copies of 1m"):
        score(h, ctx, TENHOU)
