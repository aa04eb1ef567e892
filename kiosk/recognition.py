"""The kiosk's view of the tile recogniser (`vision`): a frame in, the tiles in their groups out.

The model is loaded and warmed up in `start()`, never at import. When the vision package or its
model is missing, `available` is False and the capture flow goes straight to tapping the tiles
in, saying why. The reading is turned into the JSON the win page edits: each tile with its label,
box, confidence, top alternatives and a `low` flag under `LOW_CONFIDENCE`.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)
LOW_CONFIDENCE = 0.8
ROOT = Path(__file__).resolve().parents[1]


class RecogniserService:
    def __init__(self, models_dir: str = ""):
        self.models_dir = Path(models_dir) if models_dir else ROOT / "models"
        self._recogniser: Any = None
        self.error = "the recogniser is not started"
        self.warmup_ms: float | None = None

    @property
    def available(self) -> bool:
        return self._recogniser is not None

    def start(self) -> None:
        try:
            from vision import Recogniser  # type: ignore[attr-defined]
        except ImportError as e:
            self.error = f"no tile recogniser in this build ({e}); tap the tiles in"
            log.warning(self.error)
            return
        try:
            started = time.perf_counter()
            self._recogniser = Recogniser.load(self.models_dir)
            self._recogniser.read(np.full((240, 320, 3), 90, np.uint8))  # warm-up
            self.warmup_ms = (time.perf_counter() - started) * 1000
            self.error = ""
        except Exception as e:  # a missing or corrupt model must not stop the kiosk
            self._recogniser = None
            self.error = f"the tile recogniser could not load: {e}; tap the tiles in"
            log.warning(self.error)

    def stop(self) -> None:
        self._recogniser = None

    def status(self) -> dict[str, Any]:
        return {"available": self.available, "message": self.error,
                "models_dir": str(self.models_dir), "warmup_ms": self.warmup_ms}

    def read(self, image: np.ndarray) -> dict[str, Any]:
        """{hand: {concealed, win, melds, dora, ura}, problems, message} for the win page."""
        if self._recogniser is None:
            return {"recognised": False, "hand": empty_hand(), "problems": [],
                    "message": self.error}
        reading = self._recogniser.read(image)
        return {"recognised": True, "hand": reading_to_hand(reading),
                "problems": [str(p) for p in getattr(reading, "problems", ())],
                "message": ""}


def empty_hand() -> dict[str, Any]:
    return {"concealed": [], "win": None, "melds": [], "dora": [], "ura": []}


def tile_json(tile: Any) -> dict[str, Any]:
    confidence = float(getattr(tile, "confidence", 1.0))
    box = getattr(tile, "box", None)
    alternatives = [[str(label), round(float(p), 3)]
                    for label, p in getattr(tile, "alternatives", ())][:3]
    return {"label": str(tile.label), "confidence": round(confidence, 3),
            "low": confidence < LOW_CONFIDENCE or bool(getattr(tile, "changed", False)),
            "box": [round(float(v), 1) for v in box] if box is not None else None,
            "alternatives": alternatives}


def reading_to_hand(reading: Any) -> dict[str, Any]:
    """Map vision's `Reading` groups onto the win page's groups."""
    melds = []
    for meld in getattr(reading, "melds", ()):
        tiles = [tile_json(t) for t in meld.tiles]
        called = next((i for i, t in enumerate(meld.tiles) if getattr(t, "sideways", False)),
                      None)
        kind = getattr(meld, "kind", "pon")
        melds.append({"kind": getattr(kind, "value", kind), "tiles": tiles, "called": called})
    win = getattr(reading, "win", None) or getattr(reading, "winning", None)
    return {"concealed": [tile_json(t) for t in getattr(reading, "concealed", ())],
            "win": tile_json(win) if win is not None else None,
            "melds": melds,
            "dora": [tile_json(t) for t in getattr(reading, "dora", ())],
            "ura": [tile_json(t) for t in getattr(reading, "ura", ())]}
