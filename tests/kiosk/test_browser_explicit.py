"""Issue 38, item 9's last two in Debian's chromium at 800x480: Tsumo is not preselected (who
dealt in is asked, a win is neither scored nor applied without it, and Score says so); at a
draw, 13 typed tiles are the seat's whole hand and replace a photo's reading, its melds too.

The photo at the draw is the demo frame hand_12_025.jpg (vision/demo_frames/expected.json):
33p 333s 66s 6s, pon 666p, chi 345m. Typed over it, 123m456p789s1122z waits on East and South."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.server import page_post, running_kiosk
from tests.kiosk.test_browser import browser  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]
MELDS_PHOTO = ROOT / "vision" / "demo_frames" / "hand_12_025.jpg"
SCREENS = ROOT / "runs" / "screens"
SIZES = [(800, 480), (1280, 720), (390, 844), (1920, 1080)]
PLAYERS = ["Aki", "Bun", "Chie", "Dai"]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_kiosk(tmp_path_factory.mktemp("explicit") / "data", "--camera", "none") as url:
        yield url


@pytest.fixture
def page(browser: Any, base: str) -> Iterator[Any]:  # noqa: F811
    page = browser.new_page(viewport={"width": 800, "height": 480})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(base + "/?lang=en")
    page_post(page, base, "/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
    yield page
    page.close()
    assert errors == []


def test_tsumo_is_not_preselected_and_a_win_waits_for_the_choice(page: Any, base: str) -> None:
    from playwright.sync_api import expect

    page.goto(base + "/win?lang=en")
    page.click("#manual-btn")
    page.fill("#mpsz", "234m456p22s345678s")  # a complete hand: scored once all is known
    page.press("#mpsz", "Enter")
    page.click('#winner button[data-v="1"]')
    expect(page.locator("#discarder button")).to_have_count(4)
    expect(page.locator("#discarder button.on")).to_have_count(0)  # neither Tsumo nor a ron
    expect(page.locator("#discarder")).to_have_class("seg asked")
    page.wait_for_timeout(400)  # the hand is complete: it would have been scored by now
    expect(page.locator("#total")).to_have_count(0)
    expect(page.locator("#apply-btn")).to_have_count(0)
    page.click("#score-btn")
    expect(page.locator("#toast.bad")).to_have_text("Tsumo, or who dealt in? Tap one first.")
    expect(page.locator("#apply-btn")).to_have_count(0)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        SCREENS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENS / f"win-how-asked-{width}x{height}.png"))
    page.set_viewport_size({"width": 800, "height": 480})
    page.click('#discarder button[data-v="0"]')  # a ron from Aki: scored at once
    expect(page.locator("#discarder button.on")).to_have_text("Ron: East Aki")
    expect(page.locator("#discarder")).not_to_have_class("seg asked")
    expect(page.locator("#total")).to_have_text("2 han 30 fu — 2,000")  # pinfu, tanyao
    page.click("#apply-btn")
    page.wait_for_url(base + "/")
    out = page.request.get(base + "/api/history").json()["entries"][-1]
    assert out["deltas"] == [-2000, 2000, 0, 0]  # a ron, not a tsumo


def test_quick_mode_asks_too(page: Any, base: str) -> None:
    from playwright.sync_api import expect

    page.goto(base + "/win?lang=ja")
    page.click('#mode button[data-mode="quick"]')
    page.click('#winner button[data-v="2"]')
    page.click("#score-btn")
    expect(page.locator("#toast.bad")).to_have_text("ツモか、誰からのロンかを先に選んでください。")
    page.click('#discarder button[data-v="null"]')
    page.click("#score-btn")
    expect(page.locator("#total")).to_contain_text("1翻30符")


def test_typed_tiles_replace_a_photos_reading_melds_too(page: Any, base: str) -> None:
    from playwright.sync_api import expect

    page.goto(base + "/draw?lang=en")
    page.click('#tenpai-photo button[data-seat="2"]')
    page.set_input_files("#tenpai-upload", str(MELDS_PHOTO))
    expect(page.locator("#t-melds .meld")).to_have_count(2)  # pon 666p, chi 345m
    page.fill("#tenpai-text", "123m456p789s1122z")
    page.press("#tenpai-text", "Enter")
    expect(page.locator("#tenpai-text-error")).to_have_text("")
    expect(page.locator("#t-melds .meld")).to_have_count(0)
    expect(page.locator("#tenpai-result")).to_have_text(
        "West Chie: tenpai, waiting on East wind, South wind")
    # Back to the photo: 7 tiles beside its two melds are taken; 5 are neither.
    page.set_input_files("#tenpai-upload", str(MELDS_PHOTO))
    expect(page.locator("#t-melds .meld")).to_have_count(2)
    page.fill("#tenpai-text", "33p333s66s")
    page.press("#tenpai-text", "Enter")
    expect(page.locator("#t-melds .meld")).to_have_count(2)
    expect(page.locator("#tenpai-result")).to_have_text(
        "West Chie: tenpai, waiting on 3p, 6s")
    page.fill("#tenpai-text", "33p33s6s")
    page.press("#tenpai-text", "Enter")
    expect(page.locator("#tenpai-text-error")).to_have_text(
        "5 tiles typed: type the whole hand (13 tiles, in place of the photo's melds), or the 7 "
        "beside its melds.")
