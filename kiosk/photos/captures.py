"""Photos taken for a win: kept in memory until confirmed, then saved with the confirmed tiles.

Saved captures use the manifest format of the shared photo set (one JSON object per image:
`image`, `width`, `height`, `split`, `augmented`, `tiles` [{label, box}]), so a table's own photos
can later fine-tune and measure the recogniser the same way. Tiles typed in without a box are
listed under `hand` only, and `complete` says whether every tile of the hand has a box.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2

from kiosk.errors import ApiError
from kiosk.photos.camera import Still
from kiosk.photos.pending import PendingPhotos
from kiosk.photos.teach_check import Evidence
from scorer.limits import brief
from scorer.tiles import MODEL_CLASSES

log = logging.getLogger(__name__)
KEEP_PENDING = 16
PENDING_BYTES = 256 * 1024 * 1024  # decoded pixels + JPEGs kept for captures not yet confirmed
SPLIT = "kiosk"
RECHECK_WINS = 5  # confirmed wins read again before a teaching is kept (about 0.1 s each)


@dataclass(frozen=True, slots=True)
class Capture:
    id: str
    still: Still
    reading: dict[str, Any]
    source: str  # camera or upload
    at: float


#: called with each confirmed capture and its confirmed tiles [{label, box}]
OnConfirm = Callable[[Capture, list[dict[str, Any]]], object]


class CaptureStore:
    def __init__(self, folder: Path, save: bool = True, on_confirm: OnConfirm | None = None):
        self.folder = folder
        self.save = save
        self.on_confirm = on_confirm  # the recogniser learns the table's tiles from them
        self._pending: PendingPhotos[Capture] = PendingPhotos(KEEP_PENDING, PENDING_BYTES)
        self._manifest_lock = threading.Lock()

    @property
    def manifest(self) -> Path:
        return self.folder / "manifest.jsonl"

    def add(self, still: Still, reading: dict[str, Any], source: str) -> Capture:
        return self._pending.add(Capture(time.strftime("%Y%m%d-%H%M%S-") +
                                         secrets.token_hex(3), still, reading, source, time.time()))

    def pending_bytes(self) -> int:
        return self._pending.nbytes()

    def get(self, capture_id: str) -> Capture:
        capture = self._pending.get(capture_id)
        if capture is None:
            raise ApiError(404, f"no capture {capture_id!r} (it may have expired; capture again)",
                           code="capture_gone")
        return capture

    def check(self, spec: Any) -> tuple[Capture, list[dict[str, Any]]] | None:
        """Validate a win request's `capture` part before anything is applied."""
        if spec is None:
            return None
        capture = self.get(str(spec.get("id", "")))
        tiles = spec.get("tiles", [])
        if not isinstance(tiles, list):
            raise ApiError(400, "capture.tiles: expected a list of {label, box}",
                           code="field_list", words={"field": "capture.tiles"})
        out = []
        for i, tile in enumerate(tiles):
            label = tile.get("label") if isinstance(tile, dict) else None
            box = tile.get("box") if isinstance(tile, dict) else None
            if label not in MODEL_CLASSES:
                raise ApiError(400, f"capture.tiles[{i}].label: {label!r} is not a tile label",
                               code="tile_label", words={"field": f"capture.tiles[{i}].label",
                                                         "got": brief(label)})
            if (not isinstance(box, list) or len(box) != 4
                    or not all(isinstance(v, int | float) for v in box)):
                raise ApiError(400, f"capture.tiles[{i}].box: expected [x1, y1, x2, y2]",
                               code="capture_box", words={"field": f"capture.tiles[{i}].box"})
            x1, y1, x2, y2 = box
            if not (0 <= x1 < x2 <= capture.still.width and 0 <= y1 < y2 <= capture.still.height):
                raise ApiError(400, f"capture.tiles[{i}].box: {box} is outside the "
                               f"{capture.still.width}x{capture.still.height} photo",
                               code="capture_box_outside", words={
                                   "field": f"capture.tiles[{i}].box",
                                   "width": capture.still.width, "height": capture.still.height})
            out.append({"label": label, "box": [round(float(v), 1) for v in box]})
        return capture, out

    def last_confirmed(self, n: int = RECHECK_WINS) -> list[Evidence]:
        """The newest `n` confirmed win photos kept (their tiles as applied), to read again
        before a teaching is kept (`kiosk.photos.teach_check`); none where saving is off."""
        if not self.manifest.exists():
            return []
        with self._manifest_lock:
            lines = self.manifest.read_text(encoding="utf-8").splitlines()
        out: list[Evidence] = []
        for line in reversed(lines):
            if len(out) == n:
                break
            try:
                entry = json.loads(line)
                frame = cv2.imread(str(self.folder / entry["image"]))
                tiles = [t for t in entry["tiles"] if t["label"] in MODEL_CLASSES]
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by a crash: the others still count
            if frame is None or not tiles:
                continue
            stem = Path(entry["image"]).stem  # YYYYmmdd-HHMMSS-hex, as `add` names it
            when = f"{stem[:4]}-{stem[4:6]}-{stem[6:8]} {stem[9:11]}:{stem[11:13]}"
            out.append(Evidence(frame, tuple(tuple(map(float, t["box"])) for t in tiles),
                                tuple(t["label"] for t in tiles), "teach.worse_win",
                                {"when": when}))
        return out

    def confirm(self, capture: Capture, tiles: list[dict[str, Any]], hand: str,
                complete: bool) -> Path | None:
        """Keep the photo and its confirmed tiles (unless saving is off), and hand them to
        `on_confirm`."""
        self._pending.pop(capture.id)
        if self.on_confirm is not None and tiles:
            try:
                self.on_confirm(capture, tiles)
            except Exception:  # the win is applied already; learning from it is a bonus
                log.exception("on_confirm failed for capture %s", capture.id)
        if not self.save:
            return None
        images = self.folder / "images"
        images.mkdir(parents=True, exist_ok=True)
        path = images / f"{capture.id}.jpg"
        path.write_bytes(capture.still.jpeg)
        entry = {"image": f"images/{path.name}", "width": capture.still.width,
                 "height": capture.still.height, "split": SPLIT, "augmented": False,
                 "tiles": tiles, "hand": hand, "complete": complete, "source": capture.source}
        with self._manifest_lock, self.manifest.open("a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")
        return path
