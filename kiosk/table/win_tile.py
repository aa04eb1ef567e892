"""A hand of 14 tiles with none set apart as the winning tile, scored where it makes no difference
which of them won.

Players seldom leave the photo convention's gap before the winning tile, and the win page asks
"Which tile won?" (issue 38, item 2). Often the answer changes nothing: a tsumo of 888m 11m 234m
555m 666z is menzen tsumo, hatsu, honitsu and sanankou, a haneman, whichever tile came last. Each
tile that completes the hand is tried as the winning tile; where they all give the same yaku,
han, fu, points and chips, the hand is scored with the one nearest the row's end (where the
convention lays the winning tile, so the record keeps the likeliest) and the breakdown says so.
Where the choice changes the score (a ron on a shanpon's tile opens its triplet; a kanchan adds
fu), a 422 names the tiles that could have won and the page goes on asking.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from kiosk.errors import ApiError
from kiosk.table import winspec
from kiosk.table.winspec import WinSpec
from kiosk.words.i18n import t
from kiosk.words.reading_words import HAND_SIZE
from kiosk.words.yaku_names import tile_name
from scorer.table import TableState
from scorer.waits import winning_kinds


def _worth(breakdown: dict[str, Any], chips: int) -> str:
    """What a scored hand is worth, as one comparable value."""
    keys = ("is_win", "outcome", "han", "fu", "yakuman", "limit", "points", "dora")
    worth = {k: breakdown.get(k) for k in keys}
    worth["yaku"] = [(y["id"], str(y["han"])) for y in breakdown.get("yaku", [])]
    return json.dumps(worth | {"chips": chips}, sort_keys=True, default=str)


def scored_any_win(spec: WinSpec, state: TableState, lang: str,
                   score_one: Callable[[WinSpec, TableState, str], Any]) -> Any:
    """`score_one(spec with its winning tile)` where every tile that could have won is worth
    the same; a 422 saying the winning tile is missing, or that it changes the score."""
    h = spec.hand or {}
    concealed = winspec.parse_tile_list(h.get("concealed"), "hand.concealed")
    melds = winspec.parse_melds(h.get("melds"))
    if len(concealed) + 3 * len(melds) != HAND_SIZE:
        raise ApiError(422, "hand.win: the winning tile is missing", code="win_missing")
    tried: dict[str, Any] = {}  # label -> scored, from the row's end back
    for i in reversed(range(len(concealed))):
        tile, rest = concealed[i], concealed[:i] + concealed[i + 1:]
        if str(tile) in tried or tile.kind not in set(winning_kinds(list(rest), melds)):
            continue
        one = replace(spec, hand={**h, "concealed": ",".join(map(str, rest)), "win": str(tile)})
        tried[str(tile)] = score_one(one, state, lang)
    if not tried:
        raise ApiError(422, "hand.win: the winning tile is missing", code="win_missing")
    worth = {_worth(s.breakdown, s.hand.chips) for s in tried.values()}
    if len(worth) > 1:
        names = "".join(tried)
        raise ApiError(422, f"hand.win: which tile won changes the score (it could be "
                       f"{', '.join(tried)}): set the winning tile apart",
                       code="win_choice", words={"tiles": "tiles:" + names})
    label, scored = next(iter(tried.items()))
    scored.breakdown["win_inferred"] = {
        "tile": label, "text": t("win.inferred", lang, tile=tile_name(label, lang))}
    return scored
