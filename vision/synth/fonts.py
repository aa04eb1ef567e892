"""CJK fonts for the procedural tile faces: find the installed ones, draw one glyph as a mask.

Training only: Pillow is in the ``train`` extra and the kiosk never imports this module. The
fonts come from Debian packages (`FONT_PACKAGES`); brush and Mincho styles stand in for the
printed characters of real sets. Which fonts a machine has decides which styles it can draw, so
two machines with different fonts draw different faces for the same seed.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont

#: the Debian packages whose fonts the faces use (`apt-get install -y ...`)
FONT_PACKAGES = (
    "fonts-noto-cjk",
    "fonts-ipaexfont",
    "fonts-arphic-ukai",
    "fonts-kouzan-mouhitsu",
    "fonts-aoyagi-kouzan-t",
)

#: font file name -> short name, in the order styles pick from. Kouzan's Sousyo (grass script)
#: is left out on purpose: no tile set prints its characters that cursive.
KNOWN_FONTS = {
    "NotoSerifCJK-Regular.ttc": "noto-serif",
    "NotoSerifCJK-Bold.ttc": "noto-serif-bold",
    "NotoSansCJK-Bold.ttc": "noto-sans-bold",
    "ipaexm.ttf": "ipaex-mincho",
    "ipaexg.ttf": "ipaex-gothic",
    "ukai.ttc": "arphic-ukai",
    "kouzan-mouhitsu.ttf": "kouzan-brush",
    "kouzan-mouhitsu-gyosho.ttf": "kouzan-gyosho",
    "AoyagiKouzanT.ttf": "aoyagi-kouzan",
}
#: brush-written fonts: they are heavy already, so styles thicken them less
BRUSH_FONTS = frozenset({"arphic-ukai", "kouzan-brush", "kouzan-gyosho", "aoyagi-kouzan"})
FONT_DIRS = (
    Path("/usr/share/fonts"),
    Path("/usr/local/share/fonts"),
    Path.home() / ".local" / "share" / "fonts",
)
#: every character a face prints (both ways of writing five)
TILE_GLYPHS = "一二三四五伍六七八九萬東南西北白發中"
_ABSENT = "\U0010fffd"  # a private-use code point no font here maps: draws the .notdef glyph


class FontsMissingError(RuntimeError):
    """No CJK font that can draw the tile faces is installed."""


@dataclass(frozen=True)
class CjkFont:
    """One face of an installed font file (``index``: its face inside a .ttc collection)."""

    name: str
    path: str
    index: int = 0


def missing_fonts_message(dirs: Iterable[Path]) -> str:
    where = ", ".join(str(d) for d in dirs)
    return (
        f"no CJK font for the procedural tile faces in {where}; install them with "
        f"`apt-get install -y {' '.join(FONT_PACKAGES)}` (any one of them is enough)"
    )


def find_cjk_fonts(dirs: Sequence[Path] | None = None) -> tuple[CjkFont, ...]:
    """The known CJK fonts under ``dirs`` (default `FONT_DIRS`) that draw every tile character
    (or all but a few, which a style then takes from another font), in `KNOWN_FONTS` order.

    With the default folders and none of the known files there, any font that
    ``fc-list :lang=ja`` lists and that draws all of `TILE_GLYPHS` is taken instead. Raises
    `FontsMissingError` naming the packages to install when nothing usable is found.
    """
    folders = list(dirs) if dirs is not None else list(FONT_DIRS)
    found: dict[str, Path] = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            name = KNOWN_FONTS.get(path.name)
            if name and name not in found and path.is_file():
                found[name] = path.resolve()
    fonts = [
        CjkFont(name, str(found[name]), _face_index(found[name]))
        for name in KNOWN_FONTS.values()
        if name in found
    ]
    if not fonts and dirs is None:
        fonts = [CjkFont(Path(p).stem, p, _face_index(Path(p))) for p in _fc_list_japanese()]
    fonts = [f for f in fonts if sum(has_glyph(f, ch) for ch in TILE_GLYPHS) >= 12]
    if not fonts:
        raise FontsMissingError(missing_fonts_message(folders))
    return tuple(fonts)


def complete_fonts(fonts: Iterable[CjkFont]) -> tuple[CjkFont, ...]:
    """The fonts that draw every character of `TILE_GLYPHS` (a style's fallback)."""
    return tuple(f for f in fonts if all(has_glyph(f, ch) for ch in TILE_GLYPHS))


def _fc_list_japanese() -> list[str]:
    try:
        out = subprocess.run(
            ["fc-list", ":lang=ja", "file"], capture_output=True, text=True, timeout=20, check=False
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    paths = {line.split(":")[0].strip() for line in out.splitlines() if line.strip()}
    return sorted(p for p in paths if p.lower().endswith((".ttf", ".otf", ".ttc")))


def _face_index(path: Path) -> int:
    """The Japanese face of a collection (then the traditional Chinese one, then the first)."""
    if path.suffix.lower() != ".ttc":
        return 0
    from PIL import ImageFont

    names = []
    for i in range(16):
        try:
            names.append(ImageFont.truetype(str(path), 16, index=i).getname()[0] or "")
        except OSError:
            break
    for tag in (" JP", " TW"):
        for i, name in enumerate(names):
            if name.endswith(tag):
                return i
    return 0


@lru_cache(maxsize=64)
def _truetype(path: str, index: int, px: int) -> FreeTypeFont:
    from PIL import ImageFont

    return ImageFont.truetype(path, px, index=index)


@lru_cache(maxsize=512)
def has_glyph(font: CjkFont, ch: str) -> bool:
    """Whether ``font`` draws ``ch`` (some map a code point to an empty or .notdef glyph)."""
    f = _truetype(font.path, font.index, 48)
    mask = f.getmask(ch)
    if mask.getbbox() is None:
        return False
    return bytes(mask) != bytes(f.getmask(_ABSENT))


@lru_cache(maxsize=1024)
def _glyph(font: CjkFont, ch: str, px: int, stroke: int) -> np.ndarray:
    from PIL import Image, ImageDraw

    f = _truetype(font.path, font.index, px)
    left, top, right, bottom = (int(v) for v in f.getbbox(ch, stroke_width=stroke))
    img = Image.new("L", (right - left + 4, bottom - top + 4), 0)
    ImageDraw.Draw(img).text(
        (2 - left, 2 - top), ch, font=f, fill=255, stroke_width=stroke, stroke_fill=255
    )
    a = np.asarray(img, np.float32) / 255.0
    ys, xs = np.nonzero(a > 0.02)
    if not len(ys):
        raise ValueError(f"font {font.name} draws nothing for {ch!r}")
    a = a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    a.setflags(write=False)
    return a


def glyph_mask(font: CjkFont, ch: str, px: int, weight: float = 0.0) -> np.ndarray:
    """Coverage (float 0..1, read-only) of ``ch`` drawn at ``px`` pixels per em, cropped to its
    ink; ``weight`` thickens the strokes by that share of the em on each side."""
    return _glyph(font, ch, px, int(round(weight * px)))
