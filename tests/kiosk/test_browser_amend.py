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


TILES_EVENTS = [
    ("/api/wins", {"winner": 1, "discarder": 2,
                   "hand": {"concealed": "234m567m345p67s22p", "win": "8s"}}),
    ("/api/wins", {"winner": 3, "discarder": 0, "quick": {"han": 1, "fu": 30}}),
]


def test_a_win_s_tiles_typed_again_are_scored_again_by_the_rules(open_page: Any,
                                                                  base: str) -> None:
    """Bun's ron off Chie was recorded from its tiles, 234m567m345p67s22p + 8s: tanyao and
    pinfu, 2 han 30 fu, a non-dealer's ron of 30 x 2^4 x 4 = 1,920 -> 2,000. Its tiles were
    223344m345p67s22p + 8s: iipeikou as well, 3 han 30 fu, 30 x 2^5 x 4 = 3,840 -> 3,900. Bun
    keeps the hand, so Dai's later ron off Aki (1 han 30 fu, 1,000) is paid as before: the table
    ends on (24,000, 28,900, 21,100, 26,000) instead of (24,000, 27,000, 23,000, 26,000). A
    typed hand that is no win shows the scorer's words and applies nothing. Taps: the hand,
    Tiles (its box takes the typing), Show the changes, Apply: 4 and the tiles typed."""
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    for path, body in TILES_EVENTS:
        page_post(page, base, path, body)
    page.goto(f"{base}/history?lang=en")
    page.locator('.entry.amendable[data-index="2"]').click()  # a han-and-fu hand: no Tiles
    expect(page.locator("#amend-fields .amend-by-tiles")).to_have_count(0)
    page.click("#amend-dialog button[value='cancel']")

    page.locator('.entry[data-index="1"]').click()
    page.click("#amend-fields .amend-by-tiles")
    box = page.locator("#amend-tiles-0")
    expect(box).to_be_focused()
    expect(box).to_have_value("234567m22345p67s 8s")  # as recorded, the winning tile last
    expect(page.locator("#amend-fields [name='han']")).to_be_hidden()
    expect(page.locator("#amend-fields [name='ura']")).to_have_count(0)  # no riichi

    box.fill("234567m22345p67s 9s")  # no winning hand: the scorer's words, nothing to apply
    page.click("#amend-preview-btn")
    expect(page.locator("#amend-error")).to_contain_text("Not a winning hand")
    expect(page.locator("#amend-apply")).to_be_hidden()
    box.fill("234567m2345p67s 8s")  # a tile short: said before anything is sent
    page.click("#amend-preview-btn")
    expect(page.locator("#amend-error")).to_have_text(
        "13 tiles typed: with 0 melds the hand and its winning tile are 14.")

    box.fill("223344m22345p67s 8s")
    page.click("#amend-preview-btn")
    row = page.locator('#amend-table tr[data-index="1"]')
    expect(row.locator("td.num").nth(1)).to_have_text("+2,000+3,900")
    expect(row.locator("td.num").nth(2)).to_have_text("-2,000-3,900")
    later = page.locator('#amend-table tr[data-index="2"] td.num')
    expect(later.nth(0)).to_have_text("-1,000")  # paid as before: nothing struck
    expect(later.nth(3)).to_have_text("+1,000")
    total = page.locator("#amend-table tr.total td.num")
    expect(total.nth(1)).to_have_text("27,00028,900")
    expect(total.nth(2)).to_have_text("23,00021,100")
    for selector in ("#amend-dialog", "#amend-apply"):
        inside(page, selector)
    shot(page, "amend-tiles-800x480")
    page.click("#amend-apply")
    expect(page.locator("#amend-dialog")).to_be_hidden()
    assert points(page, base) == [24000, 28900, 21100, 26000]
    hand = page.request.get(base + "/api/export.json").json()["events"][1]["hands"][0]
    assert (hand["han"], hand["fu"], hand["hand"]) == (3, 30, "223344m22345p678s win 8s")
    assert "iipeikou" in [y["id"] for y in hand["breakdown"]["yaku"]]
    assert errors == []


def open_its_tiles(page: Any, base: str, lang: str, index: int) -> None:
    """Bun's ron off Chie from its tiles, 234m567m345p67s22p + 8s with the dora indicator 1p,
    recorded as the history's entry `index`, then its Tiles opened from the history in `lang`."""
    page_post(page, base, "/api/wins", {"winner": 1, "discarder": 2, "hand": {
        "concealed": "234m567m345p67s22p", "win": "8s", "dora": "1p"}})
    page.goto(f"{base}/history?lang={lang}")
    page.locator(f'.entry.amendable[data-index="{index}"]').click()
    page.click("#amend-fields .amend-by-tiles")


@pytest.mark.parametrize(("width", "height", "lang"), [
    (800, 480, "en"), (1280, 720, "en"), (390, 844, "en"), (1920, 1080, "en"), (800, 480, "ja"),
    (800, 480, "zh-Hans")])
def test_the_tiles_of_a_riichi_win_fit_each_screen(open_page: Any, base: str, width: int,
                                                   height: int, lang: str) -> None:
    """Bun's riichi ron off Chie, 234m567m345p67s22p + 8s with the dora indicator 1p: riichi,
    tanyao, pinfu, dora 2, 5 han, a mangan of 8,000 and the riichi stick: +9,000. The record
    keeps the indicators it was scored with (breakdown.tiles.dora), so the dialog starts from
    1p (and asks for the ura dora's after a riichi); typed again with iipeikou the hand is 6 han,
    a haneman of 12,000: +13,000."""
    from playwright.sync_api import expect

    page, errors = open_page(width, height, lang)
    page_post(page, base, "/api/riichi", {"seat": 1})
    open_its_tiles(page, base, lang, 2)
    expect(page.locator("#amend-fields [name='dora']")).to_have_value("1p")
    expect(page.locator("#amend-fields [name='ura']")).to_have_value("")
    expect(page.locator("#amend-fields .amend-dora-was")).to_have_count(0)
    page.fill("#amend-tiles-0", "223344m22345p67s 8s")
    inside(page, "#amend-preview-btn")
    shot(page, f"amend-tiles-form-{width}x{height}-{lang}")
    page.locator("#amend-fields [name='dora']").press("Enter")  # Enter shows the changes
    expect(page.locator('#amend-table tr[data-index="2"] td.num').nth(1)).to_have_text(
        "+9,000+13,000")
    for selector in ("#amend-dialog", "#amend-apply"):
        inside(page, selector)
    shot(page, f"amend-tiles-{width}x{height}-{lang}")
    assert errors == []


def test_a_win_s_tiles_typed_again_unchanged_in_japanese_change_nothing(open_page: Any,
                                                                         base: str) -> None:
    """Bun's ron off Chie scored from its tiles in English (234m567m345p67s22p + 8s, dora
    indicator 1p), its Tiles opened from a Japanese history and shown unchanged (prefilled
    sorted, 234567m22345p67s 8s): the same hand, scored again in Japanese words, is refused as
    the hand as recorded, and nothing is there to apply."""
    from playwright.sync_api import expect

    page, errors = open_page(800, 480, "en")
    open_its_tiles(page, base, "ja", 1)
    expect(page.locator("#amend-tiles-0")).to_have_value("234567m22345p67s 8s")
    page.click("#amend-preview-btn")
    expect(page.locator("#amend-error")).to_have_text("修正内容が記録と同じです。何も変わりません")
    expect(page.locator("#amend-apply")).to_be_hidden()
    assert errors == []
