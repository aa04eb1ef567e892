"""Players and games in Debian's chromium (issue 38, item 6): the new-game form offers the
players of recent games (a tap a name, Same players for the last line-up); a game is deleted
from the games list after a confirm in its row (the fresh kiosk's "Player 1-4" game too, never
the game played); the standings' export downloads a file named by date and players.
Screenshots at 800x480, 1280x720, 390x844 and 1920x1080 go to runs/screens/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.server import page_post, running_kiosk
from tests.kiosk.test_browser import browser  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
SCREENS = Path(__file__).resolve().parents[2] / "runs" / "screens"
SIZES = [(800, 480), (1280, 720), (390, 844), (1920, 1080)]
PLAYERS = ["Aki", "Bun", "Chie", "Dai"]
OTHERS = ["Eri", "Fumi #0042", "Gen", "Bun"]


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    with running_kiosk(tmp_path / "data", "--camera", "none") as url:
        yield url


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:  # noqa: F811
    pages: list[Any] = []

    def opener(url: str, width: int = 800, height: int = 480) -> tuple[Any, list[str]]:
        page = browser.new_page(viewport={"width": width, "height": height})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        pages.append(page)
        return page, errors

    yield opener
    for page in pages:
        page.close()


def screens(page: Any, name: str, width: int, height: int) -> None:
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}-{width}x{height}.png"))


def names(page: Any) -> list[str]:
    return [page.input_value(f"[name=player{i}]") for i in range(4)]


def test_recent_players_are_a_tap_each(open_page: Any, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(base + "/new?lang=en")
    expect(page.locator("#recent-players")).to_be_hidden()  # a fresh kiosk: nobody yet
    page_post(page, base, "/api/games", {"players": PLAYERS})
    page_post(page, base, "/api/games", {"players": OTHERS})
    page.goto(base + "/new?lang=en")
    chips = page.locator("#recent-names button")
    expect(chips).to_have_text(["Eri", "Fumi #0042", "Gen", "Bun", "Aki", "Chie", "Dai"])
    expect(page.locator("#recent-help")).to_have_text(
        "Recent players: tap a name for the next seat (tap a seat's name first to choose the "
        "seat).")
    page.click('#recent-names button[data-player="Aki"]')
    page.click('#recent-names button[data-player="Chie"]')
    assert names(page) == ["Aki", "Chie", "Player 3", "Player 4"]
    page.click("[name=player3]")  # the North seat chosen first
    page.click('#recent-names button[data-player="Fumi #0042"]')
    page.click('#recent-names button[data-player="Dai"]')
    assert names(page) == ["Aki", "Chie", "Dai", "Fumi #0042"]
    expect(page.locator("#recent-names button.on")).to_have_text(
        ["Fumi #0042", "Aki", "Chie", "Dai"])
    page.click('#recent-names button[data-player="Chie"]')  # tapped again: the seat is free
    assert names(page) == ["Aki", "Player 2", "Dai", "Fumi #0042"]
    page.click('#recent-names button[data-player="Gen"]')
    page.click('#recent-names button[data-player="Eri"]')  # every seat has a name: said so
    expect(page.locator("#toast")).to_have_text(
        "Every seat has a name: tap a seat's name first, then the player.")
    assert names(page) == ["Aki", "Gen", "Dai", "Fumi #0042"]
    page.click("#same-players")
    assert names(page) == OTHERS
    page.click("#start-btn")
    page.wait_for_url(base + "/")
    assert page.request.get(base + "/api/state").json()["game"]["players"] == OTHERS
    assert errors == []


def test_recent_players_in_japanese_and_at_each_size(open_page: Any, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(base + "/new?lang=ja")
    page_post(page, base, "/api/games", {"players": PLAYERS})
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(base + "/new?lang=ja")
        expect(page.locator("#same-players")).to_have_text("前回と同じメンバー")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width
        screens(page, "new-game-recent-ja", width, height)
    page.goto(base + "/new?lang=en")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.click("#same-players")
        box = page.locator("#recent-players").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= width
        screens(page, "new-game-recent", width, height)
    assert names(page) == PLAYERS and errors == []


def test_a_game_is_deleted_after_a_confirm(open_page: Any, base: str) -> None:
    """The fresh kiosk's "Player 1-4" game goes; the game played offers no Delete."""
    from playwright.sync_api import expect

    page, errors = open_page(base + "/games?lang=en")
    first = page.request.get(base + "/api/state").json()["game"]["id"]
    page_post(page, base, "/api/games", {"players": PLAYERS})
    page.goto(base + "/games?lang=en")
    items = page.locator("#games li.game")
    expect(items).to_have_count(2)
    expect(items.nth(0).locator("[data-delete]")).to_have_count(0)  # the game played
    old = page.locator(f'li.game[data-game="{first}"]')
    expect(old.locator(".player b")).to_have_text(
        ["Player 1", "Player 2", "Player 3", "Player 4"])
    old.locator("[data-delete]").click()
    expect(old.locator(".delete-ask")).to_contain_text("Delete this game for good?")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        yes = old.locator("[data-delete-yes]").bounding_box()
        assert yes and yes["x"] + yes["width"] <= width
        screens(page, "games-delete-ask", width, height)
    page.set_viewport_size({"width": 800, "height": 480})
    old.locator("[data-delete-no]").click()  # Cancel: nothing happens
    expect(old.locator(".delete-ask")).to_be_hidden()
    expect(items).to_have_count(2)
    old.locator("[data-delete]").click()
    old.locator("[data-delete-yes]").click()
    expect(page.locator("#toast")).to_have_text(
        "Deleted: Player 1, Player 2, Player 3, Player 4")
    expect(items).to_have_count(1)
    expect(items.nth(0).locator(".player b")).to_have_text(PLAYERS)
    listed = page.request.get(base + "/api/games").json()
    assert [g["players"] for g in listed["games"]] == [PLAYERS] and listed["total"] == 1
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        screens(page, "games-after-delete", width, height)
    assert errors == []


def test_the_export_is_named_by_date_and_players(open_page: Any, base: str) -> None:
    page, errors = open_page(base + "/standings?lang=en")
    page_post(page, base, "/api/games", {"players": ["Aki", "Bun #7", "山田 太郎", "Dai"]})
    page.goto(base + "/standings?lang=en")
    created = page.request.get(base + "/api/games").json()["games"][0]["created"]
    day = datetime.fromisoformat(created).astimezone().date().isoformat()
    for link, ext in (("export.json", "json"), ("export.csv", "csv")):
        with page.expect_download() as download:
            page.click(f'a[href="/api/{link}"]')
        assert download.value.suggested_filename == f"{day}-Aki-Bun_7-山田_太郎-Dai.{ext}"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d", day) and errors == []
