"""The synthetic generator: deterministic, plausible hands, exact labels for its poses."""

import random
from collections import Counter

from tests.shared import CC0_ART, need
from vision.synth.hands import random_hand


def test_random_hands_are_plausible_winning_layouts():
    for seed in range(200):
        hand = random_hand(random.Random(seed))
        tiles = list(hand.concealed) + [hand.winning] + [t for m in hand.melds for t in m.tiles]
        kans = sum(len(m.tiles) == 4 for m in hand.melds)
        assert len(tiles) == 14 + kans, seed
        kinds = Counter("5" + t[1] if t[0] == "0" else t for t in tiles)
        assert max(kinds.values()) <= 4, seed
        assert all(n <= 1 for n in Counter(t[1] for t in tiles if t[0] == "0").values()), seed
        for m in hand.melds:
            assert (m.called is None) == (m.kind == "ankan")


def test_the_same_seed_renders_the_same_scene():
    art_dir = need(*CC0_ART)
    from vision.synth.art import load_art
    from vision.synth.scene import render

    art = load_art(str(art_dir))
    img_a, tiles_a = render(random_hand(random.Random(5)), art, random.Random(5))
    img_b, tiles_b = render(random_hand(random.Random(5)), art, random.Random(5))
    assert (img_a == img_b).all() and tiles_a == tiles_b
    assert img_a.shape == (480, 640, 3)
    hand = random_hand(random.Random(5))
    assert sum(t.face_down for t in tiles_a) == 2 * sum(m.kind == "ankan" for m in hand.melds)
    called = sum(m.called is not None for m in hand.melds) + sum(
        m.kind == "kakan" for m in hand.melds
    )
    assert sum(t.sideways for t in tiles_a) == called


def test_the_meld_mix_sets_how_many_melds_a_hand_shows():
    def melds(mix):
        return {len(random_hand(random.Random(s), meld_mix=mix).melds) for s in range(30)}

    assert melds((0, 0, 0, 0, 1)) == {4}
    assert melds((1, 0, 0, 0, 0)) == {0}


def test_a_scene_rendered_three_times_larger_is_the_same_scene_drawn_finer():
    """A 1920 x 1440 render of a seed lays its tiles where the 640 x 480 one does, three times
    as far out (the camera, the table, the layout drawn alike); its flat canvas is drawn at
    120 px a tile (`canvas_px`), so a tile cut from it holds more detail than the small one's
    tile enlarged three times: more of its energy lies in its finest frequencies."""
    art_dir = need(*CC0_ART)
    import cv2
    import numpy as np

    from vision.synth.art import load_art
    from vision.synth.scene import canvas_px, render

    assert (canvas_px((640, 480)), canvas_px((480, 640)), canvas_px((1920, 1440))) == (40, 40, 120)
    art = load_art(str(art_dir))
    small, small_tiles = render(random_hand(random.Random(5)), art, random.Random(5))
    large, large_tiles = render(random_hand(random.Random(5)), art, random.Random(5), (1920, 1440))
    assert large.shape == (1440, 1920, 3)
    assert [t.label for t in large_tiles] == [t.label for t in small_tiles]
    boxes = np.array([t.box for t in small_tiles])
    assert np.abs(np.array([t.box for t in large_tiles]) / 3 - boxes).max() < 2.0

    def fine(img: np.ndarray) -> float:  # the share of a grey image's energy in its Laplacian
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float64)
        return float(cv2.Laplacian(grey, cv2.CV_64F).var() / grey.var())

    x1, y1, x2, y2 = (round(v) for v in large_tiles[0].box)
    cut = large[y1:y2, x1:x2]
    a1, b1, a2, b2 = (round(v / 3) for v in large_tiles[0].box)
    enlarged = cv2.resize(small[b1:b2, a1:a2], (x2 - x1, y2 - y1), interpolation=cv2.INTER_CUBIC)
    assert fine(cut) > 1.5 * fine(enlarged)
