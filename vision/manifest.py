"""The labelled-image manifest: one JSON object per line, images plus their tiles and boxes.

The same format serves the shared photo set, the synthetic generator, evaluation, training and
the kiosk's saved captures, so any labelled set can be measured and trained on the same way::

    {"image": "images/a.jpg", "width": 640, "height": 640, "split": "valid",
     "tiles": [{"label": "3p", "box": [x1, y1, x2, y2]}, ...]}

Optional per-tile keys written by the synthetic generator: ``sideways``, ``face_down``, ``group``.
A tile without ``box`` (and then every tile of its photo) is labelled by its kind only; such a
photo is scored by the tiles read against the tiles labelled.
Optional per-image keys: ``augmented`` and ``layout`` (the expected grouping, synthetic only).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorer.tiles import MODEL_CLASSES

#: Labels a manifest may carry: the model classes plus ``other`` (flowers, seasons: not scored).
MANIFEST_LABELS = frozenset(MODEL_CLASSES) | {"other"}


class ManifestError(ValueError):
    """A manifest line that does not follow the format; the message names the line and field."""


@dataclass(frozen=True)
class LabelledTile:
    """One labelled tile: its class, axis-aligned box in image pixels and optional pose flags."""

    label: str
    box: tuple[float, float, float, float] | None  # None: labelled without a box
    sideways: bool | None = None
    face_down: bool | None = None
    group: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label}
        if self.box is not None:
            out["box"] = [round(v, 1) for v in self.box]
        for key in ("sideways", "face_down", "group"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


@dataclass(frozen=True)
class LabelledImage:
    """One manifest entry; ``path`` is resolved against the manifest's folder."""

    image: str
    path: Path
    width: int
    height: int
    split: str
    tiles: tuple[LabelledTile, ...]
    augmented: bool = False
    layout: dict[str, Any] | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "image": self.image,
            "width": self.width,
            "height": self.height,
            "split": self.split,
            "augmented": self.augmented,
            "tiles": [t.to_json() for t in self.tiles],
        }
        if self.layout is not None:
            out["layout"] = self.layout
        return out


def _parse_tile(raw: Any, where: str) -> LabelledTile:
    if not isinstance(raw, dict):
        raise ManifestError(f"{where}: a tile must be an object, got {raw!r}")
    label = raw.get("label")
    if label not in MANIFEST_LABELS:
        raise ManifestError(f"{where}: label {label!r} is not a model class or 'other'")
    box = raw.get("box")
    if box is None and "box" not in raw:  # a photo labelled by its tiles only (scored so)
        return LabelledTile(label=label, box=None)
    if not (
        isinstance(box, list) and len(box) == 4 and all(isinstance(v, int | float) for v in box)
    ):
        raise ManifestError(f"{where}: box must be [x1, y1, x2, y2] numbers, got {box!r}")
    x1, y1, x2, y2 = (float(v) for v in box)
    if x2 <= x1 or y2 <= y1:
        raise ManifestError(f"{where}: box {box!r} has no area (need x1 < x2 and y1 < y2)")
    return LabelledTile(
        label=label,
        box=(x1, y1, x2, y2),
        sideways=raw.get("sideways"),
        face_down=raw.get("face_down"),
        group=raw.get("group"),
    )


def parse_line(line: str, base: Path, where: str = "line") -> LabelledImage:
    """Parse one manifest line; ``base`` is the folder image paths are relative to."""
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as err:
        raise ManifestError(f"{where}: not JSON ({err.msg})") from err
    if not isinstance(raw, dict):
        raise ManifestError(f"{where}: must be a JSON object")
    for key in ("image", "tiles"):
        if key not in raw:
            raise ManifestError(f"{where}: missing field {key!r}")
    tiles = raw["tiles"]
    if not isinstance(tiles, list):
        raise ManifestError(f"{where}: 'tiles' must be a list")
    parsed = tuple(_parse_tile(t, f"{where} tile {i}") for i, t in enumerate(tiles))
    boxed = [t.box is not None for t in parsed]
    if any(boxed) and not all(boxed):
        raise ManifestError(f"{where}: tile {boxed.index(False)} has no box where others have")
    for key in ("width", "height"):  # the boxes' pixels; a photo labelled by kinds has none
        if key not in raw and any(boxed):
            raise ManifestError(f"{where}: missing field {key!r}")
    return LabelledImage(
        image=str(raw["image"]),
        path=base / str(raw["image"]),
        width=int(raw.get("width", 0)),  # 0: not given (the image says)
        height=int(raw.get("height", 0)),
        split=str(raw.get("split", "")),
        tiles=parsed,
        augmented=bool(raw.get("augmented", False)),
        layout=raw.get("layout"),
    )


def read_manifest(path: Path | str, splits: Iterable[str] | None = None) -> list[LabelledImage]:
    """Read every entry of a manifest, keeping only ``splits`` when given."""
    path = Path(path)
    wanted = set(splits) if splits is not None else None
    out = []
    for n, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        entry = parse_line(line, path.parent, where=f"{path.name}:{n}")
        if wanted is None or entry.split in wanted:
            out.append(entry)
    return out


def write_manifest(path: Path | str, entries: Iterable[LabelledImage]) -> None:
    """Write entries as JSON lines (image paths stay as given, relative to ``path``'s folder)."""
    with Path(path).open("w") as fh:
        for entry in entries:
            fh.write(json.dumps(entry.to_json()) + "\n")


def iter_splits(entries: Iterable[LabelledImage]) -> Iterator[tuple[str, list[LabelledImage]]]:
    """Group entries by split, in first-seen order."""
    groups: dict[str, list[LabelledImage]] = {}
    for e in entries:
        groups.setdefault(e.split, []).append(e)
    yield from groups.items()
