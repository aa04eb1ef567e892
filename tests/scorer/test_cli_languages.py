"""`python -m scorer` in Japanese and Chinese (issue 37): `table replay`'s hands, events and end
reasons, `bench`'s lines and every command's `--help` come from the catalogues, with the words
the kiosk's pages use (東1局 0本場, 途中流局：四風連打, 荣和); English stays as it was."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from scorer.__main__ import main
from scorer.cli_help import language_in
from scorer.cli_table import history_words
from scorer.context import WinContext
from scorer.hand import Hand
from scorer.records_io import to_record
from scorer.rules import RULESETS
from scorer.table import (
    ENDED_AT_TABLE,
    AbortiveDraw,
    AbortKind,
    Chombo,
    Correction,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    RiichiDeclared,
    Transfer,
    Win,
    WinningHand,
    dumps,
    events_from_record,
    parse_json,
)
from scorer.words import SCORER
from tests.shared import need

GAMES = ("scoring", "tenhou-games-dev")
# A real Tenhou game: rons, tsumos, riichi, tenpai draws and four winds in South 3.
FOUR_WINDS = "mjx-tests_cpp-resources-mjlog-encdec-four-winds-no-winner.json"
PLAYERS = ("Ana", "Ben", "Chie", "Dai")
# Every kind of event the history says: a double ron with a pao yakuman, a double yakuman tsumo,
# nagashi, noten, two abortive draws (one by three rons), chombo, a correction, the end (at
# Tenhou's table where nobody busts, so that the game goes on to the end).
EVERY_EVENT: list[Event] = [
    GameStarted(PLAYERS, replace(RULESETS["tenhou"], tobi=False)), RiichiDeclared(1),
    Win.ron(0, WinningHand(1, 13, 0, yakuman=1, liable=3), WinningHand(2, 3, 30)),
    Win.tsumo(WinningHand(2, 26, 0, yakuman=2)), ExhaustiveDraw(nagashi=frozenset({0})),
    ExhaustiveDraw(), AbortiveDraw(AbortKind.NINE_TERMINALS),
    Win.ron(0, *(WinningHand(seat, 1, 30) for seat in (1, 2, 3))), Chombo(3),
    Correction((Transfer(0, 1, 1000),), "a miscount"), GameEnded("time"),
]
ENGLISH = re.compile(r"[A-Za-z]")


def replay(capsys: pytest.CaptureFixture[str], record: Path, *args: str) -> list[str]:
    assert main(["table", "replay", str(record), "--history", *args]) == 0
    return capsys.readouterr().out.splitlines()


def without(line: str, *names: str) -> str:
    """`line` without the names it may say as they are (players, the ruleset's id)."""
    for name in names:
        line = line.replace(name, "")
    return line


@pytest.mark.parametrize("lang, said", [
    ("ja", ["南4局 0本場で終局（オーラス終了）", "東1局 0本場", "ロン（放銃：P0）：P1 2翻30符",
            "荒牌流局 聴牌：P0、P2", "途中流局：四風連打", "ツモ：P2 4翻20符",
            "ツモ：P1 5翻50符。終局（オーラス終了）"]),
    ("zh-Hans", ["南4局 0本场后终局（最后一局结束）", "东1局 0本场", "荣和（放铳：P0）：P1 2番30符",
                 "荒牌流局 听牌：P0、P2", "途中流局：四风连打", "自摸：P2 4番20符",
                 "自摸：P1 5番50符。终局（最后一局结束）"]),
])
def test_a_real_game_replays_in_the_language_chosen(
        capsys: pytest.CaptureFixture[str], lang: str, said: list[str]) -> None:
    record = need(*GAMES, FOUR_WINDS)
    lines = replay(capsys, record, "--language", lang)
    assert lines[1] == said[0]
    history = "\n".join(lines[3:25])
    assert all(words in history for words in said[1:])
    assert [line for line in lines if ENGLISH.search(
        without(line, "P0", "P1", "P2", "P3", "tenhou"))] == []


def test_the_environment_chooses_the_language_and_english_is_as_it_was(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    record = need(*GAMES, FOUR_WINDS)
    english = replay(capsys, record)
    assert english[1] == "finished (last_hand) after South 4, 0 honba"
    assert " 18  South 3, 0 honba         .       .       .       . abortive draw (four_winds)" \
        in english
    monkeypatch.setenv("LANGUAGE", "ja_JP:en")
    assert replay(capsys, record)[1] == "南4局 0本場で終局（オーラス終了）"
    assert replay(capsys, record, "--language", "en") == english


def test_the_english_history_is_the_rules_cores_word_for_word() -> None:
    """The catalogue's English says every event as `HistoryRow` does, on every real game."""
    games = sorted(need(*GAMES).glob("*.json"))
    assert len(games) > 200
    for path in games:
        events, state = events_from_record(parse_json(path.read_text(encoding="utf-8")))
        assert history_words(events)[1] == [(row.hand, row.what) for row in state.history]


@pytest.mark.parametrize("lang, said", [
    ("en", ["ron off Ana: Ben 1x yakuman, pao Dai; Chie 3 han 30 fu",
            "tsumo: Chie 2x yakuman", "exhaustive draw, nagashi mangan: Ana",
            "exhaustive draw, tenpai: nobody", "abortive draw (nine_terminals)",
            "three rons: abortive draw", "chombo: Dai (reverse_mangan)",
            "correction: a miscount", "game ended: time; game over (called)"]),
    ("ja", ["ロン（放銃：Ana）：Ben 役満（包：Dai）、Chie 3翻30符", "ツモ：Chie 2倍役満",
            "荒牌流局 流し満貫：Ana", "荒牌流局 全員ノーテン", "途中流局：九種九牌",
            "途中流局：三家和", "チョンボ：Dai（満貫払い）", "点数修正：a miscount",
            "対局終了：time。終局（途中終了）"]),
    ("zh-Hans", ["荣和（放铳：Ana）：Ben 役满（包牌：Dai）；Chie 3番30符", "自摸：Chie 2倍役满",
                 "荒牌流局 流局满贯：Ana", "荒牌流局 全员未听", "途中流局：九种九牌",
                 "途中流局：三家和了", "错和：Dai（支付满贯）", "点数修正：a miscount",
                 "对局结束：time。终局（由牌桌中止）"]),
])
def test_every_kind_of_event_is_said(lang: str, said: list[str]) -> None:
    state, rows = history_words(EVERY_EVENT, lang)
    assert [what for _, what in rows[2:]] == said
    if lang == "en":
        assert [what for _, what in rows] == [row.what for row in state.history]
    else:  # nothing English but the names and what the table typed
        assert [what for _, what in rows if ENGLISH.search(
            without(what, *PLAYERS, "tenhou", "a miscount", "time"))] == []


@pytest.mark.parametrize("lang, said, typed", [
    ("en", "game ended: ended at the table; game over (called)",
     "game ended: Ben had to go; game over (called)"),
    ("ja", "対局終了：卓で終了。終局（途中終了）", "対局終了：Ben had to go。終局（途中終了）"),
    ("zh-Hans", "对局结束：在牌桌上结束。终局（由牌桌中止）",
     "对局结束：Ben had to go。终局（由牌桌中止）"),
])
def test_a_game_ended_with_no_reason_typed_is_said_in_the_language(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str, said: str,
        typed: str) -> None:
    """The kiosk's End game with nothing typed stores `ENDED_AT_TABLE`, the words its records
    have always held: `table replay` says it in the kiosk's words (卓で終了, 在牌桌上结束); a
    reason a player typed stays as typed; English is as it was."""
    assert ENDED_AT_TABLE == "ended at the table"  # stored as before: old records read the same
    record = tmp_path / "game.json"
    for reason, line in ((ENDED_AT_TABLE, said), ("Ben had to go", typed)):
        record.write_text(dumps([*EVERY_EVENT[:2], GameEnded(reason)]), encoding="utf-8")
        assert json.loads(record.read_text(encoding="utf-8"))["events"][-1]["reason"] == reason
        lines = replay(capsys, record, "--language", lang)
        assert lines[6].endswith(" " + line), lines
        if lang != "en":
            assert "ended at the table" not in "\n".join(lines)


def test_every_reason_and_kind_the_history_names_has_its_words() -> None:
    from scorer.rules import ChomboPenalty
    from scorer.table import EndReason

    keys = ([f"cli.table.end.{r.value}" for r in EndReason]
            + [f"cli.table.abort.{k.value}" for k in AbortKind]
            + [f"cli.table.chombo.{c.value}" for c in ChomboPenalty])
    assert [key for key in keys if not SCORER.has(key)] == []


@pytest.fixture
def hands(tmp_path: Path) -> Path:
    path = tmp_path / "hands.jsonl"
    path.write_text("".join(
        json.dumps(to_record(Hand.parse(tiles, win), WinContext(tsumo=True))) + "\n"
        for tiles, win in (("234m456p22s345678s", "8s"), ("11123455678999m", "5m"))))
    return path


@pytest.mark.parametrize("lang, said", [
    ("ja", ["和了手2件（tenhou）、各1回計測の最良値、scorer のビルド：",
            "CLI 経路（JSON 1行を入力 → 採点 → JSON 1行を出力）：",
            "プロセス内（採点の呼び出しのみ）：",
            "  scorer（当方）"]),
    ("zh-Hans", ["和牌2手（tenhou），各测1轮取最佳，scorer 构建：",
                 "CLI 路径（输入一行 JSON → 计分 → 输出一行 JSON）：", "进程内（仅计分调用）：",
                 "  scorer（本项目）"]),
])
def test_the_bench_speaks_the_language_chosen(capsys: pytest.CaptureFixture[str], hands: Path,
                                              lang: str, said: list[str]) -> None:
    assert main(["bench", "--file", str(hands), "--rounds", "1", "--language", lang]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith(said[0]) and lines[0].endswith(("（mypyc）", "Python 版"))
    assert all(line in lines for line in said[1:3])
    rates = [line for line in lines if line.startswith(said[3])]
    assert len(rates) == 2 and all(line.endswith(("件/秒", "手/秒")) for line in rates)
    for english in ("cli.", "hands", "best of", "passes", "build", "ours", "path", "in-process",
                    "not installed", "faster"):
        assert english not in out
    assert main(["bench", "--file", str(hands.with_name("none.jsonl")), "--language", lang]) == 2
    err = capsys.readouterr().err
    assert err.startswith({"ja": "エラー：", "zh-Hans": "错误："}[lang])
    assert "--file HANDS.jsonl" in err


@pytest.mark.parametrize("command", [[], ["score"], ["table", "replay"], ["bench"]])
def test_help_speaks_the_language_chosen(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch,
                                         command: list[str]) -> None:
    """Every help text is the catalogue's, argparse's own words too; English is unchanged in
    meaning and has no key left unread."""
    def helped(*args: str) -> str:
        with pytest.raises(SystemExit) as done:
            main([*command, *args, "--help"])
        assert done.value.code == 0
        return capsys.readouterr().out

    english = helped()
    assert english.startswith("usage: python -m scorer") and "show this help message" in english
    assert "cli." not in english
    japanese = helped("--language", "ja")
    assert japanese.startswith("使い方：python -m scorer")
    assert "オプション:" in japanese and "このヘルプを表示して終了する" in japanese
    monkeypatch.setenv("LANGUAGE", "zh_CN")
    chinese = helped()
    assert chinese.startswith("用法：python -m scorer") and "显示此帮助信息并退出" in chinese
    flat = {"ja": re.sub(r"\s", "", japanese), "zh-Hans": re.sub(r"\s", "", chinese)}
    helps = [key for key in SCORER.entries() if key.startswith("cli.help.")
             and SCORER.t(key) in " ".join(english.split())]
    assert len(helps) >= 6
    for lang, text in flat.items():
        assert [key for key in helps if re.sub(r"\s", "", SCORER.t(key, lang)) not in text] == []
        assert "theenvironment" not in text and "default" not in text


@pytest.mark.parametrize("argv, environ, lang", [
    (["score", "--lang", "ja"], "", "ja"),
    (["--language=zh-CN", "table"], "ja_JP", "zh-Hans"),
    (["--language", "ja", "score", "--language", "en"], "", "en"),
    (["score", "--language"], "zh_CN", "zh-Hans"),  # no value: the parser will say so
    (["score", "--", "--language", "ja"], "", "en"),
    (["score", "--language", "xx"], "ja_JP", "en"),  # refused by the parser
])
def test_the_language_is_found_before_the_parser_is_built(
        monkeypatch: pytest.MonkeyPatch, argv: list[str], environ: str, lang: str) -> None:
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANGUAGE", environ)
    assert language_in(argv) == lang
