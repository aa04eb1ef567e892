"""What comes from outside is bounded before anything is stored (security audit, issue 17).

Each refusal is a 400 naming the field and the allowed range, and leaves the game as it was;
the numbers are the ones that bricked the kiosk or answered 500 before (a 4,300-digit delta, a
start of 10**4299 points, 10**4298 yakuman, a body nested 100,000 deep).
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from kiosk.table.present import spreadsheet_safe
from tests.kiosk.conftest import Api, points

HUGE = "1" + "0" * 4299  # 10**4299, written as JSON: 4,300 digits
NEW_GAME = '{"players": ["Ann", "Bo", "Cy", "Di"], '


def post_raw(api: Api, path: str, body: str | bytes) -> object:
    return api.post(path, data=body.encode() if isinstance(body, str) else body,
                    headers={"Content-Type": "application/json"})


def snapshot(api: Api) -> tuple[str, int, list[int]]:
    state = api.get("/api/state").get_json()
    return state["game"]["id"], state["game"]["events"], points(api)


@pytest.mark.parametrize(("path", "body", "message"), [
    ("/api/corrections", f'{{"deltas": [{HUGE}, -{HUGE}, 0, 0], "reason": "x"}}',
     "deltas[0]: expected a whole number from -10,000,000 to 10,000,000, got a number of about "
     "4,300 digits"),
    ("/api/corrections", '{"deltas": [100, -10000001, 0, 0], "reason": "x"}',
     "deltas[1]: expected a whole number from -10,000,000 to 10,000,000, got -10000001"),
    ("/api/corrections", '{"deltas": [100, -100, 0, 0], "reason": "' + "r" * 201 + '"}',
     "reason: at most 200 characters, got 201"),
    ("/api/corrections", '{"deltas": [100, -100, 0, 0], "reason": "late\\u001b[2J"}',
     "reason: has a control character (U+001B) at position 4"),
    ("/api/games", NEW_GAME + '"ruleset": ["x"]}',
     "ruleset: expected a preset name such as 'tenhou', got ['x']"),
    ("/api/games", '{"players": ["\\ud800", "Bo", "Cy", "Di"]}',
     "players[0]: has a lone surrogate (U+D800) at position 0"),
    ("/api/games", '{"players": ["Ann", "Bo", "Cy", "' + "D" * 25 + '"]}',
     "players[3]: at most 24 characters, got 25"),
    ("/api/games", NEW_GAME + f'"options": {{"start_points": {HUGE}}}}}',
     "option start_points: expected a whole number from 1 to 10,000,000, got a number of about "
     "4,300 digits"),
    ("/api/games", NEW_GAME + '"options": {"min_han": 14}}',
     "option min_han: expected a whole number from 0 to 13, got 14"),
    ("/api/games", NEW_GAME + '"options": {"uma": "2000,10,-10,-20"}}',
     "option uma: expected a whole number from -1,000 to 1,000, got 2000"),
    ("/api/games", NEW_GAME + '"options": {"name": "\\u0000"}}',
     "option name: has a control character (U+0000) at position 0"),
    ("/api/score", f'{{"winner": 0, "quick": {{"yakuman": {HUGE[:-1]}}}}}',
     "quick.yakuman: expected a whole number from 0 to 10, got a number of about 4,299 digits"),
    ("/api/wins", '{"winner": 0, "discarder": 1, "quick": {"han": 101}}',
     "quick.han: expected a whole number from 0 to 100, got 101"),
    ("/api/score", '{"winner": 0, "quick": {"points": 100000000000000000000}}',
     "quick.points: expected a whole number from 0 to 10,000,000, got a number of about 21 "
     "digits"),
    ("/api/wins", '{"winner": 0, "hand": {"concealed": "' + "1m" * 150 + '", "win": "1m"}}',
     "hand.concealed: at most 200 characters of tiles, got 300"),
    ("/api/riichi", f'{{"seat": {HUGE}}}',
     "seat: expected a seat 0-3, got a number of about 4,300 digits"),
    ("/api/end", '{"reason": "x\\udc00"}', "reason: has a lone surrogate (U+DC00) at position 1"),
    ("/api/riichi", "[" * 100_000 + "]" * 100_000, "request body nested too deeply"),
    ("/api/riichi", '{"seat": NaN}', "malformed JSON: NaN is not a JSON number"),
], ids=["huge-delta", "delta-past-10M", "long-reason", "control-in-reason", "ruleset-list",
        "surrogate-name", "name-of-25", "huge-start-points", "min-han", "uma", "control-in-name",
        "huge-yakuman", "han-101", "points-1e20", "long-tiles", "huge-seat", "surrogate-reason",
        "nested-100000", "nan"])
def test_out_of_bounds_input_is_a_400_naming_the_field(api: Api, path: str, body: str,
                                                        message: str) -> None:
    before = snapshot(api)
    r = post_raw(api, path, body)
    assert (r.status_code, r.get_json()["error"]) == (400, message)
    assert snapshot(api) == before
    assert api.get("/").status_code == 200
    assert api.get("/api/standings").status_code == 200
    assert api.get("/api/history").status_code == 200


def test_bounds_still_let_a_real_game_through(api: Api) -> None:
    r = api.post("/api/games", {"players": ["Ann", "Bo", "Cy", "D" * 24], "ruleset": "jpml",
                                "options": {"start_points": 30000, "min_han": 2,
                                            "uma": "12,-1,-3,-8 | 1:12,-1,-3,-8;2:8,4,-4,-8"}})
    assert r.status_code == 201, r.get_json()
    r = api.post("/api/corrections", {"deltas": [10_000_000, -10_000_000, 0, 0],
                                      "reason": "r" * 200})
    assert r.status_code == 200, r.get_json()
    assert points(api) == [10_030_000, -9_970_000, 30000, 30000]


def test_a_json_body_past_4_mb_is_a_413(api: Api) -> None:
    before = snapshot(api)
    r = post_raw(api, "/api/riichi", '{"seat": 1, "pad": "' + "x" * (4 * 1024 * 1024) + '"}')
    assert (r.status_code, r.get_json()["error"]) == (
        413, "request body too large (at most 4,096 KB of JSON)")
    assert snapshot(api) == before


def _record(api: Api, edit: dict[str, object]) -> bytes:
    """The current game's exported record with one event's fields changed."""
    api.post("/api/riichi", {"seat": 1})
    api.post("/api/corrections", {"deltas": [100, -100, 0, 0], "reason": "x"})
    record = json.loads(api.get("/api/export.json").data)
    index = edit.pop("event")
    assert isinstance(index, int)
    record["events"][index].update(edit)
    record["events"][index].pop("after", None)
    return json.dumps(record).encode()


@pytest.mark.parametrize(("edit", "message"), [
    ({"event": 0, "players": ["A" * 25, "B", "C", "D"]},
     "event 0 (game_started), field 'players[0]': at most 24 characters, got 25"),
    ({"event": 0, "players": ["A\u0085", "B", "C", "D"]},
     "event 0 (game_started), field 'players[0]': has a control character (U+0085) at "
     "position 1"),
    ({"event": 2, "transfers": [{"payer": 1, "payee": 0, "points": 10**4299}]},
     "event 2 (correction), field 'transfers[0].points': expected a whole number from 1 to "
     "10,000,000, got a number of about 4,300 digits"),
    ({"event": 2, "reason": "\ud800"},
     "event 2 (correction), field 'reason': has a lone surrogate (U+D800) at position 0"),
], ids=["name-of-25", "control-in-name", "huge-points", "surrogate-reason"])
def test_import_bounds_every_field_before_storing(api: Api, edit: dict[str, object],
                                                  message: str) -> None:
    record = _record(api, edit)
    games = api.get("/api/games").get_json()["games"]
    r = api.post("/api/import", data=record)
    assert (r.status_code, r.get_json()["error"]) == (400, f"cannot import the record: {message}")
    assert api.get("/api/games").get_json()["games"] == games


def test_import_of_a_record_nested_too_deeply(api: Api) -> None:
    r = api.post("/api/import", data=b'{"events": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    assert (r.status_code, r.get_json()["error"]) == (
        400, "cannot import the record: record: not JSON: nested too deeply: more than 32 levels")
    assert len(api.get("/api/games").get_json()["games"]) == 1


def test_csv_export_keeps_formulas_as_text(api: Api) -> None:
    api.post("/api/games", {"players": ["=cmd|' /C calc'!A0", "+Bo", "-Cy", "@Di"],
                            "ruleset": "mleague"})
    api.post("/api/riichi", {"seat": 0})
    api.post("/api/end", {"reason": "time"})
    rows = list(csv.reader(io.StringIO(api.get("/api/export.csv").get_data(as_text=True))))
    assert rows[0][3:7] == ["'=cmd|' /C calc'!A0 change", "'+Bo change", "'-Cy change",
                            "'@Di change"]
    assert rows[2][2:7] == ["riichi: =cmd|' /C calc'!A0", "-1000", "0", "0", "0"]
    # Standings: the riichi stick left on the table goes to first place (Bo, by seat order).
    assert [row[:3] for row in rows[-4:]] == [["1", "'+Bo", "26000"], ["2", "'-Cy", "25000"],
                                              ["3", "'@Di", "25000"],
                                              ["4", "'=cmd|' /C calc'!A0", "24000"]]


@pytest.mark.parametrize(("cell", "safe"), [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("Ann", "Ann"), ("", ""), (-1000, -1000), (2.5, 2.5),
])
def test_spreadsheet_safe(cell: object, safe: object) -> None:
    assert spreadsheet_safe(cell) == safe
