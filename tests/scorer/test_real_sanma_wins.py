"""Every one of the 602 real three-player Tenhou wins scores exactly as Tenhou paid it.

The sanma twin of test_real_wins.py, under the `tenhou_sanma` preset: han, fu, yaku (a multiset
of [id, han]; kita are counted under `dora`, as Tenhou lists them), yakuman, the hand's points,
each of the three seats' change (honba and sticks included; Tenhou's fourth entry is always 0)
and the winner's gain.
"""

from __future__ import annotations

from typing import Any

from scorer.rules import RULESETS
from tests.scorer.tenhou_data import SCORING, assert_every_row_agrees, json_lines, win_differences

RULES = RULESETS["tenhou_sanma"]


def _rows() -> list[dict[str, Any]]:
    return json_lines(SCORING / "tenhou-sanma-wins-dev.jsonl")


def test_every_real_sanma_win_scores_as_tenhou_paid() -> None:
    rows = _rows()
    assert len(rows) == 602
    assert_every_row_agrees(rows, lambda row: win_differences(row, RULES),
                            lambda row: row["source"], "hands")


def test_the_file_covers_what_it_should() -> None:
    """The three-player paths the file is trusted for are there (guards a thinned file)."""
    rows = _rows()
    assert {row["rules"]["players"] for row in rows} == {3}
    assert max(row["kita"] for row in rows) >= 3
    assert any(row["rinshan"] and row["kita"] and not any(
        m["type"] in ("ankan", "minkan", "kakan") for m in row["melds"]) for row in rows)
    assert {"1m", "9m"} <= {t for row in rows for t in row["dora_indicators"]}
    assert any(row["tsumo"] and row["honba"] and not row["dealer"] for row in rows)
    assert {m["type"] for row in rows for m in row["melds"]} == {"pon", "minkan", "ankan",
                                                                   "kakan"}
