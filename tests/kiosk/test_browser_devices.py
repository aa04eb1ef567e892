"""The kiosk's own screen lists the devices holding a token and revokes one, in Debian's chromium
(the token then no longer changes anything)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.kiosk.server import running_kiosk
from tests.kiosk.test_browser import browser  # noqa: F401  (the module's chromium fixture)

pytestmark = pytest.mark.browser

ISSUE = """async (name) => {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const res = await fetch("/api/tokens", {method: "POST", body: JSON.stringify({name}),
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}});
  return (await res.json()).token;
}"""


@pytest.fixture
def kiosk_url(tmp_path: Path) -> Iterator[str]:
    with running_kiosk(tmp_path / "data", "--camera", "none") as base:
        yield base


def status_with_token(base: str, token: str) -> int:
    request = urllib.request.Request(
        base + "/api/riichi", data=json.dumps({"seat": 0}).encode(), method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


def test_the_kiosk_screen_revokes_a_device_token(browser, kiosk_url: str) -> None:  # noqa: ANN001, F811
    page = browser.new_page()
    page.goto(kiosk_url + "/other")
    tv = page.evaluate(ISSUE, "tv")
    board = page.evaluate(ISSUE, "scoreboard")
    page.reload()
    page.click('#other-tabs [aria-controls="devices-panel"]')  # one section at a time
    page.wait_for_function("() => document.querySelectorAll('#devices li b').length === 2")
    rows = page.locator("#devices li")
    assert [r.locator("b").inner_text() for r in rows.all()] == ["tv", "scoreboard"]
    assert "expires" in rows.first.inner_text()
    rows.first.get_by_role("button", name="Revoke").click()
    page.wait_for_function("() => document.querySelectorAll('#devices li').length === 1")
    assert page.locator("#devices li b").inner_text() == "scoreboard"
    assert status_with_token(kiosk_url, tv) == 401
    assert status_with_token(kiosk_url, board) == 200
    page.close()
