"""Every page in Japanese after a game with a win, an exhaustive draw, an abortive draw, a chombo
and a riichi (issue 18, item 6), in Debian's chromium against the real app and server: no English
word and no raw id (snake_case) in the visible text, beyond an explicit allow-list. The game and
the checks are tests/kiosk/whole_game.py's, shared with the Chinese pages' test.

Screenshots go to test-artifacts/ja-*.png.
"""

from __future__ import annotations

import pytest

from tests.kiosk.test_browser import browser  # noqa: F401  (shared fixture)
from tests.kiosk.whole_game import (  # noqa: F401  (base, played: the shared fixtures)
    JAPANESE,
    PAGES,
    base,
    played,
    quick_hand_says,
    read_page,
    table_and_history_say,
    the_end_says,
)

pytestmark = pytest.mark.browser
SPOKEN = JAPANESE


def test_the_allow_list_is_narrow() -> None:
    english_in = SPOKEN.foreign_in
    assert english_in("東1局 Bun 3m 234m456p OK http://x/ --host m・p・s・z") == []
    assert english_in("abortive draw (four_winds)") == ["abortive", "draw", "four_winds"]
    assert english_in("チョンボ：Dai（reverse_mangan）") == ["reverse_mangan"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_in_japanese_has_no_english(played, base: str, path: str) -> None:  # noqa: ANN001, F811
    read_page(played, base, path, SPOKEN)


def test_the_table_and_history_say_what_happened_in_japanese(played, base: str) -> None:  # noqa: ANN001, F811
    table_and_history_say(
        played, base, ruleset="天鳳", label="6. 東3局 2本場", chombo="チョンボ：Dai（満貫払い）",
        before=["途中流局：四風連打", "荒牌流局 聴牌：Aki、Chie", "ロン（放銃：Dai）：Bun 5翻 満貫",
                "リーチ：Bun"],
        hand="立直 1翻、平和 1翻、断么九 1翻、ドラ 2翻 — 5翻 満貫 8,000点")


def test_a_quick_hands_breakdown_in_japanese(played, base: str) -> None:  # noqa: ANN001, F811
    quick_hand_says(played, base, SPOKEN, total="6翻 跳満 12,000点",
                    base_points="跳満：基本点 3,000")


def test_the_end_of_the_game_in_japanese(played, base: str) -> None:  # noqa: ANN001, F811
    the_end_says(played, base, SPOKEN, reason="時間切れ", said="対局終了：時間切れ")
