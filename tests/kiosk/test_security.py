"""Changes from the LAN need the table PIN (or a device token) and the CSRF token; reads are open;
wrong PINs are rate-limited; the PIN is shown only on the kiosk's own (loopback) screen."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from kiosk.services import Services
from tests.kiosk.conftest import LAN, Api, make_kiosk, points


@pytest.fixture
def lan_kiosk(tmp_path: Path):  # noqa: ANN201
    app, services = make_kiosk(tmp_path, host="0.0.0.0", pin="2468")
    services.start(camera=False, recogniser=False)
    yield app, services
    services.stop()


def phone(app: Flask, address: str = LAN["REMOTE_ADDR"]):  # noqa: ANN201
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_a_change_without_the_pin_is_refused_on_the_lan(lan_kiosk: tuple[Flask, Services]) -> None:
    app, _ = lan_kiosk
    client = phone(app)
    csrf = client.get("/api/session").get_json()["csrf"]
    r = client.post("/api/riichi", json={"seat": 0}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 401 and r.get_json()["needs_pin"] is True
    assert "PIN" in r.get_json()["error"]
    assert client.get("/api/state").get_json()["seats"][0]["points"] == 25000
    assert client.get("/api/history").status_code == 200  # reading is open


def test_the_pin_unlocks_changes_with_the_csrf_token(lan_kiosk: tuple[Flask, Services]) -> None:
    app, _ = lan_kiosk
    client = phone(app)
    assert client.post("/api/session/pin", json={"pin": "1111"}).status_code == 403
    ok = client.post("/api/session/pin", json={"pin": "2468"})
    assert ok.status_code == 200
    csrf = ok.get_json()["csrf"]
    no_token = client.post("/api/riichi", json={"seat": 0})
    assert no_token.status_code == 403 and "CSRF" in no_token.get_json()["error"]
    r = client.post("/api/riichi", json={"seat": 0}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and r.get_json()["seats"][0]["points"] == 24000


def test_wrong_pins_are_rate_limited(lan_kiosk: tuple[Flask, Services]) -> None:
    app, _ = lan_kiosk
    client = phone(app)
    for _ in range(5):
        assert client.post("/api/session/pin", json={"pin": "0000"}).status_code == 403
    blocked = client.post("/api/session/pin", json={"pin": "2468"})  # even the right one
    assert blocked.status_code == 429 and blocked.get_json()["retry_after"] > 0
    other = phone(app, "192.168.1.99")
    assert other.post("/api/session/pin", json={"pin": "2468"}).status_code == 200


def test_device_token(lan_kiosk: tuple[Flask, Services]) -> None:
    app, _ = lan_kiosk
    kiosk = Api(app.test_client())  # the kiosk's own screen issues the token
    token = kiosk.post("/api/tokens", {"name": "tv"}).get_json()["token"]
    client = phone(app)
    r = client.post("/api/riichi", json={"seat": 1}, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200
    bad = client.post("/api/riichi", json={"seat": 2}, headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401 and "token" in bad.get_json()["error"]
    assert points(kiosk) == [25000, 24000, 25000, 25000]
    refused = client.post("/api/tokens", json={"name": "mine"})
    assert refused.status_code == 401


def test_the_pin_is_shown_only_to_the_kiosk(lan_kiosk: tuple[Flask, Services]) -> None:
    app, _ = lan_kiosk
    assert "2468" in app.test_client().get("/").get_data(as_text=True)
    assert app.test_client().get("/api/session").get_json()["pin"] == "2468"
    assert "2468" not in phone(app).get("/").get_data(as_text=True)
    assert "pin" not in phone(app).get("/api/session").get_json()


def test_loopback_changes_still_need_the_csrf_token(lan_kiosk: tuple[Flask, Services]) -> None:
    app, _ = lan_kiosk
    r = app.test_client().post("/api/riichi", json={"seat": 0})
    assert r.status_code == 403


def test_generated_pin_is_kept_in_the_data_dir(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path)
    pin = services.security.pin
    assert pin.isdigit() and len(pin) == 6
    assert (tmp_path / "data" / "pin.txt").read_text().strip() == pin
    _, again = make_kiosk(tmp_path)
    assert again.security.pin == pin
    services.stop()
    again.stop()
