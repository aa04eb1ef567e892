"""The real shipped models on committed sample frames (rendered by vision.synth: seed 11,
scene 318 of the seed-31 tuning set, a row 45 degrees off the frame's axes, and scene 48 of the
seed-13 one, an added kan whose stacked pair the finder's first pass boxes as one, and scene 212
of the seed-41 one, where the int8 finder of sessions 5-7 boxed a finger and point sticks' ends).

Expected readings are the generator's truth for each frame, not recorded model output.
"""

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.tiles import MODEL_CLASSES
from vision.recogniser import Recogniser

FRAMES = Path(__file__).parent / "frames"
EXPECTED = json.loads((FRAMES / "expected.json").read_text())


@pytest.fixture(scope="module")
def recogniser():
    return Recogniser.load()


# frames only stages removed in session 24 read exactly (docs/vision.md, Stages measured: they
# improved no real photo set); strict, so a reader that reads them again says so
NOT_EXACT = {
    "hand_13_048.jpg": "an added kan's stacked pair boxed as one reads as a pon (the pons' second "
    "look is gone)",
    "hand_41_212.jpg": "a far hand's small 6s is missed and a point stick boxed (the finder's "
    "magnified look is gone)",
}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(reason=NOT_EXACT[n], strict=True))
        if n in NOT_EXACT
        else n
        for n in sorted(EXPECTED)
    ],
)
def test_sample_frame_is_read_exactly(recogniser, name):
    truth = EXPECTED[name]
    reading = recogniser.read(cv2.imread(str(FRAMES / name)))
    got = reading.to_json()
    assert sorted(got["concealed"]) == sorted(truth["concealed"])
    assert got["winning"] == truth["winning"]
    assert [(m["kind"], sorted(m["tiles"])) for m in got["melds"]] == [
        (m["kind"], sorted(m["tiles"])) for m in truth["melds"]
    ]
    assert got["dora"] == truth["dora"]
    assert reading.problems == ()
    called = sum(m["kind"] != "ankan" for m in truth["melds"])
    called += sum(m["kind"] == "kakan" for m in truth["melds"])
    assert sum(t.sideways for t in reading.tiles) == called
    if "sideways" in truth:  # which tiles lie sideways, in layout order
        assert [t.label for t in reading.tiles if t.sideways] == truth["sideways"]
    downs = 2 * sum(m["kind"] == "ankan" for m in truth["melds"])
    assert sum(t.face_down for t in reading.tiles) == downs


# where the int8 finder of sessions 5-7 boxed a point stick's end and the finger holding it
NOT_TILES = [(406, 423, 433, 454), (349, 433, 379, 480), (379, 433, 409, 480)]


def test_the_tile_head_reads_no_tile_on_a_finger_and_point_sticks(recogniser):
    # read as the blank White dragon, such boxes would break the hand
    frame = cv2.imread(str(FRAMES / "hand_41_212.jpg"))
    reading = recogniser.read(frame)
    tiles = np.array([t.box for t in reading.tiles], np.float32)
    probs, _, tile = recogniser.classify(frame, np.array(NOT_TILES, np.float32))
    assert [MODEL_CLASSES[i] for i in probs.argmax(axis=1)] == ["5z", "5z", "5z"]
    # the tile head calls them no tile where it calls every tile of the hand one, surely (the
    # hand has no White dragon; without the finder's magnified look, the reading boxes the
    # stick's end too: 5z, a tile by 0.08, NOT_EXACT)
    assert tile.max() < 0.5
    hand = np.array([b for b, t in zip(tiles, reading.tiles, strict=True) if t.label != "5z"])
    assert len(hand) == 15 and recogniser.classify(frame, hand)[2].min() > 0.99


def test_cli_read_json_names_every_tile():
    name = sorted(EXPECTED)[0]
    out = subprocess.run(
        [sys.executable, "-m", "vision", "read", str(FRAMES / name), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(out.stdout)
    truth = EXPECTED[name]
    n = len(truth["concealed"]) + 1 + sum(len(m["tiles"]) for m in truth["melds"])
    assert len(data["tiles"]) == n + len(truth["dora"])
    assert set(data["tiles"][0]) >= {"label", "box", "confidence", "sideways", "face_down"}
    assert len(data["tiles"][0]["box"]) == 4
