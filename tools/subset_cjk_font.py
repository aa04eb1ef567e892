"""Cut the CJK font the pages ship from Debian's `fonts-noto-cjk`: only the characters they show.

A kiosk, phone or laptop without a CJK font would draw the Japanese and Chinese pages as boxes.
The pages therefore carry two subsets of Noto Sans CJK (SIL Open Font License 1.1): the JP face
with every CJK character of the Japanese catalogue, the templates and the scripts (the tiles'
kanji), and the SC face with those of the Simplified Chinese catalogue. Both also hold the
languages' own names, which the language switcher shows on every page. The parlor's words
(``parlor.*``: its counter pages and command line, in the system's font) are left out.
Characters below U+2E80 (Latin, digits, "—", "×") are left to the system's font.

    apt-get install fonts-noto-cjk && pip install -e '.[fonts]'
    python tools/subset_cjk_font.py            # writes kiosk/web/static/fonts/
    python tools/subset_cjk_font.py --check    # exit 1 if the shipped subsets miss a character

Run it again after a catalogue gains a character (tests/kiosk/test_cjk_font.py says which).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kiosk.words import i18n  # noqa: E402
from scorer.words import SCORER, read_po, shared  # noqa: E402

SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")
OUT = ROOT / "kiosk" / "web" / "static" / "fonts"
STATIC = ROOT / "kiosk" / "web"
#: file stem -> (the face in Debian's collection, the languages whose catalogues it covers)
FACES = {"kiosk-cjk-jp": ("Noto Sans CJK JP", ("ja",)),
         "kiosk-cjk-sc": ("Noto Sans CJK SC", ("zh-Hans",))}
FIRST_CJK = 0x2E80  # CJK radicals; below it the system's font draws (kiosk.css's unicode-range)
LAST_CJK = 0xFFEF  # the end of the half- and full-width forms


#: Keys of words the pages drawn with these subsets never show: the parlor's counter pages and
#: command line (in the system's font, system-ui).
NOT_ON_THE_PAGES = ("parlor.",)


def cjk(text: str) -> set[str]:
    return {c for c in text if ord(c) >= FIRST_CJK}


def characters(langs: tuple[str, ...]) -> set[str]:
    """Every CJK character the pages in `langs` can show from the kiosk's own words."""
    chars = cjk("".join(i18n.LANGUAGES.values()))
    for lang in langs:
        # the kiosk's words but the parlor's, and the names of the rules core's values, which the
        # pages read from its catalogue
        chars |= cjk("".join(s for m in read_po(i18n.po_path(lang))
                             if not (m.context or "").startswith(NOT_ON_THE_PAGES)
                             for s in m.strings))
        chars |= cjk("".join(s for m in read_po(SCORER.po_path(lang))
                             if shared(m.context) for s in m.strings))
    for path in [*(STATIC / "templates").glob("*.html"), *(STATIC / "static").glob("*.js")]:
        chars |= cjk(path.read_text(encoding="utf-8"))
    return chars


def _face(collection: Path, family: str):  # noqa: ANN202
    from fontTools.ttLib import TTCollection

    for font in TTCollection(str(collection)).fonts:
        if font["name"].getDebugName(1) == family:
            return font
    raise SystemExit(f"{collection} has no face {family!r}")


def subset(stem: str, source: Path, out: Path) -> Path:
    from fontTools import subset as fts

    family, langs = FACES[stem]
    font = _face(source, family)
    options = fts.Options()
    options.hinting = False  # CFF hints help little on screens this size; they cost bytes
    options.desubroutinize = True  # compresses better as WOFF2
    options.name_languages = ["*"]
    try:
        import brotli  # noqa: F401
        options.flavor, suffix = "woff2", ".woff2"
    except ImportError:
        options.flavor, suffix = "woff", ".woff"
    subsetter = fts.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in characters(langs)))
    subsetter.subset(font)
    path = out / (stem + suffix)
    font.flavor = options.flavor
    font.save(str(path))
    return path


def licence(source: Path, copyright_file: Path) -> str:
    """The font's own copyright notice and the OFL's text as Debian's package carries it."""
    notice = _face(source, "Noto Sans CJK JP")["name"].getDebugName(0)
    lines = copyright_file.read_text(encoding="utf-8").splitlines()
    start = lines.index("License: SIL-1.1", lines.index("Files: debian/*"))
    body = []
    for line in lines[start + 1:]:
        if line and not line.startswith(" "):
            break
        body.append("" if line.strip() == "." else line[1:])
    return (f"The subsets in this folder are cut from Noto Sans CJK ({source.name}, Debian's "
            f"fonts-noto-cjk)\nby tools/subset_cjk_font.py. {notice}\n\n" + "\n".join(body) + "\n")


def missing(stem: str, path: Path) -> list[str]:
    """The characters the subset at `path` should have and does not."""
    from fontTools.ttLib import TTFont

    has = TTFont(str(path)).getBestCmap()
    return sorted(c for c in characters(FACES[stem][1]) if ord(c) not in has)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="Noto Sans CJK collection")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="only check the shipped subsets")
    args = parser.parse_args(argv)
    if args.check:
        gaps = {stem: missing(stem, next(args.out.glob(stem + ".woff*"))) for stem in FACES}
        for stem, chars in gaps.items():
            print(f"{stem}: " + ("complete" if not chars else "missing " + "".join(chars)))
        return 1 if any(gaps.values()) else 0
    if not args.source.is_file():
        raise SystemExit(f"{args.source} not found: apt-get install fonts-noto-cjk")
    args.out.mkdir(parents=True, exist_ok=True)
    for stem in FACES:
        path = subset(stem, args.source, args.out)
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
              f"{len(characters(FACES[stem][1]))} characters, {path.stat().st_size:,} bytes")
    (args.out / "LICENSE-OFL.txt").write_text(licence(args.source, DEBIAN_COPYRIGHT),
                                              encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
