"""Training data: real crops from a manifest, synthetic crops and scenes, numpy augmentation.

torchvision does not import beside the CPU torch build here, so augmentation is OpenCV / numpy.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from scorer.tiles import MODEL_CLASSES
from vision.manifest import LabelledImage
from vision.preprocess import CROP_PAD, CROP_SIZE, crop_affine, crop_tiles
from vision.synth.art import ArtSource
from vision.synth.draws import SceneDraws
from vision.synth.hands import random_hand, random_row
from vision.synth.scene import render

STORE = 64  # stored crop side; augmentation re-crops it to CROP_SIZE
# share of training crops shrunk to 16-36 px first: distant tiles (15-25 px in a frame) are where
# small glyphs (the characters' numerals) are misread
LOW_RES_SHARE = 0.25
STORE_PAD = 0.25  # context kept around each stored box, so shifts/zooms stay inside
CLASS_INDEX = {c: i for i, c in enumerate(MODEL_CLASSES)}


def real_crops(
    entries: Iterable[LabelledImage], pad: float = STORE_PAD, size: int = STORE, desc: str = "crops"
) -> tuple[np.ndarray, np.ndarray]:
    """Crops of every model-class tile in the entries ('other' is skipped)."""
    xs, ys = [], []
    for e in tqdm(list(entries), desc=desc, leave=False):
        img = cv2.imread(str(e.path), cv2.IMREAD_COLOR)
        if img is None:
            raise FileNotFoundError(f"manifest image {e.path} cannot be read")
        keep = [t for t in e.tiles if t.label in CLASS_INDEX]
        if not keep:
            continue
        boxes = np.array([t.box for t in keep], np.float32)
        xs.append(crop_tiles(img, boxes, size, pad))
        ys.extend(CLASS_INDEX[t.label] for t in keep)
    if not xs:
        return np.zeros((0, size, size, 3), np.uint8), np.zeros((0,), np.int64)
    return np.concatenate(xs), np.array(ys, np.int64)


def finder_crops(
    entries: Iterable[LabelledImage],
    models_dir: Path,
    pad: float = STORE_PAD,
    size: int = STORE,
    desc: str = "finder crops",
) -> tuple[np.ndarray, np.ndarray]:
    """Crops cut where the finder in ``models_dir`` boxes each labelled tile (IoU >= 0.5), with
    that tile's label: the classifier then also learns the finder's own box errors, which on
    squeezed or cut-off tiles are larger than any jitter of the labelled boxes."""
    from vision.postprocess import iou
    from vision.recogniser import Recogniser

    finder = Recogniser.load(models_dir)
    xs, ys = [], []
    for e in tqdm(list(entries), desc=desc, leave=False):
        img = cv2.imread(str(e.path), cv2.IMREAD_COLOR)
        if img is None:
            raise FileNotFoundError(f"manifest image {e.path} cannot be read")
        found = np.array([c.box for c in finder.find(img)], np.float64).reshape(-1, 4)
        truth = np.array([t.box for t in e.tiles], np.float64).reshape(-1, 4)
        if not len(found) or not len(truth):
            continue
        overlap = iou(found, truth)
        best = overlap.argmax(axis=1)
        keep = [
            (i, e.tiles[j].label)
            for i, j in enumerate(best)
            if overlap[i, j] >= 0.5 and e.tiles[j].label in CLASS_INDEX
        ]
        if keep:
            xs.append(crop_tiles(img, found[[i for i, _ in keep]].astype(np.float32), size, pad))
            ys.extend(CLASS_INDEX[label] for _, label in keep)
    if not xs:
        return np.zeros((0, size, size, 3), np.uint8), np.zeros((0,), np.int64)
    return np.concatenate(xs), np.array(ys, np.int64)


def synth_crops(
    n_scenes: int,
    seed: int,
    balanced: bool = True,
    pad: float = STORE_PAD,
    size: int = STORE,
    procedural_share: float = 0.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Crops cut from rendered scenes (balanced rows over all 38 classes, or riichi hands),
    with each crop's glyph axis (0 vertical, 1 horizontal, -1 diagonal: not taught).
    ``procedural_share`` of the scenes show a random procedural tile set instead of the CC0 art
    (`ArtSource`; the CC0 scenes are the same at any share)."""
    source = ArtSource(procedural_share)
    xs, ys, os_ = [], [], []
    for i in tqdm(range(n_scenes), desc="synth crops", leave=False):
        rng = random.Random(seed * 1_000_003 + i)
        hand = random_row(rng, rng.randint(8, 18)) if balanced else random_hand(rng)
        w, h = rng.choice([(640, 480), (480, 640), (640, 640)])
        img, tiles = render(hand, source.for_scene(seed, i), rng, (w, h))
        boxes = np.array([t.box for t in tiles], np.float32)
        ok = (boxes[:, 2] - boxes[:, 0] > 6) & (boxes[:, 3] - boxes[:, 1] > 6)
        xs.append(crop_tiles(img, boxes[ok], size, pad))
        ys.extend(CLASS_INDEX[t.label] for t, k in zip(tiles, ok, strict=True) if k)
        os_.extend(glyph_axis(t.quad) for t, k in zip(tiles, ok, strict=True) if k)
    return np.concatenate(xs), np.array(ys, np.int64), np.array(os_, np.int64)


def glyph_axis(quad: tuple[tuple[float, float], ...]) -> int:
    """0: glyph up-down axis within 30 degrees of vertical; 1: of horizontal; -1 otherwise."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad
    dx, dy = (x0 + x1 - x2 - x3) / 2, (y0 + y1 - y2 - y3) / 2
    ang = abs(math.degrees(math.atan2(dy, dx))) % 180
    if 60 <= ang <= 120:
        return 0
    if ang <= 30 or ang >= 150:
        return 1
    return -1


def augment_crop(
    stored: np.ndarray, rng: np.random.Generator, train: bool, size: int = CROP_SIZE
) -> tuple[np.ndarray, bool]:
    """A stored crop (STORE px, STORE_PAD context) -> ``size`` crop as inference would cut it,
    and whether it was turned a quarter (which swaps the glyph axis).

    Training adds box jitter, rotation (small, or a quarter / half turn), colour, blur and noise.
    """
    inner = STORE / (1 + 2 * STORE_PAD)  # the tile box's side inside the stored crop
    lo = (STORE - inner) / 2
    box = np.array([lo, lo, lo + inner, lo + inner], np.float32)
    if not train:
        m = crop_affine(box, size, CROP_PAD)
        crop = cv2.warpAffine(
            stored,
            m,
            (size, size),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        return crop, False
    # loose or tight boxes, as a detector would give
    box = box + rng.normal(0, 0.05, 4).astype(np.float32) * inner
    angle = float(rng.normal(0, 8))
    r = rng.random()
    quarter = False
    if r < 0.15:
        angle += 180
    elif r < 0.3:
        angle += 90 if rng.random() < 0.5 else -90
        quarter = True
    m = crop_affine(box, size, float(rng.uniform(0.0, 0.16)), angle=angle)
    out = cv2.warpAffine(
        stored, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    ).astype(np.float32)
    out = out * rng.uniform(0.85, 1.15, 3) * rng.uniform(0.6, 1.3) + rng.uniform(-25, 25)
    if rng.random() < 0.1:
        out[:] = out.mean(axis=2, keepdims=True)
    if rng.random() < LOW_RES_SHARE:  # a far tile: few pixels, upsampled as inference does
        side = int(rng.integers(16, 37))
        small = cv2.resize(out, (side, side), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (size, size), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.25:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.4, 1.2)))
    out = out + rng.normal(0, rng.uniform(0, 6), out.shape)
    return np.clip(out, 0, 255).astype(np.uint8), quarter


def batch(
    stored: np.ndarray, idx: np.ndarray, rng: np.random.Generator, train: bool,
    size: int = CROP_SIZE,
) -> tuple[np.ndarray, np.ndarray]:
    """[B, 3, size, size] float32 0..255 from stored crops, and which were turned a quarter
    (their glyph axis label swaps)."""
    pairs = [augment_crop(stored[i], rng, train, size) for i in idx]
    out = np.stack([p[0] for p in pairs])
    turned = np.array([p[1] for p in pairs], bool)
    return np.ascontiguousarray(out.transpose(0, 3, 1, 2), dtype=np.float32), turned


def turned_axis(axis: np.ndarray, turned: np.ndarray) -> np.ndarray:
    """Glyph-axis labels after the augmentation's quarter turns (-1 stays -1)."""
    return np.where(axis < 0, -1, np.where(turned, 1 - axis, axis))


def cache(path: Path, make: object) -> tuple[np.ndarray, ...]:
    """Load ``path`` (npz with x, y and optionally o) or build it with ``make()`` and save it."""
    if path.exists():
        d = np.load(path)
        return tuple(d[k] for k in ("x", "y", "o") if k in d)
    arrays = make()  # type: ignore[operator]
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, **dict(zip(("x", "y", "o"), arrays, strict=False)))
    return tuple(arrays)


MINED_HEAT = 0.2  # mined scenes keep the finder's weak peaks too, as inference reads them


def _finder_on_scenes(
    n_scenes: int,
    seed: int,
    models_dir: Path,
    desc: str,
    procedural_share: float = 0.0,
    clutter_share: float = 0.0,
    standing_share: float = 0.0,
    upright_share: float = 0.0,
) -> Iterable[tuple[random.Random, np.ndarray, list, np.ndarray, np.ndarray]]:
    """Rendered riichi scenes (fingers, point sticks and loose tiles among them; printed
    clutter in ``clutter_share`` of them; standing tiles, half of those scattered, in
    ``standing_share``; solid standing tiles seen low, `vision.synth.upright`, in
    ``upright_share`` instead) as the finder in ``models_dir`` boxes them down to
    ``MINED_HEAT``: (the scene's rng, image, truth tiles, boxes found, their IoU with every
    truth tile), scenes without boxes or tiles skipped."""
    from vision.config import VisionConfig
    from vision.postprocess import iou
    from vision.recogniser import Recogniser

    finder = Recogniser.load(models_dir, VisionConfig(detect_threshold=MINED_HEAT))
    source = ArtSource(procedural_share)
    for i in tqdm(range(n_scenes), desc=desc, leave=False):
        rng = random.Random(seed * 1_000_003 + i)
        art = source.for_scene(seed, i)
        draws = SceneDraws.of(seed, i, clutter_share, standing_share, upright_share)
        hand = random_hand(rng)  # before the size, as the streams of earlier runs drew them
        size = rng.choice([(640, 480), (480, 640)])
        img, tiles = draws.render(hand, art, rng, size)
        truth = np.array([t.box for t in tiles], np.float64).reshape(-1, 4)
        found = np.array([c.box for c in finder.find(img)], np.float64).reshape(-1, 4)
        if len(found) and len(truth):
            yield rng, img, tiles, found, iou(found, truth)


def tile_or_not(
    n_scenes: int, seed: int, models_dir: Path, clutter_share: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """Crops for the classifier's tile head from rendered riichi scenes (printed clutter in
    ``clutter_share`` of them): where the finder boxes a tile (IoU >= 0.5: 1) or nothing
    (IoU < 0.1 with every tile: 0), plus one random patch of table a scene (0), box-sized and
    clear of every tile."""
    from vision.postprocess import iou

    xs, ys = [], []
    for rng, img, tiles, found, overlap in _finder_on_scenes(
        n_scenes, seed, models_dir, "tile or not", clutter_share=clutter_share
    ):
        truth = np.array([t.box for t in tiles], np.float64)
        best = overlap.max(axis=1)
        keep = (best >= 0.5) | (best < 0.1)
        sides = found[:, 2:] - found[:, :2]
        w, h = rng.uniform(*np.percentile(sides[:, 0], [10, 90])), rng.uniform(
            *np.percentile(sides[:, 1], [10, 90])
        )
        for _ in range(20):  # a patch of table: a random box-sized spot off every tile
            x, y = rng.uniform(0, img.shape[1] - w), rng.uniform(0, img.shape[0] - h)
            patch = np.array([[x, y, x + w, y + h]])
            if iou(patch, truth).max() == 0:
                found, keep = np.concatenate([found, patch]), np.append(keep, True)
                best = np.append(best, 0.0)
                break
        xs.append(crop_tiles(img, found[keep].astype(np.float32), STORE, STORE_PAD))
        ys.extend(int(b >= 0.5) for b in best[keep])
    return np.concatenate(xs), np.array(ys, np.int64)


def scene_crops(
    n_scenes: int,
    seed: int,
    models_dir: Path,
    procedural_share: float = 0.0,
    standing_share: float = 0.0,
    upright_share: float = 0.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Labelled crops cut where the finder boxes the tiles of rendered riichi scenes (IoU >= 0.5
    with a tile: its label, ``back`` when face down, and its glyph axis as ``synth_crops``
    gives it): the tiles as the pipeline reads them, small, steeply seen, called tiles lying
    sideways, at the finder's own boxes (where the balanced rows' small characters are
    misread most). ``procedural_share``: as `synth_crops`; ``standing_share`` and
    ``upright_share``: as `_finder_on_scenes`."""
    xs, ys, os_ = [], [], []
    for _, img, tiles, found, overlap in _finder_on_scenes(
        n_scenes,
        seed,
        models_dir,
        "scene crops",
        procedural_share,
        standing_share=standing_share,
        upright_share=upright_share,
    ):
        keep = overlap.max(axis=1) >= 0.5
        xs.append(crop_tiles(img, found[keep].astype(np.float32), STORE, STORE_PAD))
        which = overlap[keep].argmax(axis=1)
        ys.extend(CLASS_INDEX[tiles[j].label] for j in which)
        os_.extend(glyph_axis(tiles[j].quad) for j in which)
    return np.concatenate(xs), np.array(ys, np.int64), np.array(os_, np.int64)
