"""A whole three-player (sanma) game in Debian's chromium through Playwright, against the real app
and server: the form shows three name fields for a sanma preset, the table three seats (also at
800x480 and 390x844, every seat and the actions above the fold), a phone follows live, the win
page takes a kita count and offers three winners and two ron-from seats, a draw, a yakuman ron
that busts a player, and the end standings; then the pages in Japanese.

Expected points (tenhou_sanma: 35,000 start, tsumo loss, 200 a honba, 1,000 from each noten
player; worked out in tests/kiosk/test_api_sanma.py, which plays the same game through the API):

- Bun (seat 1) declares riichi: 34,000. Bun wins by tsumo on 123p456p678p11s23s + 4s with one
  kita: riichi, menzen tsumo, pinfu, one dora (the kita): 4 han 20 fu, 1,300/2,600; tsumo loss
  leaves the absent North's 1,300 unpaid: 3,900 and the stick, 32,400 / 38,900 / 33,700.
- East 2: a draw with Chie alone tenpai, 1,000 from each noten player: 31,400 / 37,900 / 35,700.
- East 3, 1 honba: Chie, the dealer, rons Aki for a yakuman: 48,000 + 200; Aki at -16,800 is bust.
- Standings (40,000 return, 15,000 oka, uma +20/0/-20, rounded to the thousand, first place the
  rest): Chie 79.0, Bun -2.0, Aki -77.0.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.kiosk.server import running_kiosk
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (shared fixture)
from tests.kiosk.whole_game import JAPANESE

pytestmark = pytest.mark.browser
NAMES = ["Aki", "Bun", "Chie"]


@pytest.fixture
def base(tmp_path) -> Iterator[str]:  # noqa: ANN001
    with running_kiosk(tmp_path / "data", "--camera", "none") as url:
        yield url


def seat(page, n: int, part: str = ""):  # noqa: ANN001, ANN201
    return page.locator(f'.seat[data-seat="{n}"] {part}'.strip())


def table_points(page) -> list[str]:  # noqa: ANN001
    return page.eval_on_selector_all(".seat .points", "p => p.map((x) => x.textContent)")


def expect_points(page, want: list[str]) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    for n, value in enumerate(want):
        expect(seat(page, n, ".points")).to_have_text(value)


def fits(page, width: int, height: int) -> None:  # noqa: ANN001
    """Every seat, the centre and the actions show without scrolling; nothing is wider than the
    screen; no two seats overlap."""
    boxes = page.eval_on_selector_all(
        ".seat, .centre, #win-btn, #draw-btn, #undo-btn",
        "es => es.map((e) => { const r = e.getBoundingClientRect();"
        " return [e.className, r.left, r.top, r.right, r.bottom]; })")
    for name, left, top, right, bottom in boxes:
        assert 0 <= left and right <= width and 0 <= top and bottom <= height, (name, width, height)
    seats = [b for b in boxes if b[0].startswith("seat")]
    assert len(seats) == 3
    for i, a in enumerate(seats):
        for b in seats[i + 1:]:
            assert a[3] <= b[1] or b[3] <= a[1] or a[4] <= b[2] or b[4] <= a[2], (a, b)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_whole_three_player_game_in_the_browser(browser, base: str) -> None:  # noqa: ANN001, F811
    from playwright.sync_api import expect

    kiosk = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    kiosk.on("pageerror", lambda e: errors.append(str(e)))
    pages = [kiosk]
    try:
        # The form: a sanma preset seats three, so three name fields; back to four and again.
        kiosk.goto(base + "/new")
        expect(kiosk.locator(".players input:visible")).to_have_count(4)
        kiosk.select_option("#preset", "tenhou_sanma")
        expect(kiosk.locator(".players input:visible")).to_have_count(3)
        expect(kiosk.locator('.players label[data-seat="3"]')).to_be_hidden()
        expect(kiosk.locator("#start-points")).to_have_value("35000")
        kiosk.select_option("#preset", "tenhou")
        expect(kiosk.locator(".players input:visible")).to_have_count(4)
        kiosk.select_option("#preset", "tenhou_sanma")
        for n, name in enumerate(NAMES):
            kiosk.fill(f"[name=player{n}]", name)
        shot(kiosk, "sanma-new-game")
        kiosk.click("#start-btn")
        kiosk.wait_for_url(base + "/")
        expect(kiosk.locator(".seat")).to_have_count(3)
        expect(seat(kiosk, 2, ".name")).to_have_text("Chie")
        expect(seat(kiosk, 2, ".wind")).to_have_text("West")
        expect_points(kiosk, ["35,000"] * 3)
        fits(kiosk, 1280, 800)
        shot(kiosk, "sanma-table-1280x800")

        # A phone watching the table, three seats too.
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        pages.append(phone)
        phone.on("pageerror", lambda e: errors.append(str(e)))
        phone.goto(base + "/")
        expect(phone.locator("#live.on")).to_be_visible()
        phone.evaluate("window.__same_page = true")
        fits(phone, 390, 844)

        # East 1: Bun's riichi, then a tsumo with one kita, the tiles typed in.
        seat(kiosk, 1, ".riichi-btn").click()
        expect_points(phone, ["35,000", "34,000", "35,000"])
        kiosk.click("#win-btn")
        kiosk.wait_for_url(base + "/win")
        expect(kiosk.locator("#winner button")).to_have_count(3)
        expect(kiosk.locator("#kita-row")).to_be_visible()
        kiosk.click("#manual-btn")  # typed in: no camera here
        kiosk.fill("#mpsz", "123p456p678p11s234s")
        kiosk.click("#mpsz-set")
        expect(kiosk.locator("#mpsz-error")).to_have_text("")
        kiosk.click('#winner button[data-v="1"]')
        # Tsumo, or ron from either of the other two: no fourth seat.
        expect(kiosk.locator("#discarder button")).to_have_text(
            ["Tsumo", re.compile("East Aki"), re.compile("West Chie")])
        kiosk.click('#discarder button[data-v="null"]')
        kiosk.click('#kita button[data-v="1"]')
        expect(kiosk.locator('#kita button[data-v="1"]')).to_have_class(re.compile(r"\bon\b"))
        kiosk.click("#score-btn")
        expect(kiosk.locator("#total")).to_have_text("4 han 20 fu — 1,300/2,600 (3,900)")
        expect(kiosk.locator("#yaku-table")).to_contain_text("Dora (kita 1 included)")
        expect(kiosk.locator("#payments tr")).to_have_count(3)
        expect(kiosk.locator("#payments")).to_contain_text("+4,900")
        shot(kiosk, "sanma-win-kita")
        kiosk.click("#apply-btn")
        kiosk.click("#ura-none")  # Bun's riichi: the ura dora asked for, none here
        kiosk.wait_for_url(base + "/")
        expect_points(kiosk, ["32,400", "38,900", "33,700"])
        expect_points(phone, ["32,400", "38,900", "33,700"])
        expect(phone.locator("#round")).to_have_text("East 2")
        assert phone.evaluate("window.__same_page") is True

        # East 2: a draw, Chie alone tenpai; three seats to tick.
        kiosk.click("#draw-btn")
        kiosk.wait_for_url(base + "/draw")
        expect(kiosk.locator("#tenpai button")).to_have_count(3)
        kiosk.click('#tenpai button[data-seat="2"]')
        kiosk.click("#draw-apply")
        kiosk.wait_for_url(base + "/")
        expect_points(phone, ["31,400", "37,900", "35,700"])
        expect(phone.locator("#round")).to_have_text("East 3")
        expect(phone.locator("#honba")).to_have_text("1 honba")
        expect(kiosk.locator(".seat.dealer")).to_have_attribute("data-seat", "2")

        # East 3: the dealer rons Aki for a yakuman (quick entry); Aki goes bust.
        kiosk.click("#win-btn")
        kiosk.wait_for_url(base + "/win")
        kiosk.click('#mode button[data-mode="quick"]')
        expect(kiosk.locator("#kita-row")).to_be_hidden()  # a quick total has its dora
        kiosk.click('#q-kind button[data-kind="yakuman"]')
        kiosk.click('#winner button[data-v="2"]')
        kiosk.click('#discarder button[data-v="0"]')
        kiosk.click("#score-btn")
        expect(kiosk.locator("#total")).to_have_text("Yakuman — 48,000")
        expect(kiosk.locator("#payments")).to_contain_text("+48,200")
        kiosk.click("#apply-btn")
        kiosk.wait_for_url(base + "/")
        expect_points(phone, ["-16,800", "37,900", "83,900"])
        expect(phone.locator("#finished")).to_be_visible()
        shot(phone, "sanma-phone-over")

        # The standings: three rows, first place taking the rest of the rounding.
        kiosk.goto(base + "/standings")
        rows = kiosk.locator("#standings tbody tr")
        expect(rows).to_have_count(3)
        for row, (name, final) in zip(rows.all(), [("Chie", "79.0"), ("Bun", "-2.0"),
                                                   ("Aki", "-77.0")], strict=True):
            expect(row.locator(".player > span:not(.tile)")).to_have_text(name)
            expect(row.locator(".place").last).to_have_text(final)
        expect(kiosk.locator("#standings-state")).to_have_text("Final result")
        shot(kiosk, "sanma-standings")
        kiosk.goto(base + "/history")
        expect(kiosk.locator("#entries")).to_contain_text("Dora (kita 1 included) 1")
        expect(kiosk.locator("#entries")).to_contain_text("Aki -48,200 · Bun 0 · Chie +48,200")
        kiosk.goto(base + "/other")
        expect(kiosk.locator("#chombo button")).to_have_count(3)
        expect(kiosk.locator("#correction input")).to_have_count(3)
        kiosk.goto(base + "/games")
        expect(kiosk.locator("body")).to_contain_text("Aki")

        # The small screens: three seats and the actions above the fold.
        for width, height in ((800, 480), (390, 844)):
            page = browser.new_page(viewport={"width": width, "height": height})
            pages.append(page)
            page.goto(base + "/")
            expect(page.locator(".seat")).to_have_count(3)
            fits(page, width, height)
            shot(page, f"sanma-table-{width}x{height}")

        # The same pages in Japanese: the sanma words too, no English left.
        for path in ("/?lang=ja", "/win", "/history", "/standings", "/draw"):
            kiosk.goto(base + path)
            kiosk.wait_for_load_state("networkidle")
            text = kiosk.evaluate("document.querySelector('main').innerText")
            assert [w for w in JAPANESE.foreign_in(text) if w not in NAMES] == [], (path, text)
        kiosk.goto(base + "/win")
        expect(kiosk.locator("#kita-row")).to_contain_text("抜き北")
        assert errors == []
    finally:
        for page in pages:
            page.close()
