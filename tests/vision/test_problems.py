"""Vision's problems are values (`vision.problems.Problem`: a catalogue key and the facts it
names), worded at the edge from vision's catalogue (`vision.problems.problem_words`): in English the
sentences the stages always wrote (the kiosk's log and ``--json`` keep them), in Japanese and
Chinese the catalogue's."""

from __future__ import annotations

import re
from dataclasses import FrozenInstanceError

import pytest

from scorer.words import LANGS, read_po
from vision import decode, problems
from vision.catalogue import VISION
from vision.problems import (
    AWAY,
    EXTRA_GAPS,
    EXTRA_ROW,
    FACE_DOWN,
    GRAMMAR,
    IN_HAND,
    KEYS,
    LEFTOVER,
    MELD_NOT_SET,
    MELD_SIDEWAYS,
    NO_TILES,
    NO_WINNING_GAP,
    NOT_A_WIN,
    ON_CONCEALED,
    ON_MELD,
    ORDER_EMPTY,
    RED_FIVES,
    TOO_MANY,
    UNRESOLVED,
    Problem,
    ProblemError,
    problem_words,
)
from vision.reading import DetectedTile, Reading
from vision.teach import expected_rows

#: One of each problem the stages write (vision.layout, vision.decode, vision.assemble): the
#: value, its English as the stages always wrote it, and in Japanese and Chinese.
PROBLEM_WORDS = [
    (Problem.of(IN_HAND, n=7), "7 tiles in the hand (14 expected, each kan counted as 3)",
     "手牌7枚（14枚のはず、槓は3枚と数える）", "手牌7张（应为14张，杠按3张计）"),
    (Problem.of(NO_TILES), "no tiles found", "牌が見つかりません", "没有找到牌"),
    (Problem.of(NO_WINNING_GAP), "no winning tile set apart by a gap after the concealed tiles",
     "手牌の後に間を空けて置いた和了牌がありません", "手牌之后没有隔开放置的和牌"),
    (Problem.of(EXTRA_GAPS, n=2), "concealed tiles split by 2 extra gap(s)",
     "手牌が余分な間2か所で分かれています", "手牌被2处多余的间隔分开"),
    (Problem.of(MELD_SIDEWAYS, meld=2, n=0), "meld 2 shows 0 sideways tiles",
     "副露2の横向きの牌は0枚", "副露2中横放的牌有0张"),
    (Problem.of(LEFTOVER, n=3), "3 tile(s) after the melds do not form a set",
     "副露の後の3枚が面子になっていません", "副露之后的3张牌不成面子"),
    (Problem.of(FACE_DOWN, n=2), "2 face-down tile(s) outside a closed kan were not used",
     "暗槓以外の裏向きの牌2枚は使いませんでした", "暗杠之外的2张背面朝上的牌未使用"),
    (Problem.of(ON_MELD, n=1), "1 tile(s) stacked on a chi or pon were not used",
     "チー・ポンの上に重なった1枚は使いませんでした", "叠在吃或碰上的1张牌未使用"),
    (Problem.of(GRAMMAR, n=1), "sideways flag of 1 tile(s) set by the meld grammar",
     "1枚の横向きかどうかを副露の並び方から決めました", "按副露的排法确定了1张牌是否横放"),
    (Problem.of(ON_CONCEALED, n=5), "5 tile(s) stacked on concealed tiles were not used",
     "手牌の上に重なった5枚は使いませんでした", "叠在手牌上的5张牌未使用"),
    (Problem.of(EXTRA_ROW, n=4), "4 tile(s) in an extra row were set aside",
     "余分な列の4枚を除けました", "多出的一行中的4张牌已放在一边"),
    (Problem.of(AWAY, n=8), "8 tile(s) away from the hand were set aside",
     "手牌から離れた8枚を除けました", "远离手牌的8张牌已放在一边"),
    (Problem.of(UNRESOLVED, problem=Problem.of(TOO_MANY, n=5, tile="5z")), "unresolved: five 5z",
     "補正できません：5zが5枚", "无法修正：5z有5张"),
    (Problem.of(RED_FIVES, n=2, suit="p"), "two red fives in p", "赤5（0p）が2枚",
     "赤5（0p）有2张"),
    (Problem.of(MELD_NOT_SET, meld=1, kind="chi", tiles=("1m", "2m", "4m")),
     "meld 1 (chi) is not a set: 1m 2m 4m", "副露1（チー）が面子になっていません：1m 2m 4m",
     "副露1（吃）不成面子：1m 2m 4m"),
    (Problem.of(UNRESOLVED, problem=Problem.of(MELD_NOT_SET, meld=1, kind="pon",
                                               tiles=("1m", "1m", "2m"))),
     "unresolved: meld 1 (pon) is not a set: 1m 1m 2m",
     "補正できません：副露1（ポン）が面子になっていません：1m 1m 2m",
     "无法修正：副露1（碰）不成面子：1m 1m 2m"),
    (Problem.of(UNRESOLVED, problem=Problem.of(NOT_A_WIN)),
     "unresolved: not a complete winning hand", "補正できません：和了の形になっていません",
     "无法修正：不成和牌型"),
]


@pytest.mark.parametrize(("problem", "en", "ja", "zh"), PROBLEM_WORDS,
                         ids=[row[1] for row in PROBLEM_WORDS])
def test_a_problem_in_every_language(problem: Problem, en: str, ja: str, zh: str) -> None:
    assert (problem_words(problem), problem_words(problem, "ja"),
            problem_words(problem, "zh-Hans")) == (en, ja, zh)
    assert problem.english() == str(problem) == en


def test_the_decoder_s_counts_are_said_in_words_in_english_only() -> None:
    written = decode.violations(["3m"] * 5 + ["0s", "0s"])  # as the decoder counts them
    assert written == [Problem.of(TOO_MANY, n=5, tile="3m"), Problem.of(RED_FIVES, n=2, suit="s")]
    assert [str(p) for p in written] == ["five 3m", "two red fives in s"]
    assert [problem_words(p, "ja") for p in written] == ["3mが5枚", "赤5（0s）が2枚"]


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("lang", LANGS)
def test_every_problem_a_stage_can_write_has_its_entry_in_each_catalogue(lang: str) -> None:
    """Each key of `KEYS` (a problem of another key cannot be made) is an entry whose English
    names exactly its values, translated in Japanese and Chinese with the same values."""
    english = VISION.entries()
    assert len(KEYS) >= 19
    for key, names in KEYS.items():
        assert key in english, key
        assert _placeholders(english[key].english) == set(names), key
    if lang == "en":
        return
    said = {m.context: m for m in read_po(VISION.po_path(lang)) if m.context}
    for key, names in KEYS.items():
        entry = said.get(key)
        assert entry is not None and entry.strings and entry.strings[0] and not entry.fuzzy, key
        assert _placeholders(entry.strings[0]) == set(names), key


def test_every_key_the_module_names_is_registered_and_no_other_can_be_made() -> None:
    named = {v for k, v in vars(problems).items() if k.isupper() and isinstance(v, str)}
    assert named == set(KEYS)
    with pytest.raises(ValueError, match="no problem"):
        Problem.of("problem.unheard_of")
    with pytest.raises(ValueError, match="no problem"):
        Problem(IN_HAND, (("count", 7),))


def test_a_problem_is_an_immutable_hashable_value_that_survives_json() -> None:
    problem = Problem.of(UNRESOLVED, problem=Problem.of(MELD_NOT_SET, meld=2, kind="kakan",
                                                        tiles=("9m", "9m", "9m", "8m")))
    with pytest.raises(FrozenInstanceError):
        problem.key = NOT_A_WIN  # type: ignore[misc]
    assert len({problem, Problem.from_json(problem.to_json())}) == 1
    assert problem.to_json() == {"key": UNRESOLVED, "params": {"problem": {
        "key": MELD_NOT_SET, "params": {"meld": 2, "kind": "kakan",
                                        "tiles": ["9m", "9m", "9m", "8m"]}}}}


def test_a_reading_s_json_keeps_its_problems_in_english_and_gives_their_keys() -> None:
    found = (Problem.of(IN_HAND, n=1), Problem.of(NO_WINNING_GAP))
    data = Reading((DetectedTile("1m", (0, 0, 10, 14), 0.9),), problems=found).to_json()
    assert data["problems"] == ["1 tiles in the hand (14 expected, each kan counted as 3)",
                                "no winning tile set apart by a gap after the concealed tiles"]
    assert tuple(Problem.from_json(p) for p in data["problem_keys"]) == found


def test_an_order_that_cannot_be_read_carries_its_problem() -> None:
    with pytest.raises(ProblemError) as caught:
        expected_rows(" / ")
    assert caught.value.problem == Problem.of(ORDER_EMPTY, order=" / ")
    assert str(caught.value) == "no tiles in the expected order ' / '"
    assert problem_words(caught.value.problem, "ja") == "指定の並び順 ' / ' に牌がありません"


def test_a_count_a_stage_summed_with_numpy_goes_into_json_as_a_plain_number() -> None:
    """vision.layout counts the extra gaps with NumPy: the problem keeps a plain int, so a
    reading's ``--json`` of such a photo (a webcam photo of leo-miura's did it) is written."""
    import json

    import numpy as np

    problem = Problem.of(EXTRA_GAPS, n=np.int64(2))
    assert type(problem.value("n")) is int and problem == Problem.of(EXTRA_GAPS, n=2)
    assert json.dumps(problem.to_json()) == '{"key": "problem.extra_gaps", "params": {"n": 2}}'
