"""A real kiosk (its SQLite store, its API through Flask's test client) joined to a real parlor
served by uvicorn on a free port, on SQLite and on PostgreSQL: every event arrives once and in
order, undo included; a restart resumes; a revoked token stops nothing at the table."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from kiosk.parlor.link import outbox_state
from kiosk.parlor.store.registry import ParlorStore
from kiosk.services import Services
from tests.kiosk.conftest import Api, make_kiosk
from tests.kiosk.parlor.conftest import join_kiosk, kiosk_events, parlor_events
from tests.kiosk.parlor.net import ParlorServer, Proxy

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


@pytest.fixture
def parlor(parlor_app: Flask) -> Iterator[ParlorServer]:
    server = ParlorServer(parlor_app).start()
    yield server
    server.stop()


@pytest.fixture
def joined(tmp_path: Path, parlor: ParlorServer,
           parlor_store: ParlorStore) -> Iterator[tuple[Api, Services]]:
    token = parlor_store.add_table("Table 1")
    app, services = join_kiosk(tmp_path, parlor.url, "Table 1", token)
    yield Api(app.test_client()), services
    services.stop()


def ok(answer: Any) -> Any:
    assert answer.status_code in (200, 201), answer.get_json()
    return answer.get_json()


def play_a_game_with_undos(api: Api) -> None:
    ok(api.post("/api/games", {"players": PLAYERS, "ruleset": "tenhou"}))
    ok(api.post("/api/riichi", {"seat": 2}))
    ok(api.post("/api/wins", {"winner": 2, "discarder": 0, "quick": {"han": 3, "fu": 30}}))
    ok(api.post("/api/draws", {"tenpai": [0, 1]}))
    ok(api.post("/api/undo"))
    ok(api.post("/api/undo"))
    ok(api.post("/api/redo"))  # the win again
    ok(api.post("/api/draws", {"tenpai": [3]}))  # another event where the draw was
    ok(api.post("/api/riichi", {"seat": 1}))
    ok(api.post("/api/undo"))


def test_every_event_arrives_once_and_in_order(joined: tuple[Api, Services],
                                               parlor_store: ParlorStore) -> None:
    api, services = joined
    first = ok(api.get("/api/state"))["game"]["id"]  # the fresh kiosk's own first game
    play_a_game_with_undos(api)
    ok(api.post("/api/games/" + first + "/resume"))  # back to an older game, played on
    ok(api.post("/api/riichi", {"seat": 0}))
    assert services.outbox.flush(20)
    mine = kiosk_events(services)
    assert len(mine) == 2 and parlor_events(parlor_store, "Table 1") == mine
    assert services.outbox.stats.failures == 0


def test_a_restart_resumes_where_the_parlor_is(tmp_path: Path, parlor: ParlorServer,
                                               parlor_store: ParlorStore) -> None:
    token = parlor_store.add_table("Table 1")
    app, services = join_kiosk(tmp_path, parlor.url, "Table 1", token)
    play_a_game_with_undos(Api(app.test_client()))
    assert services.outbox.flush(20)
    services.stop()
    app, services = join_kiosk(tmp_path, parlor.url, "Table 1", token)  # same data folder
    try:
        api = Api(app.test_client())
        ok(api.post("/api/riichi", {"seat": 3}))
        ok(api.post("/api/draws", {"tenpai": [3]}))
        assert services.outbox.flush(20)
        assert services.outbox.stats.sent_events == 2  # only what was new
        assert parlor_events(parlor_store, "Table 1") == kiosk_events(services)
    finally:
        services.stop()


def test_undos_while_the_parlor_is_away_arrive_as_undos(tmp_path: Path, parlor: ParlorServer,
                                                        parlor_store: ParlorStore) -> None:
    token = parlor_store.add_table("Table 1")
    proxy = Proxy(parlor.port)
    app, services = join_kiosk(tmp_path, proxy.url, "Table 1", token)
    try:
        api = Api(app.test_client())
        play_a_game_with_undos(api)
        assert services.outbox.flush(20)
        proxy.cut()
        for _ in range(3):
            ok(api.post("/api/undo"))  # events the parlor holds, gone at the table
        ok(api.post("/api/riichi", {"seat": 0}))
        time.sleep(0.5)
        assert outbox_state.unsent(services.game.log) > 0  # type: ignore[arg-type]
        proxy.mend()
        assert services.outbox.flush(20)
        assert parlor_events(parlor_store, "Table 1") == kiosk_events(services)
    finally:
        services.stop()
        proxy.close()


def test_scoring_never_waits_for_the_parlor(tmp_path: Path, parlor: ParlorServer,
                                            parlor_store: ParlorStore) -> None:
    token = parlor_store.add_table("Table 1")
    proxy = Proxy(parlor.port)
    proxy.cut("hang")  # takes the connection, never answers: the outbox waits its timeout
    app, services = join_kiosk(tmp_path, proxy.url, "Table 1", token)
    try:
        api = Api(app.test_client())
        ok(api.post("/api/games", {"players": PLAYERS, "ruleset": "tenhou"}))
        time.sleep(0.3)  # the outbox is now stuck in its post
        began = time.monotonic()
        for seat in range(4):
            ok(api.post("/api/riichi", {"seat": seat}))
        ok(api.post("/api/draws", {"tenpai": [0, 1, 2, 3]}))
        assert time.monotonic() - began < 2.0  # the post's timeout is 3 s
        proxy.cut("up")
        assert services.outbox.flush(30)
        assert parlor_events(parlor_store, "Table 1") == kiosk_events(services)
    finally:
        services.stop()
        proxy.close()


def test_a_revoked_token_stops_nothing_at_the_table(
        tmp_path: Path, parlor: ParlorServer, parlor_store: ParlorStore,
        caplog: pytest.LogCaptureFixture) -> None:
    token = parlor_store.add_table("Table 1")
    app, services = join_kiosk(tmp_path, parlor.url, "Table 1", token)
    api = Api(app.test_client())
    ok(api.post("/api/riichi", {"seat": 0}))
    assert services.outbox.flush(20)
    parlor_store.revoke_table("Table 1")
    ok(api.post("/api/draws", {"tenpai": [0]}))  # the table plays on
    ok(api.post("/api/riichi", {"seat": 1}))
    deadline = time.monotonic() + 10
    while "refused" not in services.outbox.stats.last_error:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert "401" in services.outbox.stats.last_error
    assert sum(len(v) for v in parlor_events(parlor_store, "Table 1").values()) == 2
    refusals = [r for r in caplog.records if "refused table" in r.getMessage()]
    assert len(refusals) == 1  # logged once, not per retry
    services.stop()
    fresh = parlor_store.add_table("Table 1", replace=True)  # staff issue a new token
    app, services = join_kiosk(tmp_path, parlor.url, "Table 1", fresh)
    try:
        assert services.outbox.flush(20)
        assert parlor_events(parlor_store, "Table 1") == kiosk_events(services)
    finally:
        services.stop()


def test_a_kiosk_without_a_parlor_is_as_before(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path)
    services.start(camera=False, recogniser=False)
    try:
        assert services.outbox is None
        api = Api(app.test_client())
        ok(api.post("/api/riichi", {"seat": 0}))
        state = ok(api.post("/api/undo"))
        assert state["game"]["events"] == 1
    finally:
        services.stop()
