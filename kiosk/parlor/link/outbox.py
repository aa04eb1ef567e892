"""The kiosk's outbox: a background thread that sends the parlor what the kiosk recorded.

The kiosk writes to its own store first, as without a parlor; nothing here runs on a request's
thread, so scoring never waits on the network. Each round reads what the parlor has not
acknowledged (`outbox_state.pending`: oldest game first, in index order, batched), posts it, and
records the parlor's answer in the kiosk's store, so a restart resumes where the parlor is.

Exactly once, in order: a batch that may or may not have arrived (the answer was lost) is sent
again, and the parlor stores an event only once per (table, game, index); it never stores one
past a gap. Undo: see `kiosk.parlor.store.ledger` (revision and cut).

Unreachable parlor: the thread backs off (0.5 s doubling to `max_backoff`, with jitter) and logs
once when the parlor goes away and once when it is back, never per retry.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from kiosk.parlor.link import outbox_state
from kiosk.parlor.link.client import ParlorLink, Refused, Rejected, Unreachable, post_batch
from kiosk.store.event_log import EventStore, StoreError

log = logging.getLogger(__name__)

MAX_EVENTS = 200  # per batch: the parlor's bounds (kiosk.parlor.web.batch)
MAX_GAMES = 20
MAX_BYTES = 512 * 1024  # of events' JSON per batch, well inside the parlor's MAX_BODY


@dataclass
class OutboxStats:
    """What the outbox did, for the logs, tests and a status page."""

    sent_events: int = 0
    batches: int = 0
    failures: int = 0
    connected: bool | None = None  # None: not tried yet
    last_error: str = ""
    refused_games: set[str] = field(default_factory=set)


class Outbox:
    def __init__(self, store: EventStore, link: ParlorLink, *, poll: float = 5.0,
                 timeout: float = 10.0, max_backoff: float = 30.0, first_backoff: float = 0.5):
        self.store, self.link = store, link
        self.poll, self.timeout = poll, timeout
        self.first_backoff, self.max_backoff = first_backoff, max_backoff
        self.stats = OutboxStats()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._idle = threading.Event()  # set while nothing is left to send
        self._thread: threading.Thread | None = None
        self._trouble = ""  # what was logged last (one line per outage, not per retry)

    # --- life -------------------------------------------------------------------------------

    def start(self) -> Outbox:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="parlor-outbox", daemon=True)
            self._thread.start()
        return self

    def stop(self, wait: float = 5.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(wait)
            self._thread = None

    def wake(self) -> None:
        """Something was recorded (or undone): send it now instead of at the next poll."""
        self._idle.clear()
        self._wake.set()

    def flush(self, timeout: float) -> bool:
        """Wait until the parlor has acknowledged everything (tests, shutdown); True if so."""
        self.wake()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._idle.wait(0.05) and outbox_state.unsent(self.store) == 0:
                return True
        return False

    # --- the loop ---------------------------------------------------------------------------

    def _run(self) -> None:
        delay = 0.0
        while not self._stop.is_set():
            try:
                more = self.send_once()
            except Unreachable as error:
                delay = self._failed(f"the parlor at {self.link.url} is unreachable ({error}); "
                                     "the kiosk plays on and sends when it is back", delay)
            except Refused as error:
                delay = self._failed(f"the parlor refused table {self.link.table!r}'s token "
                                     f"({error}); the kiosk plays on, its events wait",
                                     self.max_backoff)
            except StoreError as error:
                delay = self._failed(f"the kiosk's store cannot be read ({error})", delay)
            except Exception:  # never let the thread die: the next round may work
                log.exception("parlor outbox: unexpected error")
                delay = self._failed("unexpected error", delay)
            else:
                if self._trouble:
                    log.info("parlor at %s reachable again: sending what was kept",
                             self.link.url)
                    self._trouble = ""
                delay = 0.0
                if more:
                    continue
                self._idle.set()
            if delay:  # backing off: new events wait too, or each tap would retry at once
                self._stop.wait(delay)
            else:
                self._wake.wait(self.poll)
                self._wake.clear()  # before the round: a wake after this is seen by the next

    def _failed(self, message: str, delay: float) -> float:
        self.stats.failures += 1
        self.stats.connected = False
        self.stats.last_error = message
        kind = message.split("(")[0]
        if kind != self._trouble:
            log.warning("parlor outbox: %s", message)
            self._trouble = kind
        else:
            log.debug("parlor outbox: %s", message)
        grown = min(self.max_backoff, max(self.first_backoff, delay * 2))
        return grown * random.uniform(0.8, 1.2)

    def send_once(self) -> bool:
        """One round: post what is pending; True when more is left for the next round."""
        work = outbox_state.pending(self.store, MAX_EVENTS, MAX_GAMES, MAX_BYTES,
                                    frozenset(self.stats.refused_games))
        if not work:
            return False
        try:
            answer = self.post({"games": [p.to_json() for p in work]})
        except Rejected as error:
            self._rejected(work, error)
            return True
        self.stats.connected = True
        games = answer.get("games")
        if not isinstance(games, dict):
            raise Unreachable("the parlor's answer has no receipts")
        self.stats.sent_events += outbox_state.acknowledge(self.store, work, games)
        self.stats.batches += 1
        return True

    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        """The one HTTP call (a benchmark times it here)."""
        return post_batch(self.link, body, self.timeout)

    def _rejected(self, work: tuple[outbox_state.Pending, ...], error: Rejected) -> None:
        """A conflict about one game puts the parlor's copy right by sending the game again
        (the kiosk's store is the truth); any other refusal sets that game aside, logged, so
        the rest still go (a restart tries it again)."""
        answer: dict[str, Any] = error.answer
        game = answer.get("game")
        names = {p.game for p in work}
        if error.status == 409 and game in names and isinstance(answer.get("revision"), int):
            log.warning("parlor outbox: game %s differs at the parlor (%s); sending it again "
                        "whole", game, str(answer.get("error"))[:200])
            outbox_state.start_over(self.store, str(game), answer["revision"])
            return
        field = str(answer.get("field") or "")
        refused = next((p.game for i, p in enumerate(work)
                        if field.startswith(f"games[{i}]")), None)
        refused = refused or work[0].game  # not named: the oldest, so the rest still go
        log.error("parlor outbox: the parlor refused game %s: %s (set aside until the kiosk "
                  "restarts)", refused, error)
        self.stats.last_error = str(error)
        self.stats.refused_games.add(refused)
