"""The counter's pages in Japanese and Simplified Chinese (issue 37, part 2): their words come
from the kiosk's catalogues (``parlor.page.*``), the language chosen as a kiosk's page chooses
it (``?lang=``, kept for the next pages; else Accept-Language; else English)."""

from __future__ import annotations

import html as markup
import re

import pytest
from flask import Flask

from kiosk.words import i18n
from tests.kiosk.parlor.conftest import Staff
from tests.kiosk.parlor.test_stats import played  # noqa: F401  (the fixture)

PAGES = ("/counter/", "/counter/members?from=2024-03-01&to=2024-03-31",
         "/counter/leaderboard?month=2024-03&min_games=2", "/counter/today?date=2024-03-05",
         "/counter/members/00003/card")
#: English words of the pages' own that no other language keeps.
ENGLISH = ("Tables", "Today's games", "Leaderboard", "Sign out", "Players (points)", "Dealer",
           "playing", "finished", "Avg place", "Deal-in", "Show", "Order", "at least",
           "Started (UTC)", "Results", "Print this page", "Member card", "Games of")


def shown(html: str) -> str:
    """The text a person reads: no tags, scripts, styles or the language switcher."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r'<p class="langs">.*?</p>', " ", html, flags=re.S)
    return " ".join(markup.unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.mark.parametrize("lang, words", [
    ("ja", ["卓", "ランキング", "ログアウト", "対局中", "平均順位", "放銃率", "会員カード 00003",
            "2024-03-05の対局", "結果（順位. プレイヤー：スコア / 持ち点）"]),
    ("zh-Hans", ["牌桌", "排行榜", "退出登录", "对局中", "平均顺位", "放铳率", "会员卡 00003",
                 "2024-03-05的对局", "结果（名次. 玩家：得分 / 点数）"]),
])
def test_the_counter_s_pages_speak_the_language_chosen(played: Staff, lang: str,  # noqa: F811
                                                      words: list[str]) -> None:
    first = played.get(f"/counter/?lang={lang}").get_data(as_text=True)
    assert f'<html lang="{lang}">' in first
    text = " ".join(shown(played.get(path).get_data(as_text=True)) for path in PAGES)
    assert [w for w in words if w not in text] == []  # the choice stays for the next pages
    assert [w for w in ENGLISH if w in text] == []
    english = " ".join(shown(played.get(path + ("&" if "?" in path else "?") + "lang=en")
                             .get_data(as_text=True)) for path in PAGES)
    assert [w for w in ENGLISH if w not in english] == []


def test_a_browser_s_language_is_the_sign_in_page_s(parlor_app: Flask) -> None:
    client = parlor_app.test_client()
    page = client.get("/counter/login", headers={"Accept-Language": "zh-TW,zh-CN;q=0.8"})
    assert '<html lang="zh-Hans">' in page.get_data(as_text=True)
    assert "前台登录" in shown(page.get_data(as_text=True))
    page = client.get("/counter/login", headers={"Accept-Language": "fr, ja;q=0.5"})
    assert "カウンターのログイン" in shown(page.get_data(as_text=True))
    page = client.get("/counter/login", headers={"Accept-Language": "ko"})
    assert '<html lang="en">' in page.get_data(as_text=True)
    assert "Counter sign-in - parlor" in page.get_data(as_text=True)
    # ?lang= wins over the browser's and is kept; an unknown one changes nothing
    client.get("/counter/login?lang=ja", headers={"Accept-Language": "zh-CN"})
    page = client.get("/counter/login?lang=xx", headers={"Accept-Language": "zh-CN"})
    assert '<html lang="ja">' in page.get_data(as_text=True)


def test_every_counter_word_is_in_every_language() -> None:
    keys = [k for k in i18n.entries() if k.startswith("parlor.page.")]
    assert len(keys) > 60
    for lang in ("ja", "zh-Hans"):
        assert [k for k in keys if i18n.t(k, lang) == i18n.t(k, "en")] == []
