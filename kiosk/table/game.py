"""The game service: one table's game, its events persisted as they happen, undo and redo.

Every change goes through `play`: the event is checked by `scorer.table.apply` (an illegal one
raises before anything is stored), appended to the event store in one transaction, and only then
becomes the current state, so a crash never leaves a half-applied hand. Live pages are told after.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from kiosk.errors import ApiError
from kiosk.store.event_log import (
    GameInPlay,
    StoreError,
    StoreFull,
    UnknownGame,
    UnreadableGame,
)
from kiosk.store.receipts import MakeReceipt, Receipt
from kiosk.table import present
from kiosk.table.same_hand import same_event
from scorer.rules import Ruleset
from scorer.table import Amendment, Event, GameStarted, IllegalEvent, Table, amend

if TYPE_CHECKING:
    from kiosk.web.idempotency import Answer

log = logging.getLogger(__name__)

DEFAULT_PLAYERS = ("Player 1", "Player 2", "Player 3", "Player 4")


@contextmanager
def _stored() -> Iterator[None]:
    """A store that refuses a write (another kiosk wrote first) is a 409, a full disk a 507;
    either way nothing changes."""
    try:
        yield
    except StoreFull as e:
        raise ApiError(507, f"the kiosk's disk is full ({e}): the change was not recorded; "
                       "free some space on the kiosk and try again", code="store_full") from None
    except StoreError as e:
        raise ApiError(409, f"the event store refused the change: {e}",
                       code="store_refused") from None


def refused(e: IllegalEvent, status: int, table: Table | None, **extra: Any) -> ApiError:
    """The rules' refusal as the API's, coded for a page in another language: a seat named by
    its player, points as the table shows them."""
    words: dict[str, Any] = {k: f"{v:,}" if isinstance(v, int) and k != "seat" else v
                             for k, v in e.values.items()}
    seat = e.values.get("seat")
    if table is not None and isinstance(seat, int) and 0 <= seat < len(table.state.players):
        words["who"] = table.state.players[seat]
    return ApiError(status, str(e), code=e.code or "illegal_event", words=words, **extra)


class EventLog(Protocol):
    """What the game service needs of the event store (`kiosk.store.event_log.EventStore`)."""

    def latest(self) -> tuple[str, list[Event]] | None: ...
    def create(self, first: GameStarted, receipt: MakeReceipt | None = None) -> str: ...
    def append(self, game_id: str, index: int, event: Event,
               receipt: MakeReceipt | None = None) -> int: ...
    def truncate(self, game_id: str, length: int, receipt: MakeReceipt | None = None) -> None: ...
    def rewrite(self, game_id: str, index: int, events: Sequence[Event], length: int,
                receipt: MakeReceipt | None = None) -> None: ...
    def import_events(self, events: Sequence[Event],
                      receipt: MakeReceipt | None = None) -> str: ...
    def games(self) -> list[dict[str, Any]]: ...
    def events(self, game_id: str) -> list[Event]: ...
    def resume(self, game_id: str, receipt: MakeReceipt | None = None) -> None: ...
    def delete(self, game_id: str) -> bool: ...
    def receipt(self, game_id: str, key: str) -> Receipt | None: ...


def _bound(answer: Answer | None, table: Table) -> MakeReceipt | None:
    """The change's answer, made from the table it leaves, to keep with it in the store."""
    return answer.bind(table) if answer is not None else None


class GameService:
    def __init__(self, log: EventLog, default_rules: Ruleset,
                 on_change: Callable[[], None] = lambda: None):
        self.log = log
        self.default_rules = default_rules
        self.on_change = on_change
        #: Held across a keyed change (`kiosk.web.idempotency`): the look-up of its key and the
        #: change are one step, so a second copy waits and then finds the first's answer.
        self.lock = threading.RLock()
        self._table: Table | None = None
        self._game_id = ""
        #: The stored game the kiosk could not replay at start, if any: game, event, error.
        self.unreadable_game: dict[str, Any] | None = None

    def load(self) -> None:
        """Replay the latest stored game (the state after a restart is the replay).

        A game that no longer replays (an event edited in the database, or stored by a version
        that checked less) stays in the store untouched and is reported, so the kiosk starts.
        """
        with self.lock:
            try:
                found = self.log.latest()
            except UnreadableGame as e:
                self._report_unreadable(e.game_id, e.index, None, e.reason)
                return
            if found is None:
                return
            game_id, events = found
            try:
                table = Table.of(events)
            except ValueError as e:  # IllegalEvent, or a value Python cannot even print
                self._report_unreadable(game_id, getattr(e, "index", None),
                                        getattr(e, "event_type", None), str(e))
                return
            self._game_id, self._table = game_id, table

    def _report_unreadable(self, game_id: str, index: int | None, event_type: str | None,
                           error: str) -> None:
        log.error("stored game %s cannot be replayed (event %s): %s; it stays in the store and "
                  "a new game starts", game_id, index, error)
        self.unreadable_game = {"game": game_id, "event": index, "event_type": event_type,
                                "error": error}

    def ensure_game(self) -> None:
        """A fresh kiosk starts with a game on the default rules, ready to play."""
        with self.lock:
            if self._table is None:
                self.load()
            if self._table is None:
                # One default name a seat: a kiosk set to a sanma preset seats three.
                players = DEFAULT_PLAYERS[:self.default_rules.players]
                self.start(GameStarted(players, self.default_rules))

    @property
    def game_id(self) -> str:
        return self._game_id

    @property
    def table(self) -> Table:
        table = self._table
        if table is None:
            raise ApiError(409, "no game has been started", code="no_game")
        return table

    def state_json(self) -> dict[str, Any]:
        """What every page shows: the table now (a snapshot read) and a game it could not read."""
        return self.state_of(self._table, self._game_id)

    def state_of(self, table: Table | None, game_id: str) -> dict[str, Any]:
        """`state_json` of a table a change is about to leave (its answer, made before it is
        stored)."""
        return {**present.state_json(table, game_id), "unreadable_game": self.unreadable_game}

    def receipt(self, key: str) -> Receipt | None:
        """The answer kept for `key` in the current game, if a change was recorded with it."""
        if not self._game_id:
            return None
        with _stored():
            return self.log.receipt(self._game_id, key)

    @property
    def has_game(self) -> bool:
        return self._table is not None

    # Each change takes an optional `answer` (`kiosk.web.idempotency.Answer`): made from the table
    # the change leaves and stored with it in one transaction.

    def start(self, event: GameStarted, answer: Answer | None = None) -> Table:
        with self.lock:
            try:
                table = Table.begin(event)
            except IllegalEvent as e:
                raise ApiError(400, f"cannot start the game: {e}", field=e.field,
                               code="game_start_field" if e.field else "game_start",
                               words={"field": e.field}) from None
            with _stored():
                self._game_id = self.log.create(event, _bound(answer, table))
            self._table = table
        self.on_change()
        return table

    def preview(self, event: Event) -> Table:
        """What the table would become, without storing anything (for the breakdown screen)."""
        try:
            return self.table.play(event)
        except IllegalEvent as e:
            raise refused(e, 422, self.table, field=e.field) from None

    def play(self, event: Event, answer: Answer | None = None) -> Table:
        with self.lock:
            table = self.preview(event)
            with _stored():
                self.log.append(self._game_id, len(table.events) - 1, event,
                                _bound(answer, table))
            self._table = table
        self.on_change()
        return table

    def undo(self, expected: tuple[str, int] | None = None,
             answer: Answer | None = None) -> Table:
        """Drop the last event. With `expected` (the game's id and its number of events after a
        change this device made), only while that change is still the last: an Undo offered
        after a tap never drops a change another device recorded since."""
        with self.lock:
            if expected is not None and expected != (self._game_id, len(self.table.events)):
                raise ApiError(409, "the table changed since: another change was recorded "
                               "after this one, so nothing was undone", code="changed_since")
            try:
                table = self.table.undo()
            except IllegalEvent as e:
                raise refused(e, 409, self.table) from None
            with _stored():
                self.log.truncate(self._game_id, len(table.events), _bound(answer, table))
            self._table = table
        self.on_change()
        return table

    def import_record(self, text: bytes) -> tuple[str, bool]:
        """Store a JSON game record as a game of the games list; the game played stays the
        table's. Returns its id and whether it is new (a record stored already is that game:
        importing is idempotent by the record's events, so it keeps no Idempotency-Key)."""
        from scorer.table import RecordError, events_from_record, parse_json

        with self.lock:
            try:
                events, _ = events_from_record(parse_json(text))
                Table.of(events)
                with _stored():
                    known = {g["id"] for g in self.log.games()}
                    game_id = self.log.import_events(events)
            except (RecordError, IllegalEvent) as e:  # both name the event and the field
                code = ("import_unreadable" if e.index is None else
                        "import_field" if e.field else "import_event")
                # English says the reader's {problem} (the API's message exactly); Japanese
                # and Chinese name the {event} and {field} in their own words.
                raise ApiError(400, f"cannot import the record: {e}", event=e.index,
                               field=e.field, code=code,
                               words={"event": e.index, "field": e.field,
                                      "problem": str(e)}) from None
        self.on_change()  # the games lists open elsewhere show it
        return game_id, game_id not in known

    def delete(self, game_id: str) -> bool:
        """Delete a stored game (the games list, after a confirm); False where none is stored
        by that id (deleted already). The game the table plays is refused: start or resume
        another first."""
        with self.lock:
            try:
                if game_id == self._game_id:
                    raise GameInPlay(game_id)
                with _stored():
                    deleted = self.log.delete(game_id)
            except GameInPlay:
                raise ApiError(409, f"game {game_id} is the game the table plays: start or "
                               "resume another game first, then delete this one",
                               code="game_in_play", words={"id": game_id}) from None
            if deleted and (self.unreadable_game or {}).get("game") == game_id:
                self.unreadable_game = None
        if deleted:
            self.on_change()
        return deleted

    def resume(self, game_id: str, answer: Answer | None = None) -> Table:
        """Play a stored game again (the games list): it becomes the current game here and after
        a restart. The game left stays stored as it is; its redo list, kept in memory, goes."""
        with self.lock, _stored():
            try:
                table = Table.of(self.log.events(game_id))
            except UnknownGame:
                raise ApiError(404, f"no game {game_id!r}", code="game_missing",
                               words={"id": game_id}) from None
            except (UnreadableGame, ValueError) as e:  # ValueError: IllegalEvent on replay
                raise ApiError(409, f"game {game_id} cannot be replayed: {e}",
                               code="game_unreplayable", words={"id": game_id}) from None
            self.log.resume(game_id, _bound(answer, table))
            self._game_id, self._table = game_id, table
        self.on_change()
        return table

    def redo(self, answer: Answer | None = None) -> Table:
        with self.lock:
            try:
                table = self.table.redo()
            except IllegalEvent as e:
                raise refused(e, 409, self.table) from None
            with _stored():
                self.log.append(self._game_id, len(table.events) - 1, table.events[-1],
                                _bound(answer, table))
            self._table = table
        self.on_change()
        return table

    # --- correcting a hand already played (`scorer.table.amend`) ------------------------------

    def amendment(self, index: int, event: Event) -> Amendment:
        """What correcting event `index` with `event` would make of the game; nothing stored."""
        table = self.table
        try:
            return amend(table.events, index, event, same_event)
        except IllegalEvent as e:
            raise refused(e, 404 if e.code == "amend_no_event" else 422, table,
                          field=e.field) from None

    def amend(self, index: int, event: Event, expected: tuple[str, int], drop_later: bool,
              answer: Answer | None = None) -> Amendment:
        """Correct event `index` and replay the game from there, stored in one transaction.

        `expected` is the game's id and number of events the preview was made from: a change
        recorded since refuses the correction (409), so what was shown is what is applied. Later
        events the corrected game cannot reach are dropped only with `drop_later` (else 409
        saying which and why)."""
        with self.lock:
            if expected != (self._game_id, len(self.table.events)):
                raise ApiError(409, "the table changed since the correction was shown: look at "
                               "it again", code="amend_changed")
            fixed = self.amendment(index, event)
            if fixed.dropped and not drop_later:
                reason = fixed.refusal.reason if fixed.refusal else ""
                raise ApiError(409, f"the correction leaves {len(fixed.dropped)} later events "
                               f"that cannot happen (event {fixed.dropped[0]}: {reason}); send "
                               "drop_later to apply it without them", code="amend_drops",
                               words={"n": len(fixed.dropped), "first": fixed.dropped[0] + 1})
            table = fixed.table
            with _stored():
                self.log.rewrite(self._game_id, index, table.events[index:],
                                 len(self.table.events), _bound(answer, table))
            self._table = table
        self.on_change()
        return fixed
