"""What vision saw: tiles with boxes and confidences, their grouping, and the problems noticed.

Everything here is an immutable value; ``Reading.to_json()`` is the shape the kiosk API and
``python -m vision read --json`` print: its ``problems`` in English, as the stages always wrote
them, and ``problem_keys`` the same as `vision.problems.Problem.to_json` values (a key and
values, for wording them in any language: `Problem.from_json`). Words for a reading are the
command line's (`vision.words.counts`, `vision.words.summary`, `vision.problems.problem_words`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.problems import Problem


class MeldKind(StrEnum):
    """How a group of revealed tiles was made (mirrors scorer.hand, which vision may not import)."""

    CHI = "chi"
    PON = "pon"
    MINKAN = "minkan"
    ANKAN = "ankan"
    KAKAN = "kakan"


@dataclass(frozen=True)
class DetectedTile:
    """One tile found in the frame.

    ``label`` is an mpsz class or ``back``; ``box`` is [x1, y1, x2, y2] in image pixels;
    ``alternatives`` are the classifier's next choices as (label, probability), best first;
    ``changed_by_decoder`` is true when hand-aware decoding replaced the classifier's top label.
    """

    label: str
    box: tuple[float, float, float, float]
    confidence: float
    alternatives: tuple[tuple[str, float], ...] = ()
    sideways: bool = False
    face_down: bool = False
    changed_by_decoder: bool = False
    detection_score: float = 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "box": [round(float(v), 1) for v in self.box],
            "confidence": round(float(self.confidence), 4),
            "alternatives": [[lab, round(float(p), 4)] for lab, p in self.alternatives],
            "sideways": self.sideways,
            "face_down": self.face_down,
            "changed_by_decoder": self.changed_by_decoder,
        }


@dataclass(frozen=True)
class MeldReading:
    """A called or closed set as laid out; ``tiles`` index into ``Reading.tiles``."""

    kind: MeldKind
    tiles: tuple[int, ...]
    called: int | None = None  # index (into ``tiles`` of the Reading) of the sideways tile


@dataclass(frozen=True)
class Grouping:
    """The layout: indices into ``Reading.tiles`` for each part of the shown hand."""

    concealed: tuple[int, ...] = ()
    winning: int | None = None
    melds: tuple[MeldReading, ...] = ()
    dora: tuple[int, ...] = ()
    unassigned: tuple[int, ...] = ()


@dataclass(frozen=True)
class Reading:
    """The whole result for one frame."""

    tiles: tuple[DetectedTile, ...]
    grouping: Grouping = field(default_factory=Grouping)
    problems: tuple[Problem, ...] = ()  # words-free: `vision.problems.problem_words` words one
    image_size: tuple[int, int] = (0, 0)  # (width, height)

    def labels(self, indices: tuple[int, ...]) -> list[str]:
        return [self.tiles[i].label for i in indices]

    def in_hand(self) -> int:
        """The hand's tiles as a winning hand counts them (14): concealed, winning tile and
        melds, each kan counted as 3."""
        g = self.grouping
        return len(g.concealed) + (g.winning is not None) + 3 * len(g.melds)

    def to_json(self) -> dict[str, Any]:
        g = self.grouping
        return {
            "image_size": list(self.image_size),
            "tiles": [t.to_json() for t in self.tiles],
            "concealed": self.labels(g.concealed),
            "winning": None if g.winning is None else self.tiles[g.winning].label,
            "melds": [
                {
                    "kind": m.kind.value,
                    "tiles": self.labels(m.tiles),
                    "indices": list(m.tiles),
                    "called": m.called,
                }
                for m in g.melds
            ],
            "dora": self.labels(g.dora),
            "groups": {
                "concealed": list(g.concealed),
                "winning": g.winning,
                "dora": list(g.dora),
                "unassigned": list(g.unassigned),
            },
            "problems": [p.english() for p in self.problems],
            "problem_keys": [p.to_json() for p in self.problems],
        }
