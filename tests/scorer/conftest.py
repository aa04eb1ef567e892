"""Installs of the scorer as users get them: `pip install .` of a copy of the checkout into a
temporary virtual environment, built once per test session (setup.py compiles it with mypyc where
a C compiler works; about a minute) and shared by test_build.py and test_compiled.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PIP_TIMEOUT = 900


def copy_for_build(target: Path) -> Path:
    """What `pip install .` needs of the checkout to install the scorer (no build of its own)."""
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "build")
    for folder in ("scorer", "tools"):
        shutil.copytree(ROOT / folder, target / folder, ignore=ignore)
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, target / name)
    return target


def make_venv(path: Path) -> Path:
    """A virtual environment that sees this one's packages (pip, mypy, the dependencies): its
    python, which imports its own `scorer` first."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(path)], check=True, timeout=120)
    return path / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def pip_install(python: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """`python -m pip install -v --no-deps ARGS` run outside the checkout, with `env` added."""
    environ = {k: v for k, v in os.environ.items() if k != "SCORER_MYPYC"} | env
    return subprocess.run([str(python), "-m", "pip", "install", "-v", "--no-deps", *args],
                          cwd=python.parents[1], env=environ, capture_output=True, text=True,
                          timeout=PIP_TIMEOUT)


def has_c_compiler() -> bool:
    return shutil.which((os.environ.get("CC") or "cc").split()[0]) is not None


@pytest.fixture(scope="session")
def installed_scorer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a virtual environment where `pip install .` installed a copy of the
    checkout (compiled where a C compiler works)."""
    source = copy_for_build(tmp_path_factory.mktemp("checkout"))
    python = make_venv(tmp_path_factory.mktemp("venv") / "env")
    done = pip_install(python, str(source))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return python
