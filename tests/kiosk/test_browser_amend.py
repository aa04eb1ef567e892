"""Correcting a hand from the history in Debian's chromium (issue 38, item 5): tap a hand, change
its winner (or who was tenpai), look at what changes, Apply; at 800x480 the dialog, its preview
and Apply fit the screen. Screens of the dialog at the four sizes go to runs/screens/.

The game is tests/scorer/test_table_amend.py's (Tenhou's rules): as played (20900, 33400, 18600,
27100); hand 1 won by the dealer Aki instead of Bun: Bun's later tsumo is paid 1,100/600/600
instead of 1,000 all, Dai's last ron 1,300 instead of 1,600, and the points are (26900, 28800,
17100, 27200).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.server import page_post
from tests.kiosk.test_browser import browser  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
SCREENS = Path(__file__).resolve().parents[2] / "runs" / "screens"  # git-ignored

EVENTS = [
    ("/api/wins", {"winner": 1, "discarder": 2, "quick": {"han": 3, "fu": 30}}),
    ("/api/wins", {"winner": 1, "discarder": None, "quick": {"han": 2, "fu": 30}}),
    ("/api/riichi", {"seat": 3}),
    ("/api/draws", {"tenpai": [1, 3]}),
    ("/api/wins", {"winner": 3, "discarder": 0, "quick": {"han": 1, "fu": 30}}),
]


def played(open_page: Any, base: str, width: int, height: int, lang: str = "en") -> Any:
    page, errors = open_page(width, height, lang)
    for path, body in EVENTS:
        page_post(page, base, path, body)
    page.goto(f"{base}/history?lang={lang}")
    page.locator('.entry.amendable[data-index="1"]').wait_for()
    return page, errors


def shot(page: Any, name: str) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"))


def points(page: Any, base: str) -> list[int]:
    return [s["points"] for s in page.request.get(base + "/api/state").json()["seats"]]


def inside(page: Any, selector: str) -> None:
    """The element is wholly on the screen (no scrolling needed to reach it)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and box["x"] >= 0 and box["y"] >= 0, selector
    assert box["x"] + box["width"] <= size["width"] + 1, (selector, box)
    assert box["y"] + box["height"] <= size["height"] + 1, (selector, box)


def test_tap_a_hand_change_its_winner_see_every_later_hand_repaid_and_apply(
        open_page: Any, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = played(open_page, base, 800, 480)
    # 1 tap on the hand, 1 choice of winner, 1 tap to see the changes, 1 to apply
    page.locator('.entry[data-index="1"]').click()
    expect(page.locator("#amend-title")).to_have_text("Correct event 2")
    expect(page.locator("#amend-fields [name='discarder']")).to_have_value("2")
    page.select_option("#amend-fields [name='winner']", "0")
    page.click("#amend-preview-btn")
    tsumo = page.locator('#amend-table tr[data-index="2"]')
    expect(tsumo).to_contain_text("East 2, 0 honba")  # struck: where it was played
    expect(tsumo).to_contain_text("East 1, 1 honba")  # where it is now
    expect(tsumo.locator("td.num").nth(0)).to_have_text("-1,000-1,100")
    expect(tsumo.locator("td.num").nth(1)).to_have_text("+3,000+2,300")
    last = page.locator('#amend-table tr[data-index="5"] td.num')
    expect(last.nth(0)).to_have_text("-1,600-1,300")
    expect(page.locator("#amend-table tr.total")).to_contain_text("26,900")
    expect(page.locator("#amend-apply")).to_have_text("Apply")
    for selector in ("#amend-dialog", "#amend-apply", "#amend-preview-btn"):
        inside(page, selector)
    shot(page, "amend-preview-800x480")
    page.click("#amend-apply")
    expect(page.locator("#amend-dialog")).to_be_hidden()
    expect(page.locator("#toast")).to_have_text("Corrected: the later hands are paid again")
    assert points(page, base) == [26900, 28800, 17100, 27200]
    expect(page.locator('.entry[data-index="1"]')).to_contain_text("Aki")
    assert errors == []


def test_the_tenpai_seats_of_a_draw_and_a_game_that_ends_earlier(open_page: Any,
                                                                 base: str) -> None:
    from playwright.sync_api import expect

    page, errors = played(open_page, base, 800, 480)
    page.locator('.entry[data-index="4"]').click()
    bun = page.locator('#amend-fields button[data-seat="1"]')
    expect(bun).to_have_attribute("aria-pressed", "true")
    bun.click()  # only Dai tenpai: 1,000 from each of the three others
    page.click("#amend-preview-btn")
    expect(page.locator('#amend-table tr[data-index="4"] td.num').nth(3)).to_have_text(
        "+1,500+3,000")
    shot(page, "amend-draw-800x480")
    page.click("#amend-dialog button[value='cancel']")
    # Hand 1 made a yakuman: Chie goes bust there, the four later events are named and dropped
    page.locator('.entry[data-index="1"]').click()
    page.select_option("#amend-fields [name='han']", "y1")
    page.click("#amend-preview-btn")
    expect(page.locator("#amend-drop")).to_contain_text(
        "Event 3 can no longer happen: the game now ends before it (a player went bust)")
    expect(page.locator("#amend-drop li")).to_have_count(4)
    expect(page.locator("#amend-apply")).to_have_text("Apply and remove 4 events")
    inside(page, "#amend-apply")
    shot(page, "amend-drop-800x480")
    page.click("#amend-apply")
    expect(page.locator("#amend-dialog")).to_be_hidden()
    assert points(page, base) == [25000, 57000, -7000, 25000]
    assert errors == []


@pytest.mark.parametrize(("width", "height", "lang"), [
    (1280, 720, "en"), (390, 844, "en"), (1920, 1080, "en"), (800, 480, "ja"),
    (800, 480, "zh-Hans")])
def test_the_preview_fits_each_screen(open_page: Any, base: str, width: int, height: int,
                                      lang: str) -> None:
    from playwright.sync_api import expect

    page, errors = played(open_page, base, width, height, lang)
    page.locator('.entry[data-index="1"]').click()
    page.select_option("#amend-fields [name='winner']", "0")
    page.click("#amend-preview-btn")
    expect(page.locator("#amend-apply")).to_be_visible()
    for selector in ("#amend-dialog", "#amend-apply"):
        inside(page, selector)
    shot(page, f"amend-preview-{width}x{height}-{lang}")
    assert errors == []
