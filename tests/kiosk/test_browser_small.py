"""Issue 38, item 9's small ones in Debian's chromium: the camera line names the camera by what
it is (not `folder:/tmp/.../demo_frames`); a seat tapped on the table says what its numbers are
(the points apart from each other seat); the Japanese presets write uma as the English does."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from tests.kiosk.server import running_kiosk
from tests.kiosk.test_browser import browser  # noqa: F401  (shared fixture)

LOCALE = Path(__file__).resolve().parents[2] / "kiosk" / "words" / "locale"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_kiosk(tmp_path_factory.mktemp("demo") / "data", "--camera", "demo") as url:
        yield url


@pytest.mark.browser
def test_the_camera_line_names_the_demo_not_its_path(browser: Any, demo: str) -> None:  # noqa: F811
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.goto(demo + "/win?lang=en")
    expect(page.locator("#camera-state")).to_contain_text("Camera ready (demo photos)")
    assert "folder:" not in page.inner_text("#camera-state")
    assert "/" not in page.inner_text("#camera-state")
    page.close()


@pytest.mark.browser
def test_a_tapped_seat_says_its_numbers_are_points_apart(browser: Any, demo: str) -> None:  # noqa: F811
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.goto(demo + "/?lang=en")
    page.locator("#live.on").wait_for()
    page.click('.seat[data-seat="1"] .name')
    expect(page.locator('.seat[data-seat="1"] .diffs')).to_have_text(
        re.compile(r"^Points apart: .+ 0 · .+ 0 · .+ 0$"))
    page.close()


def test_the_japanese_presets_write_uma_as_the_english() -> None:
    """ "uma 20/0/-20" is "ウマ+20/0/-20", not "ウマ0-20" (a four-player ワンツー's notation)."""
    with (LOCALE / "ja" / "LC_MESSAGES" / "kiosk.po").open("rb") as f:
        ja = {m.context: m.string for m in read_po(f) if m.context}
    with (LOCALE / "en" / "LC_MESSAGES" / "kiosk.po").open("rb") as f:
        en = {m.context: m.id for m in read_po(f) if m.context}
    checked = 0
    for key, english in en.items():
        three = re.search(r"uma (\d+)/0/-(\d+)", str(english))
        if key.startswith("preset.") and three:
            assert f"ウマ+{three[1]}/0/-{three[2]}" in ja[key], (key, ja[key])
            checked += 1
    assert checked == 3
