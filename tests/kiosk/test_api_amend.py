"""Correcting a hand already played through the API (issue 38, item 5): the preview says what
changes, the apply is recorded once, and a restart replays the corrected game from SQLite.

The game is tests/scorer/test_table_amend.py's, played through the API (Tenhou's rules, quick
han and fu), so its worked values hold here: as played the table ends on (20900, 33400, 18600,
27100); hand 1 won by the dealer Aki instead of Bun ends it on (26900, 28800, 17100, 27200).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from kiosk.services import Services
from tests.kiosk.conftest import Api, make_kiosk, points

KEY = {"Idempotency-Key": "amend-hand-1-0123456789abcdef"}
AKI_WINS = {"win": {"winner": 0, "discarder": 2, "quick": {"han": 3, "fu": 30}}}


def play(api: Api) -> None:
    api.post("/api/games", {"players": ["Aki", "Bun", "Chie", "Dai"], "ruleset": "tenhou"})
    for path, body in [
        ("/api/wins", {"winner": 1, "discarder": 2, "quick": {"han": 3, "fu": 30}}),
        ("/api/wins", {"winner": 1, "discarder": None, "quick": {"han": 2, "fu": 30}}),
        ("/api/riichi", {"seat": 3}),
        ("/api/draws", {"tenpai": [1, 3]}),
        ("/api/wins", {"winner": 3, "discarder": 0, "quick": {"han": 1, "fu": 30}}),
    ]:
        assert api.post(path, body).status_code in (200, 201), path
    assert points(api) == [20900, 33400, 18600, 27100]


@pytest.fixture
def started(tmp_path: Path) -> Iterator[tuple[Flask, Services, Api]]:
    app, services = make_kiosk(tmp_path)
    services.start(camera=False, recogniser=False)
    api = Api(app.test_client())
    play(api)
    yield app, services, api
    services.stop()


def preview(api: Api, index: int, body: dict[str, Any]) -> dict[str, Any]:
    r = api.post(f"/api/history/{index}/preview", body)
    assert r.status_code == 200, r.get_json()
    return dict(r.get_json())


def test_the_preview_shows_each_later_hand_old_and_new_and_changes_nothing(
        started: tuple[Flask, Services, Api]) -> None:
    _, _, api = started
    out = preview(api, 1, AKI_WINS)
    assert [(c["index"], c["old"]["round"], c["new"]["round"]) for c in out["changes"]] == [
        (1, "East 1, 0 honba", "East 1, 0 honba"), (2, "East 2, 0 honba", "East 1, 1 honba"),
        (3, "East 2, 1 honba", "East 2, 0 honba"), (4, "East 2, 1 honba", "East 2, 0 honba"),
        (5, "East 2, 2 honba", "East 2, 1 honba")]
    # Bun's tsumo: 1,000 all by the dealer before; a non-dealer's 500/1,000 with 1 honba after.
    assert out["changes"][1]["old"]["deltas"] == [-1000, 3000, -1000, -1000]
    assert out["changes"][1]["new"]["deltas"] == [-1100, 2300, -600, -600]
    assert out["changes"][4]["old"]["deltas"] == [-1600, 0, 0, 2600]
    assert out["changes"][4]["new"]["deltas"] == [-1300, 0, 0, 2300]
    assert out["points"] == {"old": [20900, 33400, 18600, 27100],
                             "new": [26900, 28800, 17100, 27200]}
    assert out["changes"][0]["new"]["text"] == "Ron off Chie: Aki 3 han 30 fu"
    assert out["changes"][1]["new"]["round_text"] == "East 1, 1 honba"
    assert (out["dropped"], out["refusal"], out["events"]) == ([], None, 6)
    assert points(api) == [20900, 33400, 18600, 27100]  # nothing applied


def test_apply_is_recorded_once_and_a_restart_replays_it(
        started: tuple[Flask, Services, Api], tmp_path: Path) -> None:
    app, services, api = started
    shown = preview(api, 1, AKI_WINS)
    body = {**AKI_WINS, "game": shown["game"], "events": shown["events"]}
    first = api.post("/api/history/1", body, headers=KEY)
    assert first.status_code == 200, first.get_json()
    assert first.get_json()["state"]["seats"][0]["points"] == 26900
    assert first.get_json()["amendment"]["points"]["new"] == [26900, 28800, 17100, 27200]
    again = api.post("/api/history/1", body, headers=KEY)  # a lost answer, sent again
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert points(api) == [26900, 28800, 17100, 27200]
    services.stop()

    app, services = make_kiosk(tmp_path)  # a restart: the store's replay
    services.start(camera=False, recogniser=False)
    try:
        api = Api(app.test_client())
        state = api.get("/api/state").get_json()
        assert [s["points"] for s in state["seats"]] == [26900, 28800, 17100, 27200]
        assert (state["label"], state["game"]["events"]) == ("East 3, 0 honba", 6)
        entries = api.get("/api/history").get_json()["entries"]
        assert entries[1]["text"] == "Ron off Chie: Aki 3 han 30 fu"
        assert entries[2]["round"] == "East 1, 1 honba"
        assert entries[2]["deltas"] == [-1100, 2300, -600, -600]
        replayed = api.post("/api/history/1", body, headers=KEY)  # kept with the store
        assert replayed.headers["Idempotent-Replayed"] == "true"
        assert points(api) == [26900, 28800, 17100, 27200]
    finally:
        services.stop()


def test_the_tenpai_seats_of_a_draw_as_the_record_writes_an_event(
        started: tuple[Flask, Services, Api]) -> None:
    _, _, api = started
    event = {"event": {"type": "exhaustive_draw", "tenpai": [3]}}
    shown = preview(api, 4, event)
    assert shown["changes"][0]["new"]["deltas"] == [-1000, -1000, -1000, 3000]
    r = api.post("/api/history/4", {**event, "game": shown["game"], "events": 6})
    assert r.status_code == 200
    assert points(api) == [21400, 30900, 19100, 28600]
    assert api.get("/api/state").get_json()["label"] == "East 4, 0 honba"


def test_a_game_that_now_ends_earlier_is_shown_and_applied_only_when_accepted(
        started: tuple[Flask, Services, Api]) -> None:
    _, _, api = started
    yakuman = {"win": {"winner": 1, "discarder": 2, "quick": {"yakuman": 1}}}
    shown = preview(api, 1, yakuman)
    assert shown["dropped"] == [2, 3, 4, 5] and shown["finished"]["new"] is True
    assert shown["refusal"]["code"] == "game_over"
    assert shown["refusal"]["text"] == ("Event 3 can no longer happen: the game now ends "
                                        "before it (a player went bust)")
    body = {**yakuman, "game": shown["game"], "events": 6}
    refused = api.post("/api/history/1", body)
    assert refused.status_code == 409 and refused.get_json()["code"] == "amend_drops"
    assert points(api) == [20900, 33400, 18600, 27100]
    applied = api.post("/api/history/1", {**body, "drop_later": True})
    assert applied.status_code == 200
    state = api.get("/api/state").get_json()
    assert state["finished"] and state["game"]["events"] == 2
    assert points(api) == [25000, 57000, -7000, 25000]


def test_a_change_recorded_since_the_preview_refuses_the_correction(
        started: tuple[Flask, Services, Api]) -> None:
    _, _, api = started
    shown = preview(api, 1, AKI_WINS)
    api.post("/api/riichi", {"seat": 0})
    r = api.post("/api/history/1", {**AKI_WINS, "game": shown["game"], "events": 6})
    assert r.status_code == 409 and r.get_json()["code"] == "amend_changed"


@pytest.mark.parametrize(("index", "body", "status", "code"), [
    pytest.param(0, AKI_WINS, 404, "amend_no_event", id="the-start"),
    pytest.param(6, AKI_WINS, 404, "amend_no_event", id="past-the-end"),
    pytest.param(1, {**AKI_WINS, "event": {"type": "riichi", "seat": 1}}, 400,
                 "amend_event_or_win", id="both"),
    pytest.param(1, {"event": {"type": "win", "hands": "x"}}, 400, "amend_event_field",
                 id="bad-record-event"),
    pytest.param(4, {"event": {"type": "exhaustive_draw", "tenpai": [3, 1]}}, 422,
                 "amend_same", id="unchanged"),
    pytest.param(1, {"win": {"winner": 2, "discarder": 2, "quick": {"han": 1}}}, 400,
                 "ron_own_discard", id="own-discard"),
])
def test_a_correction_that_cannot_be_is_refused_with_its_code(
        started: tuple[Flask, Services, Api], index: int, body: dict[str, Any], status: int,
        code: str) -> None:
    _, _, api = started
    r = api.post(f"/api/history/{index}/preview", body)
    assert (r.status_code, r.get_json().get("code")) == (status, code), r.get_json()


def test_the_preview_in_japanese(started: tuple[Flask, Services, Api]) -> None:
    _, _, api = started
    api.post("/api/session/language", {"language": "ja"})
    shown = preview(api, 1, {"win": {"winner": 1, "discarder": 2, "quick": {"yakuman": 1}}})
    assert shown["refusal"]["text"] == "3件目はもう起こりえません：その前に対局が終わります（トビ）"
    assert shown["changes"][0]["new"]["round_text"] == "東1局 0本場"


def test_a_win_corrected_by_han_and_fu_keeps_the_chips_its_hand_took(tmp_path: Path) -> None:
    """parlor_four_reds (issue 39): the first hand of tests/kiosk/parlor/test_chips_money.py,
    Bun's riichi ippatsu ron off Dai, took aka 2, ura 2, ippatsu: 5 chips from Dai. Corrected
    to 3 han 40 fu (no tiles to count chips from), the hand still took them."""
    app, services = make_kiosk(tmp_path)
    services.start(camera=False, recogniser=False)
    try:
        api = Api(app.test_client())
        api.post("/api/games", {"players": ["Aki", "Bun", "Chie", "Dai"],
                                "ruleset": "parlor_four_reds"})
        assert api.post("/api/riichi", {"seat": 1}).status_code == 200
        won = api.post("/api/wins", {
            "winner": 1, "discarder": 3, "riichi": "riichi", "ippatsu": True,
            "hand": {"concealed": "234m340p406p678s9s", "win": "9s", "dora": "1z", "ura": "8s"}})
        assert won.status_code == 201, won.get_json()
        assert [s["chips"] for s in won.get_json()["state"]["seats"]] == [0, 5, 0, -5]
        body = {"win": {"winner": 1, "discarder": 3, "quick": {"han": 3, "fu": 40}}}
        shown = preview(api, 2, body)
        done = api.post("/api/history/2", {**body, "game": shown["game"],
                                           "events": shown["events"]})
        assert done.status_code == 200, done.get_json()
        seats = done.get_json()["state"]["seats"]
        # 3 han 40 fu ron, non-dealer: 5,200 + the riichi stick 1,000 -> Bun 25,000 - 1,000
        # + 6,200 = 30,200; Dai 25,000 - 5,200 = 19,800; the chips as played
        assert [s["points"] for s in seats] == [25000, 30200, 25000, 19800]
        assert [s["chips"] for s in seats] == [0, 5, 0, -5]
    finally:
        services.stop()


# A win scored from its tiles (Tenhou's rules): Bun's ron off Chie, 234m567m345p67s22p + 8s with
# the dora indicator 1p: tanyao, pinfu, dora 2, 4 han 30 fu, 7,700. The same hand typed again
# from a session in another language is scored in that language's words (yaku names, fu items,
# the summary, who pays whom), but it is the hand as recorded; so is the hand as the correction
# dialog types it again, its tiles sorted ("234567m22345p67s 8s").
TILES_WIN = {"winner": 1, "discarder": 2,
             "hand": {"concealed": "234m567m345p67s22p", "win": "8s", "dora": "1p"}}
RETYPED = {"winner": 1, "discarder": 2,
           "hand": {"concealed": "234567m22345p67s", "win": "8s", "dora": "1p"}}
QUICK_WIN = {"winner": 1, "discarder": 2, "quick": {"han": 3, "fu": 30}}
POINTS_WIN = {"winner": 1, "discarder": 2, "quick": {"points": 3900}}


def recorded(tmp_path: Path, win: dict[str, Any], lang: str) -> tuple[Services, Api]:
    """A kiosk whose game's one event is `win`, scored in a session in `lang`."""
    app, services = make_kiosk(tmp_path)
    services.start(camera=False, recogniser=False)
    api = Api(app.test_client())
    api.post("/api/games", {"players": ["Aki", "Bun", "Chie", "Dai"], "ruleset": "tenhou"})
    assert api.post("/api/session/language", {"language": lang}).status_code == 200
    won = api.post("/api/wins", win)
    assert won.status_code == 201, won.get_json()
    return services, api


@pytest.mark.parametrize(("scored_in", "typed_in"), [
    ("en", "ja"), ("en", "zh-Hans"), ("ja", "en"), ("zh-Hans", "ja"), ("en", "en")])
@pytest.mark.parametrize(("win", "again"), [
    pytest.param(TILES_WIN, TILES_WIN, id="tiles"), pytest.param(TILES_WIN, RETYPED, id="sorted"),
    pytest.param(QUICK_WIN, QUICK_WIN, id="han-fu"),
    pytest.param(POINTS_WIN, POINTS_WIN, id="points")])
def test_the_same_hand_from_a_session_in_any_language_changes_nothing(
        tmp_path: Path, win: dict[str, Any], again: dict[str, Any], scored_in: str,
        typed_in: str) -> None:
    services, api = recorded(tmp_path, win, scored_in)
    try:
        assert api.post("/api/session/language", {"language": typed_in}).status_code == 200
        r = api.post("/api/history/1/preview", {"win": again})
        assert (r.status_code, r.get_json()["code"]) == (422, "amend_same"), r.get_json()
        applied = api.post("/api/history/1", {"win": again, "game": services.game.game_id,
                                              "events": 2})
        assert (applied.status_code, applied.get_json()["code"]) == (422, "amend_same")
        assert points(api) == [25000, 25000 + (7700 if "hand" in win else 3900),
                               25000 - (7700 if "hand" in win else 3900), 25000]
    finally:
        services.stop()


@pytest.mark.parametrize(("dora", "hand", "won"), [
    # 5s wins on the same two-sided wait: tanyao, pinfu, dora 2 as well, 4 han 30 fu, 7,700
    pytest.param("1p", {"concealed": "234m567m345p67s22p", "win": "5s", "dora": "1p"}, 7700,
                 id="winning-tile"),
    # 2p shows the 3p as dora (once) instead of the 2p (twice): 3 han 30 fu, 3,900
    pytest.param("1p", {"concealed": "234m567m345p67s22p", "win": "8s", "dora": "2p"}, 3900,
                 id="dora-han"),
    # 1z and 2z show no dora of this hand: tanyao, pinfu, 2 han 30 fu, 2,000 either way, but
    # the record's indicator is corrected
    pytest.param("1z", {"concealed": "234m567m345p67s22p", "win": "8s", "dora": "2z"}, 2000,
                 id="dora-indicator"),
])
def test_another_hand_is_a_change_whatever_the_language(tmp_path: Path, dora: str,
                                                        hand: dict[str, Any],
                                                        won: int) -> None:
    win = {**TILES_WIN, "hand": {**TILES_WIN["hand"], "dora": dora}}
    services, api = recorded(tmp_path, win, "en")
    try:
        assert api.post("/api/session/language", {"language": "ja"}).status_code == 200
        out = preview(api, 1, {"win": {**win, "hand": hand}})
        assert out["changes"][0]["new"]["deltas"] == [0, won, -won, 0]
        assert out["event"]["hands"][0]["breakdown"]["tiles"]["dora"] == [hand["dora"]]
        applied = api.post("/api/history/1", {"win": {**win, "hand": hand},
                                              "game": out["game"], "events": 2})
        assert applied.status_code == 200, applied.get_json()
        assert points(api) == [25000, 25000 + won, 25000 - won, 25000]
        assert api.get("/api/export.json").get_json()["events"][1]["hands"][0]["hand"] == (
            "234567m345p67s22p" + hand["win"] + " win " + hand["win"])
    finally:
        services.stop()
