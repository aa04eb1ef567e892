"""Whom a pon was called from, entered on the win page and drawn in the history (issue 18, item
2), in Debian's chromium against the real app and server.

A pon's three tiles are identical, so the called tile's label cannot say where it lies: the win
page sends the meld's `source` (kamicha, toimen, shimocha: the player on the winner's left,
across, on the right), and the history lays the called tile sideways where a real table does:
leftmost from the left, in the middle from across, rightmost from the right. The hand: 123m
406p 77z 56s and a pon of Green dragon, winning on 4s by ron (hatsu, 1 han).
"""

from __future__ import annotations

import json

import pytest

from tests.kiosk.test_browser import SHOTS, browser, pick, shot  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser


def sideways(page, selector: str) -> list[bool]:  # noqa: ANN001
    return page.locator(selector).evaluate_all(
        "ts => ts.map((t) => t.classList.contains('sideways'))")


@pytest.mark.parametrize("source, laid, size", [
    ("kamicha", [True, False, False], (800, 480)),
    ("toimen", [False, True, False], (390, 844)),
    ("shimocha", [False, False, True], (1280, 720)),
], ids=["from-the-left", "from-across", "from-the-right"])
def test_a_pon_s_called_tile_lies_where_it_came_from(  # noqa: ANN001
        open_page, base: str, source: str, laid: list[bool], size: tuple[int, int]) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(*size)
    page.goto(base + "/win")
    page.click("#manual-btn")
    page.click('.add-meld[data-kind="pon"]')
    for _ in range(3):
        page.click("#g-melds .meld .tile.add")
        pick(page, "6z")
    page.fill("#mpsz", "123m406p77z56s4s")
    page.click("#mpsz-set")
    page.select_option("#g-melds .meld-from", source)
    # The editor lays it so already, and nothing scrolls sideways on a phone.
    assert sideways(page, "#g-melds .meld .tile:not(.add)") == laid
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    page.locator("#g-melds").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"called-from-editor-{source}.png"))
    page.click('#winner button[data-v="1"]')
    page.click('#discarder button[data-v="3"]')
    with page.expect_request(lambda r: r.url.endswith("/api/wins")) as sent:
        page.click("#apply-btn")
    meld = json.loads(sent.value.post_data)["hand"]["melds"][0]
    assert (meld["kind"], meld["called"], meld["source"]) == ("pon", "6z", source)
    page.wait_for_url(base + "/")

    page.goto(base + "/history")
    pon = page.locator('#entries .entry .hand .set.called[data-meld="pon"] .tile').first
    expect(pon).to_be_visible()
    assert sideways(page, '#entries .entry:first-child .set.called[data-meld="pon"] .tile') == laid
    shot(page, f"called-from-{source}-{size[0]}x{size[1]}")
    assert errors == []
