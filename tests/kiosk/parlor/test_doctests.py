"""The examples in the parlor's docstrings run (pytest collects doctests in tests/, scorer/)."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["kiosk.parlor.store.auth", "kiosk.parlor.web.batch",
                                  "kiosk.parlor.link.cards", "kiosk.parlor.standings.rating",
                                  "kiosk.parlor.store.results", "kiosk.parlor.store.settings",
                                  "kiosk.parlor.web.throttle"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
