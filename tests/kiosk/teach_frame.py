"""Render the teach-tiles test frame: a tile set laid out in rows, photographed from above.

`vision.synth.scene.render` lays out a winning hand (one row, melds, a dora row); teaching
needs rows of any tiles, so this lays them out itself and paints them with the synth renderer's
own pieces (tile bodies, table, light, noise, JPEG). Re-make the committed frame with

    python -m tests.kiosk.teach_frame          # needs ../shared/tile-art (the CC0 tile art)

which writes `tests/kiosk/frames/teach_set.jpg` (and its truth, `teach_set.json`: each tile's
label and box in reading order).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.synth import scene
from vision.synth.art import TileArt, load_art
from vision.teach import expected_rows

#: the order the kiosk asks for (kiosk.photos.teaching.DEFAULT_ORDER), written out here so the frame
#: is what the kiosk asked for when it was made
ORDER = "123456789m/123456789p/123456789s/1234567z/0m0p0s back"
SEED = 16
SIZE = (1024, 768)
FRAMES = Path(__file__).parent / "frames"
NAME = "teach_set"
ROW_GAP = 0.6  # tile widths between a row's near side and the next row's faces
TILE_GAP = 0.04


def lay_rows(rows: Sequence[Sequence[str]]) -> list[scene.Placed]:
    """The rows on the table plane, top to bottom, each left to right, face up."""
    out = []
    for r, row in enumerate(rows):
        y = r * (scene.FACE_H + 0.45 + ROW_GAP)  # 0.45: the widest near side _paint_flat draws
        for i, label in enumerate(row):
            out.append(scene.Placed(label, i * (1 + TILE_GAP), y, False, label == "back", "row"))
    return out


def from_above(cw: int, ch: int, w: int, h: int, rng: random.Random) -> np.ndarray:
    """Canvas -> image: a camera straight above the set, turned a few degrees, the set filling
    most of the frame."""
    a = math.radians(rng.gauss(0, 3))
    fill = rng.uniform(0.82, 0.9)
    ext_w = abs(cw * math.cos(a)) + abs(ch * math.sin(a))
    ext_h = abs(cw * math.sin(a)) + abs(ch * math.cos(a))
    s = min(w * fill / ext_w, h * fill / ext_h)
    src = np.float32([[0, 0], [cw, 0], [cw, ch], [0, ch]])
    rot = np.float32([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    dst = (src - [cw / 2, ch / 2]) @ rot.T * s + [w / 2, h / 2]
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def render_rows(
    rows: Sequence[Sequence[str]], art: TileArt, rng: random.Random, size: tuple[int, int] = SIZE
) -> tuple[np.ndarray, list[dict[str, object]]]:
    """The BGR frame and its tiles [{label, box}] in reading order (as `scene.render` paints a
    hand, with `lay_rows` and `from_above` for its layout and camera)."""
    w, h = size
    nrng = np.random.default_rng(rng.getrandbits(32))
    tiles = lay_rows(rows)
    canvas, (x0, y0), band = scene._paint_flat(tiles, art, rng)  # noqa: SLF001
    ch, cw = canvas.shape[:2]
    homography = from_above(cw, ch, w, h, rng)
    img = scene.table_background(h, w, rng, nrng)
    warped = cv2.warpPerspective(canvas, homography, (w, h), flags=cv2.INTER_LINEAR)
    alpha = warped[..., 3:] / 255.0
    shadow = cv2.GaussianBlur(alpha, (0, 0), 4)
    shift = np.float32([[1, 0, rng.uniform(-4, 4)], [0, 1, rng.uniform(0, 6)]])
    img = img * (1 - 0.45 * cv2.warpAffine(shadow, shift, (w, h))[..., None])
    img = img * (1 - alpha) + warped[..., :3] * alpha
    truth = []
    for t in tiles:
        fw, fh = t.size
        body = np.float32([[t.x, t.y], [t.x + fw, t.y], [t.x + fw, t.y + fh + band],
                           [t.x, t.y + fh + band]])
        pts = ((body - [x0, y0]) * scene.PX).reshape(-1, 1, 2).astype(np.float32)
        q = cv2.perspectiveTransform(pts, homography).reshape(-1, 2)
        box = [round(float(v), 1) for v in (max(0, q[:, 0].min()), max(0, q[:, 1].min()),
                                            min(w, q[:, 0].max()), min(h, q[:, 1].max()))]
        truth.append({"label": "back" if t.face_down else t.label, "box": box})
    return scene.photo_finish(img, rng, nrng), truth


def main() -> None:
    frame, truth = render_rows(expected_rows(ORDER), load_art(), random.Random(SEED))
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    FRAMES.mkdir(exist_ok=True)
    (FRAMES / f"{NAME}.jpg").write_bytes(buf.tobytes())
    (FRAMES / f"{NAME}.json").write_text(
        json.dumps({"order": ORDER, "seed": SEED, "size": list(SIZE), "tiles": truth}) + "\n")
    print(f"{FRAMES / NAME}.jpg: {len(buf) // 1024} KB, {len(truth)} tiles")


if __name__ == "__main__":
    main()
