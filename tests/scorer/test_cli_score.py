"""`python -m scorer score` in a subprocess: text, --json, --jsonl (with bad lines), bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.shared import need

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scorer", "score", *args], cwd=ROOT,
                          input=stdin, capture_output=True, text=True, timeout=60)


def test_text_breakdown() -> None:
    out = run("234m456p22s345678s", "--win", "8s", "--tsumo", "--riichi", "--dora", "1s",
              "--seat", "S")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "Reading: 234m 456p 345s 678s 22s (ryanmen wait on 678s)" in lines
    for yaku in ("menzen_tsumo", "riichi", "pinfu", "tanyao"):
        assert any(line.split()[:3] == [yaku, "1", "han"] for line in lines), yaku
    assert any(line.split() == ["dora", "2", "han"] for line in lines)
    assert "Total: 6 han 20 fu (haneman)" in lines
    assert ("Points: 12000; the dealer pays 6000, each other player 3000; the winner gains "
            "12000") in lines


def test_json_with_melds() -> None:
    out = run("123m55p", "--pon", "777z:toimen", "--chi", "406p:0p", "--chi", "789s",
              "--win", "5p", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["yaku"] == [["chun", 1], ["aka_dora", 1]]
    assert (data["han"], data["fu"], data["points"]) == (2, 30, 2900)
    assert data["payments"] == {"ron": 2900, "from_dealer": None, "from_non_dealer": None,
                                "winner_gain": 2900}
    assert data["reading"]["melds"] == ["chi 406p", "chi 789s", "pon 777z"]


def test_thirteen_tiles_take_the_winning_tile() -> None:
    out = run("23m456p789s345s11p", "--win", "4m", "--riichi", "--json", "--seat", "W",
              "--honba", "1", "--sticks", "2")
    data = json.loads(out.stdout)
    assert data["yaku"] == [["riichi", 1], ["pinfu", 1]]
    assert data["payments"]["ron"] == 2000 + 300 and data["payments"]["winner_gain"] == 4300


def test_ruleset_and_option() -> None:
    hand = ["234m456p678s345s88p", "--win", "2m", "--riichi", "--dora", "1m", "--seat", "S"]
    assert json.loads(run(*hand, "--json").stdout)["points"] == 7700
    assert json.loads(run(*hand, "--json", "--ruleset", "casual").stdout)["points"] == 8000
    assert json.loads(run(*hand, "--json", "--option", "kiriage=true").stdout)["points"] == 8000


def test_no_yaku_is_a_result_with_status_1() -> None:
    out = run("234m456p789s345s11p", "--win", "3m")
    assert out.returncode == 1
    assert "Not a win: no yaku" in out.stdout


@pytest.mark.parametrize(("args", "names"), [
    (["123m55x", "--win", "5p"], ["tiles", "55x"]),
    (["234m456p789s345s11p", "--win", "5q"], ["--win", "5q"]),
    (["234m456p789s345s11p", "--win", "3m", "--dora", "1k"], ["--dora", "1k"]),
    (["234m456p789s11p", "--win", "3m", "--pon", "55z:nobody"], ["--pon 55z:nobody"]),
    (["234m456p789s345s11p", "--win", "9m"], ["win_tile", "9m"]),
    (["234m456p789s345s11p", "--win", "3m", "--ippatsu", "--chankan", "--tsumo"],
     ["ippatsu", "chankan"]),
    (["234m456p789s345s11p", "--option", "kiriage=maybe"], ["option", "kiriage"]),
])
def test_bad_input_names_the_field_with_status_2(args: list[str], names: list[str]) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    for name in names:
        assert name in out.stderr


def test_bad_option_value_for_an_argparse_type() -> None:
    out = run("234m456p789s345s11p", "--seat", "Q")
    assert out.returncode == 2 and "'Q' is not a wind" in out.stderr
    assert "Traceback" not in out.stderr


def test_jsonl_goes_on_after_a_bad_line(tmp_path: Path) -> None:
    good = {"closed": ["2m", "3m", "4m", "5m", "6m", "7m", "2p", "2p", "4p", "5p", "6p", "7s",
                       "8s", "9s"], "melds": [], "win_tile": "2m", "tsumo": True, "riichi": True,
            "seat_wind": 2, "round_wind": 1, "dealer": False, "dora_indicators": ["9p"],
            "ura_indicators": ["9m"], "honba": 0, "riichi_sticks": 1,
            "expected": {"ignored": True}}
    bad = {"closed": "123m", "win_tile": "5x", "seat_wind": 9}
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join([json.dumps(good), json.dumps(bad), "not json", json.dumps(good)])
                    + "\n")
    out = run("--jsonl", str(path), "--ruleset", "tenhou")
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(lines) == 4
    assert lines[0] == lines[3]
    assert (lines[0]["han"], lines[0]["fu"], lines[0]["points"]) == (3, 20, 2700)
    assert lines[0]["payments"]["winner_gain"] == 3700
    assert lines[1]["error"].startswith("line 2") and lines[1]["problems"] == [
        "win_tile: '5x' is not a tile (expected e.g. 5m, 0p, 7z)",
        "seat_wind: expected a whole number 1-4, not 9"]
    assert "not JSON" in lines[2]["error"] and lines[2]["problems"] == []


@pytest.mark.parametrize("file, ruleset, count", [
    ("tenhou-wins-dev.jsonl", "tenhou", 2140),
    ("tenhou-sanma-wins-dev.jsonl", "tenhou_sanma", 602),
])
def test_jsonl_real_wins_files(file: str, ruleset: str, count: int) -> None:
    wins = need("scoring", file)
    out = run("--jsonl", str(wins), "--ruleset", ruleset)
    assert out.returncode == 0
    expected = [json.loads(line)["expected"] for line in wins.read_text().splitlines()]
    ours = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(ours) == len(expected) == count
    assert all(o["points"] == e["points_total"] and o["han"] == e["han"] and o["fu"] == e["fu"]
               for o, e in zip(ours, expected, strict=True))
    assert all(o["payments"]["winner_gain"] == e["payments"]["winner_gain"]  # pao splits it
               for o, e in zip(ours, expected, strict=True) if e["payments"]["pao_who"] is None)


def test_a_three_player_hand_with_kita_from_the_command_line() -> None:
    # Chun, and 2 kita each counted twice under a West indicator: 5 han, a mangan ron.
    out = run("111m123p456s99p", "--pon", "777z:shimocha", "--win", "9p", "--kita", "2",
              "--dora", "3z", "--seat", "S", "--ruleset", "tenhou_sanma")
    assert out.returncode == 0, out.stderr
    assert "dora (kita included)     4 han" in out.stdout
    assert "Points: 8000; the discarder pays 8000" in out.stdout
    bad = run("234m123p456s99p11z", "--win", "1z", "--ruleset", "tenhou_sanma")
    assert bad.returncode == 2
    assert "error: tiles: 2m is not in a three-player set" in bad.stderr


@pytest.mark.parametrize(("ruleset", "code", "verdict"), [
    ("tenhou", 0, "kokushi_musou_13"),
    ("wrc", 1, "Not a win: not a legal win: these rules do not let kokushi musou rob a closed "
     "kan"),
])
def test_kokushi_robbing_a_closed_kan(ruleset: str, code: int, verdict: str) -> None:
    out = run("19m19p19s1234567z", "--win", "9m", "--seat", "S", "--chankan",
              "--chankan-of-ankan", "--ruleset", ruleset)
    assert out.returncode == code, out.stderr
    assert verdict in out.stdout
