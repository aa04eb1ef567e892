"""Every way to read a winning hand: decompositions into sets and a pair, and the wait of each.

Works on 34-slot count arrays and integer tile kinds (0-33). Each suit is decomposed on its own and
cached on its 9-count tuple, so a hand costs a few dictionary look-ups; honours are trivial (a
triplet or the pair). A *reading* is one decomposition together with the group the winning tile
completed, which fixes the wait and whether a completed triplet counts as concealed.

>>> from scorer.hand import Hand
>>> shape = HandShape.of(Hand.parse("444456m567p789s11z", win="4m"))
>>> [(r.wait.value, r.win_group_tiles()) for r in read(shape, tsumo=False)]
[('shanpon', '444m'), ('ryanmen', '456m')]
>>> read(shape, tsumo=False)[0].groups()
('456m', '567p', '789s', '444m', '11z')
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache
from typing import NamedTuple

from scorer.hand import Hand, MeldKind
from scorer.tiles import KINDS, TILES, format_tiles

#: The thirteen terminal and honour kinds (kokushi's tiles).
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

# Tile classes as bits, OR-ed over a hand into `HandShape.mask` so that tile-only yaku (tanyao,
# honitsu, tsuuiisou, ...) are a single bit test.
MAN, PIN, SOU, HONOUR = 1, 2, 4, 8
SUIT_BITS = MAN | PIN | SOU
SIMPLE = 16  # 2-8 of a suit
TERMINAL = 32  # 1 or 9 of a suit
NOT_GREEN = 64  # anything but 2s 3s 4s 6s 8s and Hatsu (ryuuiisou's tiles)
_GREEN = frozenset({19, 20, 21, 23, 25, 32})
KIND_CLASS = tuple(
    (1 << (k // 9)) | (0 if k >= 27 else TERMINAL if k % 9 in (0, 8) else SIMPLE)
    | (0 if k in _GREEN else NOT_GREEN)
    for k in range(34))


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


class HandShape(NamedTuple):
    """A hand as counts and fixed meld sets: what every reading of it shares.

    `counts` covers every tile (a kan counts 4), `concealed` only the concealed ones.
    `meld_sets` holds (kind, MeldKind) with `kind` the lowest tile of a chi. `mask` ORs the
    `KIND_CLASS` bits of every tile.
    """

    counts: tuple[int, ...]
    concealed: tuple[int, ...]
    win: int
    closed: bool
    meld_seqs: tuple[int, ...]
    meld_trips: tuple[int, ...]
    meld_sets: tuple[tuple[int, MeldKind], ...]
    kans: int
    ankans: int
    reds: int
    mask: int

    @classmethod
    def of(cls, hand: Hand) -> HandShape:
        concealed = [0] * KINDS
        reds = mask = 0
        for t in hand.concealed:
            concealed[t.kind] += 1
            mask |= KIND_CLASS[t.kind]
            if t.is_red:
                reds += 1
        counts = concealed[:]
        seqs: list[int] = []
        trips: list[int] = []
        sets: list[tuple[int, MeldKind]] = []
        kans = ankans = 0
        closed = True
        for meld in hand.melds:
            low = 99
            for t in meld.tiles:
                counts[t.kind] += 1
                mask |= KIND_CLASS[t.kind]
                if t.is_red:
                    reds += 1
                if t.kind < low:
                    low = t.kind
            kind = meld.kind
            if kind is MeldKind.CHI:
                seqs.append(low)
            else:
                trips.append(low)
            if kind is MeldKind.ANKAN:
                ankans += 1
                kans += 1
            else:
                closed = False
                if kind is not MeldKind.CHI and kind is not MeldKind.PON:
                    kans += 1
            sets.append((low, kind))
        return cls(tuple(counts), tuple(concealed), hand.win_tile.kind, closed, tuple(seqs),
                   tuple(trips), tuple(sets), kans, ankans, reds, mask)


class Reading(NamedTuple):
    """One interpretation of a winning hand: its sets, its pair and the wait that completed it.

    `seqs` (lowest kinds of sequences) and `trips` (kinds of triplets and quads) include the melds;
    `hand_seqs` / `hand_trips` are the concealed part only. `anko` counts the concealed triplets
    and closed kans, excluding a triplet completed by ron (`ron_trip`, else -1).
    `pairs` is only used by chiitoitsu; kokushi's `pair` is its duplicated orphan.
    """

    form: Form
    pair: int
    seqs: tuple[int, ...]
    trips: tuple[int, ...]
    hand_seqs: tuple[int, ...]
    hand_trips: tuple[int, ...]
    anko: int
    ron_trip: int
    wait: Wait
    win_group: int  # lowest kind of the sequence / kind of the triplet or pair the win completed
    pairs: tuple[int, ...]
    shape: HandShape

    def groups(self) -> tuple[str, ...]:
        """The concealed groups in mpsz (pair last), e.g. `('234m', '567p', '22s')`."""
        if self.form is Form.CHIITOITSU:
            return tuple(format_tiles((TILES[k], TILES[k])) for k in self.pairs)
        if self.form is Form.KOKUSHI:
            return (format_tiles(TILES[k] for k in sorted((*ORPHANS, self.pair))),)
        out = [format_tiles(TILES[k + i] for i in range(3)) for k in self.hand_seqs]
        out += [format_tiles((TILES[k],) * 3) for k in self.hand_trips]
        out.append(format_tiles((TILES[self.pair],) * 2))
        return tuple(out)

    def win_group_tiles(self) -> str:
        """The group the winning tile completed, in mpsz."""
        k = self.win_group
        if self.form is not Form.STANDARD or self.wait is Wait.TANKI:
            return format_tiles((TILES[k],) * 2) if self.form is not Form.KOKUSHI else \
                format_tiles((TILES[k],))
        if self.wait is Wait.SHANPON:
            return format_tiles((TILES[k],) * 3)
        return format_tiles(TILES[k + i] for i in range(3))


Decomposition = tuple[int, tuple[int, ...], tuple[int, ...]]  # (pair, seqs, trips), -1: no pair


@lru_cache(maxsize=1 << 16)
def _suit(base: int, c9: tuple[int, ...]) -> tuple[Decomposition, ...]:
    """Every split of one suit's 9 counts into sets and at most one pair (kinds are base + i)."""
    found: set[Decomposition] = set()

    def walk(c: list[int], pair: int, seqs: tuple[int, ...], trips: tuple[int, ...]) -> None:
        i = 0
        while i < 9 and c[i] == 0:
            i += 1
        if i == 9:
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
        if i <= 6 and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            walk(c, pair, (*seqs, base + i), trips)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    walk(list(c9), -1, (), ())
    return tuple(sorted(found))


def decompositions(concealed: tuple[int, ...] | list[int]) -> list[Decomposition]:
    """Every (pair, sequence starts, triplet kinds) that splits the concealed counts exactly.

    >>> from scorer.tiles import counts, parse_tiles
    >>> decompositions(counts(parse_tiles("111222333m44p")))
    [(12, (), (0, 1, 2)), (12, (0, 0, 0), ())]
    """
    total = sum(concealed)
    if total % 3 != 2:
        return []
    pairs = 0
    for s in (0, 9, 18):
        m = (concealed[s] + concealed[s + 1] + concealed[s + 2] + concealed[s + 3]
             + concealed[s + 4] + concealed[s + 5] + concealed[s + 6] + concealed[s + 7]
             + concealed[s + 8]) % 3
        if m == 1:
            return []
        pairs += m == 2
    honour_pair = -1
    honour_trips: list[int] = []
    for k in range(27, 34):
        n = concealed[k]
        if n == 0:
            continue
        if n == 3:
            honour_trips.append(k)
        elif n == 2 and honour_pair < 0:
            honour_pair = k
            pairs += 1
        else:
            return []
    if pairs != 1:
        return []
    results: list[Decomposition] = [(honour_pair, (), tuple(honour_trips))]
    for s in (0, 9, 18):
        c9 = tuple(concealed[s:s + 9])
        if not any(c9):
            continue
        parts = _suit(s, c9)
        if not parts:
            return []
        results = [(p if p >= 0 else q, seqs + more_seqs, trips + more_trips)
                   for p, seqs, trips in results for q, more_seqs, more_trips in parts]
    return results


def _sequence_wait(start: int, win: int) -> Wait:
    pos = win - start
    if pos == 1:
        return Wait.KANCHAN
    number = start % 9
    if (pos == 0 and number == 6) or (pos == 2 and number == 0):
        return Wait.PENCHAN
    return Wait.RYANMEN


def read(shape: HandShape, tsumo: bool) -> list[Reading]:
    """Every reading of the hand: each decomposition with each group the winning tile can be in.

    A triplet completed by ron counts as an open triplet (not concealed) for fu, sanankou and
    suuankou. Chiitoitsu is offered only when no standard decomposition exists: a hand that is both
    is ryanpeikou, which always pays more.
    """
    c = shape.concealed
    win = shape.win
    out: list[Reading] = []
    meld_seqs = shape.meld_seqs
    meld_trips = shape.meld_trips
    ankans = shape.ankans
    for pair, seqs, trips in decompositions(c):
        all_seqs = seqs + meld_seqs if meld_seqs else seqs
        all_trips = trips + meld_trips if meld_trips else trips
        anko = len(trips) + ankans
        if pair == win:
            out.append(Reading(Form.STANDARD, pair, all_seqs, all_trips, seqs, trips, anko, -1,
                               Wait.TANKI, win, (), shape))
        if win in trips:
            if tsumo:
                out.append(Reading(Form.STANDARD, pair, all_seqs, all_trips, seqs, trips, anko,
                                   -1, Wait.SHANPON, win, (), shape))
            else:
                out.append(Reading(Form.STANDARD, pair, all_seqs, all_trips, seqs, trips,
                                   anko - 1, win, Wait.SHANPON, win, (), shape))
        last = -1
        for start in seqs:  # sorted, so equal sequences are adjacent: read each once
            if start != last and start <= win <= start + 2:
                out.append(Reading(Form.STANDARD, pair, all_seqs, all_trips, seqs, trips, anko,
                                   -1, _sequence_wait(start, win), start, (), shape))
            last = start
    if out or shape.meld_sets:
        return out
    pairs = tuple(k for k in range(KINDS) if c[k] == 2)
    if len(pairs) == 7:
        out.append(Reading(Form.CHIITOITSU, win, (), (), (), (), 0, -1, Wait.TANKI, win, pairs,
                           shape))
    elif all(c[k] for k in ORPHANS) and sum(c[k] for k in ORPHANS) == 14:
        pair = next(k for k in ORPHANS if c[k] == 2)
        wait = Wait.THIRTEEN_SIDED if pair == win else Wait.TANKI
        out.append(Reading(Form.KOKUSHI, pair, (), (), (), (), 0, -1, wait, win, (), shape))
    return out
