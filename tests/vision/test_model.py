"""The real shipped models on committed sample frames (rendered by vision.synth: seed 11,
scene 318 of the seed-31 tuning set, a row 45 degrees off the frame's axes, and scene 48 of the
seed-13 one, an added kan whose stacked pair the finder's first pass boxes as one).

Expected readings are the generator's truth for each frame, not recorded model output.
"""

import json
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from vision.recogniser import Recogniser

FRAMES = Path(__file__).parent / "frames"
EXPECTED = json.loads((FRAMES / "expected.json").read_text())


@pytest.fixture(scope="module")
def recogniser():
    return Recogniser.load()


@pytest.mark.parametrize("name", sorted(EXPECTED))
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
