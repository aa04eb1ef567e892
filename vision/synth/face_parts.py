"""Pieces of the procedural faces: the canvas, pips and bamboo sticks (OpenCV, anti-aliased).

Everything is drawn at a working resolution (`Canvas`) and shrunk once at the end, so thin
lines and small pips stay smooth on a 40 px tile. Positions are sub-pixel (``shift`` bits).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.face_style import BGR

SHIFT = 4
ONE = 1 << SHIFT
AA = cv2.LINE_AA


def pt(x: float, y: float) -> tuple[int, int]:
    return (int(round(x * ONE)), int(round(y * ONE)))


@dataclass
class Canvas:
    """A face at working resolution: the image (BGR uint8), its background colour, and the
    printed area (left, top, width, height in pixels) that layouts place things in."""

    img: np.ndarray
    bg: BGR
    x0: float
    y0: float
    iw: float
    ih: float

    def at(self, u: float, v: float) -> tuple[float, float]:
        """Pixel position of (u, v) in the printed area (0..1 each)."""
        return (self.x0 + u * self.iw, self.y0 + v * self.ih)


def disc(img: np.ndarray, c: tuple[float, float], r: float, colour: BGR) -> None:
    cv2.circle(img, pt(*c), max(1, int(round(r * ONE))), colour, -1, AA, SHIFT)


def ring(img: np.ndarray, c: tuple[float, float], r: float, width: float, colour: BGR) -> None:
    """A ring whose ink spans radii ``r - width`` .. ``r``."""
    t = max(1, int(round(width)))
    cv2.circle(img, pt(*c), max(1, int(round((r - t / 2) * ONE))), colour, t, AA, SHIFT)


def ellipse(
    img: np.ndarray, c: tuple[float, float], axes: tuple[float, float], angle: float, colour: BGR,
    thickness: int = -1,
) -> None:
    ax = (max(1, int(round(axes[0] * ONE))), max(1, int(round(axes[1] * ONE))))
    cv2.ellipse(img, pt(*c), ax, angle, 0, 360, colour, thickness, AA, SHIFT)


def poly(img: np.ndarray, points: np.ndarray, colour: BGR) -> None:
    cv2.fillPoly(img, [np.round(np.asarray(points) * ONE).astype(np.int32)], colour, AA, SHIFT)


def line(
    img: np.ndarray, a: tuple[float, float], b: tuple[float, float], width: float, colour: BGR
) -> None:
    cv2.line(img, pt(*a), pt(*b), colour, max(1, int(round(width))), AA, SHIFT)


# --- pips -------------------------------------------------------------------------------------


def pip(
    cv: Canvas, c: tuple[float, float], r: float, ink: BGR, inner: BGR, design: str, rings: int
) -> None:
    """One dot of the dots suit: a closed outer edge (one blob of ink with its holes filled)
    and the design's details inside it."""
    img, bg = cv.img, cv.bg
    if design == "disc":
        disc(img, c, r, ink)
        if rings > 1:
            ring(img, c, r * 0.62, r * 0.12, bg)
        disc(img, c, r * 0.2, inner if inner != ink else bg)
        return
    if design == "flower":
        ring(img, c, r, max(1.0, r * 0.13), ink)
        petals = 6 if rings < 3 else 8
        for k in range(petals):
            a = 2 * math.pi * k / petals
            pc = (c[0] + 0.52 * r * math.cos(a), c[1] + 0.52 * r * math.sin(a))
            ellipse(img, pc, (r * 0.24, r * 0.13), math.degrees(a), inner)
        disc(img, c, r * 0.2, ink)
        return
    # concentric rings around a centre dot
    ring(img, c, r, max(1.0, r * 0.2), ink)
    for k in range(rings - 1):
        ring(img, c, r * (0.66 - 0.24 * k), max(1.0, r * 0.12), inner)
    disc(img, c, r * (0.2 if rings > 1 else 0.3), inner if rings > 1 else ink)


# --- bamboo sticks ----------------------------------------------------------------------------


def _profile(t: np.ndarray, shape: str, nodes: tuple[float, ...], cap: float) -> np.ndarray:
    """Half-width of a stick along its length (t = 0..1), in units of its nominal half-width."""
    d = np.minimum(t, 1 - t)
    rounded = np.sqrt(np.clip(1 - (1 - np.clip(d / cap, 0, 1)) ** 2, 0, 1))
    if shape == "bone":  # wide knobs at the ends, a waist between them
        base = 0.6 + 0.4 * np.clip(1 - d / 0.2, 0, 1) ** 2
    elif shape == "segmented":
        base = 0.8 + 0.2 * np.clip(1 - d / 0.1, 0, 1)
    else:
        base = np.full_like(t, 0.85)
    bump = sum(0.28 * np.exp(-(((t - n) / 0.03) ** 2)) for n in nodes)
    return rounded * (base + bump)


def stick(
    cv: Canvas, a: tuple[float, float], b: tuple[float, float], width: float, ink: BGR,
    shape: str, n_nodes: int, detail: BGR | None = None,
) -> None:
    """One bamboo stick from ``a`` to ``b`` (pixels), ``width`` px across: one blob of ink
    (hollow designs have their holes inside), with joints (``n_nodes``) bulging along it."""
    img, bg = cv.img, cv.bg
    pa, pb = np.array(a, np.float64), np.array(b, np.float64)
    length = float(np.linalg.norm(pb - pa))
    if length < 1:
        return
    d = (pb - pa) / length
    n = np.array([-d[1], d[0]])
    nodes = tuple((k + 1) / (n_nodes + 1) for k in range(n_nodes))
    t = np.linspace(0, 1, 96)
    half = _profile(t, shape, nodes, cap=min(0.45, width / 2 / length)) * width / 2
    axis = pa + t[:, None] * length * d
    poly(img, np.vstack([axis + half[:, None] * n, (axis - half[:, None] * n)[::-1]]), ink)
    bounds = (0.0, *nodes, 1.0)
    fill = detail if detail is not None else bg
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        lo, hi = lo + (0.07 if lo else 0.05), hi - (0.07 if hi < 1 else 0.05)
        if hi <= lo:
            continue
        if shape == "bone":  # hollow: an outline of ink round each segment
            seg = (t >= lo) & (t <= hi)
            inner = np.maximum(half[seg] - max(1.0, width * 0.2), 0.0)
            ax = axis[seg]
            poly(img, np.vstack([ax + inner[:, None] * n, (ax - inner[:, None] * n)[::-1]]), fill)
        else:  # a light line down the middle of each segment
            line(img, tuple(pa + lo * length * d), tuple(pa + hi * length * d), width * 0.16, fill)
