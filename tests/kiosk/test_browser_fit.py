"""Every page fits the screen, in Debian's chromium (issue 18, item 1), against the real app and
server, at 800x480 (the Pi's 7" display), 1280x720 (Pi Touch Display 2, landscape), 390x844 (a
phone) and 1920x1080.

"Fits" is measured from element boxes: no sideways scroll (the document no wider than the
window), and the controls a player needs for the page's main step inside the window with the
page not scrolled, each one the element found at its own centre (nothing pinned over it). The win
page is checked at each step of the main flow: before the photo (Capture, the live view), after
it (the still, every tile, the winner's buttons, Score) and once scored (Apply beside the total).
A screenshot of every page at every size goes to test-artifacts/ (fit-<page>-<size>.png, and
fit-win-<step>-<size>.png).

Also two things the pages showed wrong: the table's last event twice (under the table and, while
new, in the centre), and the history's hands without their red fives and sideways tiles.

The demo frame (tests/kiosk/frames/hand_11_001.jpg) shows 111m 77m 3s 0s 789s 555z winning on
4s: Bun's tsumo on it is 3 han 40 fu, 1,300/2,600 (tests/kiosk/test_browser_fix.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.kiosk.server import kiosk_on_frame, page_post
from tests.kiosk.test_browser import FRAME, FRAMES, browser, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
SIZES = [(800, 480), (1280, 720), (390, 844), (1920, 1080)]
SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]
#: Each page's main step: what a player needs on the screen without scrolling.
NEEDED = {
    "table": [".seat", ".centre", "#win-btn", "#draw-btn", "#undo-btn"],
    "draw": ["#tenpai button", "#tenpai-photo button", "#nagashi button", "#draw-apply",
             ".abort-btn"],
    "new": ["#preset", "[name=player0]", "[name=player3]", "#start-btn"],
    # the latest games' Resume, and Import in its bar at the foot
    "games": ["#new-game-link", "#games > li:nth-child(-n+2) [data-resume]",
              "#import-form label.file", "#import-btn"],
    "standings": ["#standings tbody tr", "main a.btn.primary"],
    "history": ["#undo-btn", "#entries .entry"],
    "other": ["#other-tabs [role=tab]", "#chombo button"],
    "teach": ["#take-btn", "#upload-label", "#confirm-btn"],  # in the bar at the foot
}
#: The other page's sections, one at a time under its tabs: each one's controls, its tab shown.
OTHER_TABS = {
    "correction-panel": ["#correction input", "#reason", "#correction-apply"],
    "end-panel": ["#end-btn"],
    "teach-panel": ["#teach-link"],
    "devices-panel": ["#devices li"],
}
PATHS = {"table": "/", "new": "/new"}
#: Tanyao, a red five and an open pon of 6s called from the player opposite (toimen): drawn
#: with its middle tile sideways.
RED_AND_PON = {"winner": 1, "hand": {
    "concealed": "2m,3m,4m,3p,4p,0p,6s,7s,8s,2p", "win": "2p",
    "melds": [{"kind": "pon", "tiles": "6s,6s,6s", "called": "6s", "source": "toimen"}]}}

# Each element matched, rendered: inside the window, and the element at its centre is itself
# (or inside it): not under the bar pinned at the foot, nor scrolled away.
OUT_OF_REACH = """(selectors) => {
  const out = [];
  for (const selector of selectors) {
    const found = [...document.querySelectorAll(selector)].filter((e) => e.getClientRects().length);
    if (!found.length) out.push(selector + ": none shown");
    for (const e of found) {
      const r = e.getBoundingClientRect();
      const inside = r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5
        && r.bottom <= innerHeight + 0.5;
      const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
      const hit = inside && document.elementFromPoint(x, y);
      if (!inside || !(hit && (e === hit || e.contains(hit)))) {
        out.push(`${selector} (${e.id || e.textContent.trim().slice(0, 20) || e.tagName}) at ` +
                 `${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},` +
                 `${Math.round(r.bottom)}` + (inside ? " is covered" : " is off the screen"));
      }
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with kiosk_on_frame(tmp_path_factory.mktemp("fit"), FRAMES / FRAME) as url:
        yield url


def assert_fits(page, selectors: list[str]) -> None:  # noqa: ANN001
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width, "a sideways scroll"
    assert page.evaluate("window.scrollY") == 0, "the page scrolled itself"
    assert page.evaluate(OUT_OF_REACH, selectors) == []


def page_height(page) -> int:  # noqa: ANN001
    return int(page.evaluate("document.scrollingElement.scrollHeight"))


@pytest.mark.parametrize("width, height", SIZES, ids=SIZE_IDS)
def test_the_win_page_fits_each_step_of_a_photo_to_apply(  # noqa: ANN001
        open_page, base: str, width: int, height: int) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(width, height)
    page.goto(base + "/win")
    expect(page.locator("#capture-btn")).to_be_enabled()
    assert_fits(page, ["#capture-btn", "#manual-btn", "#live-view", "#mode button",
                       "#score-btn"])
    # The photo's buttons are wholly above the bar at the foot, not half under it.
    bar_top = page.evaluate("document.querySelector('.win-bar').getBoundingClientRect().top")
    for button in ("#capture-btn", "#manual-btn"):
        box = page.locator(button).bounding_box()
        assert box["y"] + box["height"] <= bar_top, button
    shot(page, f"fit-win-photo-{width}x{height}")

    page.click("#capture-btn")
    expect(page.locator("#still rect.box")).to_have_count(14)
    # Checking the reading: the still, every tile, and who won.
    assert_fits(page, ["#still", "#g-concealed .tile", "#g-win .tile", "#g-dora .tile",
                       "#winner button", "#score-btn"])
    shot(page, f"fit-win-check-{width}x{height}")

    page.click('#winner button[data-v="1"]')  # Bun,
    page.click('#discarder button[data-v="null"]')  # by tsumo: scored at once
    expect(page.locator("#bar-total")).to_have_text("3 han 40 fu — 1,300/2,600 (5,200)")
    # Apply beside the total, the tiles, who won and who dealt in (for a ron).
    assert_fits(page, ["#g-concealed .tile", "#g-win .tile", "#winner button", "#bar-total",
                       "#apply-btn", "#discarder button"])
    shot(page, f"fit-win-scored-{width}x{height}")
    print(f"win page {width}x{height}: {page_height(page)} px tall once scored")
    assert errors == []


@pytest.mark.parametrize("width, height", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("name", list(NEEDED))
def test_every_page_fits(open_page, base: str, name: str, width: int,  # noqa: ANN001
                         height: int) -> None:
    page, errors = open_page(width, height)
    page_post(page, base, "/api/wins", RED_AND_PON)  # something in the history and standings
    # the tab forgets the table it saw: a page it saw before the win would show the win's
    # moment over the screen for 6 s (moments.js), covering the seats whenever it was that fast
    page.evaluate("() => { try { sessionStorage.clear(); } catch (e) { /* about:blank */ } }")
    page.goto(base + PATHS.get(name, "/" + name))
    page.locator("#live.on").wait_for()
    for selector in NEEDED[name]:  # each drawn (the games list comes after its static bar)
        page.locator(selector).first.wait_for()
    assert_fits(page, NEEDED[name])
    shot(page, f"fit-{name}-{width}x{height}")
    print(f"{name} {width}x{height}: {page_height(page)} px tall")
    assert errors == []


@pytest.mark.parametrize("width, height", SIZES, ids=SIZE_IDS)
def test_each_section_of_the_other_page_fits(open_page, base: str, width: int,  # noqa: ANN001
                                             height: int) -> None:
    page, errors = open_page(width, height)
    page.goto(base + "/other")
    page.locator("#chombo button").first.wait_for()
    for panel, needed in OTHER_TABS.items():
        page.click(f'#other-tabs [aria-controls="{panel}"]')
        page.locator(needed[-1]).first.wait_for()
        assert_fits(page, ["#other-tabs [role=tab]", *needed])
        shot(page, f"fit-other-{panel.removesuffix('-panel')}-{width}x{height}")
    assert errors == []


@pytest.mark.parametrize("width, height", SIZES, ids=SIZE_IDS)
def test_the_table_fits_while_it_shows_what_moved(open_page, base: str, width: int,  # noqa: ANN001
                                                  height: int) -> None:
    """After a hand each seat shows its change for a few seconds: the actions stay on screen."""
    from playwright.sync_api import expect

    page, errors = open_page(width, height)
    page.locator("#live.on").wait_for()
    page_post(page, base, "/api/wins", RED_AND_PON)  # from another device: the live view shows it
    expect(page.locator(".seat.moved")).to_have_count(4)
    # Bun's tsumo: tanyao and the red five, 2 han 30 fu, 500 / 1,000 from a non-dealer.
    expect(page.locator('.seat[data-seat="1"] .delta')).to_have_text("+2,000")
    page.locator("#moment").click()  # the win over the whole screen (moments.js), put away
    assert_fits(page, [*NEEDED["table"], ".seat .delta", "#moved"])
    shot(page, f"fit-table-moved-{width}x{height}")
    assert errors == []


def test_the_last_event_shows_once(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    page.locator("#live.on").wait_for()
    page_post(page, base, "/api/riichi", {"seat": 2})  # from another device
    expect(page.locator("#moved")).to_be_visible()
    text = page.locator("#moved").inner_text()
    assert text
    shown = """(text) => [...document.querySelectorAll('main *')].filter((e) =>
        e.children.length === 0 && e.getClientRects().length && e.textContent.trim() === text)
        .map((e) => e.id)"""
    assert page.evaluate(shown, text) == ["moved"]
    # Once it settles, it stays under the table: still once.
    expect(page.locator("#moved")).to_be_hidden(timeout=9000)
    assert page.evaluate(shown, text) == ["last-event"]
    assert errors == []


def test_a_history_hand_shows_its_red_five_and_sideways_tile(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    page_post(page, base, "/api/wins", RED_AND_PON)
    page.goto(base + "/history")
    hand = page.locator("#entries .entry .hand").first
    expect(hand).to_be_visible()
    faces = hand.locator("svg.tile-face")
    assert faces.evaluate_all("fs => fs.map((f) => f.dataset.face)") == [
        "2m", "3m", "4m", "3p", "4p", "0p", "6s", "7s", "8s", "2p", "2p", "6s", "6s", "6s"]
    red = hand.locator('.tile.red svg[data-face="0p"] .red-mark')
    expect(red).to_have_count(1)
    # The pon: framed as called, its middle tile (from the player opposite) lying sideways.
    pon = hand.locator('.set.called[data-meld="pon"] .tile')
    assert pon.evaluate_all("ts => ts.map((t) => t.classList.contains('sideways'))") == [
        False, True, False]
    expect(hand.locator(".tile.sideways svg.tile-face.sideways")).to_have_count(1)
    box = hand.locator(".tile.sideways").bounding_box()
    assert box and box["width"] > box["height"]  # drawn lying down
    shot(page, "fit-history-red-pon-800x480")
    assert errors == []


@pytest.mark.parametrize("width, height", [(800, 480), (390, 844)], ids=["800x480", "390x844"])
def test_the_games_page_keeps_import_in_reach_however_long_the_list(  # noqa: ANN001
        open_page, base: str, width: int, height: int) -> None:
    """Eight games and more: the list runs below the fold, New game, the latest games' Resume
    and Import (in its bar at the foot) stay on the screen, and the last game scrolls clear of
    the bar."""
    page, errors = open_page(width, height)
    for n in range(7):
        page_post(page, base, "/api/games", {"players": [f"P{n}{s}" for s in "ABCD"],
                                             "ruleset": "tenhou"})
    page.goto(base + "/games")
    page.locator("#live.on").wait_for()
    page.locator("#games > li:nth-child(8)").wait_for()
    assert page_height(page) > height  # the list is longer than the screen
    assert_fits(page, NEEDED["games"])
    page.evaluate("window.scrollTo(0, document.scrollingElement.scrollHeight)")
    last = page.locator("#import-help").bounding_box()
    bar = page.locator("#import-panel").bounding_box()
    assert last and bar and last["y"] + last["height"] <= bar["y"]  # not hidden under the bar
    shot(page, f"fit-games-long-{width}x{height}")
    assert errors == []
