"""A Japanese page says in Japanese why a win is refused and what is wrong with a request (issue
18, item 6), in Debian's chromium against the real app and server: a situation that cannot be
(ippatsu without riichi, a fifth tile among the dora indicators), a hand that cannot be (five of
a tile), a win without yaku that is applied anyway, and malformed requests (bad JSON, a field
out of range, a seat that is not there, an unknown field). Each detail (which tile, which field)
is in the words; an English page keeps the API's English. The words: kiosk/words/messages_errors.py,
the rules core's problems coded by kiosk/words/refusal_words.py."""

from __future__ import annotations

import pytest

from kiosk.words import i18n
from tests.kiosk.test_browser import browser, pick, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
#: What the page asks of the API, as its own buttons would: the toast says what went wrong.
ACT = "([path, body]) => K.act(() => K.api('POST', path, body, { noPin: true }))"
#: A request the page's own code could not send (K.api always sends JSON): the answer's body.
RAW = """async ([path, text]) => {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const headers = { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf };
  const r = await fetch(path, { method: 'POST', body: text, credentials: 'same-origin', headers });
  return [r.status, await r.json()];
}"""
#: Closed, ron on a single wait: 123m 456p 789s 234s and a pair of 1p, no yaku at all.
NO_YAKU = {"winner": 1, "discarder": 0, "hand": {"concealed": "123m456p789s234s1p", "win": "1p"}}
FIVE_1M = {"winner": 1, "hand": {"concealed": "11111m456p789s22z", "win": "2z"}}


def typed_win(page, base: str, text: str) -> None:  # noqa: ANN001
    """The win page with a hand typed in (the last tile the winning tile)."""
    page.goto(base + "/win")
    page.click("#manual-btn")
    page.fill("#mpsz", text)
    page.click("#mpsz-set")


def test_a_situation_that_cannot_be_is_said_in_japanese(open_page, base: str) -> None:  # noqa: ANN001
    """As a player meets it: ippatsu tapped without riichi, then a fifth 1m as a dora
    indicator; Score says what is wrong, naming the tile."""
    from playwright.sync_api import expect

    page, errors = open_page(1280, 720, "ja")
    typed_win(page, base, "234m456p22s345678s")
    page.click('#flags [data-flag="ippatsu"]')
    page.click('#winner button[data-v="1"]')
    page.click('#discarder button[data-v="null"]')
    page.click("#score-btn")
    expect(page.locator("#toast.bad")).to_have_text(
        "和了の状況に矛盾があります：一発はリーチしていないと付きません")
    shot(page, "ja-refused-ippatsu")

    typed_win(page, base, "111m123m456p789s22z")
    page.click("#g-dora .tile.add")
    pick(page, "1m")
    page.click('#winner button[data-v="1"]')
    page.click('#discarder button[data-v="null"]')
    page.click("#score-btn")
    expect(page.locator("#toast.bad")).to_have_text(
        "和了の状況に矛盾があります：手牌とドラ表示牌を合わせて1萬が5枚あります（1種類4枚まで）")
    shot(page, "ja-refused-fifth-tile")
    assert errors == []


@pytest.mark.parametrize("path, body, said", [
    ("/api/score", FIVE_1M, "ありえない手牌です：1萬が5枚あります（1種類4枚まで）"),
    ("/api/wins", NO_YAKU, "記録しませんでした：" + i18n.t("verdict.no_yaku_one", "ja")),
    ("/api/score", {"winner": 1, "quick": {"han": 1000}},
     "quick.hanは0から100までの整数にしてください（送られた値：1000）"),
    ("/api/score", {"winner": 7, "quick": {"han": 1}},
     "winnerは席番号0〜3にしてください（送られた値：7）"),
    ("/api/score", {"winner": 1, "colour": "red", "quick": {"han": 1}},
     "不明な項目があります：colour"),
    ("/api/corrections", {"deltas": [1000, 0, 0, 0], "reason": "tally"},
     "増減の合計は0にしてください（今の合計：+1,000）"),
], ids=["five-of-a-tile", "no-yaku-applied", "han-out-of-range", "no-such-seat",
        "unknown-field", "correction-not-zero"])
def test_a_refused_win_or_request_in_the_toast_is_japanese(  # noqa: ANN001
        open_page, path: str, body: dict, said: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480, "ja")
    page.locator("#live.on").wait_for()
    page.evaluate(ACT, [path, body])
    expect(page.locator("#toast.bad")).to_have_text(said)
    if path == "/api/wins":
        shot(page, "ja-refused-no-yaku")
    assert errors == []


def test_malformed_json_is_said_in_japanese_and_english_keeps_its_words(  # noqa: ANN001
        open_page) -> None:
    page, errors = open_page(800, 480, "ja")
    status, answer = page.evaluate(RAW, ["/api/score", "{"])
    assert (status, answer["code"], answer["error"]) == (
        400, "bad_json", "JSONの形式が正しくありません（1行目、2文字目）")
    status, answer = page.evaluate(RAW, ["/api/riichi", ""])
    assert (status, answer["error"]) == (400, "リクエストにJSONがありません")

    page, errors_en = open_page(800, 480, "en")
    status, answer = page.evaluate(RAW, ["/api/score", "{"])
    assert answer["error"].startswith("malformed JSON: Expecting property name")
    status, answer = page.evaluate(RAW, ["/api/score", '{"winner": 1, "hand": {"concealed": '
                                                       '"11111m456p789s22z", "win": "2z"}}'])
    assert (status, answer["error"], answer["problems"]) == (
        422, "the hand is not possible", ["tiles: 5 copies of 1m; a set has 4"])
    assert answer["problem_codes"] == [{"code": "hand_copies",
                                        "words": {"n": 5, "tile": "tile:1m"}}]
    assert errors == errors_en == []
