"""What a keyed change answered, kept in the store beside the change itself.

A change sent with an ``Idempotency-Key`` (docs/api.md) stores a `Receipt` (the key, a
fingerprint of the request, the answer's status and JSON) in the same transaction as its events:
either both are there or neither, so a repeat after a lost answer, a crash or a restart finds
the first answer and never records the change again. Keys are scoped to a game. Only the newest
`KEPT` receipts stay: a repeat comes within seconds, and a kiosk must not fill its card with
answers nobody will ask for again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.store.event_log import Tx

KEPT = 256  # receipts kept, newest first, over all games

# `seq` orders them for pruning; its type is the backend's own auto-increment.
SCHEMA = ("CREATE TABLE IF NOT EXISTS receipts (seq {serial} PRIMARY KEY, "
          "game_id TEXT NOT NULL REFERENCES games (id), key TEXT NOT NULL, "
          "fingerprint TEXT NOT NULL, status INTEGER NOT NULL, body TEXT NOT NULL, "
          "UNIQUE (game_id, key))")


@dataclass(frozen=True, slots=True)
class Receipt:
    key: str
    fingerprint: str  # of the request's method, path and body (`kiosk.web.idempotency`)
    status: int
    body: str  # the answer's JSON, as first sent


#: Makes the receipt to keep from the game's id, inside the change's transaction (a new game's
#: id is only known there); None: nothing to keep (the request had no key).
MakeReceipt = Callable[[str], Receipt | None]


class KeyUsed(Exception):
    """The key already has a receipt in this game (a second kiosk process raced the first)."""


def find(tx: Tx, game_id: str, key: str) -> Receipt | None:
    rows = tx.rows("SELECT fingerprint, status, body FROM receipts WHERE game_id = ? AND key = ?",
                   (game_id, key))
    return Receipt(key, rows[0][0], int(rows[0][1]), rows[0][2]) if rows else None


def keep(tx: Tx, game_id: str, make: MakeReceipt | None) -> None:
    """Store the change's receipt (nothing without a key) and drop the oldest past `KEPT`."""
    receipt = make(game_id) if make is not None else None
    if receipt is None:
        return
    if find(tx, game_id, receipt.key) is not None:
        raise KeyUsed(f"Idempotency-Key {receipt.key!r} was already used in game {game_id}")
    tx.run("INSERT INTO receipts (game_id, key, fingerprint, status, body) "
           "VALUES (?, ?, ?, ?, ?)",
           (game_id, receipt.key, receipt.fingerprint, receipt.status, receipt.body))
    tx.run("DELETE FROM receipts WHERE seq <= (SELECT MAX(seq) FROM receipts) - ?", (KEPT,))
