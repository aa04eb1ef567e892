"""Fixtures: a real kiosk (real SQLite store in tmp_path, the folder camera on one demo frame)
behind Flask's test client, as the kiosk's own screen (loopback) or as a phone on the LAN; and for
the browser tests, a running kiosk of the module's own (`base`) with pages on a new game
(`open_page`), which a module with other needs defines for itself."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from kiosk.config import load
from kiosk.services import Services, build_services
from kiosk.web.app import create_app
from tests.kiosk.server import game_pages, running_kiosk

LAN = {"REMOTE_ADDR": "192.168.1.23"}
KIOSK_ON_LAN = "192.168.1.10:8080"  # the Host a phone names the kiosk by: its address
# The kiosk tests' own frame (a rendered hand, 640x480; truth in frames/expected.json), kept
# apart from the demo camera's frames, which vision may re-pick when its model changes.
DEMO_FRAME = Path(__file__).parent / "frames" / "hand_11_001.jpg"
PLAYERS = ["Aki", "Bun", "Chie", "Dai"]  # the browser tests' game (`open_page`)


def make_kiosk(tmp_path: Path, **options: Any) -> tuple[Flask, Services]:
    frames = tmp_path / "frames"
    frames.mkdir(parents=True, exist_ok=True)
    shutil.copy(DEMO_FRAME, frames / DEMO_FRAME.name)
    defaults = {"data_dir": str(tmp_path / "data"), "camera": f"folder:{frames}", **options}
    config = load(None, environ={}, defaults=defaults)
    services = build_services(config)
    app = create_app(config, services)
    app.config["TESTING"] = True
    return app, services


class PhoneClient(FlaskClient):
    """A client on the LAN: another address, naming the kiosk by its LAN address."""

    def open(self, *args: Any, **kw: Any) -> Any:
        kw.setdefault("base_url", f"http://{KIOSK_ON_LAN}")
        return super().open(*args, **kw)


def lan_client(app: Flask, address: str = LAN["REMOTE_ADDR"]) -> FlaskClient:
    client = PhoneClient(app, app.response_class, use_cookies=True)
    client.environ_base["REMOTE_ADDR"] = address
    return client


class Api:
    """A test client that sends the session's CSRF token like the pages do."""

    def __init__(self, client: FlaskClient):
        self.client = client
        self.csrf = client.get("/api/session").get_json()["csrf"]

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, **kw)

    def post(self, path: str, json: Any = None, **kw: Any) -> Any:
        headers = {"X-CSRF-Token": self.csrf, **kw.pop("headers", {})}
        return self.client.post(path, json=json, headers=headers, **kw)


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[tuple[Flask, Services]]:
    app, services = make_kiosk(tmp_path)
    services.start(recogniser=False)
    yield app, services
    services.stop()


@pytest.fixture
def app(kiosk: tuple[Flask, Services]) -> Flask:
    return kiosk[0]


@pytest.fixture
def api(app: Flask) -> Api:
    return Api(app.test_client())


def points(api: Api) -> list[int]:
    return [s["points"] for s in api.get("/api/state").get_json()["seats"]]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[str]:
    """`python -m kiosk` without a camera, one for the test module: its base URL."""
    name = request.module.__name__.rpartition(".")[2]
    with running_kiosk(tmp_path_factory.mktemp(name) / "data", "--camera", "none") as url:
        yield url


@pytest.fixture
def open_page(browser: Any, base: str) -> Iterator[Any]:
    """`open(width, height, lang="en") -> (page, its script errors)` on a new game of PLAYERS
    (game_pages). `browser` is tests.kiosk.test_browser's, which the module imports."""
    with game_pages(browser, base, PLAYERS) as opener:
        yield opener
