"""The README's test command works on a fresh machine: the suite's own needs are installed by
.ci/run, and a test that reads ../shared skips (fails under CI) where the folder is absent."""

import os
import re
import subprocess
import sys

import pytest

from tests.shared import ROOT, SHARED, missing_message, need


def test_need_names_the_missing_path_and_skips_outside_ci(monkeypatch, tmp_path):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr("tests.shared.SHARED", tmp_path)
    with pytest.raises(pytest.skip.Exception, match=re.escape(str(tmp_path / "photos" / "x"))):
        need("photos", "x")


def test_need_fails_under_ci_where_the_folder_must_be(monkeypatch, tmp_path):
    monkeypatch.setenv("CI", "true")
    monkeypatch.setattr("tests.shared.SHARED", tmp_path)
    with pytest.raises(pytest.fail.Exception, match="CI must have it"):
        need("scoring")


def test_need_gives_the_path_where_it_is_there(monkeypatch, tmp_path):
    (tmp_path / "rules").mkdir()
    monkeypatch.setattr("tests.shared.SHARED", tmp_path)
    assert need("rules") == tmp_path / "rules"


def test_no_test_finds_the_shared_folder_by_itself():
    """One place (tests/shared.py) knows where ../shared is, so every reader skips alike."""
    folder = re.compile('"shar' + 'ed"|environ.get[(]"RIICHI_SHAR' + "ED")
    finders = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "tests").rglob("*.py")
        if path.name != "shared.py" and folder.search(path.read_text())
    ]
    assert finders == []


def test_ci_installs_every_extra_the_suite_imports():
    """torch (the `train` extra) is imported by the training tests; .ci/run must install it, or a
    fresh machine fails them while one with torch installed by hand hides it."""
    run = (ROOT / ".ci" / "run").read_text()
    extras = re.search(r"pip install -q -e '\.\[([a-z,]+)\]'", run)
    assert extras is not None and {"test", "train"} <= set(extras.group(1).split(","))


@pytest.mark.slow
def test_tests_that_read_shared_skip_without_it(tmp_path):
    """The tests that failed on a clean clone without ../shared (FileNotFoundError from the
    synthetic scenes' art) now skip, each naming the folder."""
    if not SHARED.exists():
        pytest.skip(missing_message(SHARED))
    tests = [
        "tests/vision/test_upright.py::test_the_synth_cli_writes_upright_scenes_with_their_boxes_and_no_layout",
        "tests/kiosk/test_evaluate_wins.py::test_rendered_wins_are_measured_with_the_winning_shape_check",
        "tests/scorer/test_points_wrc.py",
    ]
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["RIICHI_SHARED"] = str(tmp_path / "absent")
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
                          *tests], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:]
    assert re.fullmatch(r"\d+ skipped in .*", out.stdout.splitlines()[-1]), out.stdout[-2000:]
    for where in ("tile-art", "tile-art", "rules/wrc-2015-yaku-and-scoring-tables.txt"):
        assert f"../shared not found: {tmp_path / 'absent' / where}" in out.stdout
