"""The examples in the parlor's docstrings run (pytest collects doctests in tests/, scorer/)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["kiosk.parlor.auth", "kiosk.parlor.batch",
                                  "kiosk.parlor.cards", "kiosk.parlor.rating",
                                  "kiosk.parlor.results", "kiosk.parlor.settings",
                                  "kiosk.parlor.throttle"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
