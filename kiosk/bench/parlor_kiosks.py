"""The benchmark's simulated kiosks: each a real kiosk store (SQLite, as a table's kiosk keeps)
and a real outbox posting to the parlor over HTTP, fed legal hands by a thread of its own.

A hand is what a table records when it ends one: sometimes a riichi first, then a win (ron or
tsumo, 1-4 han at 30 fu) or an exhaustive draw; a finished game is followed by a new one.
Every event goes through the kiosk store's own `append` (replayed and checked by the scorer's
table), then the outbox is woken as the kiosk wakes it. Nothing is mocked past the kiosk's
screen: the outbox's batches, receipts and retries are the kiosk's.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.parlor.link.client import ParlorLink
from kiosk.parlor.link.outbox import Outbox
from kiosk.store.sqlite import SqliteStore
from scorer.rules import RULESETS
from scorer.table import (
    Event,
    ExhaustiveDraw,
    GameStarted,
    IllegalEvent,
    RiichiDeclared,
    TableState,
    Win,
    WinningHand,
    apply,
    start,
)

PLAYERS = ("East", "South", "West", "North")


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand recorded: its table, game, the game's event count after it, and when (epoch s,
    as the browser's Date.now() counts, so the two clocks compare on one machine)."""

    table: str
    game: str
    events: int
    recorded: float


class TimedOutbox(Outbox):
    """The kiosk's outbox, noting each HTTP call's latency and when each event was first posted."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.calls: list[tuple[float, bool]] = []  # (seconds, answered 2xx)
        self.first_posted: dict[tuple[str, int], float] = {}  # (game, index) -> epoch s

    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        sent, clock = time.time(), time.perf_counter()
        for game in body["games"]:
            for event in game["events"]:
                self.first_posted.setdefault((game["game"], event["index"]), sent)
        ok = False
        try:
            answer = super().post(body)
            ok = True
            return answer
        finally:
            self.calls.append((time.perf_counter() - clock, ok))


@dataclass
class SimKiosk:
    """One table: its store, its outbox, and the hands it recorded (games in order)."""

    table: str
    store: SqliteStore
    outbox: TimedOutbox
    rng: random.Random
    games: list[str] = field(default_factory=list)
    hands: list[Hand] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    _state: TableState | None = None
    _count: int = 0

    @classmethod
    def open(cls, folder: Path, url: str, table: str, token: str, seed: int) -> SimKiosk:
        store = SqliteStore(folder / "kiosk.sqlite3")
        outbox = TimedOutbox(store, ParlorLink(url, table, token))
        return cls(table, store, outbox, random.Random(seed))

    def _new_game(self) -> None:
        first = GameStarted(PLAYERS, RULESETS["tenhou"], first_dealer=self.rng.randrange(4))
        self.games.append(self.store.create(first))
        self._state, self._count = start(first), 1

    def _record(self, event: Event) -> bool:
        """Append one event if the table allows it (a riichi without 1,000 points does not)."""
        assert self._state is not None
        try:
            state = apply(self._state, event)
        except IllegalEvent:
            return False
        self.store.append(self.games[-1], self._count, event)  # checked again, as a kiosk does
        self._state, self._count = state, self._count + 1
        return True

    def _ending(self) -> Event:
        seats = range(4)
        if self.rng.random() < 0.25:
            return ExhaustiveDraw(frozenset(s for s in seats if self.rng.random() < 0.5))
        winner = self.rng.randrange(4)
        hand = WinningHand(winner, self.rng.randint(1, 4), 30)
        if self.rng.random() < 0.4:
            return Win.tsumo(hand)
        return Win.ron(self.rng.choice([s for s in seats if s != winner]), hand)

    def play_hand(self) -> None:
        """One hand (a new game first when the last one ended), then wake the outbox."""
        if self._state is None or self._state.finished:
            self._new_game()
        if self.rng.random() < 0.3:
            self._record(RiichiDeclared(self.rng.randrange(4)))
        if not self._record(self._ending()):
            self._record(ExhaustiveDraw())  # a draw nobody was tenpai for always follows
        self.hands.append(Hand(self.table, self.games[-1], self._count, time.time()))
        self.outbox.wake()

    def run(self, until: float, every: float, stop: threading.Event) -> None:
        """Hands at `every` s on average (uniform 0.5-1.5 x), starting at a random phase."""
        due = time.monotonic() + self.rng.uniform(0, every)
        while not stop.is_set():
            stop.wait(max(0.0, due - time.monotonic()))
            if stop.is_set() or time.monotonic() >= until:
                return
            try:
                self.play_hand()
            except Exception as error:  # noqa: BLE001  (counted and reported, the run goes on)
                self.errors.append(f"{type(error).__name__}: {error}"[:300])
            due += every * self.rng.uniform(0.5, 1.5)

    def events(self) -> dict[str, list[str]]:
        """Every game's events (JSON by index) in the kiosk's store."""
        with self.store.transaction(write=False) as tx:
            rows = tx.rows("SELECT game_id, idx, body FROM events ORDER BY game_id, idx")
        out: dict[str, list[str]] = {}
        for game, _index, body in rows:
            out.setdefault(game, []).append(body)
        return out

    def close(self) -> None:
        self.outbox.stop()
        self.store.close()


def play(kiosks: list[SimKiosk], seconds: float, every: float,
         stop: threading.Event) -> list[threading.Thread]:
    """Start every kiosk's outbox and its player thread; returns the player threads."""
    until = time.monotonic() + seconds
    threads = []
    for kiosk in kiosks:
        kiosk.outbox.start()
        thread = threading.Thread(target=kiosk.run, args=(until, every, stop),
                                  name=f"bench-{kiosk.table}", daemon=True)
        thread.start()
        threads.append(thread)
    return threads
