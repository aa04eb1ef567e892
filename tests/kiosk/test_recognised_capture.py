"""With the shipped models: a capture of each sample frame comes back as the hand it shows.

The sample frames (picked by `python -m vision.training frames`) carry the generator's truth in
`expected.json`; the kiosk must show exactly those tiles in those groups.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kiosk.photos.camera import demo_folder
from kiosk.photos.recognition import ROOT
from tests.kiosk.conftest import Api, make_kiosk

FRAMES = demo_folder()  # the demo camera's frames, with the generator's truth
EXPECTED = FRAMES / "expected.json"
KIOSK_FRAMES = ROOT / "tests" / "kiosk" / "frames"  # the kiosk tests' own frame


@contextmanager
def kiosk_seeing(tmp_path: Path, frame: Path) -> Iterator[Api]:
    """A running kiosk whose camera shows only ``frame``; stopped on the way out."""
    frames = tmp_path / "one"
    frames.mkdir()
    shutil.copy(frame, frames / frame.name)
    app, services = make_kiosk(tmp_path, camera=f"folder:{frames}")
    services.start()
    try:
        yield Api(app.test_client())
    finally:
        services.stop()


def cases() -> list[tuple[str, dict]]:
    if not EXPECTED.exists():
        return []
    return sorted(json.loads(EXPECTED.read_text()).items())


@pytest.mark.skipif(not (ROOT / "models" / "tile_finder.onnx").exists(),
                    reason="no shipped models in models/ (vision's issue ships them)")
@pytest.mark.skipif(not EXPECTED.exists(),
                    reason=f"no sample frames with expected.json in {FRAMES}")
@pytest.mark.parametrize("name, truth", cases() or [("none", {})])
def test_a_capture_reads_the_hand_it_shows(tmp_path: Path, name: str, truth: dict) -> None:
    with kiosk_seeing(tmp_path, FRAMES / name) as api:
        out = api.post("/api/captures").get_json()
        assert out["recognised"] and out["problems"] == []
        hand = out["hand"]
        labels = lambda tiles: [t["label"] for t in tiles]  # noqa: E731
        assert labels(hand["concealed"]) == truth["concealed"]
        assert hand["win"]["label"] == truth["winning"]
        assert [(m["kind"], labels(m["tiles"])) for m in hand["melds"]] == [
            (m["kind"], m["tiles"]) for m in truth["melds"]]
        assert labels(hand["dora"]) == truth["dora"]


@pytest.mark.skipif(not (ROOT / "models" / "tile_finder.onnx").exists(),
                    reason="no shipped models in models/ (vision's issue ships them)")
def test_applying_a_recognised_win_keeps_the_photo_and_its_tiles(tmp_path: Path) -> None:
    frame = KIOSK_FRAMES / "hand_11_001.jpg"  # 111m 77m 3s 0s 789s 555z, winning on 4s
    with kiosk_seeing(tmp_path, frame) as api:
        out = api.post("/api/captures").get_json()
        hand = out["hand"]
        tiles = hand["concealed"] + [hand["win"]]
        spec = {"winner": 1, "discarder": None, "capture": {
                    "id": out["id"], "tiles": [{"label": t["label"], "box": t["box"]}
                                               for t in tiles]},
                "hand": {"concealed": ",".join(t["label"] for t in hand["concealed"]),
                         "win": hand["win"]["label"]}}
        applied = api.post("/api/wins", spec)
        # Menzen tsumo, haku, red five: 3 han 40 fu, 1,300/2,600 for a non-dealer.
        assert applied.status_code == 201 and applied.get_json()["deltas"] == [
            -2600, 5200, -1300, -1300]
        folder = tmp_path / "data" / "captures"
        entry = json.loads((folder / "manifest.jsonl").read_text())
        assert [t["label"] for t in entry["tiles"]] == [t["label"] for t in tiles]
        assert entry["complete"] is True and (folder / entry["image"]).exists()
        assert (entry["width"], entry["height"]) == (640, 480)


@pytest.mark.skipif(not (ROOT / "models" / "tile_finder.onnx").exists(),
                    reason="no shipped models in models/ (vision's issue ships them)")
@pytest.mark.parametrize("lang, words", [
    ("en", "12 tiles away from the hand were set aside, not counted in it (grey). Tap one to "
           "bring it in."),
    ("ja", "手牌から離れた12枚を外しました（灰色、数えません）。押すと手牌に入ります。")])
def test_a_wall_beside_the_hand_is_set_aside_never_marked(tmp_path: Path, lang: str,
                                                          words: str) -> None:
    """Issue 36, item 5: the demo hand with a row of 12 tiles beside it
    (tests/kiosk/stray_frames.py) reads as the hand alone; the row is set aside, said in a
    player's words, and none of it is marked doubtful (the page shows it grey)."""
    from tests.kiosk import stray_frames

    frame = stray_frames.write(tmp_path / "wall.jpg")
    with kiosk_seeing(tmp_path, frame) as api:
        out = api.post(f"/api/captures?lang={lang}").get_json()
    hand = out["hand"]
    assert [t["label"] for t in hand["concealed"]] == [
        "1m", "1m", "1m", "7m", "7m", "3s", "0s", "7s", "8s", "9s", "5z", "5z", "5z"]
    assert hand["win"]["label"] == "4s" and hand["dora"] == [] and hand["melds"] == []
    assert [t["label"] for t in hand["unplaced"]] == stray_frames.WALL
    assert not any(t["low"] for t in hand["unplaced"])
    assert out["problems"] == [words] and out["set_aside"] == words
