"""The win page opens the camera view only while it is on screen (issue 35, item 2), in Debian's
chromium against the real kiosk: a hidden view held a connection of the browser's six and, until
the view moved to the event loop, a worker thread of the kiosk's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.server import game_pages, running_kiosk
from tests.kiosk.test_browser import browser  # noqa: F401  (shared fixture)
from tests.kiosk.test_camera_stream import eventually, viewers

pytestmark = pytest.mark.browser


@pytest.fixture
def kiosk(tmp_path: Path) -> Iterator[str]:
    with running_kiosk(tmp_path / "data", "--camera", "demo") as url:
        yield url


def test_the_camera_view_streams_only_while_its_panel_is_shown(
        browser: Any, kiosk: str) -> None:  # noqa: F811
    with game_pages(browser, kiosk, ["Aki", "Bun", "Chie", "Dai"]) as open_page:
        page, errors = open_page(800, 480)
        page.goto(kiosk + "/win")
        view = page.locator("#live-view")
        assert eventually(lambda: viewers(kiosk) == 1)
        assert view.get_attribute("src") == "/api/camera/stream"
        assert eventually(lambda: view.evaluate("img => img.naturalWidth") > 0)  # a picture

        page.click('#mode button[data-mode="quick"]')  # the camera panel is hidden
        assert page.locator("#camera-panel").is_hidden()
        assert eventually(lambda: view.get_attribute("src") is None)
        assert eventually(lambda: viewers(kiosk) == 0)  # the stream is closed, not just unseen

        page.click('#mode button[data-mode="tiles"]')
        assert eventually(lambda: viewers(kiosk) == 1)
        assert view.get_attribute("src") == "/api/camera/stream"
        page.goto(kiosk + "/")  # leaving the page ends its view
        assert eventually(lambda: viewers(kiosk) == 0)
        assert errors == []
