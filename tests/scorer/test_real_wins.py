"""Every one of the 2,140 real Tenhou wins scores exactly as Tenhou paid it.

Han, fu, yaku (a multiset of [id, han], dora entries included), yakuman, the hand's points and
each seat's change (honba, sticks and pao included) are compared (`tenhou_data.win_differences`);
failures are reported grouped by which of those differ, so one wrong rule shows up as one group.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from scorer.rules import RULESETS
from tests.scorer.tenhou_data import SCORING, assert_every_row_agrees, json_lines, win_differences

RULES = RULESETS["tenhou"]


def _rows() -> list[dict[str, Any]]:
    return json_lines(SCORING / "tenhou-wins-dev.jsonl")


def test_every_real_win_scores_as_tenhou_paid() -> None:
    rows = _rows()
    assert len(rows) == 2140
    assert_every_row_agrees(rows, lambda row: win_differences(row, RULES),
                            lambda row: row["source"], "hands")


def test_the_file_covers_what_it_should() -> None:
    """The regression file exercises the rare paths it is trusted for (guards a thinned file)."""
    rows = _rows()
    yakuman = Counter(y for row in rows for y in row["expected"]["yakuman"])
    melds = Counter(m["type"] for row in rows for m in row["melds"])
    assert yakuman["daisangen"] >= 1 and yakuman["tenhou"] >= 1
    assert set(melds) == {"chi", "pon", "minkan", "ankan", "kakan"}
    assert any(row["expected"]["payments"]["pao_who"] is not None for row in rows)
    assert any(row["agari_index_in_hand"] > 1 for row in rows)  # double ron: honba to the first
