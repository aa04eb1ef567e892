"""Lay out and decode: labelled tiles -> a Reading.

Takes ``LabelledTiles``; lays them out by their poses and top labels (``layout``), lets the
decoder pick the most probable legal labelling for that grouping (``decode``), and gives the
``Reading``: each tile with its label, box, confidence, alternatives and flags, the grouping
and every problem noticed, the tiles numbered as they are laid out.
"""

from __future__ import annotations

from dataclasses import replace

from scorer.tiles import MODEL_CLASSES
from vision.classify import LabelledTiles
from vision.config import VisionConfig
from vision.decode import CompleteCheck, decode
from vision.layout import TilePose, group_tiles, rename_melds
from vision.postprocess import top_labels
from vision.problems import IN_HAND, Problem
from vision.reading import DetectedTile, Grouping, MeldReading, Reading


def assemble(
    tiles: LabelledTiles,
    config: VisionConfig,
    image_size: tuple[int, int],
    complete: CompleteCheck | None = None,
) -> Reading:
    """The Reading of labelled tiles (pure: no model runs here); ``complete`` is the kiosk's
    optional winning-shape check the decoder uses."""
    found, probs, vertical, turn = tiles.found, tiles.labels, tiles.vertical, tiles.turn
    choices = top_labels(probs, tuple(MODEL_CLASSES), max(1, config.alternatives + 1))
    top = [c[0][0] for c in choices]
    poses = [
        TilePose(
            c.box,
            c.angle,
            c.orientation_strength,
            lab == "back",
            None if vertical is None else float(vertical[i]),
            turn,
        )
        for i, (c, lab) in enumerate(zip(found, top, strict=True))
    ]
    layout = group_tiles(poses, top, config)
    decoded = decode(choices, layout.grouping, config, complete)
    grouping = rename_melds(layout.grouping, decoded.labels)
    detected: list[DetectedTile] = []
    for i, c in enumerate(found):
        label = decoded.labels[i]
        conf = float(probs[i, MODEL_CLASSES.index(label)])
        alts = tuple((lab, q) for lab, q in choices[i] if lab != label)[: config.alternatives]
        detected.append(
            DetectedTile(
                label,
                c.box,
                conf,
                alts,
                layout.sideways[i],
                label == "back",
                decoded.changed[i],
                c.score,
            )
        )
    problems = list(layout.problems) + list(decoded.problems)
    reading = Reading(tuple(detected), grouping, (), image_size)
    if found and reading.in_hand() != 14:
        problems.insert(0, Problem.of(IN_HAND, n=reading.in_hand()))
    return in_layout_order(replace(reading, problems=tuple(problems)))


def in_layout_order(reading: Reading) -> Reading:
    """Renumber tiles as laid out: concealed, winning tile, melds, dora row, the rest."""
    g = reading.grouping
    order = list(g.concealed) + ([g.winning] if g.winning is not None else [])
    order += [t for m in g.melds for t in m.tiles] + list(g.dora) + list(g.unassigned)
    order += [i for i in range(len(reading.tiles)) if i not in set(order)]
    new = {old: new for new, old in enumerate(order)}

    def remap(idx: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(new[i] for i in idx)

    melds = tuple(
        MeldReading(m.kind, remap(m.tiles), None if m.called is None else new[m.called])
        for m in g.melds
    )
    grouping = Grouping(
        remap(g.concealed),
        None if g.winning is None else new[g.winning],
        melds,
        remap(g.dora),
        remap(g.unassigned),
    )
    return Reading(
        tuple(reading.tiles[i] for i in order), grouping, reading.problems, reading.image_size
    )
