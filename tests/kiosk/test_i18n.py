"""The gettext catalogues (kiosk/words/locale/) have every key the pages, scripts and Python ask
for, each with a Japanese and a Simplified Chinese text with the English's placeholders (issue 18,
item 6; issue 37, part 2: "every string the pages show", in every language).

Keys are found in the sources as the extraction finds them (kiosk/words/extract.py): `t("key")`
(Python, JS, templates), both keys of `t(a if c else "b")` / `t(c ? "a" : "b")`, and keys built
from a prefix (`t("abort." + kind)`), whose every ending is listed below from the enum or list
that the code builds it from.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from kiosk.words import extract, i18n
from scorer.points import Limit
from scorer.rules import PARLOR_RULESETS, RULESETS, ChomboPenalty
from scorer.table import AbortKind, EndReason
from scorer.words import SCORER
from tests.kiosk.catalogues import TRANSLATED, catalog, words

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"
SOURCES = sorted([*KIOSK.rglob("*.py"), *(KIOSK / "web" / "static").glob("*.js"),
                  *(KIOSK / "web" / "templates").glob("*.html")])
_F_FIELD = re.compile(r"\{[^}]*\}")

WINDS = ["1", "2", "3", "4"]
#: prefix -> every ending the code appends to it (f-strings: the text before the first {...}).
BUILT = {
    "abort.": [k.value for k in AbortKind],
    "end.": [r.value for r in EndReason],
    "chombo.": [p.value for p in ChomboPenalty],
    "limit.": [m.value.replace(" ", "_") for m in Limit if m.value],
    "wind.": WINDS,
    "tile.": [*"mps", *(f"{n}z" for n in range(1, 8))],
    "tile.name_": [*"mps"],
    "meld.": ["chi", "pon", "minkan", "ankan", "kakan"],
    "meld.from_": ["kamicha", "toimen", "shimocha"],
    "fu.": ["simple", "terminal", "honour"],
    "fu.pair_": ["dragon", "double_wind", "seat_wind", "round_wind", "value_tile"],
    "pay.": ["aborted", "not_paid"],
    "quick.by_": ["tsumo", "ron"],
    "quick.kind_": ["hanfu", "yakuman", "points"],
    "flag.": ["ippatsu", "last_tile", "rinshan", "chankan", "chankan_of_ankan"],
    "blessing.": ["tenhou", "chiihou", "renhou"],
    "teach.row_": ["m", "p", "s", "z", "other"],
    "ruleset.": [*RULESETS, *PARLOR_RULESETS],
    "chips.": ["aka", "ura", "ippatsu", "yakuman"],  # a win's reasons for chips
}
#: Placeholders that differ on purpose: app.js tileName passes n and kanji, and the Japanese
#: names a suit's tile by its kanji numeral ("五萬"); a record's import refusal is given the
#: event, the field and the reader's English {problem}: the English says the problem as the API
#: does, the others name the event and field in their own words (kiosk/table/game.py).
IMPORT_REFUSALS = {"err.import_event", "err.import_field", "err.import_unreadable"}
OTHER_BLANKS = {"ja": {"tile.name_m", "tile.name_p", "tile.name_s", *IMPORT_REFUSALS},
                "zh-Hans": IMPORT_REFUSALS}
#: The same as the English on purpose (a formula, a Latin name, an abbreviation).
SAME_AS_ENGLISH = {"table.pin", "pay.formula", "event.hand", "history.hand", "ruleset.wrc",
                   "ruleset.ema"}
SAME_IN = {"ja": SAME_AS_ENGLISH | {"common.ok"}, "zh-Hans": SAME_AS_ENGLISH}


def used_keys() -> tuple[set[str], set[str]]:
    """(keys written out, prefixes of built keys) in every page, script and Python module."""
    keys: set[str] = set()
    prefixes: set[str] = set()
    for path in SOURCES:
        written, built = extract.keys(path.read_text(encoding="utf-8"))
        keys |= written
        prefixes |= built
    return keys, prefixes


def test_the_scan_finds_what_it_should() -> None:
    """The scanner itself: keys of every kind of call it claims to find."""
    keys, prefixes = used_keys()
    assert {"table.honba", "event.game_over", "verdict.furiten", "display.off",
            "history.round", "over.short"} <= keys
    assert {"abort.", "end.", "wind.", "tile.name_", "chombo."} <= prefixes
    assert extract.keys('t(ok ? "han" : "fu") + K.t(`x`) + t("abort." + kind)') == (
        {"han", "fu"}, {"abort."})


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_key_used_has_a_text_in_every_language(lang: str) -> None:
    keys, prefixes = used_keys()
    # A prefix not listed in BUILT (a new page's table of words) needs at least its keys; list
    # its endings in BUILT to have each one checked.
    assert [p for p in prefixes if not any(k.startswith(p) for k in words("en"))] == []
    wanted = keys | {p + end for p in prefixes & BUILT.keys() for end in BUILT[p]}
    missing = sorted(k for k in wanted if not i18n.has(k))
    assert missing == []
    untranslated = sorted(k for k in wanted if not words(lang)[k].strip())
    assert untranslated == []


def wrongly_translated(english: Catalog, translated: Catalog, lang: str) -> list[str]:
    """Each entry of the template that `translated` lacks, leaves empty or fuzzy, or words with
    other placeholders than the English plural's (a singular form may leave out the count)."""
    theirs = {m.context: m for m in translated if m.id}
    ours = {m.context for m in english if m.id}
    wrong = [f"{key}: not in the template" for key in theirs if key not in ours]
    for message in english:
        if not message.id:
            continue
        key = message.context
        if key not in theirs:
            wrong.append(f"{key}: missing")
            continue
        forms = theirs[key].string if message.pluralizable else (theirs[key].string,)
        en = message.id[-1] if message.pluralizable else message.id
        if theirs[key].fuzzy or not all(f.strip() for f in forms):
            wrong.append(f"{key}: not translated")
        elif key not in OTHER_BLANKS[lang] and (
                set(_F_FIELD.findall(forms[-1])) != set(_F_FIELD.findall(en))
                or not all(set(_F_FIELD.findall(f)) <= set(_F_FIELD.findall(en)) for f in forms)):
            wrong.append(f"{key}: {' / '.join(forms)!r} has not the placeholders of {en!r}")
        elif forms[-1] == en and key not in SAME_IN[lang]:
            wrong.append(f"{key}: the English kept ({en!r})")
    return wrong


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_entry_is_translated_with_the_english_s_placeholders(lang: str) -> None:
    """Every key of the template has `lang`'s text (none missing, empty or fuzzy), with the
    English's placeholders."""
    assert wrongly_translated(catalog("en"), catalog(lang), lang) == []
    assert i18n.catalogue(lang)["limit.baiman"] == {"ja": "倍満", "zh-Hans": "倍满"}[lang]


def test_the_translation_check_finds_what_is_wrong() -> None:
    """The check above, on a Chinese catalogue with a placeholder misspelt, an entry left
    empty, one fuzzy, one missing and one the template does not have."""
    broken = Catalog(locale="zh_Hans")
    for message in catalog("zh-Hans"):
        if message.id and message.context != "win.tsumo":
            string = {"table.honba": "{m}本场", "win.ura": ""}.get(message.context,
                                                                  message.string)
            flags = ["fuzzy"] if message.context == "table.riichi" else []
            broken.add(message.id, string, context=message.context, flags=flags)
    broken.add("Gone", "走了", context="gone.key")
    assert sorted(wrongly_translated(catalog("en"), broken, "zh-Hans")) == [
        "gone.key: not in the template",
        "table.honba: '{m}本场' has not the placeholders of '{n} honba'",
        "table.riichi: not translated", "win.tsumo: missing", "win.ura: not translated"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_rules_core_s_catalogue_is_translated_with_the_english_s_placeholders(
        lang: str) -> None:
    """The rules core's catalogue (scorer/locale/: the names of its values, which the pages
    read, and its command line's words) and vision's command line's are checked as the
    kiosk's is, and each has every key its command line asks for."""
    for domain in ("scorer", "vision"):  # python -m vision's words (vision/locale/) too
        assert wrongly_translated(catalog("en", domain), catalog(lang, domain), lang) == []
    sources = {path.name: path.read_text(encoding="utf-8")
               for path in [*(KIOSK.parent / "scorer").glob("cli_*.py"),
                            KIOSK.parent / "scorer" / "names.py"]}
    asked = {key for text in sources.values()
             for key in re.findall(r"""SCORER\.t\(\s*["']([\w.]+)["']""", text)}
    asked |= {"cli.table." + key for key in re.findall(r"""(?<![\w.])t\(["'](\w+)["']""",
                                                       sources["cli_table.py"])}
    asked = {key for key in asked if not key.endswith((".", "_"))}  # prefixes: yaku., fu.pair_
    assert len(asked) > 30 and sorted(asked - set(SCORER.entries())) == []
    from vision.words import VISION

    vision = {key for path in (KIOSK.parent / "vision").glob("*.py")
              for key in re.findall(r"""VISION\.t\(\s*["']([\w.]+)["']""",
                                    path.read_text(encoding="utf-8"))}
    built = {key for key in vision if key.endswith(".")}  # prefixes: read.summary. + meld kind
    assert len(vision) >= 8 and sorted(vision - built - set(VISION.entries())) == []
    assert [key for key in built if not any(k.startswith(key) for k in VISION.entries())] == []
    assert i18n.t("yaku.pinfu", lang) == SCORER.t("yaku.pinfu", lang) == {
        "ja": "平和", "zh-Hans": "平和"}[lang]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_catalogue_carries_its_language_s_plural_rule(lang: str) -> None:
    """The header a translator's tool reads is Babel's rule for the language, and the kiosk
    numbers the forms as that rule does."""
    from babel.messages.catalog import Catalog

    standard = Catalog(locale=lang.replace("-", "_")).plural_forms
    assert f'"Plural-Forms: {standard}\\n"' in i18n.po_path(lang).read_text(encoding="utf-8")
    assert standard == "nplurals=1; plural=0;"  # Japanese and Chinese: one form for any count
    assert catalog(lang).num_plurals == len(i18n.plural_tags(lang)) == 1
    assert i18n.plural_tags("en") == ("one", "other")


@pytest.mark.parametrize("lang, n, text", [
    ("en", 1, "1 riichi stick"), ("en", 2, "2 riichi sticks"), ("en", 0, "0 riichi sticks"),
    ("ja", 1, "供託1本"), ("ja", 3, "供託3本"),
    ("zh-Hans", 1, "供托1根"), ("zh-Hans", 3, "供托3根"),
])
def test_a_count_picks_its_plural_form(lang: str, n: int, text: str) -> None:
    assert i18n.t("table.sticks", lang, n=n) == text


def test_the_pages_get_each_plural_entry_s_forms() -> None:
    assert i18n.catalogue("en")["table.sticks"] == ["1 riichi stick", "{n} riichi sticks"]
    assert i18n.catalogue("zh-Hans")["table.sticks"] == ["供托{n}根"]
    assert i18n.catalogue("ja")["teach.taught"] == [
        "学習済み：{kinds}種類の牌（写真{photos}枚、{when}）"]


def test_no_key_is_in_a_catalogue_twice() -> None:
    """gettext would keep one of two entries with the same key silently."""
    for path in [i18n.TEMPLATE, *(i18n.po_path(lang) for lang in i18n.LANGS)]:
        keys = re.findall(r'^msgctxt "(.*)"$', path.read_text(encoding="utf-8"), re.M)
        assert len(keys) == len(set(keys)) > 700, path
    for path in (SCORER.po_path(lang) for lang in i18n.LANGS):
        keys = re.findall(r'^msgctxt "(.*)"$', path.read_text(encoding="utf-8"), re.M)
        assert len(keys) == len(set(keys)) > 100, path
    assert not i18n.kiosk_keys() & set(SCORER.entries())  # one catalogue has each key


def test_a_broken_catalogue_stops_the_start_named(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    shutil.copytree(i18n.LOCALE, tmp_path, dirs_exist_ok=True)
    po = tmp_path / "zh_Hans" / "LC_MESSAGES" / "kiosk.po"  # a line that is not gettext
    po.write_text('msgctxt "table.honba"\nmsgid "{n} honba"\nmsgstr "{n}本场"\nnot po\n',
                  encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE", tmp_path)
    i18n.compiled.cache_clear()
    try:
        with pytest.raises(i18n.CatalogueError,
                           match=r"zh_Hans/LC_MESSAGES/kiosk.po: .*misformatted.* on 3"):
            i18n.load()
    finally:
        monkeypatch.undo()
        i18n.compiled.cache_clear()
    assert i18n.t("table.honba", "zh-Hans", n=2) == "2本场"


def test_the_extraction_gives_the_template(tmp_path: Path) -> None:
    """`pybabel extract -F babel.cfg` (docs/translating.md) finds every entry of the English
    catalogue asked for somewhere, and nothing else (no entry is left unused), and gives the
    template as it is committed."""
    from babel.messages.frontend import CommandLineInterface
    from babel.messages.pofile import read_po

    out = tmp_path / "messages.pot"
    root = KIOSK.parent
    CommandLineInterface().run(["pybabel", "-q", "extract", "-F", str(root / "babel.cfg"),
                                "-o", str(out), str(root)])
    with out.open("rb") as file:
        extracted = {(m.context, m.id) for m in read_po(file) if m.id}
    assert extracted == {(m.context, m.id) for m in catalog("en") if m.id}
    with i18n.TEMPLATE.open("rb") as file:
        assert extracted == {(m.context, m.id) for m in read_po(file) if m.id}


@pytest.mark.parametrize("key, ja", [
    ("limit.mangan", "満貫"), ("limit.haneman", "跳満"), ("limit.baiman", "倍満"),
    ("limit.sanbaiman", "三倍満"), ("limit.yakuman", "役満"), ("limit.kazoe_yakuman", "数え役満"),
    ("han", "翻"), ("fu", "符"), ("abort.four_winds", "四風連打"),
    ("abort.nine_terminals", "九種九牌"),
    ("chombo.reverse_mangan", "満貫払い"), ("ruleset.mahjong_soul", "雀魂"),
])
def test_names_in_japanese(key: str, ja: str) -> None:
    assert i18n.t(key, "ja") == ja


@pytest.mark.parametrize("key, zh", [
    ("table.riichi", "立直"), ("quick.by_ron", "荣和"), ("win.tsumo", "自摸"),
    ("limit.yakuman", "役满"), ("yaku.dora", "宝牌"), ("win.dora", "宝牌指示牌"),
    ("yaku.ura_dora", "里宝牌"), ("yaku.aka_dora", "赤宝牌"), ("table.dealer", "庄家"),
    ("flag.ippatsu", "一发"), ("draw.is_tenpai", "听牌（听：{waits}）"), ("table.draw", "流局"),
    ("win.melds", "副露"), ("meld.chi", "吃"), ("meld.pon", "碰"), ("meld.ankan", "暗杠"),
    ("han", "番"), ("limit.haneman", "跳满"), ("yaku.pinfu", "平和"), ("yaku.tanyao", "断幺九"),
    ("yaku.kokushi_musou", "国士无双"), ("abort.four_kans", "四杠散了"),
    ("other.chombo", "错和"), ("ruleset.mahjong_soul", "雀魂"), ("ruleset.tenhou", "天凤"),
])
def test_names_in_chinese(key: str, zh: str) -> None:
    assert i18n.t(key, "zh-Hans") == zh


def test_counted_words_in_chinese() -> None:
    assert i18n.t("table.honba", "zh-Hans", n=2) == "2本场"
    assert i18n.t("table.sticks", "zh-Hans", n=1) == "供托1根"


# --- the rules core's problems with a hand or its situation, coded (kiosk/words/refusal_words.py)

def _problems() -> list:
    """Every problem the rules core can name for a hand or its situation, each raised once."""
    from scorer.context import Blessing, Riichi, WinContext, Wind
    from scorer.hand import CalledFrom, Hand, Meld, MeldKind
    from scorer.tiles import Tile, parse_tiles
    from scorer.validity import rule_problems

    def meld(kind: str, tiles: str, called: str | None = None, source: str | None = None) -> Meld:
        return Meld(MeldKind(kind), parse_tiles(tiles), Tile.parse(called) if called else None,
                    CalledFrom(source) if source else None)

    closed = Hand(parse_tiles("123m456p789s1122z"), (), Tile.parse("2z"))
    pon = Hand(parse_tiles("123m456p789s22z"), (meld("pon", "111z"),), Tile.parse("2z"))
    situations = [
        WinContext(ippatsu=True), WinContext(rinshan=True), WinContext(tsumo=True, rinshan=True,
                                                                          last_tile=True),
        WinContext(tsumo=True, chankan=True), WinContext(chankan=True, last_tile=True),
        WinContext(chankan_of_ankan=True), WinContext(honba=-1, riichi_sticks=-1),
        WinContext(dora_indicators=parse_tiles("123456m"), ura_indicators=parse_tiles("123456p")),
        WinContext(blessing=Blessing.TENHOU, seat_wind=Wind.SOUTH, riichi=Riichi.RIICHI),
        WinContext(blessing=Blessing.CHIIHOU, tsumo=True),
        WinContext(blessing=Blessing.RENHOU, tsumo=True),
    ]
    out = [p for c in situations for p in c.problems(closed)]
    out += WinContext(riichi=Riichi.RIICHI, blessing=Blessing.TENHOU, tsumo=True).problems(pon)
    out += WinContext(dora_indicators=parse_tiles("1m")).problems(
        Hand(parse_tiles("111123m456p789s2z"), (), Tile.parse("2z")))
    bad = Hand(parse_tiles("1111m00p0p"), (
        meld("pon", "11z"), meld("chi", "135m"), meld("pon", "123z"), meld("pon", "555z", "6z"),
        meld("ankan", "7777z", source="toimen"), meld("chi", "123s", source="toimen")),
        Tile.parse("9s"), kita=5)
    out += bad.problems()
    tenhou, sanma = RULESETS["tenhou"], RULESETS["tenhou_sanma"]
    out += rule_problems(Hand.parse("000p234m678s99s", win="9s"), tenhou)  # one red 5p a set
    out += rule_problems(Hand(parse_tiles("5555s123m456p11z"), (), Tile.parse("1z"), kita=1),
                         tenhou)
    out += rule_problems(Hand(parse_tiles("2m0m"), (meld("chi", "123p"),
                                                     meld("pon", "111z", "1z", "toimen")),
                              Tile.parse("2m")), sanma, WinContext(seat_wind=Wind.NORTH))
    return out


def test_every_problem_of_the_rules_core_has_a_code_and_japanese_words() -> None:
    from kiosk.words.refusal_words import code_of, word
    from scorer.hand import ProblemCode

    problems = _problems()
    assert all(isinstance(p.code, ProblemCode) for p in problems)
    coded = {str(p): code_of(p) for p in problems}
    assert [p for p, (code, _) in coded.items() if code == "problem"] == []
    # Every code of the rules core's checks is raised above (the input readers' `input_*` codes
    # say what is wrong with the notation, and keep their English).
    assert {code for code, _ in coded.values()} == {
        c.value for c in ProblemCode if not c.value.startswith("input_")}
    for code, details in coded.values():
        en, ja, zh = (i18n.t("err." + code, lang, **{k: word(v, lang) for k, v in details.items()})
                      for lang in ("en", "ja", "zh-Hans"))
        assert "{" not in en and "{" not in ja and "{" not in zh, (code, en, ja, zh)
        assert not re.search(r"[A-Za-z]{3,}", ja + zh), (code, ja, zh)


def test_a_problem_without_words_keeps_its_english() -> None:
    from kiosk.words.refusal_words import code_of
    from scorer.hand import Problem, ProblemCode

    problem = Problem("seat_wind", "expected a whole number 1-4, not 9", ProblemCode.INPUT_NUMBER,
                      {"low": 1, "high": 4, "value": "9"})
    assert code_of(problem) == ("problem", {"field": "seat_wind",
                                            "message": "expected a whole number 1-4, not 9"})


@pytest.mark.parametrize("code, details, ja", [
    ("sit_indicator_copies", {"n": 5, "tile": "1m"},
     "手牌とドラ表示牌を合わせて1萬が5枚あります（1種類4枚まで）"),
    ("hand_chi_run", {"meld": 2, "kind": "chi", "tiles": "135m"},
     "副露2（チー）が順子になっていません：1萬、3萬、5萬"),
    ("hand_reds", {"n": 2, "tile": "5p", "most": 1},
     "赤5筒が2枚あります（このセットの赤5筒は1枚）"),
    ("hand_reds", {"n": 3, "tile": "5p", "most": 2},
     "赤5筒が3枚あります（このセットの赤5筒は2枚）"),
    ("sit_blessing_call", {"blessing": "tenhou"}, "鳴きや槓の後に天和はありえません"),
    ("sit_ippatsu", {}, "一発はリーチしていないと付きません"),
])
def test_a_problem_s_details_are_in_its_japanese_words(code: str, details: dict, ja: str) -> None:
    from kiosk.words.refusal_words import code_of, word
    from scorer.hand import Problem, ProblemCode

    coded, words = code_of(Problem("field", "(English)", ProblemCode(code), details))
    assert coded == code
    assert i18n.t("err." + code, "ja", **{k: word(v, "ja") for k, v in words.items()}) == ja


def test_the_rules_core_names_a_problem_s_details_where_it_finds_it() -> None:
    from scorer.context import WinContext
    from scorer.hand import Hand, ProblemCode
    from scorer.tiles import Tile, parse_tiles

    [problem] = WinContext(dora_indicators=parse_tiles("1m")).problems(
        Hand(parse_tiles("111123m456p789s2z"), (), Tile.parse("2z")))
    assert (problem.code, dict(problem.details)) == (ProblemCode.SIT_INDICATOR_COPIES,
                                                     {"n": 5, "tile": "1m"})
    assert problem.message == "5 copies of 1m in the hand and indicators together; a set has 4"
