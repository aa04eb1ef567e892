"""The batch path of `score --jsonl` (`scorer.batch.write_scores`) writes, for every line,
exactly what scoring that hand on its own gives (`Score.to_json`), and `to_json` says what the
Score's own properties say: the fast path may take shortcuts, never change a byte."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from scorer.batch import write_scores
from scorer.records_io import from_record
from scorer.result import Score
from scorer.rules import RULESETS
from scorer.score import score
from tests.shared import need

# Hands the real wins lack: not a win, no yaku, chiitoitsu, kokushi, yakuman, a kan, and lines
# that are not hands at all.
SYNTHETIC = [
    {"closed": "123m456p22s", "melds": [{"type": "chi", "tiles": "789s", "from": "kamicha"},
                                         {"type": "chi", "tiles": "234p"}], "win_tile": "2s"},
    {"closed": "123m456p789s11357z", "win_tile": "7z"},
    {"closed": "1122m3344p5566s77z", "win_tile": "7z", "riichi": True, "ura_indicators": ["6z"]},
    {"closed": "19m19p19s12345677z", "win_tile": "7z", "tsumo": True},
    {"closed": "555666777z123m99p", "win_tile": "9p", "seat_wind": 1, "dealer": True},
    {"closed": "123m406p99s", "melds": [{"type": "ankan", "tiles": "1111z"}], "win_tile": "9s",
     "tsumo": True, "rinshan": True, "honba": 2, "riichi_sticks": 1,
     "dora_indicators": ["4z", "8s"]},
    {"closed": "11112m456p789s22s", "win_tile": "2s"},
    {"closed": "123m", "win_tile": 5},
]


def reference_json(result: Score) -> dict[str, Any]:
    """`to_json` as the Score's properties spell it out, one property at a time."""
    yaku: list[list[str | int]] = [[y, h] for y, h in result.yaku]
    if result.is_win and not result.yakuman:
        yaku += [[name, n] for name, n in (("dora", result.dora), ("aka_dora", result.aka_dora),
                                            ("ura_dora", result.ura_dora)) if n]
    paid, reading = result.payment, result.reading
    limit = result.limit
    return {
        "is_win": result.is_win, "outcome": result.outcome.value, "message": result.message,
        "han": result.han, "fu": result.fu, "yaku": yaku,
        "yakuman": [y for y, _ in result.yakuman],
        "yakuman_units": sum(u for _, u in result.yakuman),
        "limit": "yakuman" if limit.value == "kazoe yakuman" else limit.value,
        "points": result.points,
        "payments": None if paid is None else {
            "ron": paid.ron, "from_dealer": paid.from_dealer,
            "from_non_dealer": paid.from_non_dealer, "winner_gain": paid.winner_gain},
        "fu_items": [[item.reason, item.fu] for item in result.fu_items],
        "reading": None if reading is None else {
            "form": reading.form.value, "groups": list(reading.groups),
            "melds": list(reading.melds), "wait": reading.wait.value,
            "win_group": reading.win_group},
        "rules": result.rules.name,
    }


def _sample(file: str, every: int) -> list[str]:
    path = need("scoring", file)
    with path.open(encoding="utf-8") as f:
        return [line for i, line in enumerate(f) if i % every == 0]


@pytest.mark.parametrize(("file", "ruleset"), [("tenhou-wins-dev.jsonl", "tenhou"),
                                               ("tenhou-wins-dev.jsonl", "casual"),
                                               ("tenhou-sanma-wins-dev.jsonl", "tenhou_sanma")])
def test_batch_output_is_each_hands_to_json(file: str, ruleset: str) -> None:
    rules = RULESETS[ruleset]
    lines = _sample(file, 7) + [json.dumps(r) + "\n" for r in SYNTHETIC]
    lines += ["\n", "not json\n", '{"closed": "55555m123p456s789s", "win_tile": "5m"}\n']
    out = io.StringIO()
    write_scores(lines, rules, out)
    written = out.getvalue().splitlines()
    expected: list[str | None] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            expected.append(None)  # an error object (checked in test_cli_score)
            continue
        try:
            hand, ctx = from_record(record)
            result = score(hand, ctx, rules)
        except ValueError:
            expected.append(None)
            continue
        assert result.to_json() == reference_json(result), f"line {number}"
        expected.append(json.dumps(result.to_json(), ensure_ascii=False))
    assert len(written) == len(expected)
    for number, (got, want) in enumerate(zip(written, expected, strict=True), 1):
        if want is None:
            assert "error" in json.loads(got), f"output line {number}"
        else:
            assert got == want, f"output line {number}"
    outcomes = {json.loads(line).get("outcome") for line in written}
    # (Three players play without 2m-8m: there the synthetic hands are mostly invalid input.)
    assert ({"win", "no yaku", "not a winning hand", None} if rules.players == 4
            else {"win", None}) <= outcomes
