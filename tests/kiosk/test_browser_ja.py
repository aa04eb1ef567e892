"""Every page in Japanese after a game with a win, an exhaustive draw, an abortive draw, a chombo
and a riichi (issue 18, item 6), in Debian's chromium against the real app and server: no English
word and no raw id (snake_case) in the visible text, beyond an explicit allow-list.

Expected (Tenhou rules): Bun's riichi pinfu tanyao ron with the 2s pair as dora 2 is 5 han, a
non-dealer mangan, 8,000 from Dai; a non-dealer's chombo is a reverse mangan.
Screenshots go to test-artifacts/ja-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.kiosk.server import page_post, running_kiosk
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
PLAYERS = ["Aki", "Bun", "Chie", "Dai"]
PINFU = {"concealed": "234m456p22s34567s", "win": "8s", "dora": "1s"}
#: Latin that belongs on a Japanese page: the players' names, abbreviations Japanese players use
#: (rulesets too: WRC, EMA, Mリーグ), the language switch's own name for English, and the honour
#: tiles' corner index (tiles.js).
ALLOWED = {*PLAYERS, "PIN", "OK", "JSON", "CSV", "WRC", "EMA", "M", "English",
           "E", "S", "W", "N", "G", "R"}
#: Taken out before looking for words: addresses, command-line options (the LAN hint), tiles in
#: notation ("3m", "234m456p") and its suit letters alone (the text box's help: "m・p・s・z").
NOT_WORDS = re.compile(r"https?://\S+|--[\w-]+|\b(?:\d+[mpsz])+\b|(?<![A-Za-z])[mpsz](?![A-Za-z])")
PAGES = ["/", "/history", "/standings", "/draw", "/other", "/win", "/new", "/teach", "/games"]
#: The games list also shows the game the kiosk started by itself, whose stored players are
#: "Player 1" to "Player 4" (kiosk/table/game.py DEFAULT_PLAYERS): names, not the page's words.
NAMES_ON = {"/games": {"Player"}}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_kiosk(tmp_path_factory.mktemp("ja") / "data", "--camera", "none") as url:
        yield url


@pytest.fixture(scope="module")
def played(browser, base: str) -> Iterator[Any]:  # noqa: ANN001, F811
    """A page in Japanese on a game that has seen every kind of event."""
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(base + "/?lang=ja")
    page_post(page, base, "/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
    page_post(page, base, "/api/riichi", {"seat": 1})
    page_post(page, base, "/api/wins", {"winner": 1, "discarder": 3, "hand": PINFU})
    page_post(page, base, "/api/draws", {"tenpai": [0, 2]})
    page_post(page, base, "/api/aborts", {"kind": "four_winds"})
    page_post(page, base, "/api/chombo", {"seat": 3})
    yield page
    page.close()


def english_in(text: str) -> list[str]:
    """The Latin words of `text` that are not allowed on a Japanese page."""
    return sorted({w for w in re.findall(r"[A-Za-z][A-Za-z_']*", NOT_WORDS.sub(" ", text))
                   if w not in ALLOWED})


def test_the_allow_list_is_narrow() -> None:
    assert english_in("東1局 Bun 3m 234m456p OK http://x/ --host m・p・s・z") == []
    assert english_in("abortive draw (four_winds)") == ["abortive", "draw", "four_winds"]
    assert english_in("チョンボ：Dai（reverse_mangan）") == ["reverse_mangan"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_in_japanese_has_no_english(played, base: str, path: str) -> None:  # noqa: ANN001
    page = played
    errors: list[Any] = []

    def failed(error: Any) -> None:
        errors.append(error)

    page.on("pageerror", failed)
    try:
        page.goto(base + path)
        page.locator("#live.on").wait_for()
        page.wait_for_load_state("networkidle")
        text = page.evaluate("document.body.innerText")
        shot(page, "ja" + (path.replace("/", "-") if path != "/" else "-table"))
    finally:
        page.remove_listener("pageerror", failed)
    assert [w for w in english_in(text) if w not in NAMES_ON.get(path, ())] == [], text
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text)  # no raw id
    assert errors == []


def test_the_table_and_history_say_what_happened_in_japanese(played, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page = played
    page.goto(base + "/")
    expect(page.locator("#last-event")).to_have_text("チョンボ：Dai（満貫払い）")
    expect(page.locator("#ruleset")).to_have_text("天鳳")
    page.goto(base + "/history")
    entries = page.locator("#entries .entry")
    expect(entries).to_have_count(6)
    # Newest first: the chombo, the abortive draw, the draw, the win (its hand), the riichi.
    expect(entries.nth(0)).to_contain_text("6. 東3局 2本場")
    expect(entries.nth(0)).to_contain_text("チョンボ：Dai（満貫払い）")
    expect(entries.nth(1)).to_contain_text("途中流局：四風連打")
    expect(entries.nth(2)).to_contain_text("荒牌流局 聴牌：Aki、Chie")
    expect(entries.nth(3)).to_contain_text("ロン（放銃：Dai）：Bun 5翻 満貫")
    expect(entries.nth(3)).to_contain_text(
        "立直 1翻、平和 1翻、断么九 1翻、ドラ 2翻 — 5翻 満貫 8,000点")
    expect(entries.nth(4)).to_contain_text("リーチ：Bun")


def test_a_quick_hands_breakdown_in_japanese(played, base: str) -> None:  # noqa: ANN001
    """East 3 (Chie deals), 2 honba: Aki's 6 han ron off Bun is a non-dealer haneman, 12,000,
    and 600 for the honba."""
    from playwright.sync_api import expect

    page = played
    page.goto(base + "/win")
    page.click('#mode button[data-mode="quick"]')
    page.click('#winner button[data-v="0"]')
    page.click('#discarder button[data-v="1"]')
    page.select_option("#q-han", "6")
    page.click("#score-btn")
    expect(page.locator("#total")).to_have_text("6翻 跳満 12,000点")
    expect(page.locator("#base")).to_have_text("跳満：基本点 3,000")
    text = page.inner_text("#breakdown")
    assert english_in(text) == [], text
    shot(page, "ja-win-quick")


def test_the_end_of_the_game_in_japanese(played, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page = played
    page_post(page, base, "/api/end", {"reason": "時間切れ"})
    page.goto(base + "/")
    expect(page.locator("#last-event")).to_have_text("対局終了：時間切れ")
    expect(page.locator("#finished")).to_be_visible()
    for path in ("/", "/standings", "/history"):
        page.goto(base + path)
        page.locator("#live.on").wait_for()
        page.wait_for_load_state("networkidle")
        text = page.evaluate("document.body.innerText")
        assert english_in(text) == [], (path, text)
    expect(page.locator("#entries .entry").first).to_contain_text("対局終了：時間切れ")
    page_post(page, base, "/api/undo", {})  # the module's game runs on for the other tests
