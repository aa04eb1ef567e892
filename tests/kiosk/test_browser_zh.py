"""Every page in Simplified Chinese after a game with a win, an exhaustive draw, an abortive draw,
a chombo and a riichi (issue 37, part 2; the Japanese pages' test, tests/kiosk/test_browser_ja.py,
in Chinese), in Debian's chromium against the real app and server: no English word, no raw id
(snake_case) and no Japanese kana in the visible text, beyond an explicit allow-list.

Expected (Tenhou rules): Bun's riichi pinfu tanyao ron with the 2s pair as dora 2 is 5 han, a
non-dealer mangan, 8,000 from Dai; a non-dealer's chombo is a reverse mangan.
Screenshots go to test-artifacts/zh-*.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.kiosk.server import page_post, running_kiosk
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (shared fixture)
from tests.kiosk.test_browser_ja import NAMES_ON, NOT_WORDS, PAGES, PINFU, PLAYERS

pytestmark = pytest.mark.browser
#: Latin that belongs on a Chinese page: the players' names, abbreviations Chinese players use
#: (PIN, JSON, CSV, the rulesets WRC, EMA, M联赛), the language switch's own name for English, and
#: the honour tiles' corner index (tiles.js).
ALLOWED = {*PLAYERS, "PIN", "JSON", "CSV", "WRC", "EMA", "M", "English",
           "E", "S", "W", "N", "G", "R"}
#: Kana: Japanese words left on a Chinese page (the katakana middle dot ・ Chinese uses too).
KANA = re.compile(r"[\u3040-\u309f\u30a0-\u30fa\u30fc-\u30ff]")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_kiosk(tmp_path_factory.mktemp("zh") / "data", "--camera", "none") as url:
        yield url


@pytest.fixture(scope="module")
def played(browser, base: str) -> Iterator[Any]:  # noqa: ANN001, F811
    """A page in Chinese on a game that has seen every kind of event."""
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(base + "/?lang=zh-Hans")
    page_post(page, base, "/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
    page_post(page, base, "/api/riichi", {"seat": 1})
    page_post(page, base, "/api/wins", {"winner": 1, "discarder": 3, "hand": PINFU})
    page_post(page, base, "/api/draws", {"tenpai": [0, 2]})
    page_post(page, base, "/api/aborts", {"kind": "four_winds"})
    page_post(page, base, "/api/chombo", {"seat": 3})
    yield page
    page.close()


def foreign_in(text: str) -> list[str]:
    """The Latin words of `text` that are not allowed on a Chinese page, and any kana."""
    latin = {w for w in re.findall(r"[A-Za-z][A-Za-z_']*", NOT_WORDS.sub(" ", text))
             if w not in ALLOWED}
    return sorted(latin | set(KANA.findall(text)))


def test_the_allow_list_is_narrow() -> None:
    assert foreign_in("东1局 Bun 3m 234m456p JSON http://x/ --host m、p、s、z 海底・河底") == []
    assert foreign_in("abortive draw (four_winds)") == ["abortive", "draw", "four_winds"]
    assert foreign_in("错和：Dai（reverse_mangan）") == ["reverse_mangan"]
    assert foreign_in("チョンボ：Dai（満貫払い）") == sorted("チョンボい")


@pytest.mark.parametrize("path", PAGES)
def test_every_page_in_chinese_has_no_english_or_japanese(played, base: str,  # noqa: ANN001
                                                          path: str) -> None:
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
        shot(page, "zh" + (path.replace("/", "-") if path != "/" else "-table"))
    finally:
        page.remove_listener("pageerror", failed)
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
    assert [w for w in foreign_in(text) if w not in NAMES_ON.get(path, ())] == [], text
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", text)  # no raw id
    assert errors == []


def test_the_table_and_history_say_what_happened_in_chinese(played, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page = played
    page.goto(base + "/")
    expect(page.locator("#last-event")).to_have_text("错和：Dai（支付满贯）")
    expect(page.locator("#ruleset")).to_have_text("天凤")
    page.goto(base + "/history")
    entries = page.locator("#entries .entry")
    expect(entries).to_have_count(6)
    # Newest first: the chombo, the abortive draw, the draw, the win (its hand), the riichi.
    expect(entries.nth(0)).to_contain_text("6. 东3局 2本场")
    expect(entries.nth(0)).to_contain_text("错和：Dai（支付满贯）")
    expect(entries.nth(1)).to_contain_text("途中流局：四风连打")
    expect(entries.nth(2)).to_contain_text("荒牌流局 听牌：Aki、Chie")
    expect(entries.nth(3)).to_contain_text("荣和（放铳：Dai）：Bun 5番 满贯")
    expect(entries.nth(3)).to_contain_text(
        "立直 1番、平和 1番、断幺九 1番、宝牌 2番 — 5番 满贯 8,000点")
    expect(entries.nth(4)).to_contain_text("立直：Bun")


def test_a_quick_hands_breakdown_in_chinese(played, base: str) -> None:  # noqa: ANN001
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
    expect(page.locator("#total")).to_have_text("6番 跳满 12,000点")
    expect(page.locator("#base")).to_have_text("跳满：基本点 3,000")
    text = page.inner_text("#breakdown")
    assert foreign_in(text) == [], text
    shot(page, "zh-win-quick")


def test_the_end_of_the_game_in_chinese(played, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page = played
    page_post(page, base, "/api/end", {"reason": "时间到"})
    page.goto(base + "/")
    expect(page.locator("#last-event")).to_have_text("对局结束：时间到")
    expect(page.locator("#finished")).to_be_visible()
    for path in ("/", "/standings", "/history"):
        page.goto(base + path)
        page.locator("#live.on").wait_for()
        page.wait_for_load_state("networkidle")
        text = page.evaluate("document.body.innerText")
        assert foreign_in(text) == [], (path, text)
    expect(page.locator("#entries .entry").first).to_contain_text("对局结束：时间到")
    page_post(page, base, "/api/undo", {})  # the module's game runs on for the other tests


def test_the_language_switch_offers_every_other_language(played, base: str) -> None:  # noqa: ANN001
    page = played
    page.goto(base + "/")
    links = page.locator("#lang-switch a")
    assert [links.nth(i).inner_text() for i in range(links.count())] == ["English", "日本語"]
    page.click("#lang-switch a[hreflang=ja]")
    page.locator("#live.on").wait_for()
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.locator("#lang-switch a").all_inner_texts() == ["English", "中文"]
    page.click("#lang-switch a[hreflang=zh-Hans]")
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
