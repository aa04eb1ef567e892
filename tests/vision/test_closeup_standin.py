"""Close-ups: the stand-in cut from trainable photos, and the finder's close-up augmentation.

Both need the `train` extra (torch is imported by the training package); without it they skip.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

pytest.importorskip("torch", reason="training needs the `train` extra (torch)")

from vision.manifest import LabelledImage, LabelledTile  # noqa: E402
from vision.preprocess import FINDER_SIZE  # noqa: E402
from vision.training.closeups import cut_one, unsqueezed  # noqa: E402
from vision.training.finder_data import CLOSEUP_MAX_GAIN, CLOSEUP_SIDE, augment  # noqa: E402


def _closeups(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m vision.training closeups ARGS``, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "vision.training", "closeups", *args],
                          capture_output=True, text=True, timeout=120)


def _row_photo() -> tuple[np.ndarray, LabelledImage]:
    """Six white 40x60 tiles in a row on grey, 20 px apart, labelled 1m..6m."""
    img = np.full((300, 800, 3), 60, np.uint8)
    tiles = []
    for i in range(6):
        x = 60 + i * 120
        img[100:160, x : x + 40] = 255
        tiles.append(LabelledTile(label=f"{i + 1}m", box=(x, 100.0, x + 40.0, 160.0)))
    entry = LabelledImage("row.jpg", None, 800, 300, "train", tuple(tiles))  # type: ignore[arg-type]
    return img, entry


def test_a_close_up_labels_every_tile_it_shows_and_cuts_none() -> None:
    img, entry = _row_photo()
    made = 0
    for seed in range(200):
        got = cut_one(entry, img, random.Random(seed), most=3)
        if got is None:
            continue  # the window cut a tile: drawn again by the command
        made += 1
        crop, tiles = got
        assert 1 <= len(tiles) <= 6
        assert 480 * 0.99 <= max(crop.shape[:2]) <= 1280 * 1.01  # a phone's or a page's picture
        labels = [t.label for t in tiles]
        # neighbouring tiles of one row: consecutive labels
        numbers = sorted(int(label[0]) for label in labels)
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers))), labels
        for t in tiles:  # each box lies on its white tile (turned at most 8 degrees)
            x1, y1, x2, y2 = (int(v) for v in t.box)  # type: ignore[union-attr]
            inner = crop[y1 + (y2 - y1) // 4 : y2 - (y2 - y1) // 4,
                         x1 + (x2 - x1) // 4 : x2 - (x2 - x1) // 4]
            assert inner.mean() > 200, (seed, t)
        # and no white tile is left unlabelled: outside every box the crop is grey
        mask = np.ones(crop.shape[:2], bool)
        for t in tiles:
            x1, y1, x2, y2 = (int(v) for v in t.box)  # type: ignore[union-attr]
            mask[max(0, y1 - 4) : y2 + 4, max(0, x1 - 4) : x2 + 4] = False
        assert (crop[mask].mean(axis=1) > 200).mean() < 0.01, seed
    assert made >= 20


def test_a_tight_close_up_is_one_tile_filling_the_frame() -> None:
    """``--most 1 --margin 0 0.1``: a shop's photo of one tile, at most a tenth of the tile's
    width (40 px) of table on each side, so the tile spans 40 of at most 48 px across."""
    img, entry = _row_photo()
    made = 0
    for seed in range(100):
        got = cut_one(entry, img, random.Random(seed), most=1, margin=(0.0, 0.1))
        if got is None:
            continue
        made += 1
        crop, tiles = got
        assert len(tiles) == 1
        x1, y1, x2, y2 = tiles[0].box  # type: ignore[misc]
        assert (x2 - x1) / crop.shape[1] >= 40 / 48 - 0.01, seed
        assert (y2 - y1) / crop.shape[0] >= 60 / 68 - 0.01, seed
    assert made >= 50


def _photo_of(width: float, height: float, n: int = 5) -> tuple[np.ndarray, LabelledImage]:
    """A 640 x 640 photo of ``n`` white tiles of the given size on grey, labelled 1m.. ."""
    img = np.full((640, 640, 3), 60, np.uint8)
    tiles = []
    for i in range(n):
        x = 20 + i * (width + 20)
        img[100 : int(100 + height), int(x) : int(x + width)] = 255
        tiles.append(LabelledTile(label=f"{i + 1}m", box=(x, 100.0, x + width, 100 + height)))
    return img, LabelledImage("p.jpg", None, 640, 640, "train", tuple(tiles))  # type: ignore[arg-type]


def test_a_squeezed_photo_is_cut_at_a_cameras_proportions() -> None:
    """A webcam's 16:9 frame stretched to a square: tiles 3 times taller than wide (past the
    reader's ``stretched_from``, 2) are widened to its ``tile_aspect`` (1.48), 3 / 1.48 = 2.03
    times; tiles of a camera's proportions are cut as they are; a panorama squeezed 9 times,
    past ``unstretch_max`` (2.5), is not cut at all."""
    img, entry = _photo_of(40, 120)
    got = unsqueezed(entry, img)
    assert got is not None
    wide_entry, wide = got
    gain = 3 / 1.48
    assert wide.shape[:2] == (640, round(640 * gain))
    assert (wide_entry.width, wide_entry.height) == (wide.shape[1], 640)
    x1, y1, x2, y2 = wide_entry.tiles[0].box  # type: ignore[misc]
    widened = wide.shape[1] / 640  # the gain, to the whole pixel the photo was resized to
    assert (x1, y1, y2) == pytest.approx((20 * widened, 100, 220))
    assert (x2 - x1) / (y2 - y1) == pytest.approx(1 / 1.48, rel=1e-3)
    assert wide[150, int((x1 + x2) / 2)].mean() == 255  # the box still lies on its tile
    img, entry = _photo_of(40, 60)
    same = unsqueezed(entry, img)
    assert same is not None and same[0] is entry and same[1] is img
    img, entry = _photo_of(20, 180, 3)
    assert unsqueezed(entry, img) is None


def test_a_close_up_augmentation_magnifies_a_tile_into_the_close_up_range() -> None:
    img = np.full((400, 400, 3), 60, np.uint8)
    img[170:230, 180:220] = 255  # one 40x60 tile; at the image's fit it is 42 px wide
    sample = (img, np.array([[180, 170, 220, 230]], np.float32), None)
    sides = []
    for seed in range(30):
        out, boxes, _ = augment(sample, np.random.default_rng(seed), 0.0, FINDER_SIZE, True)
        assert len(boxes) == 1, seed  # the tile lies in the middle of the view, whole
        x1, y1, x2, y2 = boxes[0]
        short = min(x2 - x1, y2 - y1)
        sides.append(short)
        fit = 40 * FINDER_SIZE / 400
        assert CLOSEUP_SIDE[0] - 1 <= short <= min(CLOSEUP_SIDE[1], fit * CLOSEUP_MAX_GAIN) + 1
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        assert 0.25 * FINDER_SIZE <= cx <= 0.75 * FINDER_SIZE, seed
        assert 0.25 * FINDER_SIZE <= cy <= 0.75 * FINDER_SIZE, seed
        assert out[int(cy), int(cx)].mean() > 150  # the box's centre is on the white tile
    assert max(sides) > 2 * min(sides)  # sizes drawn across the range, not one magnification


def test_the_close_up_command_refuses_numbers_out_of_bounds(tmp_path: Path) -> None:
    for extra, said in ((["--margin", "0.5", "0.2"], "--margin 0.5 0.2"),
                        (["--margin", "-1", "0.2"], "--margin -1 0.2"),
                        (["--n", "0"], "--n must lie within 1..10000"),
                        (["--most", "15"], "--most within 1..14")):
        run = _closeups("--out", str(tmp_path / "c"), *extra)
        assert run.returncode == 1 and said in run.stderr, (extra, run.stderr)
        assert not (tmp_path / "c").exists()  # refused before anything is written


def test_close_ups_cut_from_a_manifest_label_its_tiles(tmp_path: Path) -> None:
    """``--from``: cut from a labelled manifest (renders made large), not the photo sources;
    every close-up names the tiles it shows, their boxes on the white tiles of the row."""
    img, entry = _row_photo()
    src = tmp_path / "big"
    (src / "images").mkdir(parents=True)
    cv2.imwrite(str(src / "images" / "row.png"), img)
    row = entry.to_json() | {"image": "images/row.png"}
    (src / "manifest.jsonl").write_text(json.dumps(row) + "\n")
    run = _closeups("--from", str(src / "manifest.jsonl"), "--out", str(tmp_path / "c"),
                    "--n", "5", "--most", "1", "--margin", "0", "0.3")
    assert run.returncode == 0, run.stderr
    assert "big: 5 close-ups" in run.stdout
    lines = (tmp_path / "c" / "manifest.jsonl").read_text().splitlines()
    assert len(lines) == 5
    for line in lines:
        cut = json.loads(line)
        assert len(cut["tiles"]) == 1 and cut["tiles"][0]["label"] in {"1m", "2m", "3m", "4m",
                                                                        "5m", "6m"}
        crop = cv2.imread(str(tmp_path / "c" / cut["image"]))
        x1, y1, x2, y2 = (int(v) for v in cut["tiles"][0]["box"])
        cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
        assert crop[cy - 5 : cy + 5, cx - 5 : cx + 5].mean() > 200  # on the white tile


def test_close_ups_are_never_cut_from_an_evaluation_only_set(tmp_path: Path) -> None:
    evaluation_only = tmp_path / "mario-close-ups"
    evaluation_only.mkdir()
    (evaluation_only / "manifest.jsonl").write_text("")
    (tmp_path / "link").symlink_to(evaluation_only)  # a link reaching it is refused alike
    refused = "mario-close-ups is evaluation only"
    for source, said in ((evaluation_only / "manifest.jsonl", refused),
                         (tmp_path / "link" / "manifest.jsonl", refused),
                         (tmp_path / "none.jsonl", "no such manifest")):
        run = _closeups("--from", str(source), "--out", str(tmp_path / "c"))
        assert run.returncode == 1 and said in run.stderr, run.stderr
        assert not (tmp_path / "c").exists()


def test_close_ups_cut_from_one_source_come_from_it_alone(tmp_path: Path) -> None:
    """``--only``: one trainable source, for a model trained without it; a name that is no
    trainable source (an evaluation-only set among them) is refused before anything is cut."""
    img, entry = _row_photo()
    photos = tmp_path / "photos"
    for name in ("roboflow-chinese-mahjong-v4", "leo-miura-riichi-webcam"):
        (photos / name / "images").mkdir(parents=True)
        cv2.imwrite(str(photos / name / "images" / "row.png"), img)
        row = entry.to_json() | {"image": "images/row.png"}
        (photos / name / "manifest.jsonl").write_text(json.dumps(row) + "\n")
    out = tmp_path / "c"
    run = _closeups("--photos", str(photos), "--only", "leo-miura-riichi-webcam", "--out",
                    str(out), "--n", "3", "--most", "1", "--margin", "0", "0.3")
    assert run.returncode == 0, run.stderr
    assert "leo-miura-riichi-webcam: 3 close-ups" in run.stdout
    assert "roboflow" not in run.stdout
    lines = (out / "manifest.jsonl").read_text().splitlines()
    images = [json.loads(line)["image"] for line in lines]
    assert images == [f"images/leo-miura-riichi-webcam-{i:04d}.jpg" for i in range(3)]
    for only, said in (("mario-close-ups", "--only mario-close-ups: the trainable sources are "
                        "roboflow-chinese-mahjong-v4, leo-miura-riichi-webcam"),
                       ("nonsense", "--only nonsense: the trainable sources are")):
        refused = _closeups("--photos", str(photos), "--only", only, "--out", str(tmp_path / "r"))
        assert refused.returncode == 1 and said in refused.stderr, refused.stderr
    both = _closeups("--only", "leo-miura-riichi-webcam", "--from", str(photos / "x.jsonl"),
                     "--out", str(tmp_path / "r"))
    assert both.returncode == 1 and "--only picks among the photo sources" in both.stderr
    assert not (tmp_path / "r").exists()
