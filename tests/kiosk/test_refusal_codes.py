"""Every refusal the kiosk raises is coded, so a page in Japanese says it in Japanese (issue 18,
item 6). The sources are read, not run: each `ApiError(` in kiosk/ (the parlor server apart) and
each of the web server's own refusals (`_error(` in kiosk/serve/server.py) names a `code`, every
code it can take has English and Japanese words in the catalogues (`err.<code>`,
kiosk/words/locale/), and the words it is given fill every blank of both. Then a
Japanese session gets a refusal of each area in Japanese: a photo, teaching, the games list, the
rule options, the PIN and tokens, and what the web server itself refuses."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.catalogues import words as catalogue_words
from tests.kiosk.conftest import LAN, Api, lan_client

KIOSK = Path(__file__).resolve().parents[2] / "kiosk"
#: Calls that refuse a request; the last two forward a caller's code (`**extra`), so their
#: callers are held to naming one too.
REFUSING = {"ApiError", "bad_request", "unprocessable", "_error"}
_BLANK = re.compile(r"\{(\w+)\}")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _name(call: ast.Call) -> str:
    f = call.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _choices(node: ast.AST) -> set[str]:
    """The literals an expression can be: `"a"`, `"a" if c else "b" if d else "c"`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        return _choices(node.body) | _choices(node.orelse)
    return set()


def refusals() -> list[tuple[str, ast.Call, ast.AST]]:
    """(where, the call, the function it is in) of every refusing call in kiosk/."""
    out = []
    for path in sorted(KIOSK.rglob("*.py")):
        if "parlor" in path.relative_to(KIOSK).parts:
            continue  # the parlor server's own API, worked on apart
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside: dict[ast.Call, ast.AST] = {}  # each call and its innermost function
        for func in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.Module)]:
            for call in ast.walk(func):  # breadth first: an inner function comes later
                if isinstance(call, ast.Call) and _name(call) in REFUSING:
                    inside[call] = func
        out += [(f"{path.relative_to(KIOSK.parent)}:{call.lineno}", call, func)
                for call, func in sorted(inside.items(), key=lambda kv: kv[0].lineno)]
    return out


def codes_of(call: ast.Call, func: ast.AST) -> set[str] | None:
    """The codes a call can raise: a literal, a choice of literals, or a name the function
    assigns literals to; None when it names none (or forwards its caller's: `**extra`)."""
    keyword = {k.arg: k.value for k in call.keywords}
    code = keyword.get("code")
    if code is None:
        return None
    if isinstance(code, ast.Name):
        return set().union(*(_choices(a.value) for a in ast.walk(func) if isinstance(a, ast.Assign)
                             and any(getattr(t, "id", None) == code.id for t in a.targets)))
    return _choices(code)


def _forwards(call: ast.Call, func: ast.AST) -> bool:
    """`ApiError(..., **extra)` inside `bad_request`/`unprocessable`: their callers name it."""
    return any(k.arg is None for k in call.keywords) and getattr(func, "name", "") in (
        "bad_request", "unprocessable")


def test_the_scan_finds_the_refusals() -> None:
    found = {where.split(":")[0] for where, _, _ in refusals()}
    assert {"kiosk/web/api/teach.py", "kiosk/web/api/capture.py", "kiosk/web/api/games.py",
            "kiosk/table/game.py", "kiosk/table/rules_json.py", "kiosk/web/security.py",
            "kiosk/serve/server.py"} <= found
    assert len(refusals()) > 100


def test_every_refusal_names_a_code() -> None:
    uncoded = [where for where, call, func in refusals()
               if codes_of(call, func) is None and not _forwards(call, func)
               and not (_name(call) == "_error" and getattr(func, "name", "") == "_error")]
    assert uncoded == []


def test_every_code_has_both_texts_and_words_for_every_blank() -> None:
    wrong = []
    for where, call, func in refusals():
        codes = codes_of(call, func) or set()
        words = {k.arg: k.value for k in call.keywords}.get("words")
        given = ({k.value for k in words.keys if isinstance(k, ast.Constant)}
                 if isinstance(words, ast.Dict) else None)
        for code in codes:
            key = "err." + code
            pair = (catalogue_words("en").get(key, ""), catalogue_words("ja").get(key, ""))
            if not all(t.strip() for t in pair) or pair[0] == pair[1]:
                wrong.append(f"{where}: {code} has no English and Japanese words")
            elif not _JAPANESE.search(pair[1]):
                wrong.append(f"{where}: {code}'s Japanese is not Japanese: {pair[1]!r}")
            elif given is not None and not set(_BLANK.findall(" ".join(pair))) <= given:
                wrong.append(f"{where}: {code} is given {sorted(given)}, needs "
                             f"{sorted(set(_BLANK.findall(' '.join(pair))))}")
            elif given is None and words is None and _BLANK.search(" ".join(pair)):
                wrong.append(f"{where}: {code} has blanks but is given no words")
    assert wrong == []


# --- a Japanese session, one refusal of each area --------------------------------------------
PLAYERS = ["Aki", "Bun", "Chie", "Dai"]


def ja(api: Api) -> Api:
    assert api.post("/api/session/language", {"language": "ja"}).status_code == 200
    return api


def said(answer: Any, status: int, code: str) -> str:
    body = answer.get_json()
    assert (answer.status_code, body.get("code")) == (status, code), body
    return body["error"]


@pytest.mark.parametrize("send, status, code, words", [
    (lambda a: a.post("/api/captures/upload", data=b"hello", content_type="image/png"), 415,
     "photo_unreadable", "写真を読み込めません。JPEG・PNG・BMP・WebPの画像を送ってください"),
    (lambda a: a.post("/api/captures/upload", json={"x": 1}), 415, "photo_missing",
     "写真が届いていません。画像ファイルを送ってください"),
    (lambda a: a.post("/api/teach/photo", data=b"hello", content_type="image/png"), 503,
     "teach_unavailable", "牌の読み取りが使えないため、牌を覚えさせることができません"),
    (lambda a: a.post("/api/teach/photo?rows=9"), 400, "teach_rows",
     "並べ順に行9はありません（0〜4）"),
    (lambda a: a.post("/api/teach", {"shots": [{"id": "t1"}]}), 404, "teach_shot_gone",
     "1枚目の写真は保存期間が過ぎました。もう一度撮影してください"),
    (lambda a: a.post("/api/games/abc123/resume"), 404, "game_missing",
     "対局「abc123」が見つかりません（削除された可能性があります）"),
    (lambda a: a.get("/api/games?limit=0"), 400, "field_number",
     "limitは1から500までの整数にしてください（送られた値：'0'）"),
    (lambda a: a.post("/api/games", {"players": PLAYERS, "options": {"min_han": 20}}), 400,
     "rule_number", "「縛り（最低翻数）」は0〜13の整数にしてください（送られた値：20）"),
    (lambda a: a.post("/api/games", {"players": PLAYERS, "options": {"uma": "20,10"}}), 400,
     "uma_count", "ウマは4人分（三人麻雀は3人分）の値が必要です（2個あります）"),
    (lambda a: a.post("/api/games", {"players": PLAYERS, "options": {"kuitan": "yes"}}), 400,
     "rule_bool", "「喰いタン」はありかなしで指定してください（送られた値：'yes'）"),
    (lambda a: a.post("/api/games", {"players": PLAYERS, "options": {"colour": 1}}), 400,
     "rule_unknown", "不明なルール項目があります：colour"),
    (lambda a: a.post("/api/games", {"players": PLAYERS, "ruleset": "chess"}), 400,
     "unknown_preset", None),
    (lambda a: a.post("/api/riichi", {"seat": 1}, headers={"X-CSRF-Token": "stale"}), 403,
     "csrf", "ページの有効期限が切れました。ページを再読み込みしてください"),
    (lambda a: a.client.delete("/api/tokens/abcdef", headers={"X-CSRF-Token": a.csrf}), 404,
     "token_missing", None),
    (lambda a: a.get("/api/nothing-here"), 404, "not_found", "ページが見つかりません"),
    (lambda a: a.client.put("/api/state", headers={"X-CSRF-Token": a.csrf}), 405,
     "method_not_allowed", "この操作はここではできません"),
], ids=["photo-unreadable", "photo-missing", "teach-unavailable", "teach-rows",
        "teach-photo-gone", "resume-missing-game", "games-limit", "rule-out-of-range",
        "uma-count", "rule-bool", "rule-unknown", "unknown-preset", "csrf", "token-missing",
        "not-found", "method"])
def test_a_japanese_session_gets_each_area_s_refusal_in_japanese(
        api: Api, send: Any, status: int, code: str, words: str | None) -> None:
    ja(api)
    assert api.post("/api/games", {"players": PLAYERS}).status_code == 201
    text = said(send(api), status, code)
    assert _JAPANESE.search(text), text
    if words is not None:
        assert text == words


def test_a_phone_without_the_pin_and_an_unknown_token_are_said_in_japanese(app: Any) -> None:
    phone = Api(lan_client(app))
    phone.get("/?lang=ja")  # as a phone opens the page (changing the language is a change)
    assert said(phone.post("/api/riichi", {"seat": 1}), 401, "pin_needed") == (
        "変更するには卓のPINが必要です（卓の画面に表示されています）")
    token = phone.post("/api/riichi", {"seat": 1}, headers={"Authorization": "Bearer x"})
    assert said(token, 401, "token_unknown") == (
        "端末トークンが無効です（取り消されたか、期限が切れています）")
    assert said(phone.get("/api/tokens"), 403, "tokens_kiosk_only") == (
        "端末トークンの発行・確認・取り消しは卓の画面でのみできます")
    assert LAN["REMOTE_ADDR"] != "127.0.0.1"


def test_an_english_session_keeps_the_api_s_english(api: Api) -> None:
    answer = api.post("/api/games", {"players": PLAYERS, "options": {"min_han": 20}})
    body = answer.get_json()
    assert body["code"] == "rule_number" and body["words"]["option"] == "Han needed to win"
    assert body["error"] == "option min_han: expected a whole number from 0 to 13, got 20"
