"""pytest, for the whole checkout: where the compiled scorer is built in place (`pip install -e .`,
see setup.py), `--doctest-modules` leaves its compiled modules alone. Their import is the
extension module, which keeps no docstrings and is not the file pytest asked for;
tests/scorer/test_doctests.py runs their doctests on the sources instead."""

from __future__ import annotations

import importlib.machinery
from pathlib import Path

SCORER = Path(__file__).resolve().parent / "scorer"


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    if collection_path.suffix != ".py" or SCORER not in collection_path.parents:
        return None
    from scorer.build_info import COMPILED, build

    compiled = any(collection_path.with_name(collection_path.stem + suffix).is_file()
                   for suffix in importlib.machinery.EXTENSION_SUFFIXES)
    return True if compiled and build() == COMPILED else None
