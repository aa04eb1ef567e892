"""Every table now, for the counter: each table's latest game replayed with the scorer's table.

The state is always a replay of the stored events (as at the kiosk), so nothing here can drift
from what the kiosks recorded. Replays are remembered by (table, game, revision, events): a
table whose game did not move since the last look costs one row read, not a replay. A stored
game that no longer replays (a scorer that changed its mind, a damaged row) is shown as
unreadable with the reason, on its own table's row only: the other tables stay live.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime
from typing import Any

from kiosk.parlor.store import ledger
from kiosk.parlor.store.db import Database
from kiosk.parlor.store.registry import ParlorError, TableRow, now
from scorer.table import IllegalEvent, TableState, replay

CACHED = 256  # replayed states kept (a parlor has tens of tables; old games fall out)


def _seconds(start: str, end: str) -> int:
    return max(0, int((datetime.fromisoformat(end) - datetime.fromisoformat(start))
                      .total_seconds()))


def state_json(state: TableState) -> dict[str, Any]:
    """What the counter shows of a game: round, honba, sticks, points, dealer, riichi."""
    return {
        "players": list(state.players),
        "points": list(state.points),
        "dealer": state.dealer,
        "round_wind": state.round_wind.value,
        "hand": state.hand_number,
        "label": state.label,
        "honba": state.honba,
        "riichi_sticks": state.sticks,
        "riichi": sorted(state.riichi),
        "ruleset": state.rules.name,
        "finished": state.finished,
        "end_reason": state.ended.value if state.ended else None,
        "standings": [{"seat": r.seat, "name": r.name, "place": r.rank, "points": r.points,
                       "final": round(float(r.score), 1)} for r in state.standings],
    }


class LiveTables:
    def __init__(self, db: Database) -> None:
        self.db = db
        # a replayed state, or why the game does not replay (remembered too: no replay per poll)
        self._states: OrderedDict[tuple[int, str, int, int], TableState | str] = OrderedDict()
        self._lock = threading.Lock()

    def _state(self, row: ledger.GameRow) -> TableState | str:
        key = (row.table_id, row.game, row.revision, row.events)
        with self._lock:
            found = self._states.get(key)
            if found is not None:
                self._states.move_to_end(key)
                return found
        state: TableState | str
        try:
            state = replay(ledger.events(self.db, row.table_id, row.game))
        except (IllegalEvent, ParlorError) as error:
            state = f"game {row.game} does not replay: {error}"[:300]
        with self._lock:
            self._states[key] = state
            while len(self._states) > CACHED:
                self._states.popitem(last=False)
        return state

    def tables_json(self, tables: list[TableRow]) -> list[dict[str, Any]]:
        """One entry per table, its latest game (or none yet), by table name."""
        latest = ledger.latest_games(self.db)
        at = now()
        out = []
        for table in tables:
            row = latest.get(table.id)
            entry: dict[str, Any] = {**table.to_json(), "game": None}
            if row is not None and row.events > 0:
                state = self._state(row)
                game = {"id": row.game, "events": row.events, "started": row.first_received,
                        "last_event": row.last_received}
                if isinstance(state, str):
                    entry["game"] = {**game, "unreadable": state, "playing_seconds": 0}
                else:
                    end = row.last_received if state.finished else at
                    entry["game"] = {**game, "playing_seconds": _seconds(row.first_received, end),
                                     **state_json(state)}
            out.append(entry)
        return out
