"""A change sent twice with one `Idempotency-Key` is recorded once (issue 35, item 3), on the real
app with real SQLite and PostgreSQL stores: a repeat (the first answer lost on the way) gets the
first answer and changes nothing, also after a restart; the same key with another request is
refused; malformed keys are refused naming the header.

Expected points (Tenhou rules): Bun (South, not the dealer) wins 2 han 30 fu by tsumo in East 1:
500 from each non-dealer, 1,000 from the dealer: Aki 24,000, Bun 27,000, Chie 24,500, Dai
24,500, and the deal passes to Bun (East 2). Recorded twice it would be East 2's dealer tsumo
(1,000 all) as well. Chie's chombo is a reverse mangan: 4,000 to the dealer, 2,000 to each other.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from flask import Flask

from kiosk.services import Services
from kiosk.store import receipts as store_receipts
from kiosk.store.event_log import Conflict, EventStore
from kiosk.store.persist import open_store as open_store_at
from kiosk.store.receipts import Receipt
from scorer.rules import RULESETS
from scorer.table import GameStarted, IllegalEvent, RiichiDeclared
from tests.kiosk.conftest import Api, make_kiosk
from tests.kiosk.server import get_json, running_kiosk

KEY = "tap-3f1c2b9e8d7a6f5e4d3c2b1a"
TSUMO = {"winner": 1, "discarder": None, "quick": {"han": 2, "fu": 30}}
AFTER_TSUMO = [24000, 27000, 24500, 24500]
Kiosk = Callable[[], Any]  # opens the kiosk (again) on the same store: (app, services)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def reopen(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Any]]:
    """Opens the kiosk on one store; called again, a restart (the last one is stopped)."""
    options: dict[str, str] = {}
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_url")
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("DROP TABLE IF EXISTS receipts, events, games, store_meta CASCADE")
        options["database_url"] = url
    running: list[Services] = []

    @contextmanager
    def kiosk() -> Iterator[tuple[Flask, Services]]:
        app, services = make_kiosk(tmp_path, **options)
        services.start(recogniser=False)
        running.append(services)
        try:
            yield app, services
        finally:
            services.stop()
            running.remove(services)
    yield kiosk


def post(api: Api, path: str, body: Any, key: str = KEY) -> Any:
    return api.post(path, json=body, headers={"Idempotency-Key": key})


def table(api: Api) -> tuple[list[int], str, int]:
    """Points, the round's label and how many events the game holds."""
    s = api.get("/api/state").get_json()
    return [x["points"] for x in s["seats"]], s["label"], s["game"]["events"]


def new_game(api: Api) -> None:
    assert api.post("/api/games", json={"players": ["Aki", "Bun", "Chie", "Dai"],
                                        "ruleset": "tenhou"}).status_code == 201


def test_a_tsumo_sent_twice_is_recorded_once_and_answered_alike(reopen: Kiosk) -> None:
    with reopen() as (app, _):
        api = Api(app.test_client())
        new_game(api)
        first, again = post(api, "/api/wins", TSUMO), post(api, "/api/wins", TSUMO)
        assert first.status_code == again.status_code == 201
        assert first.get_json()["deltas"] == [-1000, 2000, -500, -500]
        assert again.get_json() == first.get_json()
        assert again.headers["Idempotent-Replayed"] == "true"
        assert "Idempotent-Replayed" not in first.headers
        assert table(api) == (AFTER_TSUMO, "East 2, 0 honba", 2)
        history = api.get("/api/history").get_json()["entries"]
        assert [e["round"] for e in history][1:] == ["East 1, 0 honba"]


@pytest.mark.parametrize("path, body, after", [
    # No one tenpai: no payments, the deal passes once (to Bun), one honba.
    ("/api/draws", {"tenpai": []}, ([25000] * 4, "East 2, 1 honba", 2)),
    ("/api/aborts", {"kind": "four_winds"}, ([25000] * 4, "East 1, 1 honba", 2)),
    ("/api/chombo", {"seat": 2}, ([29000, 27000, 17000, 27000], "East 1, 0 honba", 2)),
    ("/api/riichi", {"seat": 0}, ([24000, 25000, 25000, 25000], "East 1, 0 honba", 2)),
], ids=["draw", "abort", "chombo", "riichi"])
def test_each_change_sent_twice_is_recorded_once(
        reopen: Kiosk, path: str, body: dict[str, Any],
        after: tuple[list[int], str, int]) -> None:
    with reopen() as (app, _):
        api = Api(app.test_client())
        new_game(api)
        first, again = post(api, path, body), post(api, path, body)
        assert first.status_code == again.status_code == 200
        assert again.get_json() == first.get_json()
        assert table(api) == after


def test_a_repeat_after_a_restart_gets_the_first_answer(reopen: Kiosk) -> None:
    with reopen() as (app, _):
        api = Api(app.test_client())
        new_game(api)
        first = post(api, "/api/wins", TSUMO)
    with reopen() as (app, _):  # the kiosk restarted before the page heard the answer
        api = Api(app.test_client())
        again = post(api, "/api/wins", TSUMO)
        assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
        assert again.get_json() == first.get_json()
        assert table(api) == (AFTER_TSUMO, "East 2, 0 honba", 2)


def test_two_copies_at_once_record_one_change(reopen: Kiosk) -> None:
    with reopen() as (app, _):
        new_game(Api(app.test_client()))
        apis = [Api(app.test_client()) for _ in range(2)]
        answers: list[Any] = [None, None]
        go = threading.Barrier(2)

        def send(i: int) -> None:
            go.wait()
            answers[i] = post(apis[i], "/api/wins", TSUMO)
        threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert [a.status_code for a in answers] == [201, 201]
        assert answers[0].get_json() == answers[1].get_json()
        assert sorted(a.headers.get("Idempotent-Replayed", "") for a in answers) == ["", "true"]
        assert table(apis[0]) == (AFTER_TSUMO, "East 2, 0 honba", 2)


def test_the_same_key_with_another_change_is_refused(reopen: Kiosk) -> None:
    with reopen() as (app, _):
        api = Api(app.test_client())
        new_game(api)
        assert post(api, "/api/riichi", {"seat": 0}).status_code == 200
        other = post(api, "/api/riichi", {"seat": 1})
        assert other.status_code == 422
        assert other.get_json()["code"] == "idempotency_key_reused"
        assert other.get_json()["field"] == "Idempotency-Key"
        assert post(api, "/api/chombo", {"seat": 0}).status_code == 422
        assert table(api) == ([24000, 25000, 25000, 25000], "East 1, 0 honba", 2)


def test_keys_are_scoped_to_the_game_and_a_new_game_is_kept_too(reopen: Kiosk) -> None:
    with reopen() as (app, _):
        api = Api(app.test_client())
        players = {"players": ["Eri", "Fumi", "Gen", "Hana"], "ruleset": "tenhou"}
        created = post(api, "/api/games", players, key="new-game-0000000000001")
        again = post(api, "/api/games", players, key="new-game-0000000000001")
        assert created.status_code == again.status_code == 201
        assert again.get_json()["game"]["id"] == created.get_json()["game"]["id"]
        assert api.get("/api/games").get_json()["total"] == 2  # the kiosk's first, and this
        post(api, "/api/wins", TSUMO)
        new_game(api)
        # The same key in the next game is a new action there.
        assert post(api, "/api/wins", TSUMO).headers.get("Idempotent-Replayed") is None
        assert table(api) == (AFTER_TSUMO, "East 2, 0 honba", 2)


def test_a_refused_change_keeps_nothing_and_may_be_sent_again(reopen: Kiosk) -> None:
    with reopen() as (app, _):
        api = Api(app.test_client())
        new_game(api)
        post(api, "/api/riichi", {"seat": 0}, key="riichi-one-0000000001")
        twice = post(api, "/api/riichi", {"seat": 0}, key="riichi-two-0000000002")
        assert (twice.status_code, twice.get_json()["code"]) == (422, "riichi_twice")
        assert post(api, "/api/undo", {}, key="undo-000000000000001").status_code == 200
        # Now allowed: the refused key recorded nothing, so it is tried again.
        assert post(api, "/api/riichi", {"seat": 0}, key="riichi-two-0000000002").status_code \
            == 200
        assert table(api) == ([24000, 25000, 25000, 25000], "East 1, 0 honba", 2)


@pytest.mark.parametrize("key", ["", "short-key", "x" * 65, "has space in the key 01",
                                 "ключ-ключ-ключ-ключ"], ids=["empty", "short", "long", "space",
                                                            "non-ascii"])
def test_a_malformed_key_is_refused_naming_the_header(api: Api, key: str) -> None:
    before = table(api)
    r = api.post("/api/riichi", json={"seat": 0},
                 headers={"Idempotency-Key": key.encode().decode("latin-1")})
    assert r.status_code == 400
    assert r.get_json()["code"] == "idempotency_key"
    assert r.get_json()["field"] == "Idempotency-Key"
    assert r.get_json()["error"].startswith("Idempotency-Key: expected 16-64")
    assert table(api) == before
    # Also where the key is not kept (a photo upload, the PIN): checked on every change.
    assert api.post("/api/captures", headers={"Idempotency-Key": "bad"}).status_code == 400


def session(host: str) -> dict[str, str]:
    """The kiosk's own screen's session: its cookie and CSRF token, as headers."""
    c = http.client.HTTPConnection(host, timeout=10)
    c.request("GET", "/api/session")
    answer = c.getresponse()
    cookie = answer.getheader("Set-Cookie", "").split(";")[0]
    csrf = json.loads(answer.read())["csrf"]
    c.close()
    return {"Cookie": cookie, "X-CSRF-Token": csrf}


def test_an_answer_dropped_on_the_way_is_sent_again_from_the_store(tmp_path: Path) -> None:
    """The real server: the client sends the win and goes before reading the answer; the same
    request again gets the first answer, and the win is recorded once."""
    with running_kiosk(tmp_path / "data", "--camera", "none") as base:
        host = base.removeprefix("http://")
        state = get_json(base + "/api/state")
        body = json.dumps(TSUMO).encode()
        headers = {"Content-Type": "application/json", "Idempotency-Key": KEY, **session(host)}

        lost = http.client.HTTPConnection(host, timeout=10)
        lost.request("POST", "/api/wins", body, headers)
        deadline = time.monotonic() + 10
        while get_json(base + "/api/state")["game"]["events"] == state["game"]["events"]:
            assert time.monotonic() < deadline, "the first request was never recorded"
            time.sleep(0.05)
        lost.close()  # the answer is never read

        again = http.client.HTTPConnection(host, timeout=10)
        again.request("POST", "/api/wins", body, headers)
        answer = again.getresponse()
        assert (answer.status, answer.getheader("Idempotent-Replayed")) == (201, "true")
        sent = json.loads(answer.read())
        again.close()
        assert sent["deltas"] == [-1000, 2000, -500, -500]
        now = get_json(base + "/api/state")
        assert sent["state"] == now
        assert [s["points"] for s in now["seats"]] == AFTER_TSUMO
        assert now["game"]["events"] == state["game"]["events"] + 1


# --- the store: the receipt and the change in one transaction, on both databases ---------------

START = GameStarted(("Ana", "Ben", "Chie", "Dai"), RULESETS["tenhou"])


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Any]]:
    """Opens (again) one store: a restart."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    if request.param == "postgres":
        url = request.getfixturevalue("postgres_url")
        with psycopg.connect(url, autocommit=True) as db:
            db.execute("DROP TABLE IF EXISTS receipts, events, games, store_meta CASCADE")
    opened: list[EventStore] = []

    def again() -> EventStore:
        opened.append(open_store_at(url))
        return opened[-1]
    yield again
    for store in opened:
        store.close()


def kept(key: str, body: str = '{"ok": true}') -> Callable[[str], Receipt]:
    return lambda game_id: Receipt(key, "f" * 64, 200, body.replace("GAME", game_id))


def test_a_receipt_is_stored_with_its_change_and_read_after_a_reopen(open_store: Any) -> None:
    store = open_store()
    game = store.create(START, kept("start-key-000000000000", '{"game": "GAME"}'))
    store.append(game, 1, RiichiDeclared(0), kept("riichi-key-00000000000"))
    again = open_store()
    assert again.receipt(game, "start-key-000000000000") == Receipt(
        "start-key-000000000000", "f" * 64, 200, f'{{"game": "{game}"}}')
    assert again.receipt(game, "riichi-key-00000000000") == Receipt(
        "riichi-key-00000000000", "f" * 64, 200, '{"ok": true}')
    assert again.receipt(game, "never-sent-000000000000") is None


def test_a_refused_change_keeps_no_receipt_and_a_used_key_adds_no_event(
        open_store: Any) -> None:
    store = open_store()
    game = store.create(START)
    store.append(game, 1, RiichiDeclared(0), kept("riichi-key-00000000000"))
    with pytest.raises(IllegalEvent):  # a second riichi this hand: nothing of it is stored
        store.append(game, 2, RiichiDeclared(0), kept("second-riichi-00000000"))
    assert store.receipt(game, "second-riichi-00000000") is None
    with pytest.raises(Conflict):  # a second process with the same key: refused whole
        store.append(game, 2, RiichiDeclared(1), kept("riichi-key-00000000000"))
    assert store.events(game) == [START, RiichiDeclared(0)]


def test_only_the_newest_receipts_are_kept(open_store: Any,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_receipts, "KEPT", 2)
    store = open_store()
    game = store.create(START)
    for seat in range(4):
        store.append(game, 1 + seat, RiichiDeclared(seat), kept(f"riichi-{seat}-000000000000"))
    assert [store.receipt(game, f"riichi-{seat}-000000000000") is not None
            for seat in range(4)] == [False, False, True, True]
