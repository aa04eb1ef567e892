"""Tiles: the 34 kinds plus the red-five flag, parsed from and printed as mpsz notation.

`Tile` is a value type. Kinds are numbered 0-33 (1m-9m, 1p-9p, 1s-9s, 1z-7z) so that hands can be
counted in a 34-slot array; strings appear only at the edges (JSON, CLI, model labels, tests).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

SUITS: Final = "mpsz"
KINDS: Final = 34
#: Names of the honour tiles in order 1z..7z (the Tenhou / Mahjong Soul order).
HONOUR_NAMES: Final = ("East", "South", "West", "North", "Haku", "Hatsu", "Chun")
#: The vision model's classes, in the model's output order (see ARCHITECTURE.md).
MODEL_CLASSES: Final = tuple(
    [f"{n}{s}" for s in "mps" for n in range(1, 10)]
    + [f"{n}z" for n in range(1, 8)]
    + ["0m", "0p", "0s", "back"]
)

_COMPACT: Final = re.compile(r"([0-9]+)([mpsz])")


class TileError(ValueError):
    """A tile or tile string that is not valid mpsz notation."""


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One tile: `kind` 0-33 and whether it is a red five.

    >>> Tile.parse("0p")
    Tile.parse('0p')
    >>> Tile.parse("0p").number, Tile.parse("0p").suit, Tile.parse("0p").is_red
    (5, 'p', True)
    """

    kind: int
    is_red: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.kind < KINDS:
            raise TileError(f"tile kind {self.kind} is outside 0-33")
        if self.is_red and self.kind not in RED_FIVE_KINDS:
            raise TileError(f"only 5m, 5p and 5s can be red, not kind {self.kind}")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse one tile such as `5m`, `0p` (red five) or `7z` (Chun)."""
        # ASCII digits only: str.isdigit() also takes '²' or '٣', which int() then refuses.
        if type(text) is str:
            tile = TILE_BY_TEXT.get(text)
            if tile is not None:
                return tile
        if len(text) != 2 or text[1] not in SUITS or text[0] not in "0123456789":
            raise TileError(f"{text!r} is not a tile (expected e.g. 5m, 0p, 7z)")
        return tile_of(text[0], text[1], original=text)

    @property
    def suit(self) -> str:
        return SUITS[self.kind // 9]

    @property
    def number(self) -> int:
        return self.kind % 9 + 1

    @property
    def is_honour(self) -> bool:
        return self.kind >= 27

    @property
    def is_terminal(self) -> bool:
        return self.kind < 27 and self.kind % 9 in (0, 8)

    @property
    def is_terminal_or_honour(self) -> bool:
        return self.is_honour or self.is_terminal

    @property
    def is_simple(self) -> bool:
        return not self.is_terminal_or_honour

    @property
    def is_wind(self) -> bool:
        return 27 <= self.kind <= 30

    @property
    def is_dragon(self) -> bool:
        return self.kind >= 31

    @property
    def plain(self) -> Tile:
        """The same tile without the red flag (a red 5m counts as a 5m in every shape)."""
        return TILES[self.kind]

    def __str__(self) -> str:
        return _RED_TEXT[self.kind] if self.is_red else _TEXT[self.kind]

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


def tile_of(digit: str, suit: str, original: str | None = None) -> Tile:
    where = original or f"{digit}{suit}"
    if suit not in SUITS:
        raise TileError(f"{where!r}: unknown suit {suit!r} (use m, p, s or z)")
    n = int(digit)
    if suit == "z":
        if not 1 <= n <= 7:
            raise TileError(f"{where!r}: honours are 1z-7z")
        return TILES[27 + n - 1]
    base = SUITS.index(suit) * 9
    if n == 0:
        return RED_FIVES[suit]
    return TILES[base + n - 1]


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Parse compact notation: digits before their suit letter, e.g. `123m406p11z`.

    >>> [str(t) for t in parse_tiles("406p 11z")]
    ['4p', '0p', '6p', '1z', '1z']
    """
    compact = text.replace(" ", "")
    tiles: list[Tile] = []
    pos = 0
    for match in _COMPACT.finditer(compact):
        if match.start() != pos:
            raise TileError(f"{text!r}: cannot read {compact[pos:match.start()]!r}")
        digits, suit = match.groups()
        tiles.extend(tile_of(d, suit) for d in digits)
        pos = match.end()
    if pos != len(compact):
        raise TileError(f"{text!r}: cannot read {compact[pos:]!r} (each group needs a suit letter)")
    return tuple(tiles)


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Print tiles compactly, grouping runs of one suit: (1m, 2m, 0p) -> `12m0p`."""
    out: list[str] = []
    suit = ""
    for tile in tiles:
        kind = tile.kind
        tile_suit = _SUIT_OF[kind]
        if tile_suit != suit and suit:
            out.append(suit)
        out.append("0" if tile.is_red else _DIGIT[kind])
        suit = tile_suit
    if suit:
        out.append(suit)
    return "".join(out)


def dora_from_indicator(indicator: Tile, players: int = 4) -> Tile:
    """The dora an indicator points at: next in its suit, 9 -> 1, North -> East, Chun -> Haku.

    Three players play without 2m-8m, so there the man suit is 1m, 9m: each points at the other.

    >>> dora_from_indicator(Tile.parse("1m")), dora_from_indicator(Tile.parse("1m"), players=3)
    (Tile.parse('2m'), Tile.parse('9m'))
    """
    k = indicator.kind
    if players == 3 and k in (0, 8):
        return TILES[8 - k]
    if k < 27:
        return TILES[k - k % 9 + (k % 9 + 1) % 9]
    if k <= 30:
        return TILES[27 + (k - 27 + 1) % 4]
    return TILES[31 + (k - 31 + 1) % 3]


def counts(tiles: Iterable[Tile]) -> list[int]:
    """How many of each of the 34 kinds (red fives counted as their plain kind)."""
    c = [0] * KINDS
    for t in tiles:
        c[t.kind] += 1
    return c


RED_FIVE_KINDS: Final = frozenset({4, 13, 22})
TILES: Final = tuple(Tile(k) for k in range(KINDS))
RED_FIVES: Final = {"m": Tile(4, True), "p": Tile(13, True), "s": Tile(22, True)}
# Text of each kind, for printing and reading tiles without arithmetic (a tile is printed for
# every group and meld of every scored hand).
_SUIT_OF: Final = tuple(SUITS[k // 9] for k in range(KINDS))
_DIGIT: Final = tuple(str(k % 9 + 1) for k in range(KINDS))
_TEXT: Final = tuple(d + s for d, s in zip(_DIGIT, _SUIT_OF, strict=True))
_RED_TEXT: Final = tuple(f"0{_SUIT_OF[k]}" for k in range(KINDS))
#: Every tile by its two-character mpsz text ("5m", "0p", "7z"): the fast path of `Tile.parse`.
TILE_BY_TEXT: Final[dict[str, Tile]] = {
    **{_TEXT[k]: TILES[k] for k in range(KINDS)},
    **{f"0{suit}": tile for suit, tile in RED_FIVES.items()}}
