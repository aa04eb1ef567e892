"""`python -m scorer table replay RECORD.json`: the state, the standings, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.__main__ import main
from scorer.rules import RULESETS
from scorer.table import ExhaustiveDraw, GameStarted, RiichiDeclared, Win, WinningHand, dumps

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("Ana", "Ben", "Chie", "Dai")
# The handbook's WRC example (riichi-rich-handbook.txt l.535-547): 41,000 / 34,000 / 32,000 /
# 13,000 scores +26 / +9 / -3 / -32.
WRC_GAME = [GameStarted(PLAYERS, RULESETS["wrc"]),
            *(Win.ron(3, WinningHand(w, han, 30)) for w, han in
              [(1, 2), (0, 5), (0, 2), (0, 1), (1, 2), (2, 2)]),
            ExhaustiveDraw(), ExhaustiveDraw()]


def test_a_finished_game_prints_its_standings(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    record.write_text(dumps(WRC_GAME))
    assert main(["table", "replay", str(record)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["rules: wrc", "finished (last_hand) after South 4, 2 honba"]
    assert out[-4:] == [
        "1     Ana                41000  +15.0      0        0   +26.0",
        "2     Ben                34000   +5.0      0        0    +9.0",
        "3     Chie               32000   -5.0      0        0    -3.0",
        "4     Dai                13000  -15.0      0        0   -32.0",
    ]


def test_tenhou_standings_show_the_rounded_final_scores(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # Seven draws nobody is tenpai in, then the South 4 dealer's mangan at 7 honba (12,000 +
    # 2,100) off seat 0: 39,100 first, agari-yame. Tenhou counts seat 0's 10,900 as 11,000
    # (-19 - 20 = -39) and first place takes the rest, +49 (test_table_game_end "agari-yame").
    record = tmp_path / "game.json"
    record.write_text(dumps([GameStarted(PLAYERS, RULESETS["tenhou"]),
                             *(ExhaustiveDraw() for _ in range(7)),
                             Win.ron(0, WinningHand(3, 5, 30))]))
    assert main(["table", "replay", str(record)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-6:] == [
        "rank  player            points  round    uma    oka  penalty   score",
        "1     Dai                39100   -0.1  +20.0  +20.0        0   +49.0",
        "2     Ben                25000      0  +10.0      0        0    +5.0",
        "3     Chie               25000      0  -10.0      0        0   -15.0",
        "4     Ana                10900   +0.1  -20.0      0        0   -39.0",
        "(final scores: points rounded to the thousand, 500 up; first place takes the rest)",
    ]


def test_a_game_in_progress_prints_the_table(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    record.write_text(dumps([GameStarted(PLAYERS, RULESETS["tenhou"]), RiichiDeclared(1),
                             ExhaustiveDraw(frozenset({1}))]))
    assert main(["table", "replay", str(record), "--history"]) == 0
    out = capsys.readouterr().out
    assert "East 2, 1 honba, dealer Ben, riichi sticks on the table: 1" in out
    assert "North  Ana                24000" in out  # seat 0 sits before the dealer
    assert "East   Ben                27000" in out
    assert "  2  East 1, 0 honba      -1000   +3000   -1000   -1000 exhaustive draw, tenpai: Ben" \
        in out


@pytest.mark.parametrize(("content", "message"), [
    (None, "error: cannot read"),
    ("{", "not JSON"),
    (json.dumps({"format": "riichi-game-record", "version": 1, "events": [
        {"type": "game_started", "players": ["A", "B", "C", "D"], "rules": {"name": "tenhou"}},
        {"type": "riichi", "seat": "B"}]}),
     "event 1 (riichi), field 'seat': expected a whole number, got text 'B'"),
])
def test_bad_records_exit_2_with_a_clear_message(tmp_path: Path, content: str | None,
                                                 message: str) -> None:
    record = tmp_path / "game.json"
    if content is not None:
        record.write_text(content)
    result = subprocess.run([sys.executable, "-m", "scorer", "table", "replay", str(record)],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""
