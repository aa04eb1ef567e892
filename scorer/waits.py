"""Waits, tenpai and furiten: which tiles complete a hand of 13 (plus melds).

>>> from scorer.tiles import parse_tiles
>>> [str(t) for t in winning_tiles(parse_tiles("1112345678999m"))]
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
>>> is_furiten(parse_tiles("23m567p234s666z88s"), discards=parse_tiles("4m"))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from scorer.decompose import ORPHANS, decompositions
from scorer.hand import Meld
from scorer.tiles import KINDS, TILES, Tile


def _completes(c: list[int], closed: bool) -> bool:
    if decompositions(c):
        return True
    if not closed or sum(c) != 14:
        return False
    if sum(1 for n in c if n == 2) == 7:
        return True
    return all(c[k] for k in ORPHANS) and sum(c[k] for k in ORPHANS) == 14


def winning_kinds(concealed: Sequence[Tile], melds: Iterable[Meld] = ()) -> list[int]:
    """Tile kinds (0-33) that complete the hand, as a shape (yaku are not checked).

    A kind whose four copies the player already holds (in hand or melds) cannot arrive and is
    left out.
    """
    melds = tuple(melds)
    c = [0] * KINDS
    for t in concealed:
        c[t.kind] += 1
    held = c[:]
    for m in melds:
        for t in m.tiles:
            held[t.kind] += 1
    closed = not melds
    out = []
    for k in range(KINDS):
        if held[k] >= 4:
            continue
        c[k] += 1
        if _completes(c, closed):
            out.append(k)
        c[k] -= 1
    return out


def winning_tiles(concealed: Sequence[Tile], melds: Iterable[Meld] = ()) -> tuple[Tile, ...]:
    """The tiles that complete a 13-tile hand (counting each meld as 3): its wait."""
    return tuple(TILES[k] for k in winning_kinds(concealed, melds))


def is_tenpai(concealed: Sequence[Tile], melds: Iterable[Meld] = ()) -> bool:
    """One tile from a winning shape, on a tile that can still arrive."""
    return bool(winning_kinds(concealed, melds))


def is_furiten(concealed: Sequence[Tile], discards: Iterable[Tile],
               melds: Iterable[Meld] = ()) -> bool:
    """Discard furiten: a tile of the wait is among the player's own discards (called ones too).

    Furiten on one tile of the wait blocks ron on all of them; a tsumo is still allowed.
    """
    waits = set(winning_kinds(concealed, melds))
    return any(t.kind in waits for t in discards)
