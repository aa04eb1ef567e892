"""Hand-aware decoding: the most probable legal labelling, with every change marked."""

import pytest

from vision.config import VisionConfig
from vision.decode import decode, violations
from vision.problems import TOO_MANY, UNRESOLVED, Problem
from vision.reading import Grouping, MeldKind, MeldReading

CFG = VisionConfig()


def sure(label):
    return [(label, 0.99), ("1z", 0.005)]


def test_a_legal_reading_is_kept_as_is():
    choices = [sure(t) for t in ["1m", "2m", "3m", "5p", "5p"]]
    out = decode(choices, None, CFG)
    assert out.labels == ("1m", "2m", "3m", "5p", "5p")
    assert out.changed == (False,) * 5
    assert out.problems == ()


def test_a_fifth_copy_becomes_its_least_costly_alternative():
    # five tiles read 3m: the least sure (0.55 vs 8m 0.40) changes, not the 0.9 one
    out = decode(
        [sure("3m")] * 3 + [[("3m", 0.9), ("5m", 0.09)], [("3m", 0.55), ("8m", 0.40)]], None, CFG
    )
    assert out.labels == ("3m", "3m", "3m", "3m", "8m")
    assert out.changed == (False, False, False, False, True)


def test_only_tiles_that_break_a_rule_are_changed_however_many_are_unsure():
    # ten unsure tiles of other kinds would fill the decoder's eight movable slots; the fifth
    # 3m (the surest of them at 0.9) is still the one that changes
    unsure = [[(f"{n}s", 0.5), (f"{n}p", 0.45)] for n in range(1, 10)]
    unsure += [[("1z", 0.5), ("2z", 0.45)]]
    fives = [sure("3m")] * 4 + [[("3m", 0.9), ("8m", 0.08)]]
    out = decode(unsure + fives, None, CFG)
    assert out.labels[-5:] == ("3m", "3m", "3m", "3m", "8m")
    assert out.labels[:10] == tuple(f"{n}s" for n in range(1, 10)) + ("1z",)
    assert out.changed == (False,) * 14 + (True,)
    assert out.problems == ()


def test_a_sure_tile_is_not_changed_to_a_far_less_likely_alternative():
    # the least sure 5z reads 0.9, its alternative 0.014 (under 5 % of it): reported, not guessed
    choices = [sure("5z")] * 4 + [[("5z", 0.9), ("back", 0.014)]]
    out = decode(choices, None, CFG)
    assert out.labels == ("5z",) * 5
    assert out.changed == (False,) * 5
    assert out.problems == (Problem.of(UNRESOLVED, problem=Problem.of(TOO_MANY, n=5, tile="5z")),)
    assert [str(p) for p in out.problems] == ["unresolved: five 5z"]


def test_two_red_fives_of_one_suit_keep_the_surer_one():
    choices = [[("0p", 0.95), ("5p", 0.05)], [("0p", 0.6), ("5p", 0.39)], sure("1s")]
    out = decode(choices, None, CFG)
    assert out.labels == ("0p", "5p", "1s")
    assert out.changed == (False, True, False)


def test_a_set_with_two_red_fives_in_p_keeps_both_and_a_third_is_mended():
    """Many sets carry two red 5p (``red_fives`` from the table's rules): both are read as
    they are, and only a third is changed, the least sure one."""
    two = VisionConfig(red_fives=(1, 2, 1))
    reds = [[("0p", 0.95), ("5p", 0.05)], [("0p", 0.6), ("5p", 0.39)], sure("1s")]
    out = decode(reds, None, two)
    assert (out.labels, out.changed) == (("0p", "0p", "1s"), (False, False, False))
    three = [*reds, [("0p", 0.55), ("5p", 0.44)]]
    out = decode(three, None, two)
    assert out.labels == ("0p", "0p", "1s", "5p")
    assert out.changed == (False, False, False, True)


def test_a_meld_must_be_a_set():
    grouping = Grouping(concealed=(), melds=(MeldReading(MeldKind.PON, (0, 1, 2), 1),))
    choices = [sure("6s"), [("8s", 0.7), ("6s", 0.3)], sure("6s")]
    out = decode(choices, grouping, CFG)
    assert out.labels == ("6s", "6s", "6s")
    assert out.changed == (False, True, False)


def test_the_kiosk_check_picks_the_complete_hand():
    # 2m reads 0.6 / 3m 0.4; only 3m completes 111m 33m (a toy check from the caller)
    def complete(concealed, winning, melds):
        return sorted(concealed + [winning]) == ["1m", "1m", "1m", "3m", "3m"]

    grouping = Grouping(concealed=(0, 1, 2, 3), winning=4)
    choices = [sure("1m"), sure("1m"), sure("1m"), sure("3m"), [("2m", 0.6), ("3m", 0.4)]]
    out = decode(choices, grouping, CFG, complete)
    assert out.labels == ("1m", "1m", "1m", "3m", "3m")
    assert out.changed == (False, False, False, False, True)


def test_unresolvable_is_reported_and_the_classifier_labels_kept():
    choices = [[("7z", 0.99)]] * 5  # no alternatives at all
    out = decode(choices, None, CFG)
    assert out.labels == ("7z",) * 5
    assert out.changed == (False,) * 5
    assert [str(p) for p in out.problems] == ["unresolved: five 7z"]


@pytest.mark.parametrize(
    ("labels", "melds", "expected"),
    [
        (["1m"] * 4, (), []),
        (["5m", "5m", "5m", "5m", "0m"], (), ["five 5m"]),
        (["0s", "0s"], (), ["two red fives in s"]),
        (["1z", "2z", "3z"], ((MeldKind.CHI, (0, 1, 2)),), ["meld 1 (chi) is not a set: 1z 2z 3z"]),
        (["back", "4p", "4p", "back"], ((MeldKind.ANKAN, (0, 1, 2, 3)),), []),
    ],
)
def test_violations(labels, melds, expected):
    grouping = Grouping(melds=tuple(MeldReading(k, t) for k, t in melds))
    assert [p.english() for p in violations(labels, grouping)] == expected
