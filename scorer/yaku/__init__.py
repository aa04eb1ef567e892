"""Every yaku as data plus a pure predicate, in the order of Tenhou's list (yaku-ids.txt).

>>> from scorer.hand import Hand
>>> from scorer.context import WinContext
>>> from scorer.decompose import HandShape, read
>>> from scorer.rules import RULESETS
>>> r = read(HandShape.of(Hand.parse("123m123m456p789s55p", win="9s")), tsumo=False)[0]
>>> found(r, WinContext(), RULESETS["tenhou"])
((('pinfu', 1), ('iipeikou', 1)), 2, False)
"""

from __future__ import annotations

from typing import Final, NamedTuple

from scorer.context import WinContext
from scorer.decompose import Reading
from scorer.rules import Ruleset
from scorer.yaku.base import Predicate, Yaku
from scorer.yaku.facts import CLOSED, hand_facts, reading_facts
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
    YAKUHAI_NORTH,
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
    TANYAO, IIPEIKOU, *SEAT_WINDS, *ROUND_WINDS, YAKUHAI_NORTH, HAKU, HATSU, CHUN,
    DOUBLE_RIICHI, CHIITOITSU,
    CHANTA, ITTSU, SANSHOKU_DOUJUN, SANSHOKU_DOUKOU, SANKANTSU, TOITOI, SANANKOU, SHOUSANGEN,
    HONROUTOU, RYANPEIKOU, JUNCHAN, HONITSU, CHINITSU, RENHOU, RENHOU_YAKUMAN, TENHOU, CHIIHOU,
    DAISANGEN, SUUANKOU, SUUANKOU_TANKI, TSUUIISOU, RYUUIISOU, CHINROUTOU, CHUUREN_POUTOU,
    JUNSEI_CHUUREN_POUTOU, KOKUSHI_MUSOU, KOKUSHI_MUSOU_13, DAISUUSHII, SHOUSUUSHII, SUUKANTSU,
)
#: Ids that are not hand yaku but appear in Tenhou's lists (dora are counted by scorer.dora).
DORA_IDS: Final = ("dora", "aka_dora", "ura_dora")
_ORDER: Final = {y.id: i for i, y in enumerate(YAKU)}

Row = tuple[Predicate | None, str, int]  # (rest of the test, id, han), for a closed or open hand
Entries = tuple[tuple[str, int], ...]


class Candidates(NamedTuple):
    """The yaku to consider for some facts: yakuman, ordinary yaku as rows, and when no row
    needs a test (nearly always) the ordinary yaku found, (id, han), and their han."""

    yakuman: tuple[Yaku, ...]
    rows: tuple[Row, ...]
    certain: Entries | None
    certain_han: int


_CANDIDATES: Final[dict[int, Candidates]] = {}
_CANDIDATES_LIMIT: Final = 1 << 14


def candidates(facts: int) -> Candidates:
    """The yakuman and the yaku (with their han) whose needs all hold among `facts`.

    Kept by `facts`, which hands share (the key says which yaku are possible, never what a
    hand scores).
    """
    closed = bool(facts & CLOSED)
    possible = [y for y in YAKU if y.needs & facts == y.needs and y.han(closed) is not None]
    rows = tuple((y.test, y.id, y.closed_han if closed else y.open_han or 0)
                 for y in possible if not y.yakuman)
    certain = None if any(test for test, _, _ in rows) else tuple((i, h) for _, i, h in rows)
    found = Candidates(tuple(y for y in possible if y.yakuman), rows, certain,
                       sum(h for _, h in certain) if certain else 0)
    if len(_CANDIDATES) >= _CANDIDATES_LIMIT:
        _CANDIDATES.clear()
    _CANDIDATES[facts] = found
    return found


def found(r: Reading, ctx: WinContext, rules: Ruleset,
          hand: int | None = None) -> tuple[Entries, int, bool]:
    """The yaku that hold for this reading, in Tenhou's order, their total and whether they are
    yakuman: (id, units) for yakuman (which drop every ordinary yaku), else (id, han).

    `hand` is `hand_facts(r.shape, ctx, rules)` when the caller has it already (it is the same
    for every reading of a hand).
    """
    if hand is None:
        hand = hand_facts(r.shape, ctx, rules)
    facts = hand | reading_facts(r, ctx, hand)
    yakuman, rows, certain, certain_han = _CANDIDATES.get(facts) or candidates(facts)
    if yakuman:
        limits = tuple([(y.id, y.units(rules)) for y in yakuman
                        if y.test is None or y.test(r, ctx, rules)])
        if limits:
            return limits, sum([u for _, u in limits]), True
    if certain is not None:
        return certain, certain_han, False
    entries = tuple([(yaku_id, han) for test, yaku_id, han in rows
                     if test is None or test(r, ctx, rules)])
    return entries, sum([han for _, han in entries]), False


def tenhou_order(entries: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Sort (id, n) entries into Tenhou's order of yaku."""
    return sorted(entries, key=lambda e: _ORDER.get(e[0], len(_ORDER)))


def by_id(yaku_id: str) -> tuple[Yaku, ...]:
    """The yaku with this id (renhou has two entries, by rule)."""
    return tuple(y for y in YAKU if y.id == yaku_id)


__all__ = ["DORA_IDS", "YAKU", "Candidates", "Entries", "Yaku", "by_id", "candidates", "found",
           "hand_facts", "tenhou_order"]
