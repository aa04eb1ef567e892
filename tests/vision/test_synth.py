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
