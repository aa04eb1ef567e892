"""A scored hand's tiles as the history draws them: the scorer's groups with the hand's red fives
put back, and each meld in the order it was laid out with its called tile's place.

The scorer reads a hand by its 34 kinds, so its groups (`ChosenReading.groups`, "340p" read
as "345p") have lost the red fives; the revealed `Hand` still has them. The record keeps this next
to the breakdown (`breakdown["tiles"]`), since neither the reading's text nor the hand's text
says which meld tile lies sideways.

>>> from scorer.hand import CalledFrom, Hand, Meld, MeldKind
>>> from scorer.tiles import Tile, parse_tiles
>>> pon = Meld(MeldKind.PON, parse_tiles("666s"), Tile.parse("6s"), CalledFrom.TOIMEN)
>>> hand = Hand(parse_tiles("234m340p678s22p"), (pon,), Tile.parse("2p"))
>>> drawn = hand_tiles(hand, ("234m", "345p", "678s", "22p"))  # as the scorer read it
>>> drawn["groups"]
[['2m', '3m', '4m'], ['3p', '4p', '0p'], ['6s', '7s', '8s'], ['2p', '2p']]
>>> drawn["melds"]
[{'kind': 'pon', 'tiles': ['6s', '6s', '6s'], 'sideways': 1}]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorer.hand import CalledFrom, Hand, Meld, MeldKind
from scorer.tiles import Tile, parse_tiles

#: Where the called tile lies in a meld, by whom it came from: the left player's tile at the
#: left, the opposite player's in the middle, the right player's at the right (the table's
#: convention, which also tells the others whom it was called from).
_SIDEWAYS_AT = {CalledFrom.KAMICHA: 0, CalledFrom.TOIMEN: 1}


def _groups(hand: Hand, read: Sequence[str] | None) -> list[list[str]]:
    groups = [[str(t) for t in parse_tiles(g)] for g in read] if read else \
        [[str(t) for t in sorted(hand.concealed, key=lambda t: (t.kind, not t.is_red))]]
    # Each red five of the concealed hand takes the place of the first plain five of its suit.
    for red in (t for t in hand.concealed if t.is_red):
        plain = str(red.plain)
        for group in groups:
            if plain in group:
                group[group.index(plain)] = str(red)
                break
    return groups


def _sideways(meld: Meld) -> int | None:
    if meld.kind is MeldKind.ANKAN:
        return None
    if meld.source is not None:
        return _SIDEWAYS_AT.get(meld.source, len(meld.tiles) - 1)
    if meld.called is not None and meld.called in meld.tiles:
        return meld.tiles.index(meld.called)
    return None


def _meld(meld: Meld) -> dict[str, Any]:
    tiles = [str(t) for t in meld.tiles]
    if meld.kind is MeldKind.ANKAN and len(tiles) == 4:
        tiles = ["back", tiles[1], tiles[2], "back"]  # two of a closed kan lie face down
    return {"kind": meld.kind.value, "tiles": tiles, "sideways": _sideways(meld)}


def hand_tiles(hand: Hand, groups: Sequence[str] | None, dora: Sequence[Tile] = (),
               ura: Sequence[Tile] = ()) -> dict[str, Any]:
    """`groups`: the scorer's concealed groups in mpsz (None: the hand as one sorted group).
    `{"groups": [[label, ...], ...], "melds": [{"kind", "tiles", "sideways"}, ...], "dora",
    "ura"}`: labels in mpsz ("0p" a red five, "back" a face-down tile), `sideways` the index of
    the tile that lies sideways (None: none does), the dora and ura indicators as scored (kept
    so a correction from the history starts from them)."""
    return {"groups": _groups(hand, groups), "melds": [_meld(m) for m in hand.melds],
            "dora": [str(t) for t in dora], "ura": [str(t) for t in ura]}
