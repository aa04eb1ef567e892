"""The counter's day: each table's games with their results, and the daily report (CSV).

A game belongs to the local day its first event reached the parlor. The report counts finished
games only (a game still running is charged the day it started, once it ends), their hours from
the first event's arrival to the last's, and the fee per game (`Settings.fee_per_game`). A game a
kiosk asked to cut or rewrite after it finished is counted as the parlor holds it, and named in
its table's line with the request's state (`held_changes`: "game uma1: cut pending"; "refused"
once staff refused it; `kiosk.parlor.store.held`); the total line counts such games. Each line
also says the chips (祝儀) the finished games moved (the chips won) and the fees their players
paid under the rules' stakes (`Ruleset.stakes`: the game fee, first place's on top).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from kiosk.parlor.standings.stats import games_of
from kiosk.parlor.store.registry import Member
from kiosk.parlor.store.results import SeatRow
from kiosk.parlor.store.settings import Period


@dataclass(frozen=True, slots=True)
class PlayedGame:
    table: str
    game: str
    started: str
    ended: str
    finished: bool
    hands: int
    seats: tuple[SeatRow, ...]
    held: str | None = None  # a change after it finished: "cut pending", "rewrite refused", ...

    @property
    def hours(self) -> float:
        seconds = (datetime.fromisoformat(self.ended)
                   - datetime.fromisoformat(self.started)).total_seconds()
        return max(0.0, seconds) / 3600

    def to_json(self, members: dict[int, Member]) -> dict[str, Any]:
        return {
            "table": self.table, "game": self.game, "started": self.started,
            "last_event": self.ended, "finished": self.finished, "hands": self.hands,
            "held": self.held,
            "seats": [{"seat": s.seat, "player": s.player,
                       "member": members[s.member].number if s.member in members else None,
                       "points": s.points, "place": s.rank, "score": s.score,
                       "chips": s.chips, "money": s.money}
                      for s in self.seats],
        }


def played_games(rows: Iterable[SeatRow],
                 held: dict[tuple[str, str], str] | None = None) -> list[PlayedGame]:
    """Games of `rows`, each with its held change's state from `held` (`held.states`)."""
    held = held or {}
    return [PlayedGame(g[0].table, g[0].game, g[0].started, g[0].ended, g[0].finished,
                       g[0].hands, tuple(g), held.get((g[0].table, g[0].game)))
            for g in games_of(rows)]


def by_table(games: Iterable[PlayedGame]) -> dict[str, list[PlayedGame]]:
    """Games grouped by table name (tables in name order, games in order of starting)."""
    out: dict[str, list[PlayedGame]] = {}
    for game in sorted(games, key=lambda g: (g.table, g.started, g.game)):
        out.setdefault(game.table, []).append(game)
    return out


@dataclass(frozen=True, slots=True)
class ReportLine:
    table: str
    games: int  # finished
    running: int  # started that day and not finished (yet)
    hours: float
    fees: Decimal
    held: tuple[str, ...] = ()  # "game uma1: cut pending", ... (the total: none)
    held_games: int = 0
    chips: int = 0  # the chips the finished games moved (won by their winners)
    stake_fees: int = 0  # what their players paid the house under the rules' stakes


def daily_report(tables: Iterable[str], games: Iterable[PlayedGame],
                 fee: Decimal) -> list[ReportLine]:
    """One line a table (every table, idle ones too), then the total."""
    grouped = by_table(games)
    lines = []
    for table in sorted(set(tables) | set(grouped)):
        mine = grouped.get(table, [])
        done = [g for g in mine if g.finished]
        changed = tuple(f"game {g.game}: {g.held}" for g in mine if g.held)
        seats = [s for g in done for s in g.seats]
        lines.append(ReportLine(table, len(done), len(mine) - len(done),
                                sum(g.hours for g in done), fee * len(done), changed,
                                len(changed), sum(max(s.chips, 0) for s in seats),
                                sum(s.fee for s in seats)))
    lines.append(ReportLine("total", sum(line.games for line in lines),
                            sum(line.running for line in lines),
                            sum(line.hours for line in lines), fee * sum(x.games for x in lines),
                            (), sum(line.held_games for line in lines),
                            sum(line.chips for line in lines),
                            sum(line.stake_fees for line in lines)))
    return lines


def report_csv(period: Period, fee: Decimal, lines: Iterable[ReportLine]) -> str:
    """The report as CSV (a header, one row a table, the total last); hours to two places;
    `held_changes` names a table's games with a change held or refused ("; " between them), and
    on the total line counts them; `chips` the chips moved, `stake_fees` the fees paid under the
    games' stakes."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["date", "table", "games", "running", "hours", "fee_per_game", "fees",
                     "held_changes", "chips", "stake_fees"])
    for line in lines:
        writer.writerow([period.first.isoformat(), line.table, line.games, line.running,
                         f"{line.hours:.2f}", f"{fee:.2f}", f"{line.fees:.2f}",
                         str(line.held_games) if line.table == "total"
                         else "; ".join(line.held), line.chips, line.stake_fees])
    return out.getvalue()
