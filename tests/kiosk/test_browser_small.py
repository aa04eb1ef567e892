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


@pytest.mark.browser
def test_no_alternative_offered_at_0_percent(browser: Any, demo: str) -> None:  # noqa: F811
    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.goto(demo + "/win?lang=en")
    offered = page.evaluate("""HAND.candidates({label: "5p", alternatives: [["3p", 0.31],
        ["6p", 0.012], ["8p", 0.004], ["9p", 0.0]]}).map((a) => a.label)""")
    assert offered == ["0p", "3p", "6p"]  # the red twin, then 31 % and 1 %; not 0 %
    page.close()


@pytest.mark.browser
def test_the_foot_bars_total_is_whole_at_800x480(browser: Any, demo: str) -> None:  # noqa: F811
    """A dealer's haneman tsumo (Tenhou): 6,000 all, 18,000 in all, said whole in the bar."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.goto(demo + "/win?lang=en")
    page.locator("#live.on").wait_for()
    page.click('#mode button[data-mode="quick"]')
    page.select_option("#q-han", "6")
    page.click('#winner button[data-v="0"]')
    page.click('#discarder button[data-v="null"]')
    page.click("#score-btn")
    total = page.locator("#bar-total")
    expect(total).to_contain_text("6,000 all (18,000)")
    assert total.evaluate("e => e.scrollWidth <= e.clientWidth + 1 "
                          "&& e.scrollHeight <= e.clientHeight + 1")
    for other in ("#score-btn", "#apply-btn"):
        a, b = total.bounding_box(), page.locator(other).bounding_box()
        assert a and b and (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"])
    page.screenshot(path="test-artifacts/small-bar-total-800x480.png")
    page.close()


@pytest.mark.browser
def test_chombo_shows_its_cost_before_applying(browser: Any, demo: str) -> None:  # noqa: F811
    """The demo kiosk's first game (Tenhou): East, the dealer, would pay 12,000; South 8,000."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.goto(demo + "/other?lang=en")
    page.locator("#live.on").wait_for()
    expect(page.locator('#chombo button[data-seat="0"] .chombo-cost')).to_have_text("pays 12,000")
    expect(page.locator('#chombo button[data-seat="1"] .chombo-cost')).to_have_text("pays 8,000")
    box = page.locator('#chombo button[data-seat="1"]').bounding_box()
    assert box and box["y"] + box["height"] <= 480
    page.screenshot(path="test-artifacts/small-chombo-cost-800x480.png")
    page.close()


@pytest.mark.browser
def test_the_nagashi_row_does_not_look_like_the_tenpai_row(browser: Any, demo: str) -> None:  # noqa: F811
    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.goto(demo + "/draw?lang=en")
    page.locator("#live.on").wait_for()
    page.click('#tenpai button[data-seat="1"]')
    page.click('#nagashi button[data-seat="1"]')
    style = """(e) => { const s = getComputedStyle(e);
      return [s.backgroundColor, s.color]; }"""
    tenpai = page.locator('#tenpai button[data-seat="1"]').evaluate(style)
    nagashi = page.locator('#nagashi button[data-seat="1"]').evaluate(style)
    assert tenpai != nagashi  # a chosen seat in another colour
    frame = page.locator(".nagashi-box").evaluate(
        "(e) => getComputedStyle(e).borderTopStyle + ' ' + getComputedStyle(e).borderTopWidth")
    assert frame == "dashed 2px"  # and the row in a box of its own
    page.screenshot(path="test-artifacts/small-nagashi-800x480.png", full_page=True)
    page.close()
