"""A double tap records a change once (issue 35, item 3), in Debian's chromium at 800x480 against
the real kiosk: Apply on a quick win, Record the draw, an abortive draw and a chombo, each tapped
twice in a row; and a win whose answer is lost on the way (the request reaches the kiosk, the
page never hears back) applied again: the retry sends the same Idempotency-Key and the kiosk
answers what it answered the first time.

Expected points (Tenhou rules): Bun (South) wins 2 han 30 fu by tsumo in East 1: 500/1,000, so
Aki 24,000, Bun 27,000, Chie 24,500, Dai 24,500, and the deal passes to Bun (East 2); recorded
twice, Bun would also take East 2's dealer tsumo. A draw with no one tenpai passes the deal
once (East 2, 1 honba). Chie's chombo is a reverse mangan: 4,000 to Aki, 2,000 to each other.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.server import get_json
from tests.kiosk.test_browser import browser  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
AFTER_TSUMO = [24000, 27000, 24500, 24500]


def table(base: str) -> tuple[list[int], str, list[str]]:
    """Points, the round's label and what history holds after the game's start."""
    state = get_json(base + "/api/state")
    history = get_json(base + "/api/history")["entries"]
    return ([s["points"] for s in state["seats"]], state["label"],
            [e["type"] for e in history[1:]])


def quick_tsumo(page: Any, base: str) -> None:
    """The win page with Bun's 2 han 30 fu tsumo scored, Apply in view."""
    from playwright.sync_api import expect

    page.goto(base + "/win")
    page.click('#mode button[data-mode="quick"]')
    page.click('#winner button[data-v="1"]')
    page.click('#discarder button[data-v="null"]')  # tsumo, tapped: nothing is preselected
    page.select_option("#q-han", "2")
    page.select_option("#q-fu", "30")
    page.click("#score-btn")
    expect(page.locator("#payments")).to_contain_text("+2,000")


def test_double_tap_on_apply_records_the_win_once(open_page: Any, base: str) -> None:
    page, errors = open_page(800, 480)
    quick_tsumo(page, base)
    page.dblclick("#apply-btn")
    page.wait_for_url(base + "/")
    page.wait_for_load_state("networkidle")
    assert table(base) == (AFTER_TSUMO, "East 2, 0 honba", ["win"])
    assert errors == []


@pytest.mark.parametrize("where, button, after", [
    ("/draw", "#draw-apply", ([25000] * 4, "East 2, 1 honba", ["exhaustive_draw"])),
    ("/draw", '.abort-btn[data-kind="four_winds"]',
     ([25000] * 4, "East 1, 1 honba", ["abortive_draw"])),
    ("/other", '#chombo button[data-seat="2"]',
     ([29000, 27000, 17000, 27000], "East 1, 0 honba", ["chombo"])),
], ids=["draw", "abort", "chombo"])
def test_double_tap_records_a_draw_an_abort_and_a_chombo_once(
        open_page: Any, base: str, where: str, button: str,
        after: tuple[list[int], str, list[str]]) -> None:
    page, errors = open_page(800, 480)
    page.goto(base + where)
    page.dblclick(button)
    page.wait_for_url(base + "/")
    page.wait_for_load_state("networkidle")
    assert table(base) == after
    assert errors == []


def test_a_win_whose_answer_was_lost_is_applied_again_once(open_page: Any, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    quick_tsumo(page, base)
    keys: list[str] = []

    def lose_first_answer(route: Any) -> None:
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) == 1:
            route.fetch()  # the kiosk records the win ...
            route.abort("connectionreset")  # ... and the page never hears of it
        else:
            route.continue_()
    page.route("**/api/wins", lose_first_answer)
    page.click("#apply-btn")
    expect(page.locator("#toast.bad")).to_be_visible()  # the page says the tap failed
    assert table(base)[0] == AFTER_TSUMO  # but the kiosk has it
    expect(page.locator("#apply-btn")).to_be_enabled()
    page.click("#apply-btn")  # the player taps Apply again
    page.wait_for_url(base + "/")
    page.wait_for_load_state("networkidle")
    assert len(keys) == 2 and keys[0] == keys[1] and len(keys[0]) == 32
    assert table(base) == (AFTER_TSUMO, "East 2, 0 honba", ["win"])
    expect(page.locator('.seat[data-seat="1"] .points')).to_have_text("27,000")
    assert [e for e in errors if "Failed to fetch" not in e] == []
