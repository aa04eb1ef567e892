"""A stored game the kiosk cannot replay no longer stops it from starting (issue 17).

The bad events are written straight into the SQLite store, as an older version (which checked
less) or a hand edit left them; the restarted kiosk names the game and the event in its log and
its API, keeps the game in the store, and serves a fresh game.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from tests.kiosk.conftest import Api, make_kiosk, points

# 10**4299 points in one transfer: stored by the kiosk before the bounds, it bricked the next start.
HUGE_CORRECTION = ('{"type":"correction","transfers":[{"payer":1,"payee":0,"points":1'
                   + "0" * 4299 + '}],"reason":"x"}')


def _game_with_a_bad_event(tmp_path: Path, body: str) -> str:
    app, services = make_kiosk(tmp_path)
    services.start(camera=False, recogniser=False)
    api = Api(app.test_client())
    api.post("/api/games", {"players": ["Ann", "Bo", "Cy", "Di"], "ruleset": "mleague"})
    api.post("/api/riichi", {"seat": 2})
    game_id: str = api.get("/api/state").get_json()["game"]["id"]
    services.stop()
    db = sqlite3.connect(tmp_path / "data" / "kiosk.sqlite3")
    with db:
        db.execute("INSERT INTO events (game_id, idx, body) VALUES (?, 2, ?)", (game_id, body))
    db.close()
    return game_id


@pytest.mark.parametrize(("body", "event_type", "error"), [
    (HUGE_CORRECTION, "correction",
     "event 2 (correction), field 'transfers[0].points': expected a whole number from 1 to "
     "10,000,000, got a number of about 4,300 digits"),
    ('{"type":"riichi","seat":', None,
     "record: not JSON: Expecting value: line 1 column 25 (char 24)"),
    ('{"type":"chombo","seat":7}', "chombo", "event 2 (chombo), field 'seat': no seat 7: seats "
     "are 0-3"),
], ids=["huge-number", "not-json", "illegal-event"])
def test_a_game_that_does_not_replay_is_named_and_the_kiosk_serves(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, body: str, event_type: str | None,
        error: str) -> None:
    broken = _game_with_a_bad_event(tmp_path, body)

    app, services = make_kiosk(tmp_path)  # the restart
    with caplog.at_level(logging.ERROR, logger="kiosk.table.game"):
        services.start(camera=False, recogniser=False)
    try:
        api = Api(app.test_client())
        assert api.get("/").status_code == 200
        expected = {"game": broken, "event": 2, "event_type": event_type, "error": error}
        state = api.get("/api/state").get_json()
        assert state["unreadable_game"] == expected
        games = api.get("/api/games").get_json()
        assert games["unreadable_game"] == expected
        stored = {g["id"]: g["events"] for g in games["games"]}
        assert stored[broken] == 3  # kept in the store, untouched
        assert state["game"]["id"] == games["current"] != broken
        assert f"stored game {broken} cannot be replayed (event 2)" in caplog.text
        # The rest works: a fresh game on the default rules, ready to play.
        assert points(api) == [25000] * 4
        assert api.post("/api/riichi", {"seat": 0}).status_code == 200
        assert api.get("/api/history").status_code == 200
        assert api.get("/api/standings").status_code == 200
    finally:
        services.stop()
