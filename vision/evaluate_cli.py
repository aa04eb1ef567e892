"""``python -m vision evaluate``: the reader measured on a labelled manifest (``vision.evaluate``),
split by split, beside the peer where asked; a table in the language chosen, or one JSON object
with the English keys other tools read."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from scorer.words import columns, language, pad
from vision.words import VISION, add_language, command

Load = Callable[[argparse.Namespace], Any]  # -> Recogniser

#: The figures of ``Totals.summary`` the table shows, in order; each one's words are the
#: catalogue's ``metric.<figure>``.
FIGURES = (
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
)


def add_evaluate_command(sub: Any, load: Load, lang: str = "en") -> None:
    """``evaluate`` on ``python -m vision``'s sub-parsers, its help in `lang`; ``load`` gives
    the recogniser from the common options."""
    p = command(sub, "evaluate", lang)
    p.add_argument("manifest", type=Path, help=VISION.t("help.manifest", lang))
    p.add_argument("--split", default=None, help=VISION.t("help.evaluate.split", lang))
    p.add_argument("--peer", action="store_true", help=VISION.t("help.evaluate.peer", lang))
    p.add_argument("--limit", type=int, default=0, help=VISION.t("help.evaluate.limit", lang))
    p.add_argument("--json", action="store_true", help=VISION.t("help.json", lang))
    p.add_argument("--taught", type=Path, default=None, help=VISION.t("help.taught", lang))
    add_language(p, lang, everywhere=True)
    p.set_defaults(func=lambda args: cmd_evaluate(args, load))


def table_lines(rows: dict[str, dict | None], lang: str = "en") -> list[str]:
    """One column a reader (``ours``, ``peer``), one line a figure measured, then the
    confusions of each (labelled -> read)."""
    names = list(rows)
    heads = [VISION.t(f"evaluate.{n}", lang) for n in names]
    shown = {k: VISION.t(f"metric.{k}", lang) for k in FIGURES
             if any((rows[n] or {}).get(k) is not None for n in names)}
    width = max([22, *(columns(label) + 1 for label in shown.values())])
    out = [" " * width + "".join(pad(h, 16, right=True) for h in heads)]
    for k, label in shown.items():
        vals = [(rows[n] or {}).get(k) for n in names]
        out.append(pad(label, width) + "".join(
            pad("-" if v is None else str(v), 16, right=True) for v in vals))
    for n, head in zip(names, heads, strict=True):
        if rows[n] and rows[n].get("confusions"):
            pairs = ", ".join(f"{a}->{b} x{c}" for a, b, c in rows[n]["confusions"])
            out.append(VISION.t("evaluate.confusions", lang, reader=head, pairs=pairs))
    return out


def _print_table(rows: dict[str, dict | None], lang: str) -> None:
    print("\n".join(table_lines(rows, lang)))


def _latency_ratio(ours: dict | None, peer: dict | None) -> float | None:
    if not ours or not peer or not peer.get("median_latency_ms"):
        return None
    return float(ours["median_latency_ms"]) / float(peer["median_latency_ms"])


def cmd_evaluate(args: argparse.Namespace, load: Load) -> int:
    from tqdm import tqdm

    from vision.evaluate import Totals, evaluate_reader, evaluate_side_by_side
    from vision.manifest import iter_splits, read_manifest

    lang = language(getattr(args, "language", None))
    entries = read_manifest(args.manifest, [args.split] if args.split else None)
    if args.limit:
        entries = entries[: args.limit]
    if not entries:
        print(VISION.t("evaluate.no_images", lang, manifest=args.manifest,
                       split=repr(args.split)), file=sys.stderr)
        return 2
    rec = load(args)
    detect = None
    peer_note = None
    if args.peer:
        from vision.peer import PeerUnavailable, load_peer

        try:
            detect = load_peer(args.threads)
        except PeerUnavailable as err:
            peer_note = str(err)
            print(VISION.t("peer.unavailable", lang, why=peer_note), file=sys.stderr)

    def bar(items: Sequence[Any]) -> Any:
        return tqdm(items, desc=VISION.t("progress.images", lang), leave=False,
                    disable=args.json)

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
            name = split or VISION.t("evaluate.no_split", lang)
            print(VISION.t("evaluate.split", lang, split=name, n=len(items),
                           manifest=args.manifest))
            _print_table({"ours": per_split[split]["ours"],
                          **({"peer": per_split[split]["peer"]} if peer else {})}, lang)
    all_ours = ours_all.summary()
    all_peer = peer_all.summary() if detect else None
    if not args.json and len(per_split) > 1:
        print(VISION.t("evaluate.all", lang, n=len(entries)))
        _print_table({"ours": all_ours, **({"peer": all_peer} if all_peer else {})}, lang)
    if not args.json and peer_note:
        print(VISION.t("peer.not_measured", lang, why=peer_note))
    ratio = _latency_ratio(all_ours, all_peer)
    if not args.json and ratio is not None:
        print(VISION.t("evaluate.latency_ratio", lang, ratio=f"{ratio:.2f}", n=args.threads))
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
