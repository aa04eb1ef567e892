"""Solid standing tiles (vision.synth.upright): the camera's geometry, who hides whom, backs,
and labels that hold the whole tile."""

import math
import random

import numpy as np
import pytest

from tests.shared import ART, need
from vision.synth.scene import FACE_H
from vision.synth.upright import SUPER, Camera, Look, Standing, draw_standing, render_upright

SIZE = (320, 240)
INK = (0, 0, 0)


class BlockArt:
    """A fixed tile set for these tests: every face its body colour with a black block in the
    middle half, so a printed face is told from a plain side."""

    seam = 0.0

    @staticmethod
    def body_colours(front, back):
        return front, back

    @staticmethod
    def face(label, front, width):
        height = int(round(width * FACE_H))
        img = np.empty((height, width, 3), np.uint8)
        img[:] = front
        img[height // 4 : 3 * height // 4, width // 4 : 3 * width // 4] = INK
        return img

    @staticmethod
    def back(colour, width):
        img = np.empty((int(round(width * FACE_H)), width, 3), np.uint8)
        img[:] = colour
        return img


def level_camera(x=0.0, distance=8.0, pitch=0.0):
    """Looking at the middle of a tile standing at (x, 0) from ``distance`` tile widths."""
    return Camera.looking_at((x, 0.0, FACE_H / 2), distance, pitch, 300.0, (160.0, 120.0))


def table(value=90.0):
    return np.full((SIZE[1] * SUPER, SIZE[0] * SUPER, 3), value, np.float32)


def test_the_aim_lands_on_the_principal_point_and_a_face_seen_square_on_keeps_its_shape():
    cam = level_camera(distance=8.0)
    assert cam.project(np.array([[0.0, 0.0, FACE_H / 2]]))[0] == pytest.approx([160.0, 120.0])
    # the face plane of a tile 0.75 deep lies 0.375 nearer than its middle: a rectangle
    near = 8.0 - 0.375
    face = np.array([[-0.5, -0.375, FACE_H], [0.5, -0.375, FACE_H], [0.5, -0.375, 0.0]])
    (tlx, tly), (trx, try_), (brx, bry) = cam.project(face)
    assert try_ == pytest.approx(tly) and brx == pytest.approx(trx)
    assert trx - tlx == pytest.approx(300.0 / near)  # one tile width at that depth
    assert (bry - try_) / (trx - tlx) == pytest.approx(FACE_H)


def test_a_camera_above_the_table_looks_down_on_the_tile():
    low, high = level_camera(pitch=0.0), level_camera(pitch=math.radians(30))
    top_front, top_back = np.array([[0.0, -0.375, FACE_H]]), np.array([[0.0, 0.375, FACE_H]])
    # level: the back edge of the top hides behind the front edge; from above it shows higher
    assert low.project(top_back)[0, 1] > low.project(top_front)[0, 1]
    assert high.project(top_back)[0, 1] < high.project(top_front)[0, 1]


def test_a_tile_hidden_behind_a_nearer_one_is_no_label_and_one_beside_it_is():
    look = Look(depth=0.75)
    behind = [Standing("1m", 0.0, 0.0), Standing("9p", 0.0, 2.0)]
    img, labels = draw_standing(behind, level_camera(), table(), BlockArt(), look)
    assert img.shape == (SIZE[1], SIZE[0], 3)
    assert [t.label for t in labels] == ["1m"]
    beside = [Standing("1m", 0.0, 0.0), Standing("9p", 3.0, 0.0)]
    _, labels = draw_standing(beside, level_camera(x=1.5), table(), BlockArt(), look)
    assert sorted(t.label for t in labels) == ["1m", "9p"]


def test_a_tile_turned_round_is_a_back_and_shows_no_print():
    look = Look(depth=0.75, back=(40.0, 190.0, 230.0))
    img, labels = draw_standing(
        [Standing("5p", 0.0, 0.0, math.pi)], level_camera(), table(), BlockArt(), look
    )
    assert [(t.label, t.face_down) for t in labels] == [("back", True)]
    x0, y0, x1, y1 = (int(v) for v in labels[0].box)
    middle = img[(y0 + y1) // 2, (x0 + x1) // 2].astype(float)
    lit = look.ambient + (1 - look.ambient) * max(0.0, 0.5 / math.hypot(0.5, 1.0))
    assert middle == pytest.approx(np.array(look.back) * lit, abs=3)


def test_a_face_toward_the_camera_is_printed_and_its_box_holds_the_top_above_it():
    look = Look(depth=0.75)
    cam = level_camera(pitch=math.radians(30))
    img, labels = draw_standing([Standing("3s", 0.0, 0.0)], cam, table(), BlockArt(), look)
    (tile,) = labels
    assert (tile.label, tile.face_down, tile.sideways) == ("3s", False, False)
    quad = np.array(tile.quad)
    cx, cy = quad.mean(axis=0).astype(int)
    assert img[cy, cx].max() < 40  # the face's ink, where the face's middle lands
    x0, y0, x1, y1 = tile.box
    assert x0 <= quad[:, 0].min() and quad[:, 0].max() <= x1 and quad[:, 1].max() <= y1 + 1e-6
    # from 30 degrees above, the top shows above the face: the box starts higher than the face
    assert quad[:, 1].min() - y0 > 0.25 * (quad[:, 1].max() - quad[:, 1].min())
    # the face's glyph-up edge is TL-TR: a standing tile's long axis points up the image
    assert quad[0][1] < quad[3][1] and quad[1][1] < quad[2][1]


def test_the_same_seed_renders_the_same_scene_of_standing_tiles():
    a = render_upright(BlockArt(), random.Random(11), SIZE)
    b = render_upright(BlockArt(), random.Random(11), SIZE)
    assert (a[0] == b[0]).all() and a[1] == b[1]
    assert a[0].shape == (SIZE[1], SIZE[0], 3)
    assert a[1] and all(t.group == "upright" and not t.sideways for t in a[1])
    for t in a[1]:
        x0, y0, x1, y1 = t.box
        assert 0 <= x0 < x1 <= SIZE[0] and 0 <= y0 < y1 <= SIZE[1]


def test_a_scene_drawn_upright_is_rendered_as_solid_standing_tiles():
    from vision.synth.draws import SceneDraws
    from vision.synth.hands import random_hand

    assert SceneDraws.of(5, 0) == SceneDraws()  # no share: every scene lies flat, as before
    draws = SceneDraws.of(5, 0, standing_share=1.0, upright_share=1.0)
    assert draws.upright and draws.standing
    hand = random_hand(random.Random(3))
    img, tiles = draws.render(hand, BlockArt(), random.Random(11), SIZE)
    want = render_upright(BlockArt(), random.Random(11), SIZE)
    assert (img == want[0]).all() and tiles == want[1]


def test_the_synth_cli_writes_upright_scenes_with_their_boxes_and_no_layout(tmp_path):
    import cv2

    from vision.manifest import read_manifest
    from vision.synth.art import ArtSource
    from vision.training.synth_cli import generate

    pytest.importorskip("PIL")
    need(*ART)  # the scenes are drawn from its art
    generate(tmp_path, 2, 555, "upright", SIZE, quality=100, faces="mixed", upright=True)
    entries = read_manifest(tmp_path / "manifest.jsonl")
    assert [e.split for e in entries] == ["upright", "upright"] and entries[0].layout is None
    for i, e in enumerate(entries):  # each scene's own stream, as the held-out sets seed it
        img, tiles = render_upright(
            ArtSource(0.5).for_scene(555, i), random.Random(555 * 1_000_003 + i), SIZE
        )
        assert [(t.label, t.box, t.face_down) for t in e.tiles] == [
            (t.label, tuple(round(v, 1) for v in t.box), t.face_down) for t in tiles
        ]
        assert np.abs(cv2.imread(str(e.path)).astype(int) - img).mean() < 2  # JPEG at 100
