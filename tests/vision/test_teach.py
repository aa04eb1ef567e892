"""Teaching the reader a table's tiles (issue 16, item 2): the classifier's features output, the
taught set's file, labelling a teaching photo in reading order, and reading with a taught set.

The real shipped models on committed frames: ``vision/demo_frames`` (which the plain reader
reads exactly: tests/vision/test_model.py) and ``tests/vision/frames``.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import FrozenInstanceError
from datetime import UTC, datetime
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.tiles import MODEL_CLASSES
from vision.config import VisionConfig
from vision.recogniser import Recogniser, default_models_dir
from vision.taught import TAUGHT_FILE, TaughtSet, TaughtSetError
from vision.teach import Shot, assign_labels, expected_rows, lay_out, reading_order, teach
from vision.teach_eval import manifest_labels

onnx = pytest.importorskip("onnx")  # the test extra's: reads and edits the model's graph

ROOT = Path(__file__).resolve().parents[2]
FRAMES = sorted((ROOT / "vision" / "demo_frames").glob("*.jpg")) + sorted(
    (ROOT / "tests" / "vision" / "frames").glob("*.jpg")
)
DEMO = ROOT / "vision" / "demo_frames" / "hand_12_009.jpg"  # red fives, a kan, a dora row
MODELS = default_models_dir()
WHEN = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture(scope="module")
def recogniser() -> Recogniser:
    return Recogniser.load()


@pytest.fixture(scope="module")
def demo(recogniser):
    """The demo frame, its tiles' boxes and labels as the plain reader reads them (right)."""
    frame = cv2.imread(str(DEMO))
    reading = recogniser.read(frame)
    return frame, tuple(t.box for t in reading.tiles), tuple(t.label for t in reading.tiles)


# --- the classifier's features output ------------------------------------------------------


def _without_features(model):
    """The classifier as it was before ``with_features_output``: its Identity and output gone."""
    out = onnx.ModelProto()
    out.CopyFrom(model)
    (node,) = [n for n in out.graph.node if "features" in n.output]
    out.graph.node.remove(node)
    (output,) = [o for o in out.graph.output if o.name == "features"]
    out.graph.output.remove(output)
    return out


def test_the_classifier_gives_its_pooled_features_as_its_card_says(recogniser, demo):
    card = json.loads((MODELS / "tile_classifier.json").read_text())
    shape = card["outputs"]["features"]["shape"]
    names = [o.name for o in recogniser.classifier.session.get_outputs()]
    assert names == ["logits", "axis", "tile", "features"]
    frame, boxes, _ = demo
    batch = recogniser.classifier_input(frame, np.array(boxes[:5], np.float32))
    logits, _, _, features = recogniser.classifier.run_all(batch)
    assert shape[0] == "n" and features.shape == (5, shape[1]) and features.dtype == np.float32
    # the tensor the label head reads: its weights times the features give the logits (float)
    model = onnx.load(str(MODELS / "tile_classifier.onnx"))
    init = {
        i.name: onnx.numpy_helper.to_array(i).astype(np.float64) for i in model.graph.initializer
    }
    expected = features @ init["head.weight"].T + init["head.bias"]
    assert np.abs(expected - logits).max() <= 1e-4


def test_the_features_output_is_the_label_heads_input_and_nothing_else():
    # removing the Identity and the output, then adding them again, gives the file byte for byte
    from vision.session import file_sha256
    from vision.training.features import with_features_output

    model = onnx.load(str(MODELS / "tile_classifier.onnx"))
    import hashlib

    again = with_features_output(_without_features(model)).SerializeToString()
    assert hashlib.sha256(again).hexdigest() == file_sha256(MODELS / "tile_classifier.onnx")


def test_readings_without_a_taught_set_are_as_before_the_features_output(tmp_path, recogniser):
    # the classifier with its features output removed, beside the same finder: every committed
    # frame is read to the same bytes of JSON
    from vision.training.export import write_card

    for name in ("tile_finder", "tile_finder_close", "tile_classifier_second"):
        for suffix in (".onnx", ".json"):
            shutil.copy(MODELS / (name + suffix), tmp_path / (name + suffix))
    shutil.copy(MODELS / "tile_classifier.json", tmp_path / "tile_classifier.json")
    old = tmp_path / "tile_classifier.onnx"
    onnx.save(_without_features(onnx.load(str(MODELS / "tile_classifier.onnx"))), str(old))
    write_card(old, json.loads((tmp_path / "tile_classifier.json").read_text()))
    before = Recogniser.load(tmp_path)
    assert len(before.classifier.session.get_outputs()) == 3
    for path in FRAMES:
        frame = cv2.imread(str(path))
        now = json.dumps(recogniser.read(frame).to_json())
        assert now == json.dumps(before.read(frame).to_json()), path.name
        assert now == json.dumps(recogniser.with_taught(None).read(frame).to_json())


# --- the taught set and its file ----------------------------------------------------------


def _small_set(sha: str = "ab" * 32) -> TaughtSet:
    rng = np.random.default_rng(0)
    return TaughtSet.of(["1m", "1m", "2m", "back"], rng.random((4, 8)) + 0.1, 2, sha, WHEN)


def test_a_taught_set_round_trips_through_its_file(tmp_path):
    taught = _small_set()
    path = taught.save(tmp_path / "table")
    assert path == tmp_path / "table" / TAUGHT_FILE
    back = TaughtSet.load(tmp_path / "table", classifier_sha256="ab" * 32)
    assert back.labels == ("1m", "1m", "2m", "back")
    assert np.array_equal(back.exemplars, taught.exemplars)
    assert np.allclose(np.linalg.norm(back.exemplars, axis=1), 1.0)
    assert (back.photos, back.taught_at) == (2, "2025-01-02T03:04:05+00:00")
    assert back.kinds == ("1m", "2m", "back") and back.counts() == {"1m": 2, "2m": 1, "back": 1}
    assert TaughtSet.load(path).summary() == taught.summary()
    assert list(tmp_path.joinpath("table").iterdir()) == [path]  # no temporary file left


def test_a_taught_set_cannot_be_changed():
    taught = _small_set()
    with pytest.raises(FrozenInstanceError):
        taught.photos = 3
    with pytest.raises(ValueError, match="read-only"):
        taught.exemplars[0, 0] = 1.0


@pytest.mark.parametrize(
    "content, why",
    [
        (b"not a zip at all", "is not a taught tiles file"),
        (None, "is not a taught tiles file"),  # an npz of something else
        (b"", "is not a taught tiles file"),
    ],
    ids=["garbage", "foreign-npz", "empty"],
)
def test_a_corrupt_or_foreign_file_is_refused_by_name(tmp_path, content, why):
    path = tmp_path / TAUGHT_FILE
    if content is None:
        np.savez(path, weights=np.zeros(3))
    else:
        path.write_bytes(content)
    with pytest.raises(TaughtSetError, match=why) as err:
        TaughtSet.load(tmp_path)
    assert str(path) in str(err.value)


def test_a_missing_file_or_another_classifier_s_set_is_refused(tmp_path):
    with pytest.raises(TaughtSetError, match=f"{tmp_path / TAUGHT_FILE} not found"):
        TaughtSet.load(tmp_path)
    _small_set("cd" * 32).save(tmp_path)
    with pytest.raises(TaughtSetError, match="taught with another classifier"):
        TaughtSet.load(tmp_path, classifier_sha256="ab" * 32)


def test_the_recogniser_refuses_a_set_taught_with_another_classifier(recogniser):
    with pytest.raises(TaughtSetError, match="another classifier"):
        recogniser.with_taught(_small_set())


def test_untaught_labels_keep_the_classifier_s_odds_and_red_fives_share_their_five():
    # taught: 5m and 1p; 0m shares 5m's column; 9s and back share "none of these"
    taught = TaughtSet.of(["5m", "1p"], np.eye(2, 4, dtype=np.float32), 1, "x", WHEN)
    rng = np.random.default_rng(1)
    probs = rng.dirichlet(np.ones(len(MODEL_CLASSES)), size=3).astype(np.float32)
    feats = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]], np.float32)
    out = taught.weigh(probs, feats, VisionConfig())
    i = {c: MODEL_CLASSES.index(c) for c in ("5m", "0m", "1p", "9s", "back")}
    assert np.allclose(out.sum(axis=1), 1.0)
    assert np.allclose(out[:, i["9s"]] / out[:, i["back"]], probs[:, i["9s"]] / probs[:, i["back"]])
    assert np.allclose(out[:, i["0m"]] / out[:, i["5m"]], probs[:, i["0m"]] / probs[:, i["5m"]])
    assert out[0].argmax() in (i["5m"], i["0m"]) and out[1].argmax() == i["1p"]
    # a crop like neither taught tile (cosine 0 < taught_unknown_similarity): untaught win
    assert out[2, i["5m"]] < probs[2, i["5m"]] and out[2, i["9s"]] > probs[2, i["9s"]]


# --- labelling a teaching photo -----------------------------------------------------------


def _box(x, y, w=30.0, h=40.0):
    return (x, y, x + w, y + h)


def test_expected_rows_read_compact_notation_row_by_row():
    assert expected_rows("123456789m/1234567z") == (
        tuple(f"{n}m" for n in range(1, 10)),
        tuple(f"{n}z" for n in range(1, 8)),
    )
    assert expected_rows("05m back\n0p") == (("0m", "5m", "back"), ("0p",))
    with pytest.raises(ValueError, match="cannot read the expected order"):
        expected_rows("123x")


def test_tiles_are_labelled_in_reading_order_row_by_row():
    # two rows, each a little uneven (centres within a quarter tile), handed over shuffled
    top = [_box(10 + 35 * k, 100 + (7 if k % 2 else -5)) for k in range(5)]
    bottom = [_box(20 + 35 * k, 170 + (-6 if k % 3 else 4)) for k in range(4)]
    boxes = top + bottom
    order = [7, 2, 0, 8, 4, 1, 6, 3, 5]
    shuffled = [boxes[k] for k in order]
    assert reading_order(shuffled) == [
        [order.index(k) for k in range(5)],
        [order.index(k) for k in range(5, 9)],
    ]
    layout = assign_labels(shuffled, expected_rows("12345m/6789p"))
    assert layout.ok and layout.problems == ()
    assert layout.labels == ("1m", "2m", "3m", "4m", "5m", "6p", "7p", "8p", "9p")
    assert layout.boxes == tuple(boxes)
    assert [t.row for t in layout.tiles] == [0] * 5 + [1] * 4
    assert layout.to_json()["tiles"][5] == {
        "box": [20.0, 174.0, 50.0, 214.0],
        "row": 1,
        "label": "6p",
    }


def test_a_row_short_of_a_tile_is_a_problem_and_shifts_no_other_row():
    boxes = [_box(10 + 35 * k, 100) for k in range(4)] + [_box(10 + 35 * k, 170) for k in range(4)]
    layout = assign_labels(boxes, expected_rows("12345m/6789p"))
    assert not layout.ok
    assert layout.problems == (
        "8 tiles found, 9 expected",
        "row 1 (1m..5m): 4 tiles found, 5 expected",
    )
    assert layout.labels == ("1m", "2m", "3m", "4m", "6p", "7p", "8p", "9p")


def test_a_missing_row_or_a_tile_too_many_is_a_problem():
    one_row = [_box(10 + 35 * k, 100) for k in range(9)]
    layout = assign_labels(one_row, expected_rows("12345m/6789p"))
    assert layout.problems == ("1 row of tiles found, 2 expected",)
    assert layout.labels == ("1m", "2m", "3m", "4m", "5m", "6p", "7p", "8p", "9p")
    extra = assign_labels([_box(10 + 35 * k, 100) for k in range(4)], [("1s", "2s", "3s")])
    assert extra.problems == (
        "4 tiles found, 3 expected",
        "row 1 (1s..3s): 4 tiles found, 3 expected",
    )
    assert extra.labels == ("1s", "2s", "3s", None)
    with pytest.raises(ValueError, match="boxes but"):
        Shot(np.zeros((2, 2, 3), np.uint8), extra.boxes, extra.labels[:3])


def test_a_teaching_photo_is_laid_out_from_its_tiles(recogniser):
    # the demo frame turned a quarter: its dora row (3p) above, the hand's row below, left to
    # right as its truth lists them (vision/demo_frames/expected.json)
    frame = cv2.rotate(cv2.imread(str(DEMO)), cv2.ROTATE_90_CLOCKWISE)
    order = "3p / 7m 666p 550s 7m 999s 5550m"
    layout = lay_out(recogniser, frame, order)
    assert layout.ok, layout.problems
    assert layout.labels == tuple(x for row in expected_rows(order) for x in row)
    assert [t.row for t in layout.tiles] == [0] + [1] * 15
    read = {t.box: t.label for t in recogniser.read(frame).tiles}
    assert [read[b] for b in layout.boxes] == list(layout.labels)  # the reader agrees, tile by tile
    short = lay_out(recogniser, frame, "3p / 7m 666p 550s 7m 999s 55550m")
    assert short.problems == (
        "16 tiles found, 17 expected",
        "row 2 (7m..0m): 15 tiles found, 16 expected",
    )


def test_a_row_leaning_20_degrees_is_still_one_row():
    lean = np.tan(np.radians(20)) * 35
    boxes = [_box(10 + 35 * k, 100 + lean * k) for k in range(9)]
    boxes += [_box(10 + 35 * k, 160 + lean * k) for k in range(9)]
    assert reading_order(boxes[::-1]) == [list(range(17, 8, -1)), list(range(8, -1, -1))]


def test_manifest_labels_take_the_best_overlapping_tile_once():
    from vision.manifest import LabelledImage, LabelledTile

    entry = LabelledImage(
        "a.jpg",
        Path("a.jpg"),
        100,
        100,
        "",
        (
            LabelledTile("1m", (0, 0, 10, 20)),
            LabelledTile("other", (30, 0, 40, 20)),
        ),
    )
    boxes = [(0, 4, 10, 24), (1, 0, 11, 20), (30, 0, 40, 20), (60, 0, 70, 20)]
    assert manifest_labels(boxes, entry) == [None, "1m", None, None]


# --- reading with a taught set ------------------------------------------------------------


def test_a_frame_taught_its_own_tiles_reads_them_the_same(recogniser, demo, tmp_path):
    frame, boxes, labels = demo
    taught = teach(recogniser, [Shot(frame, boxes, labels)], WHEN)
    assert taught.photos == 1 and set(taught.kinds) == set(labels)
    taught.save(tmp_path)
    again = Recogniser.load(config=recogniser.config, taught=tmp_path)
    assert [t.label for t in again.read(frame).tiles] == list(labels)


def test_the_reading_follows_the_taught_labels_not_the_classifier(recogniser, demo):
    # taught with every kind's label moved one kind on: a crop's own exemplar (cosine 1) now
    # carries another kind's label. The classifier alone reads each tile right, none of them
    # overwhelmingly surely (its top probability is under 0.99 on these renders); wired right,
    # the taught tiles carry every label over to the permuted one, wired wrong they would not
    frame, boxes, labels = demo
    kinds = sorted(set(labels), key=MODEL_CLASSES.index)
    moved = {k: kinds[(i + 1) % len(kinds)] for i, k in enumerate(kinds)}
    taught = teach(recogniser, [Shot(frame, boxes, tuple(moved[x] for x in labels))], WHEN)
    b = np.array(boxes, np.float32)
    plain = recogniser.classify(frame, b)[0]
    assert [MODEL_CLASSES[j] for j in plain.argmax(axis=1)] == list(labels)
    assert plain.max() < 0.99
    read = recogniser.with_taught(taught).classify(frame, b)[0]
    assert [MODEL_CLASSES[j] for j in read.argmax(axis=1)] == [moved[x] for x in labels]
    # a weight of 0 turns the taught tiles off
    off = Recogniser.load(config=VisionConfig(taught_weight=0.0)).with_taught(taught)
    assert np.allclose(off.classify(frame, b)[0], plain, atol=1e-6)


def test_teach_eval_teaches_from_a_cover_and_reads_the_other_photos(recogniser, tmp_path):
    # two photos of the demo hand (as it lies, and turned a quarter), labelled where the plain
    # reader reads them (rightly: test_model.py): taught from one, read on the other
    from vision.manifest import LabelledImage, LabelledTile
    from vision.teach_eval import report, teach_eval

    frame = cv2.imread(str(DEMO))
    entries = []
    for name, image in (("as_is.png", frame), ("turned.png", cv2.rotate(frame, 0))):
        cv2.imwrite(str(tmp_path / name), image)
        tiles = tuple(LabelledTile(t.label, t.box) for t in recogniser.read(image).tiles)
        h, w = image.shape[:2]
        entries.append(LabelledImage(name, tmp_path / name, w, h, "", tiles))
    result = teach_eval(recogniser, entries, photos=1, tune=True)
    assert result["taught_from"] == ["as_is.png"]  # the first photo of those covering most
    assert result["measured_photos"] == 1 and result["kinds_taught"] == 8
    assert result["tuning"] == []  # leave-one-out needs 2 teaching photos
    assert result["passed_over"] == [] and result["tiles_taught"] == 16
    for side in ("without", "with"):
        assert result[side]["iou_0.5"]["tiles"] == 16
        assert result[side]["iou_0.5"]["located_right"] == 1.0
        assert result[side]["iou_0.5"]["within_reach"] == 1.0
    assert "read on the other 1 photos (16 labelled tiles)" in report(result)


def test_a_tile_only_a_weak_peak_lies_on_is_within_reach_but_not_located():
    from vision.manifest import LabelledImage, LabelledTile
    from vision.reading import DetectedTile, Reading
    from vision.teach_eval import Tally

    labelled = (LabelledTile("1m", (0, 0, 10, 14)), LabelledTile("2m", (10, 0, 20, 14)))
    labelled += (LabelledTile("3m", (20, 0, 30, 14)),)
    entry = LabelledImage("a.png", None, 40, 20, "", labelled)
    reading = Reading((DetectedTile("1m", (0, 0, 10, 14), 0.9),))
    tally = Tally()
    tally.add(entry, reading, 0.5, peaks=[(11, 1, 21, 15), (25, 0, 35, 14)])  # on 2m; 3m at 1/3
    got = tally.summary()
    assert (got["recall"], got["located"]) == (round(1 / 3, 4), round(1 / 3, 4))
    assert got["within_reach"] == round(2 / 3, 4)


def test_leave_one_out_reads_each_teaching_photo_with_the_others_taught(recogniser):
    from vision.teach_eval import GRID, chosen_setting, leave_one_out

    frame = cv2.imread(str(DEMO))
    shots = []
    for image in (frame, cv2.rotate(frame, cv2.ROTATE_90_CLOCKWISE)):
        tiles = recogniser.read(image).tiles
        shots.append(Shot(image, tuple(t.box for t in tiles), tuple(t.label for t in tiles)))
    rows = leave_one_out(recogniser, shots, lambda items, desc="": items)
    assert [(r["weight"], r["temperature"]) for r in rows] == list(GRID)
    assert {r["of"] for r in rows} == {32}
    best = chosen_setting(rows)
    assert best["right"] == 32 and best["log_likelihood"] == max(r["log_likelihood"] for r in rows)
