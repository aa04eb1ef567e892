"""The tables page follows the tables by itself: its script asks /counter/live every few
seconds with the ETag of what it shows; the parlor answers 304 while nothing moved, else the
rows alone (each naming its game and event count); without scripts the page reloads itself."""

from __future__ import annotations

import re

from flask import Flask

from kiosk.parlor.store.registry import ParlorStore
from tests.kiosk.parlor.conftest import Staff
from tests.kiosk.parlor.test_api import RIICHI, START, WIN, one_game, post


def test_the_rows_come_only_when_they_moved(parlor_app: Flask, parlor_store: ParlorStore,
                                            staff: Staff) -> None:
    token = parlor_store.add_table("Table 1")
    assert post(parlor_app, token, one_game(START, RIICHI)).status_code == 200
    page = staff.get("/counter/").get_data(as_text=True)
    assert '<noscript><meta http-equiv="refresh" content="15"></noscript>' in page
    tag = re.search(r'id="live-tables" data-etag="&#34;([0-9a-f]+)&#34;"', page)
    assert tag is not None, page
    etag = f'"{tag.group(1)}"'
    assert 'data-table="Table 1" data-game="g1"\ndata-events="2"' in page

    same = staff.get("/counter/live", headers={"If-None-Match": etag})
    assert same.status_code == 304 and same.headers["ETag"] == etag and not same.data

    assert post(parlor_app, token, one_game(WIN, first=2)).status_code == 200
    moved = staff.get("/counter/live", headers={"If-None-Match": etag})
    rows = moved.get_data(as_text=True)
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    assert 'data-events="3"' in rows and "Ben 28,900" in rows and "<html" not in rows
    again = staff.get("/counter/live", headers={"If-None-Match": moved.headers["ETag"]})
    assert again.status_code == 304


def test_the_rows_need_a_staff_sign_in(parlor_app: Flask) -> None:
    answer = parlor_app.test_client().get("/counter/live")
    assert answer.status_code == 302 and answer.location.endswith("/counter/login")
