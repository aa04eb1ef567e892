"""Chips and money in Debian's chromium, in English and Japanese (issue 39): the new-game form
offers the free parlor with four reds and shows its chips and stakes; a win's breakdown says its
chips; the table shows each player's chips beside their points; the standings page settles the
game in money.

The game and every value are those of tests/kiosk/parlor/test_chips_money.py, worked by hand
there: chips 8 / 3 / 6 / -17; money 3,200 / 400 / -100 / -5,100 at 50 a thousand, 100 a chip
and 400 a game each, which the house keeps (1,600).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.kiosk.server import page_post, running_kiosk
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
PLAYERS = ["Aki", "Bun", "Chie", "Dai"]
DORA = "1z"
FIRST = {"winner": 1, "discarder": 3, "riichi": "riichi", "ippatsu": True,
         "hand": {"concealed": "234m340p406p678s9s", "win": "9s", "dora": DORA, "ura": "8s"}}
SECOND = {"winner": 2, "discarder": None, "hand": {
    "concealed": "234p678p340s2s", "win": "2s", "dora": DORA,
    "melds": [{"kind": "pon", "tiles": "505m", "called": "0m", "source": "kamicha"}]}}
THIRD = {"winner": 0, "discarder": 3, "hand": {"concealed": "119m19p19s123456z", "win": "7z",
                                               "dora": DORA}}
WORDS = {
    "en": {"group": "Chips and money", "chips": "Chips +8",
           "breakdown": "aka 2, ura 2, ippatsu: 5 chips from the discarder",
           "stakes": "50 per 1,000 points · 100 a chip · game fee 400",
           "house": "The house keeps 1,600."},
    "ja": {"group": "チップ・精算", "chips": "チップ +8",
           "breakdown": "赤2、裏2、一発：放銃者から5枚",
           "stakes": "千点50 · チップ1枚100 · 場代400", "house": "店の取り分：1,600"},
}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_kiosk(tmp_path_factory.mktemp("chips") / "data", "--camera", "none") as url:
        yield url


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_chips_and_money_on_the_pages(browser: Any, base: str, lang: str) -> None:  # noqa: F811
    from playwright.sync_api import expect

    words = WORDS[lang]
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/new?lang={lang}")
    page.select_option("#preset", "parlor_four_reds")
    group = page.locator('details[data-group="money"]')
    expect(group.locator(".group-name")).to_have_text(words["group"])
    group.locator("summary").click()
    expect(page.locator('[data-name="stakes.rate"]')).to_have_value("50")
    expect(page.locator('[data-name="chips.ura"]')).to_have_value("1")
    expect(page.locator('[data-name="chips.open_hand"]')).to_be_checked()
    for seat, name in enumerate(PLAYERS):
        page.fill(f"[name=player{seat}]", name)
    page.click("#start-btn")
    page.wait_for_url(f"{base}/")
    rules = page.request.get(base + "/api/history").json()["ruleset"]
    assert (rules["name"], rules["red_fives"], rules["stakes"]["rate"]) == (
        "parlor_four_reds", {"m": 1, "p": 2, "s": 1}, 50)

    page_post(page, base, "/api/riichi", {"seat": 1})
    scored = page_post(page, base, "/api/score", FIRST)
    assert scored["breakdowns"][0]["chips"]["text"] == words["breakdown"]
    for win in (FIRST, SECOND, THIRD):
        page_post(page, base, "/api/wins", win)

    page.goto(f"{base}/?lang={lang}")
    chips = page.locator('.seat[data-seat="0"] .chips')
    expect(chips).to_be_visible()
    expect(chips).to_have_text(words["chips"])
    expect(page.locator('.seat[data-seat="3"] .chips')).to_have_text(
        words["chips"].replace("+8", "-17"))
    shot(page, f"chips-table-{lang}")

    page.goto(f"{base}/standings?lang={lang}")
    settlement = page.locator("#settlement")
    expect(settlement).to_be_visible()
    expect(page.locator("#settlement-stakes")).to_have_text(words["stakes"])
    expect(page.locator("#settlement-house")).to_have_text(words["house"])
    rows = page.locator("#settlement-table tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(0).locator("td")).to_have_text(
        ["1", "Aki", "+8", "+2,800", "+800", "-400", "+3,200"])
    expect(rows.nth(3).locator("td")).to_have_text(
        ["4", "Dai", "-17", "-3,000", "-1,700", "-400", "-5,100"])
    shot(page, f"chips-standings-{lang}")
    assert errors == []
    page.close()
