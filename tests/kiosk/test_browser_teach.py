"""The teach-tiles page in Debian's chromium against the real kiosk (`python -m kiosk`), at the
kiosk's 800x480 screen and a 390x844 phone: open it from the Other page, upload the committed
frame of a laid-out set, see each located tile boxed and labelled, correct one, confirm, see the
summary, forget (with a confirm step); no horizontal scroll anywhere. Screenshots go to
test-artifacts/."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kiosk.server import running_kiosk
from tests.kiosk.teach_frame import FRAMES
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (the module's chromium fixture)

pytestmark = pytest.mark.browser
FRAME = FRAMES / "teach_set.jpg"
LABELS = [t["label"] for t in json.loads((FRAMES / "teach_set.json").read_text())["tiles"]]
NO_SIDEWAYS_SCROLL = ("() => document.documentElement.scrollWidth <= "
                      "document.documentElement.clientWidth")
SMALL_TARGETS = """() => [...document.querySelectorAll('button, a.btn, label.btn')]
    .filter((e) => e.offsetParent && e.getBoundingClientRect().height < 44)
    .map((e) => e.textContent)"""


@pytest.fixture
def kiosk_url(tmp_path: Path) -> Iterator[str]:
    with running_kiosk(tmp_path / "data", "--camera", "none") as base:
        yield base


@pytest.mark.parametrize("width, height", [(800, 480), (390, 844)], ids=["kiosk", "phone"])
def test_teach_the_tiles_then_forget_them(browser, kiosk_url: str, width: int,  # noqa: ANN001, F811
                                          height: int) -> None:
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    name = f"teach-{width}x{height}"

    page.goto(kiosk_url + "/other")
    page.click('#other-tabs [aria-controls="teach-panel"]')  # one section at a time
    page.click("#teach-link")
    page.wait_for_url(kiosk_url + "/teach")
    expect(page.locator("#status-line")).to_have_text(
        "Not taught: tiles are read as the shipped recogniser reads them.")
    expect(page.locator("#order .order-row")).to_have_count(5)
    expect(page.locator("#order .order-row").nth(3)).to_contain_text(
        "winds East South West North, dragons White Green Red")
    assert page.eval_on_selector_all("#order .tile", "ts => ts.map((t) => t.dataset.tile)") \
        == LABELS
    expect(page.locator("#forget-btn")).to_be_hidden()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)

    page.set_input_files("#upload", str(FRAME))
    expect(page.locator(".shot")).to_have_count(1)
    expect(page.locator(".teach-photo svg rect.box")).to_have_count(38)
    assert page.eval_on_selector_all(".teach-photo svg text",
                                     "ts => ts.map((t) => t.textContent)") == LABELS
    expect(page.locator(".shot .found")).to_have_text(
        "38 tiles found. Tap a tile to correct its label.")
    expect(page.locator(".shot .ok-line")).to_have_text("Every row as expected.")
    page.wait_for_function("() => document.querySelector('.teach-photo img').complete")
    box = page.locator(".teach-photo img").bounding_box()
    assert box and box["width"] <= width  # the photo fits the screen
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    assert page.evaluate(SMALL_TARGETS) == []
    shot(page, name + "-photo")

    # Correct one tile: this set's face-down tile is not taught (tap it, Remove).
    page.locator('.shot-tiles .tile[data-tile="back"]').click()
    page.click("#tile-picker .btn.danger")
    expect(page.locator(".shot-tiles .tile.unknown")).to_have_count(1)
    expect(page.locator(".teach-photo svg rect.box.unlabelled")).to_have_count(1)

    page.click("#confirm-btn")
    expect(page.locator("#status-line")).to_contain_text("Taught: 37 kinds of tile from 1 photo (")
    expect(page.locator("#toast")).to_contain_text("Taught in")
    expect(page.locator(".shot")).to_have_count(0)
    expect(page.locator("#confirm-btn")).to_be_disabled()
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    shot(page, name + "-taught")

    page.click("#forget-btn")  # asks first
    expect(page.locator("#forget-ask")).to_be_visible()
    expect(page.locator("#status-line")).to_contain_text("Taught")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    page.click("#forget-yes")
    expect(page.locator("#status-line")).to_have_text(
        "Not taught: tiles are read as the shipped recogniser reads them.")
    expect(page.locator("#forget-btn")).to_be_hidden()

    page.goto(kiosk_url + "/teach?lang=ja")  # the page in Japanese
    expect(page.locator("#teach-status h2")).to_have_text("牌を覚えさせる")
    expect(page.locator("#order .order-row").first).to_contain_text("萬子 1〜9")
    expect(page.locator("#status-line")).to_have_text("未学習：標準の認識で牌を読み取ります。")
    assert page.evaluate(NO_SIDEWAYS_SCROLL)
    shot(page, name + "-ja")
    assert errors == []
    page.close()


def test_a_bad_teaching_photo_cannot_be_confirmed_and_the_win_page_says_when_taught(  # noqa: ANN001
        browser, kiosk_url: str, tmp_path: Path) -> None:  # noqa: F811
    """Issue 36, item 6: row 1 with four more tiles before it (13 where 9 are asked) keeps
    Confirm off and says why; the clean row alone is confirmed; the win page then says a taught
    set is in use, with Forget beside it."""
    from playwright.sync_api import expect

    from tests.kiosk import stray_frames

    bad = stray_frames.write(tmp_path / "extra.jpg", stray_frames.teach_row(True))
    good = stray_frames.write(tmp_path / "row.jpg", stray_frames.teach_row())
    page = browser.new_page(viewport={"width": 800, "height": 480})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(kiosk_url + "/teach")
    expect(page.locator("#order .order-row")).to_have_count(5)
    for row in range(1, 5):  # this photo holds row 1 only
        page.uncheck(f'#order input[data-row="{row}"]')
    page.set_input_files("#upload", str(bad))
    expect(page.locator(".shot")).to_have_count(1)
    expect(page.locator(".shot .found")).to_have_text(
        "13 tiles found. Tap a tile to correct its label.")
    expect(page.locator(".shot .not-ok")).to_have_text(
        "This photo does not show the rows asked: take another photo (Confirm stays off until "
        "every photo does).")
    expect(page.locator(".shot .problems li")).to_have_text(
        ["13 tiles found, 9 expected", "13 tiles found in row 1 (1m-9m), 9 expected"])
    expect(page.locator("#confirm-btn")).to_be_disabled()
    shot(page, "teach-bad-photo-800x480")

    page.set_input_files("#upload", str(good))
    expect(page.locator(".shot")).to_have_count(2)
    expect(page.locator(".shot").nth(1).locator(".ok-line")).to_have_text(
        "Every row as expected.")
    expect(page.locator("#confirm-btn")).to_be_disabled()  # the bad photo is still there
    page.locator(".shot").first.get_by_role("button", name="Remove this photo").click()
    expect(page.locator(".shot")).to_have_count(1)
    expect(page.locator("#confirm-btn")).to_be_enabled()
    page.click("#confirm-btn")
    expect(page.locator("#status-line")).to_contain_text("Taught: 9 kinds of tile from 1 photo (")

    page.goto(kiosk_url + "/win")
    expect(page.locator("#taught-line")).to_be_visible()
    expect(page.locator("#taught-line")).to_contain_text("Reading with this table's taught tiles.")
    page.click("#taught-forget")
    expect(page.locator("#taught-ask")).to_be_visible()
    page.click("#taught-yes")
    expect(page.locator("#taught-line")).to_be_hidden()
    expect(page.locator("#taught-ask")).to_be_hidden()
    assert page.evaluate("fetch('/api/teach').then((r) => r.json()).then((s) => s.taught)") \
        is False
    assert errors == []
    page.close()
