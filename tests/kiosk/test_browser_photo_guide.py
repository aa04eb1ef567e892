"""The photo's guidance on the win page (issue 38, items 2 and 3), in Debian's chromium against the
real app, recogniser and server, at 800 x 480, 1280 x 720, 390 x 844 and 1920 x 1080.

The photos are the kiosk tests' hand (tests/kiosk/frames/hand_11_001.jpg: 111m 77m 3s 0s 789s 555z
winning on 4s) laid out without the gap before the winning tile (the 4s moved up against the
last 5z, as players lay it), which reads as 14 tiles in the hand and none set apart; and cut
above its winning tile (13 tiles: "One tile is missing" and "No winning tile set apart").

Known values: every tile of that hand completes it as its winning tile, so "Which tile won?"
offers its nine kinds from the row's end back: 4s, 5z, 9s, 8s, 7s, 0s, 3s, 7m, 1m; one tap on
the 4s sets it. Bun (South, not the dealer) by tsumo: menzen tsumo, haku and the red five, 3 han
40 fu, 1,300/2,600 (tests/kiosk/test_browser_fix.py), whichever of its tiles came last (a kanchan
or shanpon's 2 fu round to the same 40), so with the winner and Tsumo chosen it is scored without
the answer.

The photo convention drawn in the "How to lay out" dialog, with the kiosk's own tile faces
(tiles.js): the hand 234m 678p 5s, a gap, the winning 5s, a pon of Chun with its middle tile
sideways (called from across), a closed kan of East with its outer two face down; under them
the dora indicators 3s 9m. Screenshots: test-artifacts/guide-*.png (copy to runs/screens/).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.server import kiosk_on_frame
from tests.kiosk.test_browser import FRAME, FRAMES, browser, shot  # noqa: F401
from tests.kiosk.test_browser_fit import OUT_OF_REACH
from tests.kiosk.test_browser_fix import SORTED_HAND, labels, upload

pytestmark = pytest.mark.browser
SIZES = [(800, 480), (1280, 720), (390, 844), (1920, 1080)]
SIZE_IDS = ["800x480", "1280x720", "390x844", "1920x1080"]
LIKELIEST = ["4s", "5z", "9s", "8s", "7s", "0s", "3s", "7m", "1m"]
ALL_GOOD = "14 tiles read, none doubtful. Tap the winner, Tsumo or who dealt in, then Apply."
THREE_HAN = "3 han 40 fu — 1,300/2,600 (5,200)"
PICTURE = {"hand": ["2m", "3m", "4m", "6p", "7p", "8p", "5s"], "win": ["5s"],
           "melds": ["7z", "7z", "7z"], "kan": ["back", "1z", "1z", "back"], "dora": ["3s", "9m"]}
LEGEND = {
    "en": ["Your concealed tiles, in one row facing the camera.",
           "A small gap, then the winning tile.",
           "The called melds as they lie on the table: the called tile sideways.",
           "A closed kan: its two outer tiles face down.",
           "A second row if you like: the dora indicators (after a riichi win, the ura dora "
           "indicators beside them)."],
    "ja": ["門前の手牌をカメラに向けて一列に並べます。", "少し離して、和了牌を置きます。",
           "鳴いた面子は卓に置いたとおりに：鳴いた牌は横向きに。",
           "暗槓は両端の2枚を伏せて置きます。",
           "2列目（なくてもかまいません）：ドラ表示牌（リーチで和了したときは裏ドラ表示牌も横に）。"],
}


def no_gap(path: Path) -> Path:
    """The hand with its winning tile moved up against the row (no gap), as a PNG."""
    cv2 = pytest.importorskip("cv2")
    image = cv2.imread(str(FRAMES / FRAME))
    tile = image[357:390, 381:419].copy()  # the 4s, on its own
    image[354:393, 378:421] = image[354:393, 440:483]  # the mat beside it where it lay
    image[343:376, 381:419] = tile  # one tile's step after the last 5z
    cv2.imwrite(str(path), image)
    return path


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    cv2 = pytest.importorskip("cv2")
    root = tmp_path_factory.mktemp("guide-photos")
    cut = root / "cut.png"
    cv2.imwrite(str(cut), cv2.imread(str(FRAMES / FRAME))[:345])
    return {"no_gap": no_gap(root / "no-gap.png"), "cut": cut}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, photos: dict[str, Path]) -> Iterator[str]:
    """The kiosk whose camera sees the hand laid out without the gap."""
    with kiosk_on_frame(tmp_path_factory.mktemp("guide"), photos["no_gap"]) as url:
        yield url


def in_reach(page: Any, selectors: list[str]) -> None:
    """Each on the screen, not covered, and wholly above the bar at the foot."""
    assert page.evaluate(OUT_OF_REACH, selectors) == []
    assert page.evaluate("document.scrollingElement.scrollWidth") <= page.evaluate("innerWidth")
    bar = page.evaluate("document.querySelector('.win-bar').getBoundingClientRect().top")
    for selector in selectors:
        box = page.locator(selector).first.bounding_box()
        assert box["y"] + box["height"] <= bar + 0.5, selector


@pytest.mark.parametrize("width, height", SIZES, ids=SIZE_IDS)
def test_which_tile_won_is_asked_the_list_is_never_stale_and_a_photo_can_be_retaken(  # noqa: ANN001
        open_page, base: str, photos: dict[str, Path], width: int, height: int) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(width, height)
    page.goto(base + "/win")
    # The cut photo: two problems, in sight above the tiles (not below the fold, nor under the
    # bar at the foot) ...
    upload(page, photos["cut"])
    expect(page.locator("#reading-problems li")).to_have_count(2)
    assert page.locator("#reading-problems li").nth(1).text_content().startswith(
        "No winning tile set apart")
    in_reach(page, ["#reading-problems"])
    # ... and said again after an edit: the 4s tapped in as the winning tile, both are gone.
    page.click("#g-win .tile.add")
    page.click('#tile-picker .picker button[data-tile="4s"]')
    expect(page.locator("#reading-problems li")).to_have_count(0)
    expect(page.locator("#reading-message")).to_have_text(ALL_GOOD)

    # Without the gap: no error, the question, the likeliest first, each a tile of the hand.
    page.click("#capture-btn")
    expect(page.locator("#win-ask")).to_be_visible()
    expect(page.locator("#win-ask-title")).to_have_text("Which tile won? Tap it:")
    assert labels(page, "#win-ask-tiles .tile") == LIKELIEST
    assert page.locator("#win-ask-tiles .tile.completes").count() == len(LIKELIEST)
    hand = labels(page, "#g-concealed .tile:not(.add)")
    assert hand == SORTED_HAND[:6] + ["4s"] + SORTED_HAND[6:]  # sorted, 4s before the red 5s
    assert labels(page, "#g-win .tile:not(.add)") == []
    expect(page.locator("#reading-problems li")).to_have_count(0)
    in_reach(page, ["#win-ask-title", "#win-ask-tiles .tile"])
    shot(page, f"guide-which-tile-{width}x{height}")
    page.click('#win-ask-tiles .tile[data-tile="4s"]')  # the one tap
    assert labels(page, "#g-win .tile") == ["4s"]
    assert labels(page, "#g-concealed .tile:not(.add)") == SORTED_HAND
    expect(page.locator("#win-ask")).to_be_hidden()
    expect(page.locator("#reading-message")).to_have_text(ALL_GOOD)

    page.click('#winner button[data-v="1"]')
    page.click('#discarder button[data-v="null"]')  # tsumo
    expect(page.locator("#bar-total")).to_have_text(THREE_HAN)
    # Scored: Capture and Upload still there, so another photo needs no reload: in reach as
    # they are on a landscape screen, below the situation on a phone.
    if width < 700:
        page.locator("#capture-btn").scroll_into_view_if_needed()
    in_reach(page, ["#capture-btn", 'label[for="upload"]'])
    assert page.evaluate(OUT_OF_REACH, ["#apply-btn"]) == []
    # The bar at the foot holds the total whole and fits the room the page leaves it, so the
    # page's end scrolls clear of it: on a phone two lines (the mode; the total, Score, Apply),
    # not three.
    bar = page.evaluate("""() => {
      const bar = document.querySelector('#win-bar').getBoundingClientRect();
      const total = document.querySelector('#bar-total');
      return {height: bar.height, room: parseFloat(getComputedStyle(
                document.querySelector('main')).paddingBottom),
              cut: total.scrollWidth > total.clientWidth || total.scrollHeight > total.clientHeight,
              lines: new Set([...document.querySelectorAll('#win-bar .btn')]
                .filter((b) => b.offsetParent !== null)
                .map((b) => Math.round(b.getBoundingClientRect().top))).size};
    }""")
    assert bar["height"] <= bar["room"] and not bar["cut"]
    assert bar["lines"] == (2 if width < 700 else 1)
    shot(page, f"guide-scored-{width}x{height}")
    page.click("#capture-btn")
    expect(page.locator("#win-ask")).to_be_visible()
    assert labels(page, "#win-ask-tiles .tile") == LIKELIEST
    # Bun's tsumo is 3 han 40 fu whichever tile won (every wait of it gives 40 fu): scored at
    # once on the row's last tile, and said so (kiosk/table/win_tile.py).
    expect(page.locator("#bar-total")).to_have_text(THREE_HAN)
    expect(page.locator("#win-inferred")).to_have_text(
        "Scored as won on 4s: whichever of these tiles won, the hand is worth the same.")

    # Tap tiles in: its box opens in view.
    page.click("#manual-btn")
    expect(page.locator("#mpsz")).to_be_visible()
    page.wait_for_timeout(200)
    in_reach(page, ["#mpsz", "#mpsz-set"])
    assert errors == []


@pytest.mark.parametrize("width, height", SIZES, ids=SIZE_IDS)
def test_how_to_lay_out_the_hand_is_drawn_with_our_tiles(  # noqa: ANN001
        open_page, base: str, width: int, height: int) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(width, height)
    page.goto(base + "/win")
    expect(page.locator("#capture-btn")).to_be_enabled()
    in_reach(page, ["#layout-btn"])
    page.click("#layout-btn")
    dialog = page.locator("#layout-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#layout-title")).to_have_text("How to lay out the hand for the photo")
    for group, faces in PICTURE.items():
        drawn = page.eval_on_selector_all(f'#lay-picture [data-group="{group}"] svg.tile-face',
                                          "ts => ts.map((t) => t.dataset.face)")
        assert drawn == faces, group
    sideways = page.eval_on_selector_all("#lay-picture .tile.sideways",
                                         "ts => ts.map((t) => t.closest('figure').dataset.group)")
    assert sideways == ["melds"]
    assert page.locator('#lay-picture [data-group="melds"] .tile').nth(1).get_attribute(
        "class").endswith("sideways")
    legend = page.eval_on_selector_all(".lay-legend li", "ls => ls.map((l) => l.textContent)")
    assert legend == LEGEND["en"]
    # The whole dialog on the screen, nothing of it scrolled away, its button in reach.
    box = dialog.bounding_box()
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height
    assert page.evaluate("document.querySelector('#layout-dialog').scrollHeight <= "
                         "document.querySelector('#layout-dialog').clientHeight + 1")
    assert page.evaluate(OUT_OF_REACH, ["#layout-close", "#lay-picture .tile"]) == []
    shot(page, f"guide-layout-{width}x{height}")
    page.click("#layout-close")
    expect(dialog).to_be_hidden()
    assert errors == []


def test_how_to_lay_out_in_japanese(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(800, 480, "ja")
    page.goto(base + "/win")
    expect(page.locator("#layout-btn")).to_have_text("並べ方")
    page.click("#layout-btn")
    expect(page.locator("#layout-title")).to_have_text("写真を撮るときの手牌の並べ方")
    legend = page.eval_on_selector_all(".lay-legend li", "ls => ls.map((l) => l.textContent)")
    assert legend == LEGEND["ja"]
    shot(page, "guide-layout-800x480-ja")
    assert errors == []
