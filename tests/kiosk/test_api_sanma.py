"""Three-player (sanma) tables through the API: a whole game with a kita, a draw and a bust, kept
by the store across a restart and shown on the serial display; three names, three seats, and a
clear 400 for every field a four-player habit gets wrong (seat 3, four names, four uma values,
a kita count at four players or outside 0-4).

Expected points (tenhou_sanma: 35,000 start, tsumo loss, 200 a honba, 1,000 from each noten
player; 40,000 return, oka 15,000 to first, uma +20/0/-20, final scores rounded to the thousand,
500 up, first place taking the rest):

- East 1: seat 1 declares riichi (34,000, one stick) and wins by tsumo on 123p456p678p11s23s + 4s
  with one kita: riichi, menzen tsumo, pinfu and the kita's dora, 4 han 20 fu, base 1,280:
  1,300 from seat 2 and 2,600 from the dealer, seat 0; the fourth seat's share is not paid
  (tsumo loss), so 3,900 and the stick: 32,400 / 38,900 / 33,700.
- East 2 (dealer seat 1): a draw, seat 2 alone tenpai, 1,000 from each noten player:
  31,400 / 37,900 / 35,700; the dealer was noten, so the deal moves: East 3, 1 honba.
- East 3 (dealer seat 2): seat 2 rons seat 0 for a yakuman, 48,000 + 200: seat 0 at -16,800 is
  bust and the game ends: -16,800 / 37,900 / 83,900.
- Final: seat 1 37,900 rounds to 38,000, -2 + 0 = -2.0; seat 0 -16,800 rounds to -17,000,
  -57 - 20 = -77.0; seat 2 takes the rest, 79.0.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.display.protocol import HonbaFrame, StateFrame
from device.display.sim import SimDisplay
from device.display.state import DisplayState
from tests.device.peers import wait_until
from tests.kiosk.conftest import Api, make_kiosk, points

NAMES = ["Aki", "Bun", "Chie"]
TSUMO = {"winner": 1, "discarder": None,
         "hand": {"concealed": "123p456p678p11s23s", "win": "4s", "kita": 1}}
YAKUMAN_RON = {"winner": 2, "discarder": 0, "quick": {"yakuman": 1}}
#: Points after each change of the game above.
AFTER = {"start": [35000] * 3, "riichi": [35000, 34000, 35000], "tsumo": [32400, 38900, 33700],
         "draw": [31400, 37900, 35700], "ron": [-16800, 37900, 83900]}


def start(api: Api, ruleset: str = "tenhou_sanma", **body: Any) -> Any:
    r = api.post("/api/games", {"players": NAMES, "ruleset": ruleset, **body})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def play_the_game(api: Api) -> None:
    """The game of the module docstring, each change checked as it is made."""
    state = start(api)
    assert [s["points"] for s in state["seats"]] == AFTER["start"]
    assert [s["wind"] for s in state["seats"]] == [1, 2, 3] and state["game"]["kita"] is True
    assert api.post("/api/riichi", {"seat": 1}).status_code == 200
    assert points(api) == AFTER["riichi"]

    preview = api.post("/api/score", TSUMO).get_json()
    assert preview["summary"] == "4 han 20 fu — 1,300/2,600 (3,900)"
    assert [y["id"] for y in preview["yaku"]] == ["menzen_tsumo", "riichi", "pinfu"]
    assert preview["dora_lines"] == [{"id": "dora", "name": "Dora (kita 1 included)", "han": 1}]
    assert preview["kita"] == 1 and preview["payments"] == [-2600, 4900, -1300]
    assert [line["amount"] for line in preview["payment_lines"]] == [1300, 2600, 1000]
    r = api.post("/api/wins", TSUMO)
    assert r.status_code == 201 and r.get_json()["deltas"] == [-2600, 4900, -1300]
    assert points(api) == AFTER["tsumo"]

    state = api.post("/api/draws", {"tenpai": [2]}).get_json()
    assert [s["points"] for s in state["seats"]] == AFTER["draw"]
    assert (state["label"], state["dealer"]) == ("East 3, 1 honba", 2)

    r = api.post("/api/wins", YAKUMAN_RON)
    assert r.status_code == 201 and r.get_json()["deltas"] == [-48200, 0, 48200]
    state = r.get_json()["state"]
    assert [s["points"] for s in state["seats"]] == AFTER["ron"]
    assert state["finished"] and state["end_reason"] == "bust"


def check_the_end(api: Api) -> None:
    standings = api.get("/api/standings").get_json()
    assert [(r["name"], r["place"], r["points"], r["final"]) for r in standings["standings"]] == [
        ("Chie", 1, 83900, 79.0), ("Bun", 2, 37900, -2.0), ("Aki", 3, -16800, -77.0)]
    assert [(r["uma"], r["oka"]) for r in standings["standings"]] == [(20, 15), (0, 0), (-20, 0)]
    history = api.get("/api/history").get_json()
    assert history["players"] == NAMES and all(len(e["deltas"]) == 3 for e in history["entries"])
    assert history["entries"][2]["hands"][0]["text"] == (
        "Menzen tsumo 1, Riichi 1, Pinfu 1, Dora (kita 1 included) 1 — "
        "4 han 20 fu — 1,300/2,600 (3,900)")
    ja = api.get("/api/history?lang=ja")
    assert ja.status_code == 200


def test_a_whole_three_player_game_replays_from_the_store(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path)
    services.start(camera=False, recogniser=False)
    try:
        api = Api(app.test_client())
        play_the_game(api)
        check_the_end(api)
        record = api.get("/api/export.json").get_data(as_text=True)
        assert '"players": 3' in record or '"players":3' in record
    finally:
        services.stop()
    # A restart replays the stored events to the same table.
    app, services = make_kiosk(tmp_path)
    services.start(camera=False, recogniser=False)
    try:
        api = Api(app.test_client())
        assert points(api) == AFTER["ron"]
        check_the_end(api)
        games = api.get("/api/games").get_json()["games"]
        assert games[0]["players"] == NAMES and games[0]["points"] == AFTER["ron"]
    finally:
        services.stop()


@pytest.fixture
def sim() -> Iterator[tuple[SimDisplay, list[StateFrame | HonbaFrame]]]:
    shown: list[StateFrame | HonbaFrame] = []
    display = SimDisplay(show=shown.append)
    stop = threading.Event()
    thread = threading.Thread(target=lambda: [display.poll(0.05) for _ in iter(stop.is_set, True)])
    thread.start()
    yield display, shown
    stop.set()
    thread.join()
    display.close()


def test_the_serial_display_follows_a_three_player_game(
        tmp_path: Path, sim: tuple[SimDisplay, list[StateFrame | HonbaFrame]]) -> None:
    display, shown = sim
    app, services = make_kiosk(tmp_path, display=display.path)
    services.start(camera=False, recogniser=False)
    try:
        api = Api(app.test_client())
        start(api)

        def showing(table: list[int], **fields: Any) -> bool:
            return any(isinstance(m, StateFrame) and m.state.points == tuple(table)
                       and all(getattr(m.state, k) == v for k, v in fields.items())
                       for m in shown)

        assert wait_until(lambda: showing(AFTER["start"], riichi=(False,) * 3), 5.0)
        api.post("/api/riichi", {"seat": 1})
        assert wait_until(lambda: showing(AFTER["riichi"], riichi=(False, True, False),
                                          riichi_sticks=1), 2.0)
        api.post("/api/wins", TSUMO)
        assert wait_until(lambda: showing(AFTER["tsumo"], dealer=1, hand_number=2), 2.0)
        api.post("/api/draws", {"tenpai": [2]})
        assert wait_until(lambda: showing(AFTER["draw"], dealer=2, hand_number=3, honba=1), 2.0)
        api.post("/api/wins", YAKUMAN_RON)
        assert wait_until(lambda: showing(AFTER["ron"]), 2.0)
        last = [m for m in shown if isinstance(m, StateFrame)][-1].state
        # The dealer won: a honba more (renchan), though the bust ends the game there.
        assert last == DisplayState(1, 3, 2, 0, 2, tuple(AFTER["ron"]), (False,) * 3)
        assert display.garbled == 0  # every frame a three-seat RTC the simulator reads
    finally:
        services.stop()


@pytest.mark.parametrize("ruleset, names, words", [
    ("tenhou_sanma", ["A", "B", "C", "D"],
     "players: expected three non-empty names, East seat first (tenhou_sanma seats 3 players)"),
    ("tenhou", ["A", "B", "C"],
     "players: expected four non-empty names, East seat first (tenhou seats 4 players)"),
    ("tenhou_sanma", ["A", "", "C"], "players: expected three non-empty names"),
], ids=["four-at-sanma", "three-at-four", "blank"])
def test_one_name_a_seat(api: Api, ruleset: str, names: list[str], words: str) -> None:
    r = api.post("/api/games", {"players": names, "ruleset": ruleset})
    assert r.status_code == 400 and r.get_json()["error"].startswith(words)


def test_the_players_option_seats_three_with_three_uma_values(api: Api) -> None:
    state = start(api, "tenhou", options={"players": 3, "uma": "20,0,-20"})
    assert len(state["seats"]) == 3 and points(api) == [25000] * 3
    r = api.post("/api/games", {"players": NAMES, "ruleset": "tenhou", "options": {"players": 3}})
    assert r.status_code == 400
    assert r.get_json()["error"] == "option uma: 3 players need 3 values (1st to last), got 4"
    r = api.post("/api/games", {"players": NAMES, "ruleset": "tenhou_sanma",
                                "options": {"uma": "20,0,-10,-10,0"}})
    assert r.status_code == 400 and "needs four values (1st to 4th), or three" in \
        r.get_json()["error"]


@pytest.mark.parametrize("kita", [5, -1, "2", True, 1.5, None],
                         ids=["five", "negative", "text", "bool", "fraction", "null"])
def test_a_kita_count_outside_0_to_4_is_a_400_naming_it(api: Api, kita: Any) -> None:
    start(api)
    before = api.get("/api/state").get_json()
    body = {**TSUMO, "hand": {**TSUMO["hand"], "kita": kita}}
    for path in ("/api/score", "/api/wins"):
        r = api.post(path, body)
        assert r.status_code == 400, r.get_json()
        assert r.get_json()["error"].startswith("hand.kita: expected a whole number from 0 to 4")
    assert api.get("/api/state").get_json() == before


def test_kita_at_a_four_player_table_is_a_400_naming_it(api: Api) -> None:
    start(api, "tenhou", players=["A", "B", "C", "D"])
    body = {"winner": 1, "discarder": None,
            "hand": {"concealed": "123p456p678p11s23s", "win": "4s", "kita": 0}}
    r = api.post("/api/score", body)
    assert r.status_code == 400
    assert r.get_json()["error"] == ("hand.kita: tenhou pulls out no Norths (kita is for a "
                                     "three-player table with nukidora)")
    del body["hand"]["kita"]
    assert api.post("/api/score", body).status_code == 200  # without it the hand scores


def test_kita_count_toward_the_norths_of_a_set(api: Api) -> None:
    start(api)
    hand = {"concealed": "123p456p678p11s23s", "win": "4s", "kita": 4, "dora": "3z"}
    out = api.post("/api/score", {**TSUMO, "hand": hand}).get_json()
    # Four kita, each a dora and again for the West indicator pointing at North: 8 dora.
    assert out["dora_lines"] == [{"id": "dora", "name": "Dora (kita 4 included)", "han": 8}]
    r = api.post("/api/score", {**TSUMO, "hand": {**hand, "concealed": "123p456p678p44z4z"}})
    assert r.status_code == 422 and any("4z" in p for p in r.get_json()["problems"])


@pytest.mark.parametrize("path, body, words", [
    ("/api/riichi", {"seat": 3}, "seat: expected a seat 0-2, got 3"),
    ("/api/chombo", {"seat": 3}, "seat: expected a seat 0-2, got 3"),
    ("/api/draws", {"tenpai": [0, 3]}, "tenpai: 3 is not a seat 0-2"),
    ("/api/score", {**TSUMO, "winner": 3}, "winner: expected a seat 0-2, got 3"),
    ("/api/score", {**YAKUMAN_RON, "discarder": 3}, "discarder: expected a seat 0-2, got 3"),
    ("/api/score", {**TSUMO, "pao": 3}, "pao: expected a seat 0-2, got 3"),
    ("/api/corrections", {"deltas": [1000, -1000, 0, 0], "reason": "x"},
     "deltas: expected three whole numbers, one per seat"),
])
def test_there_is_no_seat_3_at_three_players(api: Api, path: str, body: dict[str, Any],
                                             words: str) -> None:
    start(api)
    r = api.post(path, body)
    assert r.status_code == 400 and r.get_json()["error"] == words
    assert points(api) == AFTER["start"]


def test_a_correction_and_a_chombo_at_three_players(api: Api) -> None:
    start(api)
    r = api.post("/api/corrections", {"deltas": [1000, -1000, 0], "reason": "miscount"})
    assert r.status_code == 200 and points(api) == [36000, 34000, 35000]
    r = api.post("/api/chombo", {"seat": 1})  # a reverse mangan, paid as a tsumo loss mangan
    assert r.status_code == 200 and sum(points(api)) == 105000


def test_north_as_a_value_tile_in_both_languages(api: Api) -> None:
    start(api, "mahjong_soul_sanma")
    set_ = {"winner": 1, "discarder": 0,
            "hand": {"concealed": "444z123p456p789s1s", "win": "1s"}}
    out = api.post("/api/score", set_).get_json()
    assert [(y["id"], y["name"]) for y in out["yaku"]] == [("yakuhai_north", "North (value tile)")]
    api.post("/api/session/language", {"language": "ja"})
    out = api.post("/api/score", set_).get_json()
    assert out["yaku"][0]["name"] == "役牌 北"
    pair = {"winner": 1, "discarder": None,
            "hand": {"concealed": "123p456p789s111s4z", "win": "4z"}}
    out = api.post("/api/score", pair).get_json()
    assert "雀頭 北（役牌）" in [f["text"] for f in out["fu_items"]]
    api.post("/api/session/language", {"language": "en"})
    out = api.post("/api/score", pair).get_json()
    assert "Pair of North wind (value tile)" in [f["text"] for f in out["fu_items"]]


def test_a_kiosk_set_to_a_sanma_preset_starts_with_three_seats(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path, ruleset="tenhou_sanma")
    services.start(camera=False, recogniser=False)
    try:
        state = Api(app.test_client()).get("/api/state").get_json()
        assert state["game"]["players"] == ["Player 1", "Player 2", "Player 3"]
        assert [s["points"] for s in state["seats"]] == AFTER["start"]
    finally:
        services.stop()
