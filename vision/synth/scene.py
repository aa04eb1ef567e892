"""Render a riichi layout as a photo-like scene with exact labels.

A layout is placed on a flat table plane (unit = one tile width), painted with tile bodies (face,
plus the near side showing the front and back layers), then warped by a random homography
(camera above or at an angle, any rotation so rows may run any way) onto a textured background,
and finished with lighting, shadows, blur, noise and JPEG. Every tile's face corners go through the
same homography, so boxes and orientation are exact.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.art import Art
from vision.synth.clutter import paint_clutter
from vision.synth.colours import BACK_COLOURS, FRONT_COLOURS
from vision.synth.hands import HandSpec

FACE_H = 4 / 3  # face height in tile widths
PX = 40  # flat-canvas pixels per tile width, for a view up to BASE_SIDE px
BASE_SIDE = 640  # ... a larger view's canvas is finer (`canvas_px`)
SEAM_GREY = 70  # the dark line between neighbours, at full ``Art.seam``
SCATTERED_SHARE = 0.5  # of a trainer's standing scenes: tiles in loose groups, not the hand's rows


@dataclass(frozen=True)
class Placed:
    """A tile on the table plane: top-left of its face, pose and group."""

    label: str
    x: float
    y: float
    sideways: bool
    face_down: bool
    group: str

    @property
    def size(self) -> tuple[float, float]:
        return (FACE_H, 1.0) if self.sideways else (1.0, FACE_H)


@dataclass(frozen=True)
class SceneTile:
    """One rendered tile: label (``back`` when face down), box, face quad and flags."""

    label: str
    box: tuple[float, float, float, float]
    quad: tuple[tuple[float, float], ...]  # face corners TL, TR, BR, BL of the upright glyph
    sideways: bool
    face_down: bool
    group: str


def place(hand: HandSpec, rng: random.Random) -> list[Placed]:
    """Lay the hand out: concealed row, gap, winning tile, melds; dora row behind."""
    out: list[Placed] = []
    gap = 0.03
    x = 0.0
    for t in hand.concealed:
        out.append(Placed(t, x, -FACE_H, False, False, "concealed"))
        x += 1 + gap
    if hand.winning is not None:
        x += rng.uniform(0.35, 0.9)
        out.append(Placed(hand.winning, x, -FACE_H, False, False, "winning"))
        x += 1 + gap
    for mi, meld in enumerate(hand.melds):
        x += rng.uniform(0.3, 0.8) if mi == 0 else rng.uniform(0.2, 0.45)
        for ti, t in enumerate(meld.tiles):
            group = f"meld{mi}"
            if meld.kind == "ankan" and ti in (0, 3):
                out.append(Placed("back", x, -FACE_H, False, True, group))
                x += 1 + gap
            elif meld.kind == "kakan" and ti == 3:
                continue  # stacked on the called tile, below
            elif ti == meld.called:
                out.append(Placed(t, x, -1.0, True, False, group))
                if meld.kind == "kakan":
                    out.append(Placed(meld.tiles[3], x, -2.0 - gap, True, False, group))
                x += FACE_H + gap
            else:
                out.append(Placed(t, x, -FACE_H, False, False, group))
                x += 1 + gap
    if hand.dora:
        dy = -FACE_H - rng.uniform(0.8, 2.2) - FACE_H
        dx = rng.uniform(0, max(0.0, x - len(hand.dora) * 1.03))
        for i, t in enumerate(hand.dora):
            out.append(Placed(t, dx + i * 1.03, dy, False, False, "dora"))
    return out


def scatter(tiles: list[Placed], rng: random.Random) -> list[Placed]:
    """The tiles standing upright in loose groups over the table, as a player sets them down
    before laying out a row: nearer tiles hide the lower part of those behind, never more than
    about half a face (a tile that finds no such place is left out)."""
    out: list[Placed] = []
    todo = [t for t in tiles if not t.sideways]
    while todo:
        n = rng.randint(1, 5)
        group, todo = todo[:n], todo[n:]
        for _ in range(30):
            gx, gy = rng.uniform(0, 12), rng.uniform(0, 6)
            step = 1 + rng.uniform(0.0, 0.35)
            spot = [(gx + i * step, gy + rng.uniform(-0.15, 0.15)) for i in range(len(group))]
            if all(_clear(x, y, o) for x, y in spot for o in out):
                out.extend(Placed(t.label, x, y, False, t.face_down, t.group)
                           for t, (x, y) in zip(group, spot, strict=True))
                break
    return out


def _clear(x: float, y: float, other: Placed) -> bool:
    """Whether a standing tile at (x, y) and `other` can both stand and both show enough: side
    by side, or one far enough behind the other that half its face shows above it."""
    return abs(x - other.x) >= 1.0 or abs(y - other.y) >= 1.3  # a top is at most 0.6 deep


def table_background(h: int, w: int, rng: random.Random, nrng: np.random.Generator) -> np.ndarray:
    """A table cloth or board (float BGR, h x w): a plain colour, soft blotches, sometimes
    grain or stripes, and noise."""
    base = np.array(
        rng.choice(
            [
                (60, 120, 40),
                (110, 70, 30),
                (40, 70, 120),
                (90, 90, 90),
                (30, 30, 30),
                (200, 200, 200),
                (70, 110, 150),
                (40, 100, 60),
                (130, 60, 90),
            ]
        ),
        np.float32,
    )
    base = base * nrng.uniform(0.7, 1.3, 3).astype(np.float32)
    low = cv2.resize(
        nrng.normal(0, 1, (6, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
    )
    img = base[None, None, :] * (1 + 0.12 * low[..., None])
    if rng.random() < 0.35:  # wood grain or fabric stripes
        yy = np.arange(h, dtype=np.float32)[:, None]
        stripes = np.sin(yy / rng.uniform(2, 9) + 3 * low) * rng.uniform(5, 20)
        img = img + stripes[..., None]
    img += nrng.normal(0, rng.uniform(2, 10), (h, w, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.float32)


def canvas_px(size: tuple[int, int]) -> int:
    """Flat-canvas pixels per tile width for a view of ``size``: ``PX``, and as many times more
    as the view is larger than ``BASE_SIDE``, so a tile seen large keeps the art's detail (a
    close-up's tile magnified from a 40 px one would be a blur)."""
    return round(PX * max(1.0, max(size) / BASE_SIDE))


def _paint_flat(
    tiles: list[Placed], art: Art, rng: random.Random, standing: bool = False, unit: int = PX
) -> tuple[np.ndarray, tuple[float, float], float]:
    """Paint tiles onto a flat RGBA canvas, ``unit`` pixels per tile width; returns canvas, plane
    origin and band depth. The band is a tile's visible side: below the face of a tile lying face
    up (its near side), above the face of a ``standing`` one (its top, seen from above the
    row)."""
    front = np.array(rng.choice(FRONT_COLOURS), np.float32) * rng.uniform(0.9, 1.03)
    back = np.array(rng.choice(BACK_COLOURS), np.float32) * rng.uniform(0.85, 1.1)
    front, back = art.body_colours(front, back)  # a procedural set brings its own
    band = rng.uniform(0.05, 0.45)  # visible near side (tile thickness times camera tilt)
    if standing:  # a standing tile's top, seen from a camera 20-40 degrees above the table
        band = rng.uniform(0.25, 0.6)
    # a tile's near side is in its own shadow; a standing tile's top faces the light
    shade_near, shade_far = (0.97, 0.92) if standing else (0.8, 0.75)
    x0 = min(t.x for t in tiles) - 0.5
    y0 = min(t.y for t in tiles) - 0.5 - (band if standing else 0)
    x1 = max(t.x + t.size[0] for t in tiles) + 0.5
    y1 = max(t.y + t.size[1] for t in tiles) + 0.5 + (0 if standing else band)
    W, H = int((x1 - x0) * unit), int((y1 - y0) * unit)
    canvas = np.zeros((H, W, 4), np.float32)
    fcol = tuple(int(v) for v in np.clip(front, 0, 255))
    bcol = tuple(int(v) for v in np.clip(back, 0, 255))
    seam = tuple(round(SEAM_GREY * art.seam + c * (1 - art.seam)) for c in fcol)
    for t in sorted(tiles, key=lambda t: t.y):
        if t.face_down:
            face = art.back(bcol, unit)
        else:
            face = art.face(t.label, fcol, unit)
        if t.sideways:
            face = cv2.rotate(
                face, rng.choice([cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE])
            )
        fh, fw = face.shape[:2]
        px, py = int((t.x - x0) * unit), int((t.y - y0) * unit)
        bh = max(1, int(band * unit))
        side_top = bcol if t.face_down else fcol
        side_bot = fcol if t.face_down else bcol
        # rows of the layer next to the face, of the other, and of the whole tile: the side is
        # below the face lying face up, above it (its top) standing
        if standing:
            mid = py - bh // 2
            near, far, (top, bottom) = (mid, py), (py - bh, mid), (py - bh, py + fh)
        else:
            mid = py + fh + bh // 2
            near, far, (top, bottom) = (py + fh, mid), (mid, py + fh + bh), (py, py + fh + bh)
        canvas[near[0] : near[1], px : px + fw, :3] = np.array(side_top) * shade_near
        canvas[far[0] : far[1], px : px + fw, :3] = np.array(side_bot) * shade_far
        canvas[top:bottom, px : px + fw, 3] = 255
        canvas[py : py + fh, px : px + fw, :3] = face
        # a thin seam between neighbours, as dark as the set's (many real sets show none)
        cv2.rectangle(canvas, (px, top), (px + fw - 1, bottom - 1), (*seam, 255), 1)
    return canvas, (x0, y0), band


def _homography(
    cw: int, ch: int, w: int, h: int, rng: random.Random, level: bool = False
) -> np.ndarray:
    """Canvas -> image: rotation (rows may run any way, or near level when ``level``: standing
    tiles are seen from their faces' side), scale, tilt and jitter."""
    # the kiosk's camera frames the hand: mostly square to the row, the hand filling the frame
    r = rng.random()
    if r < 0.6 or level:
        angle = rng.gauss(0, 6)
    elif r < 0.82:
        angle = rng.choice([90, 180, 270]) + rng.gauss(0, 5)
    else:
        angle = rng.uniform(0, 360)
    fill = rng.uniform(0.6, 0.97)
    a = math.radians(angle)
    ext_w = abs(cw * math.cos(a)) + abs(ch * math.sin(a))
    ext_h = abs(cw * math.sin(a)) + abs(ch * math.cos(a))
    s = min(w * fill / ext_w, h * fill / ext_h)
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    tilt = rng.uniform(0, 0.18)  # far edge shorter: a camera looking down at an angle
    pts = np.float32([[tilt * cw / 2, 0], [cw - tilt * cw / 2, 0], [cw, ch], [0, ch]]) - [
        cw / 2,
        ch / 2,
    ]
    rot = np.float32([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    dst = pts @ rot.T * s
    slack_x = max(0.0, (w - (dst[:, 0].max() - dst[:, 0].min())) / 2)
    slack_y = max(0.0, (h - (dst[:, 1].max() - dst[:, 1].min())) / 2)
    centre = np.float32(
        [w / 2 + rng.uniform(-slack_x, slack_x) * 0.8, h / 2 + rng.uniform(-slack_y, slack_y) * 0.8]
    )
    dst = (
        dst
        + centre
        + np.float32([[rng.gauss(0, 0.01 * w), rng.gauss(0, 0.01 * h)] for _ in range(4)])
    )
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def _distractors(img: np.ndarray, rng: random.Random, avoid: list[tuple[float, ...]]) -> None:
    h, w = img.shape[:2]
    for _ in range(rng.choice([0, 0, 1, 2, 3])):  # point sticks
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        length, ang = rng.uniform(0.15, 0.4) * w, rng.uniform(0, 180)
        rect = ((cx, cy), (length, length * 0.06), ang)
        if any(b[0] < cx < b[2] and b[1] < cy < b[3] for b in avoid):
            continue
        cv2.fillPoly(img, [cv2.boxPoints(rect).astype(np.int32)], (235, 240, 240))
        cv2.circle(img, (int(cx), int(cy)), max(1, int(length * 0.02)), (40, 40, 200), -1)
    if rng.random() < 0.2:  # a finger reaching in from the border
        side = rng.choice(["top", "bottom"])
        cx = rng.uniform(0.1, 0.9) * w
        cy = 0 if side == "top" else h
        if not any(
            b[0] - 30 < cx < b[2] + 30
            for b in avoid
            if (b[1] < 60 if side == "top" else b[3] > h - 60)
        ):
            cv2.ellipse(
                img,
                (int(cx), int(cy)),
                (int(w * 0.04), int(h * 0.15)),
                rng.uniform(-30, 30),
                0,
                360,
                (120, 150, 200),
                -1,
            )


def photo_finish(img: np.ndarray, rng: random.Random, nrng: np.random.Generator) -> np.ndarray:
    """A rendered image made photo-like (uint8 BGR): uneven light, a highlight or a soft
    shadow, a colour cast, blur, noise and JPEG."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * math.pi)
    grad = (xx * math.cos(a) + yy * math.sin(a)) / max(w, h)
    light = 1 + rng.uniform(-0.35, 0.35) * (grad - grad.mean())
    if rng.random() < 0.5:  # highlight
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.1, 0.4) * max(w, h)
        light += rng.uniform(0.1, 0.35) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
    if rng.random() < 0.3:  # a soft shadow over part of the frame
        k = np.clip(
            (xx * math.sin(a) - yy * math.cos(a)) / max(w, h) - rng.uniform(-0.3, 0.3), 0, 1
        )
        light *= 1 - rng.uniform(0.2, 0.45) * cv2.GaussianBlur(
            (k > 0).astype(np.float32), (0, 0), 15
        )
    img = img * light[..., None] * nrng.uniform(0.88, 1.12, 3).astype(np.float32)
    img = np.clip(img * rng.uniform(0.75, 1.2), 0, 255)
    if rng.random() < 0.6:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.4))
    img = img + nrng.normal(0, rng.uniform(1, 7), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(40, 95)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out


def render(
    hand: HandSpec,
    art: Art,
    rng: random.Random,
    size: tuple[int, int] = (640, 480),
    clutter: bool = False,
    standing: bool = False,
    scattered: bool = False,
) -> tuple[np.ndarray, list[SceneTile]]:
    """Render one scene of ``size`` (width, height); returns the BGR image and its tiles.
    ``clutter``: printed things (books, a card) clear of the tiles, see `paint_clutter`;
    ``standing``: the tiles stand, faces to the camera, their tops seen above the faces (a
    tile's box then holds its top, as a photo's label of a standing tile does); ``scattered``
    (standing tiles only): in loose groups over the table instead of the hand's rows."""
    w, h = size
    nrng = np.random.default_rng(rng.getrandbits(32))
    tiles = scatter(place(hand, rng), rng) if scattered else place(hand, rng)
    standing = standing or scattered
    unit = canvas_px(size)
    canvas, (x0, y0), band = _paint_flat(tiles, art, rng, standing, unit)
    ch, cw = canvas.shape[:2]
    H = _homography(cw, ch, w, h, rng, level=standing)
    bg = table_background(h, w, rng, nrng)
    warped = cv2.warpPerspective(canvas, H, (w, h), flags=cv2.INTER_LINEAR)
    alpha = warped[..., 3:] / 255.0
    shadow = cv2.GaussianBlur(alpha, (0, 0), 4)
    shift = np.float32([[1, 0, rng.uniform(-6, 6)], [0, 1, rng.uniform(0, 8)]])
    shadow = cv2.warpAffine(shadow, shift, (w, h))[..., None]
    img = bg * (1 - 0.45 * shadow)

    out: list[SceneTile] = []
    for t in tiles:
        fw, fh = t.size
        corners = np.float32([[t.x, t.y], [t.x + fw, t.y], [t.x + fw, t.y + fh], [t.x, t.y + fh]])
        side = [[t.x + fw, t.y - band], [t.x, t.y - band]] if standing else [
            [t.x + fw, t.y + fh + band], [t.x, t.y + fh + band]]
        body = np.vstack([corners, side])

        def proj(p: np.ndarray) -> np.ndarray:
            pts = ((p - [x0, y0]) * unit).reshape(-1, 1, 2).astype(np.float32)
            return cv2.perspectiveTransform(pts, H).reshape(-1, 2)

        bq = proj(body)
        box = (
            float(max(0, bq[:, 0].min())),
            float(max(0, bq[:, 1].min())),
            float(min(w, bq[:, 0].max())),
            float(min(h, bq[:, 1].max())),
        )
        fq = proj(corners)
        if t.sideways:  # glyph-upright order: the long side of a sideways face runs along the row
            fq = fq[[3, 0, 1, 2]]
        label = "back" if t.face_down else t.label
        out.append(
            SceneTile(
                label,
                box,
                tuple((float(x), float(y)) for x, y in fq),
                t.sideways,
                t.face_down,
                t.group,
            )
        )
    _distractors(img, rng, [t.box for t in out])
    if clutter:
        paint_clutter(img, rng, [t.box for t in out])
    img = img * (1 - alpha) + warped[..., :3] * alpha
    return photo_finish(img, rng, nrng), out
