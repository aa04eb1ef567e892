"""Concealed tiles split into sets and exactly one pair: the decompositions a hand is read from
(`scorer.decompose`).

Each suit is split on its own and cached on its packed nine counts (see `scorer.shape`), so a
hand costs a few dictionary look-ups; honours are split the same way (triplets and at most one
pair). A split carries what the yaku ask of it (sequence and triplet kinds as bit sets, identical
sequences), so that is worked out once per suit shape, not once per hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Final

from scorer.shape import BITS, SUIT_MASK, SUIT_SHIFTS, count_of

__all__ = ["Decomposition", "Split", "decompositions", "split_suits", "splits"]


@dataclass(frozen=True, slots=True)
class Split:
    """Tiles split into sets and at most one pair (-1: none), with the sets also as bit sets."""

    pair: int
    seqs: tuple[int, ...]
    trips: tuple[int, ...]
    seq_bits: int
    trip_bits: int
    peikou: int  # disjoint pairs of identical sequences (1: iipeikou, 2: ryanpeikou)

    def __init__(self, pair: int, seqs: tuple[int, ...], trips: tuple[int, ...], seq_bits: int,
                 trip_bits: int, peikou: int) -> None:
        # (Written out, not generated: see `HandShape.__init__`.)
        object.__setattr__(self, "pair", pair)
        object.__setattr__(self, "seqs", seqs)
        object.__setattr__(self, "trips", trips)
        object.__setattr__(self, "seq_bits", seq_bits)
        object.__setattr__(self, "trip_bits", trip_bits)
        object.__setattr__(self, "peikou", peikou)


Decomposition = tuple[int, tuple[int, ...], tuple[int, ...]]  # (pair, seqs, trips)

_CACHE_LIMIT: Final = 1 << 16  # distinct shapes per suit kept (a kiosk runs for months)
#: Per suit: every split of each shape seen; the split of each shape that splits one way only.
_SPLITS: Final[tuple[dict[int, tuple[Split, ...]], ...]] = ({}, {}, {}, {})
_ONE_WAY: Final[tuple[dict[int, Split], ...]] = ({}, {}, {}, {})
_MAN_ONE_WAY: Final = _ONE_WAY[0]
_PIN_ONE_WAY: Final = _ONE_WAY[1]
_SOU_ONE_WAY: Final = _ONE_WAY[2]
_HONOURS_ONE_WAY: Final = _ONE_WAY[3]
_SUIT_ORDER: Final = (3, 0, 1, 2)  # the order sets are listed in: honours, man, pin, sou
#: What an empty suit splits into: nothing.
_NOTHING: Final = Split(-1, (), (), 0, 0, 0)


def _new_suit_shape(suit: int, key: int) -> tuple[Split, ...]:
    """Split a suit shape not seen before, and keep the answer."""
    cache = _SPLITS[suit]
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
        _ONE_WAY[suit].clear()
    found = cache[key] = _split_suit(suit, key)
    if len(found) == 1:
        _ONE_WAY[suit][key] = found[0]
    return found


def _split_suit(suit: int, key: int) -> tuple[Split, ...]:
    base = 9 * suit
    size = 7 if suit == 3 else 9
    runs = suit < 3  # honours make no sequences
    found: set[Decomposition] = set()

    def walk(c: list[int], pair: int, seqs: tuple[int, ...], trips: tuple[int, ...]) -> None:
        i = 0
        while i < size and c[i] == 0:
            i += 1
        if i == size:
            found.add((pair, tuple(sorted(seqs)), tuple(sorted(trips))))
            return
        # The lowest remaining tile is in a triplet, the pair, or a sequence it starts.
        if c[i] >= 3:
            c[i] -= 3
            walk(c, pair, seqs, (*trips, base + i))
            c[i] += 3
        if c[i] >= 2 and pair < 0:
            c[i] -= 2
            walk(c, base + i, seqs, trips)
            c[i] += 2
        if runs and i <= 6 and c[i + 1] and c[i + 2]:
            for j in (i, i + 1, i + 2):
                c[j] -= 1
            walk(c, pair, (*seqs, base + i), trips)
            for j in (i, i + 1, i + 2):
                c[j] += 1

    walk([count_of(key, i) for i in range(size)], -1, (), ())
    return tuple(Split(pair, seqs, trips, _bits(seqs), _bits(trips), _peikou(seqs))
                 for pair, seqs, trips in sorted(found))


def _bits(kinds: tuple[int, ...]) -> int:
    out = 0
    for k in kinds:
        out |= 1 << k
    return out


def _peikou(seqs: tuple[int, ...]) -> int:
    """Disjoint pairs of identical sequences in a sorted tuple."""
    n = i = 0
    while i < len(seqs) - 1:
        if seqs[i] == seqs[i + 1]:
            n += 1
            i += 2
        else:
            i += 1
    return n


def splits(concealed: int) -> list[Split]:
    """Every split of concealed tiles (a packed count) into sets and exactly one pair."""
    man, pin, sou, honours = (concealed >> shift & SUIT_MASK for shift in SUIT_SHIFTS)
    return split_suits((man, pin, sou, honours))


def split_suits(suits: tuple[int, int, int, int]) -> list[Split]:
    """`splits`, of per-suit counts (`HandShape.concealed_suits`)."""
    # Nearly every hand splits one way in each suit, in shapes seen before: those splits are
    # merged side by side. Anything else takes the general way.
    man, pin, sou, honours = suits
    z = _HONOURS_ONE_WAY.get(honours) if honours else _NOTHING
    m = _MAN_ONE_WAY.get(man) if man else _NOTHING
    p = _PIN_ONE_WAY.get(pin) if pin else _NOTHING
    s = _SOU_ONE_WAY.get(sou) if sou else _NOTHING
    if z is None or m is None or p is None or s is None:
        return _every_split(suits)
    pair = z.pair
    for part in (m, p, s):
        if part.pair >= 0:
            if pair >= 0:
                return []
            pair = part.pair
    if pair < 0:
        return []
    # (Listed honours, man, pin, sou; honours make no sequences.)
    return [Split(pair, m.seqs + p.seqs + s.seqs, z.trips + m.trips + p.trips + s.trips,
                  m.seq_bits | p.seq_bits | s.seq_bits,
                  z.trip_bits | m.trip_bits | p.trip_bits | s.trip_bits,
                  m.peikou + p.peikou + s.peikou)]


def _every_split(suits: tuple[int, int, int, int]) -> list[Split]:
    per_suit = []
    for suit in _SUIT_ORDER:
        key = suits[suit]
        if key:
            found = _SPLITS[suit].get(key)
            if found is None:
                found = _new_suit_shape(suit, key)
            if not found:
                return []
            per_suit.append(found)
    return [whole for parts in product(*per_suit) if (whole := _merge(parts))]


def _merge(parts: Sequence[Split]) -> Split | None:
    """The splits of the suits side by side (None: no pair, or two)."""
    pair = -1
    seqs: tuple[int, ...] = ()
    trips: tuple[int, ...] = ()
    seq_bits = trip_bits = peikou = 0
    for part in parts:
        if part.pair >= 0:
            if pair >= 0:
                return None
            pair = part.pair
        seqs += part.seqs
        trips += part.trips
        seq_bits |= part.seq_bits
        trip_bits |= part.trip_bits
        peikou += part.peikou
    if pair < 0:
        return None
    return Split(pair, seqs, trips, seq_bits, trip_bits, peikou)


def decompositions(concealed: Sequence[int]) -> list[Decomposition]:
    """Every (pair, sequence starts, triplet kinds) that splits the concealed counts exactly.

    >>> from scorer.tiles import counts, parse_tiles
    >>> decompositions(counts(parse_tiles("111222333m44p")))
    [(12, (), (0, 1, 2)), (12, (0, 0, 0), ())]
    """
    if sum(concealed) % 3 != 2 or max(concealed, default=0) > 4:
        return []
    packed = sum(n << (BITS * k) for k, n in enumerate(concealed))
    return [(s.pair, s.seqs, s.trips) for s in splits(packed)]
