"""The two ornate faces: 1p (one big decorated circle) and 1s (a bird, a peacock's fan or one
ornate stick), built from simple shapes."""

from __future__ import annotations

import math

import numpy as np

from vision.synth.face_parts import Canvas, disc, ellipse, line, pip, poly, ring, stick
from vision.synth.face_style import FaceStyle


def one_pin(cv: Canvas, style: FaceStyle, red: bool = False) -> None:
    """One big circle: an outer ring, a band of small petals or dots, a red flower at the centre
    (all red for a red 1p, which no rule has but some sets sell)."""
    img, bg = cv.img, cv.bg
    c = cv.at(0.5, 0.5)
    r = min(cv.iw, cv.ih) * 0.47 * min(1.0, style.pin_scale + 0.05)
    ink = style.pin_red if red else style.pin_ink
    accent = style.pin_red if red else style.pin_accent
    if style.pin_design == "disc":
        disc(img, c, r, accent)
        ring(img, c, r * 0.8, r * 0.08, bg)
        ring(img, c, r, r * 0.1, ink)
    else:
        ring(img, c, r, r * 0.1, ink)
        petals = 12 if style.pin_design == "flower" else 16
        for k in range(petals):
            a = 2 * math.pi * k / petals
            p = (c[0] + 0.76 * r * math.cos(a), c[1] + 0.76 * r * math.sin(a))
            if style.pin_design == "flower":
                ellipse(img, p, (r * 0.13, r * 0.07), math.degrees(a), accent)
            else:
                disc(img, p, r * 0.07, accent)
        ring(img, c, r * 0.6, r * 0.07, ink)
    pip(cv, c, r * 0.46, style.pin_red, ink if not red else bg, "flower", 3)


def one_sou(cv: Canvas, style: FaceStyle) -> None:
    """1s in the style's design: "bird", "peacock" or "stick"."""
    {"bird": _bird, "peacock": _peacock, "stick": _ornate_stick}[style.one_sou](cv, style)


def _head(cv: Canvas, style: FaceStyle, c: tuple[float, float], r: float, facing: int) -> None:
    img = cv.img
    disc(img, c, r, style.sou_red)
    beak = np.array([[0.7, -0.35], [1.9, 0.1], [0.7, 0.45]]) * r * [facing, 1] + c
    poly(img, beak, style.sou_red)
    eye = (c[0] + 0.25 * r * facing, c[1] - 0.15 * r)
    disc(img, eye, r * 0.32, cv.bg)
    disc(img, eye, r * 0.16, style.numeral_ink)
    for k in (-1, 0, 1):  # a crest
        a = math.radians(-90 + 28 * k - 15 * facing)
        tip = (c[0] + 1.9 * r * math.cos(a), c[1] + 1.9 * r * math.sin(a))
        line(img, c, tip, r * 0.25, style.sou_ink)
        disc(img, tip, r * 0.22, style.sou_red)


def _legs(cv: Canvas, style: FaceStyle, hips: list[float], top: float, foot: float) -> None:
    w = cv.iw * 0.03
    for u in hips:
        a, b = cv.at(u, top), cv.at(u - 0.02, foot)
        line(cv.img, a, b, w, style.numeral_ink)
        for du in (-0.06, 0.0, 0.06):
            line(cv.img, b, cv.at(u - 0.02 + du, foot + 0.03), w * 0.8, style.numeral_ink)


def _bird(cv: Canvas, style: FaceStyle) -> None:
    """A sparrow-like bird perched upright, its tail fanned up behind it."""
    img, bg, iw = cv.img, cv.bg, cv.iw
    root = cv.at(0.34, 0.62)
    for k, (u, v) in enumerate(((0.06, 0.16), (0.16, 0.08), (0.28, 0.06), (0.04, 0.34))):
        tip = cv.at(u, v)
        line(img, root, tip, iw * 0.05, style.sou_ink)
        disc(img, tip, iw * 0.06, style.sou_accent if k % 2 else style.sou_red)
        disc(img, tip, iw * 0.025, bg)
    ellipse(img, cv.at(0.5, 0.58), (iw * 0.27, iw * 0.18), -30, style.sou_ink)
    ellipse(img, cv.at(0.46, 0.56), (iw * 0.18, iw * 0.09), -40, style.sou_accent)
    for k in range(3):
        a, b = cv.at(0.36 + 0.05 * k, 0.6), cv.at(0.46 + 0.05 * k, 0.52)
        line(img, a, b, iw * 0.02, bg)
    line(img, cv.at(0.62, 0.48), cv.at(0.68, 0.33), iw * 0.12, style.sou_ink)
    _head(cv, style, cv.at(0.68, 0.3), iw * 0.1, 1)
    _legs(cv, style, [0.46, 0.58], 0.7, 0.9)


def _peacock(cv: Canvas, style: FaceStyle) -> None:
    """A peacock: a fan of eyed feathers over a small body (as on many Japanese sets)."""
    img, iw = cv.img, cv.iw
    root = cv.at(0.45, 0.64)
    eye_r = iw * 0.085
    for k in range(7):
        a = math.radians(-165 + k * 25)
        reach = iw * (0.44 if k % 2 else 0.36)
        tip = (root[0] + reach * math.cos(a), root[1] + reach * 1.15 * math.sin(a))
        line(img, root, tip, iw * 0.03, style.sou_ink)
        pip(cv, tip, eye_r, style.sou_ink, style.sou_red, "rings", 2)
    ellipse(img, cv.at(0.46, 0.72), (iw * 0.2, iw * 0.13), -15, style.sou_ink)
    ellipse(img, cv.at(0.42, 0.72), (iw * 0.12, iw * 0.07), -25, style.sou_accent)
    line(img, cv.at(0.58, 0.68), cv.at(0.64, 0.6), iw * 0.08, style.sou_ink)
    _head(cv, style, cv.at(0.64, 0.58), iw * 0.07, 1)
    _legs(cv, style, [0.42, 0.52], 0.8, 0.94)


def _ornate_stick(cv: Canvas, style: FaceStyle) -> None:
    """One tall, wide stick with a red diamond at its middle joint."""
    width = cv.iw * 0.3
    stick(cv, cv.at(0.5, 0.05), cv.at(0.5, 0.95), width, style.sou_ink, "segmented", 2)
    c = np.array(cv.at(0.5, 0.5))
    diamond = np.array([[0, -1.0], [0.55, 0], [0, 1.0], [-0.55, 0]]) * width * 0.6 + c
    poly(cv.img, diamond, style.sou_red)
    disc(cv.img, tuple(c), width * 0.12, cv.bg)
    for v in (0.05, 0.95):
        disc(cv.img, cv.at(0.5, v), width * 0.22, style.sou_red)
