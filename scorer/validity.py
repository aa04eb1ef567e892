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
from scorer.hand import CalledFrom, Hand, MeldKind, Problem
from scorer.rules import Ruleset
from scorer.shape import ALL_KINDS, BITS, FIELD, FIVES, UNIT, HandShape, each
from scorer.tiles import SUITS

#: Added to a packed count, sets bit 4 of each field holding 5 or more: five of a kind for all
#: 34 kinds in one addition and one mask (sound while no count reaches 21).
_PLUS_11: Final = each(11, ALL_KINDS)
_BIT_4: Final = each(16, ALL_KINDS)
#: Red counts above one in a suit; five fields holding four (after adding 12, bit 4 is set).
_TWO_REDS: Final = each(0b11110, FIVES)
_FIVES_PLUS_12: Final = each(12, FIVES)
_FIVES_BIT_4: Final = each(16, FIVES)
_RED_TO_BIT_4: Final = 4  # a field's red count (0 or 1) shifted onto its bit 4
#: Per kind, its field in a packed count (non-zero: the kind is there).
_KIND_FIELD: Final = tuple(FIELD << (BITS * k) for k in ALL_KINDS)


# Enum members as module names (see scorer.shape: `Wait.TANKI` is slow under Python 3.11).
_NO_RIICHI = Riichi.NONE


def plainly_valid(shape: HandShape, hand: Hand, ctx: WinContext, rules: Ruleset) -> bool:
    """True only if the hand and context have no problem at all (False: look closer)."""
    if rules.players != 4 or hand.kita:
        return False  # a three-player table's own checks are `rule_problems`' alone
    melds = hand.melds
    # (14 tiles, a kan counted as 3, leave room for at most 4 melds.)
    if not shape.proper or len(hand.concealed) + 3 * len(melds) != 14:
        return False
    win = hand.win_tile
    if not shape.concealed & _KIND_FIELD[win.kind] or (
            win.kind in FIVES and win not in hand.concealed):
        return False  # (a five may be red: only then is the tile itself compared)
    packed = shape.packed
    reds = shape.reds
    if (packed + _PLUS_11) & _BIT_4 or reds & _TWO_REDS:
        return False  # five of a kind, or two red fives of a suit
    if rules.red_fives:
        four_fives = (packed + _FIVES_PLUS_12) & _FIVES_BIT_4
        if four_fives and four_fives & ~(reds << _RED_TO_BIT_4):
            return False  # four of a five, none of them red (`rule_problems` says so)
    if ctx.riichi is not _NO_RIICHI and not shape.closed:
        return False
    if ctx.ippatsu or ctx.rinshan or ctx.chankan or ctx.last_tile or ctx.blessing is not None:
        # Rarer situations: their rules are the context's own (cheap without the hand).
        if ctx.problems() or (ctx.rinshan and not shape.kans) or \
                (ctx.blessing is not None and melds):
            return False
    elif ctx.chankan_of_ankan or ctx.honba < 0 or ctx.riichi_sticks < 0:
        return False
    dora, ura = ctx.dora_indicators, ctx.ura_indicators
    if len(dora) > 5 or len(ura) > 5:
        return False
    # The hand holds at most 4 of a kind, the indicators at most 10 tiles: no field overflows.
    for t in dora:
        packed += UNIT[t.kind]
    for t in ura:
        packed += UNIT[t.kind]
    return not (packed + _PLUS_11) & _BIT_4


def rule_problems(hand: Hand, rules: Ruleset, ctx: WinContext | None = None) -> list[Problem]:
    """Problems that depend on the ruleset: with red fives, a set's fourth five is red; at a
    three-player table, the tiles, calls, seats and kita that it does not have."""
    out = []
    if rules.red_fives:
        for kind, suit in zip(FIVES, SUITS, strict=False):
            plain = sum(1 for t in hand.all_tiles if t.kind == kind and not t.is_red)
            if plain >= 4:
                out.append(Problem("tiles", f"four plain 5{suit}, but this set's fourth 5{suit} "
                                   f"is the red 0{suit}"))
    if hand.kita and not (rules.players == 3 and rules.nukidora):
        out.append(Problem("kita", f"{hand.kita} North(s) pulled out as kita, but {rules.name} "
                           "plays no nukidora (only a three-player table pulls out Norths)"))
    if rules.players == 3:
        out += sanma_problems(hand, ctx)
    return out


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
                           "2m-8m)"))
    for i, meld in enumerate(hand.melds):
        where = f"meld {i + 1} ({meld})"
        if meld.kind is MeldKind.CHI:
            out.append(Problem(where, "there is no chi at a three-player table"))
        elif meld.source is CalledFrom.TOIMEN:
            out.append(Problem(where, "there is no seat opposite at a three-player table "
                               "(call from kamicha or shimocha)"))
    if ctx is not None and ctx.seat_wind == Wind.NORTH:
        out.append(Problem("seat_wind", "a three-player table seats East, South and West only"))
    return out
