"""Facts about a win, as bits of one int, that decide which yaku are possible, or present.

Each yaku names the facts it needs (`Yaku.needs`); a reading's facts are worked out once, and
only the yaku whose needs all hold are considered. For most yaku the facts are the whole
condition (riichi, pinfu, tanyao, ittsu, a dragon set, honitsu, ...): they cost no test at all.
The rarer others (chanta, shousangen, the blessings, ...) are tested only when their facts allow
them, so a hand costs a few bit operations instead of fifty predicate calls.

>>> from scorer.context import WinContext
>>> from scorer.decompose import HandShape, read
>>> from scorer.hand import Hand
>>> from scorer.rules import RULESETS
>>> r = read(HandShape.of(Hand.parse("123m123m456p789s55p", win="9s")), tsumo=False)[0]
>>> facts = hand_facts(r.shape, WinContext(), RULESETS["tenhou"]) | reading_facts(r, WinContext())
>>> [name for name, bit in FACTS.items() if facts & bit]
['SEAT_EAST', 'ROUND_EAST', 'CLOSED', 'ONE_PEIKOU', 'PINFU']
"""

from __future__ import annotations

from typing import Final

# By module: this one's capitals are the facts alone.
from scorer import shape as tiles
from scorer.context import Riichi, WinContext
from scorer.decompose import Form, Reading, Wait
from scorer.rules import Ruleset
from scorer.yaku import base

# A set (triplet or quad) of each honour, East .. Chun: bit i for kind 27 + i.
EAST_SET: Final = 1 << 0
SOUTH_SET: Final = 1 << 1
WEST_SET: Final = 1 << 2
NORTH_SET: Final = 1 << 3
HAKU_SET: Final = 1 << 4
HATSU_SET: Final = 1 << 5
CHUN_SET: Final = 1 << 6
TWO_DRAGON_SETS: Final = 1 << 7
THREE_DRAGON_SETS: Final = 1 << 8
THREE_WIND_SETS: Final = 1 << 9
FOUR_WIND_SETS: Final = 1 << 10
# The situation (the same for every reading of a hand).
SEAT_EAST: Final = 1 << 11
SEAT_SOUTH: Final = 1 << 12
SEAT_WEST: Final = 1 << 13
SEAT_NORTH: Final = 1 << 14
ROUND_EAST: Final = 1 << 15
ROUND_SOUTH: Final = 1 << 16
ROUND_WEST: Final = 1 << 17
ROUND_NORTH: Final = 1 << 18
TSUMO: Final = 1 << 19
RIICHI: Final = 1 << 20  # riichi, not double riichi
DOUBLE_RIICHI: Final = 1 << 21
IPPATSU: Final = 1 << 22  # where the rules count it
CHANKAN: Final = 1 << 23
RINSHAN: Final = 1 << 24
HAITEI: Final = 1 << 25  # tsumo on the last tile
HOUTEI: Final = 1 << 26  # ron on the last discard
BLESSING: Final = 1 << 27  # tenhou, chiihou or renhou
# The hand's tiles and melds.
CLOSED: Final = 1 << 28
TANYAO: Final = 1 << 29  # only simples, and closed or kuitan allowed
NO_SIMPLES: Final = 1 << 30
ONE_SUIT_OR_HONOURS: Final = 1 << 31  # one suit plus honours (honitsu's tiles)
ONE_SUIT: Final = 1 << 32  # one suit, no honours
HONOURS_ONLY: Final = 1 << 33
TERMINALS_ONLY: Final = 1 << 34
ALL_GREEN: Final = 1 << 35
THREE_KANS: Final = 1 << 36
FOUR_KANS: Final = 1 << 37
# The reading.
SEVEN_PAIRS: Final = 1 << 38
THIRTEEN_ORPHANS: Final = 1 << 39
ONE_PEIKOU: Final = 1 << 40  # one pair of identical concealed sequences
TWO_PEIKOU: Final = 1 << 41
STRAIGHT: Final = 1 << 42  # 123 456 789 of one suit (ittsu)
THREE_COLOUR_RUN: Final = 1 << 43  # one sequence in all three suits (sanshoku doujun)
THREE_COLOUR_SETS: Final = 1 << 44  # one triplet in all three suits (sanshoku doukou)
FOUR_TRIPS: Final = 1 << 45  # four triplets or quads
THREE_CONCEALED: Final = 1 << 46  # exactly three concealed triplets (sanankou)
FOUR_CONCEALED: Final = 1 << 47
PINFU: Final = 1 << 48  # four sequences, a pair that pays no fu, won on a two-sided wait
OUTSIDE: Final = 1 << 49  # has a sequence, and each is 123 or 789
# The situation again: North is a value tile for everyone (`Ruleset.north_yakuhai`) and is
# neither this seat's nor the round's wind (those are yaku of their own).
NORTH_VALUE: Final = 1 << 50

#: Every fact by name, in bit order (for tests and for reading a facts int).
FACTS: Final = {name: bit for name, bit in globals().items()
                if name.isupper() and not name.startswith("_") and isinstance(bit, int)}


def _mask_facts(mask: int) -> int:
    suits = mask & tiles.SUIT_BITS
    honours = mask & tiles.HONOUR
    facts = 0
    if not mask & tiles.SIMPLE:
        facts |= NO_SIMPLES
        if not suits:
            facts |= HONOURS_ONLY
        elif not honours:
            facts |= TERMINALS_ONLY
    if suits in (tiles.MAN, tiles.PIN, tiles.SOU):
        facts |= ONE_SUIT_OR_HONOURS if honours else ONE_SUIT
    if not mask & tiles.NOT_GREEN:
        facts |= ALL_GREEN
    return facts


def _honour_facts(sets: int) -> int:
    """`sets`: bit i for a set of honour 27 + i."""
    dragons = (sets >> 4).bit_count()
    winds = (sets & 0b1111).bit_count()
    facts = sets
    if dragons >= 2:
        facts |= TWO_DRAGON_SETS if dragons == 2 else TWO_DRAGON_SETS | THREE_DRAGON_SETS
    if winds >= 3:
        facts |= THREE_WIND_SETS if winds == 3 else THREE_WIND_SETS | FOUR_WIND_SETS
    return facts


#: Indexed by `HandShape.mask` / by the honour kinds with a set (7 bits) / by a wind (1-4).
MASK_FACTS: Final = tuple(_mask_facts(mask) for mask in range(128))
HONOUR_FACTS: Final = tuple(_honour_facts(sets) for sets in range(128))
SEAT_FACTS: Final = (0, SEAT_EAST, SEAT_SOUTH, SEAT_WEST, SEAT_NORTH)
ROUND_FACTS: Final = (0, ROUND_EAST, ROUND_SOUTH, ROUND_WEST, ROUND_NORTH)
_ONLY_SIMPLES: Final = tiles.TERMINAL | tiles.HONOUR  # none of these in the mask
_STRAIGHT: Final = 0b1001001  # (sequence or kind bits) 1, 4 and 7 of a suit
_MAN: Final = 0x1FF  # the man kinds, as bits
# Enum members as module names (see scorer.shape: `Riichi.RIICHI` is slow under Python 3.11).
_RIICHI: Final = Riichi.RIICHI
_DOUBLE: Final = Riichi.DOUBLE
_STANDARD: Final = Form.STANDARD
_CHIITOITSU: Final = Form.CHIITOITSU
_RYANMEN: Final = Wait.RYANMEN


def hand_facts(shape: tiles.HandShape, ctx: WinContext, rules: Ruleset) -> int:
    """The facts every reading of a hand shares: the situation, the tiles and the melds."""
    mask = shape.mask
    facts = MASK_FACTS[mask] | SEAT_FACTS[ctx.seat_wind] | ROUND_FACTS[ctx.round_wind]
    if shape.closed:
        facts |= CLOSED
    if not mask & _ONLY_SIMPLES and (shape.closed or rules.kuitan):
        facts |= TANYAO
    if shape.kans >= 3:
        facts |= THREE_KANS if shape.kans == 3 else FOUR_KANS
    if ctx.tsumo:
        facts |= TSUMO
    if ctx.riichi is _RIICHI:
        facts |= RIICHI
    elif ctx.riichi is _DOUBLE:
        facts |= DOUBLE_RIICHI
    if ctx.ippatsu and rules.ippatsu:
        facts |= IPPATSU
    if ctx.chankan:
        facts |= CHANKAN
    if ctx.rinshan:
        facts |= RINSHAN
    if ctx.last_tile:
        facts |= HAITEI if ctx.tsumo else HOUTEI
    if ctx.blessing is not None:
        facts |= BLESSING
    if rules.north_yakuhai and ctx.seat_wind != 4 and ctx.round_wind != 4:
        facts |= NORTH_VALUE
    return facts


def reading_facts(r: Reading, ctx: WinContext, hand: int = 0) -> int:
    """The facts of one reading: its sets, its pair and its wait (`ctx` and the `hand`'s facts:
    is the pair pinfu's)."""
    form, pair, seq_bits, trip_bits, peikou, anko, wait = \
        r.form, r.pair, r.seq_bits, r.trip_bits, r.peikou, r.anko, r.wait
    if form is not _STANDARD:
        return SEVEN_PAIRS if form is _CHIITOITSU else THIRTEEN_ORPHANS
    facts = HONOUR_FACTS[trip_bits >> 27]
    if peikou:
        facts |= ONE_PEIKOU if peikou == 1 else TWO_PEIKOU
    if seq_bits.bit_count() >= 3:  # (three different sequences: what ittsu and sanshoku need)
        if (seq_bits & _STRAIGHT == _STRAIGHT or seq_bits >> 9 & _STRAIGHT == _STRAIGHT
                or seq_bits >> 18 & _STRAIGHT == _STRAIGHT):
            facts |= STRAIGHT
        if seq_bits & seq_bits >> 9 & seq_bits >> 18 & _MAN:
            facts |= THREE_COLOUR_RUN
    if trip_bits:
        trips = trip_bits.bit_count()
        if trips >= 3:
            if trip_bits & trip_bits >> 9 & trip_bits >> 18 & _MAN:
                facts |= THREE_COLOUR_SETS
            if trips == 4:
                facts |= FOUR_TRIPS
            if anko >= 3:
                facts |= THREE_CONCEALED if anko == 3 else FOUR_CONCEALED
    elif wait is _RYANMEN:  # pinfu's pair pays no fu: no dragon, seat wind or round wind
        if (pair < 31 and pair != 26 + ctx.seat_wind and pair != 26 + ctx.round_wind
                and not (pair == 30 and hand & NORTH_VALUE)):
            facts |= PINFU
    if seq_bits and not seq_bits & base.MIDDLE_STARTS:
        facts |= OUTSIDE
    return facts
