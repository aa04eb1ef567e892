"""Getting around in Debian's chromium (issue 18, item 11): the standings one tap away during a
game, the games list to switch to another game and resume it, and importing a game record (a
broken one refused with a message naming the problem, nothing stored changed).

Expected points (Tenhou rules: 25,000 start, 30,000 return, oka 20 to first, uma 20/10): a
correction of +3,000 / -1,000 / -2,000 / 0 leaves 28,000, 24,000, 23,000, 25,000; were the game
to end now, Aki (28,000) has -2 + 20 + 20 = 38.0, Dai (25,000) -5 + 10 = 5.0, Bun (24,000)
-6 - 10 = -16.0, Chie (23,000) -7 - 20 = -27.0. Riichi puts 1,000 on the table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.server import page_post, running_kiosk
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
PLAYERS = ["Aki", "Bun", "Chie", "Dai"]
OTHERS = ["Eri", "Fumi", "Gen", "Hana"]
TALLY = {"deltas": [3000, -1000, -2000, 0], "reason": "tally"}


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    """A fresh kiosk per test: its store holds its own starting game and what the test adds."""
    with running_kiosk(tmp_path / "data", "--camera", "none") as url:
        yield url


@pytest.fixture
def open_page(browser, base: str) -> Iterator[Any]:  # noqa: ANN001, F811
    pages: list[Any] = []

    def opener(width: int, height: int) -> tuple[Any, list[str]]:
        page = browser.new_page(viewport={"width": width, "height": height})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(base + "/")
        pages.append(page)
        return page, errors

    yield opener
    for page in pages:
        page.close()


def game_id(page, base: str) -> str:  # noqa: ANN001
    return str(page.request.get(base + "/api/state").json()["game"]["id"])


def fits(page, width: int, height: int, selector: str) -> bool:  # noqa: ANN001
    box = page.locator(selector).first.bounding_box()
    wide = page.evaluate("document.documentElement.scrollWidth")
    return (box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
            and box["y"] + box["height"] <= height and wide <= width)


@pytest.mark.parametrize("width, height", [(800, 480), (390, 844)], ids=["800x480", "390x844"])
def test_the_standings_during_the_game_show_the_points_now(open_page, base: str,  # noqa: ANN001
                                                           width: int, height: int) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(width, height)
    page_post(page, base, "/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
    page_post(page, base, "/api/corrections", TALLY)
    link = page.locator('header nav a[href="/standings"]')
    expect(link).to_have_text("Standings")
    assert fits(page, width, height, 'header nav a[href="/standings"]')
    link.click()
    page.wait_for_url(base + "/standings")
    expect(page.locator("#standings-state")).to_have_text(
        "Provisional (the game is still running)")
    rows = page.locator("#standings tbody tr")
    expect(rows.locator("td.player > span:last-child")).to_have_text(["Aki", "Dai", "Bun", "Chie"])
    expect(rows.locator("td:nth-child(3)")).to_have_text(["28,000", "25,000", "24,000", "23,000"])
    expect(rows.locator("td:nth-child(6)")).to_have_text(["38.0", "5.0", "-16.0", "-27.0"])
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"standings-playing-{width}x{height}")

    # They follow the table while it plays.
    page_post(page, base, "/api/riichi", {"seat": 0})
    expect(rows.locator("td:nth-child(3)").first).to_have_text("28,000")
    expect(rows.locator("td:nth-child(3)")).to_have_text(["28,000", "25,000", "24,000", "23,000"])
    assert errors == []


def test_the_games_list_switches_and_resumes(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    page_post(page, base, "/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
    first = game_id(page, base)
    page_post(page, base, "/api/riichi", {"seat": 1})
    page_post(page, base, "/api/games", {"players": OTHERS, "ruleset": "mleague"})
    assert fits(page, 800, 480, 'header nav a[href="/games"]')
    page.click('header nav a[href="/games"]')
    page.wait_for_url(base + "/games")

    items = page.locator("#games li.game")
    expect(items).to_have_count(3)  # newest first, the fresh kiosk's own game last
    expect(items.nth(0).locator(".status")).to_have_text("Playing now · East 1, 0 honba")
    expect(items.nth(0).locator(".player b")).to_have_text(OTHERS)
    expect(items.nth(0).locator("button")).to_have_count(0)
    older = items.nth(1)
    expect(older.locator(".status")).to_have_text("East 1, 0 honba")
    expect(older.locator(".player")).to_have_text(
        ["Aki 25,000", "Bun 24,000", "Chie 25,000", "Dai 25,000"])
    expect(older).to_contain_text("2 events recorded")
    shot(page, "games-800x480")

    older.get_by_role("button", name="Resume").click()
    page.wait_for_url(base + "/")
    assert game_id(page, base) == first
    expect(page.locator('.seat[data-seat="1"] .name')).to_have_text("Bun")
    expect(page.locator('.seat[data-seat="1"] .points')).to_have_text("24,000")
    expect(page.locator("#sticks")).to_have_text("1 riichi stick")

    # A finished game: the list offers its standings.
    page_post(page, base, "/api/end", {"reason": "time"})
    page.goto(base + "/games")
    expect(items.nth(1).locator(".status")).to_have_text("Playing now · Finished")
    items.nth(0).get_by_role("button", name="Resume").click()
    page.wait_for_url(base + "/")
    expect(page.locator('.seat[data-seat="0"] .name')).to_have_text("Eri")
    page.goto(base + "/games")
    finished = items.nth(1)
    expect(finished.locator(".status")).to_have_text("Finished")
    finished.get_by_role("button", name="Standings").click()
    page.wait_for_url(base + "/standings")
    expect(page.locator("#standings-state")).to_have_text("Final result")
    expect(page.locator("#standings tbody td.player > span:last-child")).to_have_text(
        ["Aki", "Chie", "Dai", "Bun"])
    assert errors == []


def test_import_a_record_and_refuse_a_broken_one(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(390, 844)
    page_post(page, base, "/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
    page_post(page, base, "/api/corrections", TALLY)
    record = page.request.get(base + "/api/export.json").body()
    page_post(page, base, "/api/undo", {})  # the stored game no longer is the record
    page.goto(base + "/games")
    items = page.locator("#games li.game")
    expect(items).to_have_count(2)

    page.set_input_files("#import-file", files=[
        {"name": "tally.json", "mimeType": "application/json", "buffer": record}])
    page.click("#import-btn")
    expect(page.locator("#toast")).to_have_text(  # to the list: the game played stays
        "Imported into the games list: Aki, Bun, Chie, Dai. The game played stays.")
    expect(items).to_have_count(3)
    expect(items.nth(0)).not_to_have_class(re.compile(r"\bcurrent\b"))
    expect(items.nth(0).locator(".player")).to_have_text(
        ["Aki 28,000", "Bun 24,000", "Chie 23,000", "Dai 25,000"])
    expect(items.nth(1)).to_have_class(re.compile(r"\bcurrent\b"))
    expect(items.nth(1).locator(".player")).to_have_text(  # the game exported, as it is now
        ["Aki 25,000", "Bun 25,000", "Chie 25,000", "Dai 25,000"])
    expect(page.locator("#import-error")).to_be_hidden()
    imported = game_id(page, base)

    edited = json.loads(record)
    edited["events"][1]["after"]["points"][0] = 99000
    for name, data, problem in [
        ("edited.json", json.dumps(edited).encode(),
         "cannot import the record: event 1 (correction), field 'after.points': the record "
         "says [99000, 24000, 23000, 25000] but its events give [28000, 24000, 23000, 25000] "
         "(edited by hand?)"),
        ("notes.txt", b"hello", "cannot import the record: record: not JSON"),
    ]:
        page.set_input_files("#import-file", files=[
            {"name": name, "mimeType": "application/json", "buffer": data}])
        page.click("#import-btn")
        expect(page.locator("#import-failed")).to_have_text(
            f"{name} was not imported; nothing stored was changed. The problem:")
        expect(page.locator("#import-problem")).to_contain_text(problem)
        expect(items).to_have_count(3)
        assert game_id(page, base) == imported
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "games-import-refused-390x844")

    page.set_input_files("#import-file", files=[])
    page.click("#import-btn")
    expect(page.locator("#import-failed")).to_have_text("Choose a game record file first.")
    assert errors == []


def test_the_games_page_in_japanese(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(390, 844)
    page_post(page, base, "/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
    page_post(page, base, "/api/riichi", {"seat": 1})
    page.goto(base + "/games?lang=ja")
    items = page.locator("#games li.game")
    expect(items).to_have_count(2)
    expect(items.nth(0).locator(".status")).to_have_text("現在の対局 · 東1局 0本場")
    expect(items.nth(0).locator(".muted")).to_contain_text("天鳳 · ")
    expect(items.nth(0).locator(".muted")).to_contain_text(" · 記録2件")
    expect(items.nth(1).locator("[data-resume]")).to_have_text("再開")
    expect(items.nth(1).locator("[data-delete]")).to_have_text("削除")
    expect(page.locator('header nav a[href="/games"]')).to_have_text("対局一覧")
    expect(page.locator('header nav a[href="/standings"]')).to_have_text("順位")
    expect(page.locator("#import-btn")).to_have_text("取り込む")
    latin = re.findall(r"[A-Za-z]+", page.evaluate("document.body.innerText"))
    assert set(latin) <= {*PLAYERS, "Player", "JSON", "English", "EN"}
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "games-ja-390x844")
    assert errors == []
