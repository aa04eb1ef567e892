"""The team's data folder beside the checkout (``../shared``, or ``$RIICHI_SHARED``): real photos,
real Tenhou hands and games, rule texts and tile art. The project never needs it at run time.

Every test that reads it asks ``need`` for the path: where the folder is absent (a user's clone)
the test skips with a message naming the path; under CI (``CI`` set), where it must be present,
the test fails instead, so a CI run never passes by skipping what it should have read.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("RIICHI_SHARED") or ROOT.parent / "shared")
ART = ("tile-art",)
CC0_ART = ("tile-art", "fluffystuff", "Export", "Regular")
ROBOFLOW = ("photos", "roboflow-chinese-mahjong-v4", "manifest.jsonl")
CROSS_SET = ("photos", "leo-miura-riichi-webcam", "manifest.jsonl")


def missing_message(path: Path) -> str:
    return f"../shared not found: {path} (set RIICHI_SHARED to the team's data folder)"


def need(*parts: str) -> Path:
    """``SHARED / parts``; skips the calling test where it is absent (fails under CI)."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{missing_message(path)}; CI must have it")
        pytest.skip(missing_message(path))
    return path
