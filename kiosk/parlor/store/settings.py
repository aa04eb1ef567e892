"""The parlor's settings (its time zone, the fee per game, the leaderboards' minimum games) and
its seasons, kept in the database so every parlor process and the CLI see the same.

Days are the parlor's local days: a game belongs to the day (and month, and season) on which
its first event reached the parlor, in the parlor's time zone. The stored times are UTC, so a
period of local days becomes one [start, end) range of UTC text, which sorts as it reads.

>>> p = Period.of(date(2024, 3, 1), date(2024, 3, 31), ZoneInfo("Asia/Tokyo"))
>>> p.start, p.end
('2024-02-29T15:00:00.000+00:00', '2024-03-31T15:00:00.000+00:00')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from kiosk.parlor.store.db import Database
from kiosk.parlor.store.registry import ParlorError

FIRST_DAY, LAST_DAY = date(2000, 1, 1), date(2099, 12, 31)  # every date asked for is in here
FEE = re.compile(r"\d{1,7}(\.\d{1,2})?")
SEASON_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}")
MAX_SEASONS = 200
MIN_GAMES_MAX = 10_000


def bad(field: str, problem: str) -> ParlorError:
    return ParlorError(f"{field}: {problem}", 400, field)


def parse_date(raw: object, field: str) -> date:
    if isinstance(raw, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw):
        try:
            day = date.fromisoformat(raw)
        except ValueError:
            day = None
        if day is not None and FIRST_DAY <= day <= LAST_DAY:
            return day
    raise bad(field, f"expected a date YYYY-MM-DD from {FIRST_DAY} to {LAST_DAY}, got "
                     f"{repr(raw)[:30]}")


def parse_month(raw: object, field: str = "month") -> tuple[date, date]:
    """``2024-03`` as its first and last day."""
    if isinstance(raw, str) and re.fullmatch(r"\d{4}-\d{2}", raw) and 1 <= int(raw[5:]) <= 12:
        first = date(int(raw[:4]), int(raw[5:]), 1)
        if FIRST_DAY <= first <= LAST_DAY:
            after = date(first.year + first.month // 12, first.month % 12 + 1, 1)
            return first, after - timedelta(days=1)
    raise bad(field, f"expected a month YYYY-MM, got {repr(raw)[:30]}")


def parse_zone(raw: object, field: str = "timezone") -> tzinfo:
    """An IANA zone name (``Asia/Tokyo``), or "" for this server's own zone."""
    if raw == "":
        local = datetime.now().astimezone().tzinfo
        return local if local is not None else UTC
    if isinstance(raw, str) and re.fullmatch(r"[A-Za-z0-9_+/-]{1,60}", raw) and ".." not in raw:
        try:
            return ZoneInfo(raw)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    raise bad(field, f"expected a time zone name such as 'Asia/Tokyo' (or '' for the server's "
                     f"own), got {repr(raw)[:40]}")


def utc_text(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class Period:
    """Local days `first`..`last` (both included) and the UTC range [start, end) they cover."""

    first: date
    last: date
    start: str
    end: str

    @classmethod
    def of(cls, first: date, last: date, zone: tzinfo, field: str = "to") -> Period:
        if last < first:
            raise bad(field, f"the period ends ({last}) before it begins ({first})")
        start = datetime.combine(first, time(), zone)
        end = datetime.combine(last + timedelta(days=1), time(), zone)
        return cls(first, last, utc_text(start), utc_text(end))

    def to_json(self) -> dict[str, str]:
        return {"from": self.first.isoformat(), "to": self.last.isoformat()}


@dataclass(frozen=True, slots=True)
class Settings:
    timezone: str = ""  # "" = this server's own zone
    fee_per_game: Decimal = Decimal(0)  # charged per finished game, in the parlor's currency
    min_games: int = 5  # a leaderboard's default minimum of games

    @property
    def zone(self) -> tzinfo:
        return parse_zone(self.timezone)

    def today(self) -> date:
        return datetime.now(self.zone).date()

    def to_json(self) -> dict[str, Any]:
        return {"timezone": self.timezone, "fee_per_game": str(self.fee_per_game),
                "min_games": self.min_games}


def parse_fee(raw: object, field: str = "fee_per_game") -> Decimal:
    text = str(raw) if isinstance(raw, int | float | Decimal) and not isinstance(raw, bool) \
        else raw
    if isinstance(text, str) and FEE.fullmatch(text):
        try:
            return Decimal(text)
        except InvalidOperation:
            pass
    raise bad(field, f"expected an amount such as 500 or 4.50 (at most 9,999,999.99), got "
                     f"{repr(raw)[:30]}")


def parse_min_games(raw: object, field: str = "min_games") -> int:
    if isinstance(raw, str) and raw.isdigit() and len(raw) <= 6:
        raw = int(raw)
    if isinstance(raw, int) and not isinstance(raw, bool) and 0 <= raw <= MIN_GAMES_MAX:
        return raw
    raise bad(field, f"expected a whole number from 0 to {MIN_GAMES_MAX:,}, got "
                     f"{repr(raw)[:30]}")


SETTING_KEYS = ("timezone", "fee_per_game", "min_games")


def read_settings(db: Database) -> Settings:
    with db.transaction() as tx:
        rows = dict(tx.rows("SELECT key, value FROM parlor_meta WHERE key IN (?, ?, ?)",
                            tuple(f"setting:{k}" for k in SETTING_KEYS)))
    default = Settings()
    return Settings(rows.get("setting:timezone", default.timezone),
                    Decimal(rows.get("setting:fee_per_game", default.fee_per_game)),
                    int(rows.get("setting:min_games", default.min_games)))


def update_settings(db: Database, changes: dict[str, Any]) -> Settings:
    """Checks every value first (naming the field of a wrong one), then stores them together."""
    unknown = sorted(str(k)[:40] for k in set(changes) - set(SETTING_KEYS))
    if unknown:
        raise bad(unknown[0], f"unknown setting (known: {', '.join(SETTING_KEYS)})")
    values: dict[str, str] = {}
    if "timezone" in changes:
        parse_zone(changes["timezone"])
        values["timezone"] = changes["timezone"]
    if "fee_per_game" in changes:
        values["fee_per_game"] = str(parse_fee(changes["fee_per_game"]))
    if "min_games" in changes:
        values["min_games"] = str(parse_min_games(changes["min_games"]))
    with db.transaction() as tx:
        for key, value in values.items():
            tx.run("DELETE FROM parlor_meta WHERE key = ?", (f"setting:{key}",))
            tx.run("INSERT INTO parlor_meta VALUES (?, ?)", (f"setting:{key}", value))
    return read_settings(db)


@dataclass(frozen=True, slots=True)
class Season:
    name: str
    first: date
    last: date

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "from": self.first.isoformat(), "to": self.last.isoformat()}


def season_name(raw: object, field: str = "name") -> str:
    if isinstance(raw, str) and SEASON_NAME.fullmatch(raw) and raw == raw.strip():
        return raw
    raise bad(field, f"a season's name is 1-40 letters, digits, spaces, '.', '_' or '-', got "
                     f"{repr(raw)[:50]}")


def seasons(db: Database) -> list[Season]:
    with db.transaction() as tx:
        rows = tx.rows("SELECT name, first_day, last_day FROM parlor_seasons "
                       "ORDER BY first_day, name")
    return [Season(n, date.fromisoformat(f), date.fromisoformat(t)) for n, f, t in rows]


def season(db: Database, name: str, field: str = "season") -> Season:
    with db.transaction() as tx:
        rows = tx.rows("SELECT name, first_day, last_day FROM parlor_seasons WHERE name = ?",
                       (name,))
    if not rows:
        raise ParlorError(f"{field}: no season {name[:40]!r}", 404, field)
    n, f, t = rows[0]
    return Season(n, date.fromisoformat(f), date.fromisoformat(t))


def add_season(db: Database, name: object, first: object, last: object) -> Season:
    new = Season(season_name(name), parse_date(first, "from"), parse_date(last, "to"))
    Period.of(new.first, new.last, UTC)  # the order of the two days
    with db.transaction() as tx:
        if tx.rows("SELECT 1 FROM parlor_seasons WHERE name = ?", (new.name,)):
            raise ParlorError(f"name: season {new.name!r} exists already", 409, "name")
        if int(tx.rows("SELECT COUNT(*) FROM parlor_seasons")[0][0]) >= MAX_SEASONS:
            raise ParlorError(f"at most {MAX_SEASONS} seasons (remove an old one)", 409)
        tx.run("INSERT INTO parlor_seasons VALUES (?, ?, ?)",
               (new.name, new.first.isoformat(), new.last.isoformat()))
    return new


def remove_season(db: Database, name: str) -> None:
    season(db, name, "name")
    with db.transaction() as tx:
        tx.run("DELETE FROM parlor_seasons WHERE name = ?", (name,))
