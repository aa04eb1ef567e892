"""Pick sample frames for tests and the kiosk's demo camera.

Renders scenes from a fixed seed, reads each with the shipped models, and keeps the first ``--k``
whose reading matches the generator's truth exactly (every tile, pose and group). The demo
camera's frames are picked by tools/pick_demo_frames.py, which keeps scoring hands only (vision
may not import the rules core). The expected
readings written beside them are the generator's truth, not the model's output; the command says
how many scenes it had to look at, so the hit rate is visible rather than hidden by the pick.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from pathlib import Path

import cv2

from vision.evaluate import grouping_matches
from vision.recogniser import Recogniser
from vision.synth.art import load_art
from vision.synth.hands import random_hand
from vision.synth.scene import render


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, required=True, help="folder for the JPEGs + expected.json")
    p.add_argument("--models", type=Path, default=None, help="models folder (default: models/)")
    p.add_argument("--seed", type=int, default=11, help="render seed of the scenes looked at")
    p.add_argument("--k", type=int, default=4, help="frames to keep")
    p.add_argument("--tries", type=int, default=40, help="scenes to look at, at most")
    p.add_argument("--quality", type=int, default=80, help="JPEG quality (keep files < 100 KB)")
    p.add_argument("--melds", type=int, default=1, help="keep only scenes with at least N melds")


def run(
    args: argparse.Namespace, keep: Callable[[dict[str, object]], bool] | None = None
) -> int:
    """Pick the frames; ``keep`` (given the hand's truth) turns away the hands it refuses."""
    rec = Recogniser.load(args.models)
    art = load_art()
    args.out.mkdir(parents=True, exist_ok=True)
    expected = {}
    looked = 0
    for i in range(args.tries):
        rng = random.Random(args.seed * 1_000_003 + i)
        hand = random_hand(rng)
        img, _ = render(hand, art, rng, (640, 480))
        if len(hand.melds) < args.melds:
            continue
        if keep is not None and not keep(hand.layout_json()):
            continue
        looked += 1
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, args.quality])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)  # read what the file will hold
        reading = rec.read(decoded)
        if not (ok and grouping_matches(hand.layout_json(), reading) and not reading.problems):
            continue
        name = f"hand_{args.seed}_{i:03d}.jpg"
        (args.out / name).write_bytes(buf.tobytes())
        expected[name] = hand.layout_json()
        if len(expected) == args.k:
            break
    (args.out / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"kept {len(expected)} of {looked} scenes looked at (seed {args.seed}) in {args.out}")
    return 0 if len(expected) == args.k else 1
