"""Reading the real Tenhou data in ../shared/scoring and checking every row against it.

Shared by the real-data tests (four-player wins, three-player wins, whole games): each row is
compared aspect by aspect, and failures are reported grouped by which aspects differ, so one
wrong rule shows up as one group.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorer.points import win_payments
from scorer.records_io import from_record
from scorer.rules import Ruleset
from scorer.score import score
from tests.shared import SHARED, need

SCORING = SHARED / "scoring"

Differences = dict[str, tuple[Any, Any]]  # aspect -> (ours, Tenhou's)


def json_lines(path: Path) -> list[dict[str, Any]]:
    """The file's rows; the test skips, naming the file, where ../shared is absent."""
    need(str(path.relative_to(SHARED)))
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def win_differences(row: dict[str, Any], rules: Ruleset) -> Differences:
    """What differs between our score of a real win and Tenhou's: han, fu, yaku (a multiset of
    [id, han], dora entries included), yakuman, the hand's points, each seat's change (honba,
    sticks and pao included; Tenhou always lists four seats) and the winner's gain."""
    hand, context = from_record(row)
    result = score(hand, context, rules)
    ours = result.to_json()
    expected = row["expected"]
    out: Differences = {}
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
    dealer = (winner - (row["seat_wind"] - 1)) % rules.players
    discarder = None if row["tsumo"] else paid["from_who"]
    assert result.value is not None
    delta = win_payments(result.value, winner, dealer, discarder, context.honba,
                         context.riichi_sticks, rules, liable=paid["pao_who"])
    if [*delta, *[0] * (4 - len(delta))] != paid["score_delta"]:
        out["score_delta"] = (list(delta), paid["score_delta"])
    if paid["pao_who"] is None:
        assert result.payment is not None
        gain = result.payment.winner_gain
        if gain != paid["winner_gain"] or gain != delta[winner]:
            out["winner_gain"] = (gain, paid["winner_gain"])
    return out


def assert_every_row_agrees(rows: list[dict[str, Any]], differences: Callable[..., Differences],
                            name: Callable[[dict[str, Any]], str], noun: str) -> None:
    """Fails with every disagreeing row, grouped by the aspects that differ."""
    failures: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        found = differences(row)
        if found:
            cause = "+".join(sorted(found))
            detail = "; ".join(f"{k}: ours {a} / tenhou {b}" for k, (a, b) in found.items())
            failures[cause].append(f"{name(row)}: {detail}")
    report = "\n".join(f"{cause}: {len(items)} {noun}, e.g.\n  " + "\n  ".join(items[:3])
                       for cause, items in sorted(failures.items()))
    passed = len(rows) - sum(len(items) for items in failures.values())
    assert not failures, f"{passed}/{len(rows)} {noun} agree with Tenhou\n{report}"
