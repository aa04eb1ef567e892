"""A table's quota: the new games and the bytes of new events its token may store per hour and
per day, so one table (a broken kiosk, a leaked token) cannot fill the database or slow every
statistic down. Counted per clock hour (UTC) in `parlor_usage`, in the batch's own transaction
(a refused or failed batch counts nothing; every parlor process sees the same); "a day" is the
last 24 clock hours. Far above a real table's evening, which plays about ten games.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from kiosk.parlor.store.registry import ParlorError
from kiosk.store.event_log import Tx

HOUR, DAY = timedelta(hours=1), timedelta(hours=24)


@dataclass(frozen=True, slots=True)
class Quota:
    games_per_hour: int = 60
    games_per_day: int = 300
    mb_per_hour: int = 16
    mb_per_day: int = 64


class OverQuota(ParlorError):
    """429: what is used up, and in how many seconds a batch of this size fits again."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, 429, "quota")
        self.retry_after = retry_after


def charge(tx: Tx, table_id: int, quota: Quota, at: datetime, games: int, size: int) -> None:
    """Count `games` new games and `size` bytes of new events against the table's quota, or
    raise `OverQuota` (nothing counted) naming the limit. A batch adding nothing always passes."""
    if not games and not size:
        return
    hour = at.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
    tx.run("DELETE FROM parlor_usage WHERE table_id = ? AND hour <= ?",
           (table_id, (hour - DAY).isoformat()))
    used = [(datetime.fromisoformat(h), int(g), int(b)) for h, g, b in tx.rows(
        "SELECT hour, games, bytes FROM parlor_usage WHERE table_id = ? ORDER BY hour",
        (table_id,))]
    mb = 2**20
    for option, new, limit, window in (
            ("games-per-hour", games, quota.games_per_hour, HOUR),
            ("games-per-day", games, quota.games_per_day, DAY),
            ("mb-per-hour", size, quota.mb_per_hour * mb, HOUR),
            ("mb-per-day", size, quota.mb_per_day * mb, DAY)):
        counts = option.startswith("games")
        buckets = [(h, g if counts else b) for h, g, b in used if h > hour - window]
        total = sum(n for _, n in buckets)
        if not new or total + new <= limit:
            continue
        freed, wait = 0, window  # until enough of the oldest hours have left the window
        for start, count in buckets:
            freed += count
            if total - freed + new <= limit:
                wait = start + window - at
                break
        seconds = max(1, int(wait.total_seconds()) + 1)
        unit, most = ("new games", f"{limit:,}") if counts else ("bytes of events",
                                                                 f"{limit // mb} MB")
        raise OverQuota(f"this table's quota is used up: {total:,} {unit} stored in the last "
                        f"{'hour' if window == HOUR else '24 hours'}, this batch adds {new:,}, "
                        f"at most {most} (the parlor's --{option}); try again in "
                        f"{seconds:,} s", seconds)
    tx.run("INSERT INTO parlor_usage (table_id, hour, games, bytes) VALUES (?, ?, ?, ?) "
           "ON CONFLICT (table_id, hour) DO UPDATE SET games = parlor_usage.games + "
           "excluded.games, bytes = parlor_usage.bytes + excluded.bytes",
           (table_id, hour.isoformat(), games, size))

