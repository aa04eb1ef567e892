"""The one place that imports onnxruntime: load a model, check it against its card, run it.

Each ``models/NAME.onnx`` has ``models/NAME.json`` beside it (the model card). Loading checks the
file's sha256 and the label list against the card, so a swapped or corrupted model fails at start
with a clear message instead of reading tiles wrongly.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from scorer.tiles import MODEL_CLASSES

EXPECTED_LABELS = {"classifier": tuple(MODEL_CLASSES), "finder": ("tile",)}


class ModelError(RuntimeError):
    """A model file that is missing, altered, or does not match its card."""


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def load_card(model_path: Path) -> dict[str, Any]:
    card_path = model_path.with_suffix(".json")
    if not model_path.exists():
        raise ModelError(f"model file {model_path} not found")
    if not card_path.exists():
        raise ModelError(f"model card {card_path} not found (every model needs its card)")
    try:
        card = json.loads(card_path.read_text())
    except json.JSONDecodeError as err:
        raise ModelError(f"model card {card_path} is not JSON: {err.msg}") from err
    for key in ("kind", "sha256", "labels", "input"):
        if key not in card:
            raise ModelError(f"model card {card_path} lacks {key!r}")
    return card


def check_card(model_path: Path, card: dict[str, Any]) -> None:
    """Raise ModelError naming what differs between the file, its card and our labels."""
    actual = file_sha256(model_path)
    if actual != card["sha256"]:
        raise ModelError(
            f"{model_path.name}: sha256 {actual[:16]}... does not match its card "
            f"({str(card['sha256'])[:16]}...); the model file was changed or replaced"
        )
    kind = card["kind"]
    if kind not in EXPECTED_LABELS:
        raise ModelError(f"{model_path.name}: unknown model kind {kind!r} in its card")
    labels = tuple(card["labels"])
    if labels != EXPECTED_LABELS[kind]:
        diff = [
            f"{i}: card {a!r} vs ours {b!r}"
            for i, (a, b) in enumerate(zip(labels, EXPECTED_LABELS[kind], strict=False))
            if a != b
        ]
        raise ModelError(
            f"{model_path.name}: labels do not match scorer.tiles.MODEL_CLASSES "
            f"({len(labels)} vs {len(EXPECTED_LABELS[kind])}; {'; '.join(diff[:3])})"
        )


@dataclass(frozen=True)
class ModelSession:
    """A checked onnxruntime session (CPU) with its card; ``run`` maps one input to one output."""

    path: Path
    card: dict[str, Any]
    session: Any
    input_name: str
    # whether the model names its input's height and width (takes any size), read once at load
    any_size: bool = False

    @classmethod
    def load(
        cls,
        model_path: Path | str,
        threads: int = 1,
        warm_up: bool = True,
        reference: bool = False,
    ) -> ModelSession:
        """With ``reference``, onnxruntime's graph optimisations are off: each QDQ pair runs as
        written, in float, the same on every CPU (slower; the yardstick for the fused kernels)."""
        import onnxruntime as ort  # imported here: nothing loads a model at import time

        path = Path(model_path)
        card = load_card(path)
        check_card(path, card)
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        # idle workers sleep rather than spin: a kiosk shares its cores with the camera and the
        # web server, and spinning pools of two models starve each other on a small CPU
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        if reference:
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        name = session.get_inputs()[0].name
        if name != card["input"].get("name", name):
            raise ModelError(f"{path.name}: input {name!r} differs from its card's")
        shape, said = session.get_inputs()[0].shape, card["input"]["shape"]
        if len(shape) != len(said) or any(
            isinstance(a, int) and isinstance(b, int) and a != b
            for a, b in zip(shape, said, strict=True)
        ):
            raise ModelError(f"{path.name}: input shape {shape} differs from its card's {said}")
        model = cls(path, card, session, name, isinstance(session.get_inputs()[0].shape[-1], str))
        if warm_up:
            shape = [1 if isinstance(d, str) else int(d) for d in card["input"]["shape"]]
            model.run(np.zeros(shape, np.float32))
        return model

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.card["labels"])

    def run(self, batch: np.ndarray) -> np.ndarray:
        """Run on a float32 NCHW batch; returns the first output."""
        return self.run_all(batch)[0]

    def run_all(self, batch: np.ndarray) -> list[np.ndarray]:
        """Run on a float32 NCHW batch; returns every output, in the model's order."""
        # one copy, only where needed: a turned view, a batch of another type
        outs = self.session.run(None, {self.input_name: np.ascontiguousarray(batch, np.float32)})
        return [np.asarray(o) for o in outs]
