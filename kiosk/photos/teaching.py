"""Teaching the recogniser a table's own tiles: the order the kiosk asks for, the teaching photos
waiting for the player's confirmation, and what is wrong with a photo in a player's words.

The player lays the set out row by row in `DEFAULT_ORDER` (1-9m, 1-9p, 1-9s, 1-7z, the red fives
and a face-down tile), all rows in one photo or a few rows per photo (`rows`: which of the
order's rows the photo holds). `vision.teach.lay_out` labels each located tile by its place; the
page shows them, the player confirms or corrects, and `RecogniserService.teach` adapts the
reader. Photos wait here, bounded like `CaptureStore`'s pending captures, until confirmed.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.errors import ApiError
from kiosk.photos.camera import Still
from kiosk.photos.pending import PendingPhotos
from kiosk.words import i18n

#: the rows the teach page asks for: every kind, the red fives and a face-down tile
DEFAULT_ORDER = "123456789m/123456789p/123456789s/1234567z/0m0p0s back"
KEEP_SHOTS = 8
SHOT_BYTES = 192 * 1024 * 1024  # decoded pixels + JPEGs of teaching photos not yet confirmed


def order_rows(text: str = DEFAULT_ORDER) -> tuple[tuple[str, ...], ...]:
    """The order's rows of labels (`vision.teach.expected_rows`).

    >>> [len(r) for r in order_rows()]
    [9, 9, 9, 7, 4]
    """
    from vision.teach import expected_rows

    return expected_rows(text)


def parse_row_choice(raw: str | None, count: int) -> tuple[int, ...]:
    """Which rows of the order a photo holds, from `rows=0,1` (1-based numbers are not used:
    the API speaks indices); all rows when absent. A 400 (coded) naming the bad part."""
    if raw is None or not raw.strip():
        return tuple(range(count))
    chosen = []
    for part in raw.split(","):
        part = part.strip()
        if not part.isdigit() or not 0 <= int(part) < count:
            raise ApiError(400, f"rows: {part!r} is not a row of the order (0-{count - 1})",
                           code="teach_rows", words={"part": part[:8], "last": count - 1})
        if int(part) in chosen:
            raise ApiError(400, f"rows: row {part} is given twice", code="teach_row_twice",
                           words={"row": part})
        chosen.append(int(part))
    return tuple(sorted(chosen))


def problems_in_words(mismatches: Sequence[Any], expected: Sequence[Sequence[str]],
                      lang: str, numbers: Sequence[int] | None = None) -> list[str]:
    """What makes a teaching photo's labels doubtful, as a player says it: its layout's
    `mismatches` (`vision.teach.Mismatch`: the counts that differ from the rows asked) in the
    page's language; `expected` the rows asked for, `numbers` their numbers in the order
    (default 1, 2, ...).

    >>> from vision.teach import Mismatch
    >>> rows = order_rows("123456789m/123456789p")
    >>> problems_in_words([Mismatch("tiles", 17, 18), Mismatch("row", 8, 9, 2, "1p..9p")],
    ...                   rows, "en")
    ['17 tiles found, 18 expected', '8 tiles found in row 2 (1p-9p), 9 expected']
    >>> problems_in_words([Mismatch("tiles", 17, 18), Mismatch("rows", 1, 2)], rows, "en")
    ['17 tiles found, 18 expected', 'The tiles lie in 1 row, 2 expected']
    """
    if any(m.what == "tiles" and not m.found for m in mismatches):
        return [i18n.t("teach.problem.none", lang)]
    out = []
    for m in mismatches:
        row = expected[m.row - 1] if m.what == "row" else ("",)
        number = numbers[m.row - 1] if numbers is not None and m.what == "row" else m.row
        out.append(i18n.t("teach.problem." + m.what, lang, n=m.found, found=m.found,
                          expected=m.expected, row=number, first=row[0], last=row[-1]))
    return out


@dataclass(frozen=True, slots=True)
class TeachingShot:
    """A teaching photo waiting for confirmation: the photo, the rows of the order it holds,
    and the located tiles with the labels their places give (`vision.teach.TeachingLayout`)."""

    id: str
    still: Still
    rows: tuple[int, ...]
    layout: Any  # vision.teach.TeachingLayout
    at: float

    def problems(self, order: Sequence[Sequence[str]], lang: str) -> list[str]:
        """What differs from the rows of `order` the photo was asked for, in `lang`: nothing
        when each row asked holds as many tiles as asked (then it may be confirmed)."""
        return problems_in_words(self.layout.mismatches, [order[r] for r in self.rows], lang,
                                 [r + 1 for r in self.rows])

    def answer(self, order: Sequence[Sequence[str]], lang: str) -> dict[str, Any]:
        """What the page shows for the player to confirm; `ok` false (Confirm off) where the
        photo does not show the rows asked."""
        problems = self.problems(order, lang)
        return {"id": self.id, "rows": list(self.rows), "width": self.still.width,
                "height": self.still.height, "tiles": self.layout.to_json()["tiles"],
                "problems": problems, "ok": not problems}


class TeachingShots(PendingPhotos[TeachingShot]):
    """Teaching photos not yet confirmed: the newest `KEEP_SHOTS`, at most `SHOT_BYTES`."""

    def __init__(self, keep: int = KEEP_SHOTS, max_bytes: int = SHOT_BYTES):
        super().__init__(keep, max_bytes)

    def shot(self, still: Still, rows: tuple[int, ...], layout: Any) -> TeachingShot:
        return self.add(TeachingShot("t" + time.strftime("%Y%m%d-%H%M%S-") +
                                     secrets.token_hex(3), still, rows, layout, time.time()))

    def discard(self, shot_ids: Sequence[str]) -> None:
        for shot_id in shot_ids:
            self.pop(shot_id)
