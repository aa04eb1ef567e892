"""Every way to read a winning hand: decompositions into sets and a pair, and the wait of each.

Works on packed counts (see `scorer.shape`) and integer tile kinds (0-33). The concealed tiles
are split into sets and a pair by `scorer.splits` (each suit on its own, cached on its shape; its
names are this module's too). A *reading* is one decomposition together with the group the
winning tile completed, which fixes the wait and whether a completed triplet counts as concealed;
seven pairs and thirteen orphans are read here too.

>>> from scorer.hand import Hand
>>> shape = HandShape.of(Hand.parse("444456m567p789s11z", win="4m"))
>>> [(r.wait.value, r.win_group_tiles()) for r in read(shape, tsumo=False)]
[('shanpon', '444m'), ('ryanmen', '456m')]
>>> read(shape, tsumo=False)[0].groups()
('456m', '567p', '789s', '444m', '11z')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from scorer.shape import HandShape, count_of, each
from scorer.splits import Decomposition, Split, decompositions, split_suits, splits
from scorer.tiles import KINDS, TILES, format_tiles

__all__ = ["ORPHANS", "Decomposition", "Form", "HandShape", "Reading", "Split", "Wait",
           "decompositions", "read", "split_suits", "splits"]

#: The thirteen terminal and honour kinds (kokushi's tiles).
ORPHANS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


class Form(Enum):
    STANDARD = "standard"  # four sets and a pair
    CHIITOITSU = "chiitoitsu"  # seven distinct pairs
    KOKUSHI = "kokushi"  # thirteen orphans


class Wait(Enum):
    """The shape the winning tile completed."""

    RYANMEN = "ryanmen"  # two-sided: 45 waiting on 3 or 6
    KANCHAN = "kanchan"  # closed: 46 waiting on 5
    PENCHAN = "penchan"  # edge: 12 waiting on 3, 89 waiting on 7
    SHANPON = "shanpon"  # two pairs, one becomes a triplet
    TANKI = "tanki"  # single wait on the pair (also chiitoitsu and one-sided kokushi)
    THIRTEEN_SIDED = "thirteen-sided"  # kokushi waiting on all thirteen orphans


# Enum members as module names, for the hot paths: under Python 3.11 `Wait.TANKI` goes through
# the enum metaclass's __getattr__ hook (about 0.1 us a time), a module name is one dict read.
_STANDARD: Final = Form.STANDARD
_RYANMEN: Final = Wait.RYANMEN
_KANCHAN: Final = Wait.KANCHAN
_PENCHAN: Final = Wait.PENCHAN
_SHANPON: Final = Wait.SHANPON
_TANKI: Final = Wait.TANKI


@dataclass(frozen=True, slots=True)
class Reading:
    """One interpretation of a winning hand: its sets, its pair and the wait that completed it.

    `hand_seqs` (lowest kinds of sequences) and `hand_trips` (kinds of triplets) are the
    concealed sets; `seq_bits` / `trip_bits` set bit `k` for every sequence from `k` / triplet or
    quad of `k`, melds included; `peikou` counts pairs of identical concealed sequences. `anko`
    counts the concealed triplets and closed kans, excluding a triplet completed by ron
    (`ron_trip`, else -1). `pairs` is only used by chiitoitsu; kokushi's `pair` is its
    duplicated orphan.
    """

    form: Form
    pair: int
    hand_seqs: tuple[int, ...]
    hand_trips: tuple[int, ...]
    seq_bits: int
    trip_bits: int
    peikou: int
    anko: int
    ron_trip: int
    wait: Wait
    win_group: int  # lowest kind of the sequence / kind of the triplet or pair the win completed
    pairs: tuple[int, ...]
    shape: HandShape

    def __init__(self, form: Form, pair: int, hand_seqs: tuple[int, ...],
                 hand_trips: tuple[int, ...], seq_bits: int, trip_bits: int, peikou: int,
                 anko: int, ron_trip: int, wait: Wait, win_group: int, pairs: tuple[int, ...],
                 shape: HandShape) -> None:
        # (Written out, not generated: see `HandShape.__init__`.)
        object.__setattr__(self, "form", form)
        object.__setattr__(self, "pair", pair)
        object.__setattr__(self, "hand_seqs", hand_seqs)
        object.__setattr__(self, "hand_trips", hand_trips)
        object.__setattr__(self, "seq_bits", seq_bits)
        object.__setattr__(self, "trip_bits", trip_bits)
        object.__setattr__(self, "peikou", peikou)
        object.__setattr__(self, "anko", anko)
        object.__setattr__(self, "ron_trip", ron_trip)
        object.__setattr__(self, "wait", wait)
        object.__setattr__(self, "win_group", win_group)
        object.__setattr__(self, "pairs", pairs)
        object.__setattr__(self, "shape", shape)

    @property
    def seqs(self) -> tuple[int, ...]:
        """Lowest kinds of every sequence, melds included."""
        return self.hand_seqs + self.shape.meld_seqs

    @property
    def trips(self) -> tuple[int, ...]:
        """Kinds of every triplet and quad, melds included."""
        return self.hand_trips + self.shape.meld_trips

    def groups(self) -> tuple[str, ...]:
        """The concealed groups in mpsz (pair last), e.g. `('234m', '567p', '22s')`."""
        if self.form is Form.CHIITOITSU:
            return tuple(format_tiles((TILES[k], TILES[k])) for k in self.pairs)
        if self.form is Form.KOKUSHI:
            return (format_tiles(TILES[k] for k in sorted((*ORPHANS, self.pair))),)
        return (*[_RUN_TEXT[k] for k in self.hand_seqs], *[_SET_TEXT[k] for k in self.hand_trips],
                _PAIR_TEXT[self.pair])

    def win_group_tiles(self) -> str:
        """The group the winning tile completed, in mpsz."""
        k = self.win_group
        if self.form is not _STANDARD or self.wait is _TANKI:
            return _PAIR_TEXT[k] if self.form is not Form.KOKUSHI else format_tiles((TILES[k],))
        if self.wait is _SHANPON:
            return _SET_TEXT[k]
        return _RUN_TEXT[k]


# The mpsz text of the sequence from each kind (1-7 of a suit), of the triplet and of the pair of
# each kind: what `Reading.groups` prints for every scored hand, worked out once.
_RUN_TEXT: Final = tuple(format_tiles(TILES[k + i] for i in range(3)) if k < 27 and k % 9 < 7
                         else "" for k in range(KINDS))
_SET_TEXT: Final = tuple(format_tiles((TILES[k],) * 3) for k in range(KINDS))
_PAIR_TEXT: Final = tuple(format_tiles((TILES[k],) * 2) for k in range(KINDS))


def _sequence_wait(number: int, pos: int) -> Wait:
    """The wait of a sequence from `number` (0-6 in its suit) completed at its `pos` (0-2)."""
    if pos == 1:
        return _KANCHAN
    if (pos == 0 and number == 6) or (pos == 2 and number == 0):
        return _PENCHAN
    return _RYANMEN


def _sequences_holding(number: int, window: int) -> tuple[tuple[int, Wait], ...]:
    """(start - win, wait) of each sequence holding a win on `number` (0-8 in its suit), where
    bit i of `window` says a sequence starts at number - 2 + i."""
    return tuple((start - number, _sequence_wait(start, number - start))
                 for start in range(number - 2, number + 1)
                 if 0 <= start <= 6 and window >> (start - number + 2) & 1)


#: `_sequences_holding`, by number and window: the sequence waits of a split in one look-up.
_SEQUENCES_HOLDING: Final = tuple(tuple(_sequences_holding(number, window) for window in range(8))
                                  for number in range(9))


def read(shape: HandShape, tsumo: bool) -> list[Reading]:
    """Every reading of the hand: each decomposition with each group the winning tile can be in.

    A triplet completed by ron counts as an open triplet (not concealed) for fu, sanankou and
    suuankou. Chiitoitsu is offered only when no standard decomposition exists: a hand that is both
    is ryanpeikou, which always pays more.
    """
    win = shape.win
    holding = _SEQUENCES_HOLDING[win % 9]
    out: list[Reading] = []
    meld_seq_bits = shape.meld_seq_bits
    meld_trip_bits = shape.meld_trip_bits
    ankans = shape.ankans
    standard = _STANDARD
    for split in split_suits(shape.concealed_suits):
        pair, seqs, trips, seq_bits, trip_bits, peikou = \
            split.pair, split.seqs, split.trips, split.seq_bits, split.trip_bits, split.peikou
        all_seqs = seq_bits | meld_seq_bits
        all_trips = trip_bits | meld_trip_bits
        anko = len(trips) + ankans
        if pair == win:
            out.append(Reading(standard, pair, seqs, trips, all_seqs, all_trips, peikou, anko, -1,
                               _TANKI, win, (), shape))
        if trip_bits >> win & 1:
            if tsumo:
                out.append(Reading(standard, pair, seqs, trips, all_seqs, all_trips, peikou,
                                   anko, -1, _SHANPON, win, (), shape))
            else:  # a triplet completed by ron is not concealed
                out.append(Reading(standard, pair, seqs, trips, all_seqs, all_trips, peikou,
                                   anko - 1, win, _SHANPON, win, (), shape))
        # Each distinct sequence holding the win: bits win - 2 .. win of seq_bits.
        for delta, wait in holding[seq_bits << 2 >> win & 7]:
            out.append(Reading(standard, pair, seqs, trips, all_seqs, all_trips, peikou, anko, -1,
                               wait, win + delta, (), shape))
    if out or shape.meld_sets:
        return out
    return _irregular(shape)


#: Packed-count tests: a field other than 0 or 2; bit 1 of every field (set in a 2); a tile
#: that is no orphan.
_NOT_ZERO_OR_TWO: Final = each(0b11101, range(KINDS))
_TWOS: Final = each(0b00010, range(KINDS))
_NOT_ORPHANS: Final = each(0b11111, (k for k in range(KINDS) if k not in ORPHANS))


def _irregular(shape: HandShape) -> list[Reading]:
    """Seven pairs or thirteen orphans, for a closed hand with no standard decomposition."""
    c = shape.concealed
    win = shape.win
    if not c & _NOT_ZERO_OR_TWO and (c & _TWOS).bit_count() == 7:
        pairs = tuple(k for k in range(KINDS) if count_of(c, k) == 2)
        return [Reading(Form.CHIITOITSU, win, (), (), 0, 0, 0, 0, -1, Wait.TANKI, win, pairs,
                        shape)]
    if not c & _NOT_ORPHANS and all(count_of(c, k) for k in ORPHANS) \
            and sum(count_of(c, k) for k in ORPHANS) == 14:
        pair = next(k for k in ORPHANS if count_of(c, k) == 2)
        wait = Wait.THIRTEEN_SIDED if pair == win else Wait.TANKI
        return [Reading(Form.KOKUSHI, pair, (), (), 0, 0, 0, 0, -1, wait, win, (), shape)]
    return []
