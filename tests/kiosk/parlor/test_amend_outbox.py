"""A hand corrected at a kiosk joined to a parlor (issue 38, item 5) reaches the parlor through
the outbox, in order and once, and the parlor's view of the game is the kiosk's after it.

The game is tests/scorer/test_table_amend.py's: as played it ends on (20900, 33400, 18600,
27100); hand 1 won by the dealer Aki instead of Bun re-pays every later hand to (26900, 28800,
17100, 27200), East 3, 0 honba.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from kiosk.parlor.store.registry import ParlorStore
from kiosk.services import Services
from tests.kiosk.conftest import Api
from tests.kiosk.parlor.conftest import Staff, join_kiosk, kiosk_events, parlor_events
from tests.kiosk.parlor.net import ParlorServer
from tests.kiosk.test_api_amend import AKI_WINS, play


@pytest.fixture
def joined(tmp_path: Path, parlor_app: Flask,
           parlor_store: ParlorStore) -> Iterator[tuple[Api, Services]]:
    server = ParlorServer(parlor_app).start()
    token = parlor_store.add_table("Table 1")
    app, services = join_kiosk(tmp_path, server.url, "Table 1", token)
    yield Api(app.test_client()), services
    services.stop()
    server.stop()


def parlor_view(staff: Staff) -> dict[str, Any]:
    """The parlor's live view of Table 1's game (the counter's tables list)."""
    tables = staff.get("/api/tables").get_json()["tables"]
    return dict(next(t["game"] for t in tables if t["name"] == "Table 1"))


def correct(api: Api, index: int, body: dict[str, Any], **more: Any) -> None:
    shown = api.post(f"/api/history/{index}/preview", body).get_json()
    answer = api.post(f"/api/history/{index}", {**body, "game": shown["game"],
                                                "events": shown["events"], **more})
    assert answer.status_code == 200, answer.get_json()


def test_a_corrected_hand_reaches_the_parlor_once_and_in_order(
        joined: tuple[Api, Services], parlor_store: ParlorStore, staff: Staff) -> None:
    api, services = joined
    play(api)
    assert services.outbox.flush(20)
    game = api.get("/api/state").get_json()["game"]["id"]
    assert parlor_view(staff)["points"] == [20900, 33400, 18600, 27100]

    correct(api, 1, AKI_WINS)
    assert services.outbox.flush(20)
    mine = kiosk_events(services)
    assert parlor_events(parlor_store, "Table 1") == mine  # gap-free, each index once
    assert len(mine[game]) == 6
    view = parlor_view(staff)
    kiosk = api.get("/api/state").get_json()
    assert view["points"] == [s["points"] for s in kiosk["seats"]] == [26900, 28800, 17100,
                                                                       27200]
    assert (view["label"], view["dealer"], view["honba"]) == ("East 3, 0 honba", 2, 0)
    assert services.outbox.stats.failures == 0


def test_a_correction_that_ends_the_game_earlier_leaves_the_parlor_the_shorter_game(
        joined: tuple[Api, Services], parlor_store: ParlorStore, staff: Staff) -> None:
    api, services = joined
    play(api)
    assert services.outbox.flush(20)
    correct(api, 1, {"win": {"winner": 1, "discarder": 2, "quick": {"yakuman": 1}}},
            drop_later=True)
    assert services.outbox.flush(20)
    game = api.get("/api/state").get_json()["game"]["id"]
    assert len(parlor_events(parlor_store, "Table 1")[game]) == 2
    assert parlor_events(parlor_store, "Table 1") == kiosk_events(services)
    view = parlor_view(staff)
    assert view["finished"] and view["end_reason"] == "bust"
    assert view["points"] == [25000, 57000, -7000, 25000]
