"""A hand read with a tile too many, whole without its doubtful one: that tile set aside.

The finder now and then boxes something that is no tile of the hand beside the row: the bare
mat at the row's end, a tile of the next player's. The reading then holds 15 tiles and the page
asked the player to find and remove the stray one (two taps). Where the tile or two the hand is
over are exactly the ones `likely_extra` would name, each of them doubtful as read, and the hand
without them is a complete winning shape, they are set aside instead: shown grey with the wall's
tiles, said in the set-aside problem, brought back in with one tap (issue 36, item 5; issue 38,
the photo with a wall in view). A sure tile is never set aside this way, nor one whose going
leaves no win: then the page still says "One tile may be extra".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from kiosk.words.reading_words import HAND_SIZE, doubtful, likely_extra

#: (concealed, winning tile or None, [(meld kind, labels)]) -> a complete winning hand?
Complete = Callable[[list[str], str | None, list[tuple[str, list[str]]]], bool]
MOST_EXTRA = 2  # more strays than this: a crowded frame the player should look at


def whole_without(labels: list[str], winning: str | None,
                  melds: list[tuple[str, list[str]]], complete: Complete) -> bool:
    """Whether the tiles make a winning hand: with their winning tile, or where none is set
    apart, with some one of them as the winning tile."""
    if winning is not None:
        return complete(labels, winning, melds)
    return any(complete(labels[:i] + labels[i + 1:], label, melds)
               for i, label in enumerate(labels) if labels.index(label) == i)


def without_extra(reading: Any, complete: Complete) -> Any:
    """`reading` (a `vision.reading.Reading`) with its doubtful extra tiles set aside where the
    hand is whole without them; the same reading otherwise."""
    g, tiles = reading.grouping, reading.tiles
    hand = list(g.concealed) + ([g.winning] if g.winning is not None else [])
    over = len(hand) + 3 * len(g.melds) - HAND_SIZE
    if not 0 < over <= MOST_EXTRA:
        return reading
    extra = likely_extra(reading, hand, over)
    if g.winning in extra or not all(doubtful(tiles[i]) for i in extra):
        return reading
    kept = tuple(i for i in g.concealed if i not in extra)
    melds = [(m.kind.value, [tiles[i].label for i in m.tiles]) for m in g.melds]
    winning = tiles[g.winning].label if g.winning is not None else None
    if not whole_without([tiles[i].label for i in kept], winning, melds, complete):
        return reading
    grouping = dataclasses.replace(g, concealed=kept, unassigned=tuple(g.unassigned) + tuple(extra))
    return dataclasses.replace(reading, grouping=grouping)
