"""The event store, the same tests against real SQLite and a real PostgreSQL server."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from kiosk.store.event_log import Conflict, EventStore, StoreError, UnknownGame
from kiosk.store.persist import open_store
from kiosk.store.postgres import PostgresStore
from kiosk.store.sqlite import SqliteStore
from scorer.rules import RULESETS
from scorer.table import (
    Event,
    ExhaustiveDraw,
    GameStarted,
    IllegalEvent,
    RecordError,
    RiichiDeclared,
    Win,
    WinningHand,
    dumps,
    replay,
)

START = GameStarted(("Ana", "Ben", "Chie", "Dai"), RULESETS["tenhou"])
GAME: list[Event] = [
    START,
    RiichiDeclared(1),
    Win.ron(0, WinningHand(1, 3, 30, hand="123m456p789s11z22z", breakdown={"yaku": ["riichi"]})),
    ExhaustiveDraw(frozenset({2})),
    Win.tsumo(WinningHand(3, 0, 0, yakuman=1)),
]


Opener = Callable[[], EventStore]


def _fresh_postgres(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as db:
        db.execute("DROP TABLE IF EXISTS receipts, events, games, store_meta CASCADE")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def reopen(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """A function opening (again) the same database: a restart of the kiosk."""
    if request.param == "sqlite":
        opened: list[EventStore] = []

        def open_sqlite() -> EventStore:
            opened.append(SqliteStore(tmp_path / "games.db"))
            return opened[-1]
        yield open_sqlite
    else:
        url = request.getfixturevalue("postgres_url")
        _fresh_postgres(url)
        opened = []

        def open_postgres() -> EventStore:
            opened.append(PostgresStore(url))
            return opened[-1]
        yield open_postgres
    for store in opened:
        store.close()


@pytest.fixture
def store(reopen: Opener) -> EventStore:
    return reopen()


def _play(store: EventStore, events: list[Event]) -> str:
    game = store.create(events[0])  # type: ignore[arg-type]
    for index, event in enumerate(events[1:], start=1):
        assert store.append(game, index, event) == index
    return game


def test_events_come_back_as_stored_and_replay(store: EventStore) -> None:
    game = _play(store, GAME)
    assert store.events(game) == GAME
    state = store.state(game)
    # ron 3900 + stick; East 2 draws with seat 2 alone tenpai (dealer 1 noten: East 3, 1 honba);
    # seat 3's yakuman tsumo: the dealer (seat 2) pays 16,100, the others 8,100 each.
    assert state.points == (21100 - 1000 - 8100, 28900 - 1000 - 8100, 25000 + 3000 - 16100,
                            25000 - 1000 + 32300)
    assert state.points == replay(GAME).points
    [info] = store.games()
    assert info["id"] == game and info["players"] == list(START.players)
    assert info["rules"] == "tenhou" and info["events"] == len(GAME)
    assert store.latest() == (game, GAME)


def test_the_state_after_a_restart_is_the_replay(reopen: Opener) -> None:
    first = reopen()
    game = _play(first, GAME[:3])
    first.close()
    second = reopen()
    assert second.events(game) == GAME[:3]
    second.append(game, 3, GAME[3])
    assert second.state(game) == replay(GAME[:4])


def test_an_append_at_a_stale_index_is_a_conflict(reopen: Opener) -> None:
    kiosk_a, kiosk_b = reopen(), reopen()
    game = _play(kiosk_a, GAME[:2])
    kiosk_a.append(game, 2, GAME[2])
    with pytest.raises(Conflict, match="has 3 events"):
        kiosk_b.append(game, 2, ExhaustiveDraw())
    assert kiosk_b.events(game) == GAME[:3]


def test_an_illegal_event_is_refused_and_nothing_stored(store: EventStore) -> None:
    game = _play(store, GAME[:2])
    with pytest.raises(IllegalEvent, match="already declared riichi"):
        store.append(game, 2, RiichiDeclared(1))
    assert store.events(game) == GAME[:2]


def test_unknown_games_are_named(store: EventStore) -> None:
    with pytest.raises(UnknownGame, match="nope"):
        store.events("nope")
    with pytest.raises(UnknownGame, match="nope"):
        store.append("nope", 1, RiichiDeclared(0))


def test_undo_and_truncate(store: EventStore) -> None:
    game = _play(store, GAME)
    assert store.undo(game) == GAME[-1]
    assert store.events(game) == GAME[:-1]
    store.truncate(game, 2)
    assert store.events(game) == GAME[:2]
    store.append(game, 2, GAME[2])  # the index after an undo is free again
    assert store.events(game) == GAME[:3]
    store.truncate(game, 1)
    with pytest.raises(StoreError, match="only started"):
        store.undo(game)
    with pytest.raises(StoreError, match="at least its first event"):
        store.truncate(game, 0)


def test_export_and_import_round_trip(store: EventStore) -> None:
    game = _play(store, GAME)
    text = store.export_record(game)
    copy = store.import_record(text)
    assert copy == game and len(store.games()) == 1  # the same events: the game stored, once
    played = store.create(GameStarted(("Ann", "Ben", "Cho", "Dai"), RULESETS["tenhou"]))
    assert store.latest()[0] == played  # type: ignore[index]
    assert store.import_record(text) == game  # that game, stored once; the game played stays
    assert store.latest()[0] == played  # type: ignore[index]
    assert store.events(copy) == GAME
    assert store.state(copy) == store.state(game)
    assert json.loads(text)["events"][2]["after"]["points"] == [21100, 28900, 25000, 25000]


def test_a_hand_edited_record_is_refused_naming_the_event(store: EventStore) -> None:
    _play(store, GAME)
    before = store.games()
    record = json.loads(dumps(GAME))
    record["events"][2]["hands"][0]["han"] = 4  # 7,700 instead of 3,900: "after" disagrees
    with pytest.raises(RecordError) as error:
        store.import_record(json.dumps(record))
    assert (error.value.index, error.value.field) == (2, "after.points")
    assert "event 2 (win), field 'after.points'" in str(error.value)
    assert store.games() == before


def test_a_corrupt_record_is_refused_naming_event_and_field(store: EventStore) -> None:
    record = json.loads(dumps(GAME))
    record["events"][4]["hands"][0]["liable"] = "Ana"
    with pytest.raises(RecordError, match=r"event 4 \(win\), field 'hands\[0\].liable'"):
        store.import_record(json.dumps(record))
    with pytest.raises(RecordError, match="not JSON"):
        store.import_record(dumps(GAME)[:-5])
    assert store.games() == []


def test_a_failure_mid_import_rolls_everything_back(store: EventStore,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from scorer.table import event_to_json as real

    calls = []

    def failing(event: Event) -> str:
        calls.append(event)
        if len(calls) == 4:
            raise OSError("disk full (simulated)")
        return real(event)

    monkeypatch.setattr("kiosk.store.event_log.event_to_json", failing)
    with pytest.raises(OSError, match="disk full"):
        store.import_record(dumps(GAME))
    monkeypatch.undo()
    assert store.games() == []  # neither the game row nor its first three events remain


def test_open_store_reads_urls(tmp_path: Path) -> None:
    with open_store(f"sqlite:///{tmp_path}/a.db") as a:
        assert isinstance(a, SqliteStore) and a.path == tmp_path / "a.db"
    with open_store(tmp_path / "b.db") as b:
        assert isinstance(b, SqliteStore)
    with pytest.raises(StoreError, match="unknown database URL"):
        open_store("mysql://x")


def test_sqlite_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    with SqliteStore(tmp_path / "g.db") as store:
        assert isinstance(store, SqliteStore)
        assert store.pragma("journal_mode") == "wal"
        assert store.pragma("synchronous") == 2  # FULL


@pytest.mark.postgres
def test_postgres_url_is_a_real_server(postgres_url: str) -> None:
    with psycopg.connect(postgres_url) as db:
        row = db.execute("SHOW server_version").fetchone()
    assert row is not None and int(row[0].split(".")[0]) >= 12


@pytest.mark.postgres
def test_postgres_store_reconnects_after_losing_its_connection(postgres_url: str) -> None:
    _fresh_postgres(postgres_url)
    with PostgresStore(postgres_url) as store:
        game = _play(store, GAME[:2])
        with psycopg.connect(postgres_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                          "WHERE pid <> pg_backend_pid() AND datname = current_database()")
        with pytest.raises(StoreError, match="unavailable"):
            store.events(game)  # the call that finds the connection gone says so plainly
        assert store.events(game) == GAME[:2]  # ... and the next one connects again


def test_a_store_of_another_schema_version_is_refused_by_name(reopen: Opener) -> None:
    store = reopen()
    with store.transaction() as tx:
        tx.run("UPDATE store_meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(StoreError, match="has store schema 99; this kiosk reads 1"):
        reopen()
