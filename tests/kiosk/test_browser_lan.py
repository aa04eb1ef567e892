"""A phone on the LAN, in Debian's chromium: it sees the table but every change asks for the PIN;
with it, quick-mode scoring works; a hand that does not win is said plainly and offers chombo.

Expected points: a non-dealer 3 han 30 fu ron is 3,900 (the rule texts' payment table).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.web.qr import lan_address
from tests.kiosk.server import running_kiosk
from tests.kiosk.test_browser import browser, pick, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser


@pytest.fixture
def lan_url(tmp_path: Path) -> Iterator[str]:
    address = lan_address()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to listen on")
    with running_kiosk(tmp_path / "data", "--host", "0.0.0.0", "--pin", "4321",
                       "--camera", "none") as base:
        yield base.replace("127.0.0.1", address)


def test_a_phone_needs_the_pin_then_scores_in_quick_mode(browser, lan_url: str) -> None:  # noqa: ANN001, F811
    from playwright.sync_api import expect

    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(lan_url + "/")
    expect(phone.locator(".seat")).to_have_count(4)
    assert "4321" not in phone.content()  # the PIN is on the kiosk's own screen only
    expect(phone.locator("#pin-button")).to_be_visible()

    phone.click('.seat[data-seat="1"] .riichi-btn')
    expect(phone.locator("#pin-dialog")).to_be_visible()
    phone.fill("#pin-input", "1111")
    phone.click("#pin-ok")
    expect(phone.locator("#pin-error")).to_have_text("wrong PIN")
    expect(phone.locator('.seat[data-seat="1"] .points')).to_have_text("25,000")
    phone.fill("#pin-input", "4321")
    phone.click("#pin-ok")
    expect(phone.locator('.seat[data-seat="1"] .points')).to_have_text("24,000")

    phone.goto(lan_url + "/win")
    phone.click('#mode button[data-mode="quick"]')
    phone.select_option("#q-han", "3")
    phone.select_option("#q-fu", "30")
    phone.click('#winner button[data-v="2"]')
    phone.click('#discarder button[data-v="3"]')
    phone.click("#score-btn")
    expect(phone.locator("#total")).to_contain_text("3 han 30 fu")
    expect(phone.locator("#payments")).to_contain_text("+4,900")  # 3,900 and the riichi stick
    phone.click("#apply-btn")
    phone.wait_for_url(lan_url + "/")
    for seat, expected in enumerate(["25,000", "24,000", "29,900", "21,100"]):
        expect(phone.locator(f'.seat[data-seat="{seat}"] .points')).to_have_text(expected)


def test_not_a_win_is_said_plainly_and_offers_chombo(browser, tmp_path: Path) -> None:  # noqa: ANN001, F811
    from playwright.sync_api import expect

    with running_kiosk(tmp_path / "data", "--camera", "none") as base:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(base + "/win")
        page.click("#manual-btn")
        for label in ["1m", "1m", "1m", "2p", "3p", "4p", "6s", "7s", "8s", "9s", "5z", "5z",
                      "7z"]:
            page.click("#g-concealed .tile.add")
            pick(page, label)
        page.click("#g-win .tile.add")
        pick(page, "6z")
        page.click('#winner button[data-v="3"]')
        page.click('#discarder button[data-v="0"]')
        page.click("#score-btn")
        expect(page.locator("#verdict")).to_contain_text("Not a winning hand")
        shot(page, "not-a-win")
        page.click("#chombo-btn")
        page.wait_for_url(base + "/")
        # North (seat 3, non-dealer) pays a reverse mangan: 4,000 to the dealer, 2,000 each.
        for seat, expected in enumerate(["29,000", "27,000", "27,000", "17,000"]):
            expect(page.locator(f'.seat[data-seat="{seat}"] .points')).to_have_text(expected)
