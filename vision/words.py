"""`python -m vision`'s words: gettext catalogues, ``locale/<lang>/LC_MESSAGES/vision.po``, read
as the rules core reads its own (`scorer.words`: the standard library's gettext, no Babel), in
the language of ``--language`` or the environment, English by default (docs/translating.md).

>>> VISION.t("read.tiles", n=1, parts="1 in the hand"), VISION.t("read.dora", "ja", n=2)
('1 tile read: 1 in the hand', 'ドラ表示牌2枚')
"""

from __future__ import annotations

from pathlib import Path

from scorer.words import Catalogues

VISION = Catalogues("vision", Path(__file__).with_name("locale"))
