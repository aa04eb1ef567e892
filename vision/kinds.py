"""Tile kinds from the classifier's labels: red fives as fives, runs and sets, a meld's kind.

Shared by the layout, the row parse, the decoder and the stages that look for an added kan's
stacked tile.
"""

from __future__ import annotations

from collections.abc import Sequence

from vision.reading import MeldKind


def kind_of(label: str) -> str:
    """The tile kind, red fives counted as fives (``0m`` -> ``5m``)."""
    return "5" + label[1] if label[0] == "0" else label


def meld_kind(labels: Sequence[str], stacked: bool, closed: bool) -> MeldKind:
    """Name a meld from its labels and pose: 4 tiles are a kan (closed, added or open)."""
    if len(labels) == 4:
        if closed:
            return MeldKind.ANKAN
        return MeldKind.KAKAN if stacked else MeldKind.MINKAN
    kinds = [kind_of(t) for t in labels if t != "back"]
    return MeldKind.CHI if in_sequence(kinds) else MeldKind.PON


def in_sequence(kinds: Sequence[str]) -> bool:
    """Three kinds (red fives as fives) of one number suit in a run."""
    nums = sorted(int(k[0]) for k in kinds)
    return (
        len(kinds) == 3
        and kinds[0][1] != "z"
        and len({k[1] for k in kinds}) == 1
        and nums == [nums[0], nums[0] + 1, nums[0] + 2]
    )


def is_set(kinds: Sequence[str]) -> bool:
    """Three or four kinds of one kind, or three in a run (no face-down tile)."""
    return "back" not in kinds and (len(set(kinds)) == 1 or in_sequence(kinds))
