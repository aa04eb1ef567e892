"""Layout: rows, gaps, sideways tiles and face-down pairs -> concealed / winning / melds / dora,
whichever way the row runs. Poses are built from a flat plan, rotated into the frame."""

import math

import pytest

from vision.config import VisionConfig
from vision.kinds import meld_kind
from vision.layout import TilePose, gap_problem, group_tiles, row_angle
from vision.problems import (
    AWAY,
    EXTRA_GAPS,
    EXTRA_ROW,
    FACE_DOWN,
    GRAMMAR,
    IN_HAND,
    LEFTOVER,
    MELD_NOT_SET,
    NO_WINNING_GAP,
    ON_MELD,
    UNRESOLVED,
    Problem,
)
from vision.reading import MeldKind

CFG = VisionConfig()
W = 30.0  # tile width in pixels; faces are 4/3 as tall


def poses_for(items, angle_deg, centre=(400.0, 300.0)):
    """items: (label, x, y, sideways, face_down) in tile widths, x along the row."""
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    poses, labels = [], []
    for label, x, y, side, down in items:
        w, h = (4 / 3, 1.0) if side else (1.0, 4 / 3)
        cx, cy = (x + w / 2) * W, (y + h / 2) * W
        corners = [(cx + dx * w * W / 2, cy + dy * h * W / 2) for dx in (-1, 1) for dy in (-1, 1)]
        pts = [(centre[0] + px * ca - py * sa, centre[1] + px * sa + py * ca) for px, py in corners]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        long_axis = (a if side else a + math.pi / 2) % math.pi
        poses.append(TilePose((min(xs), min(ys), max(xs), max(ys)), long_axis, 1.0, down))
        labels.append(label)
    return poses, labels


def hand_row(concealed, winning, melds, dora=(), between_melds=0.5):
    """Lay out like the synthetic scenes: tiles 1.03 apart, gaps 0.6 before the winning tile,
    0.5 before the first meld and ``between_melds`` between melds."""
    items, x = [], 0.0
    for t in concealed:
        items.append((t, x, -4 / 3, False, False))
        x += 1.03
    x += 0.6
    items.append((winning, x, -4 / 3, False, False))
    x += 1.03
    for m, (kind, tiles, called) in enumerate(melds):
        x += between_melds if m else 0.5
        for i, t in enumerate(tiles):
            if kind == "ankan" and i in (0, 3):
                items.append(("back", x, -4 / 3, False, True))
                x += 1.03
            elif kind == "kakan" and i == 3:
                continue
            elif i == called:
                items.append((t, x, -1.0, True, False))
                if kind == "kakan":
                    items.append((tiles[3], x, -2.03, True, False))
                x += 4 / 3 + 0.03
            else:
                items.append((t, x, -4 / 3, False, False))
                x += 1.03
    for i, t in enumerate(dora):
        items.append((t, 2 + i * 1.03, -5.5, False, False))
    return items


def labels_of(layout, labels):
    g = layout.grouping
    return (
        [labels[i] for i in g.concealed],
        None if g.winning is None else labels[g.winning],
        [(m.kind.value, [labels[i] for i in m.tiles]) for m in g.melds],
        [labels[i] for i in g.dora],
    )


CONCEALED = ["1m", "2m", "3m", "4p", "5p", "6p", "9s"]  # + 9s and MELDS: 14 tiles, a win
MELDS = [("pon", ["5z", "5z", "5z"], 2), ("chi", ["3s", "4s", "5s"], 0)]


@pytest.mark.parametrize("angle", [0, 90, 180, 270, 37, -20])
def test_row_with_pon_and_chi_reads_the_same_at_any_rotation(angle):
    poses, labels = poses_for(hand_row(CONCEALED, "9s", MELDS, dora=["2z"]), angle)
    layout = group_tiles(poses, labels, CFG)
    concealed, winning, melds, dora = labels_of(layout, labels)
    assert concealed == CONCEALED
    assert winning == "9s"
    assert melds == [("pon", ["5z", "5z", "5z"]), ("chi", ["3s", "4s", "5s"])]
    assert dora == ["2z"]
    assert [labels[i] for i, s in enumerate(layout.sideways) if s] == ["5z", "3s"]
    assert layout.problems == ()


def test_closed_and_added_kans():
    melds = [("ankan", ["7p", "7p", "7p", "7p"], None), ("kakan", ["1z", "1z", "1z", "1z"], 1)]
    poses, labels = poses_for(hand_row(["2m", "3m", "4m", "6s", "6s"], "5s", melds), 0)
    layout = group_tiles(poses, labels, CFG)
    _, winning, got, _ = labels_of(layout, labels)
    assert winning == "5s"
    assert got == [("ankan", ["back", "7p", "7p", "back"]), ("kakan", ["1z", "1z", "1z", "1z"])]
    assert layout.grouping.melds[1].called is not None


def test_open_kan_is_four_of_a_kind_with_one_sideways_tile():
    melds = [("minkan", ["9m", "9m", "9m", "9m"], 3), ("pon", ["0p", "5p", "5p"], 1)]
    poses, labels = poses_for(hand_row(["1p", "1p", "1p", "2z"], "2z", melds), 0)
    _, _, got, _ = labels_of(group_tiles(poses, labels, CFG), labels)
    assert got == [("minkan", ["9m", "9m", "9m", "9m"]), ("pon", ["0p", "5p", "5p"])]


def test_reversed_row_is_read_from_the_concealed_end():
    """Melds at the left of the frame (the player faces the other way): the row runs right to
    left, found from where the sideways tiles are."""
    poses, labels = poses_for(hand_row(CONCEALED, "9s", MELDS), 180)
    layout = group_tiles(poses, labels, CFG)
    assert labels_of(layout, labels)[0] == CONCEALED


def test_missing_gap_is_reported_not_guessed():
    items = [(t, i * 1.03, -4 / 3, False, False) for i, t in enumerate(CONCEALED + ["9s"])]
    poses, labels = poses_for(items, 0)
    layout = group_tiles(poses, labels, CFG)
    assert layout.grouping.winning is None
    assert Problem.of(NO_WINNING_GAP) in layout.problems


def test_row_direction_without_orientation_uses_the_centres():
    poses, _ = poses_for(hand_row(CONCEALED, "9s", []), 30)
    flat = [TilePose(p.box, 0.0, 0.0, p.face_down) for p in poses]
    assert math.degrees(row_angle(flat)) == pytest.approx(30, abs=0.5)


def test_an_open_kans_fourth_tile_cut_off_by_a_gap_still_makes_the_kan():
    # a point stick across the row opens half a tile's gap before the kan's last tile
    items = hand_row([*CONCEALED, "2z", "2z", "2z"], "9s", [("minkan", ["1z"] * 4, 1)])
    items[-1] = (items[-1][0], items[-1][1] + 0.5, *items[-1][2:])
    poses, labels = poses_for(items, 0)
    melds = labels_of(group_tiles(poses, labels, CFG), labels)[2]
    assert melds == [("minkan", ["1z"] * 4)]


def test_a_gap_inside_a_meld_does_not_break_it():
    # the chi's called tile stands apart from its other two by 0.4 of a tile
    items = hand_row(CONCEALED, "9s", MELDS)
    at = max(k for k, it in enumerate(items) if it[0] == "3s")
    items = [it if k <= at else (it[0], it[1] + 0.4, *it[2:]) for k, it in enumerate(items)]
    poses, labels = poses_for(items, 0)
    layout = group_tiles(poses, labels, CFG)
    assert labels_of(layout, labels)[2] == [("pon", ["5z"] * 3), ("chi", ["3s", "4s", "5s"])]
    assert not any(p.key == LEFTOVER for p in layout.problems)


def test_row_direction_follows_the_centres_when_the_long_axes_lean():
    # every finder axis leans 6 degrees off (as they scatter on real frames); the tiles' centres
    # still run level, and so does the row: a dora tile 2.4 widths above stays out of it
    poses, labels = poses_for(hand_row(CONCEALED, "9s", MELDS, dora=["2z"]), 0)
    leaning = [TilePose(p.box, p.angle + math.radians(6), 1.0, p.face_down) for p in poses]
    assert math.degrees(row_angle(leaning)) == pytest.approx(0, abs=0.5)
    assert labels_of(group_tiles(leaning, labels, CFG), labels)[3] == ["2z"]


@pytest.mark.parametrize(
    ("labels", "stacked", "closed", "kind"),
    [
        (["3s", "4s", "5s"], False, False, MeldKind.CHI),
        (["0s", "3s", "4s"], False, False, MeldKind.CHI),
        (["5z", "5z", "5z"], False, False, MeldKind.PON),
        (["7z"] * 3, False, False, MeldKind.PON),
        (["back", "2m", "2m", "back"], False, True, MeldKind.ANKAN),
        (["2m"] * 4, True, False, MeldKind.KAKAN),
        (["2m"] * 4, False, False, MeldKind.MINKAN),
    ],
)
def test_meld_kind(labels, stacked, closed, kind):
    assert meld_kind(labels, stacked, closed) == kind


def test_the_classifiers_glyph_axis_decides_sideways_when_the_finder_is_unsure():
    # a visible tile side makes boxes near-square: only the glyph axis tells sideways tiles
    poses, labels = poses_for(hand_row(CONCEALED, "9s", MELDS), 0)
    vertical = [0.1 if p.box[2] - p.box[0] > p.box[3] - p.box[1] else 0.9 for p in poses]
    square = [  # same centres, boxes made square
        TilePose((cx - 0.6 * W, cy - 0.6 * W, cx + 0.6 * W, cy + 0.6 * W), 0.0, 0.0, p.face_down, v)
        for p, v in zip(poses, vertical, strict=True)
        for cx, cy in [p.centre]
    ]
    layout = group_tiles(square, labels, CFG)
    assert [labels[i] for i, s in enumerate(layout.sideways) if s] == ["5z", "3s"]
    assert labels_of(layout, labels)[2] == [("pon", ["5z"] * 3), ("chi", ["3s", "4s", "5s"])]


@pytest.mark.parametrize("angle", [0, 180, 45, 225, 120])
def test_four_called_melds_read_from_the_concealed_end_though_both_ends_show_sideways_tiles(angle):
    # a pair, the winning tile, four chi: sideways tiles lie at both ends of the row, so only
    # the whole reading (no sideways tile among concealed ones, 14 tiles) tells the direction
    chis = [
        ("chi", [f"{n}{s}", f"{n + 1}{s}", f"{n + 2}{s}"], c)
        for n, s, c in [(5, "m", 1), (4, "p", 2), (3, "m", 0), (3, "p", 2)]
    ]
    poses, labels = poses_for(hand_row(["4z"], "4z", chis, between_melds=0.0), angle)
    concealed, winning, melds, _ = labels_of(group_tiles(poses, labels, CFG), labels)
    assert (concealed, winning) == (["4z"], "4z")
    assert melds == [(kind, tiles) for kind, tiles, _ in chis]


@pytest.mark.parametrize("angle", [0, 45, 135, 270])
def test_closed_kan_pushed_against_the_next_meld_is_still_a_closed_kan(angle):
    melds = [("ankan", ["1s"] * 4, None), ("chi", ["5p", "6p", "7p"], 1)]
    items = hand_row(["1p", "2p", "8p", "8p", "4z", "4z", "4z"], "3p", melds)
    at = [k for k, it in enumerate(items) if it[0] == "5p"][0]  # no gap before the chi
    items = [it if k < at else (it[0], it[1] - 0.5, *it[2:]) for k, it in enumerate(items)]
    poses, labels = poses_for(items, angle)
    got = labels_of(group_tiles(poses, labels, CFG), labels)[2]
    assert got == [("ankan", ["back", "1s", "1s", "back"]), ("chi", ["5p", "6p", "7p"])]


def test_a_dora_tile_above_an_added_kan_is_not_joined_to_the_row_through_its_stacked_tile():
    # the kakan's stacked tile lies a tile width above the row; the dora tile 1.1 widths above
    # that: each jump is under the row split, the dora tile's distance from the row is not
    melds = [("kakan", ["4p"] * 4, 1), ("chi", ["6s", "7s", "8s"], 0)]
    items = hand_row(["6z", "6z", "6z", "1m", "2m", "3m", "9p"], "9p", melds)
    stacked_x = [it[1] for it in items if it[0] == "4p" and it[3]][0]
    items.append(("3p", stacked_x, -3.5, False, False))
    poses, labels = poses_for(items, 0)
    layout = group_tiles(poses, labels, CFG)
    concealed, winning, got, dora = labels_of(layout, labels)
    assert got == [("kakan", ["4p"] * 4), ("chi", ["6s", "7s", "8s"])]
    assert dora == ["3p"]


def test_gaps_are_measured_against_the_tiles_nearby_so_perspective_does_not_open_false_ones():
    # a camera low at one end: each tile 4 % larger than the last (1.0 -> 1.67 widths along
    # the row), touching, with the winning tile 0.4 of its own width apart; a gap measured in
    # the frame's median tile width would split the near, large tiles and miss the far one
    tiles = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "6z", "6z", "6z"]
    poses, x = [], 0.0
    for k, _ in enumerate(tiles):
        s = W * 1.04**k
        x += 0.4 * s if k == len(tiles) - 1 else 0.0
        poses.append(TilePose((x, 300 - 4 / 3 * s, x + s, 300.0), math.pi / 2, 1.0, False))
        x += s
    layout = group_tiles(poses, tiles, CFG)
    concealed, winning, melds, _ = labels_of(layout, tiles)
    assert (concealed, winning, melds) == (tiles[:-1], "6z", [])
    assert layout.problems == ()


def test_a_single_wait_pair_needs_no_gap_before_its_winning_tile():
    # four melds, then the pair: one concealed 9p and the winning 9p pushed against it
    melds = [("pon", ["1z"] * 3, 1), ("chi", ["5s", "6s", "7s"], 0), ("pon", ["4z"] * 3, 2)]
    melds.append(("ankan", ["1m"] * 4, None))
    items = hand_row(["9p"], "9p", melds)
    items[1] = (items[1][0], 1.03, *items[1][2:])  # no gap
    poses, labels = poses_for(items, 0)
    layout = group_tiles(poses, labels, CFG)
    concealed, winning, got, _ = labels_of(layout, labels)
    assert (concealed, winning) == (["9p"], "9p")
    assert [kind for kind, _ in got] == ["pon", "chi", "pon", "ankan"]
    assert layout.problems == ()


def test_the_dora_row_is_the_other_row_with_the_most_tiles_not_a_stray_one_nearer():
    # a stray tile (a point stick's end read as White) 2 widths off the row, the two dora
    # indicators 4.2 widths off it
    items = hand_row(CONCEALED, "9s", MELDS, dora=["2z", "3z"])
    items.append(("5z", 9.0, -3.3, False, False))
    poses, labels = poses_for(items, 0)
    layout = group_tiles(poses, labels, CFG)
    assert labels_of(layout, labels)[3] == ["2z", "3z"]
    assert [labels[i] for i in layout.grouping.unassigned] == ["5z"]
    assert layout.problems == (Problem.of(EXTRA_ROW, n=1),)


WALL = ["1m", "9p", "3z", "7s", "2p", "2p", "8m", "4z", "6s", "1p", "5m", "7z"]


@pytest.mark.parametrize("angle", [0, 90, 37])
def test_a_wall_behind_the_hand_is_set_aside_not_read_as_dora(angle):
    """Twelve tiles in a row where a dora row would lie: more than five dora and five ura,
    so no dora row."""
    items = hand_row(CONCEALED, "9s", MELDS)
    items += [(t, 0.5 + 1.03 * k, -5.5, False, False) for k, t in enumerate(WALL)]
    poses, labels = poses_for(items, angle)
    layout = group_tiles(poses, labels, CFG)
    concealed, winning, melds, dora = labels_of(layout, labels)
    assert (concealed, winning, dora) == (CONCEALED, "9s", [])
    assert sorted(labels[i] for i in layout.grouping.unassigned) == sorted(WALL)
    assert Problem.of(AWAY, n=12) in layout.problems


@pytest.mark.parametrize("angle", [0, 90, 33])
def test_a_longer_wall_of_face_down_tiles_is_set_aside_not_read_as_the_hand(angle):
    """Seventeen backs lying sideways in a column beside the hand (a wall seen from above):
    more tiles than the hand's row and across it, but the hand is the row shown face up."""
    items = hand_row(CONCEALED, "9s", MELDS)
    items += [("back", -3.0, -8.0 + 0.78 * k, True, True) for k in range(17)]
    poses, labels = poses_for(items, angle)
    layout = group_tiles(poses, labels, CFG)
    concealed, winning, melds, dora = labels_of(layout, labels)
    assert (concealed, winning, dora) == (CONCEALED, "9s", [])
    assert melds == [("pon", ["5z", "5z", "5z"]), ("chi", ["3s", "4s", "5s"])]
    assert [labels[i] for i in layout.grouping.unassigned] == ["back"] * 17


def test_a_row_far_from_the_hand_is_no_dora_row():
    """Two tiles 7 widths off the hand (discards across the mat) are set aside."""
    items = hand_row(CONCEALED, "9s", MELDS)
    items += [("2z", 2.0, -7.0 - 4 / 3, False, False), ("3z", 3.03, -7.0 - 4 / 3, False, False)]
    poses, labels = poses_for(items, 0)
    layout = group_tiles(poses, labels, CFG)
    assert labels_of(layout, labels)[3] == []
    assert sorted(labels[i] for i in layout.grouping.unassigned) == ["2z", "3z"]
    assert layout.problems == (Problem.of(AWAY, n=2),)


def test_a_false_box_stacked_on_a_chi_is_left_out_not_made_an_added_kan():
    # an 8p read where nothing lies, just above the chi's middle 8p (an added kan's stacked
    # tile would lie above the sideways one): 7p 8p 9p 8p is no kan, the chi stays a chi
    melds = [("pon", ["5z", "5z", "5z"], 2), ("chi", ["7p", "8p", "9p"], 0)]
    items = hand_row(CONCEALED[:6] + ["3s"], "3s", melds)
    middle = [it for it in items if it[0] == "8p"][0]
    items.append(("8p", middle[1] + 0.1, -2.1, False, False))
    poses, labels = poses_for(items, 0)
    layout = group_tiles(poses, labels, CFG)
    assert labels_of(layout, labels)[2] == [("pon", ["5z"] * 3), ("chi", ["7p", "8p", "9p"])]
    assert [labels[i] for i in layout.grouping.unassigned] == ["8p"]
    assert layout.problems == (Problem.of(ON_MELD, n=1),)


def test_a_false_box_pushed_against_the_last_pon_is_left_over_not_made_an_open_kan():
    # a point stick's end read as White right after the pon of 5m: 5m 5m 5m 5z is no kan, so
    # the box is a leftover (2.0) rather than the fourth tile of a kan that is no set (3.0)
    melds = [("chi", ["1p", "2p", "3p"], 0), ("pon", ["5m", "5m", "5m"], 1)]
    items = hand_row(["3m", "4m", "5m", "1p", "2p", "7z", "7z"], "3p", melds)
    items.append(("5z", items[-1][1] + 1.03, -4 / 3, False, False))
    poses, labels = poses_for(items, 0)
    layout = group_tiles(poses, labels, CFG)
    assert labels_of(layout, labels)[2] == [("chi", ["1p", "2p", "3p"]), ("pon", ["5m"] * 3)]
    assert [labels[i] for i in layout.grouping.unassigned] == ["5z"]
    assert layout.problems == (Problem.of(LEFTOVER, n=1),)


def test_of_two_readings_alike_the_winning_tile_is_the_one_set_apart_widest():
    # a closed hand with a gap after its first tile (0.6 wide) and one before its last (0.3):
    # from either end, one gap sets the winning tile apart and one splits the hand; the wider
    # marks the winning tile, so the row is read from its right end
    labels = ["1s", "7s", "6s", "6s", "0s", "5s", "4s", "3s", "2s", "9p", "9p", "7p", "7p", "7p"]
    xs = [0.0] + [1.63 + 1.03 * k for k in range(12)]
    xs.append(xs[-1] + 1.33)
    items = [(t, x, -4 / 3, False, False) for t, x in zip(labels, xs, strict=True)]
    poses, got = poses_for(items, 0)
    layout = group_tiles(poses, got, CFG)
    concealed, winning, melds, _ = labels_of(layout, got)
    assert (winning, sorted(concealed), melds) == ("1s", sorted(labels[1:]), [])
    assert layout.problems == (Problem.of(EXTRA_GAPS, n=1),)


def test_a_face_down_box_outside_a_closed_kan_is_set_aside_not_read_into_the_hand():
    # a patch of blue table in a gap of the concealed tiles, read as a blue back: no other
    # face-down tile three places off, so it cannot be a closed kan's end and is left out
    concealed = ["1m", "2m", "3m", "4p", "5p", "6p", "9s"]
    items = hand_row(concealed, "9s", MELDS)
    items = [(t, x + (1.03 if x > 3.5 else 0.0), y, s, d) for t, x, y, s, d in items]
    items.append(("back", 3.6, -4 / 3, False, True))  # in the gap opened after 4p
    poses, labels = poses_for(items, 0)
    layout = group_tiles(poses, labels, CFG)
    melds = [("pon", ["5z"] * 3), ("chi", ["3s", "4s", "5s"])]
    assert labels_of(layout, labels) == (concealed, "9s", melds, [])
    assert [labels[i] for i in layout.grouping.unassigned] == ["back"]
    assert layout.problems == (  # the gap it lay in is told too
        Problem.of(EXTRA_GAPS, n=1),
        Problem.of(FACE_DOWN, n=1),
    )
    # a closed kan's two backs, three places apart, stay
    melds = [("ankan", ["7p", "7p", "7p", "7p"], None)] + MELDS[1:]
    poses, labels = poses_for(hand_row(concealed[:4] + ["9s", "9s", "9s"], "4p", melds), 0)
    closed = labels_of(group_tiles(poses, labels, CFG), labels)[2][0]
    assert closed == ("ankan", ["back", "7p", "7p", "back"])


def test_problems_only_about_the_gaps_between_concealed_tiles_are_told_apart():
    assert gap_problem(Problem.of(NO_WINNING_GAP))
    assert gap_problem(Problem.of(EXTRA_GAPS, n=2))
    assert not gap_problem(Problem.of(IN_HAND, n=13))
    assert not gap_problem(Problem.of(GRAMMAR, n=1))
    broken = Problem.of(MELD_NOT_SET, meld=1, kind="pon", tiles=("8s", "5z", "6p"))
    assert not gap_problem(Problem.of(UNRESOLVED, problem=broken))
