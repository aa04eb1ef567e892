"""`pip install` builds the compiled (mypyc) scorer where a C compiler works and installs the
pure-Python one where none does, never failing; `python -m scorer --version` says which runs. An
editable install builds in place; a source edited after that runs as source until the next build.
The installs go into temporary virtual environments (tests/scorer/conftest.py)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.build_info import build
from tests.scorer.conftest import (
    ROOT,
    copy_for_build,
    has_c_compiler,
    make_venv,
    pip_install,
)

VERSION = re.compile(r"riichi-table-assistant \S+, scorer: (compiled \(mypyc\)|pure Python)\n")
PROBE = "import scorer.score; print(scorer.score.__file__)"


def _run(python: Path | str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(python), *args], cwd=cwd, capture_output=True, text=True,
                          check=True, timeout=300)


def _version(python: Path | str, cwd: Path) -> str:
    out = _run(python, "-m", "scorer", "--version", cwd=cwd).stdout
    found = VERSION.fullmatch(out)
    assert found, out
    return found.group(1)


def test_version_names_the_build_that_runs() -> None:
    assert _version(sys.executable, ROOT) == build()
    help_text = _run(sys.executable, "-m", "scorer", "--help", cwd=ROOT).stdout
    assert "--version" in help_text


def test_the_sources_alone_run_as_pure_python(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "scorer", tmp_path / "scorer",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    assert _version(sys.executable, tmp_path) == "pure Python"


@pytest.mark.slow
def test_pip_install_builds_the_compiled_scorer(installed_scorer: Path) -> None:
    if not has_c_compiler():
        pytest.skip("no C compiler: pip installs the pure-Python scorer")
    where = installed_scorer.parents[1]
    module = Path(_run(installed_scorer, "-c", PROBE, cwd=where).stdout.strip())
    assert module.name.endswith(".so") and where in module.parents
    assert _version(installed_scorer, where) == "compiled (mypyc)"


@pytest.mark.slow
@pytest.mark.parametrize("env", [{"CC": "/bin/false"}, {"SCORER_MYPYC": "0"}],
                         ids=["no-compiler", "opted-out"])
def test_without_a_compiler_pip_install_gives_pure_python(
        tmp_path: Path, env: dict[str, str]) -> None:
    source = copy_for_build(tmp_path / "checkout")
    python = make_venv(tmp_path / "env")
    done = pip_install(python, str(source), **env)
    assert done.returncode == 0, done.stderr[-3000:]
    said = [line for line in (done.stdout + done.stderr).splitlines()
            if "the pure-Python scorer is used" in line]
    assert len(said) == 1, said
    module = _run(python, "-c", PROBE, cwd=tmp_path).stdout.strip()
    assert module == str(python.parents[1] / "lib" / f"python{sys.version_info.major}."
                         f"{sys.version_info.minor}" / "site-packages/scorer/score.py")
    assert _version(python, tmp_path) == "pure Python"


@pytest.mark.slow
def test_an_editable_install_builds_in_place_and_an_edit_runs_as_source(tmp_path: Path) -> None:
    if not has_c_compiler():
        pytest.skip("no C compiler: pip installs the pure-Python scorer")
    checkout = copy_for_build(tmp_path / "checkout")
    python = make_venv(tmp_path / "env")
    done = pip_install(python, "-e", str(checkout))
    assert done.returncode == 0, done.stderr[-3000:]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # The import finds the build beside the sources, from any folder.
    built = Path(_run(python, "-c", PROBE, cwd=elsewhere).stdout.strip())
    assert built.parent == checkout / "scorer" and built.name.startswith("score.")
    assert built.suffix == ".so" and list(checkout.glob("scorer__mypyc*.so"))
    assert _version(python, elsewhere) == "compiled (mypyc)"

    # An edit makes the build stale: the sources run, with a warning naming the file.
    waits = checkout / "scorer/waits.py"
    waits.write_text(waits.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    stale = _run(python, "-m", "scorer", "--version", cwd=elsewhere)
    assert "pure Python" in stale.stdout and "scorer/waits.py" in stale.stderr
    source = _run(python, "-c", PROBE, cwd=elsewhere).stdout.strip()
    assert source == str(checkout / "scorer/score.py")

    # tools/compile_scorer.py builds again in place, and --clean goes back to the sources.
    _run(python, "tools/compile_scorer.py", cwd=checkout)
    fresh = _run(python, "-m", "scorer", "--version", cwd=elsewhere)
    assert "compiled (mypyc)" in fresh.stdout and fresh.stderr == ""
    _run(python, "tools/compile_scorer.py", "--clean", cwd=checkout)
    assert not [*(checkout / "scorer").rglob("*.so"), *checkout.glob("scorer__mypyc*")]
    assert _version(python, elsewhere) == "pure Python"
