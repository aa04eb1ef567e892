"""Changes from the LAN need the table PIN (or a device token) and the CSRF token; reads are open;
wrong PINs are rate-limited; the PIN is shown only on the kiosk's own (loopback) screen."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from kiosk.services import Services
from tests.kiosk.conftest import LAN, Api, lan_client, make_kiosk, points


@pytest.fixture
def lan_kiosk(tmp_path: Path):  # noqa: ANN201
    app, services = make_kiosk(tmp_path, host="0.0.0.0", pin="2468")
    services.start(camera=False, recogniser=False)
    yield app, services
    services.stop()


def phone(app: Flask, address: str = LAN["REMOTE_ADDR"]):  # noqa: ANN201
    return lan_client(app, address)


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


# --- Host names: DNS rebinding -----------------------------------------------------------------

def test_a_rebinding_name_is_refused_even_from_loopback(kiosk: tuple[Flask, Services]) -> None:
    app, _ = kiosk
    client = app.test_client()  # 127.0.0.1, as the kiosk's own browser would be
    evil = {"base_url": "http://evil.example:8081"}
    session = client.get("/api/session", **evil)
    assert session.status_code == 400 and "evil.example:8081" in session.get_json()["error"]
    change = client.post("/api/corrections", json={"deltas": [1000, -1000, 0, 0],
                                                   "reason": "x"}, **evil)
    assert change.status_code == 400
    assert points(Api(client)) == [25000] * 4


@pytest.mark.parametrize("host, local", [
    ("localhost:8080", True), ("127.0.0.1:8080", True), ("[::1]:8080", True),
    ("192.168.1.10:8080", False),  # the kiosk's own LAN address, opened on its own screen
])
def test_the_kiosk_screen_is_a_loopback_client_naming_a_loopback_host(
        kiosk: tuple[Flask, Services], host: str, local: bool) -> None:
    app, services = kiosk
    out = app.test_client().get("/api/session", base_url=f"http://{host}").get_json()
    assert out["local"] is local and ("pin" in out) is local
    if local:
        assert out["pin"] == services.security.pin


def test_names_are_the_machine_s_the_public_url_s_and_the_configured_ones(tmp_path: Path) -> None:
    import socket

    app, services = make_kiosk(tmp_path, host="0.0.0.0", pin="2468",
                               public_url="http://table7.parlor.example:8080/",
                               allowed_hosts="kiosk.lan, Other.Example")
    services.start(camera=False, recogniser=False)
    try:
        client = lan_client(app)
        machine = socket.gethostname()
        for name in (machine, f"{machine}.local", "table7.parlor.example", "kiosk.lan",
                     "other.example", "10.0.0.7", "[fe80::1]"):
            assert client.get("/api/state", base_url=f"http://{name}:8080").status_code == 200
        for name in ("localhost", "evil.example", "kiosk.lan.evil.example"):
            r = client.get("/api/state", base_url=f"http://{name}:8080")
            assert r.status_code == 400 and name in r.get_json()["error"]
    finally:
        services.stop()


def test_a_bad_allowed_host_is_named_at_start(tmp_path: Path) -> None:
    from kiosk.config import ConfigError

    with pytest.raises(ConfigError, match="allowed_hosts: 'evil example'"):
        make_kiosk(tmp_path, allowed_hosts="ok.example,evil example")


# --- PIN guessing -----------------------------------------------------------------------------

def test_wrong_pins_from_many_addresses_pause_pin_entry_and_the_screen_says_so(
        lan_kiosk: tuple[Flask, Services]) -> None:
    app, services = lan_kiosk
    for i in range(services.security.limiter.total):  # one guess each from 20 addresses
        r = phone(app, f"192.168.2.{i + 1}").post("/api/session/pin", json={"pin": f"{i:04d}"})
        assert r.status_code == 403
    fresh = phone(app, "192.168.3.1").post("/api/session/pin", json={"pin": "2468"})
    assert fresh.status_code == 429 and 590 <= fresh.get_json()["retry_after"] <= 601
    screen = app.test_client()
    alarm = screen.get("/api/session").get_json()["pin_alarm"]
    assert alarm["wrong_pins"] == 20 and 590 <= alarm["paused_for"] <= 601
    page = screen.get("/").get_data(as_text=True)
    assert "20 wrong PINs from other devices in the last 10 minutes" in page
    assert "paused for 10 min" in page
    phone(app, "192.168.4.1").post("/api/session/pin", json={"pin": "9999"})  # still paused
    services.security.limiter._all.clear()  # ten minutes later (the counts age out)
    services.security.limiter.failed("192.168.4.2")
    calm = re.search(r'id="pin-alarm"[^>]*>([^<]*)<', screen.get("/").get_data(as_text=True))
    assert calm and calm.group(1) == "1 wrong PINs from other devices in the last 10 minutes"
    assert "pin_alarm" not in phone(app).get("/api/session").get_json()  # the screen's alone


@pytest.mark.parametrize("pin", ["２４６８", "24\ud8006", "é" * 4, 2468, None],
                         ids=["fullwidth", "lone-surrogate", "accents", "number", "null"])
def test_a_pin_of_any_characters_is_a_wrong_pin_and_counted(
        lan_kiosk: tuple[Flask, Services], pin: object) -> None:
    app, services = lan_kiosk
    r = phone(app).post("/api/session/pin", json={"pin": pin})
    assert r.status_code == 403 and r.get_json()["error"] == "wrong PIN"
    assert services.security.limiter.recent_failures() == 1


def test_a_csrf_token_of_any_characters_is_refused(kiosk: tuple[Flask, Services]) -> None:
    app, _ = kiosk
    client = app.test_client()
    client.get("/api/session")
    r = client.post("/api/riichi", json={"seat": 0}, headers={"X-CSRF-Token": "ü\u00ff\u4e00"})
    assert r.status_code == 403 and "CSRF" in r.get_json()["error"]


# --- sessions and tokens end ------------------------------------------------------------------

def _pin_phone(app: Flask) -> tuple[Any, str]:
    client = phone(app)
    csrf = client.post("/api/session/pin", json={"pin": "2468"}).get_json()["csrf"]
    return client, csrf


def _replay(app: Flask, client: Any) -> Any:
    """Another client holding the same saved cookie (a copy taken before any logout)."""
    copy = phone(app)
    cookie = client.get_cookie("session", domain="192.168.1.10")
    copy.set_cookie("session", cookie.value, domain="192.168.1.10")
    return copy


def _riichi(client: Any, csrf: str) -> int:
    return client.post("/api/riichi", json={"seat": 0}, headers={"X-CSRF-Token": csrf}).status_code


def test_a_cookie_saved_before_logout_no_longer_changes_anything(
        lan_kiosk: tuple[Flask, Services]) -> None:
    app, _ = lan_kiosk
    client, csrf = _pin_phone(app)
    saved = _replay(app, client)
    assert _riichi(saved, csrf) == 200
    assert client.post("/api/session/logout", headers={"X-CSRF-Token": csrf}).status_code == 200
    assert _riichi(saved, csrf) == 401 and _riichi(client, csrf) == 401


def test_a_new_pin_ends_every_session_a_restart_alone_does_not(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path, host="0.0.0.0", pin="2468")
    client, csrf = _pin_phone(app)
    cookie = client.get_cookie("session", domain="192.168.1.10").value
    for pin, works in (("2468", 200), ("1357", 401)):
        again, services = make_kiosk(tmp_path, host="0.0.0.0", pin=pin)  # the same data dir
        services.start(camera=False, recogniser=False)
        try:
            restarted = phone(again)
            restarted.set_cookie("session", cookie, domain="192.168.1.10")
            assert _riichi(restarted, csrf) == works
        finally:
            services.stop()


def test_a_pin_session_expires(lan_kiosk: tuple[Flask, Services]) -> None:
    import json
    import time

    app, services = lan_kiosk
    client, csrf = _pin_phone(app)
    path = services.security.data_dir / "pin_sessions.json"
    stored = json.loads(path.read_text())
    stored["ids"] = {sid: time.time() - 1 for sid in stored["ids"]}
    path.write_text(json.dumps(stored))
    assert _riichi(client, csrf) == 401


def test_device_tokens_are_listed_revoked_and_expire_on_the_kiosk_s_screen(
        lan_kiosk: tuple[Flask, Services]) -> None:
    import json
    import time

    app, services = lan_kiosk
    screen = Api(app.test_client())
    tv = screen.post("/api/tokens", {"name": "tv"}).get_json()["token"]
    board = screen.post("/api/tokens", {"name": "scoreboard"}).get_json()["token"]
    listed = screen.get("/api/tokens").get_json()["tokens"]
    assert [t["name"] for t in listed] == ["tv", "scoreboard"]
    assert 179 * 86400 < listed[0]["expires"] - time.time() <= 180 * 86400 + 1
    pin_phone, csrf = _pin_phone(app)
    assert pin_phone.get("/api/tokens").status_code == 403  # a PIN is not the kiosk's screen
    assert pin_phone.post("/api/tokens", json={"name": "x"},
                          headers={"X-CSRF-Token": csrf}).status_code == 403

    def with_token(token: str, seat: int = 1) -> int:
        return phone(app).post("/api/riichi", json={"seat": seat},
                               headers={"Authorization": f"Bearer {token}"}).status_code

    assert with_token(tv) == 200
    revoked = screen.client.delete(f"/api/tokens/{listed[0]['id']}",
                                   headers={"X-CSRF-Token": screen.csrf})
    assert revoked.status_code == 200 and revoked.get_json()["revoked"] == "tv"
    assert with_token(tv, 2) == 401 and with_token(board, 2) == 200
    path = services.security.data_dir / "device_tokens.json"
    tokens = json.loads(path.read_text())
    for entry in tokens.values():
        entry["expires"] = time.time() - 1
    path.write_text(json.dumps(tokens))
    assert with_token(board, 3) == 401
    assert screen.get("/api/tokens").get_json()["tokens"][0]["expired"] is True
