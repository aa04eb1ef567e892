"""Words and offers in Debian's chromium at 800x480 (issue 38, item 4): an English refusal in a
player's words, said once, in a toast that never covers the tiles; only what applies offered
(Triple ron where it is an abortive draw, no chi at three players, no Riichi below 1,000
points); Quick -> Points -> 8000 stored as the mangan entered.

Expected points (Tenhou rules): a non-dealer's mangan ron is 8,000."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.kiosk.server import running_kiosk
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
PLAYERS = ["Aki", "Bun", "Chie", "Dai"]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_kiosk(tmp_path_factory.mktemp("offers") / "data", "--camera", "none") as url:
        yield url


def post(page: Any, base: str, path: str, body: dict[str, Any]) -> Any:
    csrf = page.request.get(base + "/api/session").json()["csrf"]
    r = page.request.post(base + path, data=json.dumps(body),
                          headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"})
    assert r.ok, r.text()
    return r.json()


@pytest.fixture
def page(browser: Any, base: str) -> Iterator[Any]:  # noqa: F811
    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.goto(base + "/api/session")  # no page that reloads when a game of three starts
    yield page
    page.close()


def test_no_riichi_below_1000_and_the_refusal_in_a_players_words(page: Any, base: str) -> None:
    from playwright.sync_api import expect

    post(page, base, "/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
    post(page, base, "/api/corrections", {"deltas": [24500, 0, 0, -24500], "reason": "test"})
    page.goto(base + "/?lang=en")
    page.locator("#live.on").wait_for()
    expect(page.locator('.seat[data-seat="3"] .riichi-btn')).to_be_hidden()
    expect(page.locator('.seat[data-seat="2"] .riichi-btn')).to_be_visible()
    # A script still asking gets its refusal; the page words it as a player would
    page.evaluate("K.act(() => K.api('POST', '/api/riichi', {seat: 3}))")
    expect(page.locator("#toast")).to_have_text("Dai has 500 points; riichi needs 1,000")
    shot(page, "offers-riichi-refused-800x480")


@pytest.mark.parametrize("ruleset, triple", [("tenhou", True), ("mahjong_soul", False)])
def test_triple_ron_offered_only_where_it_is_an_abortive_draw(page: Any, base: str,
                                                              ruleset: str, triple: bool) -> None:
    from playwright.sync_api import expect

    post(page, base, "/api/games", {"players": PLAYERS, "ruleset": ruleset})
    page.goto(base + "/draw?lang=en")
    page.locator("#live.on").wait_for()
    expect(page.locator('.abort-btn[data-kind="nine_terminals"]')).to_be_visible()
    button = page.locator('.abort-btn[data-kind="triple_ron"]')
    expect(button).to_be_visible() if triple else expect(button).to_be_hidden()


def test_three_players_no_chi_and_a_long_refusal_said_once_above_the_tiles(
        page: Any, base: str) -> None:
    from playwright.sync_api import expect

    post(page, base, "/api/games", {"players": PLAYERS[:3], "ruleset": "mahjong_soul_sanma"})
    page.goto(base + "/win?lang=en")
    page.locator("#live.on").wait_for()
    page.click("#manual-btn")
    expect(page.locator('.add-meld[data-kind="pon"]')).to_have_count(1)
    assert page.locator('.add-meld[data-kind="chi"]').is_hidden()
    # The 2m-7m hand a three-player set lacks, typed in the box Tap tiles in brought into view
    # (the page scrolled down to it), then the winner and who dealt in tapped (the page back up
    # to them) and Score: one sentence, in a toast over the header only, clear of the tiles
    page.fill("#mpsz", "234567m456p789s22z")
    page.click("#mpsz-set")
    page.click('#winner button[data-v="1"]')
    page.click('#discarder button[data-v="0"]')
    page.click("#score-btn")
    toast = page.locator("#toast")
    expect(toast).to_contain_text("2m, 3m, 4m, 5m, 6m, 7m are not in a three-player set")
    text = toast.inner_text()
    assert text.count("three-player") == 1 and "tiles:" not in text
    box, bar = toast.bounding_box(), page.locator(".bar").bounding_box()
    assert box and bar and box["y"] + box["height"] <= bar["y"] + bar["height"] + 1
    tiles = page.locator("#g-concealed").bounding_box()
    assert tiles and box["y"] + box["height"] <= tiles["y"]
    shot(page, "offers-sanma-refusal-800x480")


def test_quick_points_8000_is_stored_as_the_mangan_entered(page: Any, base: str) -> None:
    from playwright.sync_api import expect

    post(page, base, "/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
    page.goto(base + "/win?lang=en")
    page.locator("#live.on").wait_for()
    page.click('#mode button[data-mode="quick"]')
    page.click('#q-kind button[data-kind="points"]')
    page.fill("#q-points", "8000")
    page.click('#winner button[data-v="1"]')
    page.click('#discarder button[data-v="0"]')
    page.click("#score-btn")
    expect(page.locator("#total")).to_contain_text("Mangan")
    expect(page.locator("#total")).not_to_contain_text("70 fu")
    page.click("#apply-btn")
    page.wait_for_url(base + "/")
    page.goto(base + "/history?lang=en")
    expect(page.locator("body")).to_contain_text("Mangan — 8,000")
    expect(page.locator("body")).not_to_contain_text("3 han 70 fu")
    shot(page, "offers-quick-points-history-800x480")
