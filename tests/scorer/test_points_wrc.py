"""Every (fu, han) cell of the scoring tables in the WRC 2015 annex, against points.py.

The tables are read from ../shared/rules/wrc-2015-yaku-and-scoring-tables.txt at test time, never
copied. A-2 is the WRC 2015 table: it rounds 4 han 30 fu and 3 han 60 fu up to mangan (kiriage);
the A-1 tables (the EMA 2012 comparison) do not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from scorer.points import HandValue
from scorer.rules import RULESETS, Ruleset
from tests.shared import need

TABLES = ("rules", "wrc-2015-yaku-and-scoring-tables.txt")

# A cell: (fu, han or None, yakuman units, dealer, "tsumo"/"ron") -> the payment(s) it shows;
# tsumo cells: a dealer's "all" payment, or (from each non-dealer, from the dealer).
Cell = tuple[int, int, int, bool, str]


def _text() -> str:
    return need(*TABLES).read_text(encoding="utf-8")


def _limit_hans(label: str) -> list[int]:
    """'5' -> [5], '6 - 7' -> [6, 7], '11+' -> [11, 12], 'Y' or '13+' -> [] (a real yakuman)."""
    label = label.replace(" ", "")
    if label in ("Y", "13+"):
        return []
    if label.endswith("+"):
        return [int(label[:-1]), int(label[:-1]) + 1]
    low, _, high = label.partition("-")
    return list(range(int(low), int(high or low) + 1))


def _points(cell: str) -> int | None:
    """A payment in a table cell (labels such as '5', '6 - 7', 'Han' are not payments)."""
    return int(cell) if cell.isdigit() and int(cell) >= 100 else None


def _limit_cells(label: str, dealer: bool, kind: str,
                 shown: tuple[int, ...]) -> Iterator[tuple[Cell, tuple[int, ...]]]:
    for han in _limit_hans(label) or [0]:
        yield (30, han, 0 if han else 1, dealer, kind), shown


def a2_cells() -> Iterator[tuple[Cell, tuple[int, ...]]]:
    """The big two-sided table: East columns 4..1 han left of the fu, non-East 1..4 han right.

    Below 70 fu a limit legend takes the places of the East 4-3 han and non-East 3-4 han columns:
    a label ('5', '6 - 7', ..., 'Y') with the limit's payments beside it.
    """
    text = _text()
    body = text[text.index("A-2Scoring table"):text.index('The "East" side')]
    fu = 0
    east_label = other_label = ""
    for line in body.splitlines():
        c = (line.split("\t") + [""] * 23)[:23]
        if c[8] == "tsumo" or c[1] == "all" and c[2] == "Y":
            kind = "tsumo"
            fu = int(c[9] or 0)
            east_label = c[2] if c[2] and _points(c[2]) is None else ""
            other_label = c[19] if c[19] and _points(c[19]) is None else ""
        elif c[8] == "ron" or (east_label and _points(c[0])):
            kind = "ron"
        else:
            continue
        for han, i in ((4, 0), (3, 2), (2, 4), (1, 6)):  # East: "N all" / ron N
            value = _points(c[i])
            if value is None:
                continue
            if east_label and i == 0:
                yield from _limit_cells(east_label, True, kind, (value,))
            elif fu and not (east_label and i == 2):
                yield (fu, han, 0, True, kind), (value,)
        for han, i in ((1, 11), (2, 14), (3, 17), (4, 20)):  # non-East: "a / b" / ron N
            if other_label and i >= 17:
                continue
            if kind == "tsumo" and c[i + 1] == "/":
                shown: tuple[int, ...] = (int(c[i]), int(c[i + 2]))
            elif kind == "ron" and _points(c[i + 2]):
                shown = (int(c[i + 2]),)
            else:
                continue
            if fu:
                yield (fu, han, 0, False, kind), shown
        if other_label:
            shown = (int(c[20]), int(c[22])) if kind == "tsumo" else (int(c[22]),)
            yield from _limit_cells(other_label, False, kind, shown)
        if kind == "ron":
            east_label = other_label = ""


def a1_cells() -> Iterator[tuple[Cell, tuple[int, ...]]]:
    """The four small tables (East/other x tsumo/ron, fu rows, 1-4 fan columns) and limits."""
    text = _text()
    body = text[text.index("A-1Scoring tables"):text.index("The tables are described")]
    sections = re.split(r"\n(EAST TSUMO|OTHER TSUMO|EAST RON|OTHER RON|Limit hand)", body)
    for title, table in zip(sections[1::2], sections[2::2], strict=True):
        rows = [line.split("\t") for line in table.strip().splitlines() if line.strip()]
        if title == "Limit hand":
            # "Mangan  5  4000  2000" then a row with the dealer's 4000 under "Others".
            for row, below in zip(rows[1::2], rows[2::2], strict=True):
                east, other, from_dealer = int(row[2]), int(row[3]), int(below[3])
                yield from _limit_cells(row[1], True, "tsumo", (east,))
                yield from _limit_cells(row[1], False, "tsumo", (other, from_dealer))
            continue
        dealer = title.startswith("EAST")
        kind = "tsumo" if "TSUMO" in title else "ron"
        pending: dict[tuple[int, int], int] = {}
        for row in rows[1:]:
            fu = int(row[0])
            for han, cell in enumerate(row[1:5], 1):
                if not cell:
                    continue
                if title != "OTHER TSUMO":
                    yield (fu, han, 0, dealer, kind), (int(cell),)
                elif (fu, han) in pending:  # two rows per fu: non-dealers, then the dealer
                    yield (fu, han, 0, False, kind), (pending.pop((fu, han)), int(cell))
                else:
                    pending[(fu, han)] = int(cell)


def _pays(cell: Cell, rules: Ruleset) -> tuple[int, ...]:
    fu, han, units, dealer, kind = cell
    value = HandValue.of(han, fu, rules, yakuman=units)
    if kind == "ron":
        return (value.ron(dealer),)
    from_dealer, from_other = value.tsumo(dealer)
    return (from_other,) if dealer else (from_other, from_dealer)


@pytest.mark.parametrize(("table", "ruleset", "at_least"), [
    (a2_cells, "wrc", 150), (a1_cells, "ema", 150)])
def test_every_cell(table: object, ruleset: str, at_least: int) -> None:
    rules = RULESETS[ruleset]
    cells = list(table())  # type: ignore[operator]
    assert len(cells) >= at_least, "the table was not read whole"
    wrong = [(cell, shown, _pays(cell, rules)) for cell, shown in cells
             if _pays(cell, rules) != shown]
    assert wrong == [], f"{len(wrong)} of {len(cells)} cells differ: (cell, table, ours)"


def test_the_two_tables_differ_exactly_by_kiriage() -> None:
    a1 = dict(a1_cells())
    a2 = dict(a2_cells())
    differ = sorted({cell[:2] for cell, shown in a2.items() if cell in a1 and a1[cell] != shown})
    assert differ == [(30, 4), (60, 3)]
