"""The kiosk's view of the tile recogniser (`vision`): a frame in, the tiles in their groups out.

The model is loaded and warmed up in `start()`, never at import. When the vision package or its
model is missing, `available` is False and the capture flow goes straight to tapping the tiles
in, saying why. The reading is turned into the JSON the win page edits: each tile with its label,
box, confidence, top alternatives and a `low` flag on the doubtful ones only, and the problems in
a player's words (`kiosk.words.reading_words`); vision's own diagnostics go to the log.

The service also keeps the table's taught tiles (`vision.taught`, issue 16): read from
`taught_dir` at start (a file it cannot use is reported in `status()` and the kiosk reads
untaught), added to by `teach` (teaching photos the player confirmed) and `learn_capture` (each
confirmed win photo, once a set is taught), removed by `forget`. Each of them builds a new
recogniser and swaps one reference, so a request on another thread reads with the old or the new
one, never half of each; the changes themselves run one at a time.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from kiosk.photos.extra_tiles import without_extra
from kiosk.photos.teach_check import Evidence, TeachingWorse, first_worse
from kiosk.words import i18n
from kiosk.words.reading_words import (
    LOW_CONFIDENCE,
    SET_ASIDE_KEYS,
    blamed_tiles,
    doubtful,
    problems_of,
)
from scorer.hand import Meld, MeldKind
from scorer.tiles import Tile, TileError
from scorer.waits import winning_kinds

log = logging.getLogger(__name__)
__all__ = ["LOW_CONFIDENCE", "RecogniserService", "TeachingWorse", "is_complete",
           "reading_to_hand"]
ROOT = Path(__file__).resolve().parents[2]
#: exemplars kept per taught label, the newest (a tile is 4: its crop turned 0-3 quarters), so a
#: table that confirms wins for years keeps a set that stays small and quick to compare with
MAX_EXEMPLARS_PER_KIND = 64


class TeachingUnavailable(RuntimeError):
    """The recogniser is not running (or its classifier cannot be taught): nothing to teach."""


class RecogniserService:
    def __init__(self, models_dir: str = "", taught_dir: Path | None = None):
        self.models_dir = Path(models_dir) if models_dir else ROOT / "models"
        self.taught_dir = taught_dir  # where the taught set is kept (None: in memory only)
        self._recogniser: Any = None  # what reads: the untaught one, or it with the taught set
        self._plain: Any = None  # the untaught recogniser
        self.taught_error = ""  # why a saved taught set is not used
        self._changing = threading.Lock()  # teach / learn / forget, one at a time
        self._learner: ThreadPoolExecutor | None = None
        self._learner_lock = threading.Lock()
        self._learning: Future[Any] | None = None
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
            self._plain = recogniser
            self._recogniser = self._with_saved_taught(recogniser)
            self.error = ""
        except Exception as e:  # a missing or corrupt model must not stop the kiosk
            self._recogniser = None
            self.error = f"the tile recogniser could not load: {e}; tap the tiles in"
            log.warning(self.error)

    def stop(self) -> None:
        with self._learner_lock:
            learner, self._learner = self._learner, None
        if learner is not None:
            learner.shutdown(wait=True, cancel_futures=True)
        self._recogniser = None
        self._plain = None

    def status(self) -> dict[str, Any]:
        return {"available": self.available, "message": self.error,
                "models_dir": str(self.models_dir), "warmup_ms": self.warmup_ms,
                "kernels": self.kernels, "taught": self.taught is not None,
                "taught_error": self.taught_error}

    def read(self, image: np.ndarray, lang: str = "en",
             red_fives: tuple[int, int, int] = (1, 1, 1)) -> dict[str, Any]:
        """{recognised, taught, hand: {concealed, win, melds, dora, ura, unplaced}, problems
        (in `lang`, a player's words), set_aside (the one of them about the tiles set aside,
        which asks for no check: "" when none), message}. `red_fives`: the red fives the
        table's set holds in m, p, s (the game's `Ruleset.red_fives`): the decoder allows that
        many of a suit (`VisionConfig.red_fives`), and so do the problems."""
        recogniser = self._recogniser  # one reference for the whole reading (see the module doc)
        if recogniser is None:
            return {"recognised": False, "taught": False, "hand": empty_hand(), "problems": [],
                    "set_aside": "", "message": self.error}
        if recogniser.config.red_fives != red_fives:  # this read only: sessions are shared
            config = dataclasses.replace(recogniser.config, red_fives=red_fives)
            recogniser = dataclasses.replace(recogniser, config=config)
        reading = without_extra(recogniser.read(image, complete=is_complete), is_complete)
        if reading.problems:
            from vision.words import summary

            log.info("reading: %s; vision noticed: %s", summary(reading),
                     "; ".join(map(str, reading.problems)))
        problems = problems_of(reading, is_complete, red_fives)
        aside = [p.words(lang) for p in problems if p.key in SET_ASIDE_KEYS]
        return {"recognised": True, "taught": recogniser.taught is not None,
                "hand": reading_to_hand(reading, blamed_tiles(problems)),
                "problems": [p.words(lang) for p in problems],
                "set_aside": aside[0] if aside else "",
                "message": "" if reading.tiles else i18n.t("reading.none", lang)}

    # --- the table's taught tiles (vision.taught) -----------------------------------------

    @property
    def taught(self) -> Any:
        """The taught set the reader uses now (a `vision.taught.TaughtSet`), or None."""
        recogniser = self._recogniser
        return recogniser.taught if recogniser is not None else None

    @property
    def taught_file(self) -> Path | None:
        from vision.taught import TAUGHT_FILE

        return self.taught_dir / TAUGHT_FILE if self.taught_dir is not None else None

    def _with_saved_taught(self, plain: Any) -> Any:
        """`plain` reading with the saved taught set; `plain` itself when there is none or it
        cannot be used (`taught_error` says why: the page asks to teach the tiles again)."""
        from vision.taught import TaughtSet, TaughtSetError

        self.taught_error = ""
        path = self.taught_file
        if path is None or not path.exists():
            return plain
        try:
            return plain.with_taught(TaughtSet.load(path, plain.classifier_sha256))
        except (TaughtSetError, ValueError) as e:
            self.taught_error = str(e)
            log.warning("the taught tiles are not used, the kiosk reads untaught: %s", e)
            return plain

    def _untaught(self) -> Any:
        plain = self._plain
        if plain is None:
            raise TeachingUnavailable(self.error or "the tile recogniser is not running")
        return plain

    def lay_out(self, image: np.ndarray, rows: Sequence[Sequence[str]]) -> Any:
        """A teaching photo's tiles in reading order, labelled from the expected `rows`
        (`vision.teach.TeachingLayout`); TeachingUnavailable without a recogniser."""
        from vision.teach import lay_out

        return lay_out(self._untaught(), image, rows)

    def teach(self, shots: Sequence[tuple[np.ndarray, Sequence[Any], Sequence[str | None]]],
              replace: bool = False, evidence: Sequence[Evidence] = ()) -> Any:
        """Teach from confirmed photos, each (frame, boxes, labels; None: not taught from),
        added to what is taught already (`replace`: instead of it); save it, read with it from
        the next capture on, and return the `TaughtSet`. ValueError when no tile is labelled,
        TeachingUnavailable without a recogniser (or a classifier that cannot be taught),
        TeachingWorse (nothing kept) when a photo of `evidence` (the teaching photos, the
        table's last confirmed wins) reads worse with the new set than with the reader now."""
        from vision.teach import Shot, teach

        made = [Shot(frame, tuple(tuple(map(float, b)) for b in boxes), tuple(labels))
                for frame, boxes, labels in shots]
        with self._changing:
            plain = self._untaught()
            try:
                new = teach(plain, made)
            except ValueError as e:
                if "features" in str(e):  # a classifier without the features output
                    raise TeachingUnavailable(str(e)) from None
                raise
            before = None if replace else self.taught
            taught = newest_exemplars(before.merged(new) if before is not None else new,
                                      MAX_EXEMPLARS_PER_KIND)
            worse = first_worse(self._recogniser or plain, plain.with_taught(taught), evidence)
            if worse is not None:
                raise TeachingWorse(worse)
            return self._use(plain, taught)

    def _use(self, plain: Any, taught: Any) -> Any:
        """Save `taught` (trimmed to `MAX_EXEMPLARS_PER_KIND`) and swap the reader to it."""
        taught = newest_exemplars(taught, MAX_EXEMPLARS_PER_KIND)
        recogniser = plain.with_taught(taught)
        if self.taught_dir is not None:
            taught.save(self.taught_dir)  # atomic; a full disk raises before anything swaps
        self._recogniser = recogniser
        self.taught_error = ""
        return taught

    def forget(self) -> bool:
        """Read untaught again and delete the saved set; whether anything was taught or
        saved."""
        with self._changing:
            path = self.taught_file
            had = self.taught is not None or bool(path and path.exists())
            if path is not None:
                path.unlink(missing_ok=True)
            if self._plain is not None:
                self._recogniser = self._plain
            self.taught_error = ""
            return had

    def learn_capture(self, image: np.ndarray, tiles: Sequence[dict[str, Any]]) -> Future[Any]:
        """Add a confirmed win photo's tiles ([{label, box}], as the win page applied them) to
        the taught set, on a worker thread so applying the win does not wait; only once a set is
        taught (a table that never taught reads as shipped). The future's result is the new
        `TaughtSet`, or None when nothing was added."""
        boxes = [t["box"] for t in tiles]
        labels = [t["label"] for t in tiles]
        with self._learner_lock:
            if self._learner is None:
                self._learner = ThreadPoolExecutor(1, thread_name_prefix="learn-capture")
            self._learning = self._learner.submit(self._learn, image, boxes, labels)
            return self._learning

    def _learn(self, image: np.ndarray, boxes: list[Any], labels: list[str]) -> Any:
        from vision.teach import Shot, teach

        try:
            with self._changing:
                before = self.taught
                if before is None or not labels or self._plain is None:
                    return None
                new = teach(self._plain, [Shot(image, tuple(map(tuple, boxes)), tuple(labels))])
                return self._use(self._plain, before.merged(new))
        except Exception:  # a confirmed win is applied whatever happens here
            log.exception("could not add a confirmed capture to the taught tiles")
            return None

    def wait_learning(self, timeout: float | None = None) -> None:
        """Wait for the last `learn_capture` (tests; a shutdown waits anyway)."""
        if self._learning is not None:
            self._learning.result(timeout)


def newest_exemplars(taught: Any, per_kind: int) -> Any:
    """`taught` with at most `per_kind` exemplars of each label, the newest (the last ones:
    `TaughtSet.merged` appends)."""
    from vision.taught import TaughtSet

    counts = Counter(taught.labels)
    if max(counts.values(), default=0) <= per_kind:
        return taught
    kept: Counter[str] = Counter()
    keep = []
    for i in range(len(taught.labels) - 1, -1, -1):
        label = taught.labels[i]
        if kept[label] < per_kind:
            kept[label] += 1
            keep.append(i)
    keep.reverse()
    return TaughtSet(tuple(taught.labels[i] for i in keep), taught.exemplars[keep],
                     taught.photos, taught.taught_at, taught.classifier_sha256)


def empty_hand() -> dict[str, Any]:
    return {"concealed": [], "win": None, "melds": [], "dora": [], "ura": [], "unplaced": []}


def tile_json(tile: Any, blamed: bool = False) -> dict[str, Any]:
    """One tile for the win page; `low` marks it for a look: doubtful as read, or blamed by one
    of the reading's problems (a tile that may be extra)."""
    confidence = float(tile.confidence)
    return {"label": tile.label, "confidence": round(confidence, 3),
            "low": blamed or doubtful(tile),
            "box": [round(float(v), 1) for v in tile.box],
            "alternatives": [[label, round(float(p), 3)] for label, p in tile.alternatives][:3],
            "sideways": tile.sideways, "face_down": tile.face_down}


def reading_to_hand(reading: Any, blamed: frozenset[int] = frozenset()) -> dict[str, Any]:
    """Map vision's `Reading` (tiles + grouping by index) onto the win page's groups; the tiles
    vision set aside (away from the hand: a wall, discards) go to `unplaced`, never marked
    doubtful: the page shows them grey, not counted, and a tap brings one in."""
    g = reading.grouping
    tiles = reading.tiles

    def one(i: int) -> dict[str, Any]:
        return tile_json(tiles[i], i in blamed)

    melds = []
    for meld in g.melds:
        called = meld.tiles.index(meld.called) if meld.called in meld.tiles else None
        melds.append({"kind": meld.kind.value, "tiles": [one(i) for i in meld.tiles],
                      "called": called})
    return {"concealed": [one(i) for i in g.concealed],
            "win": one(g.winning) if g.winning is not None else None,
            "melds": melds, "dora": [one(i) for i in g.dora], "ura": [],
            "unplaced": [tile_json(tiles[i]) | {"low": False} for i in g.unassigned]}


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
