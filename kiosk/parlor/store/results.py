"""Each game's result per seat, derived from its stored events and kept beside them.

Statistics, leaderboards and the counter's pages read these rows instead of replaying every game
on every request. A row is only a cache of the replay: it carries the game's (revision, events)
it was built from, and `refresh` rebuilds every game whose stored events moved since (a new
event, or an undo that the kiosk sent), so nothing here can drift from what the kiosks recorded.

Facts per seat come from the scorer's own fold (`scorer.table.apply`) and settlement: the final
place and score are the scorer's `Standing` (its tie rule: seat order from the first dealer,
shared places where `split_ties`); a win's value is what the hand alone pays the winner
(`hand_payment` with no honba and no sticks); the hands a rule does not pay (atamahane, a triple
ron that aborts) are no wins.

Chips and money (issue 39): each seat's chips as the table kept them (`TableState.chips`), and
for a finished game whose rules have stakes (`Ruleset.stakes`) the money it settles and the fee
it paid the house (`scorer.table.money.settle_money`), kept in `parlor_result_money`.

Which member sat where: a staff member's link (`parlor_seats`) first, else a player name ending
in ``#NUMBER`` (the member's number, e.g. ``Ana #00012``: what a kiosk writes for a member it
picked or whose card it scanned); anyone else is a guest. A card holds no secret, so a tag alone
is not trusted: the statistics and boards (`seat_rows(confirmed_only=True)`, the default for
finished games) count a member only at a seat staff confirmed (a link, or the tag confirmed as it
stands: `POST /api/games/<table>/<game>/seats/<seat>/confirm`); the day's games show the tag.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass, replace
from typing import Any

from kiosk.parlor.store import integrity, ledger
from kiosk.parlor.store.db import Database
from kiosk.parlor.store.registry import MEMBER_NUMBER, ParlorError
from kiosk.store.event_log import Tx
from scorer.rules import Ruleset
from scorer.table import (
    AbortiveDraw,
    Chombo,
    Event,
    ExhaustiveDraw,
    GameStarted,
    IllegalEvent,
    RiichiDeclared,
    TableState,
    Win,
    apply,
)
from scorer.table.money import settle_money
from scorer.table.settlement import hand_payment, rons_paid

log = logging.getLogger(__name__)
MEMBER_TAG = re.compile(rf"#({MEMBER_NUMBER.pattern})\s*$")
HAND_ENDS = (Win, ExhaustiveDraw, AbortiveDraw, Chombo)  # each ends a hand (a chombo's redeal)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of one game: the final place and score (None while the game runs) and counts."""

    seat: int
    player: str
    tag: str | None  # the member number in the player's name, if any
    points: int
    rank: int | None  # the scorer's place (shared by tied players where ties are split)
    low: int | None  # the lowest place the seat occupies (= rank unless tied and split)
    score: float | None  # final score in thousands, uma and oka included
    wins: int
    win_points: int  # what the won hands paid this seat, honba and sticks left out
    deal_ins: int
    riichi: int
    chips: int = 0  # won (+) or paid (-)
    money: int | None = None  # settled, fee paid (None: not finished, or no stakes)
    fee: int = 0  # what the seat paid the house (game fee, first place's on top)


@dataclass(frozen=True, slots=True)
class GameResult:
    finished: bool
    hands: int  # hands played (each win, draw, abortive draw or chombo ends one)
    ruleset: str
    seats: tuple[SeatResult, ...]


def member_tag(player: str) -> str | None:
    """The member number a player's name carries.

    >>> member_tag("Ana #00012"), member_tag("#A-7"), member_tag("Ben")
    ('00012', 'A-7', None)
    """
    found = MEMBER_TAG.search(player)
    return found.group(1) if found else None


def game_result(events: list[Event]) -> GameResult:
    """Fold a game's events (the scorer's table) and count each seat's wins, deal-ins, riichi."""
    state: TableState | None = None
    hands = 0
    counts: list[list[int]] = []  # per seat: wins, win points, deal-ins, riichi
    for event in events:
        before = state
        state = apply(state, event)
        if isinstance(event, GameStarted):
            counts = [[0, 0, 0, 0] for _ in range(state.seats)]
        elif isinstance(event, RiichiDeclared):
            counts[event.seat][3] += 1
        elif isinstance(event, Win) and before is not None:
            paid = rons_paid(event, before.rules) or ()
            for hand in paid:
                value = hand_payment(hand, before.rules, before.dealer, event.discarder, 0, 0)
                counts[hand.winner][0] += 1
                counts[hand.winner][1] += value[hand.winner]
            if paid and event.discarder is not None:
                counts[event.discarder][2] += 1
        if isinstance(event, HAND_ENDS):
            hands += 1
    if state is None:
        raise IllegalEvent("a game needs at least its game_started event")
    placed = {s.seat: s for s in state.standings}
    chips = state.chips or (0,) * state.seats
    settled = {}
    if state.finished and state.standings and state.rules.stakes.settles:
        settled = {m.seat: m for m in settle_money(state.standings, chips, state.rules.stakes)}
    seats = []
    for seat, player in enumerate(state.players):
        standing = placed.get(seat)
        rank = low = None
        if standing is not None:
            rank = standing.rank
            low = rank + sum(1 for s in state.standings if s.rank == rank) - 1
        seats.append(SeatResult(
            seat, player, member_tag(player), standing.points if standing else state.points[seat],
            rank, low, float(standing.score) if standing else None, *counts[seat], chips[seat],
            settled[seat].total if seat in settled else None,
            settled[seat].fee if seat in settled else 0))
    return GameResult(state.finished, hands, state.rules.name, tuple(seats))


class Results:
    """Keeps `parlor_results` / `parlor_result_seats` up to date with the stored games."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._lock = threading.Lock()  # one rebuild at a time in this process
        integrity.seed_presets(db)

    def refresh(self) -> int:
        """Rebuild the rows of every game whose events changed since; returns how many."""
        with self._lock:
            with self.db.transaction() as tx:
                stale = tx.rows(
                    "SELECT g.table_id, g.game_id, g.revision, g.events, g.first_received, "
                    "g.last_received FROM parlor_games g LEFT JOIN parlor_results r ON "
                    "r.table_id = g.table_id AND r.game_id = g.game_id LEFT JOIN "
                    "parlor_result_keys k ON k.table_id = g.table_id AND k.game_id = g.game_id "
                    "LEFT JOIN parlor_result_money c ON c.table_id = g.table_id AND c.game_id = "
                    "g.game_id AND c.seat = 0 "
                    "WHERE r.game_id IS NULL OR r.revision <> g.revision OR r.events <> g.events "
                    "OR (k.game_id IS NULL AND r.seats > 0) OR (c.game_id IS NULL AND r.seats > 0)")
            for table_id, game, revision, count, started, ended in stale:
                self._rebuild(int(table_id), game, int(revision), int(count), started, ended)
            return len(stale)

    def _rebuild(self, table_id: int, game: str, revision: int, count: int, started: str,
                 ended: str) -> None:
        result: GameResult | None = None
        rules: Ruleset | None = None
        bodies = [b for _, b in ledger.event_bodies(self.db, table_id, game)]
        if count:
            try:
                played = ledger.events(self.db, table_id, game)
                result = game_result(played)
                rules = played[0].rules if isinstance(played[0], GameStarted) else None
            except (IllegalEvent, ParlorError) as error:  # stored events always replayed; still
                log.error("table %s, game %s does not replay: %s", table_id, game, error)
        with self.db.transaction() as tx:
            tx.run("DELETE FROM parlor_result_seats WHERE table_id = ? AND game_id = ?",
                   (table_id, game))
            tx.run("DELETE FROM parlor_result_money WHERE table_id = ? AND game_id = ?",
                   (table_id, game))
            tx.run("DELETE FROM parlor_results WHERE table_id = ? AND game_id = ?",
                   (table_id, game))
            # A game with no events (all undone) or that does not replay: a row that says so,
            # never counted, and no seats.
            tx.run("INSERT INTO parlor_results (table_id, game_id, revision, events, started, "
                   "ended, finished, seats, hands, ruleset) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                   "ON CONFLICT DO NOTHING",
                   (table_id, game, revision, count, started, ended,
                    int(bool(result and result.finished)), len(result.seats) if result else 0,
                    result.hands if result else 0, result.ruleset if result else ""))
            for s in result.seats if result else ():
                _insert_seat(tx, table_id, game, s)
            integrity.keep_keys(tx, table_id, game, rules if result else None, bodies)


def _insert_seat(tx: Tx, table_id: int, game: str, s: SeatResult) -> None:
    tx.run("INSERT INTO parlor_result_seats (table_id, game_id, seat, player, tag, points, rank, "
           "low, score, wins, win_points, deal_ins, riichi) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
           "?, ?, ?) ON CONFLICT DO NOTHING",
           (table_id, game, s.seat, s.player, s.tag, s.points, s.rank, s.low, s.score, s.wins,
            s.win_points, s.deal_ins, s.riichi))
    tx.run("INSERT INTO parlor_result_money (table_id, game_id, seat, chips, money, fee) VALUES "
           "(?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
           (table_id, game, s.seat, s.chips, s.money, s.fee))


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat of a game as the statistics read it, with the member resolved (None: a guest)."""

    table: str
    game: str
    started: str
    ended: str
    finished: bool
    seats: int
    hands: int
    seat: int
    player: str
    member: int | None
    points: int
    rank: int | None
    low: int | None
    score: float | None
    wins: int
    win_points: int
    deal_ins: int
    riichi: int
    chips: int = 0
    money: int | None = None
    fee: int = 0


SEAT_ROWS = (
    "SELECT t.name, r.game_id, r.started, r.ended, r.finished, r.seats, r.hands, s.seat, "
    "s.player, COALESCE(l.member_id, m.id), s.points, s.rank, s.low, s.score, s.wins, "
    "s.win_points, s.deal_ins, s.riichi, COALESCE(c.chips, 0), c.money, COALESCE(c.fee, 0) "
    "FROM parlor_results r "
    "JOIN parlor_tables t ON t.id = r.table_id "
    "JOIN parlor_result_seats s ON s.table_id = r.table_id AND s.game_id = r.game_id "
    "LEFT JOIN parlor_result_money c ON c.table_id = s.table_id AND c.game_id = s.game_id "
    "AND c.seat = s.seat "
    "LEFT JOIN parlor_seats l ON l.table_id = s.table_id AND l.game_id = s.game_id "
    "AND l.seat = s.seat "
    "LEFT JOIN parlor_members m ON l.member_id IS NULL AND m.number = s.tag ")


def seat_rows(db: Database, start: str, end: str, finished_only: bool = True,
              member: int | None = None, confirmed_only: bool | None = None) -> list[SeatRow]:
    """Seats of the games that started in [start, end) (UTC ISO text), oldest game first; with
    `confirmed_only` (by default where `finished_only`: what counts) a member only at a seat
    staff confirmed (`parlor_seats`), a ``#NUMBER`` alone a guest."""
    confirmed = finished_only if confirmed_only is None else confirmed_only
    who = "l.member_id" if confirmed else "COALESCE(l.member_id, m.id)"
    sql = SEAT_ROWS.replace("COALESCE(l.member_id, m.id)", who) + \
        "WHERE r.started >= ? AND r.started < ?"
    params: list[Any] = [start, end]
    if finished_only:  # the games that count (accepted rules, a hand, not a copy)
        sql += " AND r.finished = 1" + integrity.COUNTED
    if member is not None:
        sql += f" AND {who} = ?"
        params.append(member)
    with db.transaction() as tx:
        rows = tx.rows(sql + " ORDER BY r.started, t.name, r.game_id, s.seat", params)
    out = [SeatRow(r[0], r[1], r[2], r[3], bool(r[4]), int(r[5]), int(r[6]), int(r[7]), r[8],
                   None if r[9] is None else int(r[9]), int(r[10]),
                   None if r[11] is None else int(r[11]), None if r[12] is None else int(r[12]),
                   None if r[13] is None else float(r[13]), *(int(v) for v in r[14:19]),
                   None if r[19] is None else int(r[19]), int(r[20]))
           for r in rows]
    return _one_seat_per_member(out)


def _one_seat_per_member(rows: list[SeatRow]) -> list[SeatRow]:
    """A member named at two seats of one game (a mistyped tag) counts at the first only."""
    seen: set[tuple[str, str, int]] = set()
    out = []
    for row in rows:
        key = (row.table, row.game, row.member if row.member is not None else -1 - row.seat)
        if row.member is not None and key in seen:
            out.append(replace(row, member=None))
            continue
        seen.add(key)
        out.append(row)
    return out
