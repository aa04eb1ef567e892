"""Member cards at the counter (a printable page: name, number, the QR code) and the member
search a kiosk's new-game form asks with its table's token, bounded (query length, results)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
import segno
from flask import Flask

from kiosk.parlor.link.cards import card_number, card_text, read_card, seat_name
from kiosk.parlor.store.registry import ParlorStore
from tests.kiosk.parlor.conftest import Staff

NAMES = ["Ana", "Ben", "Bartholomew Cunningham-Smythe", "Dan", "Anzu"]  # 00001-00005


@pytest.fixture
def members(parlor_store: ParlorStore) -> dict[str, str]:
    """Table 1's and Table 2's tokens, the members added."""
    for name in NAMES:
        parlor_store.add_member(name)
    return {t: parlor_store.add_table(t) for t in ("Table 1", "Table 2")}


def test_the_card_format() -> None:
    assert card_text("00012") == "riichi-member:00012"
    assert card_number("riichi-member:00012") == "00012"
    assert card_number("riichi-member:A-7 ") == "A-7"
    for other in ("00012", "riichi-member:", "riichi-member:0001 2", "riichi-member:" + "1" * 17,
                  "https://example.com/riichi-member:1"):
        assert card_number(other) is None, other
    # 24 characters at most, as any player's name; the number is never cut.
    assert seat_name("  Ana ", "00001") == "Ana #00001"
    assert seat_name("Bartholomew Cunningham-Smythe", "00003") == "Bartholomew Cunni #00003"
    assert len(seat_name("x" * 24, "ABCDEFGHIJKLMNOP")) == 24


def qr_image(text: str, scale: int = 6) -> np.ndarray:
    """A QR code as a camera would see it, on a grey table, for `read_card` (segno's PNG)."""
    import io

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=scale, border=4)
    code = cv2.imdecode(np.frombuffer(out.getvalue(), np.uint8), cv2.IMREAD_COLOR)
    frame = np.full((480, 640, 3), 120, np.uint8)
    frame[40:40 + code.shape[0], 300:300 + code.shape[1]] = code
    return frame


def test_reading_a_card_in_a_frame() -> None:
    assert read_card(qr_image("riichi-member:00012")) == "riichi-member:00012"
    assert read_card(qr_image("riichi-member:00012", scale=2)) == "riichi-member:00012"
    assert read_card(np.full((480, 640, 3), 120, np.uint8)) is None


def test_a_member_s_card_at_the_counter(parlor_app: Flask, staff: Staff,
                                        members: dict[str, str]) -> None:
    page = staff.get("/counter/members/00002/card")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'id="member-card" data-number="00002"' in html and ">Ben</span>" in html
    assert "<svg" in html and "<code>riichi-member:00002</code>" in html
    assert "@media print" in html  # the card prints alone
    listed = staff.get("/counter/members").get_data(as_text=True)
    assert 'href="/counter/members/00002/card"' in listed
    missing = staff.get("/counter/members/00099/card")
    assert missing.status_code == 404
    assert "no member &#39;00099&#39;" in missing.get_data(as_text=True)
    assert staff.get("/counter/members/a%20b/card").status_code == 400
    nobody = parlor_app.test_client().get("/counter/members/00002/card")
    assert nobody.status_code == 302 and nobody.location.endswith("/counter/login")


def search(app: Flask, token: str | None, table: str = "Table 1", **args: str) -> tuple[int, dict]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = app.test_client().get(f"/api/tables/{table}/members", query_string=args,
                                   headers=headers)
    return answer.status_code, answer.get_json()


def test_a_table_searches_members_with_its_token(parlor_app: Flask, parlor_store: ParlorStore,
                                                 members: dict[str, str]) -> None:
    token = members["Table 1"]
    assert search(parlor_app, token, q="an") == (200, {"members": [
        {"number": "00001", "name": "Ana"}, {"number": "00004", "name": "Dan"},
        {"number": "00005", "name": "Anzu"}]})  # numbers and names only, by number
    assert search(parlor_app, token, q="00003")[1]["members"] == [
        {"number": "00003", "name": "Bartholomew Cunningham-Smythe"}]
    assert search(parlor_app, token, q="AN", limit="2")[1]["members"] == [
        {"number": "00001", "name": "Ana"}, {"number": "00004", "name": "Dan"}]
    assert search(parlor_app, token, q="a%")[1]["members"] == search(parlor_app, token,
                                                                    q="a")[1]["members"]
    assert search(parlor_app, None, q="an")[0] == 401
    assert search(parlor_app, "not a token", q="an")[0] == 401
    assert search(parlor_app, members["Table 2"], q="an")[0] == 403  # another table's token
    parlor_store.revoke_table("Table 1")
    assert search(parlor_app, token, q="an")[0] == 401


@pytest.mark.parametrize("args, field", [
    ({}, "q"), ({"q": "   "}, "q"), ({"q": "a" * 41}, "q"), ({"q": "a", "limit": "21"}, "limit"),
    ({"q": "a", "limit": "0"}, "limit"), ({"q": "a", "limit": "001"}, "limit"),
    ({"q": "a", "offset": "5"}, "offset"), ({"q": "%"}, "q"), ({"q": "_ %"}, "q"),
], ids=["no-q", "blank-q", "long-q", "limit-21", "limit-0", "limit-padded", "offset",
        "only-wildcards", "wildcards-and-space"])
def test_the_search_is_bounded(parlor_app: Flask, members: dict[str, str],
                               args: dict[str, str], field: str) -> None:
    status, body = search(parlor_app, members["Table 1"], **args)
    assert (status, body["field"]) == (400, field), body
    assert search(parlor_app, members["Table 1"], q="a" * 40)[0] == 200
    assert len(search(parlor_app, members["Table 1"], q="a", limit="20")[1]["members"]) == 4
