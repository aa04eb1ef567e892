"""The recogniser's stages and the values passed between them (no model needed)."""

import ast
import math
from dataclasses import FrozenInstanceError
from pathlib import Path

import numpy as np
import pytest

from scorer.tiles import MODEL_CLASSES
from vision.assemble import assemble
from vision.classify import LabelledTiles
from vision.config import VisionConfig
from vision.postprocess import Candidate
from vision.problems import NO_TILES, Problem

CFG = VisionConfig()
VISION = Path(__file__).resolve().parents[2] / "vision"
STAGES = [
    "find", "refine", "classify", "standing_tops", "layout", "row_parse", "assemble", "decode"
]


def spot(x, y=100.0):
    """An upright tile's candidate, 30 wide and 40 tall, its long axis vertical."""
    return Candidate((x, y, x + 30.0, y + 40.0), 0.9, math.pi / 2, 1.0)


def sure(labels):
    """Class probabilities reading each label with p = 0.99."""
    rows = np.full((len(labels), len(MODEL_CLASSES)), 0.01 / (len(MODEL_CLASSES) - 1))
    for i, label in enumerate(labels):
        rows[i, MODEL_CLASSES.index(label)] = 0.99
    return rows


def labelled(xs, labels, vertical=None):
    return LabelledTiles(tuple(spot(x) for x in xs), sure(labels), vertical, 0.0)


def test_labelled_tiles_combine_in_one_order():
    first = labelled([0.0, 40.0], ["1m", "2m"], np.array([0.9, 0.8]))
    more = labelled([80.0, 120.0, 160.0], ["3m", "4m", "5m"], np.array([0.7, 0.6, 0.5]))
    both = first.plus(more, [0, 2])
    assert [c.box[0] for c in both.found] == [0.0, 40.0, 80.0, 160.0]
    assert [MODEL_CLASSES[int(j)] for j in both.probs.argmax(axis=1)] == ["1m", "2m", "3m", "5m"]
    assert both.vertical.tolist() == [0.9, 0.8, 0.7, 0.5]
    fewer = both.without([1])
    assert [c.box[0] for c in fewer.found] == [0.0, 80.0, 160.0]
    assert fewer.vertical.tolist() == [0.9, 0.7, 0.5]
    assert fewer.only([]).probs.shape == (0, len(MODEL_CLASSES))


def test_glyph_axis_chances_are_kept_only_when_both_sides_have_them():
    first = labelled([0.0], ["1m"], np.array([0.9]))
    assert first.plus(labelled([40.0], ["2m"]), [0]).vertical is None


def test_the_values_between_stages_are_frozen():
    tiles = labelled([0.0], ["1m"])
    with pytest.raises(FrozenInstanceError):
        tiles.turn = 1.0


def test_no_tiles_read_as_an_empty_reading_that_says_so():
    reading = assemble(labelled([], []), CFG, (640, 480))
    assert reading.tiles == ()
    assert reading.problems == (Problem.of(NO_TILES),)
    assert reading.to_json()["problems"] == ["no tiles found"]
    assert reading.image_size == (640, 480)


def test_a_hand_is_laid_out_decoded_and_numbered_as_laid_out():
    labels = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5z", "5z"]
    xs = [31.0 * i for i in range(13)] + [31.0 * 13 + 20.0]  # a gap before the winning tile
    order = [13, 5, 0, 12, 7, 2, 9, 1, 11, 3, 10, 4, 8, 6]  # the finder's order: by heat
    tiles = labelled([xs[i] for i in order], [labels[i] for i in order])
    reading = assemble(tiles, CFG, (640, 480))
    assert reading.problems == ()
    assert reading.grouping.concealed == tuple(range(13))
    assert reading.grouping.winning == 13
    assert [t.label for t in reading.tiles] == labels
    assert [t.box[0] for t in reading.tiles] == xs


@pytest.mark.parametrize("stage", STAGES)
def test_each_stage_module_says_what_it_takes_and_gives(stage):
    doc = ast.get_docstring(ast.parse((VISION / f"{stage}.py").read_text()))
    assert doc and len(doc.splitlines()) >= 3


@pytest.mark.parametrize(
    "path", sorted(VISION.rglob("*.py")), ids=lambda p: str(p.relative_to(VISION))
)
def test_no_vision_module_runs_past_about_400_lines(path):
    # vision/training and vision/synth too: a module over 400 lines is split by job
    assert len(path.read_text().splitlines()) <= 400


def test_the_vision_design_document_reads_in_ten_minutes():
    # docs/vision.md says how the reader works and why; recipes, per-stage numbers and per-session
    # histories belong in the model cards (models/*.json) and in git, not there
    doc = VISION.parent / "docs" / "vision.md"
    assert len(doc.read_text().splitlines()) <= 400
