"""Sideways evidence (layout.sideways_scores) and the meld grammar, on fixed boxes and poses."""

import math

import pytest

from vision.config import VisionConfig
from vision.layout import TilePose, sideways_scores

CFG = VisionConfig()
UP, SIDE = math.pi / 2, 0.0  # long axis across / along a row running along x


def test_box_and_axis_cues_on_a_level_row():
    # three upright 30x40 boxes and one 40x30 box: log ratios -0.2877 x3 and +0.2877, median
    # -0.2877, so box cues 0, 0, 0, 0.5754; axis cues -1, -1, -1, +1 (strength 1)
    poses = [TilePose((30.0 * i, 0.0, 30.0 * i + 30, 40.0), UP, 1.0, False) for i in range(3)]
    poses.append(TilePose((90.0, 10.0, 130.0, 40.0), SIDE, 1.0, False))
    got = sideways_scores(poses, 0.0, CFG)
    box = 2 * math.log(4 / 3)
    assert got.tolist() == pytest.approx([-5 + 2.1] * 3 + [10 * box + 5 + 2.1])


def test_glyph_cue_is_trusted_on_axis_rows_and_ignored_at_45_degrees():
    # square boxes and no finder axis: only the glyph head (and the bias) speak
    poses = [TilePose((0.0, 0.0, 30.0, 30.0), UP, 0.0, False, 0.9)]
    poses.append(TilePose((30.0, 0.0, 60.0, 30.0), UP, 0.0, False, 0.1))
    logit = math.log(0.9 / 0.1)
    level = sideways_scores(poses, 0.0, CFG)  # row along x: a vertical glyph stands upright
    assert level.tolist() == pytest.approx([2.1 - 1.75 * logit, 2.1 + 1.75 * logit])
    upright_row = sideways_scores(poses, math.pi / 2, CFG)  # row along y: the opposite
    assert upright_row.tolist() == pytest.approx([2.1 + 1.75 * logit, 2.1 - 1.75 * logit])
    diagonal = sideways_scores(poses, math.pi / 4, CFG)
    assert diagonal.tolist() == pytest.approx([2.1, 2.1])
