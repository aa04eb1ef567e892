"""`python -m vision sets`: every photo source read by the shipped models, one row a set; photos
labelled by kinds only are scored by the tiles read against the tiles labelled."""

import json
import shutil
from pathlib import Path

import pytest

from vision.__main__ import main
from vision.evaluate import score_labels
from vision.manifest import ManifestError, parse_line
from vision.recogniser import Recogniser
from vision.sets import (
    BY_NAME,
    LEFT_OUT,
    SETS,
    left_out_folders,
    models_note,
    table_lines,
    trained_on,
)

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "models"
DEMO = ROOT / "vision" / "sample_frames"
EXPECTED = json.loads((DEMO / "expected.json").read_text())


def kinds(name: str) -> list[str]:
    g = EXPECTED[name]
    return [*g["concealed"], g["winning"], *(t for m in g["melds"] for t in m["tiles"]), *g["dora"]]


def test_a_photo_labelled_by_kinds_only_parses_without_boxes_or_size(tmp_path):
    e = parse_line('{"image": "a.jpg", "tiles": [{"label": "5m"}, {"label": "other"}]}', tmp_path)
    assert [(t.label, t.box) for t in e.tiles] == [("5m", None), ("other", None)]
    assert (e.width, e.height) == (0, 0)


def test_boxes_on_some_tiles_only_are_refused_naming_the_tile(tmp_path):
    line = '{"image": "a.jpg", "width": 9, "height": 9, "tiles": [{"label": "5m", "box": [0, 0, 4, 4]}, {"label": "6m"}]}'  # noqa: E501
    with pytest.raises(ManifestError, match="tile 1 has no box"):
        parse_line(line, tmp_path)


def test_tiles_read_against_tiles_labelled_as_multisets():
    s = score_labels(["1z", "1z", "5p", "other"], ["1z", "5p", "5p", "back"])
    assert (s.tp, s.fp, s.fn) == (2, 2, 1)


def test_the_shipped_cards_name_what_they_learned_from():
    learned = {"tile_classifier.json": {"roboflow-chinese-mahjong-v4", "leo-miura-riichi-webcam"},
               "tile_finder.json": {"roboflow-chinese-mahjong-v4", "leo-miura-riichi-webcam"}}
    for card, sources in learned.items():
        assert trained_on(json.loads((ROOT / "models" / card).read_text())) == sources, card
    assert {s.name for s in SETS if not s.trainable} == {
        "camerash-web-crops", "mario-close-ups", "hlin-close-ups"}


def test_each_trainable_source_has_classifiers_that_never_learned_it():
    """The left-out pairs lie in models/left-out/<set>: both classifiers' cards leave their set
    out of what they learned and keep the other trainable source."""
    folders = left_out_folders(MODELS)
    assert folders == {s.name: MODELS / LEFT_OUT / s.name for s in SETS if s.trainable}
    for name, folder in folders.items():
        other = {s.name for s in SETS if s.trainable} - {name}
        for card in ("tile_classifier.json", "tile_classifier_second.json"):
            assert trained_on(json.loads((folder / card).read_text())) == other, (name, card)


def test_only_trainable_sets_with_a_classifier_card_have_left_out_folders(tmp_path):
    for name in ("leo-miura-riichi-webcam", "mario-close-ups", "roboflow-chinese-mahjong-v4"):
        (tmp_path / LEFT_OUT / name).mkdir(parents=True)
    for name in ("leo-miura-riichi-webcam", "mario-close-ups"):  # mario: evaluation only
        (tmp_path / LEFT_OUT / name / "tile_classifier.json").write_text("{}")
    assert left_out_folders(tmp_path) == {
        "leo-miura-riichi-webcam": tmp_path / LEFT_OUT / "leo-miura-riichi-webcam"}


def test_a_left_out_pair_replaces_both_classifiers_and_keeps_the_finders(tmp_path):
    folder = MODELS / LEFT_OUT / "leo-miura-riichi-webcam"
    rec = Recogniser.load(MODELS, classifiers=folder)
    sha = {m: json.loads((folder / f"{m}.json").read_text())["sha256"]
           for m in ("tile_classifier", "tile_classifier_second")}
    assert rec.classifier.card["sha256"] == sha["tile_classifier"]
    assert rec.second_classifier is not None
    assert rec.second_classifier.card["sha256"] == sha["tile_classifier_second"]
    shipped = json.loads((MODELS / "tile_finder.json").read_text())["sha256"]
    assert rec.finder.card["sha256"] == shipped
    for name in ("tile_classifier.onnx", "tile_classifier.json"):  # a first classifier alone:
        shutil.copy(folder / name, tmp_path / name)                 # no shipped second with it
    assert Recogniser.load(MODELS, classifiers=tmp_path).second_classifier is None


def test_the_table_reads_a_set_labelled_by_kinds(tmp_path, capsys):
    """Two demo frames the shipped models read exactly; the second labelled with one tile
    wrong (a 9m it does not hold), so one tile is missed and one read is extra there."""
    folder = tmp_path / "hlin-close-ups"
    (folder / "images").mkdir(parents=True)
    lines = []
    for name, swap in (("hand_12_000.jpg", False), ("hand_12_019.jpg", True)):
        shutil.copy(DEMO / name, folder / "images" / name)
        labels = kinds(name)
        if swap:
            labels[0] = "9m"
        lines.append(json.dumps({"image": f"images/{name}", "split": "eval-only",
                                 "tiles": [{"label": lab} for lab in labels]}))
    (folder / "manifest.jsonl").write_text("\n".join(lines) + "\n")
    assert main(["sets", str(tmp_path), "--only", "hlin-close-ups", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["sets"][0]
    assert (row["set"], row["models"], row["trainable"]) == ("hlin-close-ups",
                                                             "never trained on", False)
    total = 14 + 17
    assert row["left_out"] is False  # read by the models given, not one trained without it
    assert (row["ours"]["right"], row["ours"]["tiles"], row["ours"]["read"]) == (
        total - 1, total, total)  # one label changed: a miss and a box of nothing
    assert row["ours"]["images"] == 2 and row["ours"]["exact_images"] == 0.5
    assert row["ours"]["recall"] == round((total - 1) / total, 4)
    assert row["ours"]["precision"] == round((total - 1) / total, 4)


def test_a_missing_set_is_an_error_naming_its_manifest(tmp_path, capsys):
    assert main(["sets", str(tmp_path), "--only", "mario-close-ups"]) == 2
    assert f"no manifest at {tmp_path / 'mario-close-ups' / 'manifest.jsonl'}" in (
        capsys.readouterr().err)


def test_an_unknown_set_or_models_folder_is_refused_by_name(tmp_path):
    with pytest.raises(SystemExit, match="known sets are roboflow"):
        main(["sets", str(tmp_path), "--only", "nope"])
    with pytest.raises(SystemExit, match="no model card in"):
        main(["sets", str(tmp_path), "--without", f"leo-miura-riichi-webcam={tmp_path}"])


def test_a_leave_one_source_out_models_folder_is_named_whole_and_cut_only_in_the_table() -> None:
    note = models_note(BY_NAME["leo-miura-riichi-webcam"], [], Path("runs/noleo/models_head"))
    assert note == "without it: models_head"  # the JSON keeps the folder's whole name
    ours = {"images": 67, "recall": 0.95, "precision": 0.5588, "exact_images": 0.0149,
            "labelled_right_images": 0.7015}
    line = table_lines([{"set": "leo-miura-riichi-webcam", "models": note, "ours": ours}])[2]
    assert "without it: models_hea 67" in " ".join(line.split())  # a 22-character column


def test_a_trainable_set_is_read_twice_by_the_shipped_and_the_left_out_classifiers(tmp_path,
                                                                                  capsys):
    """Its row as trained on, then the row of the classifiers that never saw it (two demo
    frames standing in for the set, labelled by kinds)."""
    folder = tmp_path / "leo-miura-riichi-webcam"
    (folder / "images").mkdir(parents=True)
    lines = []
    for name in ("hand_12_000.jpg", "hand_12_019.jpg"):
        shutil.copy(DEMO / name, folder / "images" / name)
        lines.append(json.dumps({"image": f"images/{name}",
                                 "tiles": [{"label": lab} for lab in kinds(name)]}))
    (folder / "manifest.jsonl").write_text("\n".join(lines) + "\n")
    assert main(["sets", str(tmp_path), "--only", "leo-miura-riichi-webcam", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["sets"]
    assert [(r["set"], r["left_out"], r["models"]) for r in rows] == [
        ("leo-miura-riichi-webcam", False, "trained on"),
        ("leo-miura-riichi-webcam", True, "without it: left-out")]
    assert rows[0]["ours"]["exact_images"] == 1.0  # the shipped models read both exactly
    assert [r["ours"]["images"] for r in rows] == [2, 2]
