"""The table screen read from a seat (issue 38, item 1), in Debian's chromium at 800x480 (the Pi's
7" panel) and the other sizes: names of 12 characters whole with nothing running into them; the
points, honba, sticks and the dealer in type large enough for 2 m (computed sizes asserted); the
QR code and the PIN only on request, and the QR only where a phone can reach the kiosk.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kiosk.web.qr import lan_address
from tests.kiosk.server import running_kiosk
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
# Twelve characters each, one of wide letters (a name table.js must set smaller to keep whole)
NAMES = ["Benjamin Tan", "Alexandra Ku", "Christophers", "WWMMWWMMWWMM"]
SIZES = {(800, 480): (48, 28, 20), (1280, 720): (48, 28, 20), (390, 844): (32, 28, 20),
         (1920, 1080): (48, 28, 20)}


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_kiosk(tmp_path_factory.mktemp("screen") / "data", "--camera", "none") as url:
        yield url


def new_game(page: Any, base: str, players: list[str]) -> None:
    csrf = page.request.get(base + "/api/session").json()["csrf"]
    r = page.request.post(base + "/api/games", data=json.dumps({"players": players,
                                                               "ruleset": "tenhou"}),
                          headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"})
    assert r.ok, r.text()


MEASURE = """() => {
  const px = (e) => parseFloat(getComputedStyle(e).fontSize);
  const box = (e) => e.getBoundingClientRect();
  const meets = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const seats = [...document.querySelectorAll('.seat')].map((s) => {
    const name = s.querySelector('.name');
    const others = [...s.querySelectorAll('.wind, .dealer-mark, .riichi-btn, .points')]
      .filter((e) => e.offsetParent && e.textContent.trim());
    const text = document.createRange();  // the name's letters, not its line box
    text.selectNodeContents(name);
    const n = text.getBoundingClientRect(), seat = box(s);
    return {name: name.textContent, whole: name.scrollWidth <= name.clientWidth + 1,
            inside: n.left >= seat.left && n.right <= seat.right,
            hit: others.filter((o) => meets(n, box(o))).map((o) => o.className),
            namePx: px(name), pointsPx: px(s.querySelector('.points'))};
  });
  const dealer = document.querySelector('.seat.dealer .dealer-mark');
  return {seats, honba: px(document.querySelector('#honba')),
          sticks: px(document.querySelector('#sticks')), dealer: px(dealer),
          dealerText: dealer.textContent, qrShown: !!document.querySelector('.qr svg')
            && document.querySelector('.qr svg').getBoundingClientRect().width > 0,
          scroll: document.documentElement.scrollWidth <= window.innerWidth};
}"""


@pytest.mark.parametrize("width, height", list(SIZES), ids=[f"{w}x{h}" for w, h in SIZES])
def test_names_whole_and_numbers_read_from_a_seat(browser, base: str, width: int,  # noqa: ANN001, F811
                                                   height: int) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(base + "/?lang=en")
    new_game(page, base, NAMES)
    page.goto(base + "/?lang=en")
    page.locator("#live.on").wait_for()
    m = page.evaluate(MEASURE)
    points_px, counters_px, dealer_px = SIZES[(width, height)]
    assert sorted(s["name"] for s in m["seats"]) == sorted(NAMES)
    for s in m["seats"]:
        assert s["whole"] and s["inside"], s
        assert s["hit"] == [], s  # nothing runs into the name
        assert s["namePx"] >= 12 and s["pointsPx"] >= points_px, s
    assert m["honba"] >= counters_px and m["sticks"] >= counters_px
    assert m["dealer"] >= dealer_px and m["dealerText"] == "Dealer"
    assert not m["qrShown"] and m["scroll"]
    for selector in (".seat.dealer", "#win-btn", "#draw-btn", "#undo-btn"):
        box = page.locator(selector).bounding_box()
        assert box and box["y"] + box["height"] <= height, selector
    if (width, height) == (800, 480):
        # the names at their full 20 px where they fit; the wide one set smaller, never cut
        sizes = {s["name"]: s["namePx"] for s in m["seats"]}
        assert sizes["Christophers"] == 20 and 12 <= sizes["WWMMWWMMWWMM"] < 20
        print("800x480 sizes:", json.dumps({k: v for k, v in m.items() if k != "seats"}),
              json.dumps(m["seats"]))
    shot(page, f"table-screen-{width}x{height}")
    page.close()


def test_on_loopback_no_qr_code_only_why_phones_cannot_join(browser, base: str) -> None:  # noqa: ANN001, F811
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 800, "height": 480})
    page.goto(base + "/?lang=en")
    expect(page.locator("#join-btn")).to_have_text("Join by phone")
    assert page.locator(".qr").count() == 0
    assert "127.0.0.1" not in page.inner_text("body")
    page.click("#join-btn")
    expect(page.locator("#lan-off")).to_contain_text("--host 0.0.0.0")
    shot(page, "table-join-loopback-800x480")
    page.click("#join-dialog button[value=close]")
    expect(page.locator("#join-dialog")).to_be_hidden()
    page.close()


def test_on_the_lan_the_qr_code_and_pin_on_request(browser, tmp_path: Path) -> None:  # noqa: ANN001, F811
    from playwright.sync_api import expect

    address = lan_address()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to listen on")
    with running_kiosk(tmp_path / "data", "--host", "0.0.0.0", "--pin", "4321",
                       "--camera", "none") as base:
        page = browser.new_page(viewport={"width": 800, "height": 480})
        page.goto(base + "/?lang=en")
        expect(page.locator("#join-dialog .qr svg")).to_be_hidden()
        expect(page.locator("#pin")).to_be_hidden()
        page.click("#join-btn")
        expect(page.locator("#join-dialog .qr svg")).to_be_visible()
        expect(page.locator("#pin")).to_have_text("4321")
        expect(page.locator("#join-dialog .url")).not_to_contain_text("127.0.0.1")
        box = page.locator("#join-dialog").bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 480
        shot(page, "table-join-lan-800x480")
        page.close()
