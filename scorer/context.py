"""The situation of a win: how it was made, winds, riichi, lucky timings, dora, sticks."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Final

from scorer.hand import NORTH_KIND, Hand, Problem, ProblemCode
from scorer.tiles import Tile


class Wind(IntEnum):
    EAST = 1
    SOUTH = 2
    WEST = 3
    NORTH = 4

    @property
    def tile(self) -> Tile:
        return Tile(26 + self.value)


class Riichi(Enum):
    NONE = "none"
    RIICHI = "riichi"
    DOUBLE = "double"  # declared on the first uninterrupted discard


class Blessing(Enum):
    """Wins on the very first go-around."""

    TENHOU = "tenhou"  # dealer's tsumo on the starting hand
    CHIIHOU = "chiihou"  # non-dealer's tsumo on the first draw
    RENHOU = "renhou"  # non-dealer's ron before their first draw


@dataclass(frozen=True, slots=True)
class WinContext:
    """Everything about a win that the tiles cannot show.

    `last_tile` is haitei (tsumo on the last wall tile) or houtei (ron on the last discard).
    `chankan_of_ankan` says the kan robbed by a chankan ron was a closed kan, which only
    kokushi musou may rob, and only where `Ruleset.kokushi_chankan_ankan` allows it.
    The dealer is the seat whose wind is East.
    """

    tsumo: bool = False
    seat_wind: Wind = Wind.EAST
    round_wind: Wind = Wind.EAST
    riichi: Riichi = Riichi.NONE
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    chankan_of_ankan: bool = False
    last_tile: bool = False
    blessing: Blessing | None = None
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    honba: int = 0
    riichi_sticks: int = 0

    def __init__(self, tsumo: bool = False, seat_wind: Wind = Wind.EAST,
                 round_wind: Wind = Wind.EAST, riichi: Riichi = Riichi.NONE,
                 ippatsu: bool = False, rinshan: bool = False, chankan: bool = False,
                 chankan_of_ankan: bool = False, last_tile: bool = False,
                 blessing: Blessing | None = None, dora_indicators: tuple[Tile, ...] = (),
                 ura_indicators: tuple[Tile, ...] = (), honba: int = 0,
                 riichi_sticks: int = 0) -> None:
        # (Written out, not generated: compiled, each `object.__setattr__` is a plain store, and one
        # is built for every record read; as Python it is what dataclass would write.)
        object.__setattr__(self, "tsumo", tsumo)
        object.__setattr__(self, "seat_wind", seat_wind)
        object.__setattr__(self, "round_wind", round_wind)
        object.__setattr__(self, "riichi", riichi)
        object.__setattr__(self, "ippatsu", ippatsu)
        object.__setattr__(self, "rinshan", rinshan)
        object.__setattr__(self, "chankan", chankan)
        object.__setattr__(self, "chankan_of_ankan", chankan_of_ankan)
        object.__setattr__(self, "last_tile", last_tile)
        object.__setattr__(self, "blessing", blessing)
        object.__setattr__(self, "dora_indicators", dora_indicators)
        object.__setattr__(self, "ura_indicators", ura_indicators)
        object.__setattr__(self, "honba", honba)
        object.__setattr__(self, "riichi_sticks", riichi_sticks)

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == 1  # East (an int test: `Wind.EAST` is slow under Python 3.11)

    def problems(self, hand: Hand | None = None) -> list[Problem]:
        """Every contradiction in the situation (and with the hand, when given)."""
        out: list[Problem] = []
        riichi = self.riichi is not _NO_RIICHI
        if self.ippatsu and not riichi:
            out.append(Problem("ippatsu", "ippatsu needs riichi", ProblemCode.SIT_IPPATSU))
        if self.rinshan and not self.tsumo:
            out.append(Problem("rinshan", "rinshan kaihou is a tsumo on the kan replacement tile, "
                               "not a ron", ProblemCode.SIT_RINSHAN_RON))
        if self.rinshan and self.last_tile:
            out.append(Problem("last_tile", "haitei cannot be a rinshan draw (the replacement tile "
                               "is not the last wall tile)", ProblemCode.SIT_HAITEI_RINSHAN))
        if self.chankan and self.tsumo:
            out.append(Problem("chankan", "chankan is a ron on another player's added kan, "
                               "not a tsumo", ProblemCode.SIT_CHANKAN_TSUMO))
        if self.chankan_of_ankan and not self.chankan:
            out.append(Problem("chankan_of_ankan", "robbing a closed kan is a chankan: set "
                               "chankan too", ProblemCode.SIT_ANKAN_CHANKAN))
        if self.chankan and self.last_tile:
            out.append(Problem("chankan", "chankan cannot also be houtei",
                               ProblemCode.SIT_CHANKAN_HOUTEI))
        if self.blessing is not None:
            out += self._blessing_problems(riichi)
        if self.honba < 0:
            out.append(Problem("honba", f"honba cannot be negative ({self.honba})",
                               ProblemCode.SIT_HONBA, {"n": self.honba}))
        if self.riichi_sticks < 0:
            out.append(Problem("riichi_sticks", f"riichi sticks cannot be negative "
                               f"({self.riichi_sticks})", ProblemCode.SIT_STICKS,
                               {"n": self.riichi_sticks}))
        if len(self.dora_indicators) > 5:
            out.append(Problem("dora_indicators", f"{len(self.dora_indicators)} dora indicators; "
                               "there are at most 5", ProblemCode.SIT_DORA_COUNT,
                               {"n": len(self.dora_indicators)}))
        if len(self.ura_indicators) > 5:
            out.append(Problem("ura_indicators", f"{len(self.ura_indicators)} ura indicators; "
                               "there are at most 5", ProblemCode.SIT_URA_COUNT,
                               {"n": len(self.ura_indicators)}))
        if hand is not None:
            if riichi and not hand.is_closed:
                out.append(Problem("riichi", "riichi needs a closed hand, but the hand has an "
                                   "open meld", ProblemCode.SIT_RIICHI_OPEN))
            # At a three-player table a North pulled out (kita) is replaced from the dead wall
            # too, and a win on that tile is rinshan kaihou as well (Tenhou: 18 of the 22
            # rinshan wins of tenhou-sanma-wins-dev.jsonl have no kan).
            if self.rinshan and not hand.kita and not any(m.is_kan for m in hand.melds):
                out.append(Problem("rinshan", "rinshan kaihou needs a kan (or a North pulled "
                                   "out as kita) in the hand", ProblemCode.SIT_RINSHAN_NO_KAN))
            seen = [0] * 34
            seen[NORTH_KIND] = max(hand.kita, 0)
            for t in hand.all_tiles + self.dora_indicators + self.ura_indicators:
                seen[t.kind] += 1
            for kind, n in enumerate(seen):
                held = sum(t.kind == kind for t in hand.all_tiles)
                if kind == NORTH_KIND:
                    held += max(hand.kita, 0)
                if n > 4 and held <= 4:
                    out.append(Problem("dora_indicators", f"{n} copies of {Tile(kind)} in the hand "
                                       "and indicators together; a set has 4",
                                       ProblemCode.SIT_INDICATOR_COPIES,
                                       {"n": n, "tile": str(Tile(kind))}))
            if self.blessing is not None and hand.melds:
                out.append(Problem("blessing", f"{self.blessing.value} is impossible after a "
                                   "call or kan", ProblemCode.SIT_BLESSING_CALL,
                                   {"blessing": self.blessing.value}))
        return out

    def _blessing_problems(self, riichi: bool) -> list[Problem]:
        out = []
        if self.blessing is Blessing.TENHOU and not (self.tsumo and self.is_dealer):
            out.append(Problem("blessing", "tenhou is the dealer's tsumo", ProblemCode.SIT_TENHOU))
        if self.blessing is Blessing.CHIIHOU and not (self.tsumo and not self.is_dealer):
            out.append(Problem("blessing", "chiihou is a non-dealer's tsumo",
                               ProblemCode.SIT_CHIIHOU))
        if self.blessing is Blessing.RENHOU and (self.tsumo or self.is_dealer):
            out.append(Problem("blessing", "renhou is a non-dealer's ron", ProblemCode.SIT_RENHOU))
        if self.blessing is not None and riichi:
            out.append(Problem("blessing", f"{self.blessing.value} comes before any riichi",
                               ProblemCode.SIT_BLESSING_RIICHI, {"blessing": self.blessing.value}))
        return out


# `Riichi.NONE` as a module name: under Python 3.11 reading an enum member goes through the enum
# metaclass's __getattr__ hook (about 0.1 us); scoring checks the context of every hand.
_NO_RIICHI: Final = Riichi.NONE
