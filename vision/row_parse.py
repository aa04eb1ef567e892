"""The least-cost reading of the main row, as the photo convention lays it out.

Takes the row's positions along it (tiles at one place stacked), which steps between them are
gaps, and each tile's cues (``Cues``: sideways log-odds, face-down flags, labels); gives the
cheapest ``RowParse``: how many positions are concealed, whether a winning tile follows, the
melds, and what is left over. Each cost is about the log-odds against one way of breaking the
convention, so every cue is weighed at once instead of trusting any one of them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.config import VisionConfig
from vision.kinds import is_set, kind_of, meld_kind
from vision.reading import MeldKind

# Costs of a reading of the main row, each about the log-odds against one way of breaking the
# photo convention; the reading with the least total wins (weights chosen on the synthetic
# tuning scenes, seeds 13 and 21, never on the held-out set).
COST_GAP_IN_HAND = 1.0  # a gap among the concealed tiles
COST_GAP_IN_MELD = 0.5  # a gap inside a meld (a slip, a point stick across the row)
COST_NO_GAP_BEFORE_WIN = 2.5  # a winning tile not set apart from the concealed tiles
COST_NO_GAP_BEFORE_MELDS = 1.0  # the first meld not set apart
COST_NO_GAP_BETWEEN_MELDS = 0.3  # players often push melds together
COST_NO_WINNING = 2.0  # no winning tile at all (a tenpai check shows 13 tiles in one block)
COST_FACE = 4.0  # a face-down tile anywhere but a closed kan's ends, or a face there
COST_NOT_A_SET = 3.0  # a meld whose top labels make no set (about a misread; decoding may mend it)
COST_COUNT = 1.0  # per tile the hand is off 14 (each kan counted as 3)
COST_LEFTOVER = 2.0  # per tile left after the last meld
COST_STACK = 3.0  # two tiles at one place anywhere but an added kan
COST_AGAINST_FLAG = 1.0  # without the grammar: a meld reading against a tile's sideways flag
COST_STRAY_IN_MELD = 2.5  # per place of a chi or pon with a tile stacked on it (a false box)
TIE_WINNING_STEP = 0.01  # per tile width of the step before the winning tile: near-ties only
HARD_FLAG = 10.0  # a face-down tile lying sideways
# the cues fail together at times (a called tile half hidden by its neighbour, every cue of a
# kakan's pair saying upright), and their log-odds, fitted on cleaner tiles, then run to -10:
# a tile's lie costs a reading at most this much, so the row's gaps and count can outvote it
COST_CUE_CAP = 2.0


@dataclass(frozen=True)
class Cues:
    """Per-tile evidence the row parse weighs."""

    score: np.ndarray  # sideways log-odds
    side: tuple[bool, ...]  # the cues' own flags
    face_down: list[bool]
    labels: Sequence[str]
    config: VisionConfig

    def cost(self, tile: int, sideways: bool) -> float:
        """-log P(the tile lies as said); a face-down tile never lies sideways."""
        if self.face_down[tile]:
            return HARD_FLAG if sideways else 0.0
        if not self.config.meld_grammar:
            return COST_AGAINST_FLAG if sideways != self.side[tile] else 0.0
        s = float(self.score[tile])
        return min(_softplus(-s if sideways else s), COST_CUE_CAP)


def _softplus(x: float) -> float:
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


@dataclass(frozen=True)
class _Meld:
    """One way some consecutive positions make a meld, and what it costs."""

    kind: MeldKind
    tiles: tuple[int, ...]
    called: tuple[int, ...]  # tiles lying sideways (a kakan's stacked pair)
    cost: float
    stray: tuple[int, ...] = ()  # tiles stacked on its positions that are not its own


def _meld_options(positions: list[list[int]], cues: Cues) -> list[_Meld]:
    """The ways 3 or 4 consecutive positions can be one meld, each with its cost."""
    kinds = [[kind_of(cues.labels[t]) for t in p] for p in positions]
    down = cues.face_down
    stacked = [k for k, p in enumerate(positions) if len(p) > 1]
    firsts = [p[0] for p in positions]
    options: list[_Meld] = []

    def with_one_called(
        kind: MeldKind, tiles: list[int], base: float, stray: tuple[int, ...] = ()
    ) -> _Meld:
        # the called tile: the likeliest by its log-odds (capped costs may tie), never face down
        called = max(tiles, key=lambda t: -math.inf if cues.face_down[t] else float(cues.score[t]))
        cost = base + sum(cues.cost(t, t == called) for t in tiles)
        return _Meld(kind, tuple(tiles), (called,), cost, stray)

    faces = sum(COST_FACE for t in firsts if down[t])
    if len(positions) == 4 and not stacked:
        ends = [firsts[0], firsts[3]]
        middle = [firsts[1], firsts[2]]
        closed = COST_FACE * (sum(not down[t] for t in ends) + sum(down[t] for t in middle))
        closed += sum(cues.cost(t, False) for t in firsts)
        closed += 0.0 if len({kinds[1][0], kinds[2][0]}) == 1 else COST_NOT_A_SET
        options.append(_Meld(MeldKind.ANKAN, tuple(firsts), (), closed))
        same = 0.0 if is_set([k[0] for k in kinds]) else COST_NOT_A_SET
        options.append(with_one_called(MeldKind.MINKAN, firsts, faces + same))
    elif len(positions) == 3 and len(stacked) == 1:
        pair = positions[stacked[0]]
        tiles = [t for p in positions for t in p]
        cost = faces + sum(cues.cost(t, t in pair[:2]) for t in tiles)
        cost += COST_STACK * (len(pair) - 2)
        cost += 0.0 if is_set([k for p in kinds for k in p][:4]) else COST_NOT_A_SET
        options.append(_Meld(MeldKind.KAKAN, tuple(tiles), tuple(pair[:2]), cost))
    if len(positions) == 3:  # a chi or pon; anything stacked on it is a false box or loose tile
        same = 0.0 if is_set([k[0] for k in kinds]) else COST_NOT_A_SET
        stray = tuple(t for p in positions for t in p[1:])
        cost = faces + same + COST_STRAY_IN_MELD * len(stacked)
        kind = meld_kind([cues.labels[t] for t in firsts], False, False)
        options.append(with_one_called(kind, firsts, cost, stray))
    return options


@dataclass(frozen=True)
class RowParse:
    """One parse of the main row: the first ``concealed`` positions, then (``winning``) one
    position, then the melds, then ``leftover`` positions."""

    cost: float
    concealed: int
    winning: bool
    melds: tuple[_Meld, ...]
    leftover: int


def parse_row(
    positions: list[list[int]], is_gap: list[bool], cues: Cues, steps: list[float]
) -> RowParse:
    """The least-cost reading of the row (``steps``: between positions, in tile widths). Of
    readings the cues weigh alike, the one whose winning tile stands apart the widest wins."""
    n_pos = len(positions)
    suffix: dict[int, dict[int, tuple[float, tuple[_Meld, ...], int]]] = {}

    def melds_from(s: int) -> dict[int, tuple[float, tuple[_Meld, ...], int]]:
        """Best (cost, melds, leftover) of positions ``s``.. per number of melds."""
        if s in suffix:
            return suffix[s]
        left = sum(len(p) for p in positions[s:])
        best: dict[int, tuple[float, tuple[_Meld, ...], int]] = {
            0: (COST_LEFTOVER * left, (), n_pos - s)
        }
        for size in (3, 4):
            if s + size > n_pos:
                continue
            inner = COST_GAP_IN_MELD * sum(is_gap[s : s + size - 1])
            after = 0.0
            if s + size < n_pos and not is_gap[s + size - 1]:
                after = COST_NO_GAP_BETWEEN_MELDS
            for meld in _meld_options(positions[s : s + size], cues):
                for k, (cost, rest, leftover) in melds_from(s + size).items():
                    total = meld.cost + inner + after + cost
                    if k + 1 not in best or total < best[k + 1][0] - 1e-9:
                        best[k + 1] = (total, (meld, *rest), leftover)
        suffix[s] = best
        return best

    def hand(k: int) -> float:
        p = positions[k]
        face = COST_FACE if cues.face_down[p[0]] else 0.0
        return face + cues.cost(p[0], False) + COST_STACK * (len(p) - 1)

    def tanki(c: int) -> bool:
        """One concealed tile beside a winning tile of its kind: whichever of the two won,
        the hand reads the same, so no gap is needed to tell them apart."""
        return c == 1 and len({kind_of(cues.labels[positions[k][0]]) for k in (0, 1)}) == 1

    found: RowParse | None = None
    hand_cost = 0.0
    for c in range(n_pos + 1):
        if c:
            hand_cost += hand(c - 1) + (COST_GAP_IN_HAND if c > 1 and is_gap[c - 2] else 0.0)
        for winning in (True, False):
            if winning and c == n_pos:
                continue
            cost = hand_cost
            start = c
            if winning:
                cost += hand(c)
                if c and not is_gap[c - 1] and not tanki(c):
                    cost += COST_NO_GAP_BEFORE_WIN
                if c:
                    cost -= TIE_WINNING_STEP * steps[c - 1]
                start = c + 1
            else:
                cost += COST_NO_WINNING
            if 0 < start < n_pos and not is_gap[start - 1] and (winning or c):
                cost += COST_NO_GAP_BEFORE_MELDS
            for k, (rest, melds, leftover) in melds_from(start).items():
                total = cost + rest + COST_COUNT * abs(c + winning + 3 * k - 14)
                if found is None or total < found.cost - 1e-9:
                    found = RowParse(total, c, winning, melds, leftover)
    assert found is not None
    return found
