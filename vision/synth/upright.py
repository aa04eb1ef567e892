"""Render tiles standing upright as solid bodies, seen by a low camera: rows and loose groups.

`scene.render` paints tiles on a flat plane and warps it, which draws a standing tile as a face
with a band above it: nothing stands behind anything. Real photos of standing tiles (a player's
row, tiles set down before they are laid out) show solid tiles, rounded and lit from above, their
tops and the coloured back layer seen from a webcam a little above the table, nearer tiles
hiding the lower part of those behind. Here each tile is a box of the set's proportions in a 3D
scene (unit: one tile width), drawn far to near through a pinhole camera, its printed face
warped onto its front, each side shaded by a light that also casts its shadow on the table.
A tile's box is its whole body's outline (the labels of real photos box a half-hidden tile to
where its base is); one hidden more than ``HIDDEN_MAX`` by nearer tiles is no label.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.art import Art
from vision.synth.colours import BACK_COLOURS, FRONT_COLOURS
from vision.synth.hands import FACES
from vision.synth.scene import FACE_H, SceneTile, photo_finish, table_background

SUPER = 2  # drawn this many times larger, then shrunk: smooth edges
TEXTURE_PX = 96  # face texture width
HIDDEN_MAX = 0.65  # a tile hidden more than this share by nearer ones is no label
RED_FIVE_SHARE = 0.1
TURNED_SHARE = 0.06  # tiles turned round, their backs to the camera
WALL_SHARE = 0.6  # scenes whose camera sees past the table's far edge
EDGE_SHADE = 0.85  # a side's outline, as a rounded edge turning from the light


def _labels(rng: random.Random, n: int) -> list[str]:
    """One suit's run (as a player sets a suit out), the honours, or any tiles."""
    pick = rng.random()
    if pick < 0.45:
        suit = rng.choice("mps")
        out = [f"{i}{suit}" for i in range(1, 10)]
    elif pick < 0.6:
        out = [f"{i}z" for i in range(1, 8)]
    else:
        out = [rng.choice(FACES) for _ in range(n)]
    rng.shuffle(out)
    out = out[:n]
    return [
        "0" + t[1] if t[0] == "5" and t[1] != "z" and rng.random() < RED_FIVE_SHARE else t
        for t in out
    ]


@dataclass(frozen=True)
class Standing:
    """A tile standing on the table: its label, base centre and yaw (0: its face toward -y,
    pi: its back toward -y)."""

    label: str
    x: float
    y: float
    yaw: float = 0.0


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: centre, rotation rows (right, down, forward), focal length and
    principal point in output pixels, roll about the optical axis (radians)."""

    centre: np.ndarray
    axes: np.ndarray
    focal: float
    principal: tuple[float, float]
    roll: float = 0.0

    @classmethod
    def looking_at(
        cls,
        target: tuple[float, float, float],
        distance: float,
        pitch: float,
        focal: float,
        principal: tuple[float, float],
        turn: float = 0.0,
        roll: float = 0.0,
    ) -> Camera:
        """A camera ``distance`` from ``target``, ``pitch`` radians above the table, on the
        tiles' face side turned ``turn`` radians about the vertical."""
        aim = np.asarray(target, np.float64)
        centre = aim + distance * np.array(
            [-math.sin(turn) * math.cos(pitch), -math.cos(turn) * math.cos(pitch), math.sin(pitch)]
        )
        forward = (aim - centre) / np.linalg.norm(aim - centre)
        right = np.cross(forward, [0.0, 0.0, 1.0])
        right /= np.linalg.norm(right)
        return cls(
            centre, np.stack([right, np.cross(forward, right), forward]), focal, principal, roll
        )

    def project(self, points: np.ndarray, scale: float = 1.0) -> np.ndarray:
        """[N, 3] world points -> [N, 2] pixels of an image ``scale`` times the output size."""
        cam = (np.asarray(points, np.float64).reshape(-1, 3) - self.centre) @ self.axes.T
        xy = self.focal * cam[:, :2] / np.maximum(cam[:, 2:], 1e-3)
        c, s = math.cos(self.roll), math.sin(self.roll)
        return (xy @ np.array([[c, s], [-s, c]]) + self.principal) * scale


def _camera(tiles: list[Standing], size: tuple[int, int], rng: random.Random) -> Camera:
    """A webcam 5-40 degrees above the table, the tiles filling a third of it to most of it."""
    w, h = size
    xs, ys = [t.x for t in tiles], [t.y for t in tiles]
    target = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, FACE_H / 2)
    span = max(max(xs) - min(xs) + 1, 2.5)
    focal = (w / 2) / math.tan(math.radians(rng.uniform(25, 38)))
    return Camera.looking_at(
        target,
        focal * span / (rng.uniform(0.3, 0.9) * w),
        math.radians(rng.uniform(5, 40)),
        focal,
        (w / 2 + rng.uniform(-0.25, 0.25) * w, h / 2 + rng.uniform(-0.2, 0.25) * h),
        turn=rng.gauss(0, 0.2),
        roll=rng.gauss(0, 0.04),
    )


def _row(labels: list[str], rng: random.Random, depth: float) -> list[Standing]:
    """Tiles side by side, as a player's row stands (a slight curve); sometimes a second row
    behind it, as a second suit is set out."""
    gap, turn, bend = rng.uniform(0, 0.06), rng.gauss(0, 0.2), rng.gauss(0, 0.03)
    spots, x, y, yaw = [], 0.0, 0.0, turn
    for _ in labels:
        spots.append((x, y, yaw + rng.gauss(0, 0.02)))
        x, y, yaw = x + (1 + gap) * math.cos(yaw), y + (1 + gap) * math.sin(yaw), yaw + bend
    if rng.random() < 0.35:
        shift, behind = rng.uniform(-2, 2), depth + rng.uniform(0.4, 2.0)
        spots += [
            (px + shift - behind * math.sin(turn), py + behind * math.cos(turn), a)
            for px, py, a in spots[: rng.randint(3, len(spots))]
        ]
    return [Standing(t, x, y, a) for t, (x, y, a) in zip(labels * 2, spots, strict=False)]


def _scattered(labels: list[str], rng: random.Random, depth: float) -> list[Standing]:
    """Tiles set down loosely, none touching another's body (one finding no room is left out)."""
    out: list[Standing] = []
    span = rng.uniform(3.5, 7.0)
    for label in labels:
        for _ in range(40):
            x, y = rng.uniform(0, span), rng.uniform(0, span * 0.6)
            if all(abs(x - o.x) > 1.25 or abs(y - o.y) > depth + 0.3 for o in out):
                out.append(Standing(label, x, y, rng.gauss(0, 0.3)))
                break
    return out


@dataclass(frozen=True)
class Look:
    """A scene's tile set and light: body depth (tile widths) and the share of it that is the
    front layer, front and back colours (BGR), the direction toward the light, ambient share."""

    depth: float = 0.75
    split: float = 0.6
    front: tuple[float, float, float] = (236.0, 244.0, 248.0)
    back: tuple[float, float, float] = (40.0, 190.0, 230.0)
    light: tuple[float, float, float] = (0.0, -0.5, 1.0)
    ambient: float = 0.75


def render_upright(
    art: Art, rng: random.Random, size: tuple[int, int] = (640, 480)
) -> tuple[np.ndarray, list[SceneTile]]:
    """One random scene of standing tiles (BGR image, ``size`` = (width, height)) and its
    labels: a row or loose group, some turned round, a random set, light and camera."""
    w, h = size
    nrng = np.random.default_rng(rng.getrandbits(32))
    depth = rng.uniform(0.6, 0.85)
    labels = _labels(rng, rng.randint(5, 12))
    tiles = (_row if rng.random() < 0.5 else _scattered)(labels, rng, depth)
    tiles = [
        Standing(t.label, t.x, t.y, t.yaw + math.pi) if rng.random() < TURNED_SHARE else t
        for t in tiles
    ]
    camera = _camera(tiles, size, rng)
    front = np.array(rng.choice(FRONT_COLOURS), np.float32) * rng.uniform(0.9, 1.03)
    back = np.array(rng.choice(BACK_COLOURS), np.float32) * rng.uniform(0.85, 1.1)
    front, back = art.body_colours(front, back)
    look = Look(
        depth,
        rng.uniform(0.5, 0.7),
        tuple(float(v) for v in front),
        tuple(float(v) for v in back),
        (rng.uniform(-0.6, 0.6), rng.uniform(-1.0, 0.2), 1.0),
        rng.uniform(0.6, 0.9),
    )
    table = cv2.resize(table_background(h, w, rng, nrng), (w * SUPER, h * SUPER))
    if rng.random() < WALL_SHARE:
        _wall(table, camera, max(t.y for t in tiles) + rng.uniform(1.5, 8), rng)
    img, out = draw_standing(tiles, camera, table, art, look, rng.uniform(0.25, 0.6))
    return photo_finish(img, rng, nrng), out


def draw_standing(
    tiles: list[Standing],
    camera: Camera,
    table: np.ndarray,
    art: Art,
    look: Look,
    shadow: float = 0.4,
) -> tuple[np.ndarray, list[SceneTile]]:
    """Draw ``tiles`` on ``table`` (a float BGR image ``SUPER`` times the output size) as
    ``camera`` sees them: shadows ``shadow`` dark, then the tiles far to near; the image at the
    output size and the labels of the tiles no more than ``HIDDEN_MAX`` hidden."""
    img = table.astype(np.float32).copy()
    light = np.asarray(look.light, np.float64) / np.linalg.norm(look.light)
    bodies = [_body(t, look.depth) for t in tiles]
    shade = np.zeros(img.shape[:2], np.float32)
    for corners in bodies:
        outline = camera.project(_shadow(corners, light), SUPER).astype(np.int32)
        cv2.fillConvexPoly(shade, cv2.convexHull(outline), 1.0)
    img *= 1 - shadow * cv2.GaussianBlur(shade, (0, 0), 4 * SUPER)[..., None]
    owner = np.full(img.shape[:2], -1, np.int32)
    far_first = sorted(
        range(len(tiles)),
        key=lambda i: -np.linalg.norm(bodies[i].mean(axis=(0, 1, 2)) - camera.centre),
    )
    for i in far_first:
        _draw_tile(img, owner, i, bodies[i], tiles[i].label, art, look, light, camera)
    h, w = img.shape[0] // SUPER, img.shape[1] // SUPER
    out = [s for i, c in enumerate(bodies) if (s := _label(i, c, tiles[i], owner, camera, (w, h)))]
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA), out


def _label(
    i: int,
    corners: np.ndarray,
    tile: Standing,
    owner: np.ndarray,
    camera: Camera,
    size: tuple[int, int],
) -> SceneTile | None:
    """Tile ``i``'s label (its whole body's box; ``back`` when turned from the camera), or
    None when nearer tiles hide more than ``HIDDEN_MAX`` of it or it is off the image."""
    w, h = size
    outline = camera.project(corners)
    hull = np.zeros(owner.shape, np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull((outline * SUPER).astype(np.int32)), 1)
    area = int(hull.sum())
    if not area or (owner == i).sum() < (1 - HIDDEN_MAX) * area:
        return None
    box = (
        float(max(0, outline[:, 0].min())),
        float(max(0, outline[:, 1].min())),
        float(min(w, outline[:, 0].max())),
        float(min(h, outline[:, 1].max())),
    )
    if box[2] - box[0] < 2 or box[3] - box[1] < 2:
        return None
    face = np.array([corners[0, 0, 1], corners[1, 0, 1], corners[1, 0, 0], corners[0, 0, 0]])
    toward = _outward(face, corners) @ (camera.centre - face.mean(axis=0)) > 0
    quad = tuple((float(x), float(y)) for x, y in camera.project(face))
    return SceneTile(tile.label if toward else "back", box, quad, False, not toward, "upright")


def _body(tile: Standing, depth: float) -> np.ndarray:
    """The 8 corners [i (left, right), j (front, back), k (base, top)] of a standing tile."""
    along = np.array([math.cos(tile.yaw), math.sin(tile.yaw), 0.0])
    back = np.array([-math.sin(tile.yaw), math.cos(tile.yaw), 0.0])
    up = np.array([0.0, 0.0, FACE_H])
    base = np.array([tile.x, tile.y, 0.0])
    return np.array(
        [
            [
                [base + (i - 0.5) * along + (j - 0.5) * depth * back + k * up for k in (0, 1)]
                for j in (0, 1)
            ]
            for i in (0, 1)
        ]
    )


def _sides(c: np.ndarray, split: float) -> list[tuple[np.ndarray, str]]:
    """The tile's sides as 3D quads with their layer ('face', 'front', 'back'); the top and the
    two ends are cut where the front layer meets the back one (``split`` of the depth)."""

    def at(i: int, j: float, k: int) -> np.ndarray:
        return c[i, 0, k] + j * (c[i, 1, k] - c[i, 0, k])

    quads = [
        (np.array([c[0, 0, 1], c[1, 0, 1], c[1, 0, 0], c[0, 0, 0]]), "face"),
        (np.array([c[1, 1, 1], c[0, 1, 1], c[0, 1, 0], c[1, 1, 0]]), "back"),
    ]
    for lo, hi, layer in ((0.0, split, "front"), (split, 1.0, "back")):
        quads.append((np.array([at(0, lo, 1), at(1, lo, 1), at(1, hi, 1), at(0, hi, 1)]), layer))
        quads += [
            (np.array([at(i, lo, 1), at(i, hi, 1), at(i, hi, 0), at(i, lo, 0)]), layer)
            for i in (0, 1)
        ]
    return quads


def _outward(quad: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The unit normal of a side, pointing out of the tile."""
    n = np.cross(quad[1] - quad[0], quad[3] - quad[0])
    n /= np.linalg.norm(n)
    return n if n @ (quad.mean(axis=0) - corners.mean(axis=(0, 1, 2))) > 0 else -n


def _shadow(corners: np.ndarray, light: np.ndarray) -> np.ndarray:
    """The tile's corners pushed along the light onto the table (z = 0)."""
    pts = corners.reshape(-1, 3)
    return pts - light[None] * (pts[:, 2:] / light[2])


def _draw_tile(
    img: np.ndarray,
    owner: np.ndarray,
    index: int,
    corners: np.ndarray,
    label: str,
    art: Art,
    look: Look,
    light: np.ndarray,
    camera: Camera,
) -> None:
    """Paint one tile's sides that face the camera, lit, its face printed, edges a little
    darker (a rounded edge turns from the light), and mark its pixels ``index`` in ``owner``."""
    colours = {
        "face": np.array(look.front),
        "front": np.array(look.front),
        "back": np.array(look.back),
    }
    for quad, layer in _sides(corners, look.split):
        normal = _outward(quad, corners)
        if normal @ (camera.centre - quad.mean(axis=0)) <= 0:
            continue
        lit = look.ambient + (1 - look.ambient) * max(0.0, float(normal @ light))
        pts = camera.project(quad, SUPER).astype(np.float32)
        if layer == "face":
            tex = art.face(label, tuple(int(v) for v in np.clip(look.front, 0, 255)), TEXTURE_PX)
            _print(img, tex.astype(np.float32) * lit, pts)
        else:
            cv2.fillConvexPoly(
                img, pts.astype(np.int32), tuple(float(v) for v in colours[layer] * lit)
            )
        edge = tuple(float(v) for v in colours[layer] * lit * EDGE_SHADE)
        cv2.polylines(img, [pts.astype(np.int32)], True, edge, SUPER)
        cv2.fillConvexPoly(owner, pts.astype(np.int32), index)


def _wall(img: np.ndarray, camera: Camera, far: float, rng: random.Random) -> None:
    """Beyond the table's far edge (``far`` tile widths back): a tray's dark rim, then a wall
    or a shelf of books, as a webcam low over the table sees them."""
    h, w = img.shape[:2]
    cx = float(camera.centre[0])  # two points of the edge in front of the camera give its line
    (ax, ay), (bx, by) = camera.project(np.array([[cx - 5, far, 0.0], [cx + 5, far, 0.0]]), SUPER)
    edge = ay + (by - ay) * (np.arange(w, dtype=np.float32) - ax) / (bx - ax)
    wall = np.empty_like(img)
    wall[:] = [rng.uniform(20, 230) for _ in range(3)]
    x = 0
    while rng.random() < 0.7 and x < w:  # books
        step = int(rng.uniform(0.01, 0.05) * w) + 1
        wall[:, x : x + step] = [rng.uniform(10, 250) for _ in range(3)]
        x += step
    rows = np.arange(h, dtype=np.float32)[:, None]
    rim = rng.uniform(0.02, 0.08) * h
    img[:] = np.where((rows < edge)[..., None], wall, img)
    img[:] = np.where(((rows >= edge) & (rows < edge + rim))[..., None], rng.uniform(20, 80), img)


def _print(img: np.ndarray, tex: np.ndarray, quad: np.ndarray) -> None:
    """Warp a face texture onto the image inside ``quad`` (TL, TR, BR, BL)."""
    th, tw = tex.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int), (img.shape[1], img.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    m = cv2.getPerspectiveTransform(src, (quad - np.float32([x0, y0])).astype(np.float32))
    part = cv2.warpPerspective(tex, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.ones((th, tw), np.float32), m, (x1 - x0, y1 - y0))[..., None]
    roi = img[y0:y1, x0:x1]
    roi[:] = roi * (1 - mask) + part * mask
