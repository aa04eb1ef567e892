"""Training data: real crops from a manifest, synthetic crops and scenes, numpy augmentation.

torchvision does not import beside the CPU torch build here, so augmentation is OpenCV / numpy.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from scorer.tiles import MODEL_CLASSES
from vision.manifest import LabelledImage
from vision.preprocess import CROP_PAD, CROP_SIZE, crop_affine, crop_tiles
from vision.synth.art import load_art
from vision.synth.hands import random_hand, random_row
from vision.synth.scene import render

STORE = 64  # stored crop side; augmentation re-crops it to CROP_SIZE
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


def synth_crops(
    n_scenes: int, seed: int, balanced: bool = True, pad: float = STORE_PAD, size: int = STORE
) -> tuple[np.ndarray, np.ndarray]:
    """Crops cut from rendered scenes (balanced rows over all 38 classes, or riichi hands)."""
    art = load_art()
    xs, ys = [], []
    for i in tqdm(range(n_scenes), desc="synth crops", leave=False):
        rng = random.Random(seed * 1_000_003 + i)
        hand = random_row(rng, rng.randint(8, 18)) if balanced else random_hand(rng)
        w, h = rng.choice([(640, 480), (480, 640), (640, 640)])
        img, tiles = render(hand, art, rng, (w, h))
        boxes = np.array([t.box for t in tiles], np.float32)
        ok = (boxes[:, 2] - boxes[:, 0] > 6) & (boxes[:, 3] - boxes[:, 1] > 6)
        xs.append(crop_tiles(img, boxes[ok], size, pad))
        ys.extend(CLASS_INDEX[t.label] for t, k in zip(tiles, ok, strict=True) if k)
    return np.concatenate(xs), np.array(ys, np.int64)


def augment_crop(stored: np.ndarray, rng: np.random.Generator, train: bool) -> np.ndarray:
    """A stored crop (STORE px, STORE_PAD context) -> CROP_SIZE crop as inference would cut it.

    Training adds box jitter, rotation (small, or a quarter / half turn), colour, blur and noise.
    """
    inner = STORE / (1 + 2 * STORE_PAD)  # the tile box's side inside the stored crop
    lo = (STORE - inner) / 2
    box = np.array([lo, lo, lo + inner, lo + inner], np.float32)
    if not train:
        m = crop_affine(box, CROP_SIZE, CROP_PAD)
        return cv2.warpAffine(
            stored,
            m,
            (CROP_SIZE, CROP_SIZE),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
    # loose or tight boxes, as a detector would give
    box = box + rng.normal(0, 0.05, 4).astype(np.float32) * inner
    angle = float(rng.normal(0, 8))
    r = rng.random()
    if r < 0.15:
        angle += 180
    elif r < 0.3:
        angle += 90 if rng.random() < 0.5 else -90
    m = crop_affine(box, CROP_SIZE, float(rng.uniform(0.0, 0.16)), angle=angle)
    out = cv2.warpAffine(
        stored, m, (CROP_SIZE, CROP_SIZE), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    ).astype(np.float32)
    out = out * rng.uniform(0.85, 1.15, 3) * rng.uniform(0.6, 1.3) + rng.uniform(-25, 25)
    if rng.random() < 0.1:
        out[:] = out.mean(axis=2, keepdims=True)
    if rng.random() < 0.25:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.4, 1.2)))
    out = out + rng.normal(0, rng.uniform(0, 6), out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


def batch(stored: np.ndarray, idx: np.ndarray, rng: np.random.Generator, train: bool) -> np.ndarray:
    """[B, 3, CROP_SIZE, CROP_SIZE] float32 0..255 from stored crops."""
    out = np.stack([augment_crop(stored[i], rng, train) for i in idx])
    return np.ascontiguousarray(out.transpose(0, 3, 1, 2), dtype=np.float32)


def cache(path: Path, make: object) -> tuple[np.ndarray, np.ndarray]:
    """Load ``path`` (npz with x, y) or build it with ``make()`` and save it."""
    if path.exists():
        d = np.load(path)
        return d["x"], d["y"]
    x, y = make()  # type: ignore[operator]
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, x=x, y=y)
    return x, y
