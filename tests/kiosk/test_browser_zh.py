"""Every page in Simplified Chinese after a game with a win, an exhaustive draw, an abortive draw,
a chombo and a riichi (issue 37, part 2; the Japanese pages' test, tests/kiosk/test_browser_ja.py,
in Chinese), in Debian's chromium against the real app and server: no English word, no raw id
(snake_case) and no Japanese kana in the visible text, beyond an explicit allow-list. The game and
the checks are tests/kiosk/whole_game.py's.

Screenshots go to test-artifacts/zh-*.png.
"""

from __future__ import annotations

import pytest

from tests.kiosk.test_browser import browser  # noqa: F401  (shared fixture)
from tests.kiosk.whole_game import (  # noqa: F401  (base, played: the shared fixtures)
    CHINESE,
    PAGES,
    base,
    played,
    quick_hand_says,
    read_page,
    table_and_history_say,
    the_end_says,
)

pytestmark = pytest.mark.browser
SPOKEN = CHINESE


def test_the_allow_list_is_narrow() -> None:
    foreign_in = SPOKEN.foreign_in
    assert foreign_in("东1局 Bun 3m 234m456p JSON http://x/ --host m、p、s、z 海底・河底") == []
    assert foreign_in("abortive draw (four_winds)") == ["abortive", "draw", "four_winds"]
    assert foreign_in("错和：Dai（reverse_mangan）") == ["reverse_mangan"]
    assert foreign_in("チョンボ：Dai（満貫払い）") == sorted("チョンボい")


@pytest.mark.parametrize("path", PAGES)
def test_every_page_in_chinese_has_no_english_or_japanese(played, base: str,  # noqa: ANN001, F811
                                                          path: str) -> None:
    read_page(played, base, path, SPOKEN)


def test_the_table_and_history_say_what_happened_in_chinese(played, base: str) -> None:  # noqa: ANN001, F811
    table_and_history_say(
        played, base, ruleset="天凤", label="6. 东3局 2本场", chombo="错和：Dai（支付满贯）",
        before=["途中流局：四风连打", "荒牌流局 听牌：Aki、Chie", "荣和（放铳：Dai）：Bun 5番 满贯",
                "立直：Bun"],
        hand="立直 1番、平和 1番、断幺九 1番、宝牌 2番 — 5番 满贯 8,000点")


def test_a_quick_hands_breakdown_in_chinese(played, base: str) -> None:  # noqa: ANN001, F811
    quick_hand_says(played, base, SPOKEN, total="6番 跳满 12,000点",
                    base_points="跳满：基本点 3,000")


def test_the_end_of_the_game_in_chinese(played, base: str) -> None:  # noqa: ANN001, F811
    the_end_says(played, base, SPOKEN, reason="时间到", said="对局结束：时间到")


def test_the_language_switch_offers_every_other_language(played, base: str) -> None:  # noqa: ANN001, F811
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
