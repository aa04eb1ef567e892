"""The event store: every game's events, kept as they happen; the state is always their replay.

One interface, two databases: SQLite by default (WAL, synchronous=FULL, one transaction per
append) and PostgreSQL for a parlor (psycopg 3, from a ``postgresql://`` URL). Events are stored
as the JSON of `scorer.table.record`, one row each. Every write is checked first: an append must
come at the index the writer expects (else `Conflict`) and must be legal after the stored events
(else `scorer.table.IllegalEvent`); an imported record is checked whole and stored in one
transaction, so a bad one changes nothing. A write may carry the answer of a keyed request
(`kiosk.store.receipts`), stored in the same transaction, so a repeat finds it after a restart.

    store = kiosk.store.persist.open_store("sqlite:///games.db")   # or "postgresql://user@host/db"
    game = store.create(GameStarted(("A", "B", "C", "D"), RULESETS["tenhou"]))
    store.append(game, 1, RiichiDeclared(0))
    state = store.state(game)
"""

from __future__ import annotations

import json
import uuid
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, Protocol

from kiosk.store import receipts as store_receipts
from kiosk.store.marks import KEY as MARK_KEY
from kiosk.store.marks import note_cut
from kiosk.store.receipts import MakeReceipt, Receipt
from scorer.table import (
    Event,
    GameStarted,
    RecordError,
    TableState,
    apply,
    dumps,
    event_from_json,
    event_to_json,
    events_from_record,
    parse_json,
    replay,
    start,
)

SCHEMA_VERSION = 1


class StoreError(Exception):
    """Something the store cannot do; the message says what."""


class UnknownGame(StoreError):
    pass


class UnreadableGame(StoreError):
    """A stored event that no longer reads as an event (edited or written by a broken version)."""

    def __init__(self, game_id: str, index: int, reason: str) -> None:
        self.game_id, self.index, self.reason = game_id, index, reason
        super().__init__(f"game {game_id}, event {index}: {reason}")


class StoreFull(StoreError):
    """The disk (or the database's quota) is full: nothing of the change was written."""


class Conflict(StoreError):
    """The game moved on since the writer read it (another kiosk or tab wrote first)."""


class GameInPlay(StoreError):
    """The game asked to be deleted is the one the table plays."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(f"game {game_id} is the game the table plays")


class Tx(Protocol):
    """The little a transaction offers the shared code; SQL uses ``?`` placeholders."""

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    def run(self, sql: str, params: Sequence[Any] = ()) -> None: ...


def create_schema(tx: Tx, schema: Sequence[str], where: str) -> None:
    """Create the tables if missing and refuse a store written by another schema version."""
    for statement in schema:
        tx.run(statement)
    found = tx.rows("SELECT value FROM store_meta WHERE key = 'schema'")
    if not found:
        tx.run("INSERT INTO store_meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
    elif found[0][0] != str(SCHEMA_VERSION):
        raise StoreError(f"{where} has store schema {found[0][0]}; this kiosk reads "
                         f"{SCHEMA_VERSION}")


class EventStore(ABC):
    """Games as ordered events. Backends supply the transaction and the schema."""

    lock_clause = ""  # appended to the SELECT that locks a game row ("FOR UPDATE" in PostgreSQL)

    @abstractmethod
    def transaction(self, write: bool = True) -> AbstractContextManager[Tx]:
        """One atomic, durable unit of work: committed when the block ends, else rolled back.

        `write=False` promises only reads (SQLite then lets them run beside a writer).
        """

    @abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing ---------------------------------------------------------------------------

    # Each write takes an optional `receipt`: the answer of a keyed request, kept in the same
    # transaction as the change (`kiosk.store.receipts`).

    def create(self, first: GameStarted, receipt: MakeReceipt | None = None) -> str:
        """A new game from its first event; returns its id."""
        start(first)  # raises IllegalEvent for a bad start
        return self.import_events([first], receipt, current=True)

    def append(self, game_id: str, index: int, event: Event,
               receipt: MakeReceipt | None = None) -> int:
        """Store `event` as number `index` of the game (the count already stored) and return it.

        Checked against the replay of what is stored, in the same transaction as the insert.
        """
        with self.transaction() as tx:
            events = self._locked_events(tx, game_id)
            if index != len(events):
                raise Conflict(f"game {game_id} has {len(events)} events; the new one was meant "
                               f"as number {index}")
            apply(replay(events), event)
            tx.run("INSERT INTO events (game_id, idx, body) VALUES (?, ?, ?)",
                   (game_id, index, event_to_json(event)))
            self._keep(tx, game_id, receipt)
        return index

    def truncate(self, game_id: str, length: int, receipt: MakeReceipt | None = None) -> None:
        """Keep the first `length` events (at least the game's start): undo is length - 1."""
        if length < 1:
            raise StoreError("a game keeps at least its first event")
        with self.transaction() as tx:
            if len(self._locked_events(tx, game_id)) > length:
                # A parlor may hold the events dropped: its outbox must learn of the cut.
                note_cut(tx, game_id, length)
            tx.run("DELETE FROM events WHERE game_id = ? AND idx >= ?", (game_id, length))
            self._keep(tx, game_id, receipt)

    def rewrite(self, game_id: str, index: int, events: Sequence[Event], length: int,
                receipt: MakeReceipt | None = None) -> None:
        """Replace the game's events from `index` on with `events` (a corrected hand and the
        later ones kept: `scorer.table.amend`), all or nothing. `length` is the count the writer
        read (else `Conflict`); the whole game is checked by its replay before anything changes,
        and a parlor's outbox learns of the cut as after an undo, then gets the new events."""
        if index < 1:
            raise StoreError("a game keeps at least its first event")
        with self.transaction() as tx:
            stored = self._locked_events(tx, game_id)
            if len(stored) != length:
                raise Conflict(f"game {game_id} has {len(stored)} events; the correction was "
                               f"made for {length}")
            replay([*stored[:index], *events])
            note_cut(tx, game_id, index)
            tx.run("DELETE FROM events WHERE game_id = ? AND idx >= ?", (game_id, index))
            for i, event in enumerate(events):
                tx.run("INSERT INTO events (game_id, idx, body) VALUES (?, ?, ?)",
                       (game_id, index + i, event_to_json(event)))
            self._keep(tx, game_id, receipt)

    def undo(self, game_id: str) -> Event:
        """Drop the last event and return it (for a redo list)."""
        with self.transaction() as tx:
            events = self._locked_events(tx, game_id)
            if len(events) < 2:
                raise StoreError("nothing to undo: the game has only started")
            note_cut(tx, game_id, len(events) - 1)  # for a parlor's outbox, as in truncate
            tx.run("DELETE FROM events WHERE game_id = ? AND idx = ?", (game_id, len(events) - 1))
        return events[-1]

    def resume(self, game_id: str, receipt: MakeReceipt | None = None) -> None:
        """Make a stored game the one the kiosk plays (and replays after a restart)."""
        with self.transaction() as tx:
            self._locked_events(tx, game_id)
            self._mark_current(tx, game_id)
            self._keep(tx, game_id, receipt)

    def delete(self, game_id: str) -> bool:
        """Remove a stored game and all kept for it (its events, the answers of its keyed
        changes, a parlor outbox's mark), in one transaction; False where no such game is stored
        (deleted already: a delete sent twice deletes once). The game the table plays is refused
        (`GameInPlay`): another game is started or resumed first."""
        with self.transaction() as tx:
            if not tx.rows(f"SELECT id FROM games WHERE id = ?{self.lock_clause}", (game_id,)):
                return False
            if self._current(tx) == game_id:
                raise GameInPlay(game_id)
            tx.run("DELETE FROM receipts WHERE game_id = ?", (game_id,))
            tx.run("DELETE FROM events WHERE game_id = ?", (game_id,))
            tx.run("DELETE FROM store_meta WHERE key = ?", (MARK_KEY + game_id,))
            tx.run("DELETE FROM games WHERE id = ?", (game_id,))
        return True

    def import_record(self, text: str | bytes) -> str:
        """Store a JSON game record as a new game, all or nothing; returns its id. The game
        played stays the current one: an imported game is one of the games stored.

        A bad record raises `scorer.table.record.RecordError` naming the event and field.
        """
        return self.import_events(events_from_record(parse_json(text))[0])

    def import_events(self, events: Sequence[Event], receipt: MakeReceipt | None = None, *,
                      current: bool = False) -> str:
        """Store a game's events (checked: `events_from_record`) as a new game; returns its id.
        A game stored already with the same events (the same record imported again, with a BOM
        or as UTF-16) is that game: its id is returned and nothing is stored twice. `current`:
        the game becomes the one played (a new game does; an imported record does not)."""
        first = events[0]
        assert isinstance(first, GameStarted)  # replay checked it
        bodies = [event_to_json(event) for event in events]
        with self.transaction() as tx:
            same = self._same_events(tx, bodies)
            if same is not None:
                if current:  # played on from here, as a new game would be
                    self._mark_current(tx, same)
                self._keep(tx, same, receipt)
                return same
            if not current:  # a store that never marked one: the game played stays current
                self._keep_current(tx)
            game_id = uuid.uuid4().hex[:12]
            self._insert_game(tx, game_id, first, current)
            for index, body in enumerate(bodies):
                tx.run("INSERT INTO events (game_id, idx, body) VALUES (?, ?, ?)",
                       (game_id, index, body))
            self._keep(tx, game_id, receipt)
        return game_id

    @staticmethod
    def _same_events(tx: Tx, bodies: Sequence[str]) -> str | None:
        """The stored game whose events are ``bodies`` exactly, if any."""
        candidates = tx.rows("SELECT game_id FROM events WHERE idx = 0 AND body = ?",
                             (bodies[0],))
        for (game_id,) in candidates:
            rows = tx.rows("SELECT body FROM events WHERE game_id = ? ORDER BY idx", (game_id,))
            if [body for (body,) in rows] == list(bodies):
                return str(game_id)
        return None

    # --- reading ---------------------------------------------------------------------------

    def receipt(self, game_id: str, key: str) -> Receipt | None:
        """The answer kept for `key` in the game, if a change was recorded with it."""
        with self.transaction(write=False) as tx:
            return store_receipts.find(tx, game_id, key)

    def events(self, game_id: str) -> list[Event]:
        with self.transaction(write=False) as tx:
            return self._events(tx, game_id)

    def state(self, game_id: str) -> TableState:
        return replay(self.events(game_id))

    def export_record(self, game_id: str) -> str:
        return dumps(self.events(game_id))

    def games(self) -> list[dict[str, Any]]:
        """Every game, oldest first: id, created (UTC, ISO 8601), players, rules, events."""
        with self.transaction(write=False) as tx:
            rows = tx.rows("SELECT g.id, g.created, g.players, g.rules, COUNT(e.idx) FROM games g "
                           "LEFT JOIN events e ON e.game_id = g.id "
                           "GROUP BY g.seq, g.id, g.created, g.players, g.rules ORDER BY g.seq")
        return [{"id": r[0], "created": r[1], "players": json.loads(r[2]), "rules": r[3],
                 "events": int(r[4])} for r in rows]

    def latest(self) -> tuple[str, list[Event]] | None:
        """The game last created, imported or resumed, and its events, if any.

        A store written before games could be resumed has no current game: then the newest."""
        with self.transaction(write=False) as tx:
            played = self._current(tx)
            return None if played is None else (played, self._events(tx, played))

    # --- shared SQL ------------------------------------------------------------------------

    def _insert_game(self, tx: Tx, game_id: str, first: GameStarted, current: bool) -> None:
        created = datetime.now(UTC).isoformat(timespec="seconds")
        tx.run("INSERT INTO games (id, created, players, rules) VALUES (?, ?, ?, ?)",
               (game_id, created, json.dumps(list(first.players), ensure_ascii=False),
                first.rules.name))
        if current:
            self._mark_current(tx, game_id)  # a new game is the one played, as after a restart

    @staticmethod
    def _current(tx: Tx) -> str | None:
        """The game played: the one marked, else (a store written before games could be
        resumed) the newest."""
        rows = tx.rows("SELECT g.id FROM store_meta m JOIN games g ON g.id = m.value "
                       "WHERE m.key = 'current'")
        rows = rows or tx.rows("SELECT id FROM games ORDER BY seq DESC LIMIT 1")
        return str(rows[0][0]) if rows else None

    def _keep_current(self, tx: Tx) -> None:
        """Mark the game played as such, so a game stored after it does not take its place."""
        played = self._current(tx)
        if played is not None:
            self._mark_current(tx, played)

    def _mark_current(self, tx: Tx, game_id: str) -> None:
        # An upsert both SQLite (3.24+) and PostgreSQL read the same way.
        tx.run("INSERT INTO store_meta (key, value) VALUES ('current', ?) ON CONFLICT (key) "
               "DO UPDATE SET value = excluded.value", (game_id,))

    def _keep(self, tx: Tx, game_id: str, receipt: MakeReceipt | None) -> None:
        try:
            store_receipts.keep(tx, game_id, receipt)
        except store_receipts.KeyUsed as e:  # another process recorded it first: keep theirs
            raise Conflict(str(e)) from None

    def _locked_events(self, tx: Tx, game_id: str) -> list[Event]:
        if not tx.rows(f"SELECT id FROM games WHERE id = ?{self.lock_clause}", (game_id,)):
            raise UnknownGame(f"no game {game_id!r}")
        return self._events(tx, game_id)

    def _events(self, tx: Tx, game_id: str) -> list[Event]:
        rows = tx.rows("SELECT idx, body FROM events WHERE game_id = ? ORDER BY idx", (game_id,))
        if not rows and not tx.rows("SELECT id FROM games WHERE id = ?", (game_id,)):
            raise UnknownGame(f"no game {game_id!r}")
        events = []
        for index, body in rows:
            try:
                events.append(event_from_json(body))
            except RecordError as error:
                raise UnreadableGame(game_id, index, str(error)) from None
        return events


def iter_games(store: EventStore) -> Iterator[tuple[str, TableState]]:
    """Each stored game with its replayed state."""
    for game in store.games():
        yield game["id"], store.state(game["id"])
