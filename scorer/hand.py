"""Melds and hands, with validation that reports every problem at once."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from enum import Enum, StrEnum

from scorer.tiles import Tile, TileError, format_tiles, parse_tiles


def article(word: str) -> str:
    """`a` or `an` before `word` in the messages: "an ankan", "a pon"."""
    return "an" if word[:1].lower() in ("a", "e", "i", "o", "u") else "a"


def plural(n: int, noun: str) -> str:
    """`1 meld`, `2 melds`, `0 concealed tiles`."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


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


class ProblemCode(StrEnum):
    """What a `Problem` is, stable across wordings: the one list of them. Each is made where
    the check is (`Hand.problems`, `Meld.problems`, `WinContext.problems`, `scorer.validity`,
    the record and command-line readers); a front end words it from the code and the details.
    """

    # The situation (scorer.context.WinContext.problems).
    SIT_IPPATSU = "sit_ippatsu"
    SIT_RINSHAN_RON = "sit_rinshan_ron"
    SIT_RINSHAN_NO_KAN = "sit_rinshan_no_kan"
    SIT_HAITEI_RINSHAN = "sit_haitei_rinshan"
    SIT_CHANKAN_TSUMO = "sit_chankan_tsumo"
    SIT_CHANKAN_HOUTEI = "sit_chankan_houtei"
    SIT_ANKAN_CHANKAN = "sit_ankan_chankan"
    SIT_HONBA = "sit_honba"  # n
    SIT_STICKS = "sit_sticks"  # n
    SIT_DORA_COUNT = "sit_dora_count"  # n
    SIT_URA_COUNT = "sit_ura_count"  # n
    SIT_RIICHI_OPEN = "sit_riichi_open"
    SIT_INDICATOR_COPIES = "sit_indicator_copies"  # n, tile
    SIT_BLESSING_CALL = "sit_blessing_call"  # blessing
    SIT_TENHOU = "sit_tenhou"
    SIT_CHIIHOU = "sit_chiihou"
    SIT_RENHOU = "sit_renhou"
    SIT_BLESSING_RIICHI = "sit_blessing_riichi"  # blessing
    # The hand (Hand.problems, Meld.problems; a meld's problems also name meld, kind, tiles).
    HAND_MELD_SIZE = "hand_meld_size"  # size, n
    HAND_CHI_RUN = "hand_chi_run"
    HAND_MELD_SAME = "hand_meld_same"  # size
    HAND_CALLED_TILE = "hand_called_tile"  # tile
    HAND_ANKAN_CALLED = "hand_ankan_called"
    HAND_CHI_FROM = "hand_chi_from"
    HAND_MELD_COUNT = "hand_meld_count"  # n
    HAND_COUNT = "hand_count"  # concealed, melds, size
    HAND_WIN_TILE = "hand_win_tile"  # tile
    HAND_KITA = "hand_kita"  # n
    HAND_COPIES = "hand_copies"  # n, tile
    # The hand under the rules (scorer.validity.rule_problems, sanma_problems).
    HAND_REDS = "hand_reds"  # n, tile, most (the red ones the set holds of that five)
    HAND_RED_FOURTH = "hand_red_fourth"  # tile, n (plain ones held), red (the set's red ones)
    HAND_KITA_RULES = "hand_kita_rules"  # n, rules
    SANMA_TILE = "sanma_tile"  # tile
    SANMA_CHI = "sanma_chi"
    SANMA_TOIMEN = "sanma_toimen"
    SANMA_NORTH = "sanma_north"
    # The input as written (tile notation, a record's fields, the command line).
    INPUT_TILES = "input_tiles"  # tile notation that does not read
    INPUT_TILES_TYPE = "input_tiles_type"  # value
    INPUT_TILE_TYPE = "input_tile_type"  # value
    INPUT_MELD_TYPE = "input_meld_type"  # value
    INPUT_MELD_KIND = "input_meld_kind"  # value
    INPUT_MELD_SOURCE = "input_meld_source"  # value
    INPUT_NUMBER = "input_number"  # low, high, value
    INPUT_FLAG = "input_flag"  # value
    INPUT_RECORD = "input_record"  # value
    INPUT_MISSING = "input_missing"
    INPUT_MELDS_TYPE = "input_melds_type"  # value
    INPUT_DEALER = "input_dealer"  # value, seat
    INPUT_BLESSINGS = "input_blessings"
    INPUT_OPTION = "input_option"  # option
    INPUT_TILES_AND_JSONL = "input_tiles_and_jsonl"
    INPUT_NO_TILES = "input_no_tiles"
    INPUT_WIN_COUNT = "input_win_count"  # n
    INPUT_NO_WIN = "input_no_win"
    INPUT_HAITEI_RON = "input_haitei_ron"
    INPUT_HOUTEI_TSUMO = "input_houtei_tsumo"


#: What a problem's details name: a tile or tiles in mpsz, a number, a meld's kind, ...
Details = Mapping[str, str | int]


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, naming the field (and tile) concerned: in English
    (`message`), and as a `code` with the `details` the message names (`tile`, `n`, `meld`,
    ...), for wording it in another language.

    >>> [problem] = Hand.parse("123m456p789s11222z", win="3z").problems()
    >>> problem.message, problem.code.value, problem.details
    ('the winning tile 3z is not among the concealed tiles', 'hand_win_tile', {'tile': '3z'})
    """

    field: str
    message: str
    code: ProblemCode
    # (Not compared: the message says the same, and a mapping does not hash.)
    details: Details = dataclass_field(default_factory=dict, compare=False)

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
                                        "(chi, pon, minkan, ankan, kakan)",
                                        ProblemCode.INPUT_MELD_KIND, {"value": kind})]) from None
        try:
            from_ = CalledFrom(source) if source else None
        except ValueError:
            raise InvalidInput([Problem("meld", f"unknown source {source!r} "
                                        "(kamicha, toimen, shimocha)",
                                        ProblemCode.INPUT_MELD_SOURCE,
                                        {"value": str(source)})]) from None
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
        # (message, code, details) of each; the field name is formatted only when there are any
        out: list[tuple[str, ProblemCode, dict[str, str | int]]] = []
        kinds = sorted(t.kind for t in self.tiles)
        size = 4 if self.is_kan else 3
        if len(self.tiles) != size:
            kind = f"{article(self.kind.value)} {self.kind.value}"
            out.append((f"{kind} has {size} tiles, not {len(self.tiles)}",
                        ProblemCode.HAND_MELD_SIZE, {"size": size, "n": len(self.tiles)}))
        elif self.kind is MeldKind.CHI:
            first = kinds[0]
            if first >= 27 or kinds != [first, first + 1, first + 2] or first % 9 > 6:
                out.append(("a chi is three consecutive tiles of one suit",
                            ProblemCode.HAND_CHI_RUN, {}))
        elif len(set(kinds)) != 1:
            out.append((f"{article(self.kind.value)} {self.kind.value} is {size} identical tiles",
                        ProblemCode.HAND_MELD_SAME, {"size": size}))
        if len(self.tiles) == size:
            if self.called is not None and self.called not in self.tiles:
                out.append((f"the called tile {self.called} is not in the meld",
                            ProblemCode.HAND_CALLED_TILE, {"tile": str(self.called)}))
            if self.kind is MeldKind.ANKAN and self.source is not None:
                out.append(("a closed kan is not called from anyone",
                            ProblemCode.HAND_ANKAN_CALLED, {}))
            if self.kind is MeldKind.CHI and self.source not in (None, CalledFrom.KAMICHA):
                out.append(("a chi can only be called from the player on the left",
                            ProblemCode.HAND_CHI_FROM, {}))
        if not out:
            return []
        where, named = self.named(index)
        return [Problem(where, message, code, {**named, **details})
                for message, code, details in out]

    def named(self, index: int) -> tuple[str, dict[str, str | int]]:
        """The field naming the meld at `index` ("meld 2 (pon 666z)"), and its details (`meld`
        counted from 1, `kind`, `tiles`)."""
        tiles = format_tiles(self.tiles)
        return (f"meld {index + 1} ({self.kind.value} {tiles})",
                {"meld": index + 1, "kind": self.kind.value, "tiles": tiles})

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
            raise InvalidInput([Problem("concealed", str(e), ProblemCode.INPUT_TILES)]) from None
        try:
            win_tile = Tile.parse(win)
        except TileError as e:
            raise InvalidInput([Problem("win_tile", str(e), ProblemCode.INPUT_TILES)]) from None
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
            out.append(Problem("melds", f"{len(self.melds)} melds; a hand has at most 4",
                               ProblemCode.HAND_MELD_COUNT, {"n": len(self.melds)}))
        size = len(self.concealed) + 3 * len(self.melds)
        if size != 14:
            out.append(Problem("concealed", f"{plural(len(self.concealed), 'concealed tile')} "
                               f"with {plural(len(self.melds), 'meld')} make {size}; a winning "
                               "hand has 14 (a kan counts as 3)", ProblemCode.HAND_COUNT,
                               {"concealed": len(self.concealed), "melds": len(self.melds),
                                "size": size}))
        if self.win_tile not in self.concealed:
            out.append(Problem("win_tile", f"the winning tile {self.win_tile} is not among the "
                               "concealed tiles", ProblemCode.HAND_WIN_TILE,
                               {"tile": str(self.win_tile)}))
        if not 0 <= self.kita <= 4:
            out.append(Problem("kita", f"{self.kita} Norths pulled out; a set has 4",
                               ProblemCode.HAND_KITA, {"n": self.kita}))
        # Pulled Norths are tiles of the set too: with those in the hand, at most 4.
        seen: dict[int, int] = {NORTH_KIND: self.kita} if self.kita > 0 else {}
        for t in self.all_tiles:
            seen[t.kind] = seen.get(t.kind, 0) + 1
        for kind, n in sorted(seen.items()):
            if n > 4:
                out.append(Problem("tiles", f"{n} copies of {Tile(kind)}; a set has 4",
                                   ProblemCode.HAND_COPIES, {"n": n, "tile": str(Tile(kind))}))
        # How many of a five may be red is the set's: `scorer.validity.rule_problems`.
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
