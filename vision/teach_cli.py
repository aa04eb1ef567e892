"""``python -m vision teach`` and ``teach-eval``: teach the reader a table's tiles from photos,
and measure teaching on a labelled manifest (``vision.teach``, ``vision.teach_eval``), in the
language chosen (``--json`` keeps its English keys)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from scorer.words import language
from vision.problems import ProblemError, problem_words
from vision.words import VISION, add_language, command, mismatch

Load = Callable[[argparse.Namespace], Any]  # -> Recogniser
Decode = Callable[[Path, str], np.ndarray]


def add_teach_commands(sub: Any, load: Load, decode: Decode, lang: str = "en") -> None:
    """The two sub-commands on ``python -m vision``'s sub-parsers, their help in `lang`;
    ``load`` gives the recogniser from the common options, ``decode`` a photo's frame (OSError /
    ValueError saying why not, in the language it is given)."""
    p = command(sub, "teach", lang, described=True)
    p.add_argument("photos", type=Path, nargs="+", help=VISION.t("help.teach.photos", lang))
    p.add_argument("--order", required=True, action="append",
                   help=VISION.t("help.teach.order", lang))
    p.add_argument("--out", type=Path, required=True, help=VISION.t("help.teach.out", lang))
    add_language(p, lang, everywhere=True)
    p.set_defaults(func=lambda args: cmd_teach(args, load, decode))
    p = command(sub, "teach-eval", lang, described=True)
    p.add_argument("manifest", type=Path, help=VISION.t("help.manifest", lang))
    p.add_argument("--photos", type=int, default=8, help=VISION.t("help.teach_eval.photos", lang))
    p.add_argument("--split", default=None, help=VISION.t("help.teach_eval.split", lang))
    p.add_argument("--teach-split", default=None,
                   help=VISION.t("help.teach_eval.teach_split", lang))
    p.add_argument("--tune", action="store_true", help=VISION.t("help.teach_eval.tune", lang))
    p.add_argument("--json", action="store_true", help=VISION.t("help.json", lang))
    add_language(p, lang, everywhere=True)
    p.set_defaults(func=lambda args: cmd_teach_eval(args, load))


def cmd_teach_eval(args: argparse.Namespace, load: Load) -> int:
    from tqdm import tqdm

    from vision.manifest import read_manifest
    from vision.teach_eval import report, teach_eval

    lang = language(getattr(args, "language", None))
    try:
        entries = read_manifest(args.manifest, [args.split] if args.split else None)
        pool = read_manifest(args.manifest, [args.teach_split]) if args.teach_split else None
    except (OSError, ValueError) as err:
        print(VISION.t("teach_eval.no_manifest", lang, manifest=args.manifest, error=err),
              file=sys.stderr)
        return 2
    if args.photos < 1:
        print(VISION.t("teach_eval.photos", lang), file=sys.stderr)
        return 2
    if len(entries) < 2 or pool == []:
        print(VISION.t("teach_eval.too_few", lang, manifest=args.manifest), file=sys.stderr)
        return 2

    def bar(items: Any, desc: str = "") -> Any:  # desc: a key of the catalogue (progress.*)
        return tqdm(items, desc=VISION.t(desc, lang), leave=False, disable=args.json)

    result = teach_eval(load(args), entries, args.photos, args.tune, bar, pool)
    print(json.dumps(result) if args.json else report(result, lang))
    return 0


def cmd_teach(args: argparse.Namespace, load: Load, decode: Decode) -> int:
    from vision.teach import Shot, expected_rows, lay_out, teach

    lang = language(getattr(args, "language", None))
    if len(args.order) not in (1, len(args.photos)):
        print(VISION.t("teach.orders", lang), file=sys.stderr)
        return 2
    try:
        orders = [expected_rows(o) for o in args.order]
    except ProblemError as err:
        print(VISION.t("error", lang, error=problem_words(err.problem, lang)), file=sys.stderr)
        return 2
    rec = load(args)
    shots = []
    for k, path in enumerate(args.photos):
        rows = orders[k % len(orders)]
        try:
            frame = decode(path, lang)
        except (OSError, ValueError) as e:
            print(VISION.t("read.no_image", lang, image=path, reason=e), file=sys.stderr)
            return 2
        layout = lay_out(rec, frame, rows)
        print(f"{path}: " + " ".join(str(t.label) for t in layout.tiles))
        for problem in layout.mismatches:
            print("  " + VISION.t("read.problem", lang, problem=mismatch(problem, lang)))
        if not layout.ok:
            print(VISION.t("teach.not_in_order", lang, photo=path), file=sys.stderr)
            return 1
        shots.append(Shot.of(frame, layout))
    taught = teach(rec, shots)
    print(VISION.t("teach.taught", lang, kinds=len(taught.kinds), photos=taught.photos,
                   path=taught.save(args.out)))
    return 0
