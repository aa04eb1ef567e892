"""`python -m kiosk.photos.evaluate_wins MANIFEST`: measure recognition as the kiosk reads a win.

The kiosk reads a photographed win with the rules core's winning-shape check, so the decoder may
mend labels that make no complete hand (`kiosk.photos.recognition.is_complete`). `python -m vision
evaluate` measures vision alone, as vision may not import the rules core. Same figures and JSON
keys (tile precision / recall / F1, images right, red fives, face-down, sideways, grouping), for
manifests of winning hands such as the synthetic riichi sets (`python -m vision.training synth`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm

from kiosk.photos.recognition import is_complete
from vision.evaluate import evaluate_reader
from vision.manifest import read_manifest
from vision.recogniser import Recogniser


def evaluate_wins(
    manifest: Path, models: Path | None = None, show_progress: bool = False
) -> dict[str, Any]:
    """The summary of `vision.evaluate` over every image, read with the winning-shape check."""
    entries = read_manifest(manifest)
    if not entries:
        raise ValueError(f"no images in {manifest}")
    recogniser = Recogniser.load(models)

    def bar(items: Any) -> Any:
        return tqdm(items, desc="images", leave=False, disable=not show_progress)

    def read(image: Any) -> Any:
        return recogniser.read(image, complete=is_complete)

    return evaluate_reader(entries, read, bar).summary()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.photos.evaluate_wins",
                                     description=__doc__)
    parser.add_argument("manifest", type=Path, help="manifest.jsonl of photographed winning hands")
    parser.add_argument("--models", type=Path, default=None,
                        help="folder with the ONNX models and their cards (default: models/)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        summary = evaluate_wins(args.manifest, args.models, show_progress=not args.json)
    except (OSError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary))
        return 0
    for key, value in summary.items():
        print(f"{key:24s} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
