"""The compiled scorer (what `pip install` builds, see setup.py) writes the same bytes as the
Python sources: `score --jsonl` on every real hand, under several rulesets, and on lines that are
not hands; every real game record replayed, and records that are broken. The compiled build is the
session's `pip install .` of a copy of the checkout (tests/scorer/conftest.py), the pure one a copy
of the sources; the checkout is left as it is. Skipped where no C compiler works.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scorer.conftest import ROOT, has_c_compiler
from tests.scorer.tenhou_data import SCORING
from tests.shared import need

RUNS = [("tenhou-wins-dev.jsonl", "tenhou"), ("tenhou-wins-dev.jsonl", "casual"),
        ("tenhou-wins-dev.jsonl", "wrc"), ("tenhou-sanma-wins-dev.jsonl", "tenhou_sanma"),
        ("tenhou-sanma-wins-dev.jsonl", "mahjong_soul_sanma"), ("odd.jsonl", "tenhou")]
ODD_LINES = ['{"closed": "123m456p789s11357z", "win_tile": "7z"}',
             '{"closed": "19m19p19s12345677z", "win_tile": "7z", "tsumo": true, "rules": [1]}',
             '{"closed": "55555m123p456s789s", "win_tile": "5m"}', "not json", "[1]",
             '{"closed": "234m456p22s345678s", "win_tile": "8s", "rules": NaN}',
             '{"closed": "234m456p22s345678s", "win_tile": "8s", "x": "caf\u00e9"}', ""]


# Where a build runs: (python, folder it runs in).
Build = tuple[str, Path]


@pytest.fixture(scope="module")
def builds(installed_scorer: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Build, Build]:
    """(pure, compiled): a copy of the sources, and the installed (compiled) scorer."""
    if not has_c_compiler():
        pytest.skip("no C compiler: pip installs the pure-Python scorer")
    pure = tmp_path_factory.mktemp("pure")
    shutil.copytree(ROOT / "scorer", pure / "scorer",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    return (sys.executable, pure), (str(installed_scorer), installed_scorer.parents[1])


def _scores(build: Build, path: Path, ruleset: str) -> bytes:
    python, root = build
    return subprocess.run([python, "-m", "scorer", "score", "--jsonl", str(path),
                           "--ruleset", ruleset], cwd=root, check=True, capture_output=True,
                          timeout=600).stdout


@pytest.mark.slow
def test_the_compiled_build_is_compiled(builds: tuple[Build, Build]) -> None:
    probe = "import scorer.score, scorer.record_reader as r; print(scorer.score.__file__, r.READ)"
    pure, compiled = (subprocess.run([python, "-c", probe], cwd=root, check=True,
                                     capture_output=True, text=True).stdout
                      for python, root in builds)
    assert pure.split()[0].endswith(".py") and "load_json" in pure
    assert compiled.split()[0].endswith(".so") and "read_record" in compiled


@pytest.mark.slow
@pytest.mark.parametrize(("file", "ruleset"), RUNS)
def test_compiled_and_pure_write_the_same_bytes(builds: tuple[Build, Build], tmp_path: Path,
                                                 file: str, ruleset: str) -> None:
    path = SCORING / file
    if file == "odd.jsonl":
        path = tmp_path / file
        path.write_text("\n".join(ODD_LINES) + "\n", encoding="utf-8")
    else:
        need("scoring", file)
    pure, compiled = (_scores(build, path, ruleset) for build in builds)
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
def test_compiled_and_pure_replay_the_same_games(builds: tuple[Build, Build]) -> None:
    games = need("scoring", "tenhou-games-dev")
    pure, compiled = (subprocess.run([python, "-c", REPLAY, str(games)], cwd=root,
                                     check=True, capture_output=True, text=True,
                                     timeout=600).stdout for python, root in builds)
    assert pure == compiled
    assert pure.count("\n") == len(list(games.glob("*.json"))) + 3
