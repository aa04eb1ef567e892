"""The examples in vision's docstrings run (pytest's --doctest-modules covers only tests/ and
scorer/)."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module",
    ["vision.decode", "vision.evaluate", "vision.peer", "vision.postprocess", "vision.problems",
     "vision.standing_tops", "vision.synth.faces", "vision.training.requantize", "vision.words"],
)
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
