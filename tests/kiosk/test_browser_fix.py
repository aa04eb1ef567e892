"""Checking and fixing a reading, and entering a hand quickly, in Debian's chromium (issue 18,
items 3 and 10), against the real app, recogniser and server.

The demo frame (tests/kiosk/frames/hand_11_001.jpg) shows 111m 77m 3s 0s 789s 555z winning on
4s, and the shipped recogniser reads it right. Known values:
- read right, nothing is doubtful: no tile and no box marked; the same photo saved at JPEG
  quality 9 is still read right, each tile between 0.54 and 0.97 with no rival, and is not marked
  either (the old 0.8 threshold marked several);
- the photo cut above the winning tile holds 13 tiles: "One tile is missing ..." and "No
  winning tile set apart ..." in a player's words; at a draw that hand is tenpai on 4s (kanchan
  3s-5s), and with 3s corrected to 9m it is not;
- Bun (South, not the dealer) winning on the photo by tsumo: menzen tsumo, haku and the red five,
  3 han; 20 + 2 (tsumo) + 8 (111m) + 8 (555z) + 2 (kanchan) = 40 fu: 1,300/2,600. By ron from
  Dai: haku and the red five, 2 han; 20 + 10 (closed ron) + 8 + 8 + 2 = 48 -> 50 fu: 3,200.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.server import kiosk_on_frame
from tests.kiosk.test_browser import FRAME, FRAMES, TRUTH, browser, pick, shot  # noqa: F401

pytestmark = pytest.mark.browser
INTERNAL = re.compile(r"meld grammar|sideways flag|tile\(s\)|unresolved|expected|decoder|gap\(s\)")
SORTED_HAND = ["1m", "1m", "1m", "7m", "7m", "3s", "0s", "7s", "8s", "9s", "5z", "5z", "5z"]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with kiosk_on_frame(tmp_path_factory.mktemp("fix"), FRAMES / FRAME) as url:
        yield url


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The demo frame at JPEG quality 9, and cut above its winning tile (13 tiles)."""
    cv2 = pytest.importorskip("cv2")
    root = tmp_path_factory.mktemp("photos")
    image = cv2.imread(str(FRAMES / FRAME))
    out = {"q9": root / "q9.jpg", "cut": root / "cut.png"}
    cv2.imwrite(str(out["q9"]), image, [cv2.IMWRITE_JPEG_QUALITY, 9])
    cv2.imwrite(str(out["cut"]), image[:345])
    return out


def shown(p: float) -> bool:
    """Whether the menu offers an alternative: "1 %" or more as the page rounds (JavaScript's
    Math.round takes 0.5 up, Python's round to even: 0.005 shows)."""
    return p * 100 >= 0.5


def labels(page, selector: str) -> list[str]:  # noqa: ANN001
    return page.eval_on_selector_all(selector, "ts => ts.map((t) => t.dataset.tile)")


def capture(page) -> dict[str, Any]:  # noqa: ANN001
    with page.expect_response(lambda r: r.url.endswith("/api/captures")
                              and r.request.method == "POST") as answer:
        page.click("#capture-btn")
    return answer.value.json()


def upload(page, path: Path, field: str = "#upload") -> dict[str, Any]:  # noqa: ANN001
    with page.expect_response(lambda r: r.url.endswith("/api/captures/upload")) as answer:
        page.set_input_files(field, str(path))
    return answer.value.json()


def tiles_of(reading: dict[str, Any]) -> list[dict[str, Any]]:
    h = reading["hand"]
    return h["concealed"] + ([h["win"]] if h["win"] else [])


@pytest.mark.parametrize("width, height", [(800, 480), (1280, 720), (390, 844), (1920, 1080)],
                         ids=["800x480", "1280x720", "390x844", "1920x1080"])
def test_a_photo_read_right_marks_nothing_and_draws_every_box(  # noqa: ANN001
        open_page, base: str, photos: dict[str, Path], width: int, height: int) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(width, height)
    page.goto(base + "/win")
    expect(page.locator("#capture-btn")).to_be_enabled()
    reading = capture(page)
    assert [t["label"] for t in tiles_of(reading)] == TRUTH["concealed"] + [TRUTH["winning"]]
    expect(page.locator("#still rect.box")).to_have_count(14)
    assert labels(page, "#g-concealed .tile:not(.add)") == SORTED_HAND
    assert page.locator("#still rect.box.doubt").count() == 0
    assert page.locator("#tiles-editor .tile.low").count() == 0
    expect(page.locator("#reading-message")).to_have_text(
        "14 tiles read, none doubtful. Tap the winner, Tsumo or who dealt in, then Apply.")
    expect(page.locator("#reading-problems li")).to_have_count(0)
    # Each box on the screen, inside the still (cropped to the tiles, the row turned across),
    # in the order of the tiles as laid out; the still within the screen's width.
    still = page.locator("#still").bounding_box()
    assert still and still["x"] >= 0 and still["x"] + still["width"] <= width
    boxes = page.eval_on_selector_all("#still rect.box", """rs => rs.map((r) => {
        const b = r.getBoundingClientRect();
        return [b.left, b.top, b.right, b.bottom]; })""")  # as bounding_box: in the viewport
    for left, top, right, bottom in boxes:
        assert still["x"] - 1 <= left < right <= still["x"] + still["width"] + 1
        assert still["y"] - 1 <= top < bottom <= still["y"] + still["height"] + 1
    assert [b[0] for b in boxes] == sorted(b[0] for b in boxes)  # the row runs across
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, f"fix-read-right-{width}x{height}")

    # The same photo, badly compressed: still read right (with the hand's help), at lower
    # confidences. Marked are the tiles hardly chosen (under 0.45) or with a runner-up of a
    # third of their probability (the rule of kiosk.words.reading_words), not the modest ones.
    reading = upload(page, photos["q9"])
    tiles = tiles_of(reading)
    assert [t["label"] for t in tiles] == TRUTH["concealed"] + [TRUTH["winning"]]

    def rivalled(t: dict[str, Any]) -> bool:
        rival = t["alternatives"][0][1] if t["alternatives"] else 0.0
        return t["confidence"] < 0.45 or rival >= t["confidence"] / 3

    modest = [t for t in tiles if t["confidence"] < 0.8 and not rivalled(t)]
    assert len(modest) >= 1 and not any(t["low"] for t in modest)  # the old 0.8 marked these
    marked = [t["label"] for t in tiles if t["low"]]
    assert marked == [t["label"] for t in tiles if rivalled(t)] and len(marked) < len(tiles) / 4
    expect(page.locator("#still rect.box")).to_have_count(14)
    assert page.locator("#still rect.box.doubt").count() == len(marked)
    assert page.locator("#tiles-editor .tile.low").count() == len(marked)
    assert errors == []


def test_a_tap_on_a_box_or_a_tile_opens_its_alternatives_then_the_picker(  # noqa: ANN001
        open_page, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(1280, 720)
    page.goto(base + "/win")
    reading = capture(page)
    red = next(t for t in reading["hand"]["concealed"] if t["label"] == "0s")
    # The red five's plain twin first (the one thing a table's set decides), then the
    # classifier's own next choices, as the reading gives them, less those at "0 %" (issue 38).
    expected = (["5s"] + [a for a, p in red["alternatives"] if a != "5s"
                          and shown(p)])[:4]
    page.click('#still rect.box[data-tile="0s"]')
    expect(page.locator("#tile-picker.menu")).to_be_visible()
    assert labels(page, "#menu-alts .tile") == expected
    expect(page.locator("#menu-read")).to_have_text(
        f"Read as red 5s ({round(red['confidence'] * 100)}%)")
    shot(page, "fix-alternatives-1280x720")
    page.click("#menu-other")  # then the whole picker
    expect(page.locator("#tile-picker .picker .tile")).to_have_count(38)
    pick(page, "9m")
    assert labels(page, "#g-concealed .tile:not(.add)") == [
        "1m", "1m", "1m", "7m", "7m", "9m", "3s", "7s", "8s", "9s", "5z", "5z", "5z"]
    expect(page.locator('#still rect.box[data-tile="9m"]')).to_have_class("box changed")
    expect(page.locator('#g-concealed .tile[data-tile="9m"]')).to_have_class(
        re.compile(r"\bchanged\b"))

    # A tap on a tile of the hand opens the same menu; an alternative is one more tap.
    # (a tile alone of its kind in the hand, so the page's tile is the reading's, with a
    # runner-up of 1 % or more)
    kinds = Counter(t["label"] for t in reading["hand"]["concealed"])
    unsure = next(t for t in reading["hand"]["concealed"] if kinds[t["label"]] == 1
                  and t["label"] not in ("0s", "9m")
                  and any(shown(p) for _, p in t["alternatives"]))
    page.click(f'#g-concealed .tile[data-tile="{unsure["label"]}"]')
    assert labels(page, "#menu-alts .tile") == [a for a, p in unsure["alternatives"]
                                                if shown(p)][:4]
    page.locator("#menu-alts .tile").first.click()
    first = unsure["alternatives"][0][0]
    assert first in labels(page, "#g-concealed .tile:not(.add)")
    expect(page.locator("#tile-picker")).to_be_hidden()
    assert errors == []


def drag(page, source: str, target: str) -> None:  # noqa: ANN001
    a = page.locator(source).first.bounding_box()
    b = page.locator(target).first.bounding_box()
    assert a and b
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(a["x"] + a["width"] / 2 + 20, a["y"] + a["height"] / 2, steps=3)
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=8)
    page.mouse.up()


def test_drag_a_tile_to_the_winning_tile_and_into_a_meld(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(1280, 720)
    page.goto(base + "/win")
    capture(page)
    # The 9s onto the winning tile: the two swap, the hand stays sorted.
    drag(page, '#g-concealed .tile[data-tile="9s"]', "#g-win .tile")
    assert labels(page, "#g-win .tile") == ["9s"]
    assert labels(page, "#g-concealed .tile:not(.add)") == [
        "1m", "1m", "1m", "7m", "7m", "3s", "4s", "0s", "7s", "8s", "5z", "5z", "5z"]
    expect(page.locator("#tile-picker")).to_be_hidden()  # a drag is not a tap
    # Three 5z into a new pon: the hand then takes 10 tiles (a meld is added from "More").
    page.click("#win-more > summary")
    page.click('.add-meld[data-kind="pon"]')
    for _ in range(3):
        drag(page, '#g-concealed .tile[data-tile="5z"]', "#g-melds .meld .tiles")
    assert labels(page, "#g-melds .meld .tile:not(.add)") == ["5z", "5z", "5z"]
    assert labels(page, "#g-concealed .tile:not(.add)") == [
        "1m", "1m", "1m", "7m", "7m", "3s", "4s", "0s", "7s", "8s"]
    # The same without dragging: the tile's menu moves it.
    page.click('#g-concealed .tile[data-tile="4s"]')
    page.click('#tile-picker [data-move="win"]')
    assert labels(page, "#g-win .tile") == ["4s"]
    assert "9s" in labels(page, "#g-concealed .tile:not(.add)")
    shot(page, "fix-moved-1280x720")
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_typed_hand_fills_the_hand_in_one_go_and_bad_text_is_named(  # noqa: ANN001
        open_page, base: str, lang: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480, lang)
    page.goto(base + "/win")
    page.click("#manual-btn")
    bad = {
        "123m45x6p": ("“45x” is not a tile: write digits, then m, p, s or z.",
                      "「45x」は牌ではありません。数字の後に m・p・s・z を書いてください。"),
        "123m456p8z": ("“8z”: honours are 1z to 7z.", "「8z」：字牌は1z〜7zです。"),
        "12m3": ("“3” has no suit letter after it: add m, p, s or z.",
                 "「3」の後に m・p・s・z がありません。"),
        "11111m": ("“1m”: 5 of one tile, and a set has only four.",
                   "「1m」：同じ牌が5枚あります（4枚まで）。"),
        "123m": ("3 tiles typed: with 0 melds the hand takes 13, or 14 with the winning tile.",
                 "3枚入力されました：副露0組なら手牌は13枚、和了牌を含めて14枚です。"),
    }
    for text, words in bad.items():
        page.fill("#mpsz", text)
        page.press("#mpsz", "Enter")
        expect(page.locator("#mpsz-error")).to_have_text(words[lang == "ja"])
        expect(page.locator("#g-concealed .tile:not(.add)")).to_have_count(0)
    page.fill("#mpsz", "123m406p789s11222z")
    page.click("#mpsz-set")
    expect(page.locator("#mpsz-error")).to_have_text("")
    assert labels(page, "#g-concealed .tile:not(.add)") == [
        "1m", "2m", "3m", "4p", "0p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"]
    assert labels(page, "#g-win .tile") == ["2z"]
    assert errors == []


def test_the_picker_stays_open_across_a_whole_hand(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    page.goto(base + "/win")
    page.click("#manual-btn")
    taps = 1
    page.click("#g-concealed .tile.add")  # opened once ...
    expect(page.locator("#picker-next")).to_have_text("Hand: tile 1 of 13")
    hand = ["2m", "3m", "4m", "4p", "5p", "6p", "2s", "2s", "3s", "4s", "0s", "6s", "7s"]
    for label in ["9m"] + hand:  # ... a wrong tile, taken back, then the hand
        page.click(f'#tile-picker .picker button[data-tile="{label}"]')
        taps += 1
        if label == "9m":
            expect(page.locator("#picker-strip .tile")).to_have_count(1)
            page.click("#picker-back")
            taps += 1
    expect(page.locator("#picker-next")).to_have_text("Now the winning tile")
    assert labels(page, "#picker-strip .tile") == []
    # Still open, and everything on the 800x480 screen: no scroll inside the dialog.
    assert page.evaluate("""() => { const d = document.querySelector('#tile-picker');
        return d.open && d.scrollHeight <= d.clientHeight && d.scrollWidth <= d.clientWidth; }""")
    shot(page, "fix-picker-sequence-800x480")
    page.click('#tile-picker .picker button[data-tile="8s"]')
    taps += 1
    expect(page.locator("#tile-picker")).to_be_hidden()  # the hand is full: it closes
    assert labels(page, "#g-concealed .tile:not(.add)") == hand
    assert labels(page, "#g-win .tile") == ["8s"]
    assert taps == 17  # 1 + 14 tiles, and 2 for the wrong tile; one tile a tap, as issue 18 asks
    assert errors == []


@pytest.mark.parametrize("how", ["tsumo", "ron"])
def test_photo_to_apply_in_three_taps_after_it(open_page, base: str, how: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    page.goto(base + "/win")
    expect(page.locator("#capture-btn")).to_be_enabled()
    taps: list[str] = []

    def tap(selector: str) -> None:
        page.click(selector)
        taps.append(selector)

    tap("#capture-btn")
    expect(page.locator("#still rect.box")).to_have_count(14)
    tap('#winner button[data-v="1"]')  # Bun
    # Tsumo or who dealt in: always tapped, nothing preselected (issue 38, item 9).
    tap('#discarder button[data-v="3"]' if how == "ron" else '#discarder button[data-v="null"]')
    # Scored by itself: no Score tap.
    total = "3 han 40 fu — 1,300/2,600 (5,200)" if how == "tsumo" else "2 han 50 fu — 3,200"
    expect(page.locator("#total")).to_have_text(total)
    tap("#apply-btn")
    page.wait_for_url(base + "/")
    bun = "30,200" if how == "tsumo" else "28,200"
    expect(page.locator('.seat[data-seat="1"] .points')).to_have_text(bun)
    assert len(taps) == 4  # counting the photo's own tap
    assert len(taps[1:]) <= 3  # photo -> Apply
    assert errors == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_problems_in_a_players_words(open_page, base: str, photos: dict[str, Path],  # noqa: ANN001
                                     lang: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(390, 844, lang)
    page.goto(base + "/win")
    upload(page, photos["cut"])
    expected = {
        "en": ["One tile is missing: a winning hand has 14. Add it with +, or lay it in the row "
               "and take the photo again.",
               "No winning tile set apart: drag the winning tile to “Winning tile”, or leave a "
               "gap before it and take the photo again."],
        "ja": ["牌が1枚足りません（和了形は14枚）。＋で追加するか、列に並べて撮り直してください。",
               "和了牌が離して置かれていません：和了牌を「和了牌」へ動かすか、少し離して撮り直してください。"],
    }[lang]
    expect(page.locator("#reading-problems li")).to_have_count(2)
    problems = page.eval_on_selector_all("#reading-problems li",
                                         "ls => ls.map((l) => l.textContent)")
    assert problems == expected
    assert not any(INTERNAL.search(p) for p in problems)
    expect(page.locator("#still rect.box")).to_have_count(13)
    # The missing winning tile: + on it, one tap on the 4s.
    page.click("#g-win .tile.add")
    page.click('#tile-picker .picker button[data-tile="4s"]')
    expect(page.locator("#tile-picker")).to_be_hidden()
    assert labels(page, "#g-win .tile") == ["4s"]
    shot(page, f"fix-problems-390x844-{lang}")
    assert errors == []


def test_tenpai_at_a_draw_from_an_uploaded_photo_then_corrected(  # noqa: ANN001
        open_page, base: str, photos: dict[str, Path]) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    page.goto(base + "/draw")
    page.click('#tenpai-photo button[data-seat="2"]')  # Chie: the camera's photo at once ...
    expect(page.locator("#tenpai-result")).to_have_text(
        "14 of 13 tiles: add or remove tiles to check.")  # ... shows a whole win
    upload(page, photos["cut"], "#tenpai-upload")  # the seat's own hand, uploaded
    expect(page.locator("#tenpai-result")).to_have_text("West Chie: tenpai, waiting on 4s")
    expect(page.locator('#tenpai button[data-seat="2"]')).to_have_class(re.compile(r"\bon\b"))
    assert labels(page, "#t-concealed .tile:not(.add)") == SORTED_HAND
    page.click('#t-concealed .tile[data-tile="3s"]')  # corrected: it was a 9m
    page.click("#menu-other")
    pick(page, "9m")
    expect(page.locator("#tenpai-result")).to_have_text("West Chie: not tenpai")
    expect(page.locator('#tenpai button[data-seat="2"]')).not_to_have_class(re.compile(r"\bon\b"))
    # Typed instead: two pairs of honours wait on either.
    page.fill("#tenpai-text", "123m456p789s1122z")
    page.press("#tenpai-text", "Enter")
    expect(page.locator("#tenpai-result")).to_have_text(
        "West Chie: tenpai, waiting on East wind, South wind")
    page.fill("#tenpai-text", "123m")
    page.press("#tenpai-text", "Enter")
    expect(page.locator("#tenpai-text-error")).to_have_text(
        "3 tiles typed: with 0 melds a waiting hand has 13.")
    shot(page, "fix-draw-tenpai-800x480")
    page.click("#draw-apply")
    page.wait_for_url(base + "/")
    expect(page.locator('.seat[data-seat="2"] .points')).to_have_text("28,000")  # 3,000 noten
    assert errors == []
