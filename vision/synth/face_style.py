"""The look of one procedural tile set: inks, pip and stick designs, fonts, body colours.

A real table has one set, so a scene draws every tile with one `FaceStyle`; `random_style`
spans the variety of sets players bring (Japanese riichi sets first, with the designs of other
sets mixed in). Colours are (B, G, R) like the rest of the renderer.
"""

from __future__ import annotations

import colorsys
import random
from collections.abc import Sequence
from dataclasses import dataclass

from vision.synth.colours import BACK_COLOURS
from vision.synth.fonts import (
    BRUSH_FONTS,
    FONT_DIRS,
    CjkFont,
    FontsMissingError,
    complete_fonts,
    find_cjk_fonts,
    missing_fonts_message,
)

BGR = tuple[int, int, int]

PIN_DESIGNS = ("rings", "flower", "disc")  # concentric rings, petals in a ring, plain discs
STICK_SHAPES = ("segmented", "bone", "plain")
ONE_SOU_DESIGNS = ("bird", "peacock", "stick")  # a small bird, a peacock's fan, one ornate stick
EIGHT_SOU_DESIGNS = ("mw", "wm", "rows")  # M over W, W over M, or two rows of four
WHITE_DESIGNS = ("frame", "blank", "glyph")  # blue frame, blank face, the character 白
RED_FIVE_MARKS = ("red", "red_dot")  # red ink for the five, or red ink plus a dot
BACK_TEXTURES = ("plain", "grain", "speckle")
BORDERS = ("none", "line", "inset")

#: ink colours real sets print with (B, G, R)
BLUES = ((150, 70, 20), (120, 50, 15), (170, 95, 35), (110, 40, 40))
GREENS = ((60, 120, 20), (50, 95, 15), (80, 140, 40), (70, 110, 0))
REDS = ((40, 40, 205), (50, 30, 185), (30, 55, 220), (60, 50, 195))
BLACKS = ((30, 30, 30), (45, 35, 30), (20, 20, 20))
INKS = {"blue": BLUES, "green": GREENS, "black": BLACKS, "red": REDS}
#: tile fronts: ivory, white, cream
FRONTS = ((236, 244, 248), (222, 236, 242), (246, 248, 248), (205, 228, 238), (214, 238, 244))
BACKS = (*BACK_COLOURS, (60, 60, 170), (140, 110, 110))  # the CC0 scenes' backs and two more


@dataclass(frozen=True)
class FaceStyle:
    """Everything that tells one set's faces from another's (see `random_style`)."""

    seed: int  # places each pip and stick's small jitter, the same on every tile of a kind
    # body
    background: BGR  # the face: ivory, white or cream
    back: BGR  # a face-down tile's colour
    back_texture: str  # one of BACK_TEXTURES
    border: str  # one of BORDERS: none, a thin line at the edge, or an inset frame
    border_colour: BGR
    shade: float  # how much the convex face darkens toward its edges (0..0.1)
    # dots
    pin_design: str  # one of PIN_DESIGNS
    pin_rings: int  # rings inside a ring pip (1..3) or petals' rings around a flower
    pin_ink: BGR  # most pips
    pin_accent: BGR  # the second colour: two-tone pips, 6p's top pair, 2p and 4p's pairs
    pin_red: BGR
    pin_reds: bool  # red pips where classic sets print them (3p, 5p centre, 6p-7p below, 9p)
    pin_two_tone: bool  # a pip's inner details in the accent colour
    six_pin_top_accent: bool  # 6p's top pair in the accent colour (green in many sets)
    pin_scale: float  # pip size factor
    jitter: float  # pip and stick placement jitter (share of the face's width)
    # bamboo
    stick_shape: str  # one of STICK_SHAPES
    stick_width: float  # share of the printed width
    stick_nodes: int  # bulging joints along a stick (1 or 2)
    sou_ink: BGR
    sou_accent: BGR  # the second colour some sets give alternate sticks
    sou_red: BGR
    sou_reds: bool  # red 5s centre, 7s top stick, 9s centre column
    sou_two_tone: bool  # alternate sticks (2s, 4s, 8s's pairs) in the accent colour
    one_sou: str  # one of ONE_SOU_DESIGNS
    eight_sou: str  # one of EIGHT_SOU_DESIGNS
    # characters and honours
    font: CjkFont
    fallback_font: CjkFont  # for the characters ``font`` lacks
    weight: float  # extra stroke weight (share of the em)
    numeral_ink: BGR
    man_ink: BGR  # 萬, red in most sets
    five: str  # "伍" (most riichi sets) or "五"
    numeral_squash: float  # numerals drawn this much wider than tall (0.7..1)
    wind_ink: BGR
    green: BGR  # 發
    red: BGR  # 中 and red fives
    white: str  # one of WHITE_DESIGNS
    white_ink: BGR
    white_double: bool  # a frame with a thin second line inside
    red_five: str  # one of RED_FIVE_MARKS
    corner_index: bool  # small Latin numbers and wind letters in the top-left corner
    # real sets leave wide plain margins, so a tile's edge is not where its print ends
    print_scale: float = 1.0  # the printed area's share of its full size, about the centre
    seam: float = 1.0  # how dark the line between neighbouring tiles is (0: none, 1: dark)

    def __post_init__(self) -> None:
        for value, allowed, what in (
            (self.pin_design, PIN_DESIGNS, "pin_design"),
            (self.stick_shape, STICK_SHAPES, "stick_shape"),
            (self.one_sou, ONE_SOU_DESIGNS, "one_sou"),
            (self.eight_sou, EIGHT_SOU_DESIGNS, "eight_sou"),
            (self.white, WHITE_DESIGNS, "white"),
            (self.red_five, RED_FIVE_MARKS, "red_five"),
            (self.back_texture, BACK_TEXTURES, "back_texture"),
            (self.border, BORDERS, "border"),
        ):
            if value not in allowed:
                raise ValueError(f"{what} {value!r} is not one of {allowed}")
        if self.five not in ("五", "伍"):
            raise ValueError(f"five {self.five!r} is not 五 or 伍")
        if not 0.5 <= self.print_scale <= 1.0:
            raise ValueError(f"print_scale {self.print_scale} is not within 0.5..1")
        if not 0.0 <= self.seam <= 1.0:
            raise ValueError(f"seam {self.seam} is not within 0..1")


def _jitter(rng: random.Random, colour: BGR, amount: int) -> BGR:
    return tuple(max(0, min(255, c + rng.randint(-amount, amount))) for c in colour)  # type: ignore[return-value]


def _pick(rng: random.Random, options: Sequence[BGR], amount: int = 12) -> BGR:
    return _jitter(rng, rng.choice(options), amount)


def _weighted(rng: random.Random, options: dict[str, float]) -> str:
    return rng.choices(list(options), weights=list(options.values()))[0]


def _random_back(rng: random.Random) -> BGR:
    if rng.random() < 0.6:
        return _pick(rng, BACKS, 15)
    r, g, b = colorsys.hsv_to_rgb(rng.random(), rng.uniform(0.35, 1.0), rng.uniform(0.2, 0.9))
    return (int(b * 255), int(g * 255), int(r * 255))


def random_style(rng: random.Random, fonts: Sequence[CjkFont] | None = None) -> FaceStyle:
    """A random set's look, from ``rng`` and the installed CJK fonts (``fonts``: default
    `find_cjk_fonts()`, which raises `FontsMissingError` when there are none)."""
    fonts = tuple(fonts) if fonts is not None else find_cjk_fonts()
    if not fonts:
        raise FontsMissingError(missing_fonts_message(FONT_DIRS))
    complete = complete_fonts(fonts) or fonts
    font = rng.choice(fonts)
    fallback = font if font in complete else rng.choice(complete)
    pin_family = _weighted(rng, {"blue": 0.55, "black": 0.27, "green": 0.18})
    sou_family = _weighted(rng, {"green": 0.65, "blue": 0.21, "black": 0.14})
    red = _pick(rng, REDS)
    return FaceStyle(
        seed=rng.getrandbits(31),
        background=_pick(rng, FRONTS, 6),
        back=_random_back(rng),
        back_texture=_weighted(rng, {"plain": 0.5, "grain": 0.3, "speckle": 0.2}),
        border=_weighted(rng, {"none": 0.6, "line": 0.25, "inset": 0.15}),
        border_colour=_pick(rng, ((150, 170, 180), (120, 140, 150), (60, 60, 60)), 10),
        shade=rng.uniform(0.0, 0.1),
        pin_design=_weighted(rng, {"rings": 0.55, "flower": 0.25, "disc": 0.2}),
        pin_rings=rng.randint(1, 3),
        pin_ink=_pick(rng, INKS[pin_family]),
        pin_accent=_pick(rng, GREENS if pin_family != "green" else BLUES),
        pin_red=_jitter(rng, red, 10),
        pin_reds=rng.random() < 0.85,
        pin_two_tone=rng.random() < 0.3,
        six_pin_top_accent=rng.random() < 0.6,
        pin_scale=rng.uniform(0.85, 1.3),
        jitter=rng.uniform(0.0, 0.025),
        stick_shape=_weighted(rng, {"segmented": 0.45, "bone": 0.35, "plain": 0.2}),
        stick_width=rng.uniform(0.12, 0.17),
        stick_nodes=rng.choice((1, 2, 2)),
        sou_ink=_pick(rng, INKS[sou_family]),
        sou_accent=_pick(rng, BLUES if sou_family == "green" else GREENS),
        sou_red=_jitter(rng, red, 10),
        sou_reds=rng.random() < 0.85,
        sou_two_tone=rng.random() < 0.25,
        one_sou=_weighted(rng, {"bird": 0.45, "peacock": 0.35, "stick": 0.2}),
        eight_sou=_weighted(rng, {"mw": 0.45, "wm": 0.4, "rows": 0.15}),
        font=font,
        fallback_font=fallback,
        weight=rng.uniform(0.0, 0.012) if font.name in BRUSH_FONTS else rng.uniform(0.0, 0.035),
        numeral_ink=_pick(rng, BLACKS if rng.random() < 0.8 else BLUES),
        man_ink=_jitter(rng, red, 10) if rng.random() < 0.85 else _pick(rng, BLACKS),
        five="伍" if rng.random() < 0.6 else "五",
        numeral_squash=rng.uniform(0.7, 1.0),
        wind_ink=_pick(rng, BLACKS if rng.random() < 0.5 else BLUES),
        green=_pick(rng, GREENS),
        red=red,
        white=_weighted(rng, {"frame": 0.6, "blank": 0.35, "glyph": 0.05}),
        white_ink=_pick(rng, BLUES if rng.random() < 0.8 else GREENS + BLACKS),
        white_double=rng.random() < 0.35,
        red_five=_weighted(rng, {"red": 0.7, "red_dot": 0.3}),
        corner_index=rng.random() < 0.15,
        print_scale=rng.uniform(0.7, 1.0),
        seam=rng.uniform(0.0, 1.0),
    )
