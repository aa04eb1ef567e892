"""Recovering a closed kan's missed face-down tile from the finder's weaker peaks."""

import math
from dataclasses import replace

import numpy as np
import pytest

from scorer.tiles import MODEL_CLASSES
from tests.vision.cross_set import read_right
from vision.classify import crop_turn
from vision.config import VisionConfig
from vision.postprocess import Candidate
from vision.reading import DetectedTile, Grouping, MeldKind, MeldReading, Reading
from vision.refine import (
    checked_cuts,
    recovered_backs,
    recovered_in_row,
    recovered_stacks,
    stack_cuts,
    without_slivers,
    worth_reading,
)
from vision.second_look import (
    PonLook,
    beside_called_tiles,
    kakan_probes,
    level_turn,
    pon_region,
    stacked_pairs,
    turned_back,
)

CFG = VisionConfig()
BACK = MODEL_CLASSES.index("back")


def tile(x, score=0.9):
    return Candidate((x, 100.0, x + 30.0, 140.0), score, 1.57, 1.0)


def probs_for(labels_and_p):
    """Rows of class probabilities: the named label gets p, the rest spread evenly."""
    rows = np.zeros((len(labels_and_p), len(MODEL_CLASSES)))
    for r, (label, p) in enumerate(labels_and_p):
        rows[r] = (1 - p) / (len(MODEL_CLASSES) - 1)
        rows[r, MODEL_CLASSES.index(label)] = p
    return rows


def test_a_weak_back_beside_a_closed_kan_is_kept_and_far_or_unsure_ones_are_not():
    # found: 1m, 6s, 6s, back at x = 0, 60, 90, 120 (tiles 30 wide); weak peaks at 30 (read
    # back 0.8: the kan's missing first back), 400 (back 0.95, but 9 widths from any back) and
    # 150 (back 0.6, under back_recovery_prob 0.7)
    found = [tile(0), tile(60), tile(90), tile(120)]
    weak = [tile(30, 0.3), tile(400, 0.3), tile(150, 0.3)]
    probs = probs_for(
        [("1m", 0.99), ("6s", 0.99), ("6s", 0.99), ("back", 0.99)]
        + [("back", 0.8), ("back", 0.95), ("back", 0.6)]
    )
    assert recovered_backs(found, weak, probs, CFG) == [0]


def test_nothing_is_recovered_without_a_located_back():
    found = [tile(0), tile(30)]
    probs = probs_for([("1m", 0.99), ("2m", 0.99), ("back", 0.99)])
    assert recovered_backs(found, [tile(60, 0.3)], probs, CFG) == []


def test_a_weak_tile_beside_one_of_its_kind_completes_an_added_kan():
    # found: 2m at x 0, 1z sideways at (100, 140); weak peaks: a 1z just above it (the stacked
    # added tile), a red 0m beside the 2m (another kind), a 1z far away, an unsure 1z (0.6)
    found = [tile(0), Candidate((100.0, 140.0, 140.0, 170.0), 0.9, 0.0, 1.0)]
    weak = [
        Candidate((100.0, 110.0, 140.0, 140.0), 0.3, 0.0, 1.0),
        tile(30, 0.3),
        tile(400, 0.3),
        Candidate((101.0, 108.0, 141.0, 138.0), 0.3, 0.0, 1.0),
    ]
    probs = probs_for(
        [("2m", 0.99), ("1z", 0.99)] + [("1z", 0.9), ("0m", 0.9), ("1z", 0.95), ("1z", 0.6)]
    )
    assert recovered_stacks(found, weak, probs, CFG) == [0]
    # a red five counts as its five: the 0m beside a located 5m is kept
    probs5 = probs_for(
        [("5m", 0.99), ("1z", 0.99)] + [("1z", 0.2), ("0m", 0.9), ("1z", 0.2), ("1z", 0.2)]
    )
    assert recovered_stacks(found, weak, probs5, CFG) == [1]


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


def test_weak_tiles_standing_behind_one_another_are_kept_a_tile_length_apart_one_by_one():
    # found: three standing tiles 30 x 60 (a tile's size: the root of its area, 42) in a row at
    # y 300..360; weak peaks, all sure: a tile standing one tile length (60) behind the middle
    # one, another a length behind that, and a third 2.5 lengths behind the last
    found = [Candidate((x, 300.0, x + 30.0, 360.0), 0.9, 1.57, 1.0) for x in (0.0, 32.0, 64.0)]
    weak = [Candidate((32.0, y, 62.0, y + 60.0), 0.35, 1.57, 1.0) for y in (240.0, 180.0, 30.0)]
    probs = probs_for([("3p", 0.7)] * 3)
    heads = np.array([0.9, 0.9, 0.9])
    assert recovered_in_row(found, weak, probs, heads, CFG) == [0, 1]
    alone = replace(CFG, row_recovery_chain=False)  # only those beside a located tile
    assert recovered_in_row(found, weak, probs, heads, alone) == [0]


def test_only_weak_peaks_some_rule_could_keep_are_classified():
    # found: 1m, 2m, 3m, back at x 0..90 (30 x 40: a size of 35, a row's reach 52); weak peaks:
    # at x 100, cold (0.22), within a stack's reach; at x 180, cold, 3 widths from the back (a
    # kan's back); cold at x 240 (nothing could keep it); hot (0.35) at x 300 but alone; hot at
    # x 140 and 185 (a row's next tiles, the second reached only through the first)
    found = [tile(0), tile(30), tile(60), tile(90)]
    probs = probs_for([("1m", 0.9), ("2m", 0.9), ("3m", 0.9), ("back", 0.9)])
    weak = [tile(100, 0.22), tile(180, 0.22), tile(240, 0.22), tile(300, 0.35)]
    weak += [tile(140, 0.35), tile(185, 0.35)]
    assert worth_reading(found, probs, weak, CFG) == [0, 1, 4, 5]
    no_back = probs_for([("1m", 0.9), ("2m", 0.9), ("3m", 0.9), ("4m", 0.9)])
    assert worth_reading(found, no_back, weak, CFG) == [0, 4, 5]
    alone = replace(CFG, row_recovery_chain=False)
    assert worth_reading(found, no_back, weak, alone) == [0, 4]


def test_a_real_sets_tiles_standing_half_hidden_in_a_group_are_kept():
    """The webcam set: a group of standing tiles the finder (never trained on it) gave only
    weak peaks, kept one beside the next; more of its 582 labelled tiles boxed and read right."""
    assert read_right(VisionConfig(row_recovery_chain=False)) == (555, 553)
    assert read_right() == (557, 555)


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


def _pon_reading(called_box, label="9p"):
    """A pon along x: two upright 30x40 tiles and the called tile (index 1), 40 long."""
    tiles = (
        DetectedTile(label, (100.0, 100.0, 130.0, 140.0), 0.9),
        DetectedTile(label, called_box, 0.9, sideways=True, detection_score=0.8),
        DetectedTile(label, (170.0, 100.0, 200.0, 140.0), 0.9),
    )
    grouping = Grouping(melds=(MeldReading(MeldKind.PON, (0, 1, 2), 1),))
    return Reading(tiles, grouping)


def spot(box):
    return Candidate(box, 0.3, 0.0, 1.0)


PON = _pon_reading((130.0, 110.0, 170.0, 140.0))


def test_pons_are_looked_at_again_in_a_square_crop_a_margin_of_tile_lengths_around_them():
    # tiles span x 100-200, y 100-140; the median long side is 40: 1.5 of it is 60 each way,
    # x 40-260 and y 40-200, made square (220) about the centre y = 120
    assert pon_region(PON, (480, 640), 1.5) == (40, 10, 260, 230)
    assert pon_region(PON, (200, 640), 1.5) == (40, 10, 260, 200)  # cut at the frame
    # no pon, or a pon of White dragons (a patch of table reads like one): nothing to look at
    assert pon_region(Reading(PON.tiles, Grouping()), (480, 640), 1.5) is None
    assert pon_region(_pon_reading((130.0, 110.0, 170.0, 140.0), "5z"), (480, 640), 1.5) is None


def test_a_tile_found_across_the_row_from_a_pons_called_tile_makes_it_an_added_kan():
    above = spot((130.0, 80.0, 170.0, 110.0))  # right above the called tile, clear of it
    far = spot((130.0, 20.0, 170.0, 50.0))  # 75 px off: beyond 1.5 of the called box's 40
    # the pon's upright tile found again: it may be one of a stacked pair the first pass boxed
    # as one, so it is kept; alone it is no added tile, and it lies diagonally from `below`
    on_pon = spot((100.0, 100.0, 130.0, 140.0))
    below = spot((130.0, 145.0, 170.0, 175.0))  # 65 px from `above`: no pair with it
    outside = spot((130.0, 145.0, 170.0, 175.0))
    spots = [above, far, below, on_pon]
    assert beside_called_tiles(PON, spots, CFG.nms_iou) == [0, 2, 3]
    # ... but a box on a located tile outside the pon is not
    beyond = Reading(PON.tiles + (DetectedTile("1m", outside.box, 0.9),), PON.grouping)
    assert beside_called_tiles(beyond, spots, CFG.nms_iou) == [0, 3]
    # the likeliest of those read as the pon's kind is added; the called tile stays
    sure = probs_for([("9p", 0.8), ("9p", 0.9), ("9p", 0.9), ("9p", 0.9)])
    assert stacked_pairs(PON, spots, sure, CFG) == ([2], [])
    assert stacked_pairs(PON, spots[:2], sure[:2], CFG) == ([0], [])
    unsure = probs_for([("9p", 0.6), ("9p", 0.9)])
    assert stacked_pairs(PON, spots[:2], unsure, CFG) == ([], [])
    other_kind = probs_for([("8p", 0.9), ("9p", 0.9)])
    assert stacked_pairs(PON, spots[:2], other_kind, CFG) == ([], [])
    fives = _pon_reading((130.0, 110.0, 170.0, 140.0), "5p")
    assert stacked_pairs(fives, spots[:2], probs_for([("0p", 0.9)] * 2), CFG) == ([0], [])


def test_a_stacked_pair_the_first_pass_boxed_as_one_replaces_that_box():
    # the first pass boxed both sideways tiles as one (y 80-140); the second finds each
    merged = _pon_reading((130.0, 80.0, 170.0, 140.0))
    upper, lower = spot((130.0, 80.0, 170.0, 108.0)), spot((130.0, 110.0, 170.0, 140.0))
    assert stacked_pairs(merged, [upper, lower], probs_for([("9p", 0.8)] * 2), CFG) == (
        [0, 1],
        [1],
    )
    # of two pairs the one lying squarely across the row, not the surer one lying askew
    askew = spot((145.0, 112.0, 185.0, 142.0))
    probs = probs_for([("9p", 0.8), ("9p", 0.8), ("9p", 0.95)])
    assert stacked_pairs(merged, [upper, lower, askew], probs, CFG) == ([0, 1], [1])
    # two boxes side by side along the row are no stacked pair
    left, right = spot((130.0, 100.0, 150.0, 140.0)), spot((151.0, 100.0, 171.0, 140.0))
    assert stacked_pairs(merged, [left, right], probs_for([("9p", 0.8)] * 2), CFG) == ([], [])


def test_a_stacked_pair_replaces_the_pons_tile_it_lies_on_when_another_was_called():
    # the first pass boxed the pair as one (x 100-130, y 80-140) and the grammar called the
    # pon's middle tile; the second look finds the pair's two tiles over that first box
    tiles = (
        DetectedTile("9p", (100.0, 80.0, 130.0, 140.0), 0.9),
        DetectedTile("9p", (130.0, 100.0, 160.0, 140.0), 0.9, sideways=True),
        DetectedTile("9p", (160.0, 100.0, 190.0, 140.0), 0.9),
    )
    reading = Reading(tiles, Grouping(melds=(MeldReading(MeldKind.PON, (0, 1, 2), 1),)))
    upper, lower = spot((98.0, 80.0, 132.0, 108.0)), spot((100.0, 110.0, 130.0, 140.0))
    assert stacked_pairs(reading, [upper, lower], probs_for([("9p", 0.8)] * 2), CFG) == (
        [0, 1],
        [0],
    )
    # two boxes a tile apart along the row, one above it: diagonal, no pair
    aside = spot((130.0, 70.0, 160.0, 100.0))
    assert stacked_pairs(reading, [aside, lower], probs_for([("9p", 0.8)] * 2), CFG) == (
        [0],
        [],
    )


def _turned_pon(deg):
    """PON turned ``deg`` degrees (image y down) about its called tile's centre."""
    a = math.radians(deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    def turned(box):
        cx, cy = rot @ (np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2]) - (150, 125))
        w, h = box[2] - box[0], box[3] - box[1]
        return (150 + cx - w / 2, 125 + cy - h / 2, 150 + cx + w / 2, 125 + cy + h / 2)

    return replace(PON, tiles=tuple(replace(t, box=turned(t.box)) for t in PON.tiles))


def test_the_pons_second_look_is_turned_level_with_a_row_lying_off_a_frame_axis():
    assert level_turn(_turned_pon(30), 5.0) == pytest.approx(math.radians(30))
    assert level_turn(_turned_pon(-20), 5.0) == pytest.approx(math.radians(-20))
    # a row along the frame's y axis lies level too: 100 degrees is 10 off it
    assert level_turn(_turned_pon(100), 5.0) == pytest.approx(math.radians(10))
    assert level_turn(_turned_pon(4), 5.0) == 0.0  # near enough a frame axis already
    assert level_turn(Reading(PON.tiles, Grouping()), 5.0) == 0.0  # no pon


def test_a_tile_found_on_the_turned_canvas_is_boxed_in_frame_pixels():
    # the canvas of a 100 px square at (0, 0) turned a quarter: canvas (x, y) is frame
    # (100 - y, x); a tile lying along the canvas's x axis lies along the frame's y axis
    back = np.array([[0.0, -1.0, 100.0], [1.0, 0.0, 0.0]])
    got = turned_back(Candidate((10.0, 20.0, 30.0, 60.0), 0.5, 0.0, 0.9), back, math.pi / 2)
    assert got.box == pytest.approx((40.0, 10.0, 80.0, 30.0))
    assert got.angle == pytest.approx(math.pi / 2)
    assert (got.score, got.orientation_strength) == (0.5, 0.9)


def _probes(reading, boxes=None):
    return kakan_probes(reading, boxes or [t.box for t in reading.tiles])


def test_a_pons_sideways_tile_is_probed_for_an_added_kans_stacked_tile_on_either_side():
    probes = _probes(_pon_reading((130.0, 110.0, 170.0, 140.0)))
    assert [(meld, kind) for meld, kind, _ in probes] == [(0, "9p"), (0, "9p")]
    # one tile width (30, the others' extent along the row) above and below, score halved
    assert [c.box for _, _, c in probes] == [
        (130.0, 80.0, 170.0, 110.0),
        (130.0, 140.0, 170.0, 170.0),
    ]
    assert {c.score for _, _, c in probes} == {0.4}


def test_probes_are_placed_with_the_boxes_given_and_none_where_a_tile_has_none():
    # the same pon as boxed on a canvas 200 px to the right and 50 down
    reading = _pon_reading((130.0, 110.0, 170.0, 140.0))
    moved = [(b[0] + 200, b[1] + 50, b[2] + 200, b[3] + 50) for b in (t.box for t in reading.tiles)]
    assert [c.box for _, _, c in _probes(reading, moved)] == [
        (330.0, 130.0, 370.0, 160.0),
        (330.0, 190.0, 370.0, 220.0),
    ]
    assert _probes(reading, [moved[0], None, moved[2]]) == []


def test_on_a_turned_canvas_the_boxes_found_there_stand_for_the_tiles_they_overlap_most():
    # a canvas turned a quarter: canvas (x, y) is frame (300 - y, x); it boxed the pon's two
    # upright tiles (a little off) and a tile elsewhere, not the called tile
    back = np.array([[0.0, -1.0, 300.0], [1.0, 0.0, 0.0]])
    found = [
        spot((101.0, 170.0, 141.0, 200.0)),
        spot((0.0, 0.0, 30.0, 40.0)),
        spot((100.0, 99.0, 140.0, 131.0)),
    ]
    look = PonLook(np.zeros((300, 300, 3), np.uint8), back, math.pi / 2, found)
    assert look.level_boxes(PON, CFG.nms_iou) == [found[0].box, None, found[2].box]
    assert look.in_frame(found[0]).box == pytest.approx((100.0, 101.0, 130.0, 141.0))


def test_no_probe_beside_an_upright_called_tile_or_a_white_dragon():
    assert _probes(_pon_reading((130.0, 100.0, 160.0, 140.0))) == []  # 30 long: upright
    assert _probes(_pon_reading((130.0, 110.0, 170.0, 140.0), label="5z")) == []


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
