"""``python -m vision {read,evaluate,sets,teach,teach-eval,check-kernels}``: read one photo,
measure the reader on a manifest or on every real photo source set by set, teach it a table's
tiles, measure teaching."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from scorer.words import add_language_option, language
from vision.config import VisionConfig
from vision.sets import add_sets_command
from vision.teach_cli import add_teach_commands
from vision.words import VISION


def _load(args: argparse.Namespace):  # noqa: ANN202 - returns a Recogniser
    from vision.recogniser import Recogniser
    from vision.taught import TaughtSetError

    cfg = VisionConfig(
        threads=args.threads,
        test_time_flip=not args.no_tta,
        reference_kernels=args.reference_kernels,
    )
    try:
        return Recogniser.load(args.models, cfg, getattr(args, "taught", None))
    except (TaughtSetError, ValueError) as err:  # a taught set that cannot be read with
        print(f"error: {err}", file=sys.stderr)
        raise SystemExit(2) from None


MAX_IMAGE_BYTES = 64 * 1024 * 1024  # far above any camera's photo; /dev/zero never ends


def _decode_image(path: Path) -> np.ndarray:
    """The photo as a BGR frame; OSError or ValueError with one line saying why not."""
    with path.open("rb") as f:
        raw = f.read(MAX_IMAGE_BYTES + 1)
    if len(raw) > MAX_IMAGE_BYTES:
        raise ValueError(f"larger than {MAX_IMAGE_BYTES // (1024 * 1024)} MB")
    data = np.frombuffer(raw, dtype=np.uint8)
    logging = cv2.utils.logging
    level = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_SILENT)  # its own log lines would repeat ours
    try:
        frame = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error as e:  # e.g. a header claiming more pixels than OpenCV will decode
        raise ValueError(f"OpenCV refuses it ({getattr(e, 'err', e)})") from None
    finally:
        logging.setLogLevel(level)
    if frame is None:
        raise ValueError("not an image OpenCV can decode (JPEG, PNG, ...)")
    return frame


def cmd_read(args: argparse.Namespace) -> int:
    lang = language(getattr(args, "language", None))
    try:
        frame = _decode_image(args.image)
    except (OSError, ValueError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else e
        print(VISION.t("read.no_image", lang, image=args.image, reason=reason), file=sys.stderr)
        return 2
    reading = _load(args).read(frame)
    if args.json:
        print(json.dumps(reading.to_json(), indent=1))
        return 0
    print(f"{reading.counts(lang)}: {reading.summary()}")
    for i, t in enumerate(reading.tiles):
        flags = [
            f
            for f, on in (
                ("sideways", t.sideways),
                ("face-down", t.face_down),
                ("changed", t.changed_by_decoder),
            )
            if on
        ]
        alts = ", ".join(f"{lab} {p:.2f}" for lab, p in t.alternatives)
        box = ",".join(f"{v:.0f}" for v in t.box)
        print(f"  {i:2d} {t.label:4s} {t.confidence:.3f} [{box}] {' '.join(flags)}  ({alts})")
    for p in reading.problems:
        print(VISION.t("read.problem", lang, problem=p))
    return 0


def _print_table(rows: dict[str, dict], out=sys.stdout) -> None:  # noqa: ANN001
    keys = [
        "images",
        "precision",
        "recall",
        "f1",
        "exact_images",
        "labelled_right_images",
        "located_recall",
        "median_latency_ms",
        "red_five_accuracy",
        "face_down_accuracy",
        "sideways_accuracy",
        "upright_accuracy",
        "grouping_accuracy",
    ]
    names = list(rows)
    print(f"{'':22s}" + "".join(f"{n:>16s}" for n in names), file=out)
    for k in keys:
        vals = [rows[n].get(k) if rows[n] else None for n in names]
        if all(v is None for v in vals):
            continue
        print(f"{k:22s}" + "".join(f"{'-' if v is None else v!s:>16s}" for v in vals), file=out)
    for n in names:
        if rows[n] and rows[n].get("confusions"):
            pairs = ", ".join(f"{a}->{b} x{c}" for a, b, c in rows[n]["confusions"])
            print(f"confusions ({n}, labelled->read): {pairs}", file=out)


def _latency_ratio(ours: dict | None, peer: dict | None) -> float | None:
    if not ours or not peer or not peer.get("median_latency_ms"):
        return None
    return float(ours["median_latency_ms"]) / float(peer["median_latency_ms"])


def cmd_evaluate(args: argparse.Namespace) -> int:
    from vision.evaluate import Totals, evaluate_reader, evaluate_side_by_side
    from vision.manifest import iter_splits, read_manifest

    entries = read_manifest(args.manifest, [args.split] if args.split else None)
    if args.limit:
        entries = entries[: args.limit]
    if not entries:
        print(f"error: no images in {args.manifest} (split {args.split!r})", file=sys.stderr)
        return 2
    rec = _load(args)
    detect = None
    peer_note = None
    if args.peer:
        from vision.peer import PeerUnavailable, load_peer

        try:
            detect = load_peer(args.threads)
        except PeerUnavailable as err:
            peer_note = str(err)
            print(f"peer: {peer_note}", file=sys.stderr)

    def bar(items):  # noqa: ANN001, ANN202
        return tqdm(items, desc="images", leave=False, disable=args.json)

    per_split: dict[str, dict] = {}
    ours_all, peer_all = Totals(), Totals()
    for split, items in iter_splits(entries):
        peer = None
        if detect:
            ours, peer = evaluate_side_by_side(items, rec.read, detect, bar)
        else:
            ours = evaluate_reader(items, rec.read, bar)
        ours_all.merge(ours)
        if peer:
            peer_all.merge(peer)
        per_split[split] = {"ours": ours.summary(), "peer": peer.summary() if peer else None}
        if not args.json:
            print(f"== split {split or '(none)'}: {len(items)} images of {args.manifest} ==")
            _print_table(
                {
                    "ours": per_split[split]["ours"],
                    **({"peer": per_split[split]["peer"]} if peer else {}),
                }
            )
    all_ours = ours_all.summary()
    all_peer = peer_all.summary() if detect else None
    if not args.json and len(per_split) > 1:
        print(f"== all {len(entries)} images ==")
        _print_table({"ours": all_ours, **({"peer": all_peer} if all_peer else {})})
    if not args.json and peer_note:
        print(f"peer: not measured: {peer_note}")
    ratio = _latency_ratio(all_ours, all_peer)
    if not args.json and ratio is not None:
        print(f"median latency, ours / peer: {ratio:.2f} ({args.threads} thread(s) each)")
    if args.json:
        out = dict(all_ours or {})
        out["peer"] = all_peer if all_peer else None
        if peer_note:
            out["peer_unavailable"] = peer_note
        if ratio is not None:
            out["latency_ratio"] = round(ratio, 3)
            out["threads"] = args.threads
        if len(per_split) > 1:
            out["per_split"] = per_split
        print(json.dumps(out))
    return 0


def cmd_check_kernels(args: argparse.Namespace) -> int:
    import platform

    from vision.kernel_check import DEMO_FRAMES, MAX_PROB_DIFF, SAMPLE_FRAMES, check_kernels
    from vision.session import ModelError

    try:
        checks = check_kernels(
            args.frames or [DEMO_FRAMES, SAMPLE_FRAMES],
            args.models,
            VisionConfig(threads=args.threads, test_time_flip=not args.no_tta),
            read=not args.outputs_only,
        )
    except (ValueError, ModelError) as err:
        print(f"error: {err}", file=sys.stderr)
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
        verdict = "same" if c.agrees else "DIFFERENT"
        print(
            f"{c.frame:24s} finder {c.finder_diff:.4f}  classifier {c.classifier_diff:.4f}  "
            f"{verdict}"
        )
        if not c.same_reading:
            print(f"    optimised: {c.optimised}\n    reference: {c.reference}")
    print(
        f"{len(checks)} frames on {platform.machine()}: "
        + (
            "the optimised kernels read as the reference ones"
            if agree
            else f"the optimised kernels differ (tolerance {MAX_PROB_DIFF}); run the kiosk with "
            "reference_kernels = true in its [vision] settings until the models are fixed"
        )
    )
    return 0 if agree else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision", description=__doc__)
    parser.add_argument(
        "--models",
        type=Path,
        default=None,
        help="folder with the ONNX models and their cards (default: models/ in the repository)",
    )
    parser.add_argument("--threads", type=int, default=1, help="onnxruntime CPU threads")
    parser.add_argument("--no-tta", action="store_true", help="skip the half-turn test-time pass")
    parser.add_argument(
        "--reference-kernels",
        action="store_true",
        help="run the models with onnxruntime's reference kernels (slow, alike on every CPU)",
    )
    add_language_option(parser)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("read", help="read the tiles of one photo")
    p.add_argument("image", type=Path, help="a photo (JPEG / PNG) of the laid-out hand")
    p.add_argument("--json", action="store_true", help="print the Reading as JSON")
    p.add_argument(
        "--taught", type=Path, default=None, help="read with the tiles taught in this folder"
    )
    add_language_option(p, everywhere=True)
    p.set_defaults(func=cmd_read)
    p = sub.add_parser("evaluate", help="measure precision / recall / F1 on a labelled manifest")
    p.add_argument("manifest", type=Path, help="manifest.jsonl (images + labelled tiles)")
    p.add_argument("--split", default=None, help="only this split (e.g. valid)")
    p.add_argument("--peer", action="store_true", help="also measure mahjong-detector (34 classes)")
    p.add_argument("--limit", type=int, default=0, help="only the first N images (0: all)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--taught", type=Path, default=None, help="read with the tiles taught in this folder"
    )
    p.set_defaults(func=cmd_evaluate)
    add_teach_commands(sub, _load, _decode_image)
    add_sets_command(sub, _load)
    p = sub.add_parser(
        "check-kernels",
        help="check that this CPU's optimised kernels read as the reference ones",
        description="Run each model with onnxruntime's optimised kernels and with its reference "
        "kernels on the same frames (default: the demo frames) and compare outputs and "
        "readings; exit 1 when they differ.",
    )
    p.add_argument("frames", type=Path, nargs="*", help="images or folders of images")
    p.add_argument(
        "--outputs-only",
        action="store_true",
        help="compare the models' outputs only, not whole readings (for emulators)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_check_kernels)
    args = parser.parse_args(argv)
    return int(args.func(args))


def _closed_pipe_is_quiet(run: Callable[[], int]) -> int:
    """A reader that goes away (`| head`) ends us quietly, as it does a Unix tool: no traceback,
    exit status 141 (what a shell reports for a tool stopped by SIGPIPE)."""
    try:
        status = run()
        sys.stdout.flush()
    except BrokenPipeError:
        # Point stdout at devnull so that the interpreter's own flush at exit cannot fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status


if __name__ == "__main__":
    sys.exit(_closed_pipe_is_quiet(main))
