"""The message catalogue has every key the pages, scripts and Python ask for, each with a Japanese
text (issue 18, item 6: "every string the pages show, in both languages").

Keys are found in the sources: `t("key")` (Python, JS, templates), both keys of `t(a if c else
"b")` / `t(c ? "a" : "b")`, and keys built from a prefix (`t("abort." + kind)`), whose every
ending is listed below from the enum or list that the code builds it from.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from kiosk.words import i18n
from kiosk.words.messages_errors import ERROR_MESSAGES
from kiosk.words.messages_game import GAME_MESSAGES
from kiosk.words.messages_layout import LAYOUT_MESSAGES
from kiosk.words.messages_navigation import NAVIGATION_MESSAGES
from kiosk.words.messages_reading import READING_MESSAGES
from kiosk.words.messages_rules import RULE_MESSAGES
from scorer.points import Limit
from scorer.rules import RULESETS, ChomboPenalty
from scorer.table import AbortKind, EndReason

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"
SOURCES = sorted([*KIOSK.rglob("*.py"), *(KIOSK / "web" / "static").glob("*.js"),
                  *(KIOSK / "web" / "templates").glob("*.html")])

_CALL = re.compile(r"""(?<![\w.])(?:i18n\.|K\.)?t\(\s*(f?)(["'])([^"'\n]*)\2\s*(\S?)""")
_PY_EITHER = re.compile(r"""(?<![\w.])t\(\s*["']([\w.]+)["'] if [^\n]+? else ["']([\w.]+)["']""")
_JS_EITHER = re.compile(r"""(?<![\w.])t\([^()"'\n]*\?\s*["']([\w.]+)["']\s*:\s*["']([\w.]+)["']""")
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
    "ruleset.": list(RULESETS),
}
#: Blanks that differ on purpose: the caller fills both (app.js tileName passes n and kanji, the
#: Japanese names a suit's tile by its kanji numeral; kiosk/words/reading_words.py passes n
#: and count).
OTHER_BLANKS = {"tile.name_m", "tile.name_p", "tile.name_s", "reading.extra", "reading.missing",
                "reading.too_many", "reading.red_fives", "reading.set_aside"}
#: The same in both languages on purpose (a formula, a Latin name, an abbreviation).
SAME_IN_BOTH = {"common.ok", "table.pin", "pay.formula", "event.hand", "history.hand",
                "ruleset.wrc", "ruleset.ema"}


def used_keys() -> tuple[set[str], set[str]]:
    """(keys written out, prefixes of built keys) in every page, script and Python module."""
    keys: set[str] = set()
    prefixes: set[str] = set()
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for f, _, literal, after in _CALL.findall(text):
            built = after in ("+", "~") or (f and "{" in literal)
            if built:
                prefixes.add(_F_FIELD.split(literal)[0])
            elif re.fullmatch(r"[\w.]+", literal):
                keys.add(literal)
        for either in (_PY_EITHER, _JS_EITHER):
            for pair in either.findall(text):
                keys.update(pair)
    return keys, prefixes


def test_the_scan_finds_what_it_should() -> None:
    """The scanner itself: keys of every kind of call it claims to find."""
    keys, prefixes = used_keys()
    assert {"table.honba", "event.game_over", "verdict.chankan_not_kokushi", "display.off",
            "history.round", "over.short"} <= keys
    assert {"abort.", "end.", "wind.", "tile.name_", "chombo."} <= prefixes


def test_every_key_used_has_a_japanese_text() -> None:
    keys, prefixes = used_keys()
    # A prefix not listed in BUILT (a new page's table of words) needs at least its keys; list
    # its endings in BUILT to have each one checked.
    assert [p for p in prefixes if not any(k.startswith(p) for k in i18n.MESSAGES)] == []
    wanted = keys | {p + end for p in prefixes & BUILT.keys() for end in BUILT[p]}
    missing = sorted(k for k in wanted if k not in i18n.MESSAGES)
    assert missing == []
    untranslated = sorted(k for k in wanted if not i18n.MESSAGES[k][1].strip())
    assert untranslated == []


def test_every_message_has_both_texts_and_the_same_blanks() -> None:
    for key, (en, ja) in i18n.MESSAGES.items():
        assert en.strip() and ja.strip(), key
        if key not in OTHER_BLANKS:
            assert set(_F_FIELD.findall(en)) == set(_F_FIELD.findall(ja)), key
        if en == ja:
            assert key in SAME_IN_BOTH, f"{key}: not translated ({ja!r})"
    assert i18n.catalogue("ja")["limit.baiman"] == "倍満"  # what the pages get


def test_no_catalogue_file_redefines_another_s_word() -> None:
    """kiosk/words/messages_*.py are merged into MESSAGES: a key in two files would silently
    win."""
    tree = ast.parse((KIOSK / "words" / "i18n.py").read_text(encoding="utf-8"))
    literal = next(node.value for node in ast.walk(tree) if isinstance(node, ast.AnnAssign)
                   and getattr(node.target, "id", "") == "MESSAGES")
    assert isinstance(literal, ast.Dict)
    in_i18n = {k.value for k in literal.keys if isinstance(k, ast.Constant)}
    parts = [in_i18n] + [set(part) for part in (GAME_MESSAGES, LAYOUT_MESSAGES,
                                                  NAVIGATION_MESSAGES, READING_MESSAGES,
                                                  RULE_MESSAGES, ERROR_MESSAGES)]
    assert all(parts) and sum(map(len, parts)) == len(set().union(*parts)) == len(i18n.MESSAGES)


@pytest.mark.parametrize("key, ja", [
    ("limit.mangan", "満貫"), ("limit.haneman", "跳満"), ("limit.baiman", "倍満"),
    ("limit.sanbaiman", "三倍満"), ("limit.yakuman", "役満"), ("limit.kazoe_yakuman", "数え役満"),
    ("han", "翻"), ("fu", "符"), ("abort.four_winds", "四風連打"),
    ("abort.nine_terminals", "九種九牌"),
    ("chombo.reverse_mangan", "満貫払い"), ("ruleset.mahjong_soul", "雀魂"),
])
def test_names_in_japanese(key: str, ja: str) -> None:
    assert i18n.t(key, "ja") == ja


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
    for code, words in coded.values():
        en, ja = (i18n.t("err." + code, lang, **{k: word(v, lang) for k, v in words.items()})
                  for lang in ("en", "ja"))
        assert "{" not in en and "{" not in ja, (code, en, ja)
        assert not re.search(r"[A-Za-z]{3,}", ja), (code, ja)


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
    ("hand_reds", {"n": 2, "tile": "5p"}, "赤5筒が2枚あります（赤ドラは各1枚）"),
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
