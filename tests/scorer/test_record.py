"""The JSON game record: round trips, defaults, and errors that name the event and the field."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from scorer.rules import RULESETS, Ruleset, Uma
from scorer.table import (
    FORMAT,
    VERSION,
    AbortiveDraw,
    AbortKind,
    Chombo,
    Correction,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    RecordError,
    RiichiDeclared,
    Transfer,
    Win,
    WinningHand,
    dumps,
    events_from_record,
    loads,
    rules_from_dict,
    rules_to_dict,
)

GAME: list[Event] = [
    GameStarted(("Ana", "Ben", "Chie", "Dai"), RULESETS["jpml"], first_dealer=1),
    RiichiDeclared(2),
    Win.ron(0, WinningHand(2, 3, 40, hand="234m", breakdown={"yaku": [["riichi", 1]]}),
            WinningHand(3, 1, 30)),
    ExhaustiveDraw(frozenset({0, 3})),
    AbortiveDraw(AbortKind.NINE_TERMINALS),
    Chombo(1),
    Correction((Transfer(0, 1, 300), Transfer(2, 1, 300)), "honba missed"),
    Win.tsumo(WinningHand(3, 0, 0, 2, liable=0, liable_yakuman=1)),
    GameEnded("time"),
]


def test_a_game_round_trips() -> None:
    assert list(loads(dumps(GAME))) == GAME
    record = json.loads(dumps(GAME))
    assert (record["format"], record["version"]) == (FORMAT, VERSION)
    assert record["events"][2] == {
        "type": "win", "discarder": 0,
        "hands": [{"winner": 2, "han": 3, "fu": 40, "yakuman": 0, "liable": None,
                   "liable_yakuman": None, "hand": "234m",
                   "breakdown": {"yaku": [["riichi", 1]]}},
                  {"winner": 3, "han": 1, "fu": 30, "yakuman": 0, "liable": None,
                   "liable_yakuman": None, "hand": None, "breakdown": None}],
        # JPML 30,000 each, first dealer seat 1: seat 2 gets 5,200 + the stick, seat 3 1,000.
        "after": {"points": [23800, 30000, 35200, 31000], "honba": 0, "sticks": 0},
    }


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_preset_round_trips(name: str) -> None:
    assert rules_from_dict(json.loads(json.dumps(rules_to_dict(RULESETS[name])))) == \
        RULESETS[name]


def test_left_out_options_come_from_the_named_preset() -> None:
    assert rules_from_dict({"name": "mleague"}) == RULESETS["mleague"]
    house = rules_from_dict({"name": "house", "options": {"tobi": False,
                                                        "uma": {"fixed": [10, 5, -5, -10]}}})
    assert house == Ruleset(name="house", tobi=False, uma=Uma((10, 5, -5, -10)))


def test_a_hand_written_record_needs_only_the_essentials() -> None:
    text = json.dumps({"format": FORMAT, "version": 1, "events": [
        {"type": "game_started", "players": ["A", "B", "C", "D"], "rules": {"name": "tenhou"}},
        {"type": "win", "discarder": 1, "hands": [{"winner": 0, "han": 2, "fu": 30}]},
        {"type": "exhaustive_draw", "tenpai": []},
    ]})
    events, state = events_from_record(json.loads(text))
    assert state.points == (27900, 22100, 25000, 25000)
    assert state.label == "East 2, 2 honba"  # dealer renchan, then a draw with the dealer noten


Edit = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Edit:
    def edit(record: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = record
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return edit


def _drop(path: str) -> Edit:
    def edit(record: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = record
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[last]
    return edit


@pytest.mark.parametrize(("edit", "expected"), [
    (_set("format", "something-else"), "record, field 'format': expected 'riichi-game-record'"),
    (_set("version", 2), "record, field 'version': this program reads version 1, got 2"),
    (_set("events", {}), "record, field 'events': expected a list, got an object"),
    (_set("events/3/type", "draw"), "event 3, field 'type': unknown event type 'draw'"),
    (_set("events/1/who", 2), "event 1 (riichi), field 'who': unknown key"),
    (_drop("events/1/seat"), "event 1 (riichi), field 'seat': missing"),
    (_set("events/1/seat", True), "event 1 (riichi), field 'seat': expected a whole number, "
                                  "got true/false True"),
    (_set("events/2/hands/1/fu", 30.0), "event 2 (win), field 'hands[1].fu': expected a whole "
                                        "number, got a decimal number 30.0"),
    (_set("events/2/hands/0/breakdown", [1]), "event 2 (win), field 'hands[0].breakdown': "
                                              "expected an object, got a list"),
    (_set("events/3/tenpai", [0, 0]), "event 3 (exhaustive_draw), field 'tenpai': a seat is "
                                      "listed twice"),
    (_set("events/4/kind", "five_kans"), "event 4 (abortive_draw), field 'kind': expected one "
                                         "of"),
    (_set("events/6/transfers/1/payee", "Ben"), "event 6 (correction), field "
                                                "'transfers[1].payee': expected a whole number"),
    (_set("events/0/players", ["A", "B", "C"]), "event 0 (game_started), field 'players': "
                                                "jpml seats 4 players, got 3"),
    (_set("events/0/rules/options/kiriage", "yes"), "event 0 (game_started), field "
                                                    "'rules.options.kiriage': expected true"),
    (_set("events/0/rules/options/bust", True), "event 0 (game_started), field "
                                                "'rules.options.bust': unknown rule option"),
    (_set("events/0/rules/options/renchan", "always"), "event 0 (game_started), field "
                                                       "'rules.options.renchan': expected one of"),
    (_set("events/0/rules/options/uma", {"fixed": [1, 2, 3]}), "event 0 (game_started), field "
                                                               "'rules.options.uma.fixed': "
                                                               "4 players need 4 uma values, "
                                                               "got 3"),
    (_set("events/0/rules/options/uma", {"fixed": [1, 2]}), "event 0 (game_started), field "
                                                            "'rules.options.uma.fixed': "
                                                            "expected 4 numbers (3 at a "
                                                            "three-player table), got 2"),
    # A legal-looking but impossible game: the replay names the event and field.
    (_set("events/5/seat", 9), "event 5 (chombo), field 'seat': no seat 9"),
    (_set("events/1/type", "chombo"), None),  # a chombo instead of a riichi: "after" disagrees
    # A changed value is caught by the state the exporter wrote after the event (4 han 40 fu is
    # a mangan: 8,000 + the stick instead of 5,200 + the stick).
    (_set("events/2/hands/0/han", 4), "event 2 (win), field 'after.points': the record says "
                                      "[23800, 30000, 35200, 31000] but its events give "
                                      "[21000, 30000, 38000, 31000] (edited by hand?)"),
    (_set("events/7/after", [1]), "event 7 (win), field 'after': expected an object"),
])
def test_corrupt_records_name_the_event_and_field(edit: Edit, expected: str | None) -> None:
    record = json.loads(dumps(GAME))
    edit(record)
    with pytest.raises(RecordError) as error:
        loads(json.dumps(record))
    if expected is None:
        assert (error.value.index, error.value.field) == (1, "after.points")
    else:
        assert str(error.value).startswith(expected), str(error.value)


def test_an_illegal_event_in_a_record_is_named() -> None:
    record = json.loads(dumps(GAME[:2]))
    record["events"].append({"type": "riichi", "seat": 2})
    with pytest.raises(RecordError, match=r"^event 2 \(riichi\), field 'seat': seat 2 has "
                                          "already declared riichi"):
        loads(json.dumps(record))


def test_not_json_at_all() -> None:
    with pytest.raises(RecordError, match="^record: not JSON"):
        loads("{\"format\": ")
