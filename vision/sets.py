"""Figures set by set: each real photo source read by the recogniser, one row a set.

A figure means something only on photos of a tile set the models never learned and nobody tuned
on. The sources of the team's photo folder are known here by name: those we may train on are
read by models trained without them (leave-one-source-out, ``--without NAME=MODELS``), or shown
as "trained on"; the evaluation-only ones are never trained on. A set whose labels name its
tiles without boxes is scored by the tiles read against the tiles labelled (a multiset), the
others by boxes (IoU >= 0.5); both as ``vision.evaluate`` scores them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.evaluate import Detection, Totals, evaluate_reader, evaluate_side_by_side
from vision.manifest import LabelledImage, read_manifest
from vision.reading import Reading


@dataclass(frozen=True)
class PhotoSet:
    """One source of real labelled photos under the photos folder."""

    name: str
    trainable: bool  # licensed for training (else evaluation only, never trained or tuned on)
    splits: tuple[str, ...] | None = None  # the photos measured (None: all of them)
    tuned: bool = False  # thresholds were once chosen while watching it: no longer unseen


SETS = (
    PhotoSet("roboflow-chinese-mahjong-v4", True, ("valid",)),  # valid: never trained on
    PhotoSet("leo-miura-riichi-webcam", True, tuned=True),
    PhotoSet("camerash-web-crops", False),
    PhotoSet("mario-close-ups", False),
    PhotoSet("hlin-close-ups", False),  # labels without boxes
)
BY_NAME = {s.name: s for s in SETS}


def trained_on(card: dict[str, Any]) -> frozenset[str]:
    """The photo sources a model card says the model learned from (``sources``; a card
    without the field may name them in its ``data`` text)."""
    if "sources" in card:
        return frozenset(card["sources"])
    return frozenset(s.name for s in SETS if s.name in str(card.get("data", "")))


def measure(
    entries: Sequence[LabelledImage],
    read: Callable[[Any], Reading],
    detect: Callable[[Any], list[Detection]] | None = None,
    progress: Callable[[Sequence[LabelledImage]], Any] = iter,
) -> tuple[Totals, Totals | None]:
    """Ours over the entries, and the peer's beside ours where ``detect`` is given."""
    if detect is None:
        return evaluate_reader(entries, read, progress), None
    return evaluate_side_by_side(entries, read, detect, progress)


def entries_of(photos: Path, s: PhotoSet) -> list[LabelledImage]:
    """The set's measured photos; FileNotFoundError naming the manifest where it is absent."""
    manifest = photos / s.name / "manifest.jsonl"
    if not manifest.exists():
        raise FileNotFoundError(f"{s.name}: no manifest at {manifest}")
    return read_manifest(manifest, s.splits)


def table_lines(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The table: one line a set, ours and (where measured) the peer's figures."""
    head = f"{'set':29s} {'models':22s} {'photos':>6s} {'recall':>7s} {'prec.':>7s} " \
        f"{'exact':>7s} {'labelled':>8s} {'peer rec.':>9s} {'peer ex.':>8s}"
    out = [head, "-" * len(head)]
    for r in rows:
        o, p = r["ours"], r.get("peer") or {}
        out.append(
            f"{r['set']:29s} {r['models'][:22]:22s} {o['images']:6d} {o['recall']:7.3f} "
            f"{o['precision']:7.3f} {o['exact_images']:7.1%} {o['labelled_right_images']:8.1%} "
            + (f"{p['recall']:9.3f} {p['exact_images']:8.1%}" if p else f"{'-':>9s} {'-':>8s}")
        )
    return out


def models_note(s: PhotoSet, cards: Sequence[dict[str, Any]], without: Path | None) -> str:
    if without is not None:
        return f"without it: {without.name}"
    if any(s.name in trained_on(card) for card in cards):
        return "trained on" + (" (valid)" if s.splits else "")
    return "tuned on, not trained" if s.tuned else "never trained on"


def add_sets_command(sub: Any, load: Callable[[argparse.Namespace], Any]) -> None:
    p = sub.add_parser(
        "sets",
        help="figures set by set: every real photo source, one table",
        description="Read every known photo source under PHOTOS and print one row a set: recall, "
        "precision, photos exact (every tile right, nothing extra) and photos with every "
        "labelled tile right. Sources the models learned from say so; read them with models "
        "trained without them: --without NAME=MODELS_DIR (leave-one-source-out).",
    )
    p.add_argument("photos", type=Path, help="the photos folder (e.g. ../shared/photos)")
    p.add_argument("--only", action="append", default=None, metavar="NAME",
                   help="measure only this set (repeatable)")
    p.add_argument("--without", action="append", default=[], metavar="NAME=MODELS_DIR",
                   help="read set NAME with the models in MODELS_DIR, trained without it")
    p.add_argument("--limit", type=int, default=0, help="only the first N photos a set (0: all)")
    p.add_argument("--peer", action="store_true", help="also measure mahjong-detector")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=lambda args: cmd_sets(args, load))


def _without(pairs: Sequence[str]) -> dict[str, Path]:
    out = {}
    for pair in pairs:
        name, sep, folder = pair.partition("=")
        if not sep or name not in BY_NAME:
            raise SystemExit(f"error: --without {pair!r}: want NAME=MODELS_DIR, NAME one of "
                             + ", ".join(BY_NAME))
        if not (Path(folder) / "tile_classifier.json").exists():
            raise SystemExit(f"error: --without {pair!r}: no model card in {folder}")
        out[name] = Path(folder)
    return out


def cmd_sets(args: argparse.Namespace, load: Callable[[argparse.Namespace], Any]) -> int:
    from tqdm import tqdm

    without = _without(args.without)
    chosen = [s for s in SETS if not args.only or s.name in args.only]
    if args.only and (unknown := set(args.only) - set(BY_NAME)):
        raise SystemExit(f"error: --only {sorted(unknown)}: known sets are " + ", ".join(BY_NAME))
    detect = None
    if args.peer:
        from vision.peer import PeerUnavailable, load_peer

        try:
            detect = load_peer(args.threads)
        except PeerUnavailable as err:
            print(f"peer: not measured: {err}", file=sys.stderr)
    readers: dict[Path | None, Any] = {}
    rows = []
    for s in chosen:
        try:
            entries = entries_of(args.photos, s)
        except FileNotFoundError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        entries = entries[: args.limit] if args.limit else entries
        folder = without.get(s.name)
        if folder not in readers:
            readers[folder] = load(argparse.Namespace(**{**vars(args), "models": folder or
                                                         args.models}))
        rec = readers[folder]
        cards = (rec.classifier.card, rec.finder.card)
        def bar(items: Sequence[LabelledImage], name: str = s.name) -> Any:
            return tqdm(items, desc=name, leave=False, disable=args.json)

        ours, peer = measure(entries, rec.read, detect, bar)
        rows.append({"set": s.name, "trainable": s.trainable,
                     "models": models_note(s, cards, folder), "ours": ours.summary(),
                     "peer": peer.summary() if peer else None})
    if args.json:
        print(json.dumps({"sets": rows, "threads": args.threads}))
    else:
        print("\n".join(table_lines(rows)))
    return 0
