"""The game endpoints: each one's success and its bad-input answers (never a 500, never a change).

Expected points come from the rule texts: riichi puts 1,000 on the table; noten payments split
3,000; a chombo is a reverse mangan (8,000 from a non-dealer: 2,000/4,000 to the others); an
abortive draw moves nothing and adds a honba.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.kiosk.conftest import Api, points


def test_a_fresh_kiosk_has_a_table_ready_to_play(api: Api) -> None:
    state = api.get("/api/state").get_json()
    assert [s["points"] for s in state["seats"]] == [25000] * 4
    assert [s["wind"] for s in state["seats"]] == [1, 2, 3, 4]
    assert state["seats"][0]["dealer"] and state["round_wind"] == 1 and state["hand"] == 1
    assert state["honba"] == 0 and state["riichi_sticks"] == 0 and not state["can_undo"]


def test_new_game_with_a_preset_and_changed_options(api: Api) -> None:
    r = api.post("/api/games", {"players": ["Ann", "Bo", "Cy", "Di"], "ruleset": "wrc",
                                "options": {"start_points": 30000, "kiriage": True}})
    assert r.status_code == 201
    state = r.get_json()
    assert state["game"]["ruleset"] == "wrc"
    assert [s["name"] for s in state["seats"]] == ["Ann", "Bo", "Cy", "Di"]
    assert points(api) == [30000] * 4
    rules = api.get("/api/history").get_json()["ruleset"]
    assert rules["kiriage"] is True and rules["red_fives"] is False  # WRC plays without red fives


@pytest.mark.parametrize("body, named", [
    ({"players": ["A", "B", "C"]}, "players"),
    ({"players": ["A", "B", "C", " "]}, "players"),
    ({"players": ["A", "B", "C", "D"], "ruleset": "nope"}, "nope"),
    ({"players": ["A", "B", "C", "D"], "options": {"kiriage": "yes"}}, "kiriage"),
    ({"players": ["A", "B", "C", "D"], "options": {"warp": 1}}, "warp"),
    ({"players": ["A", "B", "C", "D"], "options": {"kazoe": "double"}}, "kazoe"),
    ({"players": ["A", "B", "C", "D"], "options": {"uma": "1,2,3"}}, "uma"),
    ({"players": ["A", "B", "C", "D"], "first_dealer": 7}, "first_dealer"),
    ({"players": ["A", "B", "C", "D"], "colour": "red"}, "colour"),
], ids=["three-players", "blank-name", "unknown-preset", "bool-as-text", "unknown-option",
        "bad-enum", "short-uma", "bad-dealer", "unknown-field"])
def test_new_game_bad_input_is_400_naming_it(api: Api, body: dict, named: str) -> None:
    before = api.get("/api/state").get_json()["game"]["id"]
    r = api.post("/api/games", body)
    assert r.status_code == 400
    assert named in json.dumps(r.get_json())
    assert api.get("/api/state").get_json()["game"]["id"] == before


def test_malformed_json_is_400(api: Api) -> None:
    r = api.post("/api/riichi", data=b"{seat: 1", headers={"Content-Type": "application/json"})
    assert r.status_code == 400
    assert "malformed JSON" in r.get_json()["error"]
    assert api.post("/api/riichi", data=b"[1]").status_code == 400
    assert api.post("/api/riichi").get_json()["error"] == "expected a JSON body"


def test_riichi_moves_1000_to_the_table(api: Api) -> None:
    state = api.post("/api/riichi", {"seat": 2}).get_json()
    assert [s["points"] for s in state["seats"]] == [25000, 25000, 24000, 25000]
    assert state["riichi_sticks"] == 1 and state["seats"][2]["riichi"]


def test_riichi_refusals(api: Api) -> None:
    assert api.post("/api/riichi", {"seat": 4}).status_code == 400
    assert api.post("/api/riichi", {"seat": "1"}).status_code == 400
    api.post("/api/riichi", {"seat": 1})
    twice = api.post("/api/riichi", {"seat": 1})
    assert twice.status_code == 422 and "already declared riichi" in twice.get_json()["error"]
    api.post("/api/corrections", {"deltas": [23500, -23500, 0, 0], "reason": "test"})
    api.post("/api/draws", {"tenpai": [0, 1, 2, 3]})
    poor = api.post("/api/riichi", {"seat": 1})  # 500 points left: below 1,000
    assert poor.status_code == 422 and "riichi needs 1000" in poor.get_json()["error"]
    assert points(api) == [48500, 500, 25000, 25000]


def test_exhaustive_draw_pays_noten(api: Api) -> None:
    state = api.post("/api/draws", {"tenpai": [1]}).get_json()
    assert [s["points"] for s in state["seats"]] == [24000, 28000, 24000, 24000]
    assert state["honba"] == 1 and state["dealer"] == 1  # dealer noten: the deal moves on


@pytest.mark.parametrize("body", [{"tenpai": [5]}, {"tenpai": "0"}, {"tenpai": [True]}])
def test_exhaustive_draw_bad_input(api: Api, body: dict) -> None:
    assert api.post("/api/draws", body).status_code == 400
    assert points(api) == [25000] * 4


def test_abortive_draw(api: Api) -> None:
    state = api.post("/api/aborts", {"kind": "nine_terminals"}).get_json()
    assert points(api) == [25000] * 4 and state["honba"] == 1 and state["dealer"] == 0
    bad = api.post("/api/aborts", {"kind": "five_dragons"})
    assert bad.status_code == 400 and "nine_terminals" in bad.get_json()["error"]
    refused = api.post("/api/aborts", {"kind": "four_riichi"})  # nobody declared riichi
    assert refused.status_code == 422


def test_chombo_is_a_reverse_mangan(api: Api) -> None:
    api.post("/api/chombo", {"seat": 2})
    assert points(api) == [29000, 27000, 17000, 27000]
    assert api.post("/api/chombo", {"seat": None}).status_code == 400


def test_correction(api: Api) -> None:
    state = api.post("/api/corrections", {"deltas": [-1000, 0, 1000, 0],
                                          "reason": "miscount"}).get_json()
    assert [s["points"] for s in state["seats"]] == [24000, 25000, 26000, 25000]
    for body, named in [({"deltas": [1000, 0, 0, 0], "reason": "x"}, "sum to zero"),
                        ({"deltas": [0, 0, 0, 0], "reason": "x"}, "nothing"),
                        ({"deltas": [1, -1], "reason": "x"}, "four"),
                        ({"deltas": [100, -100, 0, 0], "reason": " "}, "reason")]:
        r = api.post("/api/corrections", body)
        assert r.status_code == 400 and named in r.get_json()["error"]
    assert points(api) == [24000, 25000, 26000, 25000]


def test_undo_and_redo(api: Api) -> None:
    assert api.post("/api/undo").status_code == 409  # only the start: nothing to undo
    api.post("/api/riichi", {"seat": 0})
    state = api.post("/api/undo").get_json()
    assert points(api) == [25000] * 4 and state["can_redo"]
    state = api.post("/api/redo").get_json()
    assert points(api) == [24000, 25000, 25000, 25000] and not state["can_redo"]
    assert api.post("/api/redo").status_code == 409


def test_an_undo_for_one_change_drops_nothing_once_another_followed(api: Api) -> None:
    """The Undo a page offers after a tap names the state that tap answered; a change made since
    (from a phone) is not dropped in its place."""
    mine = api.post("/api/riichi", {"seat": 0}).get_json()
    since = {"game": mine["game"]["id"], "events": mine["game"]["events"]}
    api.post("/api/riichi", {"seat": 1})  # another device, meanwhile
    r = api.post("/api/undo", since)
    assert r.status_code == 409 and "nothing was undone" in r.get_json()["error"]
    assert points(api) == [24000, 24000, 25000, 25000]
    api.post("/api/undo")
    assert api.post("/api/undo", since).status_code == 200  # the tap's change is last again
    assert points(api) == [25000] * 4
    for body, named in [({"events": 2}, "game"), ({"game": "x", "events": "2"}, "events"),
                        ({"game": "x", "events": 0}, "events"), ({"why": 1}, "why")]:
        r = api.post("/api/undo", body)
        assert r.status_code == 400 and named in r.get_json()["error"]

def test_history_lists_every_event(api: Api) -> None:
    api.post("/api/riichi", {"seat": 3})
    api.post("/api/draws", {"tenpai": [3]})
    entries = api.get("/api/history").get_json()["entries"]
    assert [e["type"] for e in entries] == ["game_started", "riichi", "exhaustive_draw"]
    assert entries[2]["deltas"] == [-1000, -1000, -1000, 3000]
    assert entries[2]["round"] == "East 1, 0 honba"


def test_end_game_gives_standings_with_uma_and_oka(api: Api) -> None:
    api.post("/api/corrections", {"deltas": [10000, 5000, -5000, -10000], "reason": "t"})
    out = api.post("/api/end", {"reason": "time"}).get_json()
    # Tenhou: 30,000 return, +20/+10/-10/-20 uma, oka 20 to first.
    assert [(r["name"], r["final"]) for r in out["standings"]] == [
        ("Player 1", 45.0), ("Player 2", 10.0), ("Player 3", -20.0), ("Player 4", -35.0)]
    assert out["finished"]
    assert api.post("/api/end").status_code == 409
    assert api.post("/api/riichi", {"seat": 0}).status_code == 422  # nothing after the end


def test_a_game_ended_with_no_reason_is_said_in_each_language_by_the_kiosk_and_the_replay(
        api: Api, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """End game with nothing typed stores the rules core's `ENDED_AT_TABLE` (the words records
    have always held); the kiosk's history and `python -m scorer table replay` say it in the
    language, a reason typed at the table as typed."""
    from scorer.__main__ import main
    from scorer.table import ENDED_AT_TABLE

    api.post("/api/end", {})
    record = api.get("/api/export.json").data
    assert json.loads(record)["events"][-1]["reason"] == ENDED_AT_TABLE == "ended at the table"
    api.post("/api/session/language", {"language": "ja"})
    text = api.get("/api/export.csv").get_data(as_text=True)
    assert "対局終了：卓で終了" in text and "ended at the table" not in text
    path = tmp_path / "game.json"
    path.write_bytes(record)
    for lang, said in (("en", "game ended: ended at the table; game over (called)"),
                       ("ja", "対局終了：卓で終了。終局（途中終了）"),
                       ("zh-Hans", "对局结束：在牌桌上结束。终局（由牌桌中止）")):
        assert main(["table", "replay", str(path), "--history", "--language", lang]) == 0
        assert said in capsys.readouterr().out


def test_provisional_standings_while_playing(api: Api) -> None:
    out = api.get("/api/standings").get_json()
    assert not out["finished"]
    assert [r["final"] for r in out["standings"]] == [35.0, 5.0, -15.0, -25.0]


def test_exports(api: Api) -> None:
    api.post("/api/riichi", {"seat": 1})
    record = api.get("/api/export.json")
    assert record.status_code == 200 and "attachment" in record.headers["Content-Disposition"]
    data = json.loads(record.data)
    assert [e["type"] for e in data["events"]] == ["game_started", "riichi"]
    rows = list(csv.reader(io.StringIO(api.get("/api/export.csv").get_data(as_text=True))))
    assert rows[0][:3] == ["index", "hand", "event"]
    assert rows[2][2] == "riichi: Player 2" and rows[2][3:7] == ["0", "-1000", "0", "0"]


def test_the_csv_export_is_in_the_session_s_language(api: Api) -> None:
    """Issue 18, item 6: a Japanese table's spreadsheet in Japanese, its columns and events."""
    api.post("/api/riichi", {"seat": 1})
    api.post("/api/session/language", {"language": "ja"})
    text = api.get("/api/export.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:4] == ["番号", "局", "内容", "Player 1 増減"]
    assert rows[2][1].startswith("東1局") and "リーチ" in rows[2][2]
    assert rows[2][3:7] == ["0", "-1000", "0", "0"]
    api.post("/api/end", {})
    rows = list(csv.reader(io.StringIO(api.get("/api/export.csv").get_data(as_text=True))))
    assert rows[-5][:3] == ["順位", "名前", "持ち点"]


def test_import_a_record(api: Api) -> None:
    api.post("/api/riichi", {"seat": 1})
    record = api.get("/api/export.json").data
    api.post("/api/undo")  # the stored game is no longer the record: importing it adds a game
    r = api.post("/api/import", data=record)
    assert r.status_code == 201 and r.get_json()["game"]["events"] == 2
    assert len(api.get("/api/games").get_json()["games"]) == 2
    edited = json.loads(record)
    edited["events"][1]["seat"] = 9
    bad = api.post("/api/import", data=json.dumps(edited).encode())
    assert bad.status_code == 400 and "event 1" in bad.get_json()["error"]
    assert api.post("/api/import", data=b"").status_code == 400
    assert len(api.get("/api/games").get_json()["games"]) == 2


def test_rulesets_lists_every_option(api: Api) -> None:
    out = api.get("/api/rulesets").get_json()
    names = {f["name"] for f in out["fields"]}
    assert {"kiriage", "uma", "pao", "double_ron", "start_points"} <= names
    assert out["presets"]["mleague"]["uma"] == "30,10,-10,-30"
    assert {"tenhou", "mahjong_soul", "mleague", "wrc", "ema", "casual"} <= set(out["presets"])


def test_unknown_api_path_is_json_404(api: Api) -> None:
    r = api.get("/api/nothing")
    assert r.status_code == 404 and r.get_json()["status"] == 404
