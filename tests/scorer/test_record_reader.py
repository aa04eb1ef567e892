"""`read_record` (the compiled batch path's reader) gives what `load_json` gives, less the
members `from_record` ignores, and raises `load_json`'s very errors; `FIELDS` names every member
`from_record` reads."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.context import WinContext
from scorer.hand import Hand
from scorer.limits import JsonError, load_json
from scorer.record_reader import read_record
from scorer.records_io import FIELDS, from_record, to_record
from scorer.rules import RULESETS
from scorer.score import score
from tests.scorer.tenhou_data import SCORING
from tests.shared import need

BASE = '{"closed": "234m456p22s345678s", "win_tile": "8s", '
LINES = [
    BASE + '"tsumo": true, "expected": {"a": [1, 2.5, -30, "x", null, true, false, {}, []]}}',
    BASE + '"expected": {"a": [1, 2.5, -3e5, "\\u00e9\\"\\\\"]}, "rules": null}',
    BASE + '"rules": {"x": 1}, "closed ": 3, "tsumo": true}',
    '{"rules": 1, "closed": "234m456p22s345678s", "win_tile": "8s"}',
    BASE + '"rules": 1, "closed": "123m"}',
    BASE + '"source": "x", "win_tile": "2m"}',
    '  {"closed": "234m456p22s345678s" ,"win_tile": "8s" , "rules" : {} }  \n',
    BASE + '"message": "caf\u00e9 \\u00e9 \\ud800"}',
    BASE + '"r\\u00e9": 1}',
    BASE + '"rules": ' + "[" * 40 + "]" * 40 + "}",
    BASE + '"rules": 1' + "0" * 5000 + "}",
    BASE + '"rules": 1' + "0" * 400 + ".5}",
    BASE + '"rules": 0.5, "x": -0, "y": 10.25}',
    BASE + '"rules": NaN}', BASE + '"rules": 1e999}', BASE + '"rules": [1,]}',
    BASE + '"rules": {"a": 1}} x', BASE + '"rules": "a\tb"}', BASE + '"rules": 1}}',
    BASE + '"rules": 1', BASE + '"rules": 01}', BASE + '"rules": -}', BASE + '"rules": tru}',
    BASE + '"rules": {"a" 1}}', BASE + '"rules": {1: 1}}', BASE + '"tsumo": tru}',
    BASE + '"rules": 1,}', "{}", " { } ", "{", "[1, 2]", '"x"', "NaN", "", "not json",
    '\ufeff{"closed": "1m"}',
    # Where the split (the first ignored key) is not a top-level member's comma, or what follows
    # it is not only ignored members.
    BASE + '"source": "a, \\"rules\\": 1", "rules": 1}',
    '{"closed": "234m456p22s345678s", "melds": ["x", "rules"], "win_tile": "8s", "rules": 1}',
    '{"closed": "234m456p22s345678s", "melds": [{"rules": 1}], "win_tile": "8s"}',
    '{"closed": "234m456p22s345678s" , \n "rules": {"a": [1, {"b": null}]}, "expected": -0.5,'
    ' "source": ""}\n',
    BASE + '"rules": 1, "expected": {"closed": 2}, "source": "s"}',
    BASE + '"rules": 1, "expected": 2, "win_tile": "2m"}', BASE + '"rules": 1, "x": 1e5}',
    BASE + '"rules": 1, "source": "\\u0041"}', BASE + '"rules": {"a": 1,}}',
    BASE + '"rules": 1 "expected": 2}', BASE + '"rules": 1}, "expected": 2}',
    BASE + '"rules": ' + "[" * 31 + "]" * 31 + "}", BASE + '"rules": ' + "[" * 32 + "]" * 32 + "}",
    *('{"closed": "1m", "x": ' + "[" * n + "]" * n + ', "rules": 1}' for n in (31, 32)),
    '{"rules": 1}', '{ , "rules": 1}', '{"closed": "1m",, "rules": 1}',
]


def outcome(read: Any, line: str) -> tuple[str, Any]:
    try:
        value = read(line)
    except JsonError as e:
        return type(e).__name__, str(e)
    if isinstance(value, dict):
        value = {k: v for k, v in value.items() if k in FIELDS}
    return "value", value


def real_lines() -> Iterator[str]:
    for name in ("tenhou-wins-dev.jsonl", "tenhou-sanma-wins-dev.jsonl"):
        path = SCORING / name
        if path.exists():
            with path.open(encoding="utf-8") as f:
                yield from f


@pytest.mark.parametrize("line", LINES)
def test_reads_as_load_json_does(line: str) -> None:
    assert outcome(read_record, line) == outcome(load_json, line)


def test_reads_every_real_line_as_load_json_does() -> None:
    need("scoring", "tenhou-wins-dev.jsonl")
    lines = list(real_lines())
    for number, line in enumerate(lines, 1):
        assert outcome(read_record, line) == outcome(load_json, line), f"line {number}"


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                    | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)


@given(st.dictionaries(st.sampled_from(sorted(FIELDS) + ["rules", "expected", "source", "é"]),
                       JSON, max_size=6), st.booleans(), st.integers(0, 200), st.text(max_size=2))
def test_any_json_object_or_a_broken_one(record: dict[str, Any], ascii_only: bool, cut: int,
                                         insert: str) -> None:
    line = json.dumps(record, ensure_ascii=ascii_only)
    assert outcome(read_record, line) == outcome(load_json, line)
    broken = line[:cut] + insert + line[cut:]  # often no longer JSON: the same error
    assert outcome(read_record, broken) == outcome(load_json, broken)


class Watched(dict[str, Any]):
    """A record that notes every member asked for."""

    asked: set[str]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.asked = set()

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> Any:
        self.asked.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.asked.add(str(key))
        return super().__contains__(key)


def test_fields_are_what_from_record_reads() -> None:
    record = Watched(to_record(Hand.parse("999m456p22s345678s", win="8s", kita=1),
                               WinContext(tsumo=True)))
    hand, ctx = from_record(record)
    assert score(hand, ctx, RULESETS["tenhou_sanma"]).is_win
    assert record.asked == FIELDS
