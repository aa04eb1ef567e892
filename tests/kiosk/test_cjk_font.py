"""The CJK font the pages ship (kiosk/web/static/fonts/, cut by tools/subset_cjk_font.py from
Debian's fonts-noto-cjk): it covers every CJK character the Japanese and Chinese pages show from
the kiosk's own words, comes with its licence, and stays small."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FONTS = ROOT / "kiosk" / "web" / "static" / "fonts"
_spec = importlib.util.spec_from_file_location("subset_cjk_font",
                                               ROOT / "tools" / "subset_cjk_font.py")
assert _spec is not None and _spec.loader is not None
subset = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(subset)


@pytest.mark.parametrize("stem, known", [("kiosk-cjk-jp", "役満萬發東立直供託和了"),
                                         ("kiosk-cjk-sc", "役满宝牌荣和自摸供托听牌")])
def test_each_subset_covers_every_cjk_character_its_pages_show(stem: str, known: str) -> None:
    wanted = subset.characters(subset.FACES[stem][1])
    assert set(known) <= wanted and {"日", "本", "語", "中", "文"} <= wanted  # the switcher
    assert all(subset.FIRST_CJK <= ord(c) <= subset.LAST_CJK for c in wanted)  # kiosk.css
    css = (ROOT / "kiosk" / "web" / "static" / "kiosk.css").read_text(encoding="utf-8")
    assert css.count(f"unicode-range: U+{subset.FIRST_CJK:04X}-{subset.LAST_CJK:04X};") == 2
    assert subset.missing(stem, FONTS / f"{stem}.woff2") == []


def test_the_coverage_check_finds_a_missing_character() -> None:
    """The Japanese subset lacks simplified forms only the Chinese pages show."""
    gaps = subset.missing("kiosk-cjk-sc", FONTS / "kiosk-cjk-jp.woff2")
    assert {"满", "荣", "听"} <= set(gaps)


def test_the_font_is_small_and_comes_with_its_licence() -> None:
    sizes = [path.stat().st_size for path in FONTS.glob("*.woff2")]
    assert len(sizes) == 2 and sum(sizes) < 1_000_000
    licence = (FONTS / "LICENSE-OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1 - 26 February 2007" in licence
    assert "Adobe" in licence and "fonts-noto-cjk" in licence
