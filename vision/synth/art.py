"""The art scenes paint tiles with: the CC0 tile art, or procedural faces in a random style.

The CC0 art (``tile-art/fluffystuff/Export/Regular``) has one transparent glyph PNG per tile, a
``Front`` body and a ``Back``; we paint our own body so the front and back colours can vary like
real sets (ivory or white fronts; blue, green, yellow, orange, pink or black backs).
`ProceduralArt` draws every face itself (`vision.synth.faces`) in one `FaceStyle`, one set per
scene as on a real table; `ArtSource` picks which art each scene of a run gets.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import cv2
import numpy as np

from scorer.tiles import MODEL_CLASSES

if TYPE_CHECKING:
    from vision.synth.face_style import FaceStyle
    from vision.synth.fonts import CjkFont

_HONOURS = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")
_SUITS = {"m": "Man", "p": "Pin", "s": "Sou"}

def art_name(label: str) -> str:
    """The art file stem for a model label (``0p`` is the red five ``Pin5-Dora``)."""
    if label == "back":
        return "Back"
    num, suit = label[0], label[1]
    if suit == "z":
        return _HONOURS[int(num) - 1]
    if num == "0":
        return f"{_SUITS[suit]}5-Dora"
    return f"{_SUITS[suit]}{num}"


def default_art_dir() -> Path:
    """``$RIICHI_SHARED/tile-art/...`` or the ``shared`` folder beside the repository."""
    env = os.environ.get("RIICHI_SHARED")
    shared = Path(env) if env else Path(__file__).resolve().parents[2] / ".." / "shared"
    return shared / "tile-art" / "fluffystuff" / "Export" / "Regular"


class Art(Protocol):
    """What `vision.synth.scene` paints tiles with."""

    @property
    def seam(self) -> float:
        """How dark the line between neighbouring tiles is (0: none, 1: dark)."""
        ...

    def body_colours(self, front: np.ndarray, back: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The scene's tile front and back colours (the scene's random pick, or the set's own)."""
        ...

    def face(self, label: str, front: tuple[int, int, int], width: int) -> np.ndarray: ...

    def back(self, colour: tuple[int, int, int], width: int) -> np.ndarray: ...


@dataclass(frozen=True)
class TileArt:
    """Glyphs as premultiplied (BGR float, alpha) pairs at a fixed working size."""

    glyphs: dict[str, tuple[np.ndarray, np.ndarray]]
    size: tuple[int, int]  # (width, height) of an upright face
    seam: float = 1.0  # the dark line the held-out renders were made with

    @staticmethod
    def body_colours(front: np.ndarray, back: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The scene's random front and back colours, unchanged."""
        return front, back

    def face(self, label: str, front: tuple[int, int, int], width: int) -> np.ndarray:
        """An upright face-up tile face (BGR uint8), ``width`` px wide, height 4/3 of it."""
        height = int(round(width * 4 / 3))
        body = np.empty((height, width, 3), np.float32)
        body[:] = front
        colour, alpha = self.glyphs[label]
        # glyph inset like the printed area of a real tile
        gw, gh = int(width * 0.86), int(height * 0.88)
        c = cv2.resize(colour, (gw, gh), interpolation=cv2.INTER_AREA)
        a = cv2.resize(alpha, (gw, gh), interpolation=cv2.INTER_AREA)[..., None]
        x0, y0 = (width - gw) // 2, (height - gh) // 2
        roi = body[y0 : y0 + gh, x0 : x0 + gw]
        body[y0 : y0 + gh, x0 : x0 + gw] = c + roi * (1 - a)
        return np.clip(body, 0, 255).astype(np.uint8)

    @staticmethod
    def back(colour: tuple[int, int, int], width: int) -> np.ndarray:
        """A face-down tile seen from above: the back colour with a soft highlight."""
        height = int(round(width * 4 / 3))
        img = np.empty((height, width, 3), np.float32)
        img[:] = colour
        yy = np.linspace(1.08, 0.92, height, dtype=np.float32)[:, None, None]
        return np.clip(img * yy, 0, 255).astype(np.uint8)


@lru_cache(maxsize=2)
def load_art(art_dir: str | None = None, width: int = 120) -> TileArt:
    """Read every glyph once (cached); raises FileNotFoundError naming the missing file."""
    folder = Path(art_dir) if art_dir else default_art_dir()
    height = int(round(width * 4 / 3))
    glyphs = {}
    for label in MODEL_CLASSES:
        if label == "back":
            continue
        path = folder / f"{art_name(label)}.png"
        raw = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if raw is None or raw.shape[2] != 4:
            raise FileNotFoundError(f"tile art {path} is missing or has no alpha channel")
        raw = cv2.resize(raw, (width, height), interpolation=cv2.INTER_AREA).astype(np.float32)
        alpha = raw[..., 3] / 255.0
        glyphs[label] = (raw[..., :3] * alpha[..., None], alpha)
    return TileArt(glyphs=glyphs, size=(width, height))


@lru_cache(maxsize=4096)
def _procedural_face(label: str, style: FaceStyle, width: int) -> np.ndarray:
    from vision.synth.faces import render_face

    face = render_face(label, style, (width, int(round(width * 4 / 3))))
    face.setflags(write=False)
    return face


@dataclass(frozen=True)
class ProceduralArt:
    """Faces drawn by `vision.synth.faces` in one style: every tile of a scene from one set,
    its front and back colours the style's (so the tiles' sides match their faces)."""

    style: FaceStyle

    @classmethod
    def random(cls, rng: random.Random, fonts: Sequence[CjkFont] | None = None) -> ProceduralArt:
        """A random set (`random_style`; ``fonts``: the installed CJK fonts, found if None)."""
        from vision.synth.face_style import random_style

        return cls(random_style(rng, fonts))

    @property
    def seam(self) -> float:
        """The set's own (`FaceStyle.seam`): many real sets show no line at all."""
        return self.style.seam

    def body_colours(self, front: np.ndarray, back: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.array(self.style.background, np.float32), np.array(self.style.back, np.float32)

    def face(self, label: str, front: tuple[int, int, int], width: int) -> np.ndarray:
        """An upright face (BGR uint8, ``width`` px wide, height 4/3 of it) on the style's front
        (``front`` is the colour `body_colours` gave)."""
        return _procedural_face(label, self.style, width)

    def back(self, colour: tuple[int, int, int], width: int) -> np.ndarray:
        """A face-down tile in the style's back colour and texture."""
        return _procedural_face("back", self.style, width)


#: ``--faces`` of the renderers: the share of scenes painted with procedural faces
FACE_SOURCES = {"cc0": 0.0, "procedural": 1.0, "mixed": 0.5}


def drawn_for(kind: str, seed: int, index: int, share: float) -> bool:
    """Whether scene ``index`` of a run with ``seed`` is drawn with ``kind`` (printed
    clutter, standing tiles) in a run that wants ``share`` of its scenes so: a draw of its own,
    apart from the scene's random stream, so that the other scenes render as without it."""
    return share > 0 and random.Random(f"{kind}:{seed}:{index}").random() < share


@dataclass
class ArtSource:
    """Which art each scene of a run is painted with: a ``procedural_share`` of the scenes (drawn
    from the run's seed and the scene's index, never from the scene's own random stream, so a
    CC0 scene renders the same at any share) get a random procedural set, the rest the CC0 art."""

    procedural_share: float = 0.0
    art_dir: str | None = None
    _fonts: tuple[CjkFont, ...] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not 0.0 <= self.procedural_share <= 1.0:
            raise ValueError(f"procedural share {self.procedural_share} is not within 0..1")

    def for_scene(self, seed: int, index: int) -> Art:
        if self.procedural_share <= 0:
            return load_art(self.art_dir)
        pick = random.Random(f"faces:{seed}:{index}")  # as `drawn_for`, then the set's look
        if pick.random() >= self.procedural_share:
            return load_art(self.art_dir)
        if self._fonts is None:
            from vision.synth.fonts import find_cjk_fonts

            self._fonts = find_cjk_fonts()
        return ProceduralArt.random(pick, self._fonts)
