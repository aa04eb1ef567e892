"""A Japanese page shows the API's refusals in Japanese (issue 18, item 6), in Debian's chromium
against the real app and server: a refused import on the games page, and in the toast an illegal
event (riichi twice), a quick-mode refusal (no hand is worth 1,234) and a wrong PIN, each as the
page's own code shows an error (`K.act`, app.js). The words: kiosk/words/messages_errors.py."""

from __future__ import annotations

import json

import pytest

from tests.kiosk.server import page_post
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
#: What the page asks of the API, as its own buttons would: the toast says what went wrong.
ACT = "([path, body]) => K.act(() => K.api('POST', path, body, { noPin: true }))"


def test_a_refused_import_is_said_in_japanese(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(1280, 720, "ja")
    page_post(page, base, "/api/corrections", {"deltas": [3000, -1000, -2000, 0],
                                               "reason": "tally"})
    record = page.request.get(base + "/api/export.json").json()
    record["events"][1]["after"]["points"][0] = 99000
    page.goto(base + "/games")
    for name, data, problem in [
        ("edited.json", json.dumps(record).encode(),
         "棋譜を取り込めません：イベント1の「after.points」が正しくありません"),
        ("notes.txt", b"hello", "棋譜を取り込めません：このキオスクが読める対局記録ではありません"),
    ]:
        page.set_input_files("#import-file", files=[
            {"name": name, "mimeType": "application/json", "buffer": data}])
        page.click("#import-btn")
        expect(page.locator("#import-failed")).to_contain_text(name)
        expect(page.locator("#import-problem")).to_have_text(problem)
    shot(page, "ja-import-refused")
    assert errors == []


@pytest.mark.parametrize("path, body, said", [
    ("/api/riichi", {"seat": 2}, "Chieさんはこの局ですでにリーチしています"),
    ("/api/score", {"winner": 1, "discarder": 0, "quick": {"points": 1234}},
     "子のロンで1,234点になる手はありません"),
    ("/api/session/pin", {"pin": "not the pin"}, "PINが違います"),
], ids=["riichi-twice", "quick-points", "wrong-pin"])
def test_a_refusal_in_the_toast_is_japanese(open_page, base: str, path: str,  # noqa: ANN001
                                            body: dict, said: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480, "ja")
    page.locator("#live.on").wait_for()
    if path == "/api/riichi":
        page_post(page, base, path, body)  # the first riichi is recorded; the second is not
    page.evaluate(ACT, [path, body])
    toast = page.locator("#toast.bad")
    expect(toast).to_have_text(said)
    shot(page, "ja-refused-" + path.rsplit("/", 1)[-1])
    assert errors == []


def test_quick_mode_s_refusal_on_the_win_page_is_japanese(open_page) -> None:  # noqa: ANN001
    """As a player meets it: points no hand is worth, typed in quick mode, then Score."""
    from playwright.sync_api import expect

    page, errors = open_page(1280, 720, "ja")
    page.goto(page.url.split("/?")[0] + "/win")
    page.click('#mode [data-mode="quick"]')
    page.click('#q-kind [data-kind="points"]')
    page.fill("#q-points", "1234")
    page.click('#winner button[data-v="1"]')
    page.click('#discarder button[data-v="0"]')
    page.click("#score-btn")
    expect(page.locator("#toast.bad")).to_have_text("子のロンで1,234点になる手はありません")
    shot(page, "ja-refused-quick-win-page")
    assert errors == []
