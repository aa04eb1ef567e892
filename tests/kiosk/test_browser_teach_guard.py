"""Teaching cannot make a table worse (issue 36, item 6), in Debian's chromium at 800 x 480
against the real kiosk (`python -m kiosk`), recogniser and server.

Photos (tests/kiosk/stray_frames.py, cut from the committed teach set):

- the first row (1m-9m) with four cards of a tile's size before it, printed 麻 雀 入 門 (a mahjong
  primer's cover): the finder boxes one of them as a tile, so 10 tiles are found where the page
  asked for 9; Confirm stays off and the page says why, and labelling the tiles does not turn
  it on (what is checked is the layout);
- the same row photographed from across the table (9m..1m, upside down): laid out as asked, so
  Confirm is on, and each tile labelled by its place is labelled wrong (the 1m as 9m, the 7m as
  3m). Taught, the table's last confirmed win (the demo hand, 111m 77m 3s 0s 789s 555z + 4s,
  applied from its photo as Bun's tsumo: 3 han 40 fu) would read 9m 9m 9m 3m 3m where it reads
  1m 1m 1m 7m 7m: refused, the reason kept on the page in its language, nothing taught.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kiosk import stray_frames
from tests.kiosk.conftest import DEMO_FRAME
from tests.kiosk.server import kiosk_on_frame
from tests.kiosk.test_browser import browser, shot  # noqa: F401

pytestmark = pytest.mark.browser
ROW_1 = [f"{n}m" for n in range(1, 10)]
WHEN = r"\d{4}-\d\d-\d\d \d\d:\d\d"
REFUSED = {
    "en": rf"not taught: the win photo of {WHEN} reads 1m 1m 1m 7m 7m without it and 9m 9m 9m "
          r"3m 3m with it\. Check the labels, or take the photo again",
    "ja": rf"覚えさせませんでした：{WHEN}の和了の写真が、今回の学習なしでは1m 1m 1m 7m 7m、ありでは"
          r"9m 9m 9m 3m 3mと読まれます。名前を確かめるか、撮り直してください",
}
UNTAUGHT = "Not taught: tiles are read as the shipped recogniser reads them."


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The kiosk whose camera sees the demo hand."""
    with kiosk_on_frame(tmp_path_factory.mktemp("teach-guard"), DEMO_FRAME) as url:
        yield url


def only_row_1(page) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    expect(page.locator("#order .order-row")).to_have_count(5)
    for row in range(1, 5):  # the photos hold row 1 only
        page.uncheck(f'#order input[data-row="{row}"]')


def box_labels(page) -> list[str]:  # noqa: ANN001
    return page.eval_on_selector_all(".teach-photo svg text", "ts => ts.map((t) => t.textContent)")


def test_cards_read_as_tiles_keep_confirm_off(open_page, base: str,  # noqa: ANN001
                                              tmp_path: Path) -> None:
    from playwright.sync_api import expect

    font = stray_frames.card_font()
    if font is None:
        pytest.skip(f"the cards are printed in {stray_frames.CARD_FONT} (fonts-noto-cjk) with "
                    "Pillow (the training extra); .ci/run installs both")
    photo = stray_frames.write(tmp_path / "cards.jpg", stray_frames.teach_row_with_cards(font))
    page, errors = open_page(800, 480)
    page.goto(base + "/teach")
    only_row_1(page)
    page.set_input_files("#upload", str(photo))
    expect(page.locator(".shot")).to_have_count(1)
    expect(page.locator(".teach-photo svg rect.box")).to_have_count(10)
    assert box_labels(page) == ROW_1 + ["?"]  # the card: no label, boxed red
    expect(page.locator(".teach-photo svg rect.box.unlabelled")).to_have_count(1)
    expect(page.locator(".shot .found")).to_have_text(
        "10 tiles found. Tap a tile to correct its label.")
    expect(page.locator(".shot .not-ok")).to_have_text(
        "This photo does not show the rows asked: take another photo (Confirm stays off until "
        "every photo does).")
    expect(page.locator(".shot .problems li")).to_have_text(
        ["10 tiles found, 9 expected", "10 tiles found in row 1 (1m-9m), 9 expected"])
    expect(page.locator("#confirm-btn")).to_be_disabled()
    expect(page.locator("#confirm-btn")).to_be_in_viewport()  # in sight, and off
    shot(page, "teach-cards-800x480")
    # a label given to the card (tap it, a tile) does not make the layout right
    page.locator(".shot-tiles .tile.unknown").click()
    page.locator('#tile-picker .tile[data-tile="1z"]').first.click()
    expect(page.locator(".shot-tiles .tile.unknown")).to_have_count(0)
    expect(page.locator("#confirm-btn")).to_be_disabled()
    expect(page.locator("#status-line")).to_have_text(UNTAUGHT)
    assert errors == []


def test_a_teaching_that_reads_the_last_win_worse_is_refused_saying_why(  # noqa: ANN001
        open_page, base: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    photo = stray_frames.write(tmp_path / "turned.jpg", stray_frames.teach_row_turned())
    page, errors = open_page(800, 480)
    page.goto(base + "/win")  # the table's win, applied from its photo
    expect(page.locator("#capture-btn")).to_be_enabled()
    page.click("#capture-btn")
    expect(page.locator("#still rect.box")).to_have_count(14)
    page.click('#winner button[data-v="1"]')
    page.click('#discarder button[data-v="null"]')
    expect(page.locator("#total")).to_have_text("3 han 40 fu — 1,300/2,600 (5,200)")
    page.click("#apply-btn")
    page.wait_for_url(base + "/")

    for lang in ("en", "ja"):
        page.goto(f"{base}/teach?lang={lang}")
        only_row_1(page)
        page.set_input_files("#upload", str(photo))
        expect(page.locator(".shot")).to_have_count(1)
        expect(page.locator(".teach-photo svg rect.box")).to_have_count(9)
        assert box_labels(page) == ROW_1  # by place: each of them wrong
        expect(page.locator(".shot .problems")).to_have_count(0)
        expect(page.locator("#confirm-btn")).to_be_enabled()
        expect(page.locator("#teach-refused")).to_be_hidden()
        page.click("#confirm-btn")
        refused = page.locator("#teach-refused")
        expect(refused).to_have_text(re.compile(REFUSED[lang]))
        expect(refused).to_be_in_viewport()
        line, bar = refused.bounding_box(), page.locator("#teach-bar").bounding_box()
        assert line and bar and line["y"] + line["height"] <= bar["y"]  # not under the foot bar
        page.wait_for_timeout(6500)  # the toast has gone; the reason stays
        expect(page.locator("#toast")).to_be_hidden()
        expect(refused).to_be_visible()
        expect(page.locator(".shot")).to_have_count(1)  # the photo kept, to check or remove
        shot(page, f"teach-refused-{lang}-800x480")
        page.locator(".shot .row .btn").click()  # Remove this photo
        expect(refused).to_be_hidden()

    page.goto(base + "/teach?lang=en")
    expect(page.locator("#status-line")).to_have_text(UNTAUGHT)  # nothing taught
    page.goto(base + "/win")
    expect(page.locator("#taught-line")).to_be_hidden()
    assert page.evaluate("fetch('/api/teach').then((r) => r.json()).then((s) => s.taught)") \
        is False
    assert errors == []
