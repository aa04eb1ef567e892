"""Red fives counted per suit (issue 39, item 1): `Ruleset.red_fives` gives the red fives the set
holds in m, p, s, each a han of aka dora; the old on/off still reads as one each / none.

Sources: riichi-overview.txt l.23-26 and tutorial-yaku-calls-rounds.txt l.132 (one red five a
suit, each 1 han); furiten-optional-rules-penalties.txt l.132 ("three red fives (akadora), one
per suit" is the standard, so the count is the table's); a four-red set carries a second red 5p
(issue 39); teneiso.com's three-player rules make every 5p and 5s red.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scorer.hand import InvalidInput, ProblemCode
from scorer.rules import NO_RED_FIVES, ONE_EACH, PARLOR_RULESETS, RULESETS, RedFives
from scorer.table import GameStarted, RecordError, dumps, loads, rules_from_dict, rules_to_dict
from tests.scorer.notation import scored

TENHOU = RULESETS["tenhou"]
FOUR_REDS = TENHOU.with_options(red_fives=RedFives(1, 2, 1))
ALL_5P_5S = TENHOU.with_options(red_fives=RedFives(0, 4, 4))
# Riichi, ron on 9s (a tanki wait), dealer: 234m 3-4-0p 4-0-6p 678s 99s, two red 5p.
TWO_RED_5P = ("234m340p406p678s9s", "9s")


def problems(*args: str, rules: object, **ctx: object) -> list[tuple[str, ProblemCode]]:
    with pytest.raises(InvalidInput) as caught:
        scored(*args, rules=rules, **ctx)  # type: ignore[arg-type]
    return [(str(p), p.code) for p in caught.value.problems]


def test_two_red_5p_are_two_han_where_the_set_holds_two() -> None:
    # riichi 1 + aka 2 = 3 han; 20 + 10 (closed ron) + 2 (tanki) = 32 -> 40 fu. Dealer ron:
    # 40 x 2^(2+3) = 1,280 base, x6 = 7,680 -> 7,700.
    won = scored(*TWO_RED_5P, riichi=True, rules=FOUR_REDS)
    assert (won.aka_dora, won.han, won.fu, won.points) == (2, 3, 40, 7700)


def test_a_second_red_5p_is_refused_by_a_one_each_set() -> None:
    assert problems(*TWO_RED_5P, riichi=True, rules=TENHOU) == [
        ("tiles: 2 red 5p; a set has one", ProblemCode.HAND_REDS)]


def test_a_third_red_5p_is_named() -> None:
    # 234m 000p (three red 5p as a triplet) 678s 345s 99s
    assert problems("234m000p678s345s9s", "9s", rules=FOUR_REDS) == [
        ("tiles: 3 red 5p; this set has 2: the 3rd 0p is one too many", ProblemCode.HAND_REDS)]
    # Where every 5p and 5s is red, the hand (its 5s red too) is four aka dora.
    assert scored("234m000p678s340s9s", "9s", tsumo=True, rules=ALL_5P_5S).aka_dora == 4


def test_plain_fives_beyond_the_rest_of_the_set() -> None:
    # Two of the four 5p are red, so three plain 5p cannot be; every 5p red, so no plain one.
    assert problems("234m555p678s345s9s", "9s", rules=FOUR_REDS) == [
        ("tiles: 3 plain 5p, but 2 of this set's four 5p are red", ProblemCode.HAND_RED_FOURTH)]
    assert problems("234m456p678s345s9s", "9s", rules=ALL_5P_5S) == [
        ("tiles: a plain 5p, but every 5p of this set is red", ProblemCode.HAND_RED_FOURTH),
        ("tiles: a plain 5s, but every 5s of this set is red", ProblemCode.HAND_RED_FOURTH)]
    # One each, as before: four plain 5m is the red 0m missing.
    assert problems("345m555m678p678s22p", "3m", rules=TENHOU)[0][0] == \
        "tiles: four plain 5m, but this set's fourth 5m is the red 0m"


def test_a_suit_without_red_fives_reads_its_red_five_as_plain() -> None:
    # RedFives(0, 2, 1): 0m is a plain 5m (no han), the 0p counts: aka 1.
    both = scored("340m406p678s345s9s", "9s", riichi=True,
                  rules=TENHOU.with_options(red_fives=RedFives(0, 2, 1)))
    assert both.aka_dora == 1
    assert problems("340m340m678s345s9s", "9s", rules=TENHOU.with_options(
        red_fives=RedFives(0, 2, 1))) == [("tiles: 2 red 5m; a set has one", ProblemCode.HAND_REDS)]


def test_on_and_off_still_mean_one_each_and_none() -> None:
    assert TENHOU.with_options(red_fives=True).red_fives == ONE_EACH == TENHOU.red_fives
    assert RULESETS["wrc"].red_fives == NO_RED_FIVES == TENHOU.with_options(
        red_fives=False).red_fives
    assert scored("234m406p678s345s88p", "2m", riichi=True, rules="wrc").aka_dora == 0
    # The presets keep today's values; the parlors' are their published sets.
    assert {n: str(r.red_fives) for n, r in (RULESETS | PARLOR_RULESETS).items()} == {
        "tenhou": "111", "mahjong_soul": "111", "mleague": "111", "wrc": "000", "ema": "000",
        "jpml": "000", "renmei101": "000", "casual": "111", "tenhou_sanma": "111",
        "mahjong_soul_sanma": "111", "parlor": "111", "parlor_four_reds": "121",
        "parlor_sanma": "044"}


def test_the_record_writes_true_false_or_per_suit_and_reads_all() -> None:
    assert rules_to_dict(TENHOU)["options"]["red_fives"] is True
    assert rules_to_dict(RULESETS["wrc"])["options"]["red_fives"] is False
    assert rules_to_dict(FOUR_REDS)["options"]["red_fives"] == {"m": 1, "p": 2, "s": 1}
    old = {"name": "custom", "options": {"red_fives": True}}
    assert rules_from_dict(old).red_fives == ONE_EACH
    assert rules_from_dict({"name": "tenhou", "options": {"red_fives": False}}).red_fives == \
        NO_RED_FIVES
    four = rules_from_dict({"name": "tenhou", "options": {"red_fives": {"m": 1, "p": 2, "s": 1}}})
    assert four.red_fives == RedFives(1, 2, 1)
    events = loads(dumps([GameStarted(("A", "B", "C", "D"), FOUR_REDS)]))
    assert isinstance(events[0], GameStarted) and events[0].rules == FOUR_REDS
    with pytest.raises(RecordError, match="options.red_fives.s.*missing"):
        rules_from_dict({"name": "tenhou", "options": {"red_fives": {"m": 1, "p": 2}}})
    too_many = json.loads(dumps([GameStarted(("A", "B", "C", "D"), FOUR_REDS)]))
    too_many["events"][0]["rules"]["options"]["red_fives"]["p"] = 5
    del too_many["events"][0]["after"]
    with pytest.raises(RecordError, match="rules.red_fives.p"):
        loads(json.dumps(too_many))


def test_the_cli_takes_red_fives_per_suit() -> None:
    run = subprocess.run([sys.executable, "-W", "ignore", "-m", "scorer", "score", TWO_RED_5P[0],
                          "--win", "9s", "--riichi", "--option", "red_fives=121", "--json"],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["points"] == 7700
    refused = subprocess.run([sys.executable, "-W", "ignore", "-m", "scorer", "score",
                              TWO_RED_5P[0], "--win", "9s", "--riichi"],
                             capture_output=True, text=True, check=False)
    assert refused.returncode == 2 and "2 red 5p; a set has one" in refused.stderr
