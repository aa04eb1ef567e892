"""Changes to finished games, held for staff.

A game the parlor has seen finish is reported (its fee, its scores), so a kiosk's later cut or
rewrite of it (an undo after the end, a `resume` and undo, a forged post with a higher
revision) does not change it: the ledger keeps the change here, answers the kiosk that it is
held, and staff accept it (the game becomes the kiosk's) or refuse it (the game stays as it
was). One request per game: a newer one replaces the older. A refusal is remembered (the game's
last refused change, `refused`) and the daily report names each game with a change pending or
refused (`states`); accepting a change forgets an earlier refusal.
"""

from __future__ import annotations

import json
from typing import Any

from kiosk.parlor.store.db import Database
from kiosk.parlor.store.registry import ParlorError
from kiosk.parlor.web.batch import GameBatch, parse
from kiosk.store.event_log import Tx


def hold(tx: Tx, table_id: int, sent: GameBatch, received: str) -> None:
    body = json.dumps({"game": sent.game, "revision": sent.revision, "cut": sent.cut,
                       "events": [{"index": e.index, "event": json.loads(e.body)}
                                  for e in sent.events]}, separators=(",", ":"))
    tx.run("DELETE FROM parlor_held WHERE table_id = ? AND game_id = ?", (table_id, sent.game))
    tx.run("INSERT INTO parlor_held (table_id, game_id, cut, events, body, received) VALUES "
           "(?, ?, ?, ?, ?, ?)", (table_id, sent.game, sent.cut, len(sent.events), body,
                                  received))


def waiting(db: Database) -> list[dict[str, Any]]:
    """The held changes, oldest first: table, game, from which index, how many events."""
    with db.transaction() as tx:
        rows = tx.rows("SELECT t.name, h.game_id, h.cut, h.events, h.received, g.events FROM "
                       "parlor_held h JOIN parlor_tables t ON t.id = h.table_id JOIN "
                       "parlor_games g ON g.table_id = h.table_id AND g.game_id = h.game_id "
                       "ORDER BY h.received, t.name, h.game_id")
    return [{"table": t, "game": g, "cut": int(c), "events": int(n), "received": r,
             "stored": int(s)} for t, g, c, n, r, s in rows]


def take(tx: Tx, table_id: int, game: str) -> GameBatch:
    """The held change of a game, removed (a 404 when there is none)."""
    found = tx.rows("SELECT body FROM parlor_held WHERE table_id = ? AND game_id = ?",
                    (table_id, game))
    if not found:
        raise ParlorError(f"no change of game {game[:40]} is held", 404, "game")
    tx.run("DELETE FROM parlor_held WHERE table_id = ? AND game_id = ?", (table_id, game))
    return parse({"games": [json.loads(found[0][0])]}).games[0]


def kind(cut: int | None, events: int) -> str:
    """A change that only drops events is a cut; one that sends events, a rewrite."""
    return "cut" if events == 0 and cut is not None else "rewrite"


def refused(tx: Tx, table_id: int, sent: GameBatch, when: str) -> None:
    """Staff refused `sent`: remembered as the game's last refused change."""
    tx.run("DELETE FROM parlor_held_refused WHERE table_id = ? AND game_id = ?",
           (table_id, sent.game))
    tx.run("INSERT INTO parlor_held_refused (table_id, game_id, kind, refused) VALUES "
           "(?, ?, ?, ?)", (table_id, sent.game, kind(sent.cut, len(sent.events)), when))


def accepted(tx: Tx, table_id: int, game: str) -> None:
    tx.run("DELETE FROM parlor_held_refused WHERE table_id = ? AND game_id = ?",
           (table_id, game))


def states(db: Database) -> dict[tuple[str, str], str]:
    """(table name, game) -> "cut pending", "rewrite refused", ...: each game with a held change
    waiting for staff, else with one staff refused (a pending one is said over a refused one)."""
    with db.transaction() as tx:
        pending = tx.rows("SELECT t.name, h.game_id, h.cut, h.events FROM parlor_held h JOIN "
                          "parlor_tables t ON t.id = h.table_id")
        refusals = tx.rows("SELECT t.name, r.game_id, r.kind FROM parlor_held_refused r JOIN "
                           "parlor_tables t ON t.id = r.table_id")
    out = {(t, g): f"{k} refused" for t, g, k in refusals}
    out.update({(t, g): f"{kind(None if c is None else int(c), int(n))} pending"
                for t, g, c, n in pending})
    return out
