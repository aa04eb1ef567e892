"""The games list: each stored game with where it stands (points, round, finished), so a
table can switch to another game, resume an unfinished one or see a finished one's standings
(the games page, `GET /api/games`).

Each listed game is replayed from its events, as the kiosk replays the current one; a game that
no longer replays is listed with the reason rather than hiding the others.
"""

from __future__ import annotations

from typing import Any

from kiosk.store.event_log import UnreadableGame
from kiosk.table.game import EventLog
from scorer.table import replay


def summary(log: EventLog, info: dict[str, Any], current: str) -> dict[str, Any]:
    """One game of `log.games()` with its state now, or why it cannot be replayed."""
    entry = {**info, "current": info["id"] == current}
    try:
        state = replay(log.events(info["id"]))
    except (UnreadableGame, ValueError) as e:  # ValueError: IllegalEvent, RecordError
        return {**entry, "unreadable": str(e)}
    return {**entry, "unreadable": None, "finished": state.finished,
            "points": list(state.points), "round_wind": state.round_wind.value,
            "hand": state.hand_number, "honba": state.honba, "riichi_sticks": state.sticks}


def listing(log: EventLog, current: str, limit: int) -> dict[str, Any]:
    """The `limit` newest games, newest first, and how many are stored."""
    games = log.games()
    newest = games[::-1][:limit]
    return {"current": current, "total": len(games),
            "games": [summary(log, info, current) for info in newest]}
