"""``python -m vision {read,evaluate,sets,compare,teach,teach-eval,check-kernels}``: read one
photo, measure the reader on a manifest or on every real photo source set by set, compare two
such reads, teach it a table's tiles, measure teaching."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from scorer.cli_help import closed_pipe_is_quiet, language_in
from scorer.words import language
from vision.compare import add_compare_command
from vision.config import VisionConfig
from vision.evaluate_cli import add_evaluate_command
from vision.problems import problem_words
from vision.sets import add_sets_command
from vision.teach_cli import add_teach_commands
from vision.words import (
    VISION,
    add_language,
    command,
    counts,
    help_formatter,
    summary,
)


def _load(args: argparse.Namespace):  # noqa: ANN202 - returns a Recogniser
    from vision.recogniser import Recogniser
    from vision.taught import TaughtSetError

    cfg = VisionConfig(
        threads=args.threads,
        test_time_flip=not args.no_tta,
        reference_kernels=args.reference_kernels,
    )
    try:
        return Recogniser.load(args.models, cfg, getattr(args, "taught", None),
                               getattr(args, "classifiers", None))
    except (TaughtSetError, ValueError) as err:  # a taught set that cannot be read with
        print(VISION.t("error", language(getattr(args, "language", None)), error=err),
              file=sys.stderr)
        raise SystemExit(2) from None


MAX_IMAGE_BYTES = 64 * 1024 * 1024  # far above any camera's photo; /dev/zero never ends


def _decode_image(path: Path, lang: str = "en") -> np.ndarray:
    """The photo as a BGR frame; OSError or ValueError with one line saying why not (in
    `lang`)."""
    with path.open("rb") as f:
        raw = f.read(MAX_IMAGE_BYTES + 1)
    if len(raw) > MAX_IMAGE_BYTES:
        raise ValueError(VISION.t("image.too_large", lang, mb=MAX_IMAGE_BYTES // (1024 * 1024)))
    data = np.frombuffer(raw, dtype=np.uint8)
    logging = cv2.utils.logging
    level = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_SILENT)  # its own log lines would repeat ours
    try:
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error as e:  # e.g. a header claiming more pixels than OpenCV will decode
        raise ValueError(VISION.t("image.refused", lang, why=getattr(e, "err", e))) from None
    finally:
        logging.setLogLevel(level)
    if frame is None:
        raise ValueError(VISION.t("image.unknown", lang))
    return frame


def cmd_read(args: argparse.Namespace) -> int:
    lang = language(getattr(args, "language", None))
    try:
        frame = _decode_image(args.image, lang)
    except (OSError, ValueError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else e
        print(VISION.t("read.no_image", lang, image=args.image, reason=reason), file=sys.stderr)
        return 2
    reading = _load(args).read(frame)
    if args.json:
        print(json.dumps(reading.to_json(), indent=1))
        return 0
    print(VISION.t("read.line", lang, counts=counts(reading, lang),
                   summary=summary(reading, lang)))
    for i, t in enumerate(reading.tiles):
        flags = [
            f
            for f, on in (
                (VISION.t("read.sideways", lang), t.sideways),
                (VISION.t("read.face_down", lang), t.face_down),
                (VISION.t("read.changed", lang), t.changed_by_decoder),
            )
            if on
        ]
        alts = ", ".join(f"{lab} {p:.2f}" for lab, p in t.alternatives)
        box = ",".join(f"{v:.0f}" for v in t.box)
        print(f"  {i:2d} {t.label:4s} {t.confidence:.3f} [{box}] {' '.join(flags)}  ({alts})")
    for p in reading.problems:
        print(VISION.t("read.problem", lang, problem=problem_words(p, lang)))
    return 0


def cmd_check_kernels(args: argparse.Namespace) -> int:
    import platform

    from vision.kernel_check import DEMO_FRAMES, MAX_PROB_DIFF, SAMPLE_FRAMES, check_kernels
    from vision.session import ModelError

    lang = language(getattr(args, "language", None))
    try:
        checks = check_kernels(
            args.frames or [DEMO_FRAMES, SAMPLE_FRAMES],
            args.models,
            VisionConfig(threads=args.threads, test_time_flip=not args.no_tta),
            read=not args.outputs_only,
        )
    except (ValueError, ModelError) as err:
        print(VISION.t("error", lang, error=err), file=sys.stderr)
        return 2
    agree = all(c.agrees for c in checks)
    if args.json:
        print(
            json.dumps(
                {
                    "machine": platform.machine(),
                    "agrees": agree,
                    "max_prob_diff": MAX_PROB_DIFF,
                    "frames": [c.to_json() for c in checks],
                }
            )
        )
        return 0 if agree else 1
    for c in checks:
        verdict = VISION.t("kernels.same" if c.agrees else "kernels.different", lang)
        print(VISION.t("kernels.frame", lang, frame=f"{c.frame:24s}", verdict=verdict,
                       finder=f"{c.finder_diff:.4f}", classifier=f"{c.classifier_diff:.4f}"))
        if not c.same_reading:
            print("    " + VISION.t("kernels.optimised", lang, reading=c.optimised))
            print("    " + VISION.t("kernels.reference", lang, reading=c.reference))
    where = {"n": len(checks), "machine": platform.machine()}
    if agree:
        print(VISION.t("kernels.agree", lang, **where))
    else:
        print(VISION.t("kernels.differ", lang, tolerance=MAX_PROB_DIFF, **where))
    return 0 if agree else 1


def main(argv: list[str] | None = None) -> int:
    lang = language_in(argv)  # before the parsers are built, so that --help speaks it too
    parser = argparse.ArgumentParser(prog="python -m vision", formatter_class=help_formatter(lang),
                                     description=VISION.t("help.vision", lang))
    parser.add_argument("--models", type=Path, default=None, help=VISION.t("help.models", lang))
    parser.add_argument("--threads", type=int, default=1, help=VISION.t("help.threads", lang))
    parser.add_argument("--no-tta", action="store_true", help=VISION.t("help.no_tta", lang))
    parser.add_argument("--reference-kernels", action="store_true",
                        help=VISION.t("help.reference_kernels", lang))
    add_language(parser, lang)
    sub = parser.add_subparsers(dest="command", required=True)
    p = command(sub, "read", lang)
    p.add_argument("image", type=Path, help=VISION.t("help.read.image", lang))
    p.add_argument("--json", action="store_true", help=VISION.t("help.read.json", lang))
    p.add_argument("--taught", type=Path, default=None, help=VISION.t("help.taught", lang))
    add_language(p, lang, everywhere=True)
    p.set_defaults(func=cmd_read)
    add_evaluate_command(sub, _load, lang)
    add_teach_commands(sub, _load, _decode_image, lang)
    add_sets_command(sub, _load, lang)
    add_compare_command(sub, lang)
    p = command(sub, "check-kernels", lang, described=True)
    p.add_argument("frames", type=Path, nargs="*",
                   help=VISION.t("help.check_kernels.frames", lang))
    p.add_argument("--outputs-only", action="store_true",
                   help=VISION.t("help.check_kernels.outputs_only", lang))
    p.add_argument("--json", action="store_true", help=VISION.t("help.json", lang))
    add_language(p, lang, everywhere=True)
    p.set_defaults(func=cmd_check_kernels)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(closed_pipe_is_quiet(main))
