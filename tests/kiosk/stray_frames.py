"""Hand photos with tiles in view that are not the hand (issue 36, item 5), composed from the
committed demo frames so no new photo is committed.

The hand is tests/kiosk/frames/hand_11_001.jpg (111m 77m 3s 0s 789s 555z winning on 4s, its
row running down the frame, the faces' tops to the right). Beside it:

- `WALL`: a row of 12 tiles cut from vision/sample_frames/hand_12_012.jpg (its concealed tiles
  but the red five, its chi's 4m 5m and its 9s again), turned as the hand lies, four tile widths
  to its left: more tiles than a dora row holds, so vision sets them aside;
- `far_winning_tile`: the hand's winning tile moved 7 tile widths away (set aside too);
- `DORA`: 9m 9m 9m three widths beside the hand, where the photo convention lays the dora row.

And teaching photos (issue 36, item 6), cut from tests/kiosk/frames/teach_set.jpg: `teach_row`,
its first row (1m-9m) alone, and with `extra` four more tiles (its row 5: 0m 0p 0s and a back)
laid before it, as the four books the issue saw read as tiles: 13 tiles where 9 are asked;
`teach_row_with_cards`, the row with four cards of a tile's size before it, printed 麻 雀 入 門
(a mahjong primer's cover; no tile), and `teach_row_turned`, the row photographed from across
the table (9m..1m, upside down): laid out as asked, labelled 1m..9m by place, every label wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
HAND = ROOT / "tests/kiosk/frames/hand_11_001.jpg"
SOURCE = ROOT / "vision/sample_frames/hand_12_012.jpg"
WALL = ["9m", "9m", "9m", "5s", "7s", "7s", "7s", "8s", "9s", "4m", "5m", "9s"]
DORA = ["9m", "9m", "9m"]
_ROW = slice(188, 245)  # the source's hand row
_WALL_CUTS = [(120, 207), (235, 406), (461, 520), (376, 405)]  # x ranges, left to right
_WIN_TILE = (slice(354, 393), slice(378, 421))  # the hand's 4s
TEACH_SET = ROOT / "tests/kiosk/frames/teach_set.jpg"
CARD_FONT = "noto-serif"  # fonts-noto-cjk's Noto Serif CJK, which .ci/run installs
CARD_PRINT = "麻雀入門"


def _imread(path: Path) -> np.ndarray:
    import cv2

    image = cv2.imread(str(path))
    assert image is not None, path
    return image


def _turned(strip: np.ndarray) -> np.ndarray:
    """A row laid left to right, turned to run down the frame as the hand does."""
    import cv2

    return cv2.rotate(strip, cv2.ROTATE_90_CLOCKWISE)


def compose(wall: bool = True, far_winning_tile: bool = False, dora: bool = False) -> np.ndarray:
    """The hand photo (BGR) with the chosen tiles beside it."""
    image, source = _imread(HAND), _imread(SOURCE)
    if far_winning_tile:
        tile = image[_WIN_TILE].copy()
        image[_WIN_TILE] = image[354:393, 440:483]  # the mat beside it
        image[400:439, 560:603] = tile
    if wall:
        strip = _turned(np.concatenate([source[_ROW, a:b] for a, b in _WALL_CUTS], axis=1))
        image[50:50 + strip.shape[0], 230:230 + strip.shape[1]] = strip
    if dora:
        strip = _turned(source[_ROW, 120:207])
        image[120:120 + strip.shape[0], 290:290 + strip.shape[1]] = strip
    return image


def teach_row(extra: bool = False) -> np.ndarray:
    """The teach set's first row alone on its table (the rows below replaced by bare table)."""
    image = _imread(TEACH_SET)
    bare = image[690:768]
    out = np.concatenate([image[0:205], bare, bare, bare])
    if extra:
        out[80:174, 24:254] = image[578:672, 250:480]
    return out


def card_font() -> Any:
    """The font the cards are printed in (a `vision.synth.fonts.CjkFont`), or None where it or
    Pillow (the training extra, which draws it) is not installed."""
    try:
        from vision.synth.fonts import FontsMissingError, find_cjk_fonts
    except ImportError:
        return None
    try:
        return next((f for f in find_cjk_fonts() if f.name == CARD_FONT), None)
    except FontsMissingError:
        return None


def teach_row_with_cards(font: Any) -> np.ndarray:
    """The teach row with four cream cards, each a tile's size (52 x 72 px) and printed with one
    character of `CARD_PRINT` in red-brown, laid where `teach_row(extra=True)` lays its tiles."""
    from vision.synth.fonts import glyph_mask

    image = teach_row().astype(np.float32)
    for i, char in enumerate(CARD_PRINT):
        x, y, w, h = 24 + i * 58, 84, 52, 72
        image[y:y + h, x:x + w] = (215, 235, 240)
        mask = glyph_mask(font, char, int(w * 0.8))
        gh, gw = mask.shape
        gx, gy = x + (w - gw) // 2, y + (h - gh) // 2
        area = image[gy:gy + gh, gx:gx + gw]
        m = mask[:area.shape[0], :area.shape[1], None]
        area[:] = area * (1 - m) + np.float32((30, 30, 160)) * m
    return image.clip(0, 255).astype(np.uint8)


def teach_row_turned() -> np.ndarray:
    """The teach row photographed from the other side of the table."""
    import cv2

    return cv2.rotate(teach_row(), cv2.ROTATE_180)


def write(path: Path, image: np.ndarray | None = None, **chosen: bool) -> Path:
    import cv2

    image = compose(**chosen) if image is None else image
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    return path
