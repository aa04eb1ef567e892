"""The parlor's ledger on a real SQLite file and a real PostgreSQL server: a batch is stored
once, whole or not at all; a re-sent event is accepted, a different one at a stored index is a
409; undo arrives as a cut under a newer revision, applied once; a late batch is refused."""

from __future__ import annotations

from typing import Any

import pytest

from kiosk.parlor.store import ledger
from kiosk.parlor.store.ledger import Conflict
from kiosk.parlor.store.registry import ParlorError, ParlorStore
from kiosk.parlor.web import batch
from scorer.rules import RULESETS
from scorer.table import (
    Event,
    ExhaustiveDraw,
    GameStarted,
    RiichiDeclared,
    Win,
    WinningHand,
    event_to_dict,
)

START = GameStarted(("Ana", "Ben", "Chie", "Dai"), RULESETS["tenhou"])
GAME: list[Event] = [START, RiichiDeclared(1), Win.ron(0, WinningHand(1, 3, 30)),
                     ExhaustiveDraw(frozenset({2})), RiichiDeclared(3)]


def sent(first: int, events: list[Event], revision: int = 0, cut: int | None = None,
         game: str = "g1") -> batch.Batch:
    return batch.parse({"games": [{"game": game, "revision": revision, "cut": cut, "events": [
        {"index": first + i, "event": event_to_dict(e)} for i, e in enumerate(events)]}]})


@pytest.fixture
def table(parlor_store: ParlorStore) -> int:
    parlor_store.add_table("Table 1")
    return parlor_store.tables()[0].id


def stored(store: ParlorStore, table: int, game: str = "g1") -> list[str]:
    return [body for _, body in ledger.event_bodies(store.db, table, game)]


def test_a_batch_is_stored_and_answered_with_what_the_parlor_holds(
        parlor_store: ParlorStore, table: int) -> None:
    (receipt,) = ledger.store_batch(parlor_store.db, table, sent(0, GAME[:3]))
    assert receipt.to_json() == {"stored": 3, "last_index": 2, "revision": 0}
    (receipt,) = ledger.store_batch(parlor_store.db, table, sent(3, GAME[3:]))
    assert receipt.stored == 5 and len(stored(parlor_store, table)) == 5


def test_sending_again_changes_nothing(parlor_store: ParlorStore, table: int) -> None:
    ledger.store_batch(parlor_store.db, table, sent(0, GAME[:3]))
    before = stored(parlor_store, table)
    (receipt,) = ledger.store_batch(parlor_store.db, table, sent(0, GAME))  # overlaps: 0-2 again
    assert receipt.stored == 5 and stored(parlor_store, table)[:3] == before
    (receipt,) = ledger.store_batch(parlor_store.db, table, sent(1, GAME[1:4]))
    assert receipt.stored == 5 and len(stored(parlor_store, table)) == 5


def test_a_different_event_at_a_stored_index_is_a_conflict(
        parlor_store: ParlorStore, table: int) -> None:
    ledger.store_batch(parlor_store.db, table, sent(0, GAME[:3]))
    with pytest.raises(Conflict, match=r"games\[0\]\.events\[1\].*different event at index 1"):
        ledger.store_batch(parlor_store.db, table, sent(0, [START, RiichiDeclared(2)]))
    assert len(stored(parlor_store, table)) == 3


def test_a_gap_is_refused_and_says_where_to_send_from(parlor_store: ParlorStore,
                                                      table: int) -> None:
    ledger.store_batch(parlor_store.db, table, sent(0, GAME[:2]))
    with pytest.raises(Conflict, match="send from 2") as error:
        ledger.store_batch(parlor_store.db, table, sent(3, GAME[3:]))
    assert error.value.stored == 2 and error.value.field == "games[0].events[0].index"


def test_an_illegal_event_is_refused_whole(parlor_store: ParlorStore, table: int) -> None:
    ledger.store_batch(parlor_store.db, table, sent(0, GAME[:2]))
    with pytest.raises(ParlorError, match=r"events\[1\] \(index 3\)") as error:
        ledger.store_batch(parlor_store.db, table, sent(2, [RiichiDeclared(0),
                                                            RiichiDeclared(0)]))
    assert error.value.status == 422 and len(stored(parlor_store, table)) == 2


def test_a_batch_of_several_games_is_all_or_nothing(parlor_store: ParlorStore,
                                                    table: int) -> None:
    body: dict[str, Any] = {"games": [
        {"game": "a", "revision": 0, "events": [{"index": 0, "event": event_to_dict(START)}]},
        {"game": "b", "revision": 0, "events": [{"index": 1, "event": event_to_dict(START)}]}]}
    with pytest.raises(Conflict):
        ledger.store_batch(parlor_store.db, table, batch.parse(body))
    assert ledger.game_rows(parlor_store.db) == []


def test_undo_is_a_cut_applied_once_per_revision(parlor_store: ParlorStore, table: int) -> None:
    ledger.store_batch(parlor_store.db, table, sent(0, GAME))  # 5 events
    # The kiosk undid two (revision 1, cut at 3) and played another riichi at 3.
    replacement = [ExhaustiveDraw(frozenset({0}))]
    (receipt,) = ledger.store_batch(parlor_store.db, table, sent(3, replacement, 1, cut=3))
    assert (receipt.stored, receipt.revision) == (4, 1)
    # The same batch again (its answer was lost): the cut is not applied twice.
    ledger.store_batch(parlor_store.db, table, sent(4, [RiichiDeclared(0)], 1, cut=3))
    (receipt,) = ledger.store_batch(parlor_store.db, table, sent(3, replacement, 1, cut=3))
    assert receipt.stored == 5
    assert stored(parlor_store, table)[3] == batch.parse(
        {"games": [{"game": "x", "revision": 0, "events": [
            {"index": 0, "event": event_to_dict(replacement[0])}]}]}).games[0].events[0].body


def test_an_undo_alone_reaches_the_parlor(parlor_store: ParlorStore, table: int) -> None:
    ledger.store_batch(parlor_store.db, table, sent(0, GAME))
    (receipt,) = ledger.store_batch(parlor_store.db, table, sent(4, [], 1, cut=4))
    assert receipt.stored == 4 and len(stored(parlor_store, table)) == 4


def test_a_batch_from_before_an_undo_arriving_late_is_refused(parlor_store: ParlorStore,
                                                              table: int) -> None:
    ledger.store_batch(parlor_store.db, table, sent(0, GAME[:3]))
    ledger.store_batch(parlor_store.db, table, sent(2, [], 1, cut=2))  # undo of the win
    with pytest.raises(Conflict, match="revision 1 here, the batch at 0") as error:
        ledger.store_batch(parlor_store.db, table, sent(3, GAME[3:], 0))  # the old batch
    assert error.value.revision == 1 and len(stored(parlor_store, table)) == 2


def test_tables_are_apart(parlor_store: ParlorStore, table: int) -> None:
    parlor_store.add_table("Table 2")
    other = next(t.id for t in parlor_store.tables() if t.name == "Table 2")
    ledger.store_batch(parlor_store.db, table, sent(0, GAME[:3]))
    ledger.store_batch(parlor_store.db, other, sent(0, GAME[:1]))  # the same game id
    assert len(stored(parlor_store, table)) == 3 and len(stored(parlor_store, other)) == 1


def test_games_caught_up_in_one_batch_keep_the_kiosk_s_order(parlor_store: ParlorStore,
                                                             table: int) -> None:
    """A kiosk back online sends its games oldest first in one batch: the live page's latest
    game is the last of them, not a tie."""
    body: dict[str, Any] = {"games": [
        {"game": game, "revision": 0, "events": [{"index": 0, "event": event_to_dict(START)}]}
        for game in ("old", "new")]}
    ledger.store_batch(parlor_store.db, table, batch.parse(body))
    rows = {r.game: r for r in ledger.game_rows(parlor_store.db)}
    assert rows["old"].first_received < rows["new"].first_received
    assert ledger.latest_games(parlor_store.db)[table].game == "new"
