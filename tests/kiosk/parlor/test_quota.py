"""A table's quota and the lists' pages (issue 35, item 8): a win's breakdown is bounded, a
table stores at most so many new games and bytes per hour and per day (429 with the reason and
Retry-After), and the lists that grow with games come a page at a time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask

from kiosk.parlor.store.quota import Quota
from kiosk.parlor.store.registry import ParlorStore
from kiosk.parlor.web.app import create_app
from kiosk.parlor.web.context import ParlorOptions
from tests.kiosk.parlor.conftest import PASSWORD, STAFF, Staff
from tests.kiosk.parlor.test_api import START, WIN, one_game, post


def win_with(breakdown: dict[str, Any]) -> dict[str, Any]:
    return {**WIN, "hands": [{**WIN["hands"][0], "breakdown": breakdown}]}


def breakdown(kib: int) -> dict[str, str]:
    return {f"item{i}": "x" * 1000 for i in range(kib)}  # about `kib` KB


def games(*names: str, win: dict[str, Any] | None = None) -> dict[str, Any]:
    events = [START] if win is None else [START, win]
    return {"games": [{"game": name, "revision": 0, "events": [
        {"index": i, "event": e} for i, e in enumerate(events)]} for name in names]}


def parlor(store: ParlorStore, **quota: int) -> tuple[Flask, str]:
    """The parlor's app with this quota, and table 1's token (a new one each call)."""
    app = create_app(store, ParlorOptions(quota=Quota(**quota)))
    app.config["TESTING"] = True
    return app, store.add_table("Table 1", replace=any(t.name == "Table 1"
                                                       for t in store.tables()))


def seconds_to_next_hour() -> float:
    now = datetime.now(UTC)
    return (now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1) - now
            ).total_seconds()


def test_a_breakdown_over_16_kb_is_refused_naming_its_field(parlor_store: ParlorStore) -> None:
    app, token = parlor(parlor_store)
    big = post(app, token, one_game(START, win_with(breakdown(17))))
    assert big.status_code == 413
    assert big.get_json()["field"] == "games[0].events[1].event.hands[0].breakdown"
    assert big.get_json()["error"].endswith("breakdown: 17,195 bytes; at most 16 KB")
    assert post(app, token, one_game(START, win_with(breakdown(15)))).status_code == 200


def test_new_games_per_hour_and_day(parlor_store: ParlorStore) -> None:
    app, token = parlor(parlor_store, games_per_hour=3, games_per_day=5)
    assert post(app, token, games("g1", "g2")).status_code == 200
    assert post(app, token, games("g3")).status_code == 200
    over = post(app, token, games("g4"))
    assert over.status_code == 429
    assert over.get_json()["error"].startswith(
        "this table's quota is used up: 3 new games stored in the last hour, this batch adds 1, "
        "at most 3 (the parlor's --games-per-hour); try again in ")
    wait = int(over.headers["Retry-After"])
    assert over.get_json()["retry_after"] == wait
    assert abs(wait - seconds_to_next_hour()) <= 3
    # What the parlor holds already is no new game: sent again, or carried on, it is stored.
    assert post(app, token, games("g1")).status_code == 200
    assert post(app, token, games("g1", win=WIN)).get_json()["games"]["g1"]["stored"] == 2
    # Two games of 20 hours ago count for the day, and leave it in 4 hours.
    earlier = (datetime.now(UTC).replace(minute=0, second=0, microsecond=0)
               - timedelta(hours=20))
    with parlor_store.db.transaction() as tx:
        tx.run("INSERT INTO parlor_usage VALUES (?, ?, ?, ?)",
               (1, earlier.isoformat(), 2, 100))
    app, token = parlor(parlor_store, games_per_hour=10, games_per_day=5)
    day = post(app, token, games("g5"))
    assert day.status_code == 429 and "5 new games stored in the last 24 hours, this batch " \
        "adds 1, at most 5 (the parlor's --games-per-day)" in day.get_json()["error"]
    assert abs(int(day.headers["Retry-After"]) - (seconds_to_next_hour() + 3 * 3600)) <= 3


def test_bytes_per_hour(parlor_store: ParlorStore) -> None:
    """20 games with a 15 KB breakdown each are about 330 KB: the fourth batch is over 1 MB."""
    app, token = parlor(parlor_store, games_per_hour=1000, games_per_day=1000, mb_per_hour=1)
    win = win_with(breakdown(15))
    for batch in range(3):
        answer = post(app, token, games(*(f"b{batch}-{n}" for n in range(20)), win=win))
        assert answer.status_code == 200
    over = post(app, token, games(*(f"b3-{n}" for n in range(20)), win=win))
    assert over.status_code == 429 and over.get_json()["field"] == "quota"
    assert "bytes of events stored in the last hour" in over.get_json()["error"]
    assert "at most 1 MB (the parlor's --mb-per-hour)" in over.get_json()["error"]
    with parlor_store.db.transaction() as tx:
        assert tx.rows("SELECT COUNT(*) FROM parlor_games")[0][0] == 60  # nothing of the fourth


def test_the_games_list_comes_a_page_at_a_time(parlor_store: ParlorStore) -> None:
    app, token = parlor(parlor_store)
    assert post(app, token, games(*(f"p{n:02}" for n in range(15)))).status_code == 200
    parlor_store.add_staff(STAFF, PASSWORD)
    staff = Staff(app.test_client())
    first = staff.get("/api/games?limit=10").get_json()
    assert (len(first["games"]), first["total"], first["offset"], first["limit"]) == (
        10, 15, 0, 10)
    assert first["next"] == "/api/games?limit=10&offset=10"
    rest = staff.get(first["next"]).get_json()
    assert (len(rest["games"]), rest["next"]) == (5, None)
    seen = {g["game"] for g in first["games"] + rest["games"]}
    assert seen == {f"p{n:02}" for n in range(15)}
    everything = staff.get("/api/games").get_json()  # an old client: one page of up to 200
    assert (len(everything["games"]), everything["limit"], everything["next"]) == (15, 200, None)
    refused = staff.get("/api/games?limit=501")
    assert refused.status_code == 400 and refused.get_json()["field"] == "limit"
    rules = staff.get("/api/rules?limit=1").get_json()
    assert (len(rules["rules"]), rules["next"]) == (1, "/api/rules?limit=1&offset=1")
    assert rules["total"] == len(staff.get("/api/rules?limit=500").get_json()["rules"]) > 1
    assert staff.get("/api/held").get_json() == {"held": [], "total": 0, "offset": 0,
                                                 "limit": 200, "next": None}
