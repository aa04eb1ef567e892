"""The parlor's store: its schema, the tables and their tokens, the staff, the members.

Every table is prefixed ``parlor_`` so a parlor can share one PostgreSQL database with kiosks'
own stores (``games``, ``events``, ``store_meta``) without a clash. Members have a surrogate
``id`` besides their number: later work links game seats to members by id, so a member's number
or name can change without rewriting history. Times are UTC ISO 8601 text (sorts as it reads,
the same in both databases, like the kiosk's store).
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from kiosk.parlor.store import auth
from kiosk.parlor.store.db import Database
from kiosk.store.event_log import Tx
from scorer.limits import NAME_LENGTH, text_problem

SCHEMA_VERSION = 1
MEMBER_NUMBER = re.compile(r"[0-9A-Za-z-]{1,16}")
MEMBERS_LISTED = 500  # at most this many members in one answer (pages ask with offset)
RESERVED_TABLES = frozenset({"total"})  # the daily report's own row names
# Bidirectional controls (U+202E turns what follows around) would scramble the counter's pages.
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


class ParlorError(Exception):
    """A change the store refuses; `status` is the HTTP answer, the message says why."""

    def __init__(self, message: str, status: int = 409, field: str | None = None) -> None:
        super().__init__(message)
        self.status, self.field = status, field


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def schema(serial: str) -> tuple[str, ...]:
    return (
        "CREATE TABLE IF NOT EXISTS parlor_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS parlor_tables (id {serial}, name TEXT NOT NULL UNIQUE, "
        "token_digest TEXT NOT NULL UNIQUE, revoked INTEGER NOT NULL DEFAULT 0, "
        "created TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS parlor_staff (name TEXT PRIMARY KEY, password TEXT NOT NULL, "
        "created TEXT NOT NULL)",
        f"CREATE TABLE IF NOT EXISTS parlor_members (id {serial}, number TEXT NOT NULL UNIQUE, "
        "name TEXT NOT NULL, created TEXT NOT NULL)",
        # One row per game a kiosk sent: `revision` counts the kiosk's undos that cut events
        # already sent (see kiosk.parlor.store.ledger), `events` how many are stored now.
        "CREATE TABLE IF NOT EXISTS parlor_games (table_id BIGINT NOT NULL REFERENCES "
        "parlor_tables (id), game_id TEXT NOT NULL, revision INTEGER NOT NULL, "
        "events INTEGER NOT NULL, first_received TEXT NOT NULL, last_received TEXT NOT NULL, "
        "PRIMARY KEY (table_id, game_id))",
        "CREATE INDEX IF NOT EXISTS parlor_games_recent ON parlor_games (table_id, last_received)",
        "CREATE TABLE IF NOT EXISTS parlor_events (table_id BIGINT NOT NULL, game_id TEXT NOT "
        "NULL, idx INTEGER NOT NULL, body TEXT NOT NULL, received TEXT NOT NULL, "
        "PRIMARY KEY (table_id, game_id, idx), FOREIGN KEY (table_id, game_id) REFERENCES "
        "parlor_games (table_id, game_id))",
        # Added after schema 1, by CREATE ... IF NOT EXISTS only, so a parlor of schema 1 gains
        # them on start and keeps its number. Results are a cache of the replayed games
        # (kiosk.parlor.store.results), rebuilt from the events whenever (revision, events) moved.
        "CREATE TABLE IF NOT EXISTS parlor_results (table_id BIGINT NOT NULL, game_id TEXT NOT "
        "NULL, revision INTEGER NOT NULL, events INTEGER NOT NULL, started TEXT NOT NULL, "
        "ended TEXT NOT NULL, finished INTEGER NOT NULL, seats INTEGER NOT NULL, hands INTEGER "
        "NOT NULL, ruleset TEXT NOT NULL, PRIMARY KEY (table_id, game_id))",
        "CREATE INDEX IF NOT EXISTS parlor_results_started ON parlor_results (started)",
        "CREATE TABLE IF NOT EXISTS parlor_result_seats (table_id BIGINT NOT NULL, game_id TEXT "
        "NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL, tag TEXT, points INTEGER NOT "
        "NULL, rank INTEGER, low INTEGER, score DOUBLE PRECISION, wins INTEGER NOT NULL, "
        "win_points INTEGER NOT NULL, deal_ins INTEGER NOT NULL, riichi INTEGER NOT NULL, "
        "PRIMARY KEY (table_id, game_id, seat))",
        # Each seat's chips and money (issue 39), a cache as parlor_result_seats: chips won (+)
        # or paid (-), and where the rules have stakes, the settled money and the fee paid.
        "CREATE TABLE IF NOT EXISTS parlor_result_money (table_id BIGINT NOT NULL, game_id TEXT "
        "NOT NULL, seat INTEGER NOT NULL, chips INTEGER NOT NULL, money BIGINT, fee BIGINT NOT "
        "NULL, PRIMARY KEY (table_id, game_id, seat))",
        # A staff member's link of a game's seat to a member (overrides a name's #NUMBER).
        "CREATE TABLE IF NOT EXISTS parlor_seats (table_id BIGINT NOT NULL, game_id TEXT NOT "
        "NULL, seat INTEGER NOT NULL, member_id BIGINT NOT NULL, PRIMARY KEY (table_id, "
        "game_id, seat))",
        "CREATE TABLE IF NOT EXISTS parlor_seasons (name TEXT PRIMARY KEY, first_day TEXT NOT "
        "NULL, last_day TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS parlor_member_logins (member_id BIGINT PRIMARY KEY, "
        "password TEXT NOT NULL, created TEXT NOT NULL)",
        # Sign-ins (kiosk.parlor.web.sessions): the digest of the cookie's id, a staff member's
        # name or a member's id, and when it ends.
        "CREATE TABLE IF NOT EXISTS parlor_sessions (digest TEXT PRIMARY KEY, staff TEXT, "
        "member_id BIGINT, created TEXT NOT NULL, expires TEXT NOT NULL)",
        # Which games count (kiosk.parlor.store.integrity): each game's rules and content
        # digests (a cache, as parlor_results), and the rulesets seen, approved or not.
        "CREATE TABLE IF NOT EXISTS parlor_result_keys (table_id BIGINT NOT NULL, game_id TEXT "
        "NOT NULL, rules TEXT NOT NULL, content TEXT NOT NULL, PRIMARY KEY (table_id, game_id))",
        "CREATE INDEX IF NOT EXISTS parlor_result_keys_content ON parlor_result_keys (content)",
        "CREATE TABLE IF NOT EXISTS parlor_rules (digest TEXT PRIMARY KEY, name TEXT NOT NULL, "
        "approved_by TEXT, approved TEXT)",
        # A kiosk's change to a finished game, held for staff (kiosk.parlor.store.held).
        "CREATE TABLE IF NOT EXISTS parlor_held (table_id BIGINT NOT NULL, game_id TEXT NOT "
        "NULL, cut INTEGER NOT NULL, events INTEGER NOT NULL, body TEXT NOT NULL, received "
        "TEXT NOT NULL, PRIMARY KEY (table_id, game_id))",
        # The last held change of a game staff refused (the daily report says so).
        "CREATE TABLE IF NOT EXISTS parlor_held_refused (table_id BIGINT NOT NULL, game_id "
        "TEXT NOT NULL, kind TEXT NOT NULL, refused TEXT NOT NULL, PRIMARY KEY (table_id, "
        "game_id))",
        # What each table stored per clock hour, against its quota (kiosk.parlor.store.quota).
        "CREATE TABLE IF NOT EXISTS parlor_usage (table_id BIGINT NOT NULL, hour TEXT NOT NULL, "
        "games INTEGER NOT NULL, bytes BIGINT NOT NULL, PRIMARY KEY (table_id, hour))",
    )


@dataclass(frozen=True, slots=True)
class TableRow:
    id: int
    name: str
    revoked: bool
    created: str

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "revoked": self.revoked, "created": self.created}


@dataclass(frozen=True, slots=True)
class Member:
    id: int
    number: str
    name: str
    created: str

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "created": self.created}


def member_name(raw: object, field: str = "name") -> str:
    problem = text_problem(raw, NAME_LENGTH)
    if problem is None and isinstance(raw, str) and not raw.strip():
        problem = "a name cannot be empty"
    found = BIDI.search(raw) if problem is None and isinstance(raw, str) else None
    if found:
        problem = (f"has a bidirectional control character (U+{ord(found.group()):04X}), "
                   "which would turn the text around it")
    if problem:
        raise ParlorError(f"{field}: {problem}", 400, field)
    assert isinstance(raw, str)
    return raw.strip()


def member_number(raw: object, field: str = "number") -> str:
    if not isinstance(raw, str) or not MEMBER_NUMBER.fullmatch(raw):
        raise ParlorError(f"{field}: a member number is 1-16 letters, digits or '-', got "
                          f"{repr(raw)[:40]}", 400, field)
    return raw


class ParlorStore:
    def __init__(self, db: Database) -> None:
        self.db = db
        with db.transaction() as tx:
            if db.dialect == "postgresql":  # two parlor processes starting together
                tx.run("SELECT pg_advisory_xact_lock(7254)")
            for statement in schema(db.serial):
                tx.run(statement)
            found = tx.rows("SELECT value FROM parlor_meta WHERE key = 'schema'")
            if not found:
                tx.run("INSERT INTO parlor_meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                tx.run("INSERT INTO parlor_meta VALUES ('secret_key', ?)",
                       (secrets.token_hex(32),))
            elif found[0][0] != str(SCHEMA_VERSION):
                raise ParlorError(f"the database has parlor schema {found[0][0]}; this parlor "
                                  f"reads {SCHEMA_VERSION}")

    def close(self) -> None:
        self.db.close()

    def secret_key(self) -> str:
        """Signs staff sessions; kept in the database so every parlor process shares it."""
        with self.db.transaction() as tx:
            return str(tx.rows("SELECT value FROM parlor_meta WHERE key = 'secret_key'")[0][0])

    # --- tables ----------------------------------------------------------------------------

    def add_table(self, name: str, replace: bool = False) -> str:
        """A new table (or, with `replace`, a new token for an existing one); returns the token,
        of which only the digest is kept."""
        problem = auth.name_problem(name)
        if problem is None and name.lower() in RESERVED_TABLES:
            problem = f"{name!r} is reserved (the daily report's total line)"
        if problem:
            raise ParlorError(f"table name {problem}", 400, "name")
        token = auth.new_token()
        with self.db.transaction() as tx:
            found = tx.rows("SELECT id FROM parlor_tables WHERE name = ?", (name,))
            if found and not replace:
                raise ParlorError(f"table {name!r} exists already (a new token for it: "
                                  "add-table --replace)")
            if found:
                tx.run("UPDATE parlor_tables SET token_digest = ?, revoked = 0 WHERE id = ?",
                       (auth.token_digest(token), found[0][0]))
            else:
                tx.run("INSERT INTO parlor_tables (name, token_digest, revoked, created) "
                       "VALUES (?, ?, 0, ?)", (name, auth.token_digest(token), now()))
        return token

    def revoke_table(self, name: str) -> None:
        with self.db.transaction() as tx:
            if not tx.rows("SELECT id FROM parlor_tables WHERE name = ?", (name,)):
                raise ParlorError(f"no table {name!r}", 404, "name")
            tx.run("UPDATE parlor_tables SET revoked = 1 WHERE name = ?", (name,))

    def table_for_token(self, token: str) -> TableRow | None:
        """The table this token was issued to, unless it was revoked (or replaced)."""
        with self.db.transaction() as tx:
            rows = tx.rows("SELECT id, name, revoked, created FROM parlor_tables "
                           "WHERE token_digest = ?", (auth.token_digest(token),))
        table = _table(rows[0]) if rows else None
        return None if table is None or table.revoked else table

    def tables(self) -> list[TableRow]:
        with self.db.transaction() as tx:
            rows = tx.rows("SELECT id, name, revoked, created FROM parlor_tables ORDER BY name")
        return [_table(r) for r in rows]

    # --- staff ------------------------------------------------------------------------------

    def add_staff(self, name: str, password: str, replace: bool = False) -> None:
        problem = auth.name_problem(name) or auth.password_problem(password)
        if problem:
            raise ParlorError(f"staff {problem}", 400)
        hashed = auth.hash_password(password)
        with self.db.transaction() as tx:
            if tx.rows("SELECT name FROM parlor_staff WHERE name = ?", (name,)):
                if not replace:
                    raise ParlorError(f"staff {name!r} exists already (a new password: "
                                      "add-staff --replace)")
                tx.run("UPDATE parlor_staff SET password = ? WHERE name = ?", (hashed, name))
                end_sessions(tx, staff=name)  # a copied cookie dies with the old password
            else:
                tx.run("INSERT INTO parlor_staff VALUES (?, ?, ?)", (name, hashed, now()))

    def remove_staff(self, name: str) -> None:
        """The staff member can no longer sign in, and every sign-in of theirs ends now."""
        with self.db.transaction() as tx:
            if not tx.rows("SELECT 1 FROM parlor_staff WHERE name = ?", (name,)):
                raise ParlorError(f"no staff {name!r}", 404, "name")
            tx.run("DELETE FROM parlor_staff WHERE name = ?", (name,))
            end_sessions(tx, staff=name)

    def check_staff(self, name: object, password: object) -> bool:
        """One scrypt check whether or not the name exists (an unknown name is checked against
        a fixed dummy hash), so the time taken does not say which names exist."""
        rows: list[tuple[Any, ...]] = []
        if isinstance(name, str) and not auth.name_problem(name):
            with self.db.transaction() as tx:
                rows = tx.rows("SELECT password FROM parlor_staff WHERE name = ?", (name,))
        stored = rows[0][0] if rows else auth.dummy_hash()
        return auth.check_password(password, stored) and bool(rows)

    def is_staff(self, name: str) -> bool:
        with self.db.transaction() as tx:
            return bool(tx.rows("SELECT 1 FROM parlor_staff WHERE name = ?", (name,)))

    # --- members ----------------------------------------------------------------------------

    def members(self, search: str = "", limit: int = 100, offset: int = 0) -> list[Member]:
        """Members by number; `search` matches a part of the name (any case) or the number."""
        limit = max(1, min(limit, MEMBERS_LISTED))
        with self.db.transaction() as tx:
            if search:
                # LIKE's own wildcards from outside would make any search match everyone.
                pattern = "%" + search.lower().replace("\\", "").replace("%", "").replace(
                    "_", "") + "%"
                rows = tx.rows("SELECT id, number, name, created FROM parlor_members WHERE "
                               "lower(name) LIKE ? OR number = ? ORDER BY number LIMIT ? "
                               "OFFSET ?", (pattern, search, limit, offset))
            else:
                rows = tx.rows("SELECT id, number, name, created FROM parlor_members "
                               "ORDER BY number LIMIT ? OFFSET ?", (limit, offset))
        return [Member(*r) for r in rows]

    def members_by_id(self, ids: set[int]) -> dict[int, Member]:
        """The members of these ids (the boards and statistics name them), in chunks of 500."""
        found: dict[int, Member] = {}
        wanted = sorted(ids)
        with self.db.transaction() as tx:
            for i in range(0, len(wanted), MEMBERS_LISTED):
                chunk = wanted[i:i + MEMBERS_LISTED]
                rows = tx.rows("SELECT id, number, name, created FROM parlor_members WHERE id IN "
                               f"({', '.join('?' * len(chunk))})", chunk)
                found.update((int(r[0]), Member(int(r[0]), *r[1:])) for r in rows)
        return found

    def member(self, number: str) -> Member:
        with self.db.transaction() as tx:
            return _member(tx, number)

    def add_member(self, name: str, number: str | None = None) -> Member:
        """A new member; without a number, the next free one of the form 00001."""
        with self.db.transaction() as tx:
            if number is None:
                count = int(tx.rows("SELECT COUNT(*) FROM parlor_members")[0][0])
                number = f"{count + 1:05d}"
                while tx.rows("SELECT 1 FROM parlor_members WHERE number = ?", (number,)):
                    count += 1
                    number = f"{count + 1:05d}"
            elif tx.rows("SELECT 1 FROM parlor_members WHERE number = ?", (number,)):
                raise ParlorError(f"number: member {number} exists already", 409, "number")
            tx.run("INSERT INTO parlor_members (number, name, created) VALUES (?, ?, ?)",
                   (number, name, now()))
            return _member(tx, number)

    def update_member(self, number: str, name: str) -> Member:
        with self.db.transaction() as tx:
            _member(tx, number)
            tx.run("UPDATE parlor_members SET name = ? WHERE number = ?", (name, number))
            return _member(tx, number)

    def delete_member(self, number: str) -> None:
        with self.db.transaction() as tx:
            found = _member(tx, number)
            # Their seats turn into guests' (results keep the games); their sign-in goes.
            tx.run("DELETE FROM parlor_seats WHERE member_id = ?", (found.id,))
            tx.run("DELETE FROM parlor_member_logins WHERE member_id = ?", (found.id,))
            end_sessions(tx, member_id=found.id)
            tx.run("DELETE FROM parlor_members WHERE number = ?", (number,))


def end_sessions(tx: Tx, staff: str | None = None, member_id: int | None = None) -> None:
    """End every sign-in of this staff member or member (kiosk.parlor.web.sessions)."""
    if staff is not None:
        tx.run("DELETE FROM parlor_sessions WHERE staff = ?", (staff,))
    if member_id is not None:
        tx.run("DELETE FROM parlor_sessions WHERE member_id = ?", (member_id,))


def _table(row: tuple[Any, ...]) -> TableRow:
    return TableRow(int(row[0]), row[1], bool(row[2]), row[3])


def _member(tx: Tx, number: str) -> Member:
    rows = tx.rows("SELECT id, number, name, created FROM parlor_members WHERE number = ?",
                   (number,))
    if not rows:
        raise ParlorError(f"no member {number!r}", 404, "number")
    return Member(*rows[0])
