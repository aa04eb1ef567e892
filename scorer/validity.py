"""Whether a hand and its context are plainly valid, from the tally: the fast path of validation.

`Hand.problems` and `WinContext.problems` name every problem, and cost as much as scoring a
hand. Nearly every hand scored is valid, so `score` first asks `plainly_valid`, which proves
the common case from the packed counts in a few integer tests. It is a sufficient condition
only: when it answers False the detailed checks run and decide (tests check that it never
passes a hand they would reject). `rule_problems` adds what only the ruleset can tell.

>>> from scorer.hand import Hand
>>> from scorer.rules import RULESETS
>>> hand = Hand.parse("5555m456p789s345s1p", win="1p")
>>> [str(p) for p in rule_problems(hand, RULESETS["tenhou"])]
["tiles: four plain 5m, but this set's fourth 5m is the red 0m"]
>>> rule_problems(hand, RULESETS["wrc"])  # no red fives
[]
"""

from __future__ import annotations

from typing import Final

from scorer.context import Riichi, WinContext, Wind
from scorer.hand import NORTH_KIND, CalledFrom, Hand, MeldKind, Problem, ProblemCode
from scorer.rules import RedFives, Ruleset
from scorer.shape import BITS, FIELD, FIVES, IN_SUIT, SHIFT_IN_SUIT, HandShape, count_in, each
from scorer.tiles import SUITS

#: Added to a suit's counts, sets bit 4 of each field holding 5 or more: five of a kind for a
#: whole suit in one addition and one mask (sound while no count reaches 21).
_PLUS_11: Final = each(11, range(9))
_BIT_4: Final = each(16, range(9))
#: `HandShape.reds` above one in a suit; a suit's five held four times (the fives of the three
#: suits side by side: after adding 12, bit 4 is set).
_TWO_REDS: Final = each(0b11110, range(3))
_FIVES_PLUS_12: Final = each(12, range(3))
_FIVES_BIT_4: Final = each(16, range(3))
_RED_TO_BIT_4: Final = 4  # a field's red count (0 or 1) shifted onto its bit 4
_FIVE: Final = SHIFT_IN_SUIT[4]  # where a suit's five is counted
#: The man counts a three-player set does not have (2m-8m); a North among the honours' counts.
_MAN_2_TO_8: Final = each(FIELD, range(1, 8))
_NORTH_IN_HONOURS: Final = IN_SUIT[NORTH_KIND]


# Enum members as Final module names (see scorer.shape: `Riichi.NONE` is slow under Python 3.11).
_NO_RIICHI: Final = Riichi.NONE
_NORTH: Final = Wind.NORTH
_TOIMEN: Final = CalledFrom.TOIMEN


def plainly_valid(shape: HandShape, hand: Hand, ctx: WinContext, rules: Ruleset) -> bool:
    """True only if the hand and context have no problem at all (False: look closer)."""
    melds = hand.melds
    # (14 tiles, a kan counted as 3, leave room for at most 4 melds.)
    if not shape.proper or len(hand.concealed) + 3 * len(melds) != 14:
        return False
    win = hand.win_tile
    if not count_in(shape.concealed_suits, win.kind) or (
            win.kind in FIVES and win not in hand.concealed):
        return False  # (a five may be red: only then is the tile itself compared)
    man, pin, sou, honours = shape.suits
    sanma = rules.players == 3
    kita = hand.kita
    if kita:
        if not (sanma and rules.nukidora) or not 0 < kita <= 4:
            return False
    if sanma:
        # No 2m-8m, no chi, no seat opposite (to call from, or to sit at).
        if man & _MAN_2_TO_8 or shape.meld_seqs or ctx.seat_wind is _NORTH:
            return False
        for meld in melds:
            if meld.source is _TOIMEN:
                return False
    reds = shape.reds
    if ((man + _PLUS_11) & _BIT_4 or (pin + _PLUS_11) & _BIT_4 or (sou + _PLUS_11) & _BIT_4
            or (honours + _PLUS_11) & _BIT_4):
        return False  # five of a kind
    red_fives = rules.red_fives
    if red_fives.one_each or not red_fives.any:
        if reds & _TWO_REDS:
            return False  # two red fives of a suit
        if red_fives.any:
            fives = (man >> _FIVE & FIELD) | (pin >> _FIVE & FIELD) << BITS \
                | (sou >> _FIVE & FIELD) << (2 * BITS)
            four_fives = (fives + _FIVES_PLUS_12) & _FIVES_BIT_4
            if four_fives and four_fives & ~(reds << _RED_TO_BIT_4):
                return False  # four of a five, none of them red (`rule_problems` says so)
    else:  # another set (two red 5p, every 5p red ...): suit by suit
        allowed = red_fives.counts
        for i, suit in ((0, man), (1, pin), (2, sou)):
            red = reds >> (BITS * i) & FIELD
            most = allowed[i]
            if red > (most or 1) or (most and (suit >> _FIVE & FIELD) - red > 4 - most):
                return False
    if ctx.riichi is not _NO_RIICHI and not shape.closed:
        return False
    if ctx.ippatsu or ctx.rinshan or ctx.chankan or ctx.last_tile or ctx.blessing is not None:
        # Rarer situations: their rules are the context's own (cheap without the hand). A
        # North pulled out is replaced from the dead wall like a kan.
        if ctx.problems() or (ctx.rinshan and not shape.kans and not kita) or \
                (ctx.blessing is not None and melds):
            return False
    elif ctx.chankan_of_ankan or ctx.honba < 0 or ctx.riichi_sticks < 0:
        return False
    dora, ura = ctx.dora_indicators, ctx.ura_indicators
    if len(dora) > 5 or len(ura) > 5:
        return False
    # The hand holds at most 4 of a kind, the Norths pulled out (tiles of the set too) at most 4,
    # the indicators at most 10 tiles: no field overflows.
    honours += kita * _NORTH_IN_HONOURS
    for t in dora + ura if ura else dora:
        k = t.kind
        if k < 9:
            man += IN_SUIT[k]
        elif k < 18:
            pin += IN_SUIT[k]
        elif k < 27:
            sou += IN_SUIT[k]
        else:
            honours += IN_SUIT[k]
    if sanma and man & _MAN_2_TO_8:
        return False  # an indicator of 2m-8m
    return not ((man + _PLUS_11) & _BIT_4 or (pin + _PLUS_11) & _BIT_4
                or (sou + _PLUS_11) & _BIT_4 or (honours + _PLUS_11) & _BIT_4)


def rule_problems(hand: Hand, rules: Ruleset, ctx: WinContext | None = None) -> list[Problem]:
    """Problems that depend on the ruleset: no more red fives of a suit than the set holds
    (`Ruleset.red_fives`), nor more plain ones than it has left; at a three-player table, the
    tiles, calls, seats and kita that it does not have."""
    out = red_five_problems(hand, rules.red_fives)
    if hand.kita and not (rules.players == 3 and rules.nukidora):
        out.append(Problem("kita", f"{hand.kita} North(s) pulled out as kita, but {rules.name} "
                           "plays no nukidora (only a three-player table pulls out Norths)",
                           ProblemCode.HAND_KITA_RULES, {"n": hand.kita, "rules": rules.name}))
    if rules.players == 3:
        out += sanma_problems(hand, ctx)
    return out


def red_five_problems(hand: Hand, red_fives: RedFives) -> list[Problem]:
    """A suit's red fives beyond what the set holds, and plain fives beyond the rest of its four.

    A suit played without red fives may still show the one red five of a usual set (read as a
    plain five, no aka dora), so one is never too many.

    >>> [str(p) for p in red_five_problems(Hand.parse("0000p234m678s99s", win="9s"),
    ...                                    RedFives(1, 2, 1))]
    ['tiles: 4 red 5p; this set has 2: the 3rd 0p is one too many']
    """
    out = []
    for kind, suit in zip(FIVES, SUITS, strict=False):
        held = [t for t in hand.all_tiles if t.kind == kind]
        red = sum(1 for t in held if t.is_red)
        allowed = red_fives.in_suit(suit)
        most = allowed or 1
        tile = f"5{suit}"
        if red > most:
            out.append(Problem("tiles", f"{red} red {tile}; a set has one" if most == 1 else
                               f"{red} red {tile}; this set has {most}: the {_ordinal(most + 1)} "
                               f"0{suit} is one too many", ProblemCode.HAND_REDS,
                               {"n": red, "tile": tile, "most": most}))
        plain = len(held) - red
        if allowed and plain > 4 - allowed:
            out.append(Problem("tiles", f"four plain {tile}, but this set's fourth {tile} is the "
                               f"red 0{suit}" if allowed == 1 else
                               f"{plain} plain {tile}, but {allowed} of this set's four {tile} "
                               "are red" if allowed < 4 else
                               f"a plain {tile}, but every {tile} of this set is red",
                               ProblemCode.HAND_RED_FOURTH,
                               {"tile": tile, "n": plain, "red": allowed}))
    return out


def _ordinal(n: int) -> str:
    return {2: "2nd", 3: "3rd"}.get(n, f"{n}th")


#: The kinds a three-player set leaves out: 2m-8m (kinds 1-7).
_NOT_IN_SANMA: Final = frozenset(range(1, 8))


def sanma_problems(hand: Hand, ctx: WinContext | None = None) -> list[Problem]:
    """What a three-player table cannot have: 2m-8m (in the hand or as an indicator), chi,
    a call from the seat opposite, a North seat."""
    out = []
    indicators = () if ctx is None else ctx.dora_indicators + ctx.ura_indicators
    missing = sorted({t for t in hand.all_tiles + indicators if t.kind in _NOT_IN_SANMA})
    for tile in missing:
        name = f"{tile} (a red 5m)" if tile.is_red else str(tile)
        out.append(Problem("tiles", f"{name} is not in a three-player set (sanma plays without "
                           "2m-8m)", ProblemCode.SANMA_TILE, {"tile": str(tile)}))
    for i, meld in enumerate(hand.melds):
        where, named = meld.named(i)
        if meld.kind is MeldKind.CHI:
            out.append(Problem(where, "there is no chi at a three-player table",
                               ProblemCode.SANMA_CHI, named))
        elif meld.source is CalledFrom.TOIMEN:
            out.append(Problem(where, "there is no seat opposite at a three-player table "
                               "(call from kamicha or shimocha)", ProblemCode.SANMA_TOIMEN, named))
    if ctx is not None and ctx.seat_wind == Wind.NORTH:
        out.append(Problem("seat_wind", "a three-player table seats East, South and West only",
                           ProblemCode.SANMA_NORTH))
    return out
