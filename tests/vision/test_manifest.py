"""The manifest format: parsing, clear errors naming the bad field, round trip."""

import json

import pytest

from vision.config import ConfigError, VisionConfig
from vision.manifest import ManifestError, parse_line, read_manifest, write_manifest

LINE = {
    "image": "images/a.jpg",
    "width": 640,
    "height": 480,
    "split": "valid",
    "tiles": [
        {"label": "0p", "box": [1, 2, 30, 42], "sideways": True},
        {"label": "other", "box": [40, 2, 70, 42]},
    ],
}


def test_parse_line_resolves_the_image_and_keeps_poses(tmp_path):
    entry = parse_line(json.dumps(LINE), tmp_path)
    assert entry.path == tmp_path / "images/a.jpg"
    assert entry.tiles[0].label == "0p" and entry.tiles[0].box == (1.0, 2.0, 30.0, 42.0)
    assert entry.tiles[0].sideways is True and entry.tiles[0].face_down is None
    assert entry.tiles[1].label == "other"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tiles": [{"label": "10m", "box": [0, 0, 1, 1]}]}, "tile 0: label '10m'"),
        ({"tiles": [{"label": "1m", "box": [5, 0, 1, 1]}]}, "tile 0: box .* has no area"),
        ({"tiles": [{"label": "1m", "box": [0, 0, 1]}]}, "tile 0: box must be"),
        ({"tiles": "1m"}, "'tiles' must be a list"),
    ],
)
def test_errors_name_the_line_and_field(tmp_path, change, message):
    with pytest.raises(
        ManifestError,
        match=f"^m.jsonl:1 {message}" if "tile 0" in message else f"^m.jsonl:1: {message}",
    ):
        parse_line(json.dumps(LINE | change), tmp_path, where="m.jsonl:1")


def test_missing_field_is_named(tmp_path):
    with pytest.raises(ManifestError, match="missing field 'width'"):
        parse_line(json.dumps({k: v for k, v in LINE.items() if k != "width"}), tmp_path)


def test_round_trip_and_split_filter(tmp_path):
    path = tmp_path / "manifest.jsonl"
    path.write_text(json.dumps(LINE) + "\n" + json.dumps(LINE | {"split": "train"}) + "\n")
    entries = read_manifest(path)
    write_manifest(tmp_path / "again.jsonl", entries)
    assert read_manifest(tmp_path / "again.jsonl") == entries
    assert [e.split for e in read_manifest(path, ["train"])] == ["train"]


def test_config_rejects_unknown_keys_and_wrong_types():
    assert VisionConfig.from_mapping({"detect_threshold": 0.5}).detect_threshold == 0.5
    with pytest.raises(ConfigError, match="unknown vision option.*detect_treshold"):
        VisionConfig.from_mapping({"detect_treshold": 0.5})
    with pytest.raises(ConfigError, match="test_time_flip must be true or false"):
        VisionConfig.from_mapping({"test_time_flip": 1})
