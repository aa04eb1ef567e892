"""Procedural tile faces: any of the 38 model labels in any `FaceStyle`, drawn by our own code.

The CC0 art is one set; real tables bring many (pip designs and colours, stick shapes, the 1s
bird, brush or Mincho characters, framed or blank White dragons). ``render_face`` draws one
face of a style: pips and sticks with OpenCV, characters with Pillow from an installed CJK font
(`vision.synth.fonts`). Layouts are the real ones (7p: a diagonal of three over a square of four;
8s: M over W). Training only; the kiosk never imports this module.

>>> import random
>>> from vision.synth.face_style import random_style
>>> face = render_face("7p", random_style(random.Random(3)), (60, 80))
>>> face.shape, face.dtype.name
((80, 60, 3), 'uint8')
"""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

from scorer.tiles import MODEL_CLASSES
from vision.synth.face_ones import one_pin, one_sou
from vision.synth.face_parts import Canvas, disc, pip, stick
from vision.synth.face_style import BGR, FaceStyle
from vision.synth.fonts import glyph_mask, has_glyph

WORK_WIDTH = 240  # faces are drawn at least this wide, then shrunk
NUMERALS = "一二三四五六七八九"
HONOURS = "東南西北白發中"

#: pip centres (u, v in the printed area) and base radius (share of its width) for 2p..9p
PIN_LAYOUTS: dict[int, tuple[tuple[tuple[float, float], ...], float]] = {
    2: (((0.5, 0.25), (0.5, 0.75)), 0.25),
    3: (((0.2, 0.17), (0.5, 0.5), (0.8, 0.83)), 0.19),
    4: (((0.27, 0.25), (0.73, 0.25), (0.27, 0.75), (0.73, 0.75)), 0.21),
    5: (((0.22, 0.18), (0.78, 0.18), (0.5, 0.5), (0.22, 0.82), (0.78, 0.82)), 0.19),
    6: (((0.27, 0.15), (0.73, 0.15), (0.27, 0.57), (0.73, 0.57), (0.27, 0.86), (0.73, 0.86)), 0.18),
    7: (
        ((0.2, 0.1), (0.5, 0.22), (0.8, 0.34), (0.27, 0.62), (0.73, 0.62), (0.27, 0.88),
         (0.73, 0.88)),
        0.15,
    ),
    8: (tuple((u, v) for v in (0.11, 0.37, 0.63, 0.89) for u in (0.28, 0.72)), 0.16),
    9: (tuple((u, v) for v in (0.15, 0.5, 0.85) for u in (0.19, 0.5, 0.81)), 0.15),
}
#: which pips classic sets print red (indices into the layout)
PIN_REDS = {3: {1}, 5: {2}, 6: {2, 3, 4, 5}, 7: {3, 4, 5, 6}, 9: {3, 4, 5}}

Seg = tuple[tuple[float, float], tuple[float, float]]


def _column(u: float, v: float, length: float) -> Seg:
    return ((u, v - length / 2), (u, v + length / 2))


#: sticks (end points in the printed area) for 2s..9s; 8s has its M-over-W apart
SOU_LAYOUTS: dict[int, tuple[Seg, ...]] = {
    2: (_column(0.5, 0.25, 0.42), _column(0.5, 0.75, 0.42)),
    3: (_column(0.5, 0.25, 0.42), _column(0.27, 0.75, 0.42), _column(0.73, 0.75, 0.42)),
    4: tuple(_column(u, v, 0.42) for v in (0.25, 0.75) for u in (0.27, 0.73)),
    5: (*(_column(u, 0.25, 0.42) for u in (0.2, 0.8)), _column(0.5, 0.5, 0.42),
        *(_column(u, 0.75, 0.42) for u in (0.2, 0.8))),
    6: tuple(_column(u, v, 0.42) for v in (0.25, 0.75) for u in (0.2, 0.5, 0.8)),
    7: (_column(0.5, 0.16, 0.27),
        *(_column(u, v, 0.27) for v in (0.5, 0.83) for u in (0.2, 0.5, 0.8))),
    8: tuple(_column(u, v, 0.42) for v in (0.25, 0.75) for u in (0.14, 0.38, 0.62, 0.86)),
    9: tuple(_column(u, v, 0.28) for v in (0.17, 0.5, 0.83) for u in (0.2, 0.5, 0.8)),
}
EIGHT_SOU_MW: tuple[Seg, ...] = (  # (real sets let the sticks touch; ours keep a hair apart)
    ((0.11, 0.04), (0.11, 0.46)), ((0.3, 0.04), (0.41, 0.46)),  # M: | \ / |
    ((0.7, 0.04), (0.59, 0.46)), ((0.89, 0.04), (0.89, 0.46)),
    ((0.11, 0.54), (0.11, 0.96)), ((0.41, 0.54), (0.3, 0.96)),  # W: | / \ |
    ((0.59, 0.54), (0.7, 0.96)), ((0.89, 0.54), (0.89, 0.96)),
)
SOU_REDS = {5: {2}, 7: {0}, 9: {1, 4, 7}}
#: Latin corner indices of sets sold abroad
WIND_LETTERS = {1: "E", 2: "S", 3: "W", 4: "N"}


def _label_rng(style: FaceStyle, label: str) -> random.Random:
    return random.Random(f"{style.seed}:{label}")  # str seeds hash stably across processes


def _jittered(rng: random.Random, cv: Canvas, u: float, v: float, j: float) -> tuple[float, float]:
    x, y = cv.at(u, v)
    return (x + rng.uniform(-j, j) * cv.iw, y + rng.uniform(-j, j) * cv.iw)


def _pins(cv: Canvas, style: FaceStyle, n: int, red: bool, rng: random.Random) -> None:
    if n == 1:
        one_pin(cv, style, red)
        return
    spots, base = PIN_LAYOUTS[n]
    centres = [_jittered(rng, cv, u, v, style.jitter) for u, v in spots]
    gap = min(math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1 :])
    r = min(base * style.pin_scale * cv.iw, 0.44 * gap)  # neighbours never touch
    for i, c in enumerate(centres):
        ink, inner = style.pin_ink, style.pin_accent if style.pin_two_tone else style.pin_ink
        if red or (style.pin_reds and i in PIN_REDS.get(n, ())):
            ink = inner = style.pin_red
        elif n == 6 and i < 2 and style.six_pin_top_accent or n in (2, 4) and style.pin_two_tone:
            ink = inner = style.pin_accent
        pip(cv, c, r, ink, inner, style.pin_design, style.pin_rings)


def _sous(cv: Canvas, style: FaceStyle, n: int, red: bool, rng: random.Random) -> None:
    if n == 1:
        one_sou(cv, style)
        return
    segs = SOU_LAYOUTS[n]
    if n == 8 and style.eight_sou != "rows":
        segs = EIGHT_SOU_MW
        if style.eight_sou == "wm":  # W over M: the same sticks upside down
            segs = tuple(((u0, 1 - v0), (u1, 1 - v1)) for (u0, v0), (u1, v1) in segs)
    width = style.stick_width * cv.iw * (0.8 if n == 8 else 1.0)
    for i, ((u0, v0), (u1, v1)) in enumerate(segs):
        dx, dy = (rng.uniform(-1, 1) * style.jitter * cv.iw for _ in range(2))
        a, b = cv.at(u0, v0), cv.at(u1, v1)
        ink = style.sou_ink
        if red or (style.sou_reds and i in SOU_REDS.get(n, ())):
            ink = style.sou_red
        elif style.sou_two_tone and n in (2, 4, 8) and i % 2:
            ink = style.sou_accent
        stick(cv, (a[0] + dx, a[1] + dy), (b[0] + dx, b[1] + dy), width, ink,
              style.stick_shape, style.stick_nodes)


def _paste(cv: Canvas, mask: np.ndarray, c: tuple[float, float], size: tuple[float, float],
           colour: BGR) -> None:
    """Blend ``colour`` through ``mask`` resized to ``size`` (w, h) and centred on ``c``."""
    w, h = max(1, int(round(size[0]))), max(1, int(round(size[1])))
    shrink = w < mask.shape[1] or h < mask.shape[0]
    m = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
    x0, y0 = int(round(c[0] - w / 2)), int(round(c[1] - h / 2))
    H, W = cv.img.shape[:2]
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(W, x0 + w), min(H, y0 + h)
    if cx1 <= cx0 or cy1 <= cy0:
        return
    a = m[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0, None]
    roi = cv.img[cy0:cy1, cx0:cx1].astype(np.float32)
    ink = np.array(colour, np.float32)
    cv.img[cy0:cy1, cx0:cx1] = np.clip(roi * (1 - a) + ink * a + 0.5, 0, 255)


def _glyph(style: FaceStyle, ch: str, em: int) -> np.ndarray:
    font = style.font if has_glyph(style.font, ch) else style.fallback_font
    return glyph_mask(font, ch, max(16, em), style.weight)


def _fit(mask: np.ndarray, box_w: float, box_h: float) -> tuple[float, float]:
    s = min(box_w / mask.shape[1], box_h / mask.shape[0])
    return mask.shape[1] * s, mask.shape[0] * s


def _characters(cv: Canvas, style: FaceStyle, n: int, red: bool) -> None:
    """The numeral over 萬; all numerals share one scale (一 stays a flat stroke)."""
    em = int(cv.ih * 0.5)
    ch = style.five if n == 5 else NUMERALS[n - 1]
    mask = _glyph(style, ch, em)
    ref = _glyph(style, "四", em)
    box_w, box_h = cv.iw * 0.86, cv.ih * 0.4
    s = min(box_w / ref.shape[1], box_h / (ref.shape[0] * style.numeral_squash))
    size = (min(box_w, mask.shape[1] * s), min(box_h, mask.shape[0] * s * style.numeral_squash))
    _paste(cv, mask, cv.at(0.5, 0.22), size, style.red if red else style.numeral_ink)
    man = _glyph(style, "萬", em)
    man_ink = style.red if red else style.man_ink  # a red five is red all over
    _paste(cv, man, cv.at(0.5, 0.72), _fit(man, cv.iw * 0.92, cv.ih * 0.52), man_ink)


def _honour(cv: Canvas, style: FaceStyle, n: int) -> None:
    if n == 5 and style.white != "glyph":
        if style.white == "frame":
            _white_frame(cv, style)
        return
    ink = {5: style.white_ink, 6: style.green, 7: style.red}.get(n, style.wind_ink)
    mask = _glyph(style, HONOURS[n - 1], int(cv.iw))
    _paste(cv, mask, cv.at(0.5, 0.5), _fit(mask, cv.iw * 0.94, cv.ih * 0.8), ink)


def _white_frame(cv: Canvas, style: FaceStyle) -> None:
    """White dragon: a blue frame (some sets a second thin line inside it)."""
    t = max(2, int(round(cv.iw * 0.07)))
    x0, y0 = cv.at(0.06, 0.05)
    x1, y1 = cv.at(0.94, 0.95)
    cv2.rectangle(cv.img, (int(x0), int(y0)), (int(x1), int(y1)), style.white_ink, t, cv2.LINE_AA)
    if style.white_double:
        k = t * 2.2
        inner = (int(x0 + k), int(y0 + k)), (int(x1 - k), int(y1 - k))
        cv2.rectangle(cv.img, *inner, style.white_ink, max(1, t // 3), cv2.LINE_AA)


def _corner_index(cv: Canvas, label: str, ink: BGR) -> None:
    num, suit = label[0], label[1]
    if suit == "z":
        text = WIND_LETTERS.get(int(num), "")
    else:
        text = "5" if num == "0" else num
    if text:
        w = cv.img.shape[1]
        org = (int(w * 0.05), int(w * 0.05 + w * 0.11))
        cv2.putText(cv.img, text, org, cv2.FONT_HERSHEY_SIMPLEX, w * 0.11 / 22, ink,
                    max(1, int(w * 0.015)), cv2.LINE_AA)


def _body(style: FaceStyle, w: int, h: int, colour: BGR) -> np.ndarray:
    """The face's ground: the body colour, darker toward the edges of a convex face."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx / w - 0.5) * 2) ** 2 + ((yy / h - 0.5) * 2) ** 2
    img = np.array(colour, np.float32)[None, None, :] * (1 - style.shade * r2[..., None] / 2)
    return np.clip(img + 0.5, 0, 255).astype(np.uint8)


def _back(style: FaceStyle, w: int, h: int) -> np.ndarray:
    """A face-down tile: the back colour, a soft highlight, and the style's subtle texture."""
    rng = np.random.default_rng(style.seed)
    img = np.empty((h, w, 3), np.float32)
    img[:] = style.back
    img *= np.linspace(1.08, 0.92, h, dtype=np.float32)[:, None, None]
    if style.back_texture == "grain":
        low = cv2.resize(rng.normal(0, 1, (h // 6 + 2, 3)).astype(np.float32), (w, h),
                         interpolation=cv2.INTER_CUBIC)
        img *= 1 + 0.04 * low[..., None]
    elif style.back_texture == "speckle":
        img *= 1 + 0.05 * rng.normal(0, 1, (h, w, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _border(img: np.ndarray, style: FaceStyle) -> None:
    h, w = img.shape[:2]
    if style.border == "line":
        cv2.rectangle(img, (0, 0), (w - 1, h - 1), style.border_colour, max(1, w // 60),
                      cv2.LINE_AA)
    elif style.border == "inset":
        k = int(w * 0.035)
        cv2.rectangle(img, (k, k), (w - 1 - k, h - 1 - k), style.border_colour, max(1, w // 120),
                      cv2.LINE_AA)


def render_face(label: str, style: FaceStyle, size: tuple[int, int] = (60, 80)) -> np.ndarray:
    """The upright face of ``label`` (a model class, ``back`` a face-down tile) in ``style``,
    as BGR uint8 of ``size`` (width, height). The same label and style give the same bytes."""
    if label not in MODEL_CLASSES:
        raise ValueError(f"{label!r} is not a model label ({', '.join(MODEL_CLASSES)})")
    w, h = size
    if w < 4 or h < 4:
        raise ValueError(f"face size {size} is too small")
    scale = max(1, math.ceil(WORK_WIDTH / w))
    W, H = w * scale, h * scale
    if label == "back":
        img = _back(style, W, H)
    else:
        img = _body(style, W, H, style.background)
        left, top = (0.16, 0.13) if style.corner_index else (0.08, 0.06)
        full_w, full_h = W * (0.92 - left), H * (0.94 - top)
        iw, ih = full_w * style.print_scale, full_h * style.print_scale
        cv = Canvas(img, style.background, W * left + (full_w - iw) / 2,
                    H * top + (full_h - ih) / 2, iw, ih)
        draw_print(cv, label, style)
        if style.corner_index:
            _corner_index(cv, label, style.numeral_ink)
        _border(img, style)
    if scale > 1:
        img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    return img


def draw_print(cv: Canvas, label: str, style: FaceStyle) -> None:
    """Draw what is printed on a face-up ``label`` into the canvas's printed area."""
    num, suit = label[0], label[1]
    red = num == "0"
    n = 5 if red else int(num)
    rng = _label_rng(style, label)
    if suit == "p":
        _pins(cv, style, n, red, rng)
    elif suit == "s":
        _sous(cv, style, n, red, rng)
    elif suit == "m":
        _characters(cv, style, n, red)
    else:
        _honour(cv, style, n)
    if red and style.red_five == "red_dot":
        H, W = cv.img.shape[:2]
        disc(cv.img, (W * 0.9, H * 0.055), W * 0.035, style.red)
