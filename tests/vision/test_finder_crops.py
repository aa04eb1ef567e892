"""Classifier training data cut where the shipped finder boxes each labelled tile."""

import random
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from scorer.tiles import MODEL_CLASSES
from tests.shared import ART, need
from vision.manifest import LabelledImage, LabelledTile
from vision.recogniser import default_models_dir
from vision.synth.hands import random_hand
from vision.training.data import STORE, finder_crops


def test_each_crop_carries_the_label_of_the_tile_the_finder_boxed(tmp_path: Path) -> None:
    need(*ART)
    from vision.synth.art import load_art
    from vision.synth.scene import render

    img, tiles = render(random_hand(random.Random(11)), load_art(), random.Random(11))
    cv2.imwrite(str(tmp_path / "scene.png"), img)
    entry = LabelledImage(
        "scene.png",
        tmp_path / "scene.png",
        img.shape[1],
        img.shape[0],
        "train",
        tuple(LabelledTile(t.label, t.box) for t in tiles),
    )
    x, y = finder_crops([entry], default_models_dir())
    assert x.shape[1:] == (STORE, STORE, 3) and len(x) == len(y)
    truth = Counter(t.label for t in tiles)
    got = Counter(MODEL_CLASSES[i] for i in y)
    assert len(y) >= 0.9 * len(tiles)  # the shipped finder locates nearly every rendered tile
    assert got <= truth  # and each crop is labelled as the tile it overlaps, never another


def test_the_low_resolution_augmentation_takes_fine_detail_away(monkeypatch) -> None:
    # a stored crop of 2-px stripes (a glyph's strokes): shrunk to 16-36 px and back, the
    # stripes blur out; the crops that skip the step keep them (same draws otherwise)
    import numpy as np

    from vision.training import data

    stripes = np.zeros((STORE, STORE, 3), np.uint8)
    stripes[:, ::4] = stripes[:, 1::4] = 255

    def detail(share: float) -> float:
        monkeypatch.setattr(data, "LOW_RES_SHARE", share)
        rng = np.random.default_rng(0)
        crops = [data.augment_crop(stripes, rng, True)[0] for _ in range(40)]
        return float(np.mean([np.abs(np.diff(c.astype(float), axis=1)).mean() for c in crops]))

    assert detail(1.0) < 0.5 * detail(0.0)


def test_the_tile_heads_crops_are_the_finders_boxes_on_tiles_and_off_them() -> None:
    need(*ART)
    import numpy as np

    from vision.synth.art import load_art
    from vision.synth.scene import render
    from vision.training.data import tile_or_not

    x, y = tile_or_not(3, seed=5, models_dir=default_models_dir())
    assert x.shape[1:] == (STORE, STORE, 3) and len(x) == len(y)
    assert set(np.unique(y)) == {0, 1}
    rendered = 0
    for i in range(3):  # the same scenes, rendered as tile_or_not renders them
        rng = random.Random(5 * 1_000_003 + i)
        hand = random_hand(rng)
        rendered += len(render(hand, load_art(), rng, rng.choice([(640, 480), (480, 640)]))[1])
    assert 0.9 * rendered <= int((y == 1).sum()) <= rendered  # nearly every tile, once each
    assert int((y == 0).sum()) >= 3  # at least a patch of table a scene


def test_scene_crops_carry_the_label_of_the_rendered_tile_the_finder_boxed() -> None:
    need(*ART)
    from vision.synth.art import load_art
    from vision.synth.scene import render
    from vision.training.data import scene_crops

    x, y, axis = scene_crops(2, seed=17, models_dir=default_models_dir())
    assert x.shape[1:] == (STORE, STORE, 3) and len(x) == len(y) == len(axis)
    truth: Counter[str] = Counter()
    for i in range(2):  # the same scenes as scene_crops renders them (a closed kan among them)
        rng = random.Random(17 * 1_000_003 + i)
        hand = random_hand(rng)
        tiles = render(hand, load_art(), rng, rng.choice([(640, 480), (480, 640)]))[1]
        truth.update(t.label for t in tiles)
    got = Counter(MODEL_CLASSES[i] for i in y)
    assert sum(got.values()) >= 0.9 * sum(truth.values())  # nearly every tile
    assert got <= truth  # each labelled as the tile it overlaps, face-down ones as backs
    assert got["back"] == truth["back"] == 2
    # the glyph axis as the balanced rows give it: both scenes' rows run near the frame's x
    # axis, so their 28 upright tiles stand vertical (0), the 2 called ones lie horizontal (1);
    # 2 tiles seen at a slant are not taught (-1)
    assert sorted(axis.tolist()) == [-1] * 2 + [0] * 28 + [1] * 2


def test_standing_scene_crops_are_cut_from_the_same_hands_standing() -> None:
    need(*ART)
    from vision.synth.art import drawn_for, load_art
    from vision.synth.scene import SCATTERED_SHARE, render
    from vision.training.data import scene_crops

    x, y, _ = scene_crops(2, seed=17, models_dir=default_models_dir(), standing_share=1.0)
    lying = scene_crops(2, seed=17, models_dir=default_models_dir())[0]
    truth: Counter[str] = Counter()
    for i in range(2):  # the hands above, standing (in loose groups where the draw says so)
        rng = random.Random(17 * 1_000_003 + i)
        hand = random_hand(rng)
        scattered = drawn_for("scattered", 17, i, SCATTERED_SHARE)
        size = rng.choice([(640, 480), (480, 640)])
        tiles = render(hand, load_art(), rng, size, False, True, scattered)[1]
        truth.update(t.label for t in tiles)
    got = Counter(MODEL_CLASSES[i] for i in y)
    assert sum(got.values()) >= 0.8 * sum(truth.values()) and got <= truth
    assert got["back"] == 2  # the closed kan's backs, standing
    assert x.shape != lying.shape or not np.array_equal(x, lying)
