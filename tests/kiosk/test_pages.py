"""Every page renders in English and Japanese, with local assets only; the serial display follows
the table."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.kiosk.conftest import Api, make_kiosk

PAGES = ["/", "/new", "/win", "/draw", "/other", "/history", "/standings", "/games",
         "/tv", "/me", "/results"]


@pytest.mark.parametrize("path", PAGES)
def test_page_renders_with_local_assets_only(api: Api, path: str) -> None:
    r = api.get(path)
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and r.mimetype == "text/html"
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html)  # no CDN, works offline
    for asset in re.findall(r"""(?:src|href)="(/static/[^"]+)""", html):
        assert api.get(asset).status_code == 200
    assert "default-src 'self'" in r.headers["Content-Security-Policy"]


def test_japanese_ui(api: Api) -> None:
    html = api.get("/?lang=ja").get_data(as_text=True)
    assert '<html lang="ja">' in html and "東1局" in html and "0本場" in html
    assert "リーチ" in api.get("/win").get_data(as_text=True)  # the choice sticks to the session
    assert api.post("/api/session/language", {"language": "en"}).status_code == 200
    assert "East 1" in api.get("/").get_data(as_text=True)
    assert api.post("/api/session/language", {"language": "fr"}).status_code == 400


def test_error_page_for_browsers(api: Api) -> None:
    r = api.get("/nowhere", headers={"Accept": "text/html"})
    assert r.status_code == 404 and "<h1>404</h1>" in r.get_data(as_text=True)


def test_serial_display_follows_the_table(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path, display="loop://")
    services.start(camera=False, recogniser=False)
    try:
        api = Api(app.test_client())
        status = api.get("/api/display").get_json()
        assert status["configured"] and status["url"] == "loop://"
        deadline = time.monotonic() + 5
        while not api.get("/api/display").get_json()["connected"]:
            assert time.monotonic() < deadline, api.get("/api/display").get_json()
            time.sleep(0.05)
        sent = api.get("/api/display").get_json()["frames_sent"]
        api.post("/api/riichi", {"seat": 0})
        while api.get("/api/display").get_json()["frames_sent"] <= sent:
            assert time.monotonic() < deadline + 5
            time.sleep(0.05)
    finally:
        services.stop()
    none = make_kiosk(tmp_path / "b")[1]
    assert none.display.status()["configured"] is False
