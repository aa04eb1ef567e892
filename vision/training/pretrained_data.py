"""The crops the pretrained classifier learns from, each stored once (``data.STORE`` px with
``data.STORE_PAD`` context, cached under the run folder) and re-cut by ``data.batch`` each step.

- every trainable photo source not left out: its crops at the labelled boxes and at the
  finder's own boxes (which are looser or tighter than a label, as inference cuts them);
- rendered rows (all 38 classes, red fives and backs the photos lack, with each glyph's axis)
  and rendered riichi scenes as the finder boxes them (small, steep, sideways tiles);
- no tile: where the finder boxes a finger, a point stick, clutter or bare table in rendered
  scenes (label -1), so one head learns to drop them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.manifest import LabelledImage, read_manifest
from vision.sets import BY_NAME, entries_of
from vision.training import data

TRAIN_SPLITS = ("train", "train-augmented")
NO_TILE = -1  # the label of a crop that holds no tile


@dataclass(frozen=True)
class Crops:
    """Stored crops, their class (``NO_TILE`` for none) and glyph axis (-1: not known)."""

    x: np.ndarray
    y: np.ndarray
    axis: np.ndarray

    @staticmethod
    def of(x: np.ndarray, y: np.ndarray, axis: np.ndarray | None = None) -> Crops:
        return Crops(x, y, np.full(len(y), -1, np.int64) if axis is None else axis)

    @staticmethod
    def join(parts: list[Crops]) -> Crops:
        return Crops(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("x", "y", "axis")))


@dataclass(frozen=True)
class Recipe:
    """How many rendered rows and scenes, in which styles, with what clutter."""

    synth_rows: int
    scenes: int
    procedural_share: float
    clutter_share: float
    seed: int


def source_entries(photos: Path, name: str, training: bool) -> list[LabelledImage]:
    """A source's photos: those measured (``vision.sets``: ``valid`` for roboflow), or when
    ``training`` those trained on (roboflow's training splits; every photo of a source that
    has no splits)."""
    try:
        measured = entries_of(photos, BY_NAME[name])
    except FileNotFoundError as err:
        raise SystemExit(f"error: {err}") from None
    if not training or BY_NAME[name].splits is None:
        return measured
    return read_manifest(photos / name / "manifest.jsonl", TRAIN_SPLITS)


def _cached(path: Path, make: Callable[[], tuple[np.ndarray, ...]]) -> Crops:
    return Crops.of(*data.cache(path, make))


def source_crops(photos: Path, name: str, models: Path, cache: Path) -> Crops:
    """A trainable source's crops at its labelled boxes and at the finder's boxes."""
    entries = source_entries(photos, name, True)
    return Crops.join([
        _cached(cache / f"{name}_labelled.npz", lambda: data.real_crops(entries, desc=name)),
        _cached(cache / f"{name}_finder.npz",
                lambda: data.finder_crops(entries, models, desc=f"{name} (finder)")),
    ])


def rendered_crops(recipe: Recipe, models: Path, cache: Path) -> Crops:
    """Rendered rows and scenes, and the finder's boxes on nothing, as ``recipe`` asks."""
    r, tag = recipe, f"{recipe.seed}_{recipe.procedural_share:g}"
    rows = _cached(cache / f"rows_{r.synth_rows}_{tag}.npz",
                   lambda: data.synth_crops(r.synth_rows, 1000 + r.seed,
                                            procedural_share=r.procedural_share))
    scenes = _cached(cache / f"scenes_{r.scenes}_{tag}.npz",
                     lambda: data.scene_crops(r.scenes, 4000 + r.seed, models,
                                              procedural_share=r.procedural_share))
    mined = _cached(cache / f"no_tile_{r.scenes}_{r.seed}_{r.clutter_share:g}.npz",
                    lambda: data.tile_or_not(r.scenes, 3000 + r.seed, models, r.clutter_share))
    none = mined.y == 0
    return Crops.join([rows, scenes, Crops.of(mined.x[none], np.full(int(none.sum()), NO_TILE))])


def measured_crops(photos: Path, name: str, cache: Path) -> Crops:
    """A source's measured photos' crops at their labelled boxes (never trained on here)."""
    entries = source_entries(photos, name, False)
    return _cached(cache / f"{name}_measured.npz",
                   lambda: data.real_crops(entries, desc=f"{name} (measured)"))
