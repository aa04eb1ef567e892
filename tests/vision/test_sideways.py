"""Sideways evidence (layout.sideways_scores) and the meld grammar, on fixed boxes and poses."""

import dataclasses
import math
from dataclasses import replace

import pytest

from tests.vision.test_layout import CONCEALED, MELDS, hand_row, labels_of, poses_for
from vision.config import VisionConfig
from vision.layout import TilePose, group_tiles, sideways_scores
from vision.problems import GRAMMAR, MELD_SIDEWAYS, Problem

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


def _unsure_chi(melds=MELDS):
    """The standard row with the chi's called 3s read unsure: a square box and an upright finder
    axis (log-odds 10 * log(4/3) - 5 + 2.1 = -0.02). The chi's other tiles lie 0.2 tile closer,
    so the meld stays one group whether or not the 3s counts as sideways."""
    items = hand_row(CONCEALED, "9s", melds)
    at = [k for k, it in enumerate(items) if it[0] == "3s"][0]
    items = [it if k <= at else (it[0], it[1] - 0.2, *it[2:]) for k, it in enumerate(items)]
    poses, labels = poses_for(items, 0)
    x1, y1, x2, y2 = poses[at].box
    cx, cy, half = (x1 + x2) / 2, (y1 + y2) / 2, ((x2 - x1) + (y2 - y1)) / 4
    poses[at] = TilePose((cx - half, cy - half, cx + half, cy + half), UP, 1.0, False)
    return poses, labels, at


def test_grammar_flags_the_likeliest_tile_of_a_meld_shown_without_a_sideways_one():
    poses, labels, called = _unsure_chi()
    assert sideways_scores(poses, 0.0, CFG)[called] == pytest.approx(-0.0232, abs=1e-3)
    off = group_tiles(poses, labels, dataclasses.replace(CFG, meld_grammar=False))
    assert not off.sideways[called]
    assert Problem.of(MELD_SIDEWAYS, meld=2, n=0) in off.problems
    on = group_tiles(poses, labels, CFG)
    assert [labels[i] for i, s in enumerate(on.sideways) if s] == ["5z", "3s"]
    assert on.grammar_fixed == (called,)
    assert on.problems == (Problem.of(GRAMMAR, n=1),)
    assert on.grouping.melds[1].called == called
    assert labels_of(on, labels)[2] == [("pon", ["5z"] * 3), ("chi", ["3s", "4s", "5s"])]


def test_grammar_leaves_a_meld_unflagged_when_no_tile_is_likely_enough():
    poses, labels, called = _unsure_chi()
    strict = group_tiles(poses, labels, dataclasses.replace(CFG, meld_called_min=0.0))
    assert not strict.sideways[called]
    assert strict.grammar_fixed == ()
    assert Problem.of(MELD_SIDEWAYS, meld=2, n=0) in strict.problems


def test_grammar_keeps_the_likeliest_of_two_flagged_tiles_in_a_meld():
    poses, labels = poses_for(hand_row(CONCEALED, "9s", MELDS), 0)
    extra = [i for i, lab in enumerate(labels) if lab == "4s"][0]
    x1, y1, x2, y2 = poses[extra].box  # a square box, a weak sideways finder axis: 2.1 + 2.5
    poses[extra] = TilePose((x1, y1, x2, y1 + (x2 - x1)), SIDE, 0.5, False)
    scores = sideways_scores(poses, 0.0, CFG)
    assert 0 < scores[extra] < max(scores)  # flagged, but less surely than the called 3s
    on = group_tiles(poses, labels, CFG)
    assert [labels[i] for i, s in enumerate(on.sideways) if s] == ["5z", "3s"]
    assert on.grammar_fixed == (extra,)


def test_grammar_cuts_after_the_winning_tile_when_the_first_meld_shows_no_sideways_tile():
    # chi first, its 3s unflagged: without the grammar the row still parses (gaps and the tile
    # count), but the chi is reported, its flag left as the cues say
    poses, labels, called = _unsure_chi(MELDS[::-1])
    off = group_tiles(poses, labels, dataclasses.replace(CFG, meld_grammar=False))
    assert labels_of(off, labels)[1] == "9s"
    assert Problem.of(MELD_SIDEWAYS, meld=1, n=0) in off.problems
    assert not off.sideways[called]
    on = group_tiles(poses, labels, CFG)
    assert labels_of(on, labels)[:3] == (
        CONCEALED,
        "9s",
        [("chi", ["3s", "4s", "5s"]), ("pon", ["5z"] * 3)],
    )
    assert on.grammar_fixed == (called,)


def test_a_dora_row_merged_into_the_main_row_is_split_off_the_concealed_tiles():
    # the dora row lies only 1.27 tile widths across from the concealed tiles (the row split
    # needs 1.5): its tiles stack on concealed ones, which never stack, so they are the dora
    items = hand_row(CONCEALED, "9s", MELDS)
    items += [(t, 2 + i * 1.03, -2.6, False, False) for i, t in enumerate(["2z", "3z"])]
    poses, labels = poses_for(items, 0)
    layout = group_tiles(poses, labels, CFG)
    concealed, winning, melds, dora = labels_of(layout, labels)
    assert (concealed, winning, dora) == (CONCEALED, "9s", ["2z", "3z"])
    assert melds == [("pon", ["5z"] * 3), ("chi", ["3s", "4s", "5s"])]
    assert layout.problems == ()


def test_grammar_stands_a_concealed_tile_upright_that_the_cues_lean_sideways():
    poses, labels = poses_for(hand_row(CONCEALED, "9s", MELDS), 0)
    leaning = labels.index("4p")  # a concealed tile: a square box, a weak sideways axis
    x1, y1, x2, y2 = poses[leaning].box
    poses[leaning] = TilePose((x1, y1, x2, y1 + (x2 - x1)), SIDE, 0.5, False)
    assert sideways_scores(poses, 0.0, CFG)[leaning] > 0
    off = group_tiles(poses, labels, dataclasses.replace(CFG, meld_grammar=False))
    assert off.sideways[leaning]
    on = group_tiles(poses, labels, CFG)
    assert labels_of(on, labels)[0] == CONCEALED
    assert not on.sideways[leaning]
    assert on.grammar_fixed == (leaning,)


def test_a_called_tile_every_cue_calls_upright_still_makes_the_meld_the_row_shows():
    # every tile carries the glyph cue, so upright tiles read about -10.9; the chi's called 3s
    # too (its box, finder axis and glyph all say upright). Gaps, the winning tile and the
    # 14-tile count still make it a chi, as a tile's cues cost a reading at most COST_CUE_CAP
    poses, labels = poses_for(hand_row(CONCEALED, "9s", MELDS), 0)
    called = labels.index("3s")
    x1, y1, x2, y2 = poses[called].box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    poses[called] = TilePose((cx - 15, cy - 20, cx + 15, cy + 20), UP, 1.0, False)
    poses = [replace(p, glyph_vertical=0.01 if p.angle == SIDE else 0.99) for p in poses]
    scores = sideways_scores(poses, 0.0, CFG)
    assert scores[called] == pytest.approx(-2.9 - 1.75 * math.log(99))
    layout = group_tiles(poses, labels, CFG)
    assert labels_of(layout, labels)[:3] == (
        CONCEALED,
        "9s",
        [("pon", ["5z"] * 3), ("chi", ["3s", "4s", "5s"])],
    )
    assert not layout.sideways[called]  # the grammar does not overrule cues that sure
    assert layout.problems == (Problem.of(MELD_SIDEWAYS, meld=2, n=0),)


def test_the_glyph_cue_of_crops_turned_level_with_a_45_degree_row_is_trusted_fully():
    # square boxes, no finder axis: at 45 degrees the box and axis cues say nothing, and an
    # axis-aligned crop's glyph neither; turned by the row's angle, the crop's glyph counts fully
    row = math.pi / 4
    level = [TilePose((30.0 * i, 30.0 * i, 30.0 * i + 30, 30.0 * i + 30), UP, 0.0, False, g, row)
             for i, g in enumerate((0.9, 0.1))]
    logit = math.log(0.9 / 0.1)
    assert sideways_scores(level, row, CFG).tolist() == pytest.approx(
        [2.1 - 1.75 * logit, 2.1 + 1.75 * logit]
    )
    unturned = [replace(p, glyph_turn=0.0) for p in level]
    assert sideways_scores(unturned, row, CFG).tolist() == pytest.approx([2.1, 2.1])


def test_grammar_flags_a_meld_tile_whose_cues_lean_upright_but_less_than_its_neighbours():
    # every tile carries the glyph cue (upright ones about -10.9); the chi's called 3s has a
    # square box besides, -8.1: the likeliest of its meld, so the grammar turns it sideways
    # (meld_called_min -10; at -6 it stayed upright and the meld was reported)
    poses, labels, called = _unsure_chi()
    poses = [replace(p, glyph_vertical=0.01 if p.angle == SIDE else 0.99) for p in poses]
    scores = sideways_scores(poses, 0.0, CFG)
    assert scores[called] == pytest.approx(-0.0232 - 1.75 * math.log(99), abs=1e-3)
    layout = group_tiles(poses, labels, CFG)
    assert [labels[i] for i, s in enumerate(layout.sideways) if s] == ["5z", "3s"]
    assert layout.grammar_fixed == (called,)
    old = group_tiles(poses, labels, dataclasses.replace(CFG, meld_called_min=-6.0))
    assert Problem.of(MELD_SIDEWAYS, meld=2, n=0) in old.problems
