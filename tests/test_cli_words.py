"""The command lines' words (issue 38, item 10): a yakuman printed by its limit's name, a pure
nine gates by its nine-sided wait, plurals and articles right, `vision read`'s first line counting
as its problems do, and `scorer bench` saying what it needs or measuring what it can."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import pytest

from scorer.__main__ import main as scorer_main
from scorer.context import WinContext
from scorer.hand import Hand, InvalidInput, Meld
from scorer.records_io import to_record

ROOT = Path(__file__).resolve().parents[1]


def score_text(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    scorer_main(["score", *args])
    return capsys.readouterr().out.splitlines()


def test_a_yakuman_total_is_the_limits_name_with_no_fu(capsys: pytest.CaptureFixture[str]) -> None:
    lines = score_text(capsys, "19m19p19s1234567z", "--win", "1m")
    assert "Total: yakuman (13 han)" in lines
    assert not any(line.startswith("Fu:") for line in lines)
    # Daisangen + tsuuiisou + suuankou on a tsumo: three yakuman (Tenhou counts no doubles)
    lines = score_text(capsys, "11122233344455z", "--win", "5z", "--tsumo")
    assert "Total: triple yakuman (39 han)" in lines
    # a counted hand keeps its han and fu
    lines = score_text(capsys, "234m456p22s345678s", "--win", "8s", "--tsumo", "--riichi",
                       "--dora", "1s")
    assert any(line.startswith("Total: ") and " han " in line and " fu" in line for line in lines)


def test_a_pure_nine_gates_waits_on_nine_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    lines = score_text(capsys, "11123455678999m", "--win", "5m")
    reading = next(line for line in lines if line.startswith("Reading: "))
    assert reading.endswith("(nine-sided wait on 5m)")
    assert "tanki" not in reading


def test_one_meld_and_an_ankan(capsys: pytest.CaptureFixture[str]) -> None:
    hand = Hand.parse("1112345678999m55p", "5p", [Meld.parse("ankan", "2222s")])
    assert "15 concealed tiles with 1 meld make 18" in str(InvalidInput(hand.problems()))
    hand = Hand.parse("1112345678999m", "1m", [Meld.parse("ankan", "222s")])
    assert "an ankan has 4 tiles, not 3" in str(InvalidInput(hand.problems()))
    with pytest.raises(SystemExit):
        scorer_main(["score", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "an ankan meld" in help_text and "a ankan" not in help_text


def test_vision_reads_first_line_counts_as_its_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo hand's lower part cut away: 9 tiles are found, 7 in the hand as the problem
    says (a kan counted as 3), and the dora indicator."""
    from vision.__main__ import main as vision_main

    frame = cv2.imread(str(ROOT / "vision" / "demo_frames" / "hand_12_009.jpg"))
    frame[250:, :] = (30, 30, 30)
    cv2.imwrite(str(tmp_path / "cut.png"), frame)
    assert vision_main(["read", str(tmp_path / "cut.png")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(
        "9 tiles read: 7 in the hand (each kan counted as 3), 1 dora indicator: ")
    assert "problem: 7 tiles in the hand (14 expected, each kan counted as 3)" in lines
    assert vision_main(["read", str(tmp_path / "cut.png"), "--language", "ja"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("9枚読み取り：手牌7枚（槓は3枚と数える）、ドラ表示牌1枚：")
    assert "問題：手牌7枚（14枚のはず、槓は3枚と数える）" in lines
    assert vision_main(["read", str(ROOT / "vision" / "demo_frames" / "hand_12_009.jpg")]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("16 tiles read: 14 in the hand (each kan counted as 3), "
                            "1 dora indicator: ")


def test_bench_without_its_hands_file_says_what_it_needs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert scorer_main(["bench", "--file", str(tmp_path / "none.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "one JSON object a line as `python -m scorer score --jsonl` reads them" in err
    assert "../shared/scoring/tenhou-wins-dev.jsonl" in err and "--file HANDS.jsonl" in err
    assert "Traceback" not in err


def test_bench_without_mahjong_measures_ours(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = tmp_path / "hands.jsonl"
    hands.write_text("".join(
        json.dumps(to_record(Hand.parse(tiles, win), WinContext(tsumo=True))) + "\n"
        for tiles, win in (("234m456p22s345678s", "8s"), ("11123455678999m", "5m"))))
    import scorer

    for peer in ("peer_mahjong", "peer_riichienv"):  # not installed (nor imported before)
        monkeypatch.setitem(sys.modules, f"scorer.{peer}", None)
        monkeypatch.delattr(scorer, peer, raising=False)
    assert scorer_main(["bench", "--file", str(hands), "--rounds", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["hands"] == 2 and result["peers"] == []
    assert result["cli"]["ours"] > 0 and result["in_process"]["ours"] > 0
    assert scorer_main(["bench", "--file", str(hands), "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "scorer (ours)" in out
    assert "the `mahjong` library is not installed" in out


def test_the_scorer_speaks_japanese_and_chinese_from_its_catalogue(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The yaku by the names the kiosk's pages show (立直, 平和: the rules core's catalogue, one
    source for both), chosen by --language or the environment; English stays as it was."""
    hand = ["234m456p22s345678s", "--win", "8s", "--tsumo", "--riichi"]
    english = score_text(capsys, *hand)
    assert english[2:] == ["Yaku:", "  menzen_tsumo             1 han",
                           "  riichi                   1 han", "  pinfu                    1 han",
                           "  tanyao                   1 han",
                           "Total: 4 han 20 fu", "Fu: base (futei) 20",
                           "Points: 7800; each player pays 2600; the winner gains 7800"]
    japanese = score_text(capsys, *hand, "--language", "ja")
    assert japanese[2:6] == ["役：", "  門前清自摸和             1翻",
                             "  立直                     1翻", "  平和                     1翻"]
    assert japanese[-1] == "点数：7800点、各自2600点支払い、和了者は7800点の収入"
    assert "符：副底 20符" in japanese  # the fu items by the kiosk's words (scorer.names)
    assert japanese[1] == "読み：234m 456p 345s 678s 22s（678sの両面待ち）"
    monkeypatch.setenv("LANGUAGE", "")
    monkeypatch.setenv("LC_ALL", "")
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    chinese = score_text(capsys, *hand)
    assert chinese[2:4] == ["役种：", "  门前清自摸和             1番"]
    assert "合计：4番20符" in chinese
    assert score_text(capsys, *hand, "--language", "en") == english  # the option wins
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert score_text(capsys, *hand) == english
    lines = score_text(capsys, "19m19p19s1234567z", "--win", "1m", "--language", "ja")
    assert "  国士無双十三面待ち         役満" in lines or any(
        line.startswith("  国士無双") and line.endswith("役満") for line in lines)
    assert "合計：役満（13翻）" in lines
    assert score_text(capsys, "123m456p789s1123z", "--win", "3z", "--language", "ja")[-1] == (
        "和了形ではありません：123m456p789s11233zは4面子1雀頭・七対子・国士無双のどれにもなりません")
    assert score_text(capsys, "123m456p789s11222z", "--win", "2z", "--language", "zh-Hans")[-1] \
        == "无役：至少需要一个役（宝牌不计）"


def test_a_table_replayed_in_japanese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scorer.rules import RULESETS
    from scorer.table import GameStarted, Win, WinningHand, dumps

    path = tmp_path / "game.json"
    path.write_text(dumps([GameStarted(("Ai", "Bo", "Cy", "Di"), RULESETS["tenhou"]),
                           Win.ron(3, WinningHand(1, 2, 30))]))
    assert scorer_main(["table", "replay", str(path)]) == 0
    english = capsys.readouterr().out.splitlines()
    assert english[0] == "rules: tenhou"
    assert english[-4:] == ["North  Ai                 25000", "East   Bo                 27000",
                            "South  Cy                 25000", "West   Di                 23000"]
    assert scorer_main(["--language", "ja", "table", "replay", str(path)]) == 0
    japanese = capsys.readouterr().out.splitlines()
    assert japanese[0] == "ルール：tenhou"
    # Bo deals East 2 after Ai's dealership passed; a wide character counts two columns
    assert japanese[-4:] == ["北     Ai                 25000", "東     Bo                 27000",
                             "南     Cy                 25000", "西     Di                 23000"]


def test_the_scorer_says_a_hand_s_problems_in_the_language_chosen() -> None:
    """The rules core's coded problems in its catalogue's words (the kiosk's refusals say the
    same), input problems without words in English; English as it always was."""
    import subprocess

    def errors(*args: str) -> list[str]:
        done = subprocess.run([sys.executable, "-W", "ignore", "-m", "scorer", "score", *args],
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert done.returncode == 2
        return done.stderr.splitlines()

    hand = ["11111m234p567s1z", "--win", "1z"]
    assert errors(*hand) == [
        "error: concealed: 12 concealed tiles with 0 melds make 12; a winning hand has 14 (a kan "
        "counts as 3)", "error: tiles: 5 copies of 1m; a set has 4"]
    assert errors(*hand, "--language", "ja") == [
        "エラー：手牌12枚と副露0つで12枚です。和了形は14枚です（槓子は3枚と数えます）",
        "エラー：1萬が5枚あります（1種類4枚まで）"]
    chi = errors("123m456p789s11z", "--pon", "777z", "--chi", "135m", "--win", "1z",
                 "--language", "zh-Hans")
    assert chi[0] == "错误：副露1（吃）不是同一花色的三张连续牌：1万、3万、5万"
    assert errors("123m456p789s11x", "--language", "ja")[0].startswith("エラー：tiles: ")
