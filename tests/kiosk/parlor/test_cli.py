"""`python -m kiosk.parlor` as a person runs it: --help on every command, staff and tables
added and revoked, and the server itself serving a kiosk's post until SIGTERM."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from kiosk.parlor.store.db import open_database
from kiosk.parlor.store.registry import ParlorStore
from scorer.rules import RULESETS
from scorer.table import GameStarted, event_to_dict
from tests.kiosk.parlor.net import free_port

COMMANDS = ("serve", "add-staff", "remove-staff", "add-table", "revoke-table", "list-tables")


def parlor(db: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kiosk.parlor", "--db", f"sqlite:///{db}",
                           *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_every_command_has_help() -> None:
    out = subprocess.run([sys.executable, "-m", "kiosk.parlor", "--help"], capture_output=True,
                         text=True, check=True, timeout=60).stdout
    assert all(command in out for command in COMMANDS) and "--db" in out
    for command in COMMANDS:
        help_text = subprocess.run([sys.executable, "-m", "kiosk.parlor", command, "--help"],
                                   capture_output=True, text=True, check=True, timeout=60).stdout
        assert f"kiosk.parlor {command}" in help_text


def test_tables_and_staff_from_the_command_line(tmp_path: Path) -> None:
    db = tmp_path / "parlor.sqlite3"
    added = parlor(db, "add-table", "Table 1")
    assert added.returncode == 0, added.stderr
    token = added.stdout.split("--parlor-token ")[1].split()[0]
    assert parlor(db, "add-table", "Table 1").returncode == 1  # exists: --replace for a new one
    staff = parlor(db, "add-staff", "alice", "--password-stdin", stdin="correct horse\n")
    assert staff.returncode == 0, staff.stderr
    short = parlor(db, "add-staff", "bob", "--password-stdin", stdin="short\n")
    assert short.returncode == 1 and "8-200 characters" in short.stderr
    store = ParlorStore(open_database(f"sqlite:///{db}"))
    try:
        assert store.table_for_token(token) is not None  # only its hash is stored
        assert token not in db.read_bytes().decode("latin-1")
        assert store.check_staff("alice", "correct horse")
        assert parlor(db, "revoke-table", "Table 1").returncode == 0
        assert store.table_for_token(token) is None
    finally:
        store.close()
    assert "revoked" in parlor(db, "list-tables").stdout
    missing = parlor(db, "revoke-table", "Table 9")
    assert missing.returncode == 1 and "no table 'Table 9'" in missing.stderr


def test_a_table_cannot_be_named_as_the_reports_total(tmp_path: Path) -> None:
    """A table named 'total' doubled the daily report's total line (issue 35, item 12)."""
    db = tmp_path / "parlor.sqlite3"
    for name in ("total", "Total"):
        refused = parlor(db, "add-table", name)
        assert refused.returncode == 1 and refused.stdout == ""
        assert refused.stderr == (f"error: table name {name!r} is reserved (the daily report's "
                                  "total line)\n")
    assert parlor(db, "add-table", "Totals").returncode == 0


@pytest.mark.parametrize(("url", "why"), [
    ("sqlite:////proc/x/parlor.sqlite3", "cannot create the folder of the SQLite database "
     "/proc/x/parlor.sqlite3: No such file or directory"),
    ("sqlite:////proc/parlor.sqlite3", "cannot open the SQLite database /proc/parlor.sqlite3"),
], ids=["no-folder", "no-file"])
def test_a_database_that_cannot_be_opened_is_one_line(url: str, why: str) -> None:
    """`--db sqlite:////proc/x/...` ended in two tracebacks (issue 35, item 12)."""
    for command in ("list-tables", "serve"):
        answer = subprocess.run([sys.executable, "-m", "kiosk.parlor", "--db", url, command],
                                capture_output=True, text=True, timeout=60)
        assert answer.returncode == 2 and answer.stdout == ""
        assert answer.stderr.startswith(f"cannot open the parlor's database: {why}")
        assert answer.stderr.count("\n") == 1 and "Traceback" not in answer.stderr


def test_the_server_serves_a_kiosk_until_sigterm(tmp_path: Path) -> None:
    db = tmp_path / "parlor.sqlite3"
    token = parlor(db, "add-table", "T1").stdout.split("--parlor-token ")[1].split()[0]
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "kiosk.parlor", "--db", f"sqlite:///{db}",
                               "serve", "--port", str(port)], stderr=subprocess.PIPE, text=True)
    start = event_to_dict(GameStarted(("A", "B", "C", "D"), RULESETS["tenhou"]))
    body = json.dumps({"games": [{"game": "g1", "revision": 0, "events": [
        {"index": 0, "event": start}]}]}).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/tables/T1/events", data=body, method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(request, timeout=5) as answer:
                    assert json.load(answer)["games"]["g1"]["stored"] == 1
                break
            except urllib.error.URLError:
                if time.monotonic() > deadline:
                    pytest.fail("the parlor did not start")
                time.sleep(0.2)
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(15) == 0


def test_the_command_line_speaks_the_language_chosen(tmp_path: Path) -> None:
    """English as it always was; Japanese or Chinese from the kiosk's catalogues by --language
    or the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG)."""
    db = tmp_path / "parlor.sqlite3"
    added = parlor(db, "add-table", "Table 1")
    token = added.stdout.split("--parlor-token ")[1].split()[0]
    assert added.stdout == (f"table 'Table 1': its kiosk joins with\n  --parlor-table 'Table 1' "
                            f"--parlor-token {token}\n(the token is shown only now)\n")
    added = parlor(db, "--language", "ja", "add-table", "Table 2")
    assert added.stdout.startswith("卓'Table 2'：その卓のキオスクは次の指定で参加します\n")
    assert added.stdout.endswith("\n（トークンが表示されるのは今だけです）\n")
    listed = subprocess.run([sys.executable, "-m", "kiosk.parlor", "--db", f"sqlite:///{db}",
                             "list-tables"], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "LANGUAGE": "", "LC_ALL": "",
                                 "LANG": "zh_CN.UTF-8"})
    assert [line.split("\t")[:2] for line in listed.stdout.splitlines()] == [
        ["Table 1", "有效"], ["Table 2", "有效"]]
    missing = parlor(db, "--language", "ja", "revoke-table", "Table 9")
    assert missing.returncode == 1 and missing.stderr.startswith("エラー：")


@pytest.mark.parametrize("lang, words", [
    ("ja", ("使い方：python -m kiosk.parlor", "店のサーバー", "オプション", "データベース",
            "スタッフを追加する", "卓のトークンを無効にする")),
    ("zh-Hans", ("用法：python -m kiosk.parlor", "雀庄服务器", "选项", "数据库", "添加员工",
                 "吊销牌桌的令牌")),
])
def test_every_help_speaks_the_language_chosen(
        lang: str, words: tuple[str, ...], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Every command's --help in the language of --language (before or after the command) or
    the environment: the parlor's words the kiosk's catalogues' (parlor.cli.help.*), argparse's
    own the rules core's (scorer.cli_help), as python -m scorer's and vision's are."""
    from kiosk.parlor.__main__ import main

    def help_of(*argv: str) -> str:
        with pytest.raises(SystemExit) as stopped:
            main([*argv, "--help"])
        assert stopped.value.code == 0
        return capsys.readouterr().out

    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C")
    english = help_of()
    assert english.startswith("usage: python -m kiosk.parlor") and "The parlor server" in english
    texts = [help_of("--language", lang), *(help_of(c, "--language", lang) for c in COMMANDS)]
    assert all(word in "".join(texts) for word in words)
    assert not [t for t in texts if re.search(r"\b(the|a|and|usage|options|show)\b", t)]
    monkeypatch.setenv("LANG", {"ja": "ja_JP.UTF-8", "zh-Hans": "zh_CN.UTF-8"}[lang])
    assert [help_of(), *(help_of(c) for c in COMMANDS)] == texts
