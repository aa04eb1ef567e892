"""A whole game played and read in a language other than English, in Debian's chromium against
the real app and server: what tests/kiosk/test_browser_ja.py and test_browser_zh.py share.

A module that uses it names its language (`SPOKEN`, a `Spoken`) and imports the `base` and
`played` fixtures from here (and `browser` from tests/kiosk/test_browser.py): `played` is a page
in that language on a game that has seen a riichi, a win, an exhaustive draw, an abortive draw
and a chombo. The checks below read a page's visible text for words the language must not show
(English, raw ids, and whatever else the language names, kana on a Chinese page) and say what
the table, history, a quick hand's breakdown and the game's end show, in the module's words.

Expected (Tenhou rules): Bun's riichi pinfu tanyao ron with the 2s pair as dora 2 is 5 han, a
non-dealer mangan, 8,000 from Dai; a non-dealer's chombo is a reverse mangan.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.kiosk.server import page_post, running_kiosk
from tests.kiosk.test_browser import shot

PLAYERS = ["Aki", "Bun", "Chie", "Dai"]
# Bun's riichi pinfu tanyao ron with the 2s pair as dora 2: 5 han, a non-dealer mangan, 8,000.
PINFU = {"concealed": "234m456p22s34567s", "win": "8s", "dora": "1s"}
#: Taken out before looking for words: addresses, command-line options (the LAN hint), tiles in
#: notation ("3m", "234m456p") and its suit letters alone (the text box's help: "m・p・s・z").
NOT_WORDS = re.compile(r"https?://\S+|--[\w-]+|\b(?:\d+[mpsz])+\b|(?<![A-Za-z])[mpsz](?![A-Za-z])")
PAGES = ["/", "/history", "/standings", "/draw", "/other", "/win", "/new", "/teach", "/games"]
#: The games list also shows the game the kiosk started by itself, whose stored players are
#: "Player 1" to "Player 4" (kiosk/table/game.py DEFAULT_PLAYERS): names, not the page's words.
NAMES_ON = {"/games": {"Player"}}
#: Latin that belongs on every page: the players' names, abbreviations players use (PIN, JSON,
#: CSV, the rulesets WRC, EMA, M-League's M), the language switch's own name for English, and
#: the honour tiles' corner index (tiles.js).
LATIN = frozenset({*PLAYERS, "PIN", "JSON", "CSV", "WRC", "EMA", "M", "English",
                   "E", "S", "W", "N", "G", "R"})


@dataclass(frozen=True)
class Spoken:
    """A language the pages are read in: its id (`?lang=`, `<html lang>`), the screenshots'
    prefix, the Latin words its pages may show, and what else they must not (a pattern)."""

    lang: str
    short: str
    allowed: frozenset[str]
    also_foreign: re.Pattern[str] | None = None

    def foreign_in(self, text: str) -> list[str]:
        """The Latin words of `text` not allowed on the language's pages, and what else
        `also_foreign` finds."""
        latin = {w for w in re.findall(r"[A-Za-z][A-Za-z_']*", NOT_WORDS.sub(" ", text))
                 if w not in self.allowed}
        other = set(self.also_foreign.findall(text)) if self.also_foreign else set()
        return sorted(latin | other)


#: The Japanese pages: the Latin above and OK (オーケー is not what a button says).
JAPANESE = Spoken("ja", "ja", LATIN | {"OK"})
#: The Simplified Chinese pages: the Latin above, and no kana (Japanese words left on a Chinese
#: page; the katakana middle dot ・ Chinese uses too).
CHINESE = Spoken("zh-Hans", "zh", LATIN, re.compile(r"[\u3040-\u309f\u30a0-\u30fa\u30fc-\u30ff]"))


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
         ) -> Iterator[str]:
    spoken: Spoken = request.module.SPOKEN
    with running_kiosk(tmp_path_factory.mktemp(spoken.short) / "data", "--camera", "none") as url:
        yield url


@pytest.fixture(scope="module")
def played(browser: Any, base: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page in the module's language on a game that has seen every kind of event."""
    spoken: Spoken = request.module.SPOKEN
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(f"{base}/?lang={spoken.lang}")
    page_post(page, base, "/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
    page_post(page, base, "/api/riichi", {"seat": 1})
    page_post(page, base, "/api/wins", {"winner": 1, "discarder": 3, "hand": PINFU})
    page_post(page, base, "/api/draws", {"tenpai": [0, 2]})
    page_post(page, base, "/api/aborts", {"kind": "four_winds"})
    page_post(page, base, "/api/chombo", {"seat": 3})
    yield page
    page.close()


def read_page(page: Any, base: str, path: str, spoken: Spoken) -> str:
    """`path`'s visible text once it is live (a screenshot taken), having checked that the page
    is in the language, raised no script error and shows no foreign word or raw id."""
    errors: list[Any] = []

    def failed(error: Any) -> None:
        errors.append(error)

    page.on("pageerror", failed)
    try:
        page.goto(base + path)
        page.locator("#live.on").wait_for()
        page.wait_for_load_state("networkidle")
        text = str(page.evaluate("document.body.innerText"))
        shot(page, spoken.short + (path.replace("/", "-") if path != "/" else "-table"))
    finally:
        page.remove_listener("pageerror", failed)
    assert page.evaluate("document.documentElement.lang") == spoken.lang
    assert [w for w in spoken.foreign_in(text) if w not in NAMES_ON.get(path, ())] == [], text
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text)  # no raw id
    assert errors == []
    return text


def table_and_history_say(page: Any, base: str, ruleset: str, label: str, chombo: str,
                          before: list[str], hand: str) -> None:
    """The table's last event is the chombo and its ruleset is named; the history, newest
    first, has the chombo with its hand's `label`, then each of `before` (the abortive draw, the
    draw, the win, the riichi) in an entry of its own, and the win's hand as `hand`."""
    from playwright.sync_api import expect

    page.goto(base + "/")
    expect(page.locator("#last-event")).to_have_text(chombo)
    expect(page.locator("#ruleset")).to_have_text(ruleset)
    page.goto(base + "/history")
    entries = page.locator("#entries .entry")
    expect(entries).to_have_count(6)
    expect(entries.nth(0)).to_contain_text(label)
    expect(entries.nth(0)).to_contain_text(chombo)
    for i, words in enumerate(before, 1):
        expect(entries.nth(i)).to_contain_text(words)
    expect(entries.nth(3)).to_contain_text(hand)


def quick_hand_says(page: Any, base: str, spoken: Spoken, total: str, base_points: str) -> None:
    """East 3 (Chie deals), 2 honba: Aki's 6 han ron off Bun is a non-dealer haneman, 12,000,
    and 600 for the honba: its total and base points read so, nothing foreign on it."""
    from playwright.sync_api import expect

    page.goto(base + "/win")
    page.click('#mode button[data-mode="quick"]')
    page.click('#winner button[data-v="0"]')
    page.click('#discarder button[data-v="1"]')
    page.select_option("#q-han", "6")
    page.click("#score-btn")
    expect(page.locator("#total")).to_have_text(total)
    expect(page.locator("#base")).to_have_text(base_points)
    text = page.inner_text("#breakdown")
    assert spoken.foreign_in(text) == [], text
    shot(page, spoken.short + "-win-quick")


def the_end_says(page: Any, base: str, spoken: Spoken, reason: str, said: str) -> None:
    """The game ended early for `reason` says `said` on the table and the history, and the
    finished pages show nothing foreign; then the end is undone (the module's game runs on)."""
    from playwright.sync_api import expect

    page_post(page, base, "/api/end", {"reason": reason})
    page.goto(base + "/")
    expect(page.locator("#last-event")).to_have_text(said)
    expect(page.locator("#finished")).to_be_visible()
    for path in ("/", "/standings", "/history"):
        page.goto(base + path)
        page.locator("#live.on").wait_for()
        page.wait_for_load_state("networkidle")
        text = page.evaluate("document.body.innerText")
        assert spoken.foreign_in(text) == [], (path, text)
    expect(page.locator("#entries .entry").first).to_contain_text(said)
    page_post(page, base, "/api/undo", {})
