"""The kiosk in Debian's chromium through Playwright, against the real app and server:
start a game, capture a demo frame, correct a tile, apply the win and watch a second page update
without a reload, declare riichi, record a draw, undo, finish the game and see the standings.
Screenshots of the main screens go to test-artifacts/.

The demo frame shows 111m 77m 3s 0s 789s 555z, winning on 4s (the generator's truth is in
tests/kiosk/frames/expected.json). The player corrects the red 5s to a plain 5s (say this table's
set has no red fives). Expected points (Tenhou rules, the rule texts' tables): seat 1 declared
riichi and wins by tsumo with riichi, menzen tsumo and haku = 3 han; 20 base + 2 tsumo + 8 + 8
(closed terminal and honour triplets) + 2 (kanchan 3-5 on 4s) = 40 fu: 1,300/2,600, plus the
riichi stick.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kiosk.server import ROOT, running_kiosk

pytestmark = pytest.mark.browser
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = ROOT / "test-artifacts"
FRAME = "hand_11_001.jpg"
FRAMES = ROOT / "tests" / "kiosk" / "frames"
TRUTH = json.loads((FRAMES / "expected.json").read_text())[FRAME]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Debian's chromium is not installed ({CHROMIUM}); .ci/run installs it")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def kiosk_url(tmp_path: Path) -> Iterator[str]:
    frames = tmp_path / "frames"
    frames.mkdir()
    shutil.copy(FRAMES / FRAME, frames)
    with running_kiosk(tmp_path / "data", "--camera", f"folder:{frames}") as base:
        yield base


def shot(page, name: str) -> None:  # noqa: ANN001
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def pick(page, label: str) -> None:  # noqa: ANN001
    """Pick one tile; the picker that adds tiles in sequence stays open: close it."""
    page.click(f'#tile-picker button[data-tile="{label}"]')
    if page.locator("#picker-done").is_visible():
        page.click("#picker-done")


def shown(page, group: str) -> list[str]:  # noqa: ANN001
    return page.eval_on_selector_all(f"{group} .tile:not(.add)",
                                     "tiles => tiles.map((t) => t.dataset.tile)")


#: What the pages say, in each language (issue 18, item 6: the whole game runs in Japanese too).
WORDS = {
    "en": {"sticks": "1 riichi stick", "total": "3 han 40 fu — 1,300/2,600 (5,200)",
           "haku": "Haku", "red": "Red fives", "round": "East 2", "honba": "1 honba",
           "history": "Haku 1", "final": "Final result", "apart": "Points apart: "},
    "ja": {"sticks": "供託1本", "total": "3翻40符 1,300・2,600点（計5,200点）",
           "haku": "役牌 白", "red": "赤ドラ", "round": "東2局", "honba": "1本場",
           "history": "役牌 白 1翻", "final": "最終結果", "apart": "点の開き："},
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_whole_game_in_the_browser(browser, kiosk_url: str, lang: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    said = WORDS[lang]
    kiosk = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    kiosk.on("pageerror", lambda e: errors.append(str(e)))
    suffix = "" if lang == "en" else f"-{lang}"  # screenshots of each language side by side

    # Start a game.
    kiosk.goto(kiosk_url + f"/new?lang={lang}")
    for seat, name in enumerate(["Aki", "Bun", "Chie", "Dai"]):
        kiosk.fill(f"[name=player{seat}]", name)
    kiosk.select_option("#preset", "tenhou")
    kiosk.locator('[data-group="scoring"] > summary').click()  # options: in closed groups
    expect(kiosk.locator("#opt-kiriage")).to_be_visible()
    shot(kiosk, "new-game" + suffix)
    kiosk.click("#start-btn")
    kiosk.wait_for_url(kiosk_url + "/")
    expect(kiosk.locator('.seat[data-seat="1"] .name')).to_have_text("Bun")

    # A second screen (a phone) watching the table.
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(kiosk_url + f"/?lang={lang}")
    expect(phone.locator("#live.on")).to_be_visible()
    phone.evaluate("window.__same_page = true")

    # Riichi: one tap.
    kiosk.click('.seat[data-seat="1"] .riichi-btn')
    expect(kiosk.locator('.seat[data-seat="1"] .points')).to_have_text("24,000")
    expect(phone.locator('.seat[data-seat="1"] .points')).to_have_text("24,000")
    expect(phone.locator("#sticks")).to_have_text(said["sticks"])

    # Score a win: capture the demo frame, put the tiles right, set the situation.
    kiosk.click("#win-btn")
    kiosk.wait_for_url(kiosk_url + "/win")
    expect(kiosk.locator("#capture-btn")).to_be_enabled()
    kiosk.click("#capture-btn")
    expect(kiosk.locator("#still")).to_be_visible()
    expect(kiosk.locator("#g-concealed .tile:not(.add)")).to_have_count(13)
    assert shown(kiosk, "#g-concealed") == TRUTH["concealed"]  # read right by the recogniser
    assert shown(kiosk, "#g-win") == [TRUTH["winning"]] and shown(kiosk, "#g-melds") == []
    red = TRUTH["concealed"].index("0s")
    kiosk.locator("#g-concealed .tile:not(.add)").nth(red).click()
    pick(kiosk, "5s")  # correct one tile
    expect(kiosk.locator("#g-concealed .tile:not(.add)").nth(red)).to_have_class(
        re.compile(r"\bchanged\b"))
    kiosk.click('#winner button[data-v="1"]')
    kiosk.click('#discarder button[data-v="null"]')
    expect(kiosk.locator('#riichi button[data-v="riichi"]')).to_have_class(re.compile(r"\bon\b"))
    kiosk.click("#score-btn")
    expect(kiosk.locator("#total")).to_contain_text(said["total"])
    expect(kiosk.locator("#yaku-table")).to_contain_text(said["haku"])
    expect(kiosk.locator("#yaku-table")).not_to_contain_text(said["red"])
    expect(kiosk.locator("#payments")).to_contain_text("+6,200")
    shot(kiosk, "win-breakdown" + suffix)
    kiosk.click("#apply-btn")
    kiosk.click("#ura-none")  # a riichi win asks for its ura dora (none turned over here)
    kiosk.wait_for_url(kiosk_url + "/")

    # Every seat changed on the phone, without a reload.
    for seat, expected in enumerate(["22,400", "30,200", "23,700", "23,700"]):
        expect(phone.locator(f'.seat[data-seat="{seat}"] .points')).to_have_text(expected)
    assert phone.evaluate("window.__same_page") is True
    expect(phone.locator("#round")).to_have_text(said["round"])
    phone.click('.seat[data-seat="0"] .name')  # tap a seat: its point differences
    expect(phone.locator('.seat[data-seat="0"] .diffs')).to_have_text(
        said["apart"] + "Bun -7,800 · Chie -1,300 · Dai -1,300")  # said what they are
    shot(phone, "phone-table" + suffix)
    small = kiosk.evaluate("""() => [...document.querySelectorAll('button, a.btn')]
        .filter((e) => e.offsetParent && e.getBoundingClientRect().height < 44)
        .map((e) => e.textContent)""")
    assert small == []  # touch targets of at least 44 px

    # Riichi again, then an exhaustive draw with one tenpai seat.
    kiosk.click('.seat[data-seat="2"] .riichi-btn')
    expect(kiosk.locator('.seat[data-seat="2"] .points')).to_have_text("22,700")
    kiosk.click("#draw-btn")
    kiosk.wait_for_url(kiosk_url + "/draw")
    kiosk.click('#tenpai button[data-seat="2"]')
    shot(kiosk, "draw" + suffix)
    kiosk.click("#draw-apply")
    kiosk.wait_for_url(kiosk_url + "/")
    expect(phone.locator('.seat[data-seat="2"] .points')).to_have_text("25,700")
    expect(phone.locator("#honba")).to_have_text(said["honba"])
    shot(kiosk, "table" + suffix)

    # Undo the draw.
    kiosk.click("#undo-btn")
    expect(phone.locator('.seat[data-seat="2"] .points')).to_have_text("22,700")
    expect(kiosk.locator("#redo-btn")).to_be_enabled()

    kiosk.goto(kiosk_url + "/history")
    expect(kiosk.locator("#entries")).to_contain_text(said["history"])
    shot(kiosk, "history" + suffix)

    # Finish the game and see the standings.
    kiosk.goto(kiosk_url + "/other")
    kiosk.click('#other-tabs [aria-controls="end-panel"]')  # one section at a time
    kiosk.once("dialog", lambda dialog: dialog.accept())
    kiosk.click("#end-btn")
    kiosk.wait_for_url(kiosk_url + "/standings")
    rows = kiosk.locator("#standings tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(0)).to_contain_text("Bun")
    expect(kiosk.locator("#standings-state")).to_have_text(said["final"])
    shot(kiosk, "standings" + suffix)
    expect(phone.locator("#finished")).to_be_visible()
    assert errors == []
