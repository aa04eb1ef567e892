"""Never lose a hand: writers killed with SIGKILL at random moments lose no acknowledged event.

Each round a child process opens the store and appends events, writing an acknowledgement after
each `append` returns (i.e. after the commit); the parent SIGKILLs it after a random delay (from
"still opening the database" to "many appends in"; every other round only after a random number
of acknowledgements, so kills land among appends however slow the machine is), then reopens the
database and checks it: it opens cleanly (SQLite: `PRAGMA integrity_check`), every acknowledged
event is there, at most the one append in flight was committed without its acknowledgement, and
every game replays. Children are forked (no interpreter start-up), so 120 kills take seconds; one
more test kills a freshly started interpreter that prints its acks on stdout, as a kiosk would.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest

from kiosk.store import EventStore
from kiosk.store_sqlite import SqliteStore
from scorer.rules import RULESETS
from scorer.table import Event, ExhaustiveDraw, GameStarted, RiichiDeclared, TableState, replay

START = GameStarted(("Ana", "Ben", "Chie", "Dai"), RULESETS["tenhou"])


def next_event(state: TableState) -> Event:
    """An always-legal next event: the dealer declares riichi or is alone tenpai at the draw,
    so the others pay 1,000 a hand until one busts and the game ends."""
    if state.dealer not in state.riichi and len(state.history) % 3 == 1:
        return RiichiDeclared(state.dealer)
    return ExhaustiveDraw(frozenset({state.dealer}))


def write_forever(store: EventStore, ack: Callable[[str], None]) -> None:
    """Append events (a new game when the last one ended) and acknowledge each commit."""
    ack("open")
    while True:
        latest = store.latest()
        if latest is None or replay(latest[1]).finished:
            ack(f"{store.create(START)} 0")
            continue
        game, events = latest
        index = store.append(game, len(events), next_event(replay(events)))
        ack(f"{game} {index}")


def _fork_writer(open_store: Callable[[], EventStore]) -> tuple[int, int]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        os.close(read)
        try:
            write_forever(open_store(), lambda line: os.write(write, (line + "\n").encode()))
        except BaseException:
            os.write(write, ("error " + traceback.format_exc().replace("\n", " | ") + "\n")
                     .encode())
        finally:
            os._exit(1)
    os.close(write)
    return pid, read


def _read_lines(fd: int, count: int) -> bytes:
    """Block until `count` lines came (or the writer died): kills then land among appends."""
    data = b""
    while data.count(b"\n") < count and (chunk := os.read(fd, 4096)):
        data += chunk
    return data


def _read_all(fd: int, data: bytes = b"") -> list[str]:
    while chunk := os.read(fd, 65536):
        data += chunk
    os.close(fd)
    return data.decode().splitlines()


def _stored(open_store: Callable[[], EventStore]) -> dict[str, int]:
    """Reopen after the crash, check it, and return each game's event count."""
    store = open_store()
    try:
        if isinstance(store, SqliteStore):
            assert store.pragma("integrity_check") == "ok"
        counts = {game["id"]: game["events"] for game in store.games()}
        for game in counts:
            replay(store.events(game))  # every stored game is a legal game
        return counts
    finally:
        store.close()


def kill_writers(open_store: Callable[[], EventStore], rounds: int, seed: int) -> int:
    rng = random.Random(seed)
    acked: dict[str, int] = {}
    stored = _stored(open_store)
    acknowledged_total = 0
    for round_ in range(rounds):
        pid, pipe = _fork_writer(open_store)
        early = b""
        if round_ % 2:  # after 1-6 acknowledgements (the "open" line counts as one)
            early = _read_lines(pipe, rng.randint(2, 7))
        time.sleep(rng.choice([0.0, rng.uniform(0, 0.005), rng.uniform(0, 0.03),
                               rng.uniform(0.02, 0.08)]))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        lines = _read_all(pipe, early)
        errors = [line for line in lines if line.startswith("error")]
        assert not errors, errors
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, lines
        acks = [line.split() for line in lines if line != "open"]
        for game, index in acks:
            acked[game] = max(acked.get(game, -1), int(index))
        before, stored = stored, _stored(open_store)
        for game, index in acked.items():
            assert stored.get(game, 0) >= index + 1, f"round {round_}: acked event lost"
        # Only the append in flight may have committed without its acknowledgement.
        new_events = sum(stored.values()) - sum(before.values())
        assert new_events - len(acks) in (0, 1), (round_, new_events, acks)
        acknowledged_total += len(acks)
    return acknowledged_total


@pytest.mark.slow
def test_sqlite_loses_no_acknowledged_event_under_sigkill(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    acknowledged = kill_writers(lambda: SqliteStore(path), rounds=120, seed=20261129)
    assert acknowledged > 100  # the kills really landed among appends
    store = SqliteStore(path)
    assert len(store.games()) >= 2  # games ended (bust) and new ones began along the way
    store.close()


@pytest.mark.slow
@pytest.mark.postgres
def test_postgres_loses_no_acknowledged_event_under_sigkill(postgres_url: str) -> None:
    import psycopg

    from kiosk.store_postgres import PostgresStore

    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("DROP TABLE IF EXISTS events, games, store_meta CASCADE")
    assert kill_writers(lambda: PostgresStore(postgres_url), rounds=30, seed=7) > 10


CHILD = """
import sys
from kiosk.store_sqlite import SqliteStore
from tests.kiosk.test_store_durability import write_forever
write_forever(SqliteStore(sys.argv[1]), lambda line: print(line, flush=True))
"""


@pytest.mark.slow
def test_a_killed_kiosk_process_loses_no_acknowledged_event(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    root = Path(__file__).resolve().parents[2]
    rng = random.Random(3)
    acked: dict[str, int] = {}
    for _ in range(6):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], cwd=root,
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "open"
        time.sleep(rng.uniform(0, 0.1))
        child.send_signal(signal.SIGKILL)
        child.wait()
        for line in child.stdout.read().splitlines():
            game, index = line.split()
            acked[game] = max(acked.get(game, -1), int(index))
        assert child.returncode == -signal.SIGKILL
    stored = _stored(lambda: SqliteStore(path))
    assert acked and all(stored[game] >= index + 1 for game, index in acked.items())
