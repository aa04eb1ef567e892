"""Group located tiles into the shown hand: concealed tiles, winning tile, melds, dora row.

Works on geometry only (centres, the tiles' long-axis direction, face-down flags), so it is the
same whichever way the row runs in the frame. The photo convention (ARCHITECTURE.md): one row of
concealed tiles, a gap, the winning tile, then the called melds as they lie (the called tile
sideways, a closed kan with its two outer tiles face down); optionally a second row of dora
indicators. Labels are used only to name meld kinds (chi or pon, kan).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from vision.config import VisionConfig
from vision.reading import Grouping, MeldKind, MeldReading


@dataclass(frozen=True)
class TilePose:
    """Geometry of one located tile; ``angle`` is its long axis (radians, modulo pi)."""

    box: tuple[float, float, float, float]
    angle: float
    strength: float  # 0..1: how much ``angle`` can be trusted
    face_down: bool
    glyph_vertical: float | None = None  # classifier: chance the glyph's axis is vertical

    @property
    def centre(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2, (y1 + y2) / 2)


@dataclass(frozen=True)
class Layout:
    """Grouping plus the per-tile sideways flags and what could not be resolved."""

    grouping: Grouping
    sideways: tuple[bool, ...]
    problems: tuple[str, ...]
    row_angle: float
    grammar_fixed: tuple[int, ...] = ()  # tiles whose sideways flag the meld grammar changed


def kind_of(label: str) -> str:
    """The tile kind, red fives counted as fives (``0m`` -> ``5m``)."""
    return "5" + label[1] if label[0] == "0" else label


def meld_kind(labels: Sequence[str], stacked: bool, closed: bool) -> MeldKind:
    """Name a meld from its labels and pose: 4 tiles are a kan (closed, added or open)."""
    if len(labels) == 4:
        if closed:
            return MeldKind.ANKAN
        return MeldKind.KAKAN if stacked else MeldKind.MINKAN
    kinds = sorted((int(kind_of(t)[0]), t[1]) for t in labels if t != "back")
    if (
        len(kinds) == 3
        and kinds[0][1] != "z"
        and len({s for _, s in kinds}) == 1
        and [n for n, _ in kinds] == [kinds[0][0] + i for i in range(3)]
    ):
        return MeldKind.CHI
    return MeldKind.PON


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
    - glyph: the classifier's glyph-axis head, trusted fully only when the row runs along a
      frame axis (the crop is axis-aligned), not at all at 45 degrees.

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
    trust = abs(2 * ca * ca - 1)
    for i, p in enumerate(poses):
        if p.glyph_vertical is not None:
            along = p.glyph_vertical if ca < math.sqrt(0.5) else 1 - p.glyph_vertical
            along = min(max(along, 0.01), 0.99)
            glyph[i] = trust * math.log(along / (1 - along))
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
        return Layout(Grouping(), (), ("no tiles found",), 0.0)
    angle = row_angle(poses)
    score = sideways_scores(poses, angle, config)
    side = tuple(bool(score[i] > 0) and not p.face_down for i, p in enumerate(poses))
    centres = np.array([p.centre for p in poses], np.float64)
    unit = _unit(centres)
    u_vec = np.array([math.cos(angle), math.sin(angle)])
    if u_vec[0] < -1e-6 or (abs(u_vec[0]) <= 1e-6 and u_vec[1] < 0):
        u_vec = -u_vec  # default reading direction: left to right, else top to bottom
    v_vec = np.array([-u_vec[1], u_vec[0]])
    u, v = centres @ u_vec, centres @ v_vec
    # rows: split on large jumps across the row direction
    order = np.argsort(v, kind="stable")
    rows: list[list[int]] = [[int(order[0])]]
    for a, b in zip(order[:-1], order[1:], strict=True):
        if v[b] - v[a] > config.row_split * unit:
            rows.append([])
        rows[-1].append(int(b))
    main = max(rows, key=len)
    others = [r for r in rows if r is not main]
    special = [i for i in main if side[i] or poses[i].face_down]
    if special and np.mean(u[special]) < np.mean(u[main]):
        u = -u  # melds (sideways / face-down tiles) lie at the end of the row
    elif not special and len(main) >= 3:
        s = sorted(main, key=lambda i: u[i])
        if u[s[1]] - u[s[0]] > u[s[-1]] - u[s[-2]] + 0.1 * unit:
            u = -u  # the isolated winning tile is at the end
    first = _read_row(u, v, main, others, unit, angle, side, score, poses, labels, config)
    if not config.meld_grammar:
        return first
    other = _read_row(-u, v, main, others, unit, angle, side, score, poses, labels, config)
    return other if _cost(other) < _cost(first) else first


def _cost(layout: Layout) -> int:
    """Grammar broken by a reading: problems noticed plus sideways flags the grammar changed."""
    return len(layout.problems) + len(layout.grammar_fixed) - bool(layout.grammar_fixed)


def _read_row(
    u: np.ndarray,
    v: np.ndarray,
    main: list[int],
    others: list[list[int]],
    unit: float,
    angle: float,
    side: tuple[bool, ...],
    score: np.ndarray,
    poses: Sequence[TilePose],
    labels: Sequence[str],
    config: VisionConfig,
) -> Layout:
    """Read the main row from its low-``u`` end (concealed tiles, winning tile, melds), plus the
    dora row; ``side`` are the first sideways flags, ``score`` their log-odds."""
    n = len(poses)
    problems: list[str] = []
    extent = [(4 / 3 if side[i] else 1.0) * unit for i in range(n)]
    # positions: a kakan's added tile lies on top of the called one (same place along the row)
    positions: list[list[int]] = []
    for i in sorted(main, key=lambda i: u[i]):
        if positions and abs(u[i] - u[positions[-1][0]]) < 0.45 * unit:
            positions[-1].append(i)
        else:
            positions.append([i])
    segments: list[list[list[int]]] = [[positions[0]]]
    for a, b in zip(positions[:-1], positions[1:], strict=True):
        gap = (u[b[0]] - u[a[0]]) - (extent[a[0]] + extent[b[0]]) / 2
        if gap > config.gap_split * unit:
            segments.append([])
        segments[-1].append(b)

    def plain(seg: list[list[int]]) -> bool:
        return not any(side[i] or poses[i].face_down for pos in seg for i in pos)

    k = 0
    while k < len(segments) and plain(segments[k]):
        k += 1
    if config.meld_grammar:
        k = _winning_cut(segments, plain, k)
    hand_part, meld_part = segments[:k], segments[k:]
    # the hand's tiles never stack: a second tile at one place belongs to a row lying close
    # beside the main one (a dora row the row split merged); keep the one nearest the row
    line = float(np.median(v[main]))
    stray: list[int] = []
    for seg in hand_part:
        for pos in seg:
            if len(pos) > 1:
                pos.sort(key=lambda i: abs(v[i] - line))
                stray.extend(pos[1:])
                del pos[1:]
    flags = list(side)
    fixed: list[int] = []
    concealed: list[int] = []
    winning: int | None = None
    if len(hand_part) >= 2 and len(hand_part[-1]) == 1:
        concealed = [p[0] for seg in hand_part[:-1] for p in seg]
        winning = hand_part[-1][0][0]
        if len(hand_part) > 2:
            problems.append(f"concealed tiles split by {len(hand_part) - 2} extra gap(s)")
    else:
        concealed = [p[0] for seg in hand_part for p in seg]
        problems.append("no winning tile set apart by a gap after the concealed tiles")
    melds, unassigned = _parse_melds(
        meld_part,
        labels,
        flags,
        poses,
        problems,
        score if config.meld_grammar else None,
        fixed,
        config.meld_called_min,
    )
    if fixed:
        problems.append(f"sideways flag of {len(fixed)} tile(s) set by the meld grammar")
    dora: list[int] = []
    if stray and not others:
        others = [stray]
    elif stray:
        unassigned.extend(sorted(stray, key=lambda i: u[i]))
        problems.append(f"{len(stray)} tile(s) stacked on concealed tiles were not used")
    if others:
        nearest = min(others, key=lambda r: abs(float(np.mean(v[r])) - float(np.mean(v[main]))))
        dora = sorted(nearest, key=lambda i: u[i])
        for r in others:
            if r is not nearest:
                unassigned.extend(sorted(r, key=lambda i: u[i]))
                problems.append(f"{len(r)} tile(s) in an extra row were not used")
    grouping = Grouping(tuple(concealed), winning, tuple(melds), tuple(dora), tuple(unassigned))
    return Layout(grouping, tuple(flags), tuple(problems), angle, tuple(sorted(fixed)))


def _winning_cut(
    segments: list[list[list[int]]], plain: Callable[[list[list[int]]], bool], k: int
) -> int:
    """How many leading segments are the hand (concealed + winning tile), by the grammar: the
    winning tile is a segment of one position after the concealed tiles, every meld segment
    after it shows a sideways or face-down tile, no hand segment does. Among the single-tile
    segments, the cut breaking fewest of these wins (ties: the plain-prefix cut ``k``, then the
    earliest); with no single-tile segment ``k`` stands."""
    cuts = [c + 1 for c in range(1, len(segments)) if len(segments[c]) == 1]
    if not cuts:
        return k

    def broken(cut: int) -> int:
        hand = sum(not plain(seg) for seg in segments[:cut])
        return hand + sum(plain(seg) for seg in segments[cut:])

    return min(cuts, key=lambda c: (broken(c), c != k, c))


def _parse_melds(
    segments: list[list[list[int]]],
    labels: Sequence[str],
    side: list[bool],
    poses: Sequence[TilePose],
    problems: list[str],
    score: np.ndarray | None = None,
    fixed: list[int] | None = None,
    min_called: float = -6.0,
) -> tuple[list[MeldReading], list[int]]:
    """Cut each segment into melds: closed kan (back, x, x, back), added kan (a stacked
    position), open kan (four of a kind, one sideways), else three tiles (chi or pon).

    With ``score`` (sideways log-odds) the grammar sets the flags in ``side``: a closed kan
    shows none, an added kan only its stacked pair, an open kan and a chi / pon exactly one:
    the likeliest of those flagged, or with none flagged the likeliest tile unless its
    log-odds are below ``min_called``; every tile whose flag changed is appended to ``fixed``."""
    changed = fixed if fixed is not None else []

    def set_flags(tiles: list[int], called: list[int]) -> None:
        if score is None:
            return
        for t in tiles:
            if side[t] != (t in called):
                side[t] = t in called
                changed.append(t)

    melds: list[MeldReading] = []
    unassigned: list[int] = []
    pending = [list(seg) for seg in segments]
    for k, seg in enumerate(pending):
        i = 0
        while i < len(seg):
            first = seg[i]
            down = [poses[p[0]].face_down for p in seg[i : i + 4]]
            if len(down) == 4 and down[0] and down[3] and len(first) == 1:
                tiles = [p[0] for p in seg[i : i + 4]]
                set_flags(tiles, [])
                melds.append(MeldReading(MeldKind.ANKAN, tuple(tiles), None))
                i += 4
                continue
            three = seg[i : i + 3]
            if len(three) < 3 and k + 1 < len(pending):
                # too few for a set before the next gap: a wide gap inside a meld (a narrow
                # sideways box, a slip) split it, so they start the next segment's first meld
                pending[k + 1][:0] = seg[i:]
                break
            if len(three) < 3:
                rest = [t for p in seg[i:] for t in p]
                if _completes_kan(melds, rest, labels):  # a stray gap cut an open kan's 4th
                    m = melds[-1]
                    melds[-1] = MeldReading(MeldKind.MINKAN, (*m.tiles, rest[0]), m.called)
                    break
                unassigned.extend(rest)
                problems.append(f"{len(rest)} tile(s) after the melds do not form a set")
                break
            if any(len(p) > 1 for p in three):
                tiles = [t for p in three for t in p]
                called = next(p[0] for p in three if len(p) > 1)
                set_flags(tiles, next(p for p in three if len(p) > 1))
                melds.append(MeldReading(MeldKind.KAKAN, tuple(tiles), called))
                i += 3
                continue
            four = seg[i : i + 4]
            four_tiles = [p[0] for p in four]
            if (
                len(four) == 4
                and all(len(p) == 1 for p in four)
                and len({kind_of(labels[t]) for t in four_tiles}) == 1
                and (
                    sum(side[t] for t in four_tiles) == 1
                    or (score is not None and len(seg) == i + 4)  # a whole segment: a kan
                )
            ):
                if score is not None:
                    set_flags(four_tiles, [max(four_tiles, key=lambda t: score[t])])
                called = next(t for t in four_tiles if side[t])
                melds.append(MeldReading(MeldKind.MINKAN, tuple(four_tiles), called))
                i += 4
                continue
            tiles = [p[0] for p in three]
            called_list = [t for t in tiles if side[t]]
            if len(called_list) > 1 and score is not None:
                called_list = [max(called_list, key=lambda t: score[t])]
            if not called_list and score is not None:
                best = max(tiles, key=lambda t: score[t])
                if score[best] > min_called:  # a tile the cues call surely upright stays so
                    called_list = [best]
            set_flags(tiles, called_list)
            if len(called_list) != 1:
                problems.append(f"meld {len(melds) + 1} shows {len(called_list)} sideways tiles")
            kind = meld_kind([labels[t] for t in tiles], False, False)
            melds.append(MeldReading(kind, tuple(tiles), called_list[0] if called_list else None))
            i += 3
    return melds, unassigned


def _completes_kan(melds: list[MeldReading], rest: list[int], labels: Sequence[str]) -> bool:
    """One tile left over right after a pon of its own kind: the fourth tile of an open kan
    that a gap in the row (a point stick, a slip) split off."""
    if len(rest) != 1 or not melds or melds[-1].kind != MeldKind.PON:
        return False
    return {kind_of(labels[t]) for t in (*melds[-1].tiles, rest[0])} == {kind_of(labels[rest[0]])}


def rename_melds(grouping: Grouping, labels: Sequence[str]) -> Grouping:
    """Re-derive chi / pon after decoding changed labels (kans keep their kind)."""
    melds = tuple(
        m
        if m.kind in (MeldKind.ANKAN, MeldKind.KAKAN, MeldKind.MINKAN)
        else MeldReading(meld_kind([labels[t] for t in m.tiles], False, False), m.tiles, m.called)
        for m in grouping.melds
    )
    return Grouping(grouping.concealed, grouping.winning, melds, grouping.dora, grouping.unassigned)
