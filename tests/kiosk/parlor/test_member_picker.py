"""The kiosk's member picker through its API: a real kiosk asks a real parlor served on a port
(SQLite; the parlor's database plays no part here) for members by name or number, and reads
member cards in its camera's pictures (a folder camera showing a QR code rendered by segno, a
photo of tiles, another QR code). With the parlor stopped the search says so and a card still
gives its number; a kiosk without a parlor has no picker."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import pytest
from flask import Flask

from kiosk.parlor.store.db import open_database
from kiosk.parlor.store.registry import ParlorStore
from kiosk.parlor.web.app import create_app
from kiosk.photos.camera import CameraService
from kiosk.services import Services
from tests.kiosk.conftest import DEMO_FRAME, Api, lan_client, make_kiosk
from tests.kiosk.parlor.net import ParlorServer
from tests.kiosk.parlor.test_member_cards import qr_image


@pytest.fixture
def parlor(tmp_path: Path) -> Iterator[tuple[ParlorServer, str]]:
    """A parlor serving on a port, members Ana 00001, Ben 00002 and a long name 00003; the
    server and Table 1's token."""
    store = ParlorStore(open_database(f"sqlite:///{tmp_path / 'parlor.sqlite3'}"))
    for name in ("Ana", "Ben", "Bartholomew Cunningham-Smythe"):
        store.add_member(name)
    token = store.add_table("Table 1")
    app = create_app(store)
    server = ParlorServer(app).start()
    yield server, token
    server.stop()
    store.close()


def kiosk_of(tmp_path: Path, server: ParlorServer, token: str) -> tuple[Flask, Services]:
    app, services = make_kiosk(tmp_path / "kiosk", parlor_url=server.url,
                               parlor_table="Table 1", parlor_token=token)
    services.start(camera=False, recogniser=False)
    return app, services


@pytest.fixture
def kiosk_api(tmp_path: Path, parlor: tuple[ParlorServer, str]) -> Iterator[tuple[Api, Services]]:
    app, services = kiosk_of(tmp_path, *parlor)
    yield Api(app.test_client()), services
    services.stop()


def look_at(services: Services, folder: Path, image: Any) -> None:
    """The kiosk's camera now shows `image` (a folder camera on it alone)."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    cv2.imwrite(str(folder / "frame.png"), image)
    services.camera.stop()
    services.camera = CameraService(f"folder:{folder}")
    services.camera.start()


def refused(answer: Any, status: int, code: str) -> str:
    body = answer.get_json()
    assert (answer.status_code, body.get("code")) == (status, code), body
    return str(body["error"])


def test_searching_members_by_name_or_number(kiosk_api: tuple[Api, Services]) -> None:
    api, _ = kiosk_api
    found = api.post("/api/members/search", {"q": "b"})
    assert found.status_code == 200, found.get_json()
    assert found.get_json()["members"] == [
        {"number": "00002", "name": "Ben", "seat_name": "Ben #00002"},
        {"number": "00003", "name": "Bartholomew Cunningham-Smythe",
         "seat_name": "Bartholomew Cunni #00003"}]  # 24 characters, as any player's name
    by_number = api.post("/api/members/search", {"q": " 00001 "}).get_json()["members"]
    assert [m["seat_name"] for m in by_number] == ["Ana #00001"]
    assert api.post("/api/members/search", {"q": "zed"}).get_json() == {"members": []}
    refused(api.post("/api/members/search", {"q": ""}), 400, "member_query")
    refused(api.post("/api/members/search", {"q": "a" * 41}), 400, "member_query")
    refused(api.post("/api/members/search", {"q": 5}), 400, "member_query")
    refused(api.post("/api/members/search", {"q": "a", "limit": 500}), 400, "unknown_fields")
    refused(api.post("/api/members/search", {"q": "%"}), 400, "member_search_refused")


def test_scanning_a_member_card(tmp_path: Path, kiosk_api: tuple[Api, Services]) -> None:
    api, services = kiosk_api
    folder = tmp_path / "camera"
    look_at(services, folder, qr_image("riichi-member:00002"))
    assert api.post("/api/members/scan").get_json() == {
        "member": {"number": "00002", "name": "Ben", "seat_name": "Ben #00002"},
        "offline": False}
    look_at(services, folder, cv2.imread(str(DEMO_FRAME)))  # tiles, no card
    refused(api.post("/api/members/scan"), 422, "member_card_unseen")
    look_at(services, folder, qr_image("https://example.com/"))
    said = refused(api.post("/api/members/scan"), 422, "member_card_foreign")
    assert "'https://example.com/'" in said
    look_at(services, folder, qr_image("riichi-member:00099"))
    refused(api.post("/api/members/scan"), 404, "member_missing")
    services.camera.stop()
    services.camera = CameraService("none")
    services.camera.start()
    refused(api.post("/api/members/scan"), 503, "camera_no_photo")


def test_a_parlor_out_of_reach_is_said_and_a_card_still_gives_its_number(
        tmp_path: Path, parlor: tuple[ParlorServer, str],
        kiosk_api: tuple[Api, Services]) -> None:
    api, services = kiosk_api
    server, _ = parlor
    look_at(services, tmp_path / "camera", qr_image("riichi-member:00001"))
    server.stop()
    said = refused(api.post("/api/members/search", {"q": "ana"}), 503, "parlor_unreachable")
    assert said == ("the parlor cannot be reached: type the player's name (a member adds "
                    "#number)")
    assert api.post("/api/members/scan").get_json() == {
        "member": {"number": "00001", "name": None, "seat_name": None}, "offline": True}
    assert api.post("/api/session/language", {"language": "ja"}).status_code == 200
    assert refused(api.post("/api/members/search", {"q": "ana"}), 503, "parlor_unreachable") == (
        "店舗サーバーに接続できません。名前を入力してください（会員は「#会員番号」を付けてください）")
    server.start()  # back on the same port: the next search finds again
    assert len(api.post("/api/members/search", {"q": "ana"}).get_json()["members"]) == 1
    assert api.post("/api/games", {"players": ["Ana #00001", "Kim", "Lee", "Max"]}
                    ).status_code == 201  # guests and members side by side


def test_a_refused_token_and_a_phone_without_the_pin(tmp_path: Path,
                                                     parlor: tuple[ParlorServer, str]) -> None:
    app, services = kiosk_of(tmp_path, parlor[0], "not-the-table-s-token-0123456789")
    try:
        refused(Api(app.test_client()).post("/api/members/search", {"q": "ana"}), 503,
                "parlor_refused")
        phone = Api(lan_client(app))  # no PIN session: the parlor's members stay unseen
        refused(phone.post("/api/members/search", {"q": "ana"}), 401, "pin_needed")
        refused(phone.post("/api/members/scan"), 401, "pin_needed")
    finally:
        services.stop()


def test_the_picker_shows_only_where_a_parlor_is_configured(
        kiosk_api: tuple[Api, Services], api: Api) -> None:
    with_parlor = kiosk_api[0].get("/new").get_data(as_text=True)
    assert 'id="members"' in with_parlor and "member_picker.js" in with_parlor
    alone = api.get("/new").get_data(as_text=True)  # tests/kiosk/conftest.py: no parlor
    assert 'id="members"' not in alone and "member_picker.js" not in alone
    refused(api.post("/api/members/search", {"q": "ana"}), 404, "parlor_none")
    refused(api.post("/api/members/scan"), 404, "parlor_none")
