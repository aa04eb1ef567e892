"""The API's refusals for a page in Japanese (issue 18, item 6): each answer keeps its English
`error` for an English session, carries a stable `code` (and the words that fill it), and a
session in Japanese gets `error` worded from the catalogue (kiosk/words/messages_errors.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kiosk.words import i18n
from tests.kiosk.catalogues import words
from tests.kiosk.conftest import Api

PLAYERS = ["Aki", "Bun", "Chie", "Dai"]
PINFU = {"concealed": "234m456p22s34567s", "win": "8s", "dora": "1s"}


def new_game(api: Api, lang: str) -> None:
    assert api.post("/api/session/language", {"language": lang}).status_code == 200
    r = api.post("/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
    assert r.status_code in (200, 201), r.get_data(as_text=True)


def edited_record(api: Api) -> bytes:
    assert api.post("/api/corrections", {"deltas": [3000, -1000, -2000, 0],
                                         "reason": "tally"}).status_code == 200
    record = api.get("/api/export.json").get_json()
    record["events"][1]["after"]["points"][0] = 99000
    return json.dumps(record).encode()


def refusals(api: Api) -> list[tuple[Any, int, str]]:
    """(answer, status, code) of each refusal the brief names, on one game."""
    record = edited_record(api)
    out = [(api.post("/api/import", data=record, content_type="application/json"), 400,
            "import_field"),
           (api.post("/api/import", data=b"hello", content_type="application/json"), 400,
            "import_unreadable")]
    assert api.post("/api/riichi", {"seat": 2}).status_code == 200
    out.append((api.post("/api/riichi", {"seat": 2}), 422, "riichi_twice"))
    out.append((api.post("/api/score", {"winner": 1, "discarder": 0,
                                        "quick": {"points": 1234}}), 422, "quick_points"))
    out.append((api.post("/api/score", {"winner": 1, "discarder": 0,
                                        "quick": {"han": 3, "fu": 35}}), 422, "quick_fu"))
    out.append((api.post("/api/session/pin", {"pin": "not the pin"}), 403, "wrong_pin"))
    return out


JA = {
    # the event and the field named in Japanese (the English says the reader's {problem})
    "import_field": "棋譜を取り込めません：イベント1の「after.points」が正しくありません",
    "import_unreadable": "棋譜を取り込めません：このキオスクが読める対局記録ではありません",
    "riichi_twice": "Chieさんはこの局ですでにリーチしています",
    "quick_points": "子のロンで1,234点になる手はありません",
    "quick_fu": "35符という符はありません",
    "wrong_pin": "PINが違います",
}


def test_a_japanese_session_gets_each_refusal_in_japanese(api: Api) -> None:
    new_game(api, "ja")
    for answer, status, code in refusals(api):
        body = answer.get_json()
        assert (answer.status_code, body["code"]) == (status, code), body
        assert body["error"] == JA[code]
        assert body["problems"] == []


def test_an_english_session_keeps_the_api_s_english(api: Api) -> None:
    new_game(api, "en")
    words = {}
    for answer, status, code in refusals(api):
        body = answer.get_json()
        assert (answer.status_code, body["code"]) == (status, code), body
        words[code] = body["error"]
    assert words["riichi_twice"] == "field 'seat': seat 2 has already declared riichi this hand"
    assert words["quick_points"] == "quick.points: no hand is worth 1,234 for a non-dealer ron"
    assert words["wrong_pin"] == "wrong PIN"
    assert words["import_field"].startswith("cannot import the record: event 1 (correction), "
                                            "field 'after.points': the record says")


@pytest.mark.parametrize("code", sorted(k.removeprefix("err.") for k in words("en")
                                         if k.startswith("err.")))
def test_every_refusal_has_its_texts(code: str) -> None:
    en, ja, zh = (words(lang)["err." + code] for lang in ("en", "ja", "zh-Hans"))
    assert en.strip() and ja.strip() and zh.strip() and en != ja and en != zh
    assert i18n.t("err." + code, "ja") == ja and i18n.t("err." + code, "zh-Hans") == zh
