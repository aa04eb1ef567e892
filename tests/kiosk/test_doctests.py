"""The examples in the kiosk's docstrings run (pytest collects doctests in tests/, scorer/ only)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["kiosk.event_words", "kiosk.hand_tiles", "kiosk.i18n", "kiosk.image_header",
           "kiosk.reading_words", "kiosk.teaching", "kiosk.yaku_names"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
