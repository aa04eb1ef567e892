"""A Japanese page says in Japanese why a photo, a teaching photo, a resume, a rule option or a
change without the PIN is refused (issue 18, item 6), in Debian's chromium against the real app
and server, each as a player meets it: a file that is not a photo uploaded on the win page and on
the teach page, a photo over the upload limit (refused by the web server before the session is
read, worded by the page), a game that is gone resumed from the games page, uma for two players
typed into the new-game form, and a phone on the LAN that cancels the PIN. The words:
kiosk/words/messages_refusals.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kiosk.server import lan_address, running_kiosk
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
NOT_A_PHOTO = {"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"hello, not a photo"}
UNREADABLE = "写真を読み込めません。JPEG・PNG・BMP・WebPの画像を送ってください"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # A 1 MB upload limit, so a photo over it is small enough to send in a test.
    with running_kiosk(tmp_path_factory.mktemp("ja-areas") / "data", "--camera", "none",
                       env={"KIOSK_MAX_UPLOAD_MB": "1"}) as url:
        yield url


def test_a_file_that_is_not_a_photo_or_too_large_is_said_in_japanese(  # noqa: ANN001
        open_page, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480, "ja")
    page.goto(base + "/win")
    page.set_input_files("#upload", files=[NOT_A_PHOTO])
    expect(page.locator("#toast.bad")).to_have_text(UNREADABLE)
    shot(page, "ja-refused-photo")
    big = {**NOT_A_PHOTO, "buffer": b"\xff\xd8" + bytes(2 * 1024 * 1024)}
    page.set_input_files("#upload", files=[big])
    expect(page.locator("#toast.bad")).to_have_text("送ったファイルが大きすぎます（最大1 MB）")
    assert errors == []


def test_a_teaching_photo_refused_is_said_in_japanese(open_page, base: str) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    page, errors = open_page(1280, 720, "ja")
    page.goto(base + "/teach")
    available = page.request.get(base + "/api/teach").json()["available"]
    page.set_input_files("#upload", files=[NOT_A_PHOTO])
    expect(page.locator("#toast.bad")).to_have_text(
        UNREADABLE if available else "牌の読み取りが使えないため、牌を覚えさせることができません")
    shot(page, "ja-refused-teach-photo")
    assert errors == []


def test_resuming_a_game_that_is_gone_is_said_in_japanese(open_page, base: str) -> None:  # noqa: ANN001
    """The games page's Resume, for a game another device's import or a restore took away."""
    from playwright.sync_api import expect

    page, errors = open_page(1280, 720, "ja")
    page.goto(base + "/games")
    page.locator("[data-resume]").first.wait_for()
    page.evaluate("(path) => K.act(() => K.api('POST', path))",  # as games.js's Resume
                  "/api/games/0123456789ab/resume")
    expect(page.locator("#toast.bad")).to_have_text(
        "対局「0123456789ab」が見つかりません（削除された可能性があります）")
    shot(page, "ja-refused-resume")
    assert errors == []


def test_a_rule_option_refused_on_the_new_game_form_is_said_in_japanese(  # noqa: ANN001
        open_page, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(1280, 720, "ja")
    page.goto(base + "/new")
    page.click('[data-group="final_score"] summary')
    page.fill("#opt-uma", "20,10")
    page.click("#start-btn")
    expect(page.locator("#toast.bad")).to_have_text(
        "ウマは4人分（三人麻雀は3人分）の値が必要です（2個あります）")
    shot(page, "ja-refused-uma")
    page.fill("#opt-uma", "20,10,-10,-20")
    # The form's own bounds stop a value out of range; an older page (or another client) may not.
    page.evaluate("() => document.querySelector('#opt-min_han').removeAttribute('max')")
    page.click('[data-group="scoring"] summary')
    page.fill("#opt-min_han", "20")
    page.click("#start-btn")
    expect(page.locator("#toast.bad")).to_have_text(
        "「縛り（最低翻数）」は0〜13の整数にしてください（送られた値：20）")
    assert errors == []


def test_a_phone_that_cancels_the_pin_is_told_in_japanese(browser, tmp_path: Path) -> None:  # noqa: ANN001, F811
    from playwright.sync_api import expect

    address = lan_address()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to listen on")
    with running_kiosk(tmp_path / "data", "--host", "0.0.0.0", "--pin", "4321",
                       "--camera", "none") as local:
        url = local.replace("127.0.0.1", address)
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        try:
            phone.goto(url + "/?lang=ja")
            phone.click('.seat[data-seat="1"] .riichi-btn')
            expect(phone.locator("#pin-dialog")).to_be_visible()
            phone.fill("#pin-input", "1111")
            phone.click("#pin-ok")
            expect(phone.locator("#pin-error")).to_have_text("PINが違います")
            phone.click('#pin-dialog button[value="cancel"]')
            expect(phone.locator("#toast.bad")).to_have_text(
                "変更するには卓のPINが必要です（卓の画面に表示されています）")
            shot(phone, "ja-refused-no-pin")
        finally:
            phone.close()
