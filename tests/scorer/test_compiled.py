"""The optional compiled scorer (tools/compile_scorer.py) writes the same bytes as the Python
sources: `score --jsonl` on every real hand, under several rulesets, and on lines that are not
hands; every real game record replayed, and records that are broken. A copy of the sources is
compiled (about a minute), so the checkout is left as it is; skipped where mypy (mypyc) is not
installed."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scorer.tenhou_data import SCORING
from tests.shared import need

ROOT = Path(__file__).resolve().parents[2]
RUNS = [("tenhou-wins-dev.jsonl", "tenhou"), ("tenhou-wins-dev.jsonl", "casual"),
        ("tenhou-wins-dev.jsonl", "wrc"), ("tenhou-sanma-wins-dev.jsonl", "tenhou_sanma"),
        ("tenhou-sanma-wins-dev.jsonl", "mahjong_soul_sanma"), ("odd.jsonl", "tenhou")]
ODD_LINES = ['{"closed": "123m456p789s11357z", "win_tile": "7z"}',
             '{"closed": "19m19p19s12345677z", "win_tile": "7z", "tsumo": true, "rules": [1]}',
             '{"closed": "55555m123p456s789s", "win_tile": "5m"}', "not json", "[1]",
             '{"closed": "234m456p22s345678s", "win_tile": "8s", "rules": NaN}',
             '{"closed": "234m456p22s345678s", "win_tile": "8s", "x": "caf\u00e9"}', ""]


def _copy(target: Path) -> Path:
    """The sources (no build of their own) and the build script, under `target`."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd")
    shutil.copytree(ROOT / "scorer", target / "scorer", ignore=ignore)
    shutil.copytree(ROOT / "tools", target / "tools", ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", target)
    return target


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(pure, compiled): two copies of the scorer, the second compiled."""
    if importlib.util.find_spec("mypyc") is None:
        pytest.skip("mypyc is part of mypy: pip install -e '.[compiled]'")
    pure = _copy(tmp_path_factory.mktemp("pure"))
    compiled = _copy(tmp_path_factory.mktemp("compiled"))
    subprocess.run([sys.executable, "tools/compile_scorer.py"], cwd=compiled, check=True,
                   capture_output=True, timeout=900)
    return pure, compiled


def _scores(root: Path, path: Path, ruleset: str) -> bytes:
    return subprocess.run([sys.executable, "-m", "scorer", "score", "--jsonl", str(path),
                           "--ruleset", ruleset], cwd=root, check=True, capture_output=True,
                          timeout=600).stdout


@pytest.mark.slow
def test_the_compiled_build_is_compiled(builds: tuple[Path, Path]) -> None:
    probe = "import scorer.score, scorer.record_reader as r; print(scorer.score.__file__, r.READ)"
    pure, compiled = (subprocess.run([sys.executable, "-c", probe], cwd=root, check=True,
                                     capture_output=True, text=True).stdout for root in builds)
    assert pure.split()[0].endswith(".py") and "load_json" in pure
    assert compiled.split()[0].endswith(".so") and "read_record" in compiled


@pytest.mark.slow
@pytest.mark.parametrize(("file", "ruleset"), RUNS)
def test_compiled_and_pure_write_the_same_bytes(builds: tuple[Path, Path], tmp_path: Path,
                                                 file: str, ruleset: str) -> None:
    path = SCORING / file
    if file == "odd.jsonl":
        path = tmp_path / file
        path.write_text("\n".join(ODD_LINES) + "\n", encoding="utf-8")
    else:
        need("scoring", file)
    pure, compiled = (_scores(root, path, ruleset) for root in builds)
    assert pure == compiled
    assert len(pure.splitlines()) == sum(1 for line in path.open() if line.strip())
    assert json.loads(pure.splitlines()[0])


# Replays every real game (and broken copies of one) and prints what came of each.
REPLAY = """
import json, sys
from pathlib import Path
from scorer.table import RecordError, events_from_record, parse_json
def show(text):
    try:
        events, state = events_from_record(parse_json(text))
    except RecordError as e:
        return f"error {e}"
    return repr((state.points, state.ended, state.standings, state.history[-1]))
paths = sorted(Path(sys.argv[1]).glob("*.json"))
for path in paths:
    print(path.name, show(path.read_text(encoding="utf-8")))
record = json.loads(paths[0].read_text(encoding="utf-8"))
record["events"][0]["rules"]["players"] = 5
print(show(json.dumps(record)))
record["events"][0]["rules"] = {"uma": "x"}
print(show(json.dumps(record)))
del record["events"][0]
print(show(json.dumps(record)))
"""


@pytest.mark.slow
def test_compiled_and_pure_replay_the_same_games(builds: tuple[Path, Path]) -> None:
    games = need("scoring", "tenhou-games-dev")
    pure, compiled = (subprocess.run([sys.executable, "-c", REPLAY, str(games)], cwd=root,
                                     check=True, capture_output=True, text=True,
                                     timeout=600).stdout for root in builds)
    assert pure == compiled
    assert pure.count("\n") == len(list(games.glob("*.json"))) + 3
