"""Every one of the 602 real three-player Tenhou wins scores exactly as Tenhou paid it.

The sanma twin of test_real_wins.py, under the `tenhou_sanma` preset: han, fu, yaku (a multiset
of [id, han]; kita are counted under `dora`, as Tenhou lists them), yakuman, the hand's points,
each of the three seats' change (honba and sticks included) and the winner's gain.
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from scorer.points import win_payments
from scorer.records_io import from_record
from scorer.rules import RULESETS
from scorer.score import score

SHARED = Path(os.environ.get("RIICHI_SHARED") or Path(__file__).parents[2] / ".." / "shared")
WINS = SHARED / "scoring" / "tenhou-sanma-wins-dev.jsonl"
RULES = RULESETS["tenhou_sanma"]


def _rows() -> list[dict[str, Any]]:
    if not WINS.exists():
        pytest.skip(f"../shared not found: {WINS} (set RIICHI_SHARED)")
    with WINS.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _differences(row: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """What differs between our score and Tenhou's, by aspect: {aspect: (ours, Tenhou's)}."""
    hand, context = from_record(row)
    result = score(hand, context, RULES)
    ours = result.to_json()
    expected = row["expected"]
    out: dict[str, tuple[Any, Any]] = {}
    for aspect, got, want in (
        ("han", ours["han"], expected["han"]),
        ("fu", ours["fu"], expected["fu"]),
        ("yaku", Counter(map(tuple, ours["yaku"])), Counter(map(tuple, expected["yaku"]))),
        ("yakuman", sorted(ours["yakuman"]), sorted(expected["yakuman"])),
        ("points", ours["points"], expected["points_total"]),
    ):
        if got != want:
            out[aspect] = (got, want)
    paid = expected["payments"]
    winner = paid["who"]
    # Seats 0-2 in Tenhou's order (its fourth entry is always 0); the dealer sits East.
    dealer = (winner - (row["seat_wind"] - 1)) % 3
    discarder = None if row["tsumo"] else paid["from_who"]
    assert result.value is not None
    delta = win_payments(result.value, winner, dealer, discarder, context.honba,
                         context.riichi_sticks, RULES, liable=paid["pao_who"])
    if [*delta, 0] != paid["score_delta"]:
        out["score_delta"] = (list(delta), paid["score_delta"])
    if paid["pao_who"] is None:
        assert result.payment is not None
        gain = result.payment.winner_gain
        if gain != paid["winner_gain"] or gain != delta[winner]:
            out["winner_gain"] = (gain, paid["winner_gain"])
    return out


def test_every_real_sanma_win_scores_as_tenhou_paid() -> None:
    rows = _rows()
    assert len(rows) == 602
    failures: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        differences = _differences(row)
        if differences:
            cause = "+".join(sorted(differences))
            detail = "; ".join(f"{k}: ours {a} / tenhou {b}" for k, (a, b) in differences.items())
            failures[cause].append(f"{row['source']}: {detail}")
    report = "\n".join(f"{cause}: {len(items)} hands, e.g.\n  " + "\n  ".join(items[:3])
                       for cause, items in sorted(failures.items()))
    passed = len(rows) - sum(len(items) for items in failures.values())
    assert not failures, f"{passed}/{len(rows)} hands agree with Tenhou\n{report}"


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
