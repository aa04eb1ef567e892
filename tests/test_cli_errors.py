"""Every command line answers odd input with one line on stderr and exit status 2, and stops
quietly when its reader goes away (`| head`), never with a traceback (issue 17)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.rules import RULESETS
from scorer.table import GameStarted, RiichiDeclared, dumps

ROOT = Path(__file__).resolve().parents[1]
FRAME = ROOT / "tests" / "kiosk" / "frames" / "hand_11_001.jpg"
WIN = ["score", "234m456p22s345678s", "--win", "8s", "--tsumo"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def run_into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """Run with stdout a pipe whose reader has already gone, as after `| head -c 10`."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", *args], stdout=write_end,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=300)
    finally:
        os.close(write_end)


def test_jsonl_that_is_not_utf8(tmp_path: Path) -> None:
    hands = tmp_path / "hands.jsonl"
    hands.write_bytes(b'{"closed": "\xff\xfe"}\n')
    out = run("scorer", "score", "--jsonl", str(hands))
    assert (out.returncode, out.stderr) == (
        2, f"error: {hands}: not UTF-8 text (invalid start byte)\n")


def test_jsonl_line_nested_too_deeply_is_that_line_s_error(tmp_path: Path) -> None:
    # Like a line that is not JSON: reported in its place, the other lines still scored.
    hands = tmp_path / "hands.jsonl"
    good = json.dumps({"closed": "234m456p22s345678s", "win_tile": "8s", "tsumo": True})
    hands.write_text("\n".join([good, "[" * 100_000 + "]" * 100_000,
                                '{"honba": 1' + "0" * 4300 + "}", good]) + "\n")
    out = run("scorer", "score", "--jsonl", str(hands))
    assert (out.returncode, out.stderr) == (0, "")
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [line.get("error") for line in lines] == [
        None, "line 2: not JSON (nested too deeply: more than 32 levels)",
        "line 3: not JSON (a number has more digits than Python reads (4,300))", None]


def test_a_huge_number_argument_is_refused() -> None:
    out = run("scorer", *WIN, "--honba", "1" + "0" * 4000)
    assert out.returncode == 2
    assert out.stderr.splitlines()[-1].endswith(
        "argument --honba: expected a whole number from 0 to 1,000, got a number of about "
        "4,001 digits")
    out = run("scorer", *WIN, "--option", "min_han=99")
    assert (out.returncode, out.stderr) == (
        2, "error: option: min_han: expected a whole number from 0 to 13, got 99\n")


@pytest.mark.parametrize(("record", "message"), [
    ('{"events": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "record: not JSON: nested too deeply: more than 32 levels"),
    ('{"version": 1' + "0" * 5000 + "}",
     "record: not JSON: a number has more digits than Python reads (4,300)"),
    (dumps([GameStarted(("A", "B", "C", "D"), RULESETS["tenhou"])])[:-3]
     + ', {"type": "correction", "transfers": [{"payer": 1, "payee": 0, "points": 1'
     + "0" * 4299 + '}], "reason": "x"}]}',
     "event 1 (correction), field 'transfers[0].points': expected a whole number from 1 to "
     "10,000,000, got a number of about 4,300 digits"),
], ids=["nested-100000", "5000-digits", "huge-points"])
def test_table_replay_of_a_hostile_record(tmp_path: Path, record: str, message: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(record)
    out = run("scorer", "table", "replay", str(path))
    assert (out.returncode, out.stderr, out.stdout) == (2, f"error: {path}: {message}\n", "")


@pytest.mark.parametrize("command", [
    WIN, ["table", "replay", "RECORD"],
], ids=["score", "table-replay"])
def test_scorer_stops_quietly_on_a_closed_pipe(tmp_path: Path, command: list[str]) -> None:
    record = tmp_path / "game.json"
    record.write_text(dumps([GameStarted(("A", "B", "C", "D"), RULESETS["tenhou"]),
                             RiichiDeclared(1)]))
    args = [str(record) if a == "RECORD" else a for a in command]
    out = run_into_a_closed_pipe("scorer", *args)
    assert (out.returncode, out.stderr) == (141, "")


@pytest.mark.parametrize(("content", "reason"), [
    (b"", "not an image OpenCV can decode (JPEG, PNG, ...)"),
    (b"just text\n" * 10, "not an image OpenCV can decode (JPEG, PNG, ...)"),
    (b"GIF89a", "not an image OpenCV can decode (JPEG, PNG, ...)"),
    (b"P6\n99999 99999\n255\n", "OpenCV refuses it (pixels <= CV_IO_MAX_IMAGE_PIXELS)"),
    (None, "No such file or directory"),
], ids=["empty", "text", "gif-header", "100000x100000", "missing"])
def test_vision_read_of_a_file_that_is_not_an_image(tmp_path: Path, content: bytes | None,
                                                    reason: str) -> None:
    path = tmp_path / "photo.jpg"
    if content is not None:
        path.write_bytes(content)
    out = run("vision", "read", str(path))
    assert (out.returncode, out.stderr, out.stdout) == (
        2, f"error: cannot read image {path}: {reason}\n", "")


def test_vision_read_stops_quietly_on_a_closed_pipe() -> None:
    out = run_into_a_closed_pipe("vision", "read", str(FRAME), "--json")
    assert (out.returncode, out.stderr) == (141, "")
