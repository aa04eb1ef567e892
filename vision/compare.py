"""``python -m vision compare BEFORE... --after AFTER...``: two reads of the photo sets
(``sets --json``, one file or several a side) set by set, judged by the rule a model or a stage
ships under (docs/vision.md, "Stages measured"): a set loses where its photos exact or its photos
with every labelled tile right fall by two or more, or its recall or precision by more than one
tile's share (one labelled tile of the set, one box read; where a read lacks those counts, both
sides are taken at their 4-place figures and the share is one photo's, 1/N); the change is kept
only where no set loses and the recall summed over the sets rises. `valid` F1 on both kernels
is the ``evaluate`` command's to measure, not this one's.

A set read by models trained without it (``--without``) is its own row, apart from the same set
read by models trained on it, so a read of the shipped rows and one of the left-out rows can be
given as two files on each side.
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
from vision.catalogue import VISION
from vision.words import add_language, command

Key = tuple[str, bool]  # (set, read by models trained without it)
MAX_READ_BYTES = 16 * 1024 * 1024  # a read of every set is a few kB


class CompareError(ValueError):
    """A read that cannot be compared; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Row:
    """One set's figures in one read; with its counts (``right``, ``tiles``, ``read``: reads
    since they were written) recall and precision are taken from them, not from the 4-place
    figures, whose rounding is as large as one tile of a set of 5,000."""

    images: int
    recall: float
    precision: float
    exact: int  # photos
    labelled: int  # photos with every labelled tile right
    right: int | None = None  # labelled tiles read right
    tiles: int | None = None  # labelled tiles
    read: int | None = None  # boxes read

    @property
    def counted(self) -> bool:
        """Whether the read gave its counts."""
        return None not in (self.right, self.tiles, self.read)

    def recall_of(self, counted: bool = True) -> tuple[float, float]:
        """Recall and one tile's share of it; one photo's share (1/N) and the 4-place figure
        where the counts are not taken (``counted`` False) or not given."""
        if counted and self.right is not None and self.tiles is not None:
            return self.right / max(1, self.tiles), 1 / max(1, self.tiles)
        return self.recall, 1 / max(1, self.images)

    def precision_of(self, counted: bool = True) -> tuple[float, float]:
        """Precision and one box's share of it, as ``recall_of``."""
        if counted and self.right is not None and self.read is not None:
            return self.right / max(1, self.read), 1 / max(1, self.read)
        return self.precision, 1 / max(1, self.images)


@dataclass(frozen=True)
class Change:
    """One set read before and after, and the figures it loses by the rule."""

    key: Key
    before: Row
    after: Row

    def recalls(self) -> tuple[float, float, float]:
        """Recall before and after and one tile's share (``both``)."""
        return self.both(Row.recall_of)

    def precisions(self) -> tuple[float, float, float]:
        """Precision before and after and one box's share (``both``)."""
        return self.both(Row.precision_of)

    def both(self, figure: Callable[[Row, bool], tuple[float, float]]
             ) -> tuple[float, float, float]:
        """A figure before and after and one count's share: by the counts only where both reads
        give them, else both by their 4-place figures (a rounding is no change)."""
        counted = self.before.counted and self.after.counted
        (before, share), (after, _) = figure(self.before, counted), figure(self.after, counted)
        return before, after, share

    @property
    def loses(self) -> tuple[str, ...]:
        b, a = self.before, self.after
        (rb, ra, tile), (pb, pa, box) = self.recalls(), self.precisions()
        return tuple(name for name, lost in (
            ("exact", a.exact - b.exact <= -2),
            ("labelled", a.labelled - b.labelled <= -2),
            ("recall", rb - ra > tile + 1e-9),
            ("precision", pb - pa > box + 1e-9),
        ) if lost)


def _row(ours: dict[str, Any]) -> Row:
    """A row of figures; ValueError names a figure out of its range."""
    n = int(ours["images"])
    shares = {k: float(ours[k]) for k in ("recall", "precision", "exact_images",
                                          "labelled_right_images")}
    counts = {k: None if ours.get(k) is None else int(ours[k])
              for k in ("right", "tiles", "read")}
    if n < 0 or any(c is not None and c < 0 for c in counts.values()):
        raise ValueError("a count below 0")
    if bad := [k for k, v in shares.items() if not 0 <= v <= 1]:  # NaN too
        raise ValueError(f"{', '.join(bad)} outside 0..1")
    return Row(n, shares["recall"], shares["precision"], round(shares["exact_images"] * n),
               round(shares["labelled_right_images"] * n), **counts)


def _left_out(row: dict[str, Any]) -> bool:
    """Whether models trained without the set read it (a read older than ``left_out`` says so
    in its English ``models`` note)."""
    note = VISION.t("sets.without_it", "en", models="")  # the JSON's note is English
    return bool(row.get("left_out", str(row.get("models", "")).startswith(note)))


def load_rows(paths: Sequence[Path]) -> dict[Key, Row]:
    """Every set's row in the reads at `paths`; CompareError names a file that is no read of
    the sets, or a set read twice alike."""
    rows: dict[Key, Row] = {}
    for path in paths:
        try:
            if path.stat().st_size > MAX_READ_BYTES:
                raise CompareError(f"{path}: over {MAX_READ_BYTES // 2**20} MB, no read of the "
                                   "sets")
            sets = json.loads(path.read_text(encoding="utf-8"))["sets"]
            found = [((str(s["set"]), _left_out(s)), _row(s["ours"])) for s in sets]
        except CompareError:
            raise
        except OSError as err:
            raise CompareError(f"{path}: {err.strerror or err}") from None
        except (ValueError, KeyError, TypeError) as err:
            raise CompareError(f"{path}: not a `python -m vision sets --json` read "
                               f"({type(err).__name__}: {err})") from None
        for key, row in found:
            if key in rows:
                raise CompareError(f"{path}: {key[0]} is read twice"
                                   + (" (left out)" if key[1] else ""))
            rows[key] = row
    return rows


def compare(before: dict[Key, Row], after: dict[Key, Row]) -> list[Change]:
    """The sets read on both sides, in the order of `after`."""
    return [Change(k, before[k], a) for k, a in after.items() if k in before]


def recall_rise(changes: Sequence[Change]) -> float:
    """The recall summed over the sets, after less before (from the counts where read)."""
    return sum(after - before for before, after, _ in (c.recalls() for c in changes))


def kept(changes: Sequence[Change]) -> bool:
    """No set loses and the recall summed over the sets rises."""
    return bool(changes) and not any(c.loses for c in changes) and recall_rise(changes) > 1e-9


def _name(key: Key, lang: str) -> str:
    return VISION.t("compare.left_out", lang, set=key[0]) if key[1] else key[0]


def table_lines(changes: Sequence[Change], lang: str = "en") -> list[str]:
    """One line a set: each figure before -> after, and what it loses."""
    heads = [VISION.t(f"compare.column.{c}", lang)
             for c in ("set", "recall", "precision", "exact", "labelled", "loses")]
    cells = [[_name(c.key, lang),
              f"{c.before.recall:.4f} -> {c.after.recall:.4f}",
              f"{c.before.precision:.4f} -> {c.after.precision:.4f}",
              f"{c.before.exact} -> {c.after.exact}",
              f"{c.before.labelled} -> {c.after.labelled}",
              ", ".join(VISION.t(f"compare.figure.{f}", lang) for f in c.loses) or "-"]
             for c in changes]
    widths = [max(columns(r[i]) for r in [heads, *cells]) for i in range(len(heads))]
    lines = [" ".join(pad(t, w, 0 < i < 5) for i, (t, w) in enumerate(zip(r, widths,
                                                                          strict=True)))
             for r in [heads, *cells]]
    return [lines[0], "-" * columns(lines[0]), *lines[1:]]


def add_compare_command(sub: Any, lang: str = "en") -> None:
    p = command(sub, "compare", lang, described=True)
    p.add_argument("before", type=Path, nargs="+", metavar="BEFORE",
                   help=VISION.t("help.compare.before", lang))
    p.add_argument("--after", type=Path, nargs="+", required=True, metavar="AFTER",
                   help=VISION.t("help.compare.after", lang))
    p.add_argument("--json", action="store_true", help=VISION.t("help.json", lang))
    add_language(p, lang, everywhere=True)
    p.set_defaults(func=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    """0: the change is kept by the rule; 1: it is not; 2: a read cannot be compared."""
    lang = language(getattr(args, "language", None))
    try:
        before, after = load_rows(args.before), load_rows(args.after)
    except CompareError as err:
        print(VISION.t("error", lang, error=err), file=sys.stderr)
        return 2
    changes = compare(before, after)
    unmatched = sorted(_name(k, lang) for k in before.keys() ^ after.keys())
    rise, verdict = recall_rise(changes), kept(changes)
    if args.json:  # English keys, as other tools read them
        print(json.dumps({"sets": [{"set": c.key[0], "left_out": c.key[1], "loses": c.loses}
                                   for c in changes],
                          "recall_summed": round(rise, 4), "unmatched": unmatched,
                          "kept": verdict}))
    else:
        print("\n".join(table_lines(changes, lang)))
        print(VISION.t("compare.summed", lang, rise=f"{rise:+.4f}"))
        if unmatched:
            print(VISION.t("compare.unmatched", lang, sets=", ".join(unmatched)))
        print(VISION.t("compare.kept" if verdict else "compare.not_kept", lang))
    return 0 if verdict else 1
