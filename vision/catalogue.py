"""Vision's gettext catalogue (``locale/<lang>/LC_MESSAGES/vision.po``), read as the rules core
reads its own (`scorer.words.Catalogues`). Its own module so that the values worded from it
(`vision.problems`) and the command lines' words (`vision.words`) both take it, neither from the
other."""

from __future__ import annotations

from pathlib import Path

from scorer.words import Catalogues

VISION = Catalogues("vision", Path(__file__).with_name("locale"))
