"""Where a follower of the store (a parlor's outbox) stands on each game, kept in the store itself.

``outbox:<game id>`` in ``store_meta`` holds a `Mark`: how many of the game's events the follower
acknowledged (`sent`), how many undos cut the game (`revision`), and the lowest index an undo
removed since the follower last acknowledged (`cut`, or None). The store's own undo calls
`note_cut` in the same transaction as the delete, so no undo is ever missed, even by a kiosk
that was restarted, or one that joins a parlor later (it costs one small row per game undone
in). The store owns this bookkeeping; the parlor's outbox (`kiosk.parlor.link.outbox_state`) reads
it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.store.event_log import Tx

KEY = "outbox:"


@dataclass(frozen=True, slots=True)
class Mark:
    sent: int = 0
    revision: int = 0
    cut: int | None = None

    @property
    def start(self) -> int:
        """The first index to send: after what arrived, or from where an undo changed things."""
        return self.sent if self.cut is None else min(self.sent, self.cut)

    def to_text(self) -> str:
        return json.dumps({"sent": self.sent, "revision": self.revision, "cut": self.cut})

    @classmethod
    def from_text(cls, text: str) -> Mark:
        """A stored mark; one that does not read (edited by hand) resends the whole game under
        a new revision, which puts the parlor's copy right whatever it holds."""
        try:
            raw = json.loads(text)
            mark = cls(int(raw["sent"]), int(raw["revision"]),
                       None if raw["cut"] is None else int(raw["cut"]))
        except (ValueError, TypeError, KeyError):
            return cls(0, 1, 0)
        return mark if mark.sent >= 0 and mark.revision >= 0 else cls(0, 1, 0)


def read_mark(tx: Tx, game: str) -> Mark:
    rows = tx.rows("SELECT value FROM store_meta WHERE key = ?", (KEY + game,))
    return Mark.from_text(rows[0][0]) if rows else Mark()


def write_mark(tx: Tx, game: str, mark: Mark) -> None:
    tx.run("INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT (key) "
           "DO UPDATE SET value = excluded.value", (KEY + game, mark.to_text()))


def note_cut(tx: Tx, game: str, length: int) -> None:
    """The game now keeps only its first `length` events (an undo)."""
    mark = read_mark(tx, game)
    cut = length if mark.cut is None else min(mark.cut, length)
    write_mark(tx, game, replace(mark, revision=mark.revision + 1, cut=cut))
