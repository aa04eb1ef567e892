"""Figures set by set: each real photo source read by the recogniser, one row a set.

A figure means something only on photos of a tile set the models never learned and nobody tuned
on. The sources of the team's photo folder are known here by name: those we may train on are
read as "trained on" and again by classifiers trained without them (leave-one-source-out: the
models folder's ``left-out/NAME``, or ``--without NAME=DIR``); the evaluation-only ones are never
trained on. A set whose labels name its tiles without boxes is scored by the tiles read against
the tiles labelled (a multiset), the others by boxes (IoU >= 0.5); both as ``vision.evaluate``
scores them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorer.words import columns, language, pad
from vision.evaluate import Detection, Totals, evaluate_reader, evaluate_side_by_side
from vision.manifest import LabelledImage, read_manifest
from vision.reading import Reading
from vision.words import VISION, add_language, command, cut


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
#: ``<models>/left-out/<set>/``: classifiers trained without the set (the finders learned it)
LEFT_OUT = "left-out"


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


def manifest_of(photos: Path, s: PhotoSet) -> Path:
    return photos / s.name / "manifest.jsonl"


def entries_of(photos: Path, s: PhotoSet) -> list[LabelledImage]:
    """The set's measured photos; FileNotFoundError naming the manifest where it is absent."""
    manifest = manifest_of(photos, s)
    if not manifest.exists():
        raise FileNotFoundError(f"{s.name}: no manifest at {manifest}")
    return read_manifest(manifest, s.splits)


#: The table's columns: the catalogue's ``sets.column.<name>`` heads each, at least `width`
#: columns wide (wider where its words are), numbers to the right.
COLUMNS = (("set", 29, False), ("models", 22, False), ("photos", 6, True), ("recall", 7, True),
           ("precision", 7, True), ("exact", 7, True), ("labelled", 8, True),
           ("peer_recall", 9, True), ("peer_exact", 8, True))


def table_lines(rows: Sequence[dict[str, Any]], lang: str = "en") -> list[str]:
    """The table: one line a set, ours and (where measured) the peer's figures; its models
    column cut to its width (``models`` as the row gives it: `models_note` in `lang`)."""
    heads = [VISION.t(f"sets.column.{name}", lang) for name, _, _ in COLUMNS]
    widths = [max(width, columns(head)) for head, (_, width, _) in zip(heads, COLUMNS, strict=True)]

    def line(cells: Sequence[str]) -> str:
        return " ".join(pad(text, width, right) for text, width, (_, _, right)
                        in zip(cells, widths, COLUMNS, strict=True))

    head = line(heads)
    out = [head, "-" * columns(head)]
    for r in rows:
        o, p = r["ours"], r.get("peer") or {}
        out.append(line([
            r["set"], cut(r["models"], widths[1]), str(o["images"]), f"{o['recall']:.3f}",
            f"{o['precision']:.3f}", f"{o['exact_images']:.1%}",
            f"{o['labelled_right_images']:.1%}",
            *((f"{p['recall']:.3f}", f"{p['exact_images']:.1%}") if p else ("-", "-"))]))
    return out


def models_note(s: PhotoSet, cards: Sequence[dict[str, Any]], without: Path | None,
                lang: str = "en") -> str:
    """What the models reading the set learned of it, in `lang` (the JSON's in English)."""
    if without is not None:  # a folder named after the set is named by where it lies
        name = without.parent.name if without.name == s.name else without.name
        return VISION.t("sets.without_it", lang, models=name)
    if any(s.name in trained_on(card) for card in cards):
        return VISION.t("sets.trained_on_valid" if s.splits else "sets.trained_on", lang)
    return VISION.t("sets.tuned_on" if s.tuned else "sets.never_trained_on", lang)


def add_sets_command(sub: Any, load: Callable[[argparse.Namespace], Any],
                     lang: str = "en") -> None:
    p = command(sub, "sets", lang, described=True)
    p.add_argument("photos", type=Path, help=VISION.t("help.sets.photos", lang))
    p.add_argument("--only", action="append", default=None, metavar="NAME",
                   help=VISION.t("help.sets.only", lang))
    p.add_argument("--without", action="append", default=[], metavar="NAME=MODELS_DIR",
                   help=VISION.t("help.sets.without", lang))
    p.add_argument("--limit", type=int, default=0, help=VISION.t("help.sets.limit", lang))
    p.add_argument("--peer", action="store_true", help=VISION.t("help.sets.peer", lang))
    p.add_argument("--json", action="store_true", help=VISION.t("help.json", lang))
    add_language(p, lang, everywhere=True)
    p.set_defaults(func=lambda args: cmd_sets(args, load))


def left_out_folders(models: Path) -> dict[str, Path]:
    """The trainable sets whose classifiers trained without them lie in ``models/left-out``."""
    return {s.name: folder for s in SETS if s.trainable
            and ((folder := models / LEFT_OUT / s.name) / "tile_classifier.json").exists()}


def _without(pairs: Sequence[str], lang: str) -> dict[str, Path]:
    out = {}
    for pair in pairs:
        name, sep, folder = pair.partition("=")
        if not sep or name not in BY_NAME:
            raise SystemExit(VISION.t("sets.without_form", lang, pair=repr(pair),
                                      names=", ".join(BY_NAME)))
        if not (Path(folder) / "tile_classifier.json").exists():
            raise SystemExit(VISION.t("sets.without_card", lang, pair=repr(pair),
                                      folder=folder))
        out[name] = Path(folder)
    return out


def cmd_sets(args: argparse.Namespace, load: Callable[[argparse.Namespace], Any]) -> int:
    from tqdm import tqdm

    from vision.recogniser import default_models_dir

    lang = language(getattr(args, "language", None))
    models = args.models or default_models_dir()
    without = {**left_out_folders(models), **_without(args.without, lang)}
    chosen = [s for s in SETS if not args.only or s.name in args.only]
    if args.only and (unknown := set(args.only) - set(BY_NAME)):
        raise SystemExit(VISION.t("sets.unknown", lang, names=sorted(unknown),
                                  known=", ".join(BY_NAME)))
    detect = None
    if args.peer:
        from vision.peer import PeerUnavailable, load_peer

        try:
            detect = load_peer(args.threads)
        except PeerUnavailable as err:
            print(VISION.t("peer.not_measured", lang, why=err), file=sys.stderr)
    readers: dict[Path | None, Any] = {}
    rows, shown = [], []
    for s in chosen:
        try:
            entries = entries_of(args.photos, s)
        except FileNotFoundError:
            print(VISION.t("sets.no_manifest", lang, set=s.name,
                           manifest=manifest_of(args.photos, s)), file=sys.stderr)
            return 2
        entries = entries[: args.limit] if args.limit else entries

        def bar(items: Sequence[LabelledImage], name: str = s.name) -> Any:
            return tqdm(items, desc=name, leave=False, disable=args.json)

        for folder in (None, without[s.name]) if s.name in without else (None,):
            if folder not in readers:  # a left-out folder's classifiers, the finders as given
                readers[folder] = load(argparse.Namespace(**vars(args), classifiers=folder))
            rec = readers[folder]
            ours, peer = measure(entries, rec.read, detect, bar)
            rows.append({"set": s.name, "trainable": s.trainable, "left_out": folder is not None,
                         "models": models_note(s, rec.cards, folder), "ours": ours.summary(),
                         "peer": peer.summary() if peer else None})
            shown.append({**rows[-1], "models": models_note(s, rec.cards, folder, lang)})
    if args.json:  # English, as other tools read it
        print(json.dumps({"sets": rows, "threads": args.threads}))
    else:
        print("\n".join(table_lines(shown, lang)))
    return 0
