"""The new-game form in Debian's chromium (issue 18, item 9): the preset first, the options in
groups closed until opened, each with a line of explanation, in English and Japanese; choosing
a preset fills every option; the form starts a game on exactly the rules it shows; at 800x480,
1280x720, 390x844 and 1920x1080 nothing is wider than the screen and Start stays in view.

Preset values (scorer/rules.py): WRC plays without red fives, with kiriage, from 30,000 points
and uma 15/5/-5/-15; M.League with red fives, without kiriage, uma 30/10/-10/-30.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from typing import Any

import pytest

from kiosk.table.rule_form import HEADLINE
from kiosk.table.rules_json import NOT_ON_FORM, PARTS
from scorer.rules import Ruleset
from tests.kiosk.server import running_kiosk
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
SIZES = [(800, 480), (1280, 720), (390, 844), (1920, 1080)]
# Chips and stakes one option a part (`rules_json.PARTS`: `chips.ura`, `stakes.rate`).
OPTIONS = len({f.name for f in fields(Ruleset)} - {"name", *HEADLINE, *NOT_ON_FORM, *PARTS}) + \
    sum(len(fields(kind)) for kind in PARTS.values())
GROUPS = 9
# Shown at first: the preset, the starting points and the four names.
FIRST_CONTROLS = ["preset", "start-points", "", "", "", ""]
WRC_HELP = ("World Riichi Championship 2015: no red fives, kiriage, 30,000 start, uma 15/5.")
CONTROLS = "#new-game :is(input, select):visible"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_kiosk(tmp_path_factory.mktemp("new") / "data", "--camera", "none") as url:
        yield url


@pytest.fixture
def open_page(browser) -> Iterator[Any]:  # noqa: ANN001, F811
    pages: list[Any] = []

    def opener(url: str, width: int, height: int) -> tuple[Any, list[str]]:
        page = browser.new_page(viewport={"width": width, "height": height})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        pages.append(page)
        return page, errors

    yield opener
    for page in pages:
        page.close()


def widest(page) -> int:  # noqa: ANN001
    """How far right the page reaches: the document, and every box of the form."""
    return int(page.evaluate("""() => Math.max(document.documentElement.scrollWidth,
      ...[...document.querySelectorAll('#new-game *')]
        .map((e) => e.getBoundingClientRect().right))"""))


def start_in_view(page, height: int) -> bool:  # noqa: ANN001
    box = page.locator("#start-btn").bounding_box()
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= height


@pytest.mark.parametrize("width, height", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_presets_first_and_the_groups_closed(open_page, base: str, width: int,  # noqa: ANN001
                                             height: int) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(base + "/new", width, height)
    controls = page.locator(CONTROLS)
    assert [c.get_attribute("id") or "" for c in controls.all()] == FIRST_CONTROLS
    expect(page.locator("#preset-help")).to_have_text(
        "Red fives, open tanyao, hanchan; 25,000 start, uma 20/10.")
    groups = page.locator(".rule-group")
    expect(groups).to_have_count(GROUPS)
    assert page.eval_on_selector_all(".rule-group", "gs => gs.filter((g) => g.open).length") == 0
    expect(page.locator(".rule-group > summary .group-help")).to_have_text([
        "Red fives, open tanyao, minimum han, fu details, kiriage",
        "Ippatsu, ura dora and kan dora", "Kazoe, double yakuman, renhou, pao",
        "Honba, riichi sticks, noten payments, double and triple ron",
        "Renchan, nagashi mangan, abortive draws", "What a foul costs",
        "East only or hanchan, bust, West round, agari yame",
        "Return points, uma, leftover sticks, ties",
        "Chips for red fives, ura, ippatsu; the rate, chip value and fees"])
    assert widest(page) <= width and start_in_view(page, height)
    shot(page, f"new-game-{width}x{height}")

    # Every option is a tap away, with its line of explanation, and still fits the width.
    for summary in page.locator(".rule-group > summary").all():
        summary.click()
    expect(page.locator("#new-game [data-name]:visible")).to_have_count(OPTIONS)
    expect(page.locator("#new-game .opt-help:visible")).to_have_count(OPTIONS)
    assert widest(page) <= width and start_in_view(page, height)
    assert errors == []


def test_the_form_in_japanese_on_a_phone(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(base + "/new?lang=ja", 390, 844)
    expect(page.locator(CONTROLS)).to_have_count(len(FIRST_CONTROLS))
    expect(page.locator("#preset option:checked")).to_have_text("天鳳")
    scoring = page.locator('[data-group="scoring"]')
    expect(scoring.locator(".group-name")).to_have_text("点数計算")
    scoring.locator("summary").click()
    expect(page.locator('label[for="opt-kiriage"]')).to_have_text("切り上げ満貫")
    expect(page.locator("#opt-kiriage-help")).to_have_text("4翻30符と3翻60符を満貫として払う。")
    page.locator('[data-group="limits"] > summary').click()
    expect(page.locator('#opt-kazoe option:checked')).to_have_text("役満")
    assert widest(page) <= 390
    shot(page, "new-game-ja-390x844")
    assert errors == []


def test_a_preset_fills_the_options_and_the_game_starts_on_them(open_page, base: str  # noqa: ANN001
                                                                ) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(base + "/new", 800, 480)
    page.select_option("#preset", "wrc")
    expect(page.locator("#preset-help")).to_have_text(WRC_HELP)
    expect(page.locator("#start-points")).to_have_value("30000")
    page.locator('[data-group="scoring"] > summary').click()
    expect(page.locator("#opt-red_fives")).not_to_be_checked()
    expect(page.locator("#opt-kiriage")).to_be_checked()
    page.locator('[data-group="final_score"] > summary').click()
    expect(page.locator("#opt-uma")).to_have_value("15,5,-5,-15")
    expect(page.locator("#opt-return_points")).to_have_value("30000")

    # A change shows on its group; another preset puts every option back to its values.
    changed = page.locator('[data-group="scoring"] .changed-count')
    expect(changed).to_be_hidden()
    page.uncheck("#opt-kiriage")
    expect(changed).to_have_text("1 changed")
    page.select_option("#preset", "mleague")
    expect(changed).to_be_hidden()
    expect(page.locator("#opt-red_fives")).to_be_checked()
    expect(page.locator("#opt-kiriage")).not_to_be_checked()
    expect(page.locator("#opt-uma")).to_have_value("30,10,-10,-30")
    expect(page.locator("#start-points")).to_have_value("25000")

    page.select_option("#preset", "wrc")
    page.uncheck("#opt-kiriage")
    for seat, name in enumerate(["Aki", "Bun", "Chie", "Dai"]):
        page.fill(f"[name=player{seat}]", name)
    page.click("#start-btn")
    page.wait_for_url(base + "/")
    rules = page.request.get(base + "/api/export.json").json()["events"][0]["rules"]
    assert rules["name"] == "wrc"
    options = rules["options"]
    assert options["kiriage"] is False and options["red_fives"] is False
    assert options["start_points"] == 30000 and options["uma"]["fixed"] == [15, 5, -5, -15]
    assert errors == []
