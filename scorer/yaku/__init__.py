"""Every yaku as data plus a pure predicate, in the order of Tenhou's list (yaku-ids.txt).

>>> from scorer.hand import Hand
>>> from scorer.context import WinContext
>>> from scorer.decompose import HandShape, read
>>> from scorer.rules import RULESETS
>>> r = read(HandShape.of(Hand.parse("123m123m456p789s55p", win="9s")), tsumo=False)[0]
>>> found(HAND_YAKU, r, WinContext(), RULESETS["tenhou"])
[]
>>> found(READING_YAKU, r, WinContext(), RULESETS["tenhou"])
[('pinfu', 1), ('iipeikou', 1)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from scorer.context import WinContext
from scorer.decompose import Reading
from scorer.rules import Ruleset
from scorer.yaku.base import Predicate, Scope, Yaku
from scorer.yaku.patterns import (
    CHANTA,
    CHIITOITSU,
    CHINITSU,
    CHUN,
    HAKU,
    HATSU,
    HONITSU,
    HONROUTOU,
    IIPEIKOU,
    ITTSU,
    JUNCHAN,
    PINFU,
    ROUND_WINDS,
    RYANPEIKOU,
    SANANKOU,
    SANKANTSU,
    SANSHOKU_DOUJUN,
    SANSHOKU_DOUKOU,
    SEAT_WINDS,
    SHOUSANGEN,
    TANYAO,
    TOITOI,
    is_pinfu,
)
from scorer.yaku.situational import (
    CHANKAN,
    CHIIHOU,
    DOUBLE_RIICHI,
    HAITEI_RAOYUE,
    HOUTEI_RAOYUI,
    IPPATSU,
    MENZEN_TSUMO,
    RENHOU,
    RENHOU_YAKUMAN,
    RIICHI,
    RINSHAN_KAIHOU,
    TENHOU,
)
from scorer.yaku.yakuman import (
    CHINROUTOU,
    CHUUREN_POUTOU,
    DAISANGEN,
    DAISUUSHII,
    JUNSEI_CHUUREN_POUTOU,
    KOKUSHI_MUSOU,
    KOKUSHI_MUSOU_13,
    RYUUIISOU,
    SHOUSUUSHII,
    SUUANKOU,
    SUUANKOU_TANKI,
    SUUKANTSU,
    TSUUIISOU,
)

#: Every yaku, in Tenhou's order (the order of yaku-ids.txt, which is the output order).
YAKU: Final[tuple[Yaku, ...]] = (
    MENZEN_TSUMO, RIICHI, IPPATSU, CHANKAN, RINSHAN_KAIHOU, HAITEI_RAOYUE, HOUTEI_RAOYUI, PINFU,
    TANYAO, IIPEIKOU, *SEAT_WINDS, *ROUND_WINDS, HAKU, HATSU, CHUN, DOUBLE_RIICHI, CHIITOITSU,
    CHANTA, ITTSU, SANSHOKU_DOUJUN, SANSHOKU_DOUKOU, SANKANTSU, TOITOI, SANANKOU, SHOUSANGEN,
    HONROUTOU, RYANPEIKOU, JUNCHAN, HONITSU, CHINITSU, RENHOU, RENHOU_YAKUMAN, TENHOU, CHIIHOU,
    DAISANGEN, SUUANKOU, SUUANKOU_TANKI, TSUUIISOU, RYUUIISOU, CHINROUTOU, CHUUREN_POUTOU,
    JUNSEI_CHUUREN_POUTOU, KOKUSHI_MUSOU, KOKUSHI_MUSOU_13, DAISUUSHII, SHOUSUUSHII, SUUKANTSU,
)
#: Ids that are not hand yaku but appear in Tenhou's lists (dora are counted by scorer.dora).
DORA_IDS: Final = ("dora", "aka_dora", "ura_dora")

_Entry = tuple[Predicate, str, int, Yaku]


@dataclass(frozen=True, slots=True)
class YakuTable:
    """Yaku prepared for checking: for closed and for open hands, (test, id, han, yaku) rows."""

    yaku: tuple[Yaku, ...]
    closed: tuple[_Entry, ...]
    open: tuple[_Entry, ...]

    @classmethod
    def of(cls, yaku: Iterable[Yaku]) -> YakuTable:
        yaku = tuple(yaku)
        return cls(yaku, tuple((y.test, y.id, y.closed_han, y) for y in yaku),
                   tuple((y.test, y.id, y.open_han, y) for y in yaku if y.open_han is not None))


HAND_YAKU: Final = YakuTable.of(y for y in YAKU if y.scope is Scope.HAND and not y.yakuman)
HAND_YAKUMAN: Final = YakuTable.of(y for y in YAKU if y.scope is Scope.HAND and y.yakuman)
READING_YAKU: Final = YakuTable.of(y for y in YAKU if y.scope is Scope.READING and not y.yakuman)
READING_YAKUMAN: Final = YakuTable.of(y for y in YAKU if y.scope is Scope.READING and y.yakuman)
_ORDER: Final = {y.id: i for i, y in enumerate(YAKU)}


def found(table: YakuTable, r: Reading, ctx: WinContext,
          rules: Ruleset) -> list[tuple[str, int]]:
    """The yaku of `table` that hold for this reading: (id, han), or (id, units) for yakuman."""
    out: list[tuple[str, int]] = []
    for test, yaku_id, han, y in (table.closed if r.shape.closed else table.open):
        if test(r, ctx, rules):
            out.append((yaku_id, y.units(rules) if y.yakuman else han))
    return out


def tenhou_order(entries: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Sort (id, n) entries into Tenhou's order of yaku."""
    return sorted(entries, key=lambda e: _ORDER.get(e[0], len(_ORDER)))


def by_id(yaku_id: str) -> tuple[Yaku, ...]:
    """The yaku with this id (renhou has two entries, by rule)."""
    return tuple(y for y in YAKU if y.id == yaku_id)


__all__ = ["DORA_IDS", "HAND_YAKU", "HAND_YAKUMAN", "READING_YAKU", "READING_YAKUMAN", "YAKU",
           "Scope", "Yaku", "YakuTable", "by_id", "found", "is_pinfu", "tenhou_order"]
