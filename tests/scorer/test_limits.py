"""The bounds on outside input (`scorer.limits`) and where the rules core applies them: the table's
checks (so a stored or imported game is bounded too), records, and JSON-lines hands."""

from __future__ import annotations

import json
from dataclasses import fields, replace
from typing import Any

import pytest

from scorer.hand import InvalidInput
from scorer.limits import (
    RULE_OPTIONS,
    JsonError,
    JsonTooDeep,
    JsonTooLarge,
    brief,
    load_json,
    text_problem,
)
from scorer.records_io import from_record
from scorer.rules import RULESETS, Ruleset, Uma
from scorer.table import (
    Correction,
    GameStarted,
    IllegalEvent,
    RecordError,
    Transfer,
    Win,
    WinningHand,
    dumps,
    loads,
    replay,
)

TENHOU = RULESETS["tenhou"]
PLAYERS = ("Ann", "Bo", "Cy", "Di")


def test_every_whole_number_rule_option_has_bounds() -> None:
    ints = {f.name for f in fields(Ruleset)
            if isinstance(getattr(TENHOU, f.name), int)
            and not isinstance(getattr(TENHOU, f.name), bool)}
    assert ints == set(RULE_OPTIONS)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_preset_is_within_bounds(name: str) -> None:
    rules = RULESETS[name]
    replay([GameStarted(PLAYERS[:rules.players], rules)])


@pytest.mark.parametrize(("text", "error", "message"), [
    ("[" * 100_000 + "]" * 100_000, JsonTooDeep, "nested too deeply: more than 32 levels"),
    ("[" * 33 + "]" * 33, JsonTooDeep, "nested too deeply: more than 32 levels"),
    ('{"a": NaN}', JsonError, "NaN is not a JSON number"),
    ("[1e999]", JsonError, "'1e999' is too large for a number"),
    ("[1" + "0" * 4300 + "]", JsonError, "a number has more digits than Python reads (4,300)"),
    (b"[\xff]", JsonError, "'utf-8' codec can't decode byte 0xff in position 1: invalid start "
                           "byte"),
    (" " * (4 * 1024 * 1024 + 1), JsonTooLarge, "too large: more than 4,194,304 bytes"),
], ids=["100000-deep", "33-deep", "nan", "infinite", "4301-digits", "not-utf8", "4-mb"])
def test_load_json_refuses_what_would_crash_its_reader(text: str | bytes, error: type,
                                                       message: str) -> None:
    with pytest.raises(error) as raised:
        load_json(text)
    assert str(raised.value) == message


def test_load_json_reads_32_levels() -> None:
    assert load_json("[" * 32 + "]" * 32) == json.loads("[" * 32 + "]" * 32)


@pytest.mark.parametrize(("value", "shown"), [
    (10**4299, "a number of about 4,300 digits"),
    ([10**5000], "a list holding a number too long to print"),
    ("x" * 100, "'" + "x" * 56 + "..."),
    ("\ud800", "'\\ud800'"),
])
def test_brief_never_raises_and_stays_short(value: Any, shown: str) -> None:
    assert brief(value) == shown


@pytest.mark.parametrize(("text", "problem"), [
    ("Ann", None), ("Zoë 東", None), ("A" * 24, None),
    ("A" * 25, "at most 24 characters, got 25"),
    ("A\tB", "has a control character (U+0009) at position 1"),
    ("\x9b", "has a control character (U+009B) at position 0"),
    ("A\udfff", "has a lone surrogate (U+DFFF) at position 1"),
    (7, "expected text, got 7"),
])
def test_text_problem(text: Any, problem: str | None) -> None:
    assert text_problem(text, 24) == problem


@pytest.mark.parametrize(("events", "field", "message"), [
    ([GameStarted(("A" * 25, "B", "C", "D"), TENHOU)], "players[0]",
     "at most 24 characters, got 25"),
    ([GameStarted(PLAYERS, replace(TENHOU, start_points=10**4299))], "rules.start_points",
     "expected a whole number from 1 to 10,000,000, got a number of about 4,300 digits"),
    ([GameStarted(PLAYERS, replace(TENHOU, uma=Uma((10**6, 0, 0, 0))))], "rules.uma.fixed[0]",
     "expected a whole number from -1,000 to 1,000, got 1000000"),
    ([GameStarted(PLAYERS, TENHOU), Correction((Transfer(1, 0, 10**4299),), "x")],
     "transfers[0].points",
     "expected a whole number from 1 to 10,000,000, got a number of about 4,300 digits"),
    ([GameStarted(PLAYERS, TENHOU), Correction((Transfer(1, 0, 100),), "x\x00")], "reason",
     "has a control character (U+0000) at position 1"),
    ([GameStarted(PLAYERS, TENHOU), Win.tsumo(WinningHand(0, 101, 30))], "hands[0].han",
     "expected a whole number from 0 to 100, got 101"),
    ([GameStarted(PLAYERS, TENHOU), Win.tsumo(WinningHand(0, 13, 0, 10**4298))],
     "hands[0].yakuman",
     "expected a whole number from 0 to 10, got a number of about 4,299 digits"),
    ([GameStarted(PLAYERS, TENHOU), Win.tsumo(WinningHand(0, 5, 10**30))], "hands[0].fu",
     "expected a whole number from 0 to 140, got a number of about 31 digits"),
    ([GameStarted(PLAYERS, TENHOU), Win.tsumo(WinningHand(0, 3, 30, breakdown={"x": 10**30}))],
     "hands[0].breakdown.x",
     "expected a whole number from -10,000,000 to 10,000,000, got a number of about 31 digits"),
], ids=["long-name", "huge-start", "uma", "huge-transfer", "control-in-reason", "han-101",
        "huge-yakuman", "huge-fu", "breakdown"])
def test_the_table_refuses_out_of_bounds_events(events: list[Any], field: str,
                                                message: str) -> None:
    with pytest.raises(IllegalEvent) as error:
        replay(events)
    assert (error.value.field, error.value.reason) == (field, message)


def _record(*events: Any) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(dumps([GameStarted(PLAYERS, TENHOU)]))
    record["events"].extend(events)
    return record


@pytest.mark.parametrize(("record", "message"), [
    (_record({"type": "correction", "transfers": [{"payer": 1, "payee": 0, "points": 10**4299}],
              "reason": "x"}),
     "event 1 (correction), field 'transfers[0].points': expected a whole number from 1 to "
     "10,000,000, got a number of about 4,300 digits"),
    (_record({"type": ["riichi"], "seat": 1}), "event 1, field 'type': unknown event type "
                                                "['riichi'] (known: game_started, riichi, win, "
                                                "exhaustive_draw, abortive_draw, chombo, "
                                                "correction, game_ended)"),
    (_record({"type": "riichi", "seat": 1, "after": {"points": [10**4000, 0, 0, 0]}}),
     "event 1 (riichi), field 'after.points': the record says [1" + "0" * 195 + "... but its "
     "events give [25000, 24000, 25000, 25000] (edited by hand?)"),
], ids=["huge-transfer", "type-list", "huge-after"])
def test_a_record_names_the_out_of_bounds_field(record: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError) as error:
        loads(json.dumps(record))
    assert str(error.value) == message


def test_a_record_nested_too_deeply() -> None:
    with pytest.raises(RecordError, match=r"^record: not JSON: nested too deeply: more than 32 "
                                          r"levels$"):
        loads('{"events": ' + "[" * 100_000 + "]" * 100_000 + "}")


def test_a_jsonl_hand_with_a_huge_honba_names_it() -> None:
    with pytest.raises(InvalidInput) as error:
        from_record({"closed": "234m456p22s345678s", "win_tile": "8s", "honba": 10**4299})
    assert [str(p) for p in error.value.problems] == [
        "honba: expected a whole number 0-1000, not a number of about 4,300 digits"]


def test_a_game_holds_at_most_its_bound_of_events_played_or_imported() -> None:
    import pytest

    from scorer.limits import GAME_EVENTS
    from scorer.table import Table, events_from_record

    first = GameStarted(PLAYERS, TENHOU)
    table = Table.of((first,) + (Correction((Transfer(1, 0, 100),), "x"),) * (GAME_EVENTS - 1))
    assert len(table.events) == GAME_EVENTS
    with pytest.raises(IllegalEvent, match="at most 1,000 events"):
        table.play(Correction((Transfer(1, 0, 100),), "one more"))
    record = json.loads(dumps(table.events))
    assert len(events_from_record(record)[0]) == GAME_EVENTS
    record["events"].append(record["events"][-1])
    with pytest.raises(RecordError, match="at most 1,000 events, this one has 1,001"):
        events_from_record(record)
