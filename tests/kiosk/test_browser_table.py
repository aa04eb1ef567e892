"""The table page in Debian's chromium (issue 18, items 1, 7 and 8), against the real app and
server.

- What moved (item 7): the kiosk's own screen, back from its Win page, shows each seat's change,
  the new honba and sticks for a few seconds, as a watching phone does; its own taps update the
  page in place.
- The net (item 8): one-tap changes (riichi, chombo, abortive draws, and every other change a page
  records) apply at once and the toast names them with an Undo, which takes back that change only;
  after the game Win, Draw, Chombo and Riichi are off and say why; a good result clears an error,
  and the one toast sits over the header bar, never over the table.
- The fold (item 1): at 800x480 (the Pi's 7" screen) and 390x844 the dealer's seat and the Win,
  Draw and Undo buttons show without scrolling, nothing is wider than the screen.

Expected points (Tenhou rules): a dealer's 3 han 30 fu ron is 5,800, with 1 honba (300 a ron) and
1 riichi stick 7,100; a non-dealer's chombo is a reverse mangan, 8,000: 4,000 to the dealer,
2,000 to each other seat; riichi puts 1,000 on the table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.kiosk.server import running_kiosk
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
PLAYERS = ["Aki", "Bun", "Chie", "Dai"]
OVER = "The game is over: nothing more can be recorded."
OVER_NOTE = OVER + " Undo the last change, see the standings or start a new game."


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_kiosk(tmp_path_factory.mktemp("table") / "data", "--camera", "none") as url:
        yield url


def post(page, base: str, path: str, body: dict[str, Any] | None = None) -> Any:  # noqa: ANN001
    """A change through the API from the page's session: as another device would make it."""
    csrf = page.request.get(base + "/api/session").json()["csrf"]
    r = page.request.post(base + path, data=json.dumps(body or {}),
                          headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"})
    assert r.ok, r.text()
    return r.json()


@pytest.fixture
def open_page(browser, base: str) -> Iterator[Any]:  # noqa: ANN001, F811
    """Opens the table at a size and language: (page, its script errors). The first page opened
    starts a new game. Closed after the test: the kiosk serves each address a few streams only."""
    pages = []

    def opener(width: int, height: int, lang: str = "en") -> tuple[Any, list[str]]:
        page = browser.new_page(viewport={"width": width, "height": height})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/?lang={lang}")
        if not pages:
            post(page, base, "/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
        pages.append(page)
        page.locator("#live.on").wait_for()
        return page, errors

    yield opener
    for page in pages:
        page.close()


def seat(page, n: int, part: str):  # noqa: ANN001, ANN201
    return page.locator(f'.seat[data-seat="{n}"] {part}')


def deltas(page) -> list[str]:  # noqa: ANN001
    return page.eval_on_selector_all(".seat .delta", "d => d.map((x) => x.textContent)")


def bottom(page, selector: str) -> float:  # noqa: ANN001
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found["y"] + found["height"]


def test_the_kiosks_own_screen_shows_what_a_win_moved(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    kiosk, errors = open_page(800, 480)
    phone, phone_errors = open_page(390, 844)
    phone.evaluate("window.__same_page = true")
    post(kiosk, base, "/api/draws", {"tenpai": [0]})  # Aki keeps the deal: 1 honba
    post(kiosk, base, "/api/riichi", {"seat": 2})  # Chie: 1 stick
    expect(kiosk.locator("#sticks")).to_have_text("1 riichi stick")
    expect(kiosk.locator("#honba")).to_have_text("1 honba")

    kiosk.click("#win-btn")  # the kiosk's own Win page, a page of its own
    kiosk.wait_for_url(base + "/win")
    kiosk.click('#mode button[data-mode="quick"]')
    kiosk.click('#winner button[data-v="0"]')
    kiosk.click('#discarder button[data-v="1"]')
    kiosk.select_option("#q-han", "3")
    kiosk.select_option("#q-fu", "30")
    kiosk.click("#score-btn")
    expect(kiosk.locator("#total")).to_have_text("3 han 30 fu — 5,800")
    kiosk.click("#apply-btn")
    kiosk.wait_for_url(base + "/")

    # Back on the table: each seat's change, the new honba and sticks, what happened.
    for page in (kiosk, phone):
        expect(seat(page, 0, ".points")).to_have_text("35,100")
        assert deltas(page) == ["+7,100", "-6,100", "±0", "±0"]
        expect(page.locator("#honba")).to_have_text("2 honba")
        expect(page.locator("#honba")).to_have_class("changed")
        expect(page.locator("#sticks")).to_have_text("0 riichi sticks")
        expect(page.locator("#sticks")).to_have_class("changed")
        expect(page.locator("#moved")).to_contain_text("Aki")
        expect(page.locator('.seat[data-seat="0"]')).to_have_class(re.compile(r"\bmoved\b"))
    expect(kiosk.locator("#toast")).to_contain_text("Win applied")
    expect(kiosk.locator("#toast-action")).to_have_text("Undo")
    assert bottom(kiosk, ".seat.dealer") <= 480 and bottom(kiosk, "#win-btn") <= 480
    shot(kiosk, "table-moved-800x480")
    shot(phone, "table-moved-390x844")
    assert phone.evaluate("window.__same_page") is True

    # For a few seconds only.
    expect(seat(kiosk, 0, ".delta")).to_have_text("", timeout=9000)
    expect(kiosk.locator("#moved")).to_be_hidden()
    expect(kiosk.locator("#honba")).not_to_have_class("changed")
    assert errors == [] and phone_errors == []


def test_one_tap_changes_apply_at_once_with_an_undo(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    page.evaluate("window.__same_page = true")
    toast, undo = page.locator("#toast"), page.locator("#toast-action")

    # Riichi: on the table itself, in place.
    seat(page, 1, ".riichi-btn").click()
    expect(toast).to_contain_text("Riichi declared by South Bun")
    expect(seat(page, 1, ".points")).to_have_text("24,000")
    expect(seat(page, 1, ".delta")).to_have_text("-1,000")
    shot(page, "table-riichi-undo-800x480")
    toast_box, table_box = toast.bounding_box(), page.locator("#table").bounding_box()
    assert toast_box and table_box and toast_box["y"] + toast_box["height"] <= table_box["y"]
    undo.click()
    expect(seat(page, 1, ".points")).to_have_text("25,000")
    expect(toast).to_have_text("Undone")
    expect(seat(page, 1, ".riichi-btn")).to_be_enabled()
    assert page.evaluate("window.__same_page") is True

    # Chombo, from its page: the table shows what it did and offers its Undo.
    page.click("#other-btn")
    page.click('#chombo button[data-seat="2"]')
    page.wait_for_url(base + "/")
    expect(toast).to_contain_text("Chombo recorded for West Chie")
    assert deltas(page) == ["+4,000", "+2,000", "-8,000", "+2,000"]
    shot(page, "table-chombo-undo-800x480")
    undo.click()
    expect(seat(page, 2, ".points")).to_have_text("25,000")
    expect(page.locator("#honba")).to_have_text("0 honba")

    # An abortive draw: its Undo goes once another change follows (it would take that one back).
    page.click("#draw-btn")
    page.click('.abort-btn[data-kind="four_winds"]')
    page.wait_for_url(base + "/")
    expect(toast).to_contain_text("Abortive draw recorded: Four winds")
    expect(page.locator("#honba")).to_have_text("1 honba")
    post(page, base, "/api/riichi", {"seat": 3})  # a phone, meanwhile
    expect(seat(page, 3, ".points")).to_have_text("24,000")
    expect(toast).to_be_hidden()
    assert errors == []


def test_after_the_game_only_undo_new_game_and_standings_apply(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    post(page, base, "/api/end", {"reason": "time"})
    page.locator("#final-ranking").click()  # the final ranking over the table, put away
    off = ["#win-btn", "#draw-btn", "#other-btn", *[f'.seat[data-seat="{n}"] .riichi-btn'
                                                    for n in range(4)]]
    for selector in off:
        expect(page.locator(selector)).to_have_attribute("aria-disabled", "true")
    expect(page.locator("#finished")).to_be_visible()
    expect(page.locator("#finished a")).to_have_text(["Standings", "New game"])
    expect(page.locator("#undo-btn")).to_be_enabled()
    for selector in ("#win-btn", '.seat[data-seat="0"] .riichi-btn'):
        expect(page.locator(selector)).to_be_disabled()
        page.click(selector, force=True)  # a tap all the same: it says why
        expect(page.locator("#toast")).to_have_text(OVER)
        assert page.url == base + "/?lang=en"  # still the table
    shot(page, "table-over-800x480")
    assert bottom(page, "#finished") <= 480 and bottom(page, "#undo-btn") <= 480

    page.goto(base + "/draw")  # a page opened directly says so too
    expect(page.locator("#over-note")).to_be_visible()
    expect(page.locator("#over-note")).to_have_text(OVER_NOTE)
    page.click('.abort-btn[data-kind="four_kans"]', force=True)
    expect(page.locator("#toast")).to_have_text(OVER)
    assert page.url == base + "/draw"
    page.goto(base + "/other")
    expect(page.locator("#chombo button").first).to_have_attribute("aria-disabled", "true")
    expect(page.locator("#over-note")).to_be_visible()

    page.goto(base + "/")
    expect(page.locator("#finished")).to_be_visible()
    page.click("#undo-btn")  # the game runs again
    expect(page.locator("#win-btn")).not_to_have_attribute("aria-disabled", "true")
    expect(page.locator("#finished")).to_be_hidden()
    page.click("#draw-btn")
    page.wait_for_url(base + "/draw")
    expect(page.locator("#over-note")).to_be_hidden()
    assert errors == []


def test_a_good_result_clears_an_error(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    toast = page.locator("#toast")
    page.evaluate("K.act(() => K.api('POST', '/api/riichi', {seat: 9}))")
    expect(toast).to_have_class("toast bad")
    post(page, base, "/api/riichi", {"seat": 0})  # a good result, from a phone
    expect(seat(page, 0, ".points")).to_have_text("24,000")
    expect(toast).to_be_hidden(timeout=2000)

    page.evaluate("K.act(() => K.api('POST', '/api/riichi', {seat: 9}))")
    expect(toast).to_have_class("toast bad")
    seat(page, 2, ".riichi-btn").click()  # a good result here: one toast, not the error
    expect(toast).to_have_class("toast")
    expect(toast).to_contain_text("Riichi declared by West Chie")
    assert page.locator("#toast").count() == 1
    assert errors == []


@pytest.mark.parametrize("width, height, lang", [(800, 480, "en"), (800, 480, "ja"),
                                                 (390, 844, "en"), (390, 844, "ja")],
                         ids=["800x480", "800x480-ja", "390x844", "390x844-ja"])
def test_the_dealer_and_the_actions_show_without_scrolling(open_page, width: int, height: int,  # noqa: ANN001
                                                          lang: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(width, height, lang)
    seat(page, 1, ".riichi-btn").click()
    expect(seat(page, 1, ".stick")).to_be_visible()
    expect(page.locator(".seat.dealer")).to_have_attribute("data-seat", "0")
    for selector in (".seat.dealer", "#win-btn", "#draw-btn", "#undo-btn", ".centre"):
        assert bottom(page, selector) <= height, selector
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    small = page.evaluate("""() => [...document.querySelectorAll('main button, main a.btn')]
        .filter((e) => e.offsetParent && e.getBoundingClientRect().height < 44)
        .map((e) => e.id || e.textContent)""")
    assert small == []
    boxes = page.eval_on_selector_all(".seat", "s => s.map((e) => e.getBoundingClientRect())"
                                      ".map((r) => [r.left, r.right])")
    assert all(0 <= left and right <= width for left, right in boxes)
    shot(page, f"table-{width}x{height}-{lang}")
    assert errors == []
