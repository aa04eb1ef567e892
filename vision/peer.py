"""Adapter for the packaged peer model ``mahjong-detector`` (optional extra ``peer``).

It knows 34 classes (no red fives, no face-down tiles), so evaluation compares only those.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

PEER_NAMES = {
    "chun": "7z",
    "haku": "5z",
    "hatsu": "6z",
    "nan": "2z",
    "pe": "4z",
    "sha": "3z",
    "tou": "1z",
}


class PeerUnavailable(RuntimeError):
    """mahjong-detector is not installed (``pip install 'riichi-table-assistant[peer]'``)."""


def peer_label(name: str) -> str:
    """The peer's class name in our mpsz notation.

    >>> peer_label("hatsu"), peer_label("7p")
    ('6z', '7p')
    """
    return PEER_NAMES.get(name, name)


def load_peer(threads: int | None = None) -> Any:
    """The peer's detector; with ``threads``, its onnxruntime session (which it keeps per
    calling thread) runs as ours does: that many threads instead of one per core, idle ones
    sleeping (spinning pools of two readers taking turns starve each other)."""
    try:
        from mahjong_detector import CLASS_NAMES, predict, preprocess_image

        peer_module = importlib.import_module("mahjong_detector.predict")  # shadowed by predict()
    except ImportError as err:
        raise PeerUnavailable(
            f"mahjong-detector is not installed ({err}); install the 'peer' extra "
            "(pip install mahjong-detector==0.0.6)"
        ) from err
    if threads is not None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        peer_module.threadlocal.session = ort.InferenceSession(
            peer_module.model_path, options, providers=["CPUExecutionProvider"]
        )

    from PIL import Image

    def detect(frame_bgr: np.ndarray) -> list[tuple[str, tuple[float, float, float, float], float]]:
        """Run the peer on a decoded BGR frame (as our reader gets it, so timings compare)."""
        img, padding = preprocess_image(
            Image.fromarray(np.ascontiguousarray(frame_bgr[:, :, ::-1]))
        )
        out = predict(img, padding)
        return [
            (
                peer_label(CLASS_NAMES[d.class_id]),
                (float(d.x1), float(d.y1), float(d.x2), float(d.y2)),
                float(d.confidence),
            )
            for d in out
        ]

    return detect
