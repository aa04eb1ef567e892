"""Lay out: group located tiles into the shown hand (concealed, winning tile, melds, dora row).

Takes each tile's pose (``TilePose``: box, long axis, face-down flag, glyph axis) and top label;
gives a ``Layout``: the grouping, each tile's sideways flag and the problems noticed. Positions
come from geometry only (centres, the tiles' long-axis direction, face-down flags), so the result
is the same whichever way the row runs in the frame. The photo convention (docs/photo-layout.md):
one row of concealed tiles, a gap, the winning tile, then the called melds as they lie (the called
tile sideways, a closed kan with its two outer tiles face down); optionally a second row of dora
indicators. The main row is read by a least-cost parse that weighs every cue at once (gaps,
sideways log-odds, face-down tiles, whether a meld's labels make a set, the 14-tile count):
``row_parse``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.config import VisionConfig
from vision.kinds import meld_kind
from vision.problems import (
    AWAY,
    EXTRA_GAPS,
    EXTRA_ROW,
    FACE_DOWN,
    GAP_KEYS,
    GRAMMAR,
    LEFTOVER,
    MELD_SIDEWAYS,
    NO_TILES,
    NO_WINNING_GAP,
    ON_CONCEALED,
    ON_MELD,
    Problem,
)
from vision.reading import Grouping, MeldKind, MeldReading
from vision.row_parse import Cues, parse_row


@dataclass(frozen=True)
class TilePose:
    """Geometry of one located tile; ``angle`` is its long axis (radians, modulo pi)."""

    box: tuple[float, float, float, float]
    angle: float
    strength: float  # 0..1: how much ``angle`` can be trusted
    face_down: bool
    glyph_vertical: float | None = None  # classifier: chance the glyph's axis is vertical ...
    glyph_turn: float = 0.0  # ... in its crop, turned this much (radians) from the frame

    @property
    def centre(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2, (y1 + y2) / 2)


@dataclass(frozen=True)
class Layout:
    """Grouping plus the per-tile sideways flags and what could not be resolved."""

    grouping: Grouping
    sideways: tuple[bool, ...]
    problems: tuple[Problem, ...]
    row_angle: float
    grammar_fixed: tuple[int, ...] = ()  # tiles whose sideways flag the meld grammar changed


def gap_problem(problem: Problem) -> bool:
    """Whether a reading's problem is only about the gaps between the concealed tiles (every
    photo of tiles not laid out as a win has one), not about the tiles read."""
    return problem.key in GAP_KEYS


def found_row_angle(found: Sequence[Any]) -> float:
    """``row_angle`` of located candidates (their boxes and the finder's long axes), before
    anything is known of which lie face down."""
    return row_angle([TilePose(c.box, c.angle, c.orientation_strength, False) for c in found])


def row_angle(poses: Sequence[TilePose]) -> float:
    """Direction the main row runs (radians): across the tiles' mean long axis when the finder
    is sure of it, else the principal axis of the centres; then refined by the directions
    from tiles to their nearest neighbours along it (a row's centres fix it to a degree or so,
    where the long axes scatter by several and tilt a long row across the dora row's gap)."""
    pts = np.array([p.centre for p in poses], np.float64).reshape(-1, 2)
    c = sum(p.strength * math.cos(2 * p.angle) for p in poses)
    s = sum(p.strength * math.sin(2 * p.angle) for p in poses)
    if poses and math.hypot(c, s) > 0.3 * len(poses):
        rough = (0.5 * math.atan2(s, c) + math.pi / 2) % math.pi
    elif len(pts) < 2:
        return 0.0
    else:
        centred = pts - pts.mean(axis=0)
        _, vecs = np.linalg.eigh(centred.T @ centred)
        vx, vy = vecs[:, -1]
        rough = math.atan2(vy, vx) % math.pi
    return _along_neighbours(pts, rough)


def _along_neighbours(pts: np.ndarray, rough: float, within: float = math.radians(25)) -> float:
    """Median direction (mod pi) from each tile to its nearest neighbour, over the neighbours
    lying within ``within`` of ``rough`` (the median ignores the few steps to a sideways tile,
    whose centre sits off the line); ``rough`` itself when fewer than three do."""
    if len(pts) < 4:
        return rough
    d = pts[:, None] - pts[None]
    dist = np.hypot(d[..., 0], d[..., 1])
    np.fill_diagonal(dist, np.inf)
    step = d[np.arange(len(pts)), dist.argmin(axis=1)]
    doubled = 2 * np.arctan2(step[:, 1], step[:, 0])
    off = np.angle(np.exp(1j * (doubled - 2 * rough)))
    keep = np.abs(off) < 2 * within
    if keep.sum() < 3:
        return rough
    return float((rough + 0.5 * float(np.median(off[keep]))) % math.pi)


def sideways_scores(poses: Sequence[TilePose], angle: float, config: VisionConfig) -> np.ndarray:
    """Log-odds that each tile lies sideways (long axis along the row), from three cues:

    - box: log(extent along / across the row) of the finder's box, minus the median of all
      tiles (most stand upright); a sideways tile's box is longer along the row than the rest.
      Near 45 degrees every box is square and the cue fades by itself;
    - axis: the finder's long-axis direction against the row, scaled by its strength;
    - glyph: the classifier's glyph-axis head, trusted fully only when the row runs along an
      axis of the tile's crop (a frame axis, or any angle once the crop is turned with the
      row), not at all at 45 degrees to it.

    The weights (``VisionConfig.sideways_*``) were fitted by logistic regression on synthetic
    tuning scenes (seeds 13 and 21), never on the held-out set.
    """
    n = len(poses)
    if n == 0:
        return np.zeros(0)
    ca, sa = abs(math.cos(angle)), abs(math.sin(angle))
    boxes = np.array([p.box for p in poses], np.float64)
    w = np.maximum(boxes[:, 2] - boxes[:, 0], 1e-3)
    h = np.maximum(boxes[:, 3] - boxes[:, 1], 1e-3)
    ratio = np.log((ca * w + sa * h) / (sa * w + ca * h))
    box = ratio - float(np.median(ratio))
    axis = np.array([(2 * abs(math.cos(p.angle - angle)) - 1) * p.strength for p in poses])
    glyph = np.zeros(n)
    for i, p in enumerate(poses):
        if p.glyph_vertical is not None:
            cr = abs(math.cos(angle - p.glyph_turn))  # the row against the crop's x axis
            along = p.glyph_vertical if cr < math.sqrt(0.5) else 1 - p.glyph_vertical
            along = min(max(along, 0.01), 0.99)
            glyph[i] = abs(2 * cr * cr - 1) * math.log(along / (1 - along))
    return (
        config.sideways_box_weight * box
        + config.sideways_axis_weight * axis
        + config.sideways_glyph_weight * glyph
        + config.sideways_bias
    )


def _unit(centres: np.ndarray) -> float:
    """Typical tile width: the median distance from each centre to its nearest neighbour."""
    if len(centres) < 2:
        return 1.0
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(d, np.inf)
    return float(np.median(d.min(axis=1)))


def group_tiles(poses: Sequence[TilePose], labels: Sequence[str], config: VisionConfig) -> Layout:
    """Group tiles; indices in the result refer to ``poses`` / ``labels``."""
    n = len(poses)
    if n == 0:
        return Layout(Grouping(), (), (Problem.of(NO_TILES),), 0.0)
    # the hand is shown face up: a wall's face-down row, longer than the hand, says nothing of
    # the hand's direction and is never the hand (a closed kan shows two faces of four)
    faces = [p for p in poses if not p.face_down]
    angle = row_angle(faces if len(faces) >= 3 else poses)
    score = sideways_scores(poses, angle, config)
    side = tuple(bool(score[i] > 0) and not p.face_down for i, p in enumerate(poses))
    centres = np.array([p.centre for p in poses], np.float64)
    unit = _unit(centres)
    u_vec = np.array([math.cos(angle), math.sin(angle)])
    if u_vec[0] < -1e-6 or (abs(u_vec[0]) <= 1e-6 and u_vec[1] < 0):
        u_vec = -u_vec  # default reading direction: left to right, else top to bottom
    v_vec = np.array([-u_vec[1], u_vec[0]])
    u, v = centres @ u_vec, centres @ v_vec
    rows = _split_rows(list(range(n)), v, config.row_split * unit)
    main = max(rows, key=lambda r: (sum(not poses[i].face_down for i in r), len(r)))
    # a tile far off the main row's line joined it through a kakan's stacked tile (rows are
    # split on jumps between neighbours): it belongs to a row of its own, e.g. the dora row
    line = float(np.median(v[main]))
    off_line = [i for i in main if abs(v[i] - line) > config.row_split * unit]
    others = [r for r in rows if r is not main] + _split_rows(off_line, v, config.row_split * unit)
    main = [i for i in main if i not in off_line]
    cues = Cues(score, side, [p.face_down for p in poses], labels, config)
    forward = _read_row(u, v, main, others, unit, angle, cues)
    backward = _read_row(-u, v, main, others, unit, angle, cues)
    return backward[1] if backward[0] < forward[0] - 1e-9 else forward[1]


def _split_rows(tiles: list[int], v: np.ndarray, jump: float) -> list[list[int]]:
    """Tiles sorted across the row direction, cut where neighbours lie more than ``jump`` apart."""
    rows: list[list[int]] = []
    last = -math.inf
    for i in sorted(tiles, key=lambda i: v[i]):
        if v[i] - last > jump or not rows:
            rows.append([])
        rows[-1].append(i)
        last = v[i]
    return rows


def _percentile(values: list[float], q: float) -> float:
    """numpy's default (linear) percentile, ``q`` in 0..1, for the few values of a row's steps
    (numpy's own call costs more than the sort)."""
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    lo = int(at)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (at - lo)


def _read_row(
    u: np.ndarray,
    v: np.ndarray,
    main: list[int],
    others: list[list[int]],
    unit: float,
    angle: float,
    cues: Cues,
) -> tuple[float, Layout]:
    """Read the main row from its low-``u`` end (concealed tiles, winning tile, melds), plus the
    dora row; returns the reading's cost and the layout."""
    config = cues.config
    side = cues.side
    problems: list[Problem] = []
    extent = [(4 / 3 if side[i] else 1.0) * unit for i in range(len(side))]
    # positions: a kakan's added tile lies on top of the called one (same place along the row)
    positions: list[list[int]] = []
    for i in sorted(main, key=lambda i: u[i]):
        if positions and abs(u[i] - u[positions[-1][0]]) < 0.45 * unit:
            positions[-1].append(i)
        else:
            positions.append([i])
    # a face-down tile lies only at a closed kan's ends, three places from the other: one with
    # no other face-down tile there is no tile of the hand (a patch of table the colour of the
    # tiles' backs in a gap, a finger)
    lone = [
        j
        for j, p in enumerate(positions)
        if cues.face_down[p[0]]
        and not any(
            0 <= k < len(positions) and cues.face_down[positions[k][0]] for k in (j - 3, j + 3)
        )
    ]
    set_aside = [t for j in lone for t in positions[j]]
    if set_aside:
        positions = [p for j, p in enumerate(positions) if j not in lone]
    line = float(np.median(v[main]))
    for pos in positions:  # the tile nearest the row's line first
        pos.sort(key=lambda i: abs(v[i] - line))
    # gaps are measured against the steps nearby (in tile widths, a sideways tile 4/3), so
    # tiles growing toward a low camera open no false gaps; a low percentile, as gaps only add
    steps = [
        (u[b[0]] - u[a[0]]) / ((extent[a[0]] + extent[b[0]]) / 2 / unit)
        for a, b in zip(positions[:-1], positions[1:], strict=True)
    ]
    is_gap = []
    for j, step in enumerate(steps):
        near = steps[max(0, j - 4) : j + 5]
        local = _percentile(near, 0.3) if len(near) >= 5 else unit
        is_gap.append(step > (1 + config.gap_split) * local)
    parse = parse_row(positions, is_gap, cues, steps)
    hand_positions = positions[: parse.concealed]
    # the hand's tiles never stack: a second tile at one place belongs to a row lying close
    # beside the main one (a dora row the row split merged)
    stray = [t for p in hand_positions for t in p[1:]]
    concealed = [p[0] for p in hand_positions]
    splits = sum(is_gap[: max(parse.concealed - 1, 0)])
    winning: int | None = None
    if parse.winning:
        winning = positions[parse.concealed][0]
        stray += positions[parse.concealed][1:]
    else:
        problems.append(Problem.of(NO_WINNING_GAP))
    if splits:
        problems.append(Problem.of(EXTRA_GAPS, n=splits))
    flags = list(side)
    fixed: list[int] = []
    if config.meld_grammar:  # the hand's tiles stand upright
        for t in concealed + ([] if winning is None else [winning]):
            if flags[t]:
                flags[t] = False
                fixed.append(t)
    melds: list[MeldReading] = []
    for m in parse.melds:
        called = list(m.called)
        if m.kind not in (MeldKind.ANKAN, MeldKind.KAKAN):
            if config.meld_grammar:
                if cues.score[called[0]] <= config.meld_called_min and not side[called[0]]:
                    called = []  # a tile the cues call surely upright stays so
            else:
                called = [t for t in m.tiles if side[t]]
            if len(called) != 1:
                problems.append(Problem.of(MELD_SIDEWAYS, meld=len(melds) + 1, n=len(called)))
        if config.meld_grammar:
            for t in m.tiles:
                if flags[t] != (t in called):
                    flags[t] = t in called
                    fixed.append(t)
        melds.append(MeldReading(m.kind, m.tiles, called[0] if called else None))
    unassigned = [t for p in positions[len(positions) - parse.leftover :] for t in p]
    if parse.leftover:
        problems.append(Problem.of(LEFTOVER, n=len(unassigned)))
    if set_aside:
        unassigned.extend(set_aside)
        problems.append(Problem.of(FACE_DOWN, n=len(set_aside)))
    on_melds = [t for m in parse.melds for t in m.stray]
    if on_melds:
        unassigned.extend(on_melds)
        problems.append(Problem.of(ON_MELD, n=len(on_melds)))
    if fixed:
        problems.append(Problem.of(GRAMMAR, n=len(fixed)))
    if stray and not others:
        others = [stray]
    elif stray:
        unassigned.extend(sorted(stray, key=lambda i: u[i]))
        problems.append(Problem.of(ON_CONCEALED, n=len(stray)))
    # the dora row lies beside the hand as the photo convention lays it, at most ten
    # indicators (five dora, five ura), shown face up; a wall, discards or another player's
    # tiles do not
    beside = [r for r in others if len(r) <= config.dora_row_max
              and abs(float(np.mean(v[r])) - line) <= config.dora_reach * unit
              and not all(cues.face_down[i] for i in r)]
    # of those, the row with the most tiles (a stray box, a loose tile or a point stick's end
    # comes alone), the nearest of those
    dora_row = min(beside, key=lambda r: (-len(r), abs(float(np.mean(v[r])) - line)),
                   default=None)
    dora = sorted(dora_row or [], key=lambda i: u[i])
    for r in others:
        if r is not dora_row:
            unassigned.extend(sorted(r, key=lambda i: u[i]))
            problems.append(Problem.of(EXTRA_ROW if r in beside else AWAY, n=len(r)))
    grouping = Grouping(tuple(concealed), winning, tuple(melds), tuple(dora), tuple(unassigned))
    layout = Layout(grouping, tuple(flags), tuple(problems), angle, tuple(sorted(fixed)))
    return parse.cost, layout


def rename_melds(grouping: Grouping, labels: Sequence[str]) -> Grouping:
    """Re-derive chi / pon after decoding changed labels (kans keep their kind)."""
    melds = tuple(
        m
        if m.kind in (MeldKind.ANKAN, MeldKind.KAKAN, MeldKind.MINKAN)
        else MeldReading(meld_kind([labels[t] for t in m.tiles], False, False), m.tiles, m.called)
        for m in grouping.melds
    )
    return Grouping(grouping.concealed, grouping.winning, melds, grouping.dora, grouping.unassigned)
