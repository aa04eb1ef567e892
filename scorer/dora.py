"""Dora: bonus han from the indicators, the ura indicators (riichi only) and red fives.

Dora never count toward a yaku or `Ruleset.min_han`; they add han once a hand has a yaku.

>>> from scorer.hand import Hand
>>> from scorer.context import Riichi, WinContext
>>> from scorer.decompose import HandShape
>>> from scorer.rules import RULESETS
>>> from scorer.tiles import parse_tiles
>>> shape = HandShape.of(Hand.parse("234m406p22s345678s", win="8s"))
>>> ctx = WinContext(riichi=Riichi.RIICHI, dora_indicators=parse_tiles("1s9s"),
...                  ura_indicators=parse_tiles("1s"))
>>> count_dora(shape, ctx, RULESETS["tenhou"])
DoraCount(dora=2, aka=1, ura=2)
"""

from __future__ import annotations

from typing import NamedTuple

from scorer.context import Riichi, WinContext
from scorer.hand import NORTH_KIND
from scorer.rules import Ruleset
from scorer.shape import BITS, FIELD, UNIT, HandShape
from scorer.tiles import TILES, dora_from_indicator


class DoraCount(NamedTuple):
    dora: int  # from the dora and kan dora indicators
    aka: int  # red fives
    ura: int  # from the ura (and kan ura) indicators, after a riichi win

    @property
    def total(self) -> int:
        return self.dora + self.aka + self.ura


#: Per indicator kind, the shift of its dora's field in a packed count. Three players play
#: without 2m-8m, so there 1m points at 9m (and 9m at 1m): no other indicator changes, and
#: 2m-8m never show (`scorer.validity` rejects them at a three-player table).
_DORA_SHIFT = tuple(BITS * dora_from_indicator(t).kind for t in TILES)
_SANMA_DORA_SHIFT = tuple(BITS * dora_from_indicator(t, players=3).kind for t in TILES)
_NORTH_UNIT = UNIT[NORTH_KIND]


# Enum members as module names (see scorer.shape: `Wait.TANKI` is slow under Python 3.11).
_NO_RIICHI = Riichi.NONE


def count_dora(shape: HandShape, ctx: WinContext, rules: Ruleset, kita: int = 0) -> DoraCount:
    """Dora in the whole hand (a kan's four tiles all count), under `rules`.

    Every indicator given is counted (the table knows how many kans were declared); with
    `kan_dora` / `kan_ura_dora` off only the first indicator of each row counts.

    `kita` Norths pulled out (sanma's nukidora) are a dora each, and are counted again by every
    indicator (or ura indicator) that points at North, as the tiles they are. Tenhou lists them
    all under `dora` (tenhou-sanma-wins-dev.jsonl: 1 kita and a West indicator make 2 dora).
    """
    packed = shape.packed
    if kita:
        packed += kita * _NORTH_UNIT
    dora = kita
    shift = _DORA_SHIFT if rules.players == 4 else _SANMA_DORA_SHIFT
    # Each indicator counts on its own: two indicators on the same tile make it worth two.
    for t in ctx.dora_indicators if rules.kan_dora else ctx.dora_indicators[:1]:
        dora += packed >> shift[t.kind] & FIELD
    ura = 0
    if ctx.riichi is not _NO_RIICHI and rules.ura_dora:
        for t in ctx.ura_indicators if rules.kan_ura_dora else ctx.ura_indicators[:1]:
            ura += packed >> shift[t.kind] & FIELD
    return _new(DoraCount, (dora, shape.red_fives if rules.red_fives else 0, ura))


# Built with tuple.__new__: DoraCount's generated __new__ is a Python call that costs as much
# again as the tuple, for every hand.
_new = tuple.__new__
