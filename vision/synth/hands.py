"""Random riichi winning layouts: concealed tiles, winning tile, melds and dora indicators.

Hands are plausible (four sets and a pair, at most four copies of a tile, at most one red five per
suit) so the scenes look like what players show; the renderer does not need them to be legal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from scorer.tiles import MODEL_CLASSES

FACES = tuple(c for c in MODEL_CLASSES if c[0] != "0" and c != "back")  # the 34 kinds
MELD_KINDS = ("chi", "pon", "minkan", "ankan", "kakan")


@dataclass(frozen=True)
class MeldSpec:
    """A called set as it lies on the table; ``called`` is the index of the sideways tile."""

    kind: str
    tiles: tuple[str, ...]
    called: int | None  # None for ankan (no called tile)


@dataclass(frozen=True)
class HandSpec:
    """What a scene shows, in the order the player lays it out."""

    concealed: tuple[str, ...]
    winning: str | None
    melds: tuple[MeldSpec, ...]
    dora: tuple[str, ...]

    def layout_json(self) -> dict[str, object]:
        return {
            "concealed": list(self.concealed),
            "winning": self.winning,
            "melds": [{"kind": m.kind, "tiles": list(m.tiles)} for m in self.melds],
            "dora": list(self.dora),
        }


def _kind(label: str) -> str:
    return ("5" + label[1]) if label[0] == "0" else label


def _redden(tiles: list[str], rng: random.Random, p: float) -> list[str]:
    """Turn at most one five per suit red, each with probability ``p``."""
    out = list(tiles)
    for suit in "mps":
        idx = [i for i, t in enumerate(out) if t == f"5{suit}"]
        if idx and rng.random() < p:
            out[rng.choice(idx)] = f"0{suit}"
    return out


#: How often a hand shows 0, 1, 2, 3 or 4 melds (the held-out set's mix).
MELD_MIX = (30, 30, 22, 12, 6)


def random_hand(
    rng: random.Random, red_p: float = 0.35, meld_mix: tuple[int, ...] = MELD_MIX
) -> HandSpec:
    """A random winning layout with 0-4 melds (weighted by ``meld_mix``) and 1-3 dora
    indicators."""
    counts: dict[str, int] = {}

    def take(label: str, n: int) -> bool:
        if counts.get(label, 0) + n > 4:
            return False
        counts[label] = counts.get(label, 0) + n
        return True

    n_melds = rng.choices([0, 1, 2, 3, 4], weights=meld_mix)[0]
    sets: list[tuple[str, list[str]]] = []
    while len(sets) < 4:
        if rng.random() < 0.5:
            suit, start = rng.choice("mps"), rng.randint(1, 7)
            run = [f"{start + i}{suit}" for i in range(3)]
            if all(counts.get(t, 0) < 4 for t in run):
                for t in run:
                    take(t, 1)
                sets.append(("chi", run))
        else:
            t = rng.choice(FACES)
            if take(t, 3):
                sets.append(("pon", [t] * 3))
    while True:
        pair = rng.choice(FACES)
        if take(pair, 2):
            break
    melds: list[MeldSpec] = []
    concealed: list[str] = [pair, pair]
    for i, (shape, tiles) in enumerate(sets):
        if i < n_melds:
            kind = (
                "chi" if shape == "chi" else rng.choice(["pon", "pon", "minkan", "ankan", "kakan"])
            )
            if kind in ("minkan", "ankan", "kakan") and not take(tiles[0], 1):
                kind = "pon"
            if kind in ("minkan", "ankan", "kakan"):
                tiles = tiles + [tiles[0]]
            called = None if kind == "ankan" else rng.randrange(3 if kind != "minkan" else 4)
            melds.append(MeldSpec(kind, tuple(tiles), called))
        else:
            concealed.extend(tiles)
    win_i = rng.randrange(len(concealed))
    winning = concealed.pop(win_i)
    reds = _redden(concealed + [winning] + [t for m in melds for t in m.tiles], rng, red_p)
    concealed_r = sorted(reds[: len(concealed)], key=lambda t: (t[1], int(_kind(t)[0])))
    winning_r = reds[len(concealed)]
    pos = len(concealed) + 1
    melds_r = []
    for m in melds:
        melds_r.append(MeldSpec(m.kind, tuple(reds[pos : pos + len(m.tiles)]), m.called))
        pos += len(m.tiles)
    dora = tuple(rng.choice(FACES) for _ in range(rng.choices([0, 1, 2, 3], [25, 45, 20, 10])[0]))
    return HandSpec(tuple(concealed_r), winning_r, tuple(melds_r), dora)


def random_row(rng: random.Random, n: int) -> HandSpec:
    """About ``n`` tiles drawn evenly from all 38 classes (balanced classifier data).

    Part of them lie in called sets (one sideways tile each) and closed kans (face down), so
    every class is seen upright and sideways; labels ignore hand legality on purpose.
    """
    faces = [c for c in MODEL_CLASSES if c != "back"]
    melds = []
    for _ in range(rng.choice([0, 1, 1, 2])):
        if rng.random() < 0.25:
            melds.append(MeldSpec("ankan", tuple(rng.choice(faces) for _ in range(4)), None))
        else:
            melds.append(
                MeldSpec("pon", tuple(rng.choice(faces) for _ in range(3)), rng.randrange(3))
            )
    rest = max(3, n - sum(len(m.tiles) for m in melds))
    labels = [rng.choice(faces) for _ in range(rest)]
    return HandSpec(tuple(labels[:-1]), labels[-1], tuple(melds), ())
