"""`python -m kiosk.photos.evaluate_wins`: vision's figures, read as the kiosk reads a win."""

import json

from kiosk.photos.evaluate_wins import main
from tests.shared import ART, need


def test_rendered_wins_are_measured_with_the_winning_shape_check(tmp_path, capsys):
    need(*ART)  # the synthetic scenes are drawn from its art
    from vision.training.synth_cli import generate

    # seed 11, like the committed sample frames: the first four scenes, which the shipped
    # models read exactly (every tile, flag and group as the generator laid them out)
    generate(tmp_path, 4, 11, "synth", (640, 480))
    assert main([str(tmp_path / "manifest.jsonl"), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["images"] == 4
    assert (got["f1"], got["exact_images"], got["grouping_accuracy"]) == (1.0, 1.0, 1.0)
    assert (got["red_five_count"], got["sideways_count"], got["upright_count"]) == (4, 3, 54)


def test_an_empty_manifest_is_an_error_naming_it(tmp_path, capsys):
    empty = tmp_path / "manifest.jsonl"
    empty.write_text("")
    assert main([str(empty)]) == 2
    assert f"no images in {empty}" in capsys.readouterr().err
