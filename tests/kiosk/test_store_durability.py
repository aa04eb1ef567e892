"""Never lose a hand: writers killed with SIGKILL at random moments lose no acknowledged event.

Each round a child process opens the store and appends events, writing an acknowledgement after
each `append` returns (i.e. after the commit); the parent SIGKILLs it after a random delay (from
"still opening the database" to "many appends in"; every other round only after a random number
of acknowledgements, so kills land among appends however slow the machine is), then reopens the
database and checks it: it opens cleanly (SQLite: `PRAGMA integrity_check`), every acknowledged
event is there, at most the one append in flight was committed without its acknowledgement, and
every game replays. Children are forked from a multiprocessing fork server that has the store
imported, so 120 kills take seconds; one more test kills a freshly started interpreter that
prints its acks on stdout, as a kiosk would.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import select
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

import pytest

from kiosk.store.event_log import EventStore
from kiosk.store.sqlite import SqliteStore
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


def open_store(spec: tuple[str, str]) -> EventStore:
    kind, target = spec
    if kind == "sqlite":
        return SqliteStore(target)
    from kiosk.store.postgres import PostgresStore
    return PostgresStore(target)


def _writer_main(spec: tuple[str, str], pipe: Connection) -> None:
    """The child: raw lines on the pipe (one os.write each, atomic), never a partial line."""
    fd = pipe.fileno()
    try:
        write_forever(open_store(spec), lambda line: os.write(fd, (line + "\n").encode()))
    except BaseException:
        os.write(fd, ("error " + traceback.format_exc().replace("\n", " | ") + "\n").encode())


def _start_writer(spec: tuple[str, str]) -> tuple[BaseProcess, Connection]:
    # forkserver: each child is forked from a clean single-threaded server that has already
    # imported the store (fast), never from this pytest process with whatever threads it runs.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__])
    reader, writer = context.Pipe(duplex=False)
    process = context.Process(target=_writer_main, args=(spec, writer), daemon=True)
    process.start()
    writer.close()
    return process, reader


def _read(pipe: Connection, lines: int = 0, timeout: float = 0.05) -> bytes:
    """What the writer sent: wait up to 10 s for `lines` lines, then whatever is left."""
    fd, data = pipe.fileno(), b""
    deadline = time.monotonic() + 10
    while data.count(b"\n") < lines and time.monotonic() < deadline:
        if select.select([fd], [], [], 0.1)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            data += chunk
    while lines == 0 and select.select([fd], [], [], timeout)[0]:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        data += chunk
    return data


def _stored(spec: tuple[str, str]) -> dict[str, int]:
    """Reopen after the crash, check it, and return each game's event count."""
    store = open_store(spec)
    try:
        if isinstance(store, SqliteStore):
            assert store.pragma("integrity_check") == "ok"
        counts = {game["id"]: game["events"] for game in store.games()}
        for game in counts:
            replay(store.events(game))  # every stored game is a legal game
        return counts
    finally:
        store.close()


def kill_writers(spec: tuple[str, str], rounds: int, seed: int) -> int:
    rng = random.Random(seed)
    acked: dict[str, int] = {}
    stored = _stored(spec)
    acknowledged_total = 0
    for round_ in range(rounds):
        process, pipe = _start_writer(spec)
        early = b""
        if round_ % 2:  # after 1-6 acknowledgements (the "open" line counts as one)
            early = _read(pipe, lines=rng.randint(2, 7))
        time.sleep(rng.choice([0.0, rng.uniform(0, 0.005), rng.uniform(0, 0.03),
                               rng.uniform(0.02, 0.08)]))
        process.kill()  # SIGKILL
        process.join(10)
        lines = (early + _read(pipe)).decode().splitlines()
        pipe.close()
        errors = [line for line in lines if line.startswith("error")]
        assert not errors, errors
        assert process.exitcode == -signal.SIGKILL, lines
        acks = [line.split() for line in lines if line != "open"]
        for game, index in acks:
            acked[game] = max(acked.get(game, -1), int(index))
        before, stored = stored, _stored(spec)
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
    acknowledged = kill_writers(("sqlite", str(path)), rounds=120, seed=20261129)
    assert acknowledged > 100  # the kills really landed among appends
    store = SqliteStore(path)
    assert len(store.games()) >= 2  # games ended (bust) and new ones began along the way
    store.close()


@pytest.mark.slow
@pytest.mark.postgres
def test_postgres_loses_no_acknowledged_event_under_sigkill(postgres_url: str) -> None:
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute("DROP TABLE IF EXISTS receipts, events, games, store_meta CASCADE")
    assert kill_writers(("postgres", postgres_url), rounds=30, seed=7) > 10


CHILD = """
import sys
from kiosk.store.sqlite import SqliteStore
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
    stored = _stored(("sqlite", str(path)))
    assert acked and all(stored[game] >= index + 1 for game, index in acked.items())


def test_a_full_disk_is_a_507_that_records_nothing_and_recovers(kiosk) -> None:  # noqa: ANN001
    # SQLite's page quota stands in for the disk: it fails a write as a full disk does
    from tests.kiosk.conftest import Api, points

    app, services = kiosk
    store = services.game.log
    api = Api(app.test_client())
    store.pragma(f"max_page_count = {store.pragma('page_count')}")
    before, status, done = points(api), 200, 0
    while status == 200 and done < 500:
        before = points(api)
        r = api.post("/api/corrections", {"deltas": [100, -100, 0, 0], "reason": "full?"})
        status, done = r.status_code, done + (r.status_code == 200)
    assert status == 507 and "disk is full" in r.get_json()["error"]
    assert points(api) == before  # the refused change is not in the table either
    store.pragma("max_page_count = 1073741823")  # space again
    again = api.post("/api/corrections", {"deltas": [100, -100, 0, 0], "reason": "space"})
    assert again.status_code == 200 and points(api)[0] == before[0] + 100
    corrections = [e for e in store.latest()[1] if type(e).__name__ == "Correction"]
    assert len(corrections) == done + 1  # every acknowledged change, and only those, stored
