"""Melds and hands, with validation that reports every problem at once."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from scorer.tiles import Tile, TileError, format_tiles, parse_tiles


class MeldKind(Enum):
    CHI = "chi"
    PON = "pon"
    MINKAN = "minkan"  # open kan called from a discard
    ANKAN = "ankan"  # closed kan: the hand stays closed
    KAKAN = "kakan"  # a pon extended with the fourth tile

    @property
    def is_kan(self) -> bool:
        return self in (MeldKind.MINKAN, MeldKind.ANKAN, MeldKind.KAKAN)


class CalledFrom(Enum):
    """Where a called tile came from, relative to the caller."""

    KAMICHA = "kamicha"  # the player on the left, who discards just before us
    TOIMEN = "toimen"  # opposite
    SHIMOCHA = "shimocha"  # on the right

    @property
    def offset(self) -> int:
        """Seats counter-clockwise from the caller to the discarder."""
        return {CalledFrom.SHIMOCHA: 1, CalledFrom.TOIMEN: 2, CalledFrom.KAMICHA: 3}[self]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, naming the field (and tile) concerned."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class InvalidInput(ValueError):
    """Raised with every problem found, never just the first."""

    def __init__(self, problems: Sequence[Problem]):
        self.problems = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


@dataclass(frozen=True, slots=True)
class Meld:
    """A called or declared set. `called` is the claimed tile, `source` whom it came from."""

    kind: MeldKind
    tiles: tuple[Tile, ...]
    called: Tile | None = None
    source: CalledFrom | None = None

    def __init__(self, kind: MeldKind, tiles: tuple[Tile, ...], called: Tile | None = None,
                 source: CalledFrom | None = None) -> None:
        # (Written out, not generated: see `Hand.__init__`.)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "called", called)
        object.__setattr__(self, "source", source)

    @classmethod
    def parse(cls, kind: str, tiles: str, called: str | None = None,
              source: str | None = None) -> Meld:
        """`Meld.parse("pon", "555z")`,
        `Meld.parse("chi", "406p", called="0p", source="kamicha")`."""
        try:
            meld_kind = MeldKind(kind)
        except ValueError:
            raise InvalidInput([Problem("meld", f"unknown meld kind {kind!r} "
                                        "(chi, pon, minkan, ankan, kakan)")]) from None
        try:
            from_ = CalledFrom(source) if source else None
        except ValueError:
            raise InvalidInput([Problem("meld", f"unknown source {source!r} "
                                        "(kamicha, toimen, shimocha)")]) from None
        parsed = parse_tiles(tiles)
        call = Tile.parse(called) if called else None
        return cls(meld_kind, parsed, call, from_)

    @property
    def is_open(self) -> bool:
        return self.kind is not MeldKind.ANKAN

    @property
    def is_kan(self) -> bool:
        return self.kind.is_kan

    def problems(self, index: int) -> list[Problem]:
        out: list[str] = []  # messages; the field name is formatted only when there are any
        kinds = sorted(t.kind for t in self.tiles)
        size = 4 if self.is_kan else 3
        if len(self.tiles) != size:
            out.append(f"a {self.kind.value} has {size} tiles, not {len(self.tiles)}")
        elif self.kind is MeldKind.CHI:
            first = kinds[0]
            if first >= 27 or kinds != [first, first + 1, first + 2] or first % 9 > 6:
                out.append("a chi is three consecutive tiles of one suit")
        elif len(set(kinds)) != 1:
            out.append(f"a {self.kind.value} is {size} identical tiles")
        if len(self.tiles) == size:
            if self.called is not None and self.called not in self.tiles:
                out.append(f"the called tile {self.called} is not in the meld")
            if self.kind is MeldKind.ANKAN and self.source is not None:
                out.append("a closed kan is not called from anyone")
            if self.kind is MeldKind.CHI and self.source not in (None, CalledFrom.KAMICHA):
                out.append("a chi can only be called from the player on the left")
        if not out:
            return []
        where = f"meld {index + 1} ({self.kind.value} {format_tiles(self.tiles)})"
        return [Problem(where, message) for message in out]

    def __str__(self) -> str:
        return f"{self.kind.value} {format_tiles(self.tiles)}"


#: The North tile: at a three-player table it may be pulled out of the hand as kita.
NORTH_KIND = 30


@dataclass(frozen=True, slots=True)
class Hand:
    """A revealed winning hand: concealed tiles (the winning tile included), melds and winning tile.

    `kita` counts the Norths pulled out beside the hand (sanma's nukidora, see
    `Ruleset.nukidora`): they are not among the 14 tiles, but each is a dora.

    >>> Hand.parse("234m456p22s345678s", win="8s").is_closed
    True
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    kita: int = 0

    def __init__(self, concealed: tuple[Tile, ...], melds: tuple[Meld, ...], win_tile: Tile,
                 kita: int = 0) -> None:
        # (Written out, not generated: compiled, each `object.__setattr__` is a plain store, and one
        # is built for every record read; as Python it is what dataclass would write.)
        object.__setattr__(self, "concealed", concealed)
        object.__setattr__(self, "melds", melds)
        object.__setattr__(self, "win_tile", win_tile)
        object.__setattr__(self, "kita", kita)

    @classmethod
    def parse(cls, concealed: str, win: str, melds: Iterable[Meld] = (), kita: int = 0) -> Hand:
        try:
            tiles = parse_tiles(concealed)
        except TileError as e:
            raise InvalidInput([Problem("concealed", str(e))]) from None
        try:
            win_tile = Tile.parse(win)
        except TileError as e:
            raise InvalidInput([Problem("win_tile", str(e))]) from None
        return cls(tiles, tuple(melds), win_tile, kita)

    @property
    def is_closed(self) -> bool:
        return all(not m.is_open for m in self.melds)

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        return self.concealed + tuple(t for m in self.melds for t in m.tiles)

    def problems(self) -> list[Problem]:
        """Every problem with the hand's shape and counts (not whether it is a win)."""
        out: list[Problem] = []
        for i, meld in enumerate(self.melds):
            out.extend(meld.problems(i))
        if len(self.melds) > 4:
            out.append(Problem("melds", f"{len(self.melds)} melds; a hand has at most 4"))
        size = len(self.concealed) + 3 * len(self.melds)
        if size != 14:
            out.append(Problem("concealed", f"{len(self.concealed)} concealed tiles with "
                               f"{len(self.melds)} melds make {size}; a winning hand has 14 "
                               "(a kan counts as 3)"))
        if self.win_tile not in self.concealed:
            out.append(Problem("win_tile", f"the winning tile {self.win_tile} is not among the "
                               "concealed tiles"))
        if not 0 <= self.kita <= 4:
            out.append(Problem("kita", f"{self.kita} Norths pulled out; a set has 4"))
        # Pulled Norths are tiles of the set too: with those in the hand, at most 4.
        seen: dict[int, int] = {NORTH_KIND: self.kita} if self.kita > 0 else {}
        reds: dict[str, int] = {}
        for t in self.all_tiles:
            seen[t.kind] = seen.get(t.kind, 0) + 1
            if t.is_red:
                reds[t.suit] = reds.get(t.suit, 0) + 1
        for kind, n in sorted(seen.items()):
            if n > 4:
                out.append(Problem("tiles", f"{n} copies of {Tile(kind)}; a set has 4"))
        for suit, n in sorted(reds.items()):
            if n > 1:
                out.append(Problem("tiles", f"{n} red 5{suit}; a set has one"))
        return out

    def validate(self) -> Hand:
        problems = self.problems()
        if problems:
            raise InvalidInput(problems)
        return self

    def __str__(self) -> str:
        melds = "".join(f" [{m}]" for m in self.melds)
        kita = f" kita {self.kita}" if self.kita else ""
        return f"{format_tiles(self.concealed)}{melds} win {self.win_tile}{kita}"
