"""Teaching cannot make a table worse (issue 36, item 6): before a taught set is kept, the
teaching photos and the table's last confirmed wins are read again with it and without it, and
the teaching is refused when any of them reads worse with it.

Each photo is `Evidence`: its frame, the boxes of its tiles and the labels the player confirmed
(the teaching photo's by place in the order, a win's as applied). Reading it is classifying each
box's crop (`Recogniser.classify`: what teaching changes; the finder is the same with it or
without); a photo, or a teaching photo's row, reads worse when fewer of its tiles come out as
confirmed. The refusal names the first such and what it reads each way, e.g. "teaching photo 1,
row 1 reads 1m 2m 3m without it and 5m 6m 7m with it".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kiosk.words import i18n

SHOWN = 5  # tiles shown each way in the refusal: the first ones that differ


@dataclass(frozen=True)
class Evidence:
    """A photo to read again: `what` a catalogue key naming it (`teach.worse_photo`: a teaching
    photo, `teach.worse_win`: a confirmed win) with its `values`; `rows`, for a teaching photo,
    the row (1-based, as the page numbers them) of each tile: each row is compared apart."""

    frame: np.ndarray
    boxes: tuple[tuple[float, float, float, float], ...]
    labels: tuple[str | None, ...]
    what: str
    values: dict[str, Any]
    rows: tuple[int, ...] | None = None

    def parts(self) -> list[tuple[int | None, list[int]]]:
        """(row or None, the indices of its labelled tiles)."""
        labelled = [i for i, label in enumerate(self.labels) if label is not None]
        if self.rows is None:
            return [(None, labelled)]
        rows = sorted({self.rows[i] for i in labelled})
        return [(r, [i for i in labelled if self.rows[i] == r]) for r in rows]


@dataclass(frozen=True)
class Worse:
    """The first photo (or row) that reads worse with the new teaching."""

    evidence: Evidence
    row: int | None
    without: tuple[str, ...]  # the tiles that differ, as read without the new teaching
    with_it: tuple[str, ...]  # ... and with it
    right_without: int
    right_with: int

    def words(self, lang: str = "en") -> str:
        """>>> e = Evidence(np.zeros(1), (), (), "teach.worse_win", {"when": "21:04"})
        >>> Worse(e, None, ("1m", "7m"), ("2m", "8m"), 14, 9).words()
        'the win photo of 21:04 reads 1m 7m without it and 2m 8m with it'
        """
        what = i18n.t(self.evidence.what, lang, **self.evidence.values, row=self.row or 0)
        if self.row is not None:
            what = i18n.t("teach.worse_row", lang, photo=what, row=self.row)
        return i18n.t("teach.worse", lang, what=what, without=" ".join(self.without),
                      with_it=" ".join(self.with_it))


def labels_read(reader: Any, frame: np.ndarray, boxes: Sequence[Sequence[float]]) -> list[str]:
    """The label `reader` (a `vision.recogniser.Recogniser`) gives each box's crop."""
    from scorer.tiles import MODEL_CLASSES

    if not len(boxes):
        return []
    probs = reader.classify(frame, np.asarray(boxes, np.float32))[0]
    return [MODEL_CLASSES[int(k)] for k in probs.argmax(axis=1)]


def first_worse(before: Any, after: Any, evidence: Sequence[Evidence]) -> Worse | None:
    """The first photo or row `after` reads worse than `before` (fewer tiles as confirmed), or
    None when none does."""
    for item in evidence:
        old = labels_read(before, item.frame, item.boxes)
        new = labels_read(after, item.frame, item.boxes)
        for row, tiles in item.parts():
            right_old = sum(old[i] == item.labels[i] for i in tiles)
            right_new = sum(new[i] == item.labels[i] for i in tiles)
            if right_new < right_old:
                differ = [i for i in tiles if old[i] != new[i]][:SHOWN]
                return Worse(item, row, tuple(old[i] for i in differ),
                             tuple(new[i] for i in differ), right_old, right_new)
    return None


class TeachingWorse(ValueError):
    """The new teaching reads a photo worse than without it (`worse` says which and how)."""

    def __init__(self, worse: Worse):
        super().__init__(worse.words())
        self.worse = worse
