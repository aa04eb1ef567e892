"""A hand tallied once: packed tile counts per suit, the tile classes it holds, its called sets.

Everything that scores a hand reads counts, so they are made once per hand, in one pass over the
tiles, and packed 5 bits per kind into one int per suit (man, pin, sou, honours): number `n` of a
suit at bit `5 * n`. A suit's nine counts are then one small int (a dictionary key for the
decomposition cache, under 64 bits: compiled, no big-int arithmetic), and "is any kind held five
times?" is one addition and one mask per suit (see `scorer.validity`). `packed` / `concealed`
join the suits into one int (kind `k` at bit `5 * k`) for the rare paths that want every kind.

>>> from scorer.hand import Hand
>>> shape = HandShape.of(Hand.parse("234m406p22s345678s", win="8s"))
>>> shape.counts[19], count_of(shape.packed, 25), shape.red_fives, shape.closed
(2, 1, 1, True)
>>> count_in(shape.suits, 19), count_in(shape.concealed_suits, 13), shape.suits[3]
(2, 1, 0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from scorer.hand import CalledFrom, Hand, Meld, MeldKind
from scorer.tiles import KINDS

BITS: Final = 5  # per kind: room for 31, and a hand of 14 tiles (kans 4) holds at most 18
FIELD: Final = (1 << BITS) - 1
UNIT: Final = tuple(1 << (BITS * k) for k in range(KINDS))
SUIT_BITS_WIDTH: Final = 9 * BITS
#: Where each suit's counts start in a packed count (man, pin, sou, honours).
SUIT_SHIFTS: Final = (0, SUIT_BITS_WIDTH, 2 * SUIT_BITS_WIDTH, 3 * SUIT_BITS_WIDTH)
SUIT_MASK: Final = (1 << SUIT_BITS_WIDTH) - 1
FIVES: Final = (4, 13, 22)


def count_of(packed: int, kind: int) -> int:
    """How many of `kind` a packed count holds."""
    return packed >> (BITS * kind) & FIELD


def pack(kinds: Iterable[int]) -> int:
    """The packed count of some kinds (repeat a kind to count it more than once)."""
    return sum(UNIT[k] for k in kinds)


def each(n: int, kinds: Iterable[int]) -> int:
    """`n` in the field of every kind given: added to a packed count, it tests all at once."""
    return sum(n << (BITS * k) for k in set(kinds))


ALL_KINDS: Final = range(KINDS)


# Tile classes as bits, OR-ed over a hand into `HandShape.mask` so that tile-only yaku (tanyao,
# honitsu, tsuuiisou, ...) are a single bit test.
MAN, PIN, SOU, HONOUR = 1, 2, 4, 8
SUIT_BITS = MAN | PIN | SOU
SIMPLE = 16  # 2-8 of a suit
TERMINAL = 32  # 1 or 9 of a suit
NOT_GREEN = 64  # anything but 2s 3s 4s 6s 8s and Hatsu (ryuuiisou's tiles)
_GREEN: Final = frozenset({19, 20, 21, 23, 25, 32})
KIND_CLASS: Final = tuple(
    (1 << (k // 9)) | (0 if k >= 27 else TERMINAL if k % 9 in (0, 8) else SIMPLE)
    | (0 if k in _GREEN else NOT_GREEN)
    for k in range(KINDS))


#: Per kind, its count's unit within its suit's nine fields; its field's shift there.
IN_SUIT: Final = tuple(1 << (BITS * (k % 9)) for k in range(KINDS))
SHIFT_IN_SUIT: Final = tuple(BITS * (k % 9) for k in range(KINDS))
#: Per kind, a red five's unit in `HandShape.reds` (field `suit`; only 5m, 5p, 5s are red).
RED_UNIT: Final = tuple(1 << (BITS * (k // 9)) for k in range(KINDS))
#: Per set of suits as bits (man 1, pin 2, sou 4, honours 8): the suit when it is one, else -1.
_SOLE_SUIT: Final = tuple({1: 0, 2: 1, 4: 2, 8: 3}.get(bits, -1) for bits in range(16))


def count_in(suits: tuple[int, int, int, int], kind: int) -> int:
    """How many of `kind` per-suit counts (`HandShape.suits`, `.concealed_suits`) hold."""
    # (Constant indices: compiled, a variable one would make the four ints a tuple object.)
    if kind < 9:
        suit = suits[0]
    elif kind < 18:
        suit = suits[1]
    elif kind < 27:
        suit = suits[2]
    else:
        suit = suits[3]
    return suit >> SHIFT_IN_SUIT[kind] & FIELD


def join(suits: tuple[int, int, int, int]) -> int:
    """Per-suit counts as one packed count (kind `k` at bit `5 * k`)."""
    man, pin, sou, honours = suits
    return man + (pin << SUIT_SHIFTS[1]) + (sou << SUIT_SHIFTS[2]) + (honours << SUIT_SHIFTS[3])


# Enum members as Final module names, for the hot paths: under Python 3.11 `MeldKind.CHI` goes
# through the enum metaclass's __getattr__ hook (about 0.1 us a time), a module name is one dict
# read; compiled, a Final name is a C static (a plain module name would be a dict read).
_CHI: Final = MeldKind.CHI
_PON: Final = MeldKind.PON
_ANKAN: Final = MeldKind.ANKAN
_KAMICHA: Final = CalledFrom.KAMICHA

# A meld's counts within its suit (see `IN_SUIT`), to its set's lowest number in the suit: a meld
# is tallied by one look-up, which also proves its tiles form the set its kind says.
_RUN_LOW: Final = {IN_SUIT[n] + IN_SUIT[n + 1] + IN_SUIT[n + 2]: n for n in range(7)}
_PON_LOW: Final = {3 * IN_SUIT[n]: n for n in range(9)}
_KAN_LOW: Final = {4 * IN_SUIT[n]: n for n in range(9)}


@dataclass(frozen=True, slots=True)
class HandShape:
    """A hand as packed counts and fixed meld sets: what every reading of it shares.

    `suits` counts every tile (a kan 4) per suit, `concealed_suits` only the concealed ones (see
    the module doc; `packed` and `concealed` are the same joined); `reds` counts the red fives
    per suit (field `suit`), `red_fives` all of them. `meld_sets` holds (lowest kind, MeldKind)
    per meld; `meld_seq_bits` / `meld_trip_bits` set bit `k` for a called sequence from `k` /
    a called triplet or quad of `k`. `mask` ORs the `KIND_CLASS` bits of every tile. `proper`
    says every meld is the set its kind names, called as the rules allow (what `Meld.problems`
    checks; anything else sends scoring to the detailed checks).
    """

    suits: tuple[int, int, int, int]
    concealed_suits: tuple[int, int, int, int]
    reds: int
    red_fives: int
    win: int
    closed: bool
    meld_seqs: tuple[int, ...]
    meld_trips: tuple[int, ...]
    meld_sets: tuple[tuple[int, MeldKind], ...]
    meld_seq_bits: int
    meld_trip_bits: int
    kans: int
    ankans: int
    mask: int
    proper: bool

    def __init__(self, suits: tuple[int, int, int, int],
                 concealed_suits: tuple[int, int, int, int], reds: int, red_fives: int, win: int,
                 closed: bool, meld_seqs: tuple[int, ...], meld_trips: tuple[int, ...],
                 meld_sets: tuple[tuple[int, MeldKind], ...], meld_seq_bits: int,
                 meld_trip_bits: int, kans: int, ankans: int, mask: int, proper: bool) -> None:
        # (Written out, not generated: compiled, each `object.__setattr__` is a plain store, and
        # every hand scored is tallied; as Python it is what dataclass would write.)
        object.__setattr__(self, "suits", suits)
        object.__setattr__(self, "concealed_suits", concealed_suits)
        object.__setattr__(self, "reds", reds)
        object.__setattr__(self, "red_fives", red_fives)
        object.__setattr__(self, "win", win)
        object.__setattr__(self, "closed", closed)
        object.__setattr__(self, "meld_seqs", meld_seqs)
        object.__setattr__(self, "meld_trips", meld_trips)
        object.__setattr__(self, "meld_sets", meld_sets)
        object.__setattr__(self, "meld_seq_bits", meld_seq_bits)
        object.__setattr__(self, "meld_trip_bits", meld_trip_bits)
        object.__setattr__(self, "kans", kans)
        object.__setattr__(self, "ankans", ankans)
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "proper", proper)

    @classmethod
    def of(cls, hand: Hand) -> HandShape:
        """Tally a hand in one pass over its tiles. Any hand can be tallied, valid or not: the
        counts are trusted only once validation has passed (see `scorer.validity`)."""
        in_suit = IN_SUIT
        # Counted per suit (small ints: no allocation for each tile). `mask` ORs the class of
        # every tile.
        man = pin = sou = honours = reds = red_fives = mask = 0
        for t in hand.concealed:
            k = t.kind
            mask |= KIND_CLASS[k]
            if k < 9:
                man += in_suit[k]
            elif k < 18:
                pin += in_suit[k]
            elif k < 27:
                sou += in_suit[k]
            else:
                honours += in_suit[k]
            if t.is_red:
                reds += RED_UNIT[k]
                red_fives += 1
        concealed = (man, pin, sou, honours)
        if not hand.melds:  # (a closed hand without kans: nothing more to tally)
            return cls(concealed, concealed, reds, red_fives, hand.win_tile.kind, True, (), (),
                       (), 0, 0, 0, 0, mask, True)
        seqs: list[int] = []
        trips: list[int] = []
        sets: list[tuple[int, MeldKind]] = []
        seq_bits = trip_bits = kans = ankans = 0
        closed = proper = True
        for meld in hand.melds:
            tiles = held = 0  # the meld's counts within its suit; its suits as bits
            for t in meld.tiles:
                k = t.kind
                tiles += in_suit[k]
                mask |= KIND_CLASS[k]
                if k < 9:
                    man += in_suit[k]
                    held |= 1
                elif k < 18:
                    pin += in_suit[k]
                    held |= 2
                elif k < 27:
                    sou += in_suit[k]
                    held |= 4
                else:
                    honours += in_suit[k]
                    held |= 8
                if t.is_red:
                    reds += RED_UNIT[k]
                    red_fives += 1
            kind = meld.kind
            suit = _SOLE_SUIT[held]
            if suit < 0 or len(meld.tiles) > 4:
                low = -1  # (up to 4 tiles of one suit no field overflows: a match is that set)
            elif kind is _CHI:
                low = _RUN_LOW.get(tiles, -1) if suit < 3 else -1
            else:
                low = (_PON_LOW if kind is _PON else _KAN_LOW).get(tiles, -1)
            if low >= 0:
                low += 9 * suit
            if low < 0 or not _properly_called(meld):
                proper = False  # not a proper meld: the detailed checks will say why
            elif kind is _CHI:
                seqs.append(low)
                seq_bits |= 1 << low
            else:
                trips.append(low)
                trip_bits |= 1 << low
                if kind is not _PON:
                    kans += 1
            if kind is _ANKAN:
                ankans += 1
            else:
                closed = False
            sets.append((low, kind))
        return cls((man, pin, sou, honours), concealed, reds, red_fives, hand.win_tile.kind,
                   closed, tuple(seqs), tuple(trips), tuple(sets), seq_bits, trip_bits, kans,
                   ankans, mask, proper)

    @property
    def packed(self) -> int:
        """Every tile's count as one int, kind `k` at bit `5 * k` (a kan counts 4)."""
        return join(self.suits)

    @property
    def concealed(self) -> int:
        """The concealed tiles' counts as one int, kind `k` at bit `5 * k`."""
        return join(self.concealed_suits)

    @property
    def counts(self) -> tuple[int, ...]:
        """How many of each of the 34 kinds, melds included (a kan counts 4)."""
        return tuple(count_in(self.suits, k) for k in ALL_KINDS)


def _properly_called(meld: Meld) -> bool:
    """The called tile is in the meld; a closed kan comes from no one, a chi from the left."""
    if meld.called is not None and meld.called not in meld.tiles:
        return False
    source = meld.source
    if meld.kind is _ANKAN:
        return source is None
    return meld.kind is not _CHI or source is None or source is _KAMICHA
