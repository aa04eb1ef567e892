"""The examples in the kiosk's docstrings run (pytest collects doctests in tests/, scorer/ only)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["kiosk.words.event_words", "kiosk.table.hand_tiles", "kiosk.words.i18n",
           "kiosk.photos.image_header", "kiosk.words.reading_words", "kiosk.photos.teaching",
           "kiosk.words.yaku_names", "kiosk.table.export_name", "kiosk.table.recent_players",
           "kiosk.table.same_hand"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0
