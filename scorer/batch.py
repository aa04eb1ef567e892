"""The batch path of `score --jsonl` (and of `python -m scorer bench`): JSON lines in, one JSON
line out for each, the hand's score or what is wrong with the line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any

from scorer.hand import InvalidInput
from scorer.limits import JsonError
from scorer.record_reader import READ
from scorer.records_io import from_record
from scorer.rules import Ruleset
from scorer.score import score


def write_scores(lines: Iterable[str], rules: Ruleset, out: IO[str]) -> None:
    """Score each JSON line of `lines` and write one JSON line for each to `out` (blank lines
    are skipped, numbered all the same): the batch path of `score --jsonl` and of `bench`."""
    write = out.write
    for number, line in enumerate(lines, 1):
        if not line or line.isspace():  # (`not line.strip()`, without copying the line)
            continue
        write(_score_line(line, number, rules) + "\n")


def _score_line(line: str, number: int, rules: Ruleset) -> str:
    """The output line for one input line: the hand's score (`Score.to_json_line`), or what is
    wrong with the line."""
    try:
        record = READ(line)
    except JsonError as e:
        return _dumps({"error": f"line {number}: not JSON ({e})", "problems": [], "line": number})
    try:
        hand, context = from_record(record)
        return score(hand, context, rules).to_json_line()
    except InvalidInput as invalid:  # (its own name: compiled, `e` keeps the first type)
        return _dumps({"error": f"line {number}: invalid hand", "line": number,
                       "problems": [str(p) for p in invalid.problems]})


def _dumps(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False)
