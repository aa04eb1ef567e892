"""The tile finder's training samples: real photos and rendered scenes, augmented, as targets.

Real photos (``train`` with tight boxes, ``train-augmented`` with loose ones) teach real tiles;
rendered riichi scenes teach face-down tiles, sideways tiles, the dora row and the orientation
channels (real labels have no orientation, so their angles are NaN and that loss is masked).
Each sample is kept small in memory (``STORE_SIDE``) and augmented afresh every epoch
(``augment``: zoom, shift, quarter turns, flips, a share stretched like the publisher's
panoramas) into the finder's input square, then drawn as its maps (``targets``).
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision.manifest import read_manifest
from vision.preprocess import FINDER_SIZE
from vision.training.classifier import TRAIN_SPLITS
from vision.training.finder_export import SIZE_UNIT, STRIDE

STORE_SIDE = 400  # images are kept at this long side in memory
# Some real photos were resized to a square from a wide panorama: their tiles stand 7-16 times
# taller than wide and run off the frame. A share of training images is stretched like that.
STRETCH_SHARE = 0.25
STRETCH_RANGE = (1.5, 9.0)  # ratio of the two axes' scales, log-uniform
STRETCHED_ASPECT = 4.0  # a real photo whose median box is this elongated counts as stretched
STRETCHED_REPEAT = 3  # ... and is seen this many times an epoch (there are only a few)
MIN_VISIBLE = 0.4  # share of a tile's box inside an unstretched frame for it to be a target
# A close-up (``augment(closeup=True)``): one tile magnified to this short side in the finder's
# view (log-uniform), a few of its neighbours around it. The photos' and renders' tiles are
# 10-60 px there; a tile filling a phone's frame is 60-300.
CLOSEUP_SIDE = (48.0, 240.0)
CLOSEUP_MAX_GAIN = 8.0  # ... never magnified more than this past the whole image's fit

Sample = tuple[np.ndarray, np.ndarray, np.ndarray | None]  # image, boxes [N,4], angles [N] | None


def _shrink(img: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    h, w = img.shape[:2]
    s = STORE_SIDE / max(h, w)
    if s < 1:
        img = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
        boxes = boxes * s
    return img, boxes.astype(np.float32)


def median_aspect(boxes: np.ndarray) -> float:
    """Median long side / short side of the boxes (1.3-1.5 for photographed tiles)."""
    if not len(boxes):
        return 1.0
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    return float(np.median(np.maximum(w, h) / np.maximum(1e-3, np.minimum(w, h))))


def load_real(manifest: Path) -> list[Sample]:
    """Every training photo, the stretched ones STRETCHED_REPEAT times."""
    out = []
    for e in tqdm(read_manifest(manifest, TRAIN_SPLITS), desc="real images", leave=False):
        img = cv2.imread(str(e.path), cv2.IMREAD_COLOR)
        boxes = np.array([t.box for t in e.tiles], np.float32).reshape(-1, 4)
        img, boxes = _shrink(img, boxes)
        repeat = STRETCHED_REPEAT if median_aspect(boxes) >= STRETCHED_ASPECT else 1
        out.extend([(img, boxes, None)] * repeat)
    return out


def load_source(photos: Path, name: str, repeat: int = 1) -> list[Sample]:
    """Every photo of a further trainable source (``pretrained_data.source_entries``), each at
    its camera's proportions where the publisher squeezed it, as ``Recogniser.read`` reads
    such a frame (``vision.proportions``; judged by the labelled boxes), ``repeat`` times."""
    from vision.config import VisionConfig
    from vision.proportions import stretch_of, unstretched
    from vision.training.pretrained_data import source_entries

    out, config = [], VisionConfig()
    for e in tqdm(source_entries(photos, name, True), desc=name, leave=False):
        img = cv2.imread(str(e.path), cv2.IMREAD_COLOR)
        boxes = np.array([t.box for t in e.tiles], np.float32).reshape(-1, 4)
        scale = stretch_of(boxes, config)
        if scale is not None:
            img, _ = unstretched(img, scale)
            boxes = boxes * np.array(scale * 2, np.float32)  # (sx, sy, sx, sy)
        out.extend([_shrink(img, boxes) + (None,)] * repeat)
    return out


def tile_angle(quad: tuple[tuple[float, float], ...]) -> float:
    """Direction of the tile's long axis (radians): from the glyph's bottom edge to its top."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad
    return math.atan2((y0 + y1) / 2 - (y3 + y2) / 2, (x0 + x1) / 2 - (x3 + x2) / 2)


def load_synth(
    n: int,
    seed: int,
    meld_mix: tuple[int, ...] | None = None,
    procedural_share: float = 0.0,
    standing_share: float = 0.0,
    clutter_share: float = 0.0,
    upright_share: float = 0.0,
    gain: float = 1.0,
) -> list[Sample]:
    """Rendered scenes: riichi hands (``meld_mix`` weights 0-4 melds) and balanced rows;
    ``procedural_share`` of them with procedural tile faces (a random set each) for the CC0 art,
    ``standing_share`` with standing tiles (SCATTERED_SHARE of those in loose groups),
    ``clutter_share`` with printed clutter, ``upright_share`` of solid standing tiles
    (`vision.synth.upright`) instead (each drawn apart from the scene's own random stream, so the
    other scenes render as without them). ``gain`` > 1: every scene rendered that many times
    larger (its flat canvas finer too, `scene.canvas_px`, so a tile carries the art's detail
    rather than a 40 px tile enlarged) and kept unshrunk: a tile magnified as a close-up stays
    sharp."""
    from vision.synth.art import ArtSource
    from vision.synth.draws import SceneDraws
    from vision.synth.hands import MELD_MIX, random_hand, random_row

    meld_mix = meld_mix or MELD_MIX

    source = ArtSource(procedural_share)
    out = []
    for i in tqdm(range(n), desc="synth scenes", leave=False):
        rng = random.Random(seed * 1_000_003 + i)
        art = source.for_scene(seed, i)
        hand = (
            random_hand(rng, meld_mix=meld_mix)
            if rng.random() < 0.8
            else random_row(rng, rng.randint(8, 20))
        )
        draws = SceneDraws.of(seed, i, clutter_share, standing_share, upright_share)
        w, h = rng.choice([(640, 480), (480, 640), (640, 640)])
        img, tiles = draws.render(hand, art, rng, (round(w * gain), round(h * gain)))
        boxes = np.array([t.box for t in tiles], np.float32).reshape(-1, 4)
        angles = np.array([tile_angle(t.quad) for t in tiles], np.float32)
        if gain <= 1:  # kept small; a close-up render is kept whole, to be magnified sharp
            img, boxes = _shrink(img, boxes)
        out.append((img, boxes, angles))
    return out


def held_to_start(
    n_real: int, n_synth: int, seed: int, upright_share: float, renders: bool
) -> list[bool]:
    """Which of the samples (the real photos, then ``load_synth``'s scenes of ``seed``) the
    --keep-real loss holds to the starting finder: the photos, and with ``renders`` the scenes
    not drawn upright (the draw `load_synth` makes), so that only the new scenes teach anew."""
    from vision.synth.draws import SceneDraws

    return [True] * n_real + [
        renders and not SceneDraws.of(seed, i, upright_share=upright_share).upright
        for i in range(n_synth)
    ]


def augment(
    sample: Sample,
    rng: np.random.Generator,
    stretch: float = STRETCH_SHARE,
    size: int = FINDER_SIZE,
    closeup: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random zoom, shift, quarter-turn and (a ``stretch`` share) one-axis stretch into a
    ``size`` square -> image, boxes (clipped to the frame, as real labels are), angles.
    ``closeup``: instead of the whole image, a tile of it magnified as a close-up shows it."""
    img, boxes, angles = sample
    h, w = img.shape[:2]
    ang = angles if angles is not None else np.full(len(boxes), np.nan, np.float32)
    k = int(rng.integers(4)) if rng.random() < 0.5 else 0
    for _ in range(k):  # quarter turn clockwise: (x, y) -> (h - y, x)
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
        boxes = np.stack([h - boxes[:, 3], boxes[:, 0], h - boxes[:, 1], boxes[:, 2]], 1)
        ang = ang + np.pi / 2
        h, w = w, h
    if rng.random() < 0.5:
        img = img[:, ::-1]
        boxes = np.stack([w - boxes[:, 2], boxes[:, 1], w - boxes[:, 0], boxes[:, 3]], 1)
        ang = np.pi - ang
    s = size / max(h, w) * float(np.exp(rng.uniform(-0.35, 0.45)))
    closeup = closeup and len(boxes) > 0
    if closeup:
        j = int(rng.integers(len(boxes)))
        short = float(max(1.0, min(boxes[j, 2] - boxes[j, 0], boxes[j, 3] - boxes[j, 1])))
        want = float(np.exp(rng.uniform(*np.log(CLOSEUP_SIDE))))
        s = min(want / short, size / max(h, w) * CLOSEUP_MAX_GAIN)
    sx = sy = s
    stretched = not closeup and rng.random() < stretch and len(boxes) > 0
    if stretched:  # the wide-panorama look: one axis squeezed to fit, the other overflowing
        r = float(np.exp(rng.uniform(*np.log(STRETCH_RANGE))))
        sx, sy = (s / r**0.5, s * r**0.5) if rng.random() < 0.5 else (s * r**0.5, s / r**0.5)
        fit = (size / (w * sx) if sx < sy else size / (h * sy)) * rng.uniform(0.7, 1)
        sx, sy = sx * fit, sy * fit
        ang = np.arctan2(np.sin(ang) * sy, np.cos(ang) * sx)
    tx = (size - w * sx) / 2 + rng.uniform(-0.25, 0.25) * size
    ty = (size - h * sy) / 2 + rng.uniform(-0.25, 0.25) * size
    if closeup:  # the tile somewhere in the middle of the view
        tx = size * rng.uniform(0.3, 0.7) - (boxes[j, 0] + boxes[j, 2]) / 2 * s
        ty = size * rng.uniform(0.3, 0.7) - (boxes[j, 1] + boxes[j, 3]) / 2 * s
    if stretched:  # keep some tile in view along the overflowing axis
        x1, y1, x2, y2 = boxes[int(rng.integers(len(boxes)))]
        if sy > sx:
            ty = size * rng.uniform(0.2, 0.8) - (y1 + y2) / 2 * sy
        else:
            tx = size * rng.uniform(0.2, 0.8) - (x1 + x2) / 2 * sx
    m = np.float32([[sx, 0, tx], [0, sy, ty]])
    out = cv2.warpAffine(
        np.ascontiguousarray(img),
        m,
        (size, size),
        flags=cv2.INTER_LINEAR,
        borderValue=(114, 114, 114),
    ).astype(np.float32)
    whole = boxes * np.float32([sx, sy, sx, sy]) + np.float32([tx, ty, tx, ty])
    boxes = np.clip(whole, 0, size)
    if not stretched:
        # a tile mostly outside the frame is no target: its sliver at the edge taught the
        # finder to see tiles on empty table at the frame's edges. Stretched images keep theirs,
        # as the stretched photos' labels do (their tiles run off the frame).
        seen = _area(boxes) >= MIN_VISIBLE * np.maximum(_area(whole), 1e-6)
        boxes, ang = boxes[seen], ang[seen]
    out = out * rng.uniform(0.85, 1.15, 3) * rng.uniform(0.7, 1.25) + rng.uniform(-20, 20)
    if rng.random() < 0.2:
        out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 1.0)))
    out = np.clip(out + rng.normal(0, rng.uniform(0, 5), out.shape), 0, 255)
    return out, boxes, ang


def _area(boxes: np.ndarray) -> np.ndarray:
    return np.clip(boxes[:, 2] - boxes[:, 0], 0, None) * np.clip(boxes[:, 3] - boxes[:, 1], 0, None)


def targets(boxes: np.ndarray, angles: np.ndarray, size: int = FINDER_SIZE) -> np.ndarray:
    """[8, G, G] target: heat, log w, log h, dx, dy, cos2a, sin2a, regression mask (2 = +angle)."""
    g = size // STRIDE
    t = np.zeros((8, g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for (x1, y1, x2, y2), a in zip(boxes, angles, strict=True):
        cx, cy = (x1 + x2) / 2 / STRIDE, (y1 + y2) / 2 / STRIDE
        bw, bh = (x2 - x1), (y2 - y1)
        if not (0 <= cx < g and 0 <= cy < g) or bw < 4 or bh < 4:
            continue
        sx, sy = max(0.6, bw / STRIDE / 6), max(0.6, bh / STRIDE / 6)
        heat = np.exp(-((xx - cx) ** 2 / (2 * sx * sx) + (yy - cy) ** 2 / (2 * sy * sy)))
        t[0] = np.maximum(t[0], heat)
        ix, iy = int(cx), int(cy)
        t[0, iy, ix] = 1.0
        t[1:5, iy, ix] = (math.log(bw / SIZE_UNIT), math.log(bh / SIZE_UNIT), cx - ix, cy - iy)
        t[7, iy, ix] = 1.0
        if not math.isnan(float(a)):
            t[5:7, iy, ix] = (math.cos(2 * a), math.sin(2 * a))
            t[7, iy, ix] = 2.0
    return t
