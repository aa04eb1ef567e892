"""Every point of a win explained through the API (issue 18, item 5): the payment lines of worked
examples add up to what each seat pays, the fu items and the yakuman's size in words, and every
word the breakdown asks for in both languages. (The wins themselves: test_api_wins.py.)

Expected values are from the rule texts' payment tables (see test_api_wins.py's docstring).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kiosk.words import i18n
from kiosk.words.yaku_names import fu_words, limit_name, tile_name
from scorer.context import Riichi, WinContext, Wind
from scorer.hand import Hand, Meld
from scorer.points import Limit
from scorer.rules import RULESETS
from scorer.score import score
from tests.kiosk.catalogues import words
from tests.kiosk.conftest import Api

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"


def dealer_keeps_the_deal(api: Api, draws: int) -> None:  # each draw adds a honba
    for _ in range(draws):
        assert api.post("/api/draws", {"tenpai": [0]}).status_code == 200


def lines(breakdown: dict[str, Any]) -> list[tuple[str, list[int], int, int, str]]:
    return [(line["kind"], line["from"], line["to"], line["amount"], line["detail"])
            for line in breakdown["payment_lines"]]


def paid_by_lines(out: dict[str, Any]) -> list[int]:  # each seat's change, line by line
    seats = [0, 0, 0, 0]
    for breakdown in out.get("breakdowns", [out]):
        for line in breakdown["payment_lines"]:
            if line["to"] is not None:
                seats[line["to"]] += line["amount"]
            for payer in line["from"]:
                seats[payer] -= line["each"]
    return seats


def test_worked_example_dealer_ron_with_two_honba_and_a_stick(api: Api) -> None:
    # A dealer's 4 han 30 fu ron with 2 honba and 1 riichi stick: 11,600 + 600 + 1,000 = 13,200.
    dealer_keeps_the_deal(api, 2)
    api.post("/api/riichi", {"seat": 2})
    body = {"winner": 0, "discarder": 1, "quick": {"han": 4, "fu": 30}}
    out = api.post("/api/score", body).get_json()
    assert out["summary"] == "4 han 30 fu — 11,600"  # once: not "11,600 (11,600)"
    assert out["base"]["text"] == "Base points: 30 fu × 2^(4 + 2) = 1,920"
    assert lines(out) == [
        ("hand", [1], 0, 11600, "1,920 × 6 = 11,520, rounded up to the next 100"),
        ("honba", [1], 0, 600, "2 × 300"),
        ("sticks", [], 0, 1000, "1 × 1,000")]
    assert [line["text"] for line in out["payment_lines"]] == [
        "Player 2 (South) pays Player 1 (East)", "Honba: Player 2 (South) pays Player 1 (East)",
        "Riichi sticks on the table to Player 1 (East)"]
    assert out["payments"] == [13200, -12200, 0, 0] == paid_by_lines(out)
    applied = api.post("/api/wins", body).get_json()
    assert applied["deltas"] == [13200, -12200, 0, 0]
    kept = api.get("/api/history").get_json()["entries"][-1]["breakdowns"][0]
    assert kept["payment_lines"] == out["payment_lines"]


def test_haneman_tsumo_with_three_honba_two_sticks_and_each_kind_of_dora(api: Api) -> None:
    # The "+14,900 on a 12,000 hand": 3,000/6,000 + 3 x 100 from each + 2 sticks.
    # Riichi, menzen tsumo, pinfu, tanyao; dora 2m (indicator 1m), the red 5s, ura 4p
    # (indicator 3p): 7 han haneman.
    dealer_keeps_the_deal(api, 3)
    api.post("/api/riichi", {"seat": 1})
    api.post("/api/riichi", {"seat": 3})
    hand = {"concealed": "234m456p22s34067s", "win": "8s", "dora": "1m", "ura": "3p"}
    out = api.post("/api/score", {"winner": 1, "discarder": None, "hand": hand}).get_json()
    assert [(y["name"], y["han"]) for y in out["yaku"]] == [
        ("Menzen tsumo", 1), ("Riichi", 1), ("Pinfu", 1), ("Tanyao", 1)]
    assert [(d["name"], d["han"]) for d in out["dora_lines"]] == [
        ("Dora", 1), ("Red fives", 1), ("Ura dora", 1)]
    assert out["summary"] == "7 han haneman — 3,000/6,000 (12,000)"
    assert out["base"]["text"] == "Haneman: base points 3,000" and not out["fu_counts"]
    assert lines(out) == [
        ("hand", [2], 1, 3000, "3,000 × 1"), ("hand", [3], 1, 3000, "3,000 × 1"),
        ("hand", [0], 1, 6000, "3,000 × 2"), ("honba", [2, 3, 0], 1, 900, "3 × 100 = 300 each"),
        ("sticks", [], 1, 2000, "2 × 1,000")]
    assert out["payment_lines"][3]["text"] == "Honba: the other three each pay Player 2 (South)"
    assert out["payments"] == [-6300, 14900, -3300, -3300] == paid_by_lines(out)


# An open hand: concealed pon of Green dragon (8), open pon of 6s (2), kanchan 4-6p on 5p (2):
# 20 + 2 + 8 + 2 = 32 fu, rounded up to 40; hatsu 1 han, 1,300 off a non-dealer ron.
HATSU = {"concealed": "666z123m46p99s", "win": "5p",
         "melds": [{"kind": "pon", "tiles": "666s", "called": "6s", "source": "toimen"}]}


@pytest.mark.parametrize("lang, words, total, summary", [
    ("en", ["Base (futei)", "Closed wait (kanchan)", "Closed pon of Green dragon (honour)",
            "Open pon of 6s (simple)"], "Total: 32 fu → 40 fu (rounded up to 10)",
     "1 han 40 fu — 1,300"),
    ("ja", ["副底", "嵌張待ち", "發の暗刻（字牌）", "6索の明刻（中張牌）"],
     "合計：32符 → 40符（10符単位に切り上げ）", "1翻40符 1,300点"),
])
def test_fu_items_in_words_with_their_rounding(api: Api, lang: str, words: list[str], total: str,
                                               summary: str) -> None:
    api.post("/api/session/language", {"language": lang})
    out = api.post("/api/score", {"winner": 1, "discarder": 3, "hand": HATSU}).get_json()
    assert [(f["text"], f["fu"]) for f in out["fu_items"]] == list(zip(words, [20, 2, 8, 2],
                                                                       strict=True))
    assert out["fu_raw"] == 32 and out["fu"] == 40 and out["fu_text"] == total
    assert out["summary"] == summary and out["fu_counts"]
    assert lines(out)[0][3] == 1300 and out["payments"] == [0, 1300, 0, -1300]
    assert not any("666" in f["text"] for f in out["fu_items"])  # not "666z", nor "666s"


def test_yakuman_breakdown_names_its_size(api: Api) -> None:
    kokushi = {"concealed": "19m19p19s1123456z", "win": "7z"}
    out = api.post("/api/score", {"winner": 1, "discarder": 2, "hand": kokushi}).get_json()
    assert [(y["id"], y["yakuman"], y["han_text"]) for y in out["yaku"]] == [
        ("kokushi_musou", 1, "Yakuman")]
    assert out["dora_lines"] == [] and not out["fu_counts"]
    assert (out["summary"], out["base"]["text"]) == ("Yakuman — 32,000",
                                                     "Yakuman: base points 8,000")
    assert lines(out) == [("hand", [2], 1, 32000, "8,000 × 4")]


def test_double_ron_lines_add_up(api: Api) -> None:
    api.post("/api/riichi", {"seat": 3})
    wins = [{"winner": 1, "discarder": 0, "quick": {"han": 3, "fu": 30}},
            {"winner": 2, "discarder": 0, "quick": {"han": 2, "fu": 30}}]
    out = api.post("/api/score", {"wins": wins}).get_json()
    first, second = out["breakdowns"]
    assert lines(first) == [("hand", [0], 1, 3900, "960 × 4 = 3,840, rounded up to the next 100"),
                            ("sticks", [], 1, 1000, "1 × 1,000")]
    assert lines(second) == [("hand", [0], 2, 2000,
                              "480 × 4 = 1,920, rounded up to the next 100")]
    assert out["payments"] == [-5900, 4900, 2000, 0] == paid_by_lines(out)


def test_head_bump_and_pao_lines(api: Api) -> None:
    out = api.post("/api/score", {"winner": 1, "discarder": 2, "pao": 3,
                                  "quick": {"yakuman": 1}}).get_json()
    assert lines(out) == [("hand", [2], 1, 16000, "the rest, not covered by pao"),
                          ("hand", [3], 1, 16000, "liable for the yakuman (pao)")]
    assert out["payments"] == [0, 32000, -16000, -16000] == paid_by_lines(out)
    api.post("/api/games", {"players": ["A", "B", "C", "D"], "ruleset": "mleague"})
    wins = [{"winner": 2, "discarder": 0, "quick": {"han": 2, "fu": 30}},
            {"winner": 1, "discarder": 0, "quick": {"han": 3, "fu": 30}}]
    out = api.post("/api/score", {"wins": wins}).get_json()
    assert [line["kind"] for line in out["breakdowns"][0]["payment_lines"]] == ["not_paid"]
    assert out["payments"] == [-3900, 3900, 0, 0] == paid_by_lines(out)


def _fu_reasons() -> set[str]:
    """Every kind of fu item the rules core gives, from winning hands that show each."""
    haku = Meld.parse("pon", "555z", called="5z", source="toimen")
    chi = Meld.parse("chi", "234s", called="2s", source="kamicha")
    kans = [Meld.parse("minkan", "5555z", called="5z", source="toimen"),
            Meld.parse("kakan", "8888s", called="8s", source="kamicha")]
    hands = [  # (hand, tsumo): what it shows
        (Hand.parse("234m456p345789s33z", win="3z"), False),  # closed ron, tanki
        (Hand.parse("123m456p789s55p789s", win="7s"), True),  # tsumo, penchan
        (Hand.parse("123m456p789s55p789s", win="2m"), True),  # kanchan
        (Hand.parse("123m456p789s77z", win="7z", melds=[haku]), False),  # dragon pair, pon
        (Hand.parse("123m456p789s22z", win="2z", melds=[haku]), False),  # seat wind pair
        (Hand.parse("123m456p789s11z", win="1z", melds=[haku]), False),  # round wind pair
        (Hand.parse("234m456p678s55p", win="6s", melds=[chi]), False),  # open pinfu shape
        (Hand.parse("1133m5577p2244s66z", win="6z"), False),  # chiitoitsu
        (Hand.parse("111m999p55s789s234m", win="9p"), False),  # concealed and ron triplets
        (Hand.parse("123m456p11z", win="1z", melds=kans), False),  # open and added kans
        (Hand.parse("123m456p789s11z", win="1z", melds=[Meld.parse("ankan", "2222p")]), True),
    ]
    reasons = set()
    for hand, tsumo in hands:
        closed = all(m.kind.value == "ankan" for m in hand.melds)
        ctx = WinContext(tsumo=tsumo, seat_wind=Wind.SOUTH,
                         riichi=Riichi.RIICHI if closed else Riichi.NONE)
        result = score(hand, ctx, RULESETS["tenhou"])
        assert result.is_win, (hand, result.message)
        reasons.update(item.reason for item in result.fu_items)
    return reasons


def test_every_fu_item_of_the_rules_core_has_words_in_both_languages() -> None:
    reasons = _fu_reasons()
    kinds = {re.sub(r" [1-9]+[mpsz]$", "", re.sub(" of terminals/honours", "", r))
             for r in reasons}
    assert {"base (futei)", "closed ron (menzen kafu)", "tsumo", "kanchan wait", "penchan wait",
            "tanki wait", "open hand of pinfu shape", "chiitoitsu (fixed, not rounded)",
            "pair of the dragon", "pair of the seat wind", "pair of the round wind",
            "concealed triplet", "triplet completed by ron", "open triplet", "open quad",
            "open quad (added)", "closed quad"} <= kinds, kinds
    for reason in reasons:
        for lang in ("en", "ja"):
            words = fu_words(reason, lang)  # t() would answer a missing key with the key
            assert words and not re.search(r"\d{3}[mpsz]|^fu\.|tile\.|\{", words), words
    assert fu_words("pair of the double wind 1z") == "Pair of East wind (seat and round wind)"
    assert tile_name("0p") == "5p" and tile_name("7z", "ja") == "中"


#: The message keys the kiosk puts together from a prefix and a name ("meld." + kind).
KEY_FAMILIES = {
    "abort": "nine_terminals four_winds four_riichi four_kans triple_ron",
    "blessing": "tenhou chiihou renhou", "meld": "chi pon minkan ankan kakan",
    "flag": "ippatsu last_tile rinshan chankan chankan_of_ankan", "wind": "1 2 3 4",
    "limit": " ".join(limit.value.replace(" ", "_") for limit in Limit if limit.value),
    "tile": "m p s 1z 2z 3z 4z 5z 6z 7z", "pay": "not_paid aborted",
    "quick": "by_tsumo by_ron kind_hanfu kind_yakuman kind_points",
    "fu": "simple terminal honour pair_dragon pair_seat_wind pair_round_wind pair_double_wind"}


def test_every_message_key_in_use_exists_in_both_languages() -> None:
    used = set()
    for path in [*(p for p in KIOSK.rglob("*.py") if "parlor" not in p.parts),
                 *KIOSK.glob("web/static/*.js"), *KIOSK.glob("web/templates/*.html")]:
        used |= set(re.findall(r"\bt\(\s*f?[\"']([A-Za-z0-9_.]+)[\"'{]", path.read_text()))
    # Keys put together from a prefix ("meld." + kind): every one the kiosk can ask for.
    prefixes = {key for key in used if key.endswith((".", "_"))}
    used -= prefixes
    for prefix in prefixes:  # the families listed below, and any other page's: not empty
        assert any(key.startswith(prefix) for key in words("en")), prefix
    used |= {f"{family}.{name}" for family, names in KEY_FAMILIES.items()
             for name in names.split()}
    missing = sorted(key for key in used if not i18n.has(key))
    assert missing == []
    blank = sorted(key for lang in i18n.LANGS for key, text in words(lang).items() if not text)
    assert blank == []
    assert limit_name("mangan", "ja") == "満貫" and limit_name("yakuman", "en", 2) == "2x yakuman"
