"""``python -m vision teach`` and ``teach-eval``: teach the reader a table's tiles from photos,
and measure teaching on a labelled manifest (``vision.teach``, ``vision.teach_eval``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

Load = Callable[[argparse.Namespace], Any]  # -> Recogniser
Decode = Callable[[Path], np.ndarray]


def add_teach_commands(sub: Any, load: Load, decode: Decode) -> None:
    """The two sub-commands on ``python -m vision``'s sub-parsers; ``load`` gives the recogniser
    from the common options, ``decode`` a photo's frame (OSError / ValueError saying why not)."""
    p = sub.add_parser(
        "teach",
        help="teach the reader a table's tiles from photos of them laid out in a known order",
        description="Find the tiles of each photo, label them in reading order (rows top to "
        "bottom, each left to right) from --order, and save the taught set to --out; stops at "
        "the first photo whose tiles do not match the order.",
    )
    p.add_argument("photos", type=Path, nargs="+", help="photos of the tiles laid out in order")
    p.add_argument(
        "--order",
        required=True,
        action="append",
        help="the tiles in reading order, rows split by '/', e.g. '123456789m/123456789p': "
        "once for all photos, or once for each photo in turn",
    )
    p.add_argument("--out", type=Path, required=True, help="folder to save taught_tiles.npz to")
    p.set_defaults(func=lambda args: cmd_teach(args, load, decode))
    p = sub.add_parser(
        "teach-eval",
        help="measure teaching: taught from a few photos of a manifest, read on the others",
        description="Pick at most --photos photos that together show every kind (greedy cover "
        "of the manifest's labels), teach from their located tiles labelled from the manifest, "
        "then read the other photos without and with the taught set (IoU 0.5 and 0.4); within "
        "reach: their tiles some box of the reading's or some weak finder peak lies on.",
    )
    p.add_argument("manifest", type=Path, help="manifest.jsonl (images + labelled tiles)")
    p.add_argument(
        "--photos", type=int, default=8, help="teach from at most this many photos (default 8)"
    )
    p.add_argument(
        "--split", default=None, help="read only this split of the manifest (default: all)"
    )
    p.add_argument(
        "--teach-split",
        default=None,
        help="teach from photos of this split (default: from the photos read, which are then "
        "left out of the reading)",
    )
    p.add_argument(
        "--tune",
        action="store_true",
        help="choose the mixing's weight and temperature by leave-one-out on the teaching "
        "photos (never the measured ones)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=lambda args: cmd_teach_eval(args, load))


def cmd_teach_eval(args: argparse.Namespace, load: Load) -> int:
    from vision.manifest import read_manifest
    from vision.teach_eval import report, teach_eval

    try:
        entries = read_manifest(args.manifest, [args.split] if args.split else None)
        pool = read_manifest(args.manifest, [args.teach_split]) if args.teach_split else None
    except (OSError, ValueError) as err:
        print(f"error: cannot read manifest {args.manifest}: {err}", file=sys.stderr)
        return 2
    if args.photos < 1:
        print("error: --photos must be 1 or more", file=sys.stderr)
        return 2
    if len(entries) < 2 or pool == []:
        print(f"error: too few photos in {args.manifest} to teach from and read", file=sys.stderr)
        return 2

    def bar(items: Any, desc: str = "") -> Any:
        return tqdm(items, desc=desc, leave=False, disable=args.json)

    result = teach_eval(load(args), entries, args.photos, args.tune, bar, pool)
    print(json.dumps(result) if args.json else report(result))
    return 0


def cmd_teach(args: argparse.Namespace, load: Load, decode: Decode) -> int:
    from vision.teach import Shot, expected_rows, lay_out, teach

    if len(args.order) not in (1, len(args.photos)):
        print("error: give one --order for all photos or one for each", file=sys.stderr)
        return 2
    try:
        orders = [expected_rows(o) for o in args.order]
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    rec = load(args)
    shots = []
    for k, path in enumerate(args.photos):
        rows = orders[k % len(orders)]
        try:
            frame = decode(path)
        except (OSError, ValueError) as e:
            print(f"error: cannot read image {path}: {e}", file=sys.stderr)
            return 2
        layout = lay_out(rec, frame, rows)
        print(f"{path}: " + " ".join(str(t.label) for t in layout.tiles))
        for problem in layout.problems:
            print(f"  problem: {problem}")
        if not layout.ok:
            print(f"error: {path} does not show the expected order", file=sys.stderr)
            return 1
        shots.append(Shot.of(frame, layout))
    taught = teach(rec, shots)
    print(f"taught {len(taught.kinds)} kinds from {taught.photos} photos: {taught.save(args.out)}")
    return 0
