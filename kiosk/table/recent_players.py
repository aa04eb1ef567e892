"""The players a table has seen, for the new-game form: names are tapped, not typed every game.

Read from the store's games (newest first): each name once, as it was written (a parlor
member's seat name keeps its ``#number``, so the parlor still counts the seat for the member),
and the newest game's line-up for **Same players**. The names a form or a fresh kiosk fills in
by itself ("Player 1", "プレイヤー1", "玩家1") are no player's and are left out.

>>> games = [{"players": ["Ann", "Bo", "Cy", "Di"]}, {"players": ["Player 1", "Bo", "Ed", "Di"]},
...          {"players": ["Ann", "Fay #0042", "Gus"]}]
>>> seen = recent(games, {"Player 1"})
>>> seen["players"]
['Ann', 'Fay #0042', 'Gus', 'Bo', 'Ed', 'Di', 'Cy']
>>> seen["last"]
['Ann', 'Fay #0042', 'Gus']
>>> recent(games[:2], {"Player 1"})["last"]
[None, 'Bo', 'Ed', 'Di']
>>> recent([{"players": ["Player 1", "Player 2", "Player 3", "Player 4"]}], {"Player 1",
...        "Player 2", "Player 3", "Player 4"})
{'players': [], 'last': None}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from kiosk.table.game import DEFAULT_PLAYERS
from kiosk.words import i18n

NAMES_MOST = 24  # names suggested: a few tables' regulars
GAMES_READ = 200  # the newest games looked at


def placeholders() -> set[str]:
    """The names filled in by the kiosk or the form in every language ("Player 1"...)."""
    return set(DEFAULT_PLAYERS) | {i18n.t("new.player", lang, n=n)
                                   for lang in i18n.LANGS for n in range(1, 5)}


def recent(games: Sequence[dict[str, Any]], skip: Iterable[str]) -> dict[str, Any]:
    """`games` as `EventStore.games()` lists them (oldest first): the names seen, newest game
    first and in seat order within a game, at most `NAMES_MOST`; and the newest game's players
    (a filled-in name as None; None where it has no player's name at all)."""
    skipped = set(skip)
    names: list[str] = []
    last: list[str] | None = None
    for game in list(games)[::-1][:GAMES_READ]:
        players = [p for p in game["players"] if isinstance(p, str)]
        if last is None and any(p not in skipped for p in players):
            last = [p if p not in skipped else None for p in players]
        for name in players:
            if name not in skipped and name not in names:
                names.append(name)
    return {"players": names[:NAMES_MOST], "last": last}
