"""Hands written in notation for the scorer's tests: `scored("123m456p789s11z", win="3m", ...)`.

Melds: a string of `kind:tiles` items, e.g. `"pon:777z chi:406p ankan:1111s"`. The concealed
tiles may be given with or without the winning tile (it is added when 13 are given). Context
keywords follow `WinContext`, with conveniences: `seat` / `round_` as "E", "S", "W", "N",
`riichi=True`, `double_riichi=True`, `blessing="tenhou"`, indicators as mpsz strings.
"""

from __future__ import annotations

from typing import Any

from scorer.context import Blessing, Riichi, WinContext, Wind
from scorer.hand import Hand, Meld
from scorer.rules import RULESETS, Ruleset
from scorer.score import Score, score
from scorer.tiles import Tile, parse_tiles

WINDS = {"E": Wind.EAST, "S": Wind.SOUTH, "W": Wind.WEST, "N": Wind.NORTH}


def melds(text: str) -> tuple[Meld, ...]:
    out = []
    for item in text.split():
        kind, tiles = item.split(":")
        out.append(Meld.parse(kind, tiles))
    return tuple(out)


def hand(concealed: str, win: str | None = None, melded: str = "") -> Hand:
    tiles = list(parse_tiles(concealed))
    called = melds(melded)
    win_tile = Tile.parse(win) if win else tiles[-1]
    if len(tiles) + 3 * len(called) == 13:
        tiles.append(win_tile)
    return Hand(tuple(tiles), called, win_tile)


def context(seat: str = "E", round_: str = "E", riichi: bool = False,
            double_riichi: bool = False, blessing: str | None = None, dora: str = "",
            ura: str = "", **options: Any) -> WinContext:
    return WinContext(
        seat_wind=WINDS[seat], round_wind=WINDS[round_],
        riichi=Riichi.DOUBLE if double_riichi else Riichi.RIICHI if riichi else Riichi.NONE,
        blessing=Blessing(blessing) if blessing else None,
        dora_indicators=parse_tiles(dora), ura_indicators=parse_tiles(ura), **options)


def scored(concealed: str, win: str | None = None, melded: str = "",
           rules: str | Ruleset = "tenhou", **ctx: Any) -> Score:
    ruleset = RULESETS[rules] if isinstance(rules, str) else rules
    return score(hand(concealed, win, melded), context(**ctx), ruleset)
