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

from dataclasses import dataclass
from typing import Final

from scorer.context import Riichi, WinContext
from scorer.hand import NORTH_KIND
from scorer.rules import Ruleset
from scorer.shape import BITS, FIELD, IN_SUIT, HandShape, count_in
from scorer.tiles import TILES, dora_from_indicator


@dataclass(frozen=True, slots=True)
class DoraCount:
    dora: int  # from the dora and kan dora indicators
    aka: int  # red fives
    ura: int  # from the ura (and kan ura) indicators, after a riichi win

    def __init__(self, dora: int, aka: int, ura: int) -> None:
        # (Written out, not generated: compiled, each `object.__setattr__` is a plain store, and
        # every hand scored counts its dora.)
        object.__setattr__(self, "dora", dora)
        object.__setattr__(self, "aka", aka)
        object.__setattr__(self, "ura", ura)

    @property
    def total(self) -> int:
        return self.dora + self.aka + self.ura


#: Per indicator kind, the kind of its dora. Three players play without 2m-8m, so there 1m points
#: at 9m (and 9m at 1m): no other indicator changes, and 2m-8m never show (`scorer.validity`
#: rejects them at a three-player table).
_DORA: Final = tuple(dora_from_indicator(t).kind for t in TILES)
_SANMA_DORA: Final = tuple(dora_from_indicator(t, players=3).kind for t in TILES)
_NORTH_IN_HONOURS: Final = IN_SUIT[NORTH_KIND]


# Enum members as Final module names (see scorer.shape: `Riichi.NONE` is slow under Python 3.11).
_NO_RIICHI: Final = Riichi.NONE


def count_dora(shape: HandShape, ctx: WinContext, rules: Ruleset, kita: int = 0) -> DoraCount:
    """Dora in the whole hand (a kan's four tiles all count), under `rules`.

    Every indicator given is counted (the table knows how many kans were declared); with
    `kan_dora` / `kan_ura_dora` off only the first indicator of each row counts.

    `kita` Norths pulled out (sanma's nukidora) are a dora each, and are counted again by every
    indicator (or ura indicator) that points at North, as the tiles they are. Tenhou lists them
    all under `dora` (tenhou-sanma-wins-dev.jsonl: 1 kita and a West indicator make 2 dora).
    """
    suits = shape.suits
    if kita:
        man, pin, sou, honours = suits
        suits = (man, pin, sou, honours + kita * _NORTH_IN_HONOURS)
    dora = kita
    points_at = _DORA if rules.players == 4 else _SANMA_DORA
    # Each indicator counts on its own: two indicators on the same tile make it worth two.
    for t in ctx.dora_indicators if rules.kan_dora else ctx.dora_indicators[:1]:
        dora += count_in(suits, points_at[t.kind])
    ura = 0
    if ctx.riichi is not _NO_RIICHI and rules.ura_dora:
        for t in ctx.ura_indicators if rules.kan_ura_dora else ctx.ura_indicators[:1]:
            ura += count_in(suits, points_at[t.kind])
    red_fives = rules.red_fives
    if red_fives.one_each:
        aka = shape.red_fives
    else:  # red fives count in the suits whose set holds them (one shown elsewhere is plain)
        aka = 0
        for i, allowed in enumerate(red_fives.counts):
            if allowed:
                aka += shape.reds >> (BITS * i) & FIELD
    return DoraCount(dora, aka, ura)
