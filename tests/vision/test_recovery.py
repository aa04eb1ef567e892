"""The located boxes refined: weak peaks kept beside a row, stacked pairs cut, slivers and
nested boxes dropped."""

import math
from dataclasses import replace

import numpy as np
import pytest

from scorer.tiles import MODEL_CLASSES
from vision.classify import LabelledTiles, crop_turn
from vision.config import VisionConfig
from vision.postprocess import Candidate
from vision.refine import (
    checked_cuts,
    recovered_in_row,
    stack_cuts,
    without_nested,
    without_slivers,
    worth_reading,
)

CFG = VisionConfig()


def tile(x, score=0.9):
    return Candidate((x, 100.0, x + 30.0, 140.0), score, 1.57, 1.0)


def probs_for(labels_and_p):
    """Rows of class probabilities: the named label gets p, the rest spread evenly."""
    rows = np.zeros((len(labels_and_p), len(MODEL_CLASSES)))
    for r, (label, p) in enumerate(labels_and_p):
        rows[r] = (1 - p) / (len(MODEL_CLASSES) - 1)
        rows[r, MODEL_CLASSES.index(label)] = p
    return rows


def test_a_weak_tile_the_finder_half_saw_beside_a_row_is_kept_when_the_heads_are_sure():
    # found: four 30-wide tiles at x 0..90; weak peaks: the next tile of the row at x 120
    # (heat 0.35, tile head 0.9, label 0.6: kept), one as near but too cold (0.25), one the
    # tile head doubts (0.5), one whose label is unsure (0.3), and one 4 widths away
    found = [tile(0), tile(30), tile(60), tile(90)]
    weak = [tile(120, 0.35), tile(120, 0.25), tile(120, 0.35), tile(120, 0.35), tile(210, 0.35)]
    probs = probs_for([("7z", 0.6), ("7z", 0.6), ("7z", 0.6), ("7z", 0.3), ("7z", 0.6)])
    heads = np.array([0.9, 0.9, 0.5, 0.9, 0.9])
    assert recovered_in_row(found, weak, probs, heads, CFG) == [0]
    # turned off: a heat at or above the finder's threshold
    off = replace(CFG, row_recovery_heat=CFG.detect_threshold)
    assert recovered_in_row(found, weak, probs, heads, off) == []


def test_a_weak_tile_standing_behind_a_located_one_is_kept_one_tile_length_away():
    # found: three standing tiles 30 x 60 (a tile's size: the root of its area, 42) in a row at
    # y 300..360; weak peaks, all sure: a tile standing one tile length (60) behind the middle
    # one, another a length behind that (beside no located tile), a third further still
    found = [Candidate((x, 300.0, x + 30.0, 360.0), 0.9, 1.57, 1.0) for x in (0.0, 32.0, 64.0)]
    weak = [Candidate((32.0, y, 62.0, y + 60.0), 0.35, 1.57, 1.0) for y in (240.0, 180.0, 30.0)]
    probs = probs_for([("3p", 0.7)] * 3)
    heads = np.array([0.9, 0.9, 0.9])
    assert recovered_in_row(found, weak, probs, heads, CFG) == [0]


def test_only_weak_peaks_some_rule_could_keep_are_classified():
    # found: four tiles at x 0..90 (30 x 40: a size of 35, a row's reach 52); weak peaks: cold
    # (0.22) at x 100, hot (0.35) at x 300 but alone, hot at x 140 (a row's next tile) and 185
    # (beyond a row's reach)
    found = [tile(0), tile(30), tile(60), tile(90)]
    weak = [tile(100, 0.22), tile(300, 0.35), tile(140, 0.35), tile(185, 0.35)]
    assert worth_reading(found, weak, CFG) == [2]


def _row_with_stack(merged_box):
    """Five upright 30x40 tiles along y=100..140, then the stacked pair's box."""
    tiles = [Candidate((30.0 * i, 100.0, 30.0 * i + 30, 140.0), 0.9, 1.57, 1.0) for i in range(5)]
    return tiles + [Candidate(merged_box, 0.8, 0.0, 1.0)]


def test_a_box_spanning_an_added_kans_stacked_pair_is_cut_in_two_across_the_row():
    # a sideways tile is 40 long and 30 high; two stacked: 40 x 60 from y=80 to the row's foot
    found = _row_with_stack((150.0, 80.0, 190.0, 140.0))
    ((i, halves),) = stack_cuts(found, CFG)
    assert i == 5
    assert [c.box for c in halves] == [(150.0, 80.0, 190.0, 110.0), (150.0, 110.0, 190.0, 140.0)]


def test_single_sideways_tiles_and_heaps_are_not_cut():
    assert stack_cuts(_row_with_stack((150.0, 110.0, 190.0, 140.0)), CFG) == []
    # 1.25 times wider across the row than its neighbours: under the 1.3 asked for
    assert stack_cuts(_row_with_stack((150.0, 90.0, 190.0, 140.0)), CFG) == []
    # the same 40 x 60 box away from the row (a loose tile in a heap): its neighbours do not
    # lie beside it in a row
    assert stack_cuts(_row_with_stack((150.0, 200.0, 190.0, 260.0)), CFG) == []
    off = VisionConfig(stack_split=0.0)
    assert stack_cuts(_row_with_stack((150.0, 80.0, 190.0, 140.0)), off) == []


def test_a_cut_is_made_only_where_both_halves_read_as_one_kind():
    found = _row_with_stack((150.0, 80.0, 190.0, 140.0))
    cuts = stack_cuts(found, CFG)
    halves = list(cuts[0][1])
    # a red five and a five are one kind
    assert checked_cuts(found, cuts, ["5p", "5p"], CFG.nms_iou) == found[:5] + halves
    assert checked_cuts(found, cuts, ["0p", "5p"], CFG.nms_iou) == found[:5] + halves
    # a lone tile seen large, cut in two, reads as two kinds: it stays whole
    assert checked_cuts(found, cuts, ["2s", "8p"], CFG.nms_iou) == found


def test_a_half_over_a_tile_the_finder_boxed_already_is_left_out():
    # the finder boxed the pair's upper tile (150..190 x 70..105) and, apart, one box over the
    # lower tile and half the upper: cut, its upper half (IoU 0.62 with the upper tile's box) goes
    upper = Candidate((150.0, 70.0, 190.0, 105.0), 0.8, 0.0, 1.0)
    found = _row_with_stack((150.0, 80.0, 190.0, 140.0)) + [upper]
    cuts = stack_cuts(found, CFG)
    assert [i for i, _ in cuts] == [5]
    got = checked_cuts(found, cuts, ["3s", "3s"], CFG.nms_iou)
    lower = (150.0, 110.0, 190.0, 140.0)
    assert [c.box for c in got] == [c.box for c in found[:5]] + [lower, upper.box]


def test_boxes_far_smaller_than_a_tile_are_dropped_unless_cut_off_by_the_frame():
    row = [
        Candidate((100.0 + 30 * i, 100.0, 130.0 + 30 * i, 140.0), 0.9, 1.57, 1.0) for i in range(5)
    ]
    stick_end = Candidate((400.0, 90.0, 410.0, 112.0), 0.6, 1.57, 1.0)  # 10 px < 0.55 x 30
    thin = Candidate((300.0, 100.0, 315.0, 140.0), 0.5, 1.57, 1.0)  # 15 px wide: 0.5 x 30
    at_edge = Candidate((0.0, 100.0, 12.0, 140.0), 0.7, 1.57, 1.0)  # a tile the frame cuts
    kept = without_slivers([*row, stick_end, thin, at_edge], (480, 640), CFG)
    assert kept == [*row, at_edge]
    assert without_slivers([*row, stick_end], (480, 640), VisionConfig(min_tile_ratio=0.0)) == [
        *row,
        stick_end,
    ]


def test_a_row_of_tiles_is_no_sliver_beside_larger_boxes_elsewhere_in_the_frame():
    # A real table's shelf behind the tiles: six book spines found as large boxes, far away.
    row = [
        Candidate((100.0 + 30 * i, 300.0, 130.0 + 30 * i, 340.0), 0.9, 1.57, 1.0) for i in range(5)
    ]
    books = [Candidate((300.0 + 50 * i, 20.0, 345.0 + 50 * i, 220.0), 0.8, 1.57, 1.0)
             for i in range(6)]
    stick_end = Candidate((250.0, 300.0, 258.0, 318.0), 0.6, 1.57, 1.0)  # beside the row
    kept = without_slivers([*row, *books, stick_end], (480, 640), CFG)
    assert kept == [*row, *books]


def test_crops_are_turned_by_the_rows_angle_only_when_it_runs_far_off_a_frame_axis():
    def row(deg):  # seven 30-px tiles 32 px apart, long axes across the row
        a = math.radians(deg)
        return [
            Candidate(
                (
                    200 + 32 * k * math.cos(a) - 15,
                    200 + 32 * k * math.sin(a) - 15,
                    200 + 32 * k * math.cos(a) + 15,
                    200 + 32 * k * math.sin(a) + 15,
                ),
                0.9,
                (a + math.pi / 2) % math.pi,
                1.0,
            )
            for k in range(7)
        ]

    assert math.degrees(crop_turn(row(40), CFG)) == pytest.approx(40, abs=0.5)
    assert math.degrees(crop_turn(row(-30), CFG)) == pytest.approx(150, abs=0.5)
    assert crop_turn(row(20), CFG) == 0.0  # within turn_crops_from (25) of the x axis
    assert crop_turn(row(80), CFG) == 0.0  # ... of the y axis
    assert crop_turn(row(40), replace(CFG, turn_crops_from=90.0)) == 0.0  # off


def labelled(boxes, heat=None, sure=None):
    """Labelled tiles at ``boxes``: finder heat and top probability 0.9 unless given."""
    n = len(boxes)
    heat, sure = heat or [0.9] * n, sure or [0.9] * n
    pairs = zip(boxes, heat, strict=True)
    found = tuple(Candidate(tuple(map(float, b)), h, 1.57, 1.0) for b, h in pairs)
    return LabelledTiles(found, probs_for([("1m", p) for p in sure]), None, 0.0)


def test_a_tiles_print_or_top_boxed_again_inside_it_is_dropped():
    # a tile seen close (0..100 x 0..140), its print boxed again (20..80 x 30..110, all inside)
    # and its plain top (5..95 x -10..20: two thirds inside), both weaker peaks read less surely;
    # a tile beside it, overlapping it by a fifth as standing tiles seen low do, stays
    tiles = labelled([(0, 0, 100, 140), (20, 30, 80, 110), (5, -10, 95, 20), (80, 0, 180, 140)],
                     heat=[0.8, 0.5, 0.45, 0.8], sure=[0.9, 0.7, 0.4, 0.9])
    kept = without_nested(tiles, CFG)
    assert [c.box for c in kept.found] == [(0, 0, 100, 140), (80, 0, 180, 140)]
    assert kept.probs.shape == (2, len(MODEL_CLASSES))


def test_a_box_over_a_group_of_tiles_is_dropped_instead_of_the_tiles_inside_it():
    # two tiles side by side, boxed surely, and a weaker box over both that reads no label well
    tiles = labelled([(0, 0, 100, 140), (100, 0, 210, 150), (-10, -5, 215, 155)],
                     heat=[0.8, 0.7, 0.6], sure=[0.95, 0.9, 0.3])
    kept = without_nested(tiles, CFG).found
    assert [c.box for c in kept] == [(0, 0, 100, 140), (100, 0, 210, 150)]


def test_boxes_less_than_half_inside_another_all_stay_and_the_stage_turns_off():
    # a sideways tile overlapping its neighbour by 40 % of its area: no part of it
    tiles = labelled([(0, 0, 100, 140), (60, 70, 200, 170)])
    assert len(without_nested(tiles, CFG).found) == 2
    print_inside = labelled([(0, 0, 100, 140), (20, 30, 80, 110)], heat=[0.8, 0.4])
    assert len(without_nested(print_inside, CFG).found) == 1
    assert len(without_nested(print_inside, replace(CFG, nested_share=0.0)).found) == 2
