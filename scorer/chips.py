"""Chips (祝儀) for a scored win, itemised: a pure function of the `Score` and its rules.

A free parlor pays chips beside the points (`Ruleset.chips`, see `scorer.rule_values.Chips`): a
chip for each red five in the winning hand, each ura dora and an ippatsu, or a yakuman's own
count instead; on a ron the discarder pays them, on a tsumo each other player pays the same
count (times `tsumo_factor`). The table moves them (`WinningHand.chips`, `TableState.chips`).

>>> from scorer.context import Riichi, WinContext
>>> from scorer.hand import Hand
>>> from scorer.rules import PARLOR_RULESETS
>>> from scorer.score import score
>>> from scorer.tiles import parse_tiles
>>> ctx = WinContext(tsumo=True, riichi=Riichi.RIICHI, ura_indicators=parse_tiles("1s"))
>>> four_reds = PARLOR_RULESETS["parlor_four_reds"]
>>> won = score(Hand.parse("234m406p22s340678s", win="8s"), ctx, four_reds)
>>> str(win_chips(won))
'aka 2, ura 2: 4 chips from each'
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scorer.dora import count_dora
from scorer.result import Score
from scorer.shape import HandShape


@dataclass(frozen=True, slots=True)
class ChipItem:
    """One reason for chips: `what` (aka, ura, ippatsu, yakuman), how many of it the hand holds
    (`count`: red fives, ura dora, 1, yakuman units), and the chips it earns from each payer."""

    what: str
    count: int
    chips: int

    def __str__(self) -> str:
        return f"{self.what} {self.count}"


@dataclass(frozen=True, slots=True)
class WinChips:
    """A win's chips: the itemised reasons and who pays. `each` is what every payer pays (the
    discarder alone on a ron, each other player on a tsumo)."""

    items: tuple[ChipItem, ...]
    tsumo: bool
    factor: int = 1  # a tsumo's chips times `Chips.tsumo_factor` (a yakuman's count is its own)

    @property
    def each(self) -> int:
        return sum(item.chips for item in self.items) * self.factor

    def total(self, players: int) -> int:
        """All the chips the winner takes at a table of `players`."""
        return self.each * ((players - 1) if self.tsumo else 1)

    def __str__(self) -> str:
        if not self.items:
            return "no chips"
        who = "from each" if self.tsumo else "from the discarder"
        doubled = f" (x{self.factor} on a tsumo)" if self.factor != 1 else ""
        return f"{', '.join(map(str, self.items))}: {self.each} chips {who}{doubled}"


def win_chips(won: Score) -> WinChips:
    """The chips a scored win earns under its rules (none for a hand that is not a win).

    A yakuman pays the convention's yakuman chips instead of the others where it sets them
    (`yakuman_ron` / `yakuman_tsumo`); otherwise it pays for its red fives, ura and ippatsu as
    any hand. Red fives earn chips in an open hand only with `open_hand` (鳴き祝); ura dora and
    ippatsu come with riichi, so only ever with a closed hand. Without `kan_ura` only the ura
    dora of the first ura indicator earn chips.
    """
    rules = won.rules
    chips = rules.chips
    tsumo = won.context.tsumo
    if not won.is_win or not chips.pays:
        return WinChips((), tsumo)
    units = sum(u for _, u in won.yakuman)
    per_yakuman = chips.yakuman_tsumo if tsumo else chips.yakuman_ron
    if units and per_yakuman:
        return WinChips((ChipItem("yakuman", units, units * per_yakuman),), tsumo)
    items = []
    aka = won.aka_dora if chips.open_hand or won.hand.is_closed else 0
    if aka and chips.red_five:
        items.append(ChipItem("aka", aka, aka * chips.red_five))
    ura = won.ura_dora
    if ura and not chips.kan_ura and len(won.context.ura_indicators) > 1:
        first = replace(won.context, ura_indicators=won.context.ura_indicators[:1])
        ura = count_dora(HandShape.of(won.hand), first, rules, won.hand.kita).ura
    if ura and chips.ura:
        items.append(ChipItem("ura", ura, ura * chips.ura))
    if chips.ippatsu and any(name == "ippatsu" for name, _ in won.yaku):
        items.append(ChipItem("ippatsu", 1, chips.ippatsu))
    return WinChips(tuple(items), tsumo, chips.tsumo_factor if tsumo else 1)
