"""The doctests of the scorer's compiled modules run on the sources. Where the compiled build is
installed in place, `--doctest-modules` passes over those modules (the root conftest.py): their
import is the extension module, which keeps no docstrings. Here a copy of the sources runs them."""

from __future__ import annotations

import importlib.machinery
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.build_info import COMPILED, build
from tests.scorer.conftest import ROOT


def _compiled_sources() -> list[str]:
    """The scorer's sources that have a compiled module beside them, relative to the checkout."""
    return sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "scorer").rglob("*.py")
                  if any(path.with_name(path.stem + suffix).is_file()
                         for suffix in importlib.machinery.EXTENSION_SUFFIXES))


def test_the_compiled_modules_doctests_pass_on_the_sources(tmp_path: Path) -> None:
    sources = _compiled_sources()
    if build() != COMPILED or not sources:
        pytest.skip("the sources run here: --doctest-modules runs their doctests in place")
    shutil.copytree(ROOT / "scorer", tmp_path / "scorer",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "--doctest-modules", *sources], cwd=tmp_path, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:]
    assert " passed" in done.stdout
