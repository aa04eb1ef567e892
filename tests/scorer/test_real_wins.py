"""Every one of the 2,140 real Tenhou wins scores exactly as Tenhou paid it.

Han, fu, yaku (a multiset of [id, han], dora entries included), yakuman, the hand's points and
each seat's change (honba, sticks and pao included) are compared; failures are reported grouped
by which of those differ, so one wrong rule shows up as one group.
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
WINS = SHARED / "scoring" / "tenhou-wins-dev.jsonl"


def _rows() -> list[dict[str, Any]]:
    if not WINS.exists():
        pytest.skip(f"../shared not found: {WINS} (set RIICHI_SHARED)")
    with WINS.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _differences(row: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """What differs between our score and Tenhou's, by aspect: {aspect: (ours, Tenhou's)}."""
    rules = RULESETS["tenhou"]
    hand, context = from_record(row)
    result = score(hand, context, rules)
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
    # Seats are in Tenhou's order; the dealer is the seat whose wind is East.
    dealer = (winner - (row["seat_wind"] - 1)) % 4
    discarder = None if row["tsumo"] else paid["from_who"]
    assert result.value is not None
    delta = win_payments(result.value, winner, dealer, discarder, context.honba,
                         context.riichi_sticks, rules, liable=paid["pao_who"])
    if list(delta) != paid["score_delta"]:
        out["score_delta"] = (list(delta), paid["score_delta"])
    if paid["pao_who"] is None:
        assert result.payment is not None
        gain = result.payment.winner_gain
        if gain != paid["winner_gain"] or gain != delta[winner]:
            out["winner_gain"] = (gain, paid["winner_gain"])
    return out


def test_every_real_win_scores_as_tenhou_paid() -> None:
    rows = _rows()
    assert len(rows) == 2140
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
    """The regression file exercises the rare paths it is trusted for (guards a thinned file)."""
    rows = _rows()
    yakuman = Counter(y for row in rows for y in row["expected"]["yakuman"])
    melds = Counter(m["type"] for row in rows for m in row["melds"])
    assert yakuman["daisangen"] >= 1 and yakuman["tenhou"] >= 1
    assert set(melds) == {"chi", "pon", "minkan", "ankan", "kakan"}
    assert any(row["expected"]["payments"]["pao_who"] is not None for row in rows)
    assert any(row["agari_index_in_hand"] > 1 for row in rows)  # double ron: honba to the first
