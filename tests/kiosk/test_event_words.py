"""Every event, verdict and limit in words of the page's language (issue 18, item 6): what the
history and the table's last event say is built from the events, never the rules core's English
(which showed raw ids: "abortive draw (four_winds)", "chombo: Dai (reverse_mangan)").

Expected points (Tenhou rules): Bun's riichi pinfu tanyao ron with the 2s pair as dora 2 is 5 han,
a non-dealer mangan, 8,000 from Dai; a non-dealer's chombo is a reverse mangan.
"""

from __future__ import annotations

import pytest

from kiosk.table.scoring import quick_choices
from kiosk.words.event_words import describe, ruleset_name
from kiosk.words.yaku_names import hand_head
from scorer.points import HandValue
from scorer.rules import RULESETS, ChomboPenalty
from scorer.table import (
    AbortiveDraw,
    AbortKind,
    Chombo,
    Correction,
    EndReason,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    RiichiDeclared,
    Transfer,
    Win,
    WinningHand,
    replay,
)
from tests.kiosk.conftest import Api

PLAYERS = ("Aki", "Bun", "Chie", "Dai")
TENHOU = RULESETS["tenhou"]
STATE = replay([GameStarted(PLAYERS, TENHOU)])
YAKUMAN = WinningHand(0, 13, 0, yakuman=1)


@pytest.mark.parametrize("event, en, ja", [
    (RiichiDeclared(1), "Riichi: Bun", "リーチ：Bun"),
    (Win.ron(0, WinningHand(1, 4, 40)), "Ron off Aki: Bun 4 han 40 fu mangan",
     "ロン（放銃：Aki）：Bun 4翻40符 満貫"),
    (Win.ron(3, WinningHand(1, 3, 30), WinningHand(2, 1, 30)),
     "Ron off Dai: Bun 3 han 30 fu, Chie 1 han 30 fu",
     "ロン（放銃：Dai）：Bun 3翻30符、Chie 1翻30符"),
    (Win.ron(3, *(WinningHand(s, 1, 30) for s in (0, 1, 2))), "Abortive draw: Triple ron",
     "途中流局：三家和"),
    (Win.tsumo(WinningHand(2, 7, 30)), "Tsumo: Chie 7 han haneman", "ツモ：Chie 7翻 跳満"),
    (Win.tsumo(YAKUMAN), "Tsumo: Aki Yakuman", "ツモ：Aki 役満"),
    (Win.ron(3, WinningHand(2, 26, 0, yakuman=2, liable=1)),
     "Ron off Dai: Chie 2x yakuman, Bun liable (pao)",
     "ロン（放銃：Dai）：Chie 2倍役満（包：Bun）"),
    (ExhaustiveDraw(frozenset({2, 0})), "Exhaustive draw, tenpai: Aki, Chie",
     "荒牌流局 聴牌：Aki、Chie"),
    (ExhaustiveDraw(), "Exhaustive draw, nobody tenpai", "荒牌流局 全員ノーテン"),
    (ExhaustiveDraw(nagashi=frozenset({3})), "Exhaustive draw, nagashi mangan: Dai",
     "荒牌流局 流し満貫：Dai"),
    (AbortiveDraw(AbortKind.FOUR_WINDS), "Abortive draw: Four winds", "途中流局：四風連打"),
    (AbortiveDraw(AbortKind.NINE_TERMINALS), "Abortive draw: Nine terminals", "途中流局：九種九牌"),
    (AbortiveDraw(AbortKind.FOUR_RIICHI), "Abortive draw: Four riichi", "途中流局：四家立直"),
    (AbortiveDraw(AbortKind.FOUR_KANS), "Abortive draw: Four kans", "途中流局：四開槓"),
    (Chombo(3), "Chombo: Dai (pays a mangan)", "チョンボ：Dai（満貫払い）"),
    (Correction((Transfer(0, 1, 1000),), "miscount"), "Correction: miscount", "点数修正：miscount"),
    (GameEnded("time"), "Game ended: time", "対局終了：time"),  # typed at the table: as typed
    (GameEnded("ended at the table"), "Game ended: ended at the table", "対局終了：卓で終了"),
    (GameStarted(PLAYERS, RULESETS["mahjong_soul"]), "Game started (Mahjong Soul)",
     "対局開始（雀魂）"),
    (GameStarted(PLAYERS, TENHOU.with_options(name="house")), "Game started (house)",
     "対局開始（house）"),
], ids=lambda v: getattr(v, "TYPE", None) if not isinstance(v, str) else None)
def test_each_event_in_words(event: object, en: str, ja: str) -> None:
    assert describe(event, STATE, "en") == en  # type: ignore[arg-type]
    assert describe(event, STATE, "ja") == ja  # type: ignore[arg-type]


@pytest.mark.parametrize("penalty, en, ja", [
    (ChomboPenalty.POINTS, "Chombo: Bun (20,000 points off the final score)",
     "チョンボ：Bun（最終成績から20,000点減点）"),
    (ChomboPenalty.PAY_EACH, "Chombo: Bun (pays 1,000 to each player)",
     "チョンボ：Bun（各自に1,000点払い）"),
])
def test_each_chombo_penalty_by_name(penalty: ChomboPenalty, en: str, ja: str) -> None:
    state = replay([GameStarted(PLAYERS, TENHOU.with_options(chombo=penalty))])
    assert (describe(Chombo(1), state, "en"), describe(Chombo(1), state, "ja")) == (en, ja)


def test_the_event_that_ends_the_game_says_why() -> None:
    win = Win.tsumo(YAKUMAN)
    assert describe(win, STATE, "en", EndReason.BUST) == "Tsumo: Aki Yakuman; game over " \
                                                         "(a player went bust)"
    assert describe(win, STATE, "ja", EndReason.BUST) == "ツモ：Aki 役満。終局（トビ）"
    assert describe(Chombo(2), STATE, "ja", EndReason.LAST_HAND) == \
        "チョンボ：Chie（満貫払い）。終局（オーラス終了）"
    # A game ended by the table says so once.
    assert describe(GameEnded("time"), STATE, "ja", EndReason.CALLED) == "対局終了：time"


@pytest.mark.parametrize("han, fu, yakuman, en, ja", [
    (3, 30, 0, "3 han 30 fu", "3翻30符"),
    (4, 40, 0, "4 han 40 fu mangan", "4翻40符 満貫"),
    (5, 30, 0, "5 han mangan", "5翻 満貫"),
    (6, 30, 0, "6 han haneman", "6翻 跳満"),
    (8, 30, 0, "8 han baiman", "8翻 倍満"),
    (11, 30, 0, "11 han sanbaiman", "11翻 三倍満"),
    (13, 30, 0, "13 han kazoe yakuman", "13翻 数え役満"),
    (13, 0, 1, "Yakuman", "役満"),
    (26, 0, 2, "2x yakuman", "2倍役満"),
])
def test_limits_by_name(han: int, fu: int, yakuman: int, en: str, ja: str) -> None:
    value = HandValue.of(han, fu, TENHOU, yakuman)
    assert (hand_head(value, "en"), hand_head(value, "ja")) == (en, ja)


def test_quick_mode_names_its_limits_in_japanese() -> None:
    limits = quick_choices(TENHOU, "ja")["limits"]
    assert limits == {"5": "満貫", "6": "跳満", "7": "跳満", "8": "倍満", "9": "倍満", "10": "倍満",
                      "11": "三倍満", "12": "三倍満", "13": "数え役満"}


def test_rulesets_by_name() -> None:
    assert [ruleset_name(n, "ja") for n in ("tenhou", "mleague", "casual", "mine")] == [
        "天鳳", "Mリーグ", "カジュアル（家庭用）", "mine"]


PINFU = {"concealed": "234m456p22s34567s", "win": "8s", "dora": "1s"}


def test_history_and_last_event_in_japanese(api: Api) -> None:
    assert api.post("/api/games", {"players": list(PLAYERS), "ruleset": "tenhou"}).status_code \
        == 201
    api.post("/api/session/language", {"language": "ja"})
    for path, body in [("/api/riichi", {"seat": 1}),
                       ("/api/wins", {"winner": 1, "discarder": 3, "hand": PINFU}),
                       ("/api/draws", {"tenpai": [0, 2]}),
                       ("/api/aborts", {"kind": "four_winds"}),
                       ("/api/chombo", {"seat": 3})]:
        assert api.post(path, body).status_code < 300, path
    state = api.get("/api/state").get_json()
    assert state["last_event"]["text"] == {"en": "Chombo: Dai (pays a mangan)",
                                           "ja": "チョンボ：Dai（満貫払い）",
                                           "zh-Hans": "错和：Dai（支付满贯）"}
    assert state["game"]["ruleset_name"] == {"en": "Tenhou", "ja": "天鳳", "zh-Hans": "天凤"}
    entries = api.get("/api/history").get_json()["entries"]
    assert [(e["round_text"], e["text"]) for e in entries] == [
        ("東1局 0本場", "対局開始（天鳳）"),
        ("東1局 0本場", "リーチ：Bun"),
        ("東1局 0本場", "ロン（放銃：Dai）：Bun 5翻 満貫"),
        ("東2局 0本場", "荒牌流局 聴牌：Aki、Chie"),
        ("東3局 1本場", "途中流局：四風連打"),
        ("東3局 2本場", "チョンボ：Dai（満貫払い）"),
    ]
    assert [h["text"] for h in entries[2]["hands"]] == [
        "立直 1翻、平和 1翻、断么九 1翻、ドラ 2翻 — 5翻 満貫 8,000点"]
    assert entries[2]["deltas"] == [0, 9000, 0, -8000]
    # The rules core's own words stay for scripts, raw ids and all.
    assert entries[4]["summary"] == "abortive draw (four_winds)"

    api.post("/api/end", {"reason": "time"})
    api.post("/api/session/language", {"language": "en"})
    entries = api.get("/api/history").get_json()["entries"]
    assert (entries[2]["round_text"], entries[-1]["text"]) == ("East 1, 0 honba",
                                                               "Game ended: time")
    assert entries[2]["hands"][0]["text"] == (
        "Riichi 1, Pinfu 1, Tanyao 1, Dora 2 — 5 han mangan — 8,000")


@pytest.mark.parametrize("body, ja", [
    ({"hand": {"concealed": "234m678p23s11z", "win": "1s", "melds": [
        {"kind": "chi", "tiles": "789m", "called": "7m", "source": "kamicha"}]}},
     "役なし：役が1つ以上必要です（ドラは数えません）"),
    ({"hand": {"concealed": "234m456p22s34567s", "win": "9s"}},
     "和了形ではありません：234m456p22345679sは4面子1雀頭・七対子・国士無双のどれにもなりません"),
    ({"hand": dict(PINFU, discards="5s1m")},
     "フリテン：和了者は和了牌の5索を捨てているのでロンできません（ツモのみ）"),
    ({"hand": {"concealed": "223344m456p67s55p", "win": "8s"}, "chankan_of_ankan": True},
     "和了できません：暗槓を槍槓できるのは国士無双だけです"),
], ids=["no-yaku", "not-a-win", "furiten", "chankan"])
def test_verdicts_in_japanese(api: Api, body: dict, ja: str) -> None:
    api.post("/api/session/language", {"language": "ja"})
    out = api.post("/api/score", {"winner": 1, "discarder": 2, **body}).get_json()
    assert not out["is_win"] and out["verdict"] == ja
