"""A whole game with chips and four red fives (issue 39, "Done when"): played through the kiosk's
API under `parlor_four_reds`, read back from its SQLite file by a new kiosk (a restart), and sent
to the parlor, whose daily report and member statistics carry the chips and the money. Every
value is worked out by hand below from the preset's rules (scorer/rules.py), never by the code
under test.

parlor_four_reds: 25,000 start, 30,000 return (oka 20 to first), uma +10/+5/-5/-10, exact final
scores, bust below 0; red fives 1m 2p 1s; a chip each for a red five (open hands too), an ura
dora, ippatsu; a yakuman 10 chips on a ron; stakes 50 a thousand, 100 a chip, 400 a game each.

- East 1 (Aki deals): Bun riichi (24,000), ippatsu ron off Dai with 234m 340p 406p 678s 9s on 9s,
  ura indicator 8s (ura 9s, a pair: 2). Riichi 1 + ippatsu 1 + aka 2 + ura 2 = 6 han: haneman
  12,000, and the stick back: Bun 37,000, Dai 13,000. Chips: aka 2, ura 2, ippatsu 1 = 5 from
  Dai.
- East 2 (Bun deals): Chie tsumo, a pon of 5m with the red 0m, 234p 678p 340s 2s on 2s: tanyao 1
  + aka 2 (0m, 0s; open hands pay red-five chips here) = 3 han; 20 + 2 tsumo + 2 open pon of
  simples + 2 tanki = 26 -> 30 fu: base 960, Bun (dealer) pays 2,000, Aki and Dai 1,000 each.
  Aki 24,000, Bun 35,000, Chie 29,000, Dai 12,000. Chips: aka 2 from each: Chie +6.
- East 3 (Chie deals): Aki rons Dai with kokushi (119m 19p 19s 123456z on 7z): 32,000 and 10
  chips. Dai has -20,000: bust, the game ends. Aki 56,000.

Chips: Aki -2 + 10 = 8, Bun 5 - 2 = 3, Chie 6, Dai -5 - 2 - 10 = -17 (sum 0).
Final scores: Aki (56 - 30) + 10 + 20 = +56.0; Bun 5 + 5 = +10.0; Chie -1 - 5 = -6.0;
Dai -50 - 10 = -60.0 (sum 0).
Money: Aki 56.0 x 50 = 2,800 + 8 x 100 = 800 - 400 = 3,200; Bun 500 + 300 - 400 = 400;
Chie -300 + 600 - 400 = -100; Dai -3,000 - 1,700 - 400 = -5,100. Sum -1,600: the four fees.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask import Flask

from kiosk.parlor.store.registry import ParlorStore
from tests.kiosk.conftest import Api, make_kiosk
from tests.kiosk.parlor.conftest import Staff, kiosk_events
from tests.kiosk.parlor.test_api import post
from tests.kiosk.parlor.test_stats import confirm, stats

PLAYERS = ["Aki #00001", "Bun #00002", "Chie #00003", "Dai #00004"]
DORA = "1z"  # points at 2z: no dora in any hand below
CHIPS = [8, 3, 6, -17]
POINTS = [56000, 35000, 29000, -20000]
MONEY = [  # place, name, final score, chips, for the score, for chips, fee, total
    (1, "Aki #00001", 56.0, 8, 2800, 800, 400, 3200),
    (2, "Bun #00002", 10.0, 3, 500, 300, 400, 400),
    (3, "Chie #00003", -6.0, 6, -300, 600, 400, -100),
    (4, "Dai #00004", -60.0, -17, -3000, -1700, 400, -5100)]


def play(api: Api) -> None:
    started = api.post("/api/games", {"players": PLAYERS, "ruleset": "parlor_four_reds"})
    assert started.status_code == 201, started.get_json()
    assert api.post("/api/riichi", {"seat": 1}).status_code == 200
    first = {"winner": 1, "discarder": 3, "riichi": "riichi", "ippatsu": True,
             "hand": {"concealed": "234m340p406p678s9s", "win": "9s", "dora": DORA, "ura": "8s"}}
    key = {"Idempotency-Key": "chips-game-east-1-0123456789"}
    won = api.post("/api/wins", first, headers=key)
    assert won.status_code == 201, won.get_json()
    chips = won.get_json()["breakdowns"][0]["chips"]
    assert chips["text"] == "aka 2, ura 2, ippatsu: 5 chips from the discarder"
    assert (chips["each"], won.get_json()["state"]["seats"][1]["chips"]) == (5, 5)
    again = api.post("/api/wins", first, headers=key)  # a double tap: recorded once
    assert again.status_code == 201 and again.get_json() == won.get_json()
    second = {"winner": 2, "discarder": None, "hand": {
        "concealed": "234p678p340s2s", "win": "2s", "dora": DORA,
        "melds": [{"kind": "pon", "tiles": "505m", "called": "0m", "source": "kamicha"}]}}
    won = api.post("/api/wins", second)
    assert won.status_code == 201, won.get_json()
    assert won.get_json()["breakdowns"][0]["chips"]["text"] == "aka 2: 2 chips from each"
    third = {"winner": 0, "discarder": 3, "hand": {"concealed": "119m19p19s123456z", "win": "7z",
                                                    "dora": DORA}}
    won = api.post("/api/wins", third)
    assert won.status_code == 201, won.get_json()
    assert won.get_json()["breakdowns"][0]["chips"]["text"] == \
        "yakuman 1: 10 chips from the discarder"


def table(api: Api) -> dict[str, Any]:
    state = api.get("/api/state").get_json()
    out = api.get("/api/standings").get_json()
    return {"points": [s["points"] for s in state["seats"]],
            "chips": [s["chips"] for s in state["seats"]], "finished": state["finished"],
            "end": state["end_reason"], "final": [(r["name"], r["final"], r["chips"])
                                                  for r in out["standings"]],
            "money": out["money"]}


def test_a_whole_game_with_chips_and_four_reds(tmp_path: Path, parlor_app: Flask,
                                              parlor_store: ParlorStore, staff: Staff) -> None:
    app, services = make_kiosk(tmp_path / "kiosk")
    services.start(recogniser=False)
    try:
        play(Api(app.test_client()))
        seen = table(Api(app.test_client()))
        events = kiosk_events(services)
    finally:
        services.stop()
    assert seen["points"] == POINTS and seen["chips"] == CHIPS
    assert (seen["finished"], seen["end"]) == (True, "bust")
    assert seen["final"] == [(n, score, chips) for _, n, score, chips, *_ in MONEY]
    money = seen["money"]
    assert (money["rate"], money["chip"], money["game_fee"], money["top_fee"]) == (50, 100, 400, 0)
    assert [tuple(line[k] for k in ("place", "name", "score", "chips", "for_score", "for_chips",
                                    "fee", "total")) for line in money["lines"]] == MONEY

    # A restart: a new kiosk on the same SQLite file replays the same game, chips and money.
    app, services = make_kiosk(tmp_path / "kiosk")
    services.start(recogniser=False)
    try:
        assert table(Api(app.test_client())) == seen
        page = app.test_client().get("/standings").get_data(as_text=True)
        assert 'id="settlement"' in page
    finally:
        services.stop()

    # The parlor: the game as the kiosk stored it, its seats confirmed as the members.
    token = parlor_store.add_table("Table 1")
    for name in ("Aki", "Bun", "Chie", "Dai"):
        parlor_store.add_member(name)  # 00001-00004
    (game, bodies), = ((g, b) for g, b in events.items() if "Aki #00001" in b[0])
    sent = {"games": [{"game": game, "revision": 0, "events": [
        {"index": i, "event": json.loads(body)} for i, body in enumerate(bodies)]}]}
    assert post(parlor_app, token, sent).status_code == 200
    confirm(staff, {("Table 1", game): (0, 1, 2, 3)})
    # Chips moved: 8 + 3 + 6 = 17 won (17 paid); fees under the stakes: 4 x 400 = 1,600.
    report = staff.get("/api/report.csv").get_data(as_text=True).splitlines()
    assert report[0].endswith(",held_changes,chips,stake_fees")
    assert report[1].split(",")[1:] == ["Table 1", "1", "0", report[1].split(",")[4], "0.00",
                                        "0.00", "", "17", "1600"]
    day = staff.get("/api/games").get_json()["games"][0]
    assert [(s["chips"], s["money"]) for s in day["seats"]] == [(8, 3200), (3, 400), (6, -100),
                                                                 (-17, -5100)]
    for number, (_, _, score, chips, *_, total) in zip(("00001", "00002", "00003", "00004"),
                                                       MONEY, strict=True):
        got = stats(staff, number)
        assert (got["games"], got["average_score"], got["chips"], got["money"]) == \
            (1, score, chips, total)
    members = staff.get("/counter/members").get_data(as_text=True)
    assert "+3,200" in members and "-5,100" in members and "-17" in members
