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

from scorer.hand import Meld, MeldKind
from scorer.tiles import Tile, TileError
from scorer.waits import winning_kinds

log = logging.getLogger(__name__)
LOW_CONFIDENCE = 0.8
ROOT = Path(__file__).resolve().parents[1]


class RecogniserService:
    def __init__(self, models_dir: str = ""):
        self.models_dir = Path(models_dir) if models_dir else ROOT / "models"
        self._recogniser: Any = None
        self.error = "the tile recogniser is not running; tap the tiles in"
        self.warmup_ms: float | None = None
        self.kernels = ""  # "optimised", or "reference" where this CPU's fused ones differ

    @property
    def available(self) -> bool:
        return self._recogniser is not None

    def start(self) -> None:
        try:
            from vision.config import VisionConfig
            from vision.kernel_check import self_check
            from vision.recogniser import Recogniser
        except ImportError as e:
            self.error = f"no tile recogniser in this build ({e}); tap the tiles in"
            log.warning(self.error)
            return
        try:
            started = time.perf_counter()
            recogniser = Recogniser.load(self.models_dir)
            check = self_check(recogniser)
            self.kernels = "optimised"
            if not check.agrees:  # read slowly but right rather than fast and wrong
                log.warning(
                    "this CPU's optimised onnxruntime kernels do not compute what the models "
                    "say (tile heat off by %.2f, class probability by %.2f on %s): using the "
                    "reference kernels; run python -m vision check-kernels",
                    check.finder_diff, check.classifier_diff, check.frame,
                )
                recogniser = Recogniser.load(self.models_dir, VisionConfig(reference_kernels=True))
                self.kernels = "reference"
            recogniser.read(np.full((240, 320, 3), 90, np.uint8))  # warm-up
            self.warmup_ms = (time.perf_counter() - started) * 1000
            self._recogniser = recogniser
            self.error = ""
        except Exception as e:  # a missing or corrupt model must not stop the kiosk
            self._recogniser = None
            self.error = f"the tile recogniser could not load: {e}; tap the tiles in"
            log.warning(self.error)

    def stop(self) -> None:
        self._recogniser = None

    def status(self) -> dict[str, Any]:
        return {"available": self.available, "message": self.error,
                "models_dir": str(self.models_dir), "warmup_ms": self.warmup_ms,
                "kernels": self.kernels}

    def read(self, image: np.ndarray) -> dict[str, Any]:
        """{recognised, hand: {concealed, win, melds, dora, ura}, problems, message}."""
        if self._recogniser is None:
            return {"recognised": False, "hand": empty_hand(), "problems": [],
                    "message": self.error}
        reading = self._recogniser.read(image, complete=is_complete)
        problems = [str(p) for p in reading.problems]
        unplaced = [reading.tiles[i].label for i in reading.grouping.unassigned]
        if unplaced:
            problems.append(f"not placed in the hand: {' '.join(unplaced)}")
        return {"recognised": True, "hand": reading_to_hand(reading), "problems": problems,
                "message": "" if reading.tiles else "no tiles found in the photo"}


def empty_hand() -> dict[str, Any]:
    return {"concealed": [], "win": None, "melds": [], "dora": [], "ura": []}


def tile_json(tile: Any) -> dict[str, Any]:
    confidence = float(tile.confidence)
    return {"label": tile.label, "confidence": round(confidence, 3),
            "low": confidence < LOW_CONFIDENCE or tile.changed_by_decoder,
            "box": [round(float(v), 1) for v in tile.box],
            "alternatives": [[label, round(float(p), 3)] for label, p in tile.alternatives][:3],
            "sideways": tile.sideways, "face_down": tile.face_down}


def reading_to_hand(reading: Any) -> dict[str, Any]:
    """Map vision's `Reading` (tiles + grouping by index) onto the win page's groups."""
    g = reading.grouping
    tiles = reading.tiles
    melds = []
    for meld in g.melds:
        called = meld.tiles.index(meld.called) if meld.called in meld.tiles else None
        melds.append({"kind": meld.kind.value, "tiles": [tile_json(tiles[i]) for i in meld.tiles],
                      "called": called})
    return {"concealed": [tile_json(tiles[i]) for i in g.concealed],
            "win": tile_json(tiles[g.winning]) if g.winning is not None else None,
            "melds": melds, "dora": [tile_json(tiles[i]) for i in g.dora], "ura": []}


def is_complete(concealed: list[str], winning: str | None,
                melds: list[tuple[str, list[str]]]) -> bool:
    """The decoder's winning-shape check (vision may not import the rules core; we may)."""
    try:
        hand = [Tile.parse(label) for label in concealed]
        called = []
        for kind, labels in melds:
            shown = [label for label in labels if label != "back"]
            if not shown:
                return False
            full = [Tile.parse(label if label != "back" else shown[0]) for label in labels]
            called.append(Meld(MeldKind(kind), tuple(full)))
        if winning is None:
            return False
        win = Tile.parse(winning)
    except (TileError, ValueError):
        return False
    return win.kind in set(winning_kinds(hand, called))
