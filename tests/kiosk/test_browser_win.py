"""The win page in Debian's chromium (issue 18, items 4 and 5), against the real app and server.

Quick mode offers only the fu a real hand can have for the chosen han and win type (20 fu only
by tsumo from 2 han, 25 fu from 2 han by ron and 3 by tsumo, no fu from 5 han), never shows
'null', and uses the width at 800x480, 390x844 and 1280x800. The breakdown explains every point:
each yaku, dora, red fives and ura dora on lines of their own, fu items in words with their
rounding, base points, each payment, honba and riichi sticks, adding up to each seat's change.

Expected values (WRC 2015 annex A-1 tables; honba 300 a ron, 100 from each on a tsumo):
- a dealer's 4 han 30 fu ron with 2 honba and 1 riichi stick: 11,600 + 600 + 1,000 = 13,200;
- riichi, menzen tsumo, pinfu, tanyao, dora, a red five, ura dora (7 han haneman) by tsumo with
  3 honba and 2 sticks: 3,000/6,000 + 3 x 100 from each + 2,000 = +14,900 (issue 18's example);
- a concealed pon of Green dragon (8), an open pon of 6s (2), kanchan (2): 32 fu -> 40, hatsu
  1 han: 1,300 off a non-dealer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.kiosk.server import game_pages, page_post, running_kiosk
from tests.kiosk.test_browser import browser, pick, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
TENS = list(range(30, 111, 10))
PLAYERS = ["Aki", "Bun", "Chie", "Dai"]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_kiosk(tmp_path_factory.mktemp("win") / "data", "--camera", "none") as url:
        yield url



@pytest.fixture
def fresh_page(browser, base: str) -> Iterator[Any]:  # noqa: ANN001, F811
    """A page of a given size and language on a new game: (page, its script errors)."""
    with game_pages(browser, base, PLAYERS) as opener:
        yield opener


def offered(page) -> list[int]:  # noqa: ANN001
    return page.eval_on_selector_all("#q-fu option", "o => o.map((x) => +x.value)")


def box(page, selector: str) -> dict[str, float]:  # noqa: ANN001
    found = page.locator(selector).bounding_box()
    assert found is not None, selector
    return found


def enter(page, group: str, labels: list[str]) -> None:  # noqa: ANN001
    for label in labels:
        page.click(f"{group} .tile.add")
        pick(page, label)


def rows(page, table: str) -> list[list[str]]:  # noqa: ANN001
    """Each row's cells as the page shows them. Read once the table is shown: innerText of a
    cell not laid out (a panel still hidden under load) loses the line breaks between parts."""
    from playwright.sync_api import expect

    expect(page.locator(table)).to_be_visible()
    return page.eval_on_selector_all(
        f"{table} tr", "rows => rows.map((r) => [...r.cells].map((c) => c.innerText.trim()))")


@pytest.mark.parametrize("width, height", [(800, 480), (390, 844), (1280, 800)],
                         ids=["800x480", "390x844", "1280x800"])
def test_quick_mode_offers_only_real_han_and_fu(fresh_page, base: str, width: int,  # noqa: ANN001
                                                height: int) -> None:
    from playwright.sync_api import expect

    page, errors = fresh_page(width, height)
    page.goto(base + "/win")
    page.click('#mode button[data-mode="quick"]')
    page.click('#winner button[data-v="1"]')  # Bun (South)
    page.click('#discarder button[data-v="null"]')  # tsumo, tapped (nothing is preselected)
    expect(page.locator('#discarder button[data-v="null"]')).to_have_class("btn small on")
    assert offered(page) == TENS  # 1 han tsumo: neither 20 nor 25 fu
    page.select_option("#q-han", "2")
    assert offered(page) == [20, *TENS]  # pinfu tsumo
    page.select_option("#q-fu", "20")
    page.click('#discarder button[data-v="0"]')  # a ron: no 20 fu, and the form says so
    assert offered(page) == [25, *TENS]
    expect(page.locator("#q-fu")).to_have_value("30")
    expect(page.locator("#q-note")).to_have_text("No 2 han 20 fu hand by ron: now 30 fu")
    page.select_option("#q-han", "1")
    assert offered(page) == TENS
    page.select_option("#q-han", "4")
    assert offered(page) == [25, *TENS, 120, 130, 140]
    page.click('#discarder button[data-v="null"]')
    page.select_option("#q-han", "3")
    assert offered(page) == [20, 25, *TENS]  # chiitoitsu tsumo is 3 han at least
    for han, limit in (("5", "Mangan"), ("7", "Haneman"), ("13", "Kazoe yakuman")):
        page.select_option("#q-han", han)
        expect(page.locator("#q-fu")).to_be_hidden()  # fu do not count: not asked
        expect(page.locator("#q-no-fu")).to_have_text(f"{limit}: fu do not count")

    page.select_option("#q-han", "1")
    page.click('#discarder button[data-v="3"]')
    page.select_option("#q-fu", "40")
    page.click("#score-btn")
    expect(page.locator("#total")).to_have_text("1 han 40 fu — 1,300")
    expect(page.locator("#payment-lines")).to_contain_text("Dai (North) pays Bun (South)")
    assert "null" not in page.inner_text("main") and "undefined" not in page.inner_text("main")
    shot(page, f"win-quick-{width}x{height}")

    # The width is used: form and breakdown side by side from 800 px, one above the other on a
    # phone; nothing wider than the screen; the breakdown in view once scored.
    main = box(page, "main")
    editor, result = box(page, ".win-grid > .editor"), box(page, "#result")
    if width >= 800:
        assert result["x"] >= editor["x"] + editor["width"] - 1
        assert min(editor["width"], result["width"]) >= 0.4 * main["width"]
    else:
        assert result["y"] >= editor["y"] + editor["height"] - 1
        assert min(editor["width"], result["width"]) >= 0.85 * main["width"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    top = page.evaluate("document.querySelector('#total').getBoundingClientRect().top")
    assert 0 <= top < height
    small = page.evaluate("""() => [...document.querySelectorAll('main button, main select')]
        .filter((e) => e.offsetParent && e.getBoundingClientRect().height < 44)
        .map((e) => e.id || e.textContent)""")
    assert small == []
    assert errors == []


def test_breakdown_explains_every_point_of_a_ron_with_honba_and_a_stick(  # noqa: ANN001
        fresh_page, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = fresh_page(800, 480)
    for _ in range(2):  # the dealer tenpai at two draws: 2 honba, Aki keeps the deal
        page_post(page, base, "/api/draws", {"tenpai": [0]})
    page_post(page, base, "/api/riichi", {"seat": 2})
    page.goto(base + "/win")
    page.click('#mode button[data-mode="quick"]')
    page.click('#winner button[data-v="0"]')
    page.click('#discarder button[data-v="1"]')
    page.select_option("#q-han", "4")
    page.select_option("#q-fu", "30")
    page.click("#score-btn")
    expect(page.locator("#total")).to_have_text("4 han 30 fu — 11,600")
    expect(page.locator("#base")).to_have_text("Base points: 30 fu × 2^(4 + 2) = 1,920")
    assert rows(page, "#payment-lines") == [
        ["Bun (South) pays Aki (East)\n1,920 × 6 = 11,520, rounded up to the next 100",
         "11,600"],
        ["Honba: Bun (South) pays Aki (East)\n2 × 300", "600"],
        ["Riichi sticks on the table to Aki (East)\n1 × 1,000", "1,000"]]
    assert rows(page, "#payments") == [["East Aki", "+13,200"], ["South Bun", "-12,200"],
                                       ["West Chie", "0"], ["North Dai", "0"]]
    shot(page, "win-breakdown-honba-800x480")
    page.click("#apply-btn")
    page.wait_for_url(base + "/")
    # 25,000 + 2 x 3,000 noten + 13,200; Bun paid 1,000 at each draw and 12,200 now.
    expect(page.locator('.seat[data-seat="0"] .points')).to_have_text("44,200")
    expect(page.locator('.seat[data-seat="1"] .points')).to_have_text("10,800")
    assert errors == []


def test_breakdown_of_a_tile_hand_with_each_kind_of_dora(fresh_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = fresh_page(1280, 800)
    for _ in range(3):
        page_post(page, base, "/api/draws", {"tenpai": [0]})
    page_post(page, base, "/api/riichi", {"seat": 1})
    page_post(page, base, "/api/riichi", {"seat": 3})
    page.goto(base + "/win")
    page.click("#manual-btn")
    enter(page, "#g-concealed", ["2m", "3m", "4m", "4p", "5p", "6p", "2s", "2s", "3s", "4s",
                                 "0s", "6s", "7s"])
    enter(page, "#g-win", ["8s"])
    enter(page, "#g-dora", ["1m"])
    enter(page, "#g-ura", ["3p"])
    page.click('#winner button[data-v="1"]')
    page.click('#discarder button[data-v="null"]')
    page.click("#score-btn")
    expect(page.locator("#total")).to_have_text("7 han haneman — 3,000/6,000 (12,000)")
    assert rows(page, "#yaku-table") == [
        ["Menzen tsumo", "1 han"], ["Riichi", "1 han"], ["Pinfu", "1 han"], ["Tanyao", "1 han"],
        ["Dora", "1 han"], ["Red fives", "1 han"], ["Ura dora", "1 han"]]
    expect(page.locator("#fu-table")).to_have_count(0)  # a haneman: fu do not count
    expect(page.locator("#base")).to_have_text("Haneman: base points 3,000")
    assert rows(page, "#payment-lines") == [
        ["Chie (West) pays Bun (South)\n3,000 × 1", "3,000"],
        ["Dai (North) pays Bun (South)\n3,000 × 1", "3,000"],
        ["Aki (East) pays Bun (South)\n3,000 × 2", "6,000"],
        ["Honba: the other three each pay Bun (South)\n3 × 100 = 300 each", "900"],
        ["Riichi sticks on the table to Bun (South)\n2 × 1,000", "2,000"]]
    assert rows(page, "#payments") == [["East Aki", "-6,300"], ["South Bun", "+14,900"],
                                       ["West Chie", "-3,300"], ["North Dai", "-3,300"]]
    shot(page, "win-breakdown-tiles")
    assert errors == []


def test_fu_in_words_in_japanese(fresh_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = fresh_page(800, 480, lang="ja")
    page.goto(base + "/win")
    page.click("#manual-btn")
    enter(page, "#g-concealed", ["6z", "6z", "6z", "1m", "2m", "3m", "4p", "6p", "9s", "9s"])
    enter(page, "#g-win", ["5p"])
    page.click('.add-meld[data-kind="pon"]')
    enter(page, "#g-melds .meld", ["6s", "6s", "6s"])
    page.click('#winner button[data-v="1"]')
    page.click('#discarder button[data-v="3"]')
    page.click("#score-btn")
    expect(page.locator("#total")).to_have_text("1翻40符 1,300点")
    assert rows(page, "#yaku-table") == [["役牌 發", "1 翻"]]
    assert rows(page, "#fu-table") == [
        ["副底", "20 符"], ["嵌張待ち", "2 符"], ["發の暗刻（字牌）", "8 符"],
        ["6索の明刻（中張牌）", "2 符"]]
    expect(page.locator("#fu-total")).to_have_text("合計：32符 → 40符（10符単位に切り上げ）")
    expect(page.locator("#base")).to_have_text("基本点：40符 × 2^(1+2) = 320")
    assert rows(page, "#payment-lines") == [
        ["Dai（北） → Bun（南）\n320 × 4 = 1,280（100点未満切り上げ）", "1,300"]]
    text = page.inner_text("#breakdown")
    assert "666" not in text and "null" not in text
    shot(page, "win-breakdown-ja")
    assert errors == []
