"""Only the shown hand is read (issue 36, item 5), in Debian's chromium at 800 x 480, against the
real app, recogniser and server: tiles away from the hand are shown grey and not counted, one
tap brings one in, and the dora row clears in one tap.

The photos are tests/kiosk/stray_frames.py's: the demo hand (111m 77m 3s 0s 789s 555z winning
on 4s) with a row of 12 tiles four widths beside it, with its winning tile moved 7 widths away
too, or with 9m 9m 9m laid as the dora row. Known values (tests/kiosk/test_browser_fix.py): Bun
(South, not the dealer) winning by tsumo: menzen tsumo, haku and the red five, 3 han 40 fu,
1,300/2,600, Bun 25,000 -> 30,200. With the three 9m indicators each 1m is dora three times:
3 + 9 = 12 han, sanbaiman 6,000/12,000.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kiosk import stray_frames
from tests.kiosk.server import kiosk_on_frame
from tests.kiosk.test_browser import browser, shot  # noqa: F401
from tests.kiosk.test_browser_fix import labels, upload

pytestmark = pytest.mark.browser
HAND = ["1m", "1m", "1m", "7m", "7m", "3s", "0s", "7s", "8s", "9s", "5z", "5z", "5z"]
THREE_HAN = "3 han 40 fu — 1,300/2,600 (5,200)"


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    pytest.importorskip("cv2")
    root = tmp_path_factory.mktemp("stray")
    return {"wall": stray_frames.write(root / "wall.jpg"),
            "far": stray_frames.write(root / "far.jpg", far_winning_tile=True),
            "dora": stray_frames.write(root / "dora.jpg", wall=False, dora=True)}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, photos: dict[str, Path]) -> Iterator[str]:
    """The kiosk whose camera sees the hand with the wall beside it."""
    with kiosk_on_frame(tmp_path_factory.mktemp("set-aside"), photos["wall"]) as url:
        yield url


def grey(page) -> list[str]:  # noqa: ANN001
    return labels(page, "#g-unplaced .tile.aside")


def test_a_wall_in_view_is_set_aside_grey_and_the_win_applies_in_four_taps(  # noqa: ANN001
        open_page, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    page.goto(base + "/win")
    expect(page.locator("#capture-btn")).to_be_enabled()
    taps: list[str] = []

    def tap(selector: str) -> None:
        page.click(selector)
        taps.append(selector)

    tap("#capture-btn")
    expect(page.locator("#still rect.box")).to_have_count(14 + 12)
    expect(page.locator("#still rect.box.aside")).to_have_count(12)
    assert grey(page) == stray_frames.WALL
    assert labels(page, "#g-concealed .tile:not(.add)") == HAND
    assert labels(page, "#g-win .tile") == ["4s"] and labels(page, "#g-dora .tile:not(.add)") == []
    # grey: faded and without colour; none marked doubtful, none counted
    style = page.eval_on_selector("#g-unplaced .tile", "b => [getComputedStyle(b).opacity, "
                                  "getComputedStyle(b).filter]")
    assert style == ["0.45", "grayscale(1)"]
    assert page.locator("#tiles-editor .tile.low").count() == 0
    expect(page.locator("#reading-message")).to_have_text(
        "14 tiles read, none doubtful. Tap the winner, Tsumo or who dealt in, then Apply.")
    expect(page.locator("#reading-problems li")).to_have_text(
        ["12 tiles away from the hand were set aside, not counted in it (grey). Tap one to "
         "bring it in."])
    shot(page, "set-aside-wall-800x480")
    tap('#winner button[data-v="1"]')  # Bun,
    tap('#discarder button[data-v="null"]')  # by tsumo
    expect(page.locator("#total")).to_have_text(THREE_HAN)
    tap("#apply-btn")
    page.wait_for_url(base + "/")
    expect(page.locator('.seat[data-seat="1"] .points')).to_have_text("30,200")
    assert len(taps) == 4  # Capture, winner, Tsumo, Apply
    assert errors == []


def test_a_set_aside_winning_tile_comes_in_with_one_tap(  # noqa: ANN001
        open_page, base: str, photos: dict[str, Path]) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    page.goto(base + "/win")
    reading = upload(page, photos["far"])  # tap 1: Upload photo (and the file)
    assert [t["label"] for t in reading["hand"]["unplaced"]] == ["4s"] + stray_frames.WALL
    assert labels(page, "#g-win .tile:not(.add)") == []
    assert grey(page) == ["4s"] + stray_frames.WALL
    page.click('#g-unplaced .tile[data-tile="4s"]')  # tap 2: the hand is full, so the winning tile
    expect(page.locator("#tile-picker")).to_be_hidden()
    assert labels(page, "#g-win .tile") == ["4s"]
    assert grey(page) == stray_frames.WALL
    expect(page.locator("#still rect.box.aside")).to_have_count(12)
    page.click('#winner button[data-v="1"]')  # tap 3
    page.click('#discarder button[data-v="null"]')  # tap 4
    expect(page.locator("#total")).to_have_text(THREE_HAN)
    page.click("#apply-btn")  # tap 5
    page.wait_for_url(base + "/")
    expect(page.locator('.seat[data-seat="1"] .points')).to_have_text("30,200")
    assert errors == []


def test_the_dora_row_clears_in_one_tap(open_page, base: str,  # noqa: ANN001
                                        photos: dict[str, Path]) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    page.goto(base + "/win")
    upload(page, photos["dora"])
    assert labels(page, "#g-dora .tile:not(.add)") == stray_frames.DORA
    page.click('#winner button[data-v="1"]')
    page.click('#discarder button[data-v="null"]')
    expect(page.locator("#total")).to_have_text("12 han sanbaiman — 6,000/12,000 (24,000)")
    page.click("#dora-clear")  # the one tap
    assert labels(page, "#g-dora .tile:not(.add)") == []
    expect(page.locator("#dora-clear")).to_have_count(0)
    assert grey(page) == stray_frames.DORA  # set aside, where a drag brings one back
    expect(page.locator("#total")).to_have_text(THREE_HAN)
    shot(page, "set-aside-dora-cleared-800x480")
    assert errors == []
