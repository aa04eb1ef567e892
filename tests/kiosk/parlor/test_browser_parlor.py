"""Issue 20's browser test, in Debian's chromium through Playwright: two kiosks (each its own
app, store and server) join one parlor served on a port; their new-game forms pick members by
name, by number and by scanning a member card printed from the counter's page; kiosk B loses
the network to the parlor mid-game (a proxy refusing connections), plays on, starts a game
while its picker says the parlor is out of reach, and catches up; the counter's live page,
signed in in the browser, follows both tables by itself; the member statistics and the
leaderboard equal the values worked out by hand below.

Rules: WRC (30,000 start and return, uma 15/5/-5/-15, no oka, exact scores). A score is
(points - 30,000) / 1,000 + uma. Payments from the rule texts' tables.

A1, Table 1 (kiosk A, always online): Ana #00001 (dealer), Ben #00002, Kim (a guest),
Chie #00003.
  h1: Ben riichi (29,000, 1 stick); Ben rons Ana 3 han 30 fu, non-dealer: 3,900 + the stick:
      Ben 29,000 + 3,900 + 1,000 = 33,900, Ana 30,000 - 3,900 = 26,100.
  h2 (Ben deals): Chie tsumo 1 han 30 fu: 300 / 500 (Ben pays 500): Chie 31,100, Ben 33,400,
      Ana 25,800, Kim 29,700. Ended.
  Places: Ben 1, Chie 2, Kim 3, Ana 4. Scores: Ben 3.4 + 15 = 18.4, Chie 1.1 + 5 = 6.1,
  Kim -0.3 - 5 = -5.3, Ana -4.2 - 15 = -19.2.
B1, Table 2 (kiosk B): Dai #00004 (dealer, by card), Eri #00005, Lee, Max (guests).
  h1: Dai rons Lee 2 han 30 fu, dealer: 2,900: Dai 32,900, Lee 27,100. Dai deals again, 1 honba.
  -- B's network to the parlor is cut --
  h2: Eri riichi (29,000, 1 stick); Eri tsumo 2 han 30 fu with 1 honba: 500 / 1,000 + 100 each:
      Dai pays 1,100 (31,800), Lee and Max 600 (26,500, 29,400), Eri + 2,000 + 300 + 1,000 =
      32,300. Ended. Places: Eri 1, Dai 2, Max 3, Lee 4. Scores: Eri 2.3 + 15 = 17.3,
      Dai 1.8 + 5 = 6.8, Max -0.6 - 5 = -5.6, Lee -3.5 - 15 = -18.5.
B2, Table 2, started offline (Ana's name typed with her number): Ana #00001 (dealer), Lee, Max,
Oto. Max riichi (29,000); Ana rons Lee 2 han 30 fu, dealer: 2,900 + the stick: Ana 33,900,
  Lee 27,100, Max 29,000, Oto 30,000. Ended. Places: Ana 1, Oto 2, Max 3, Lee 4.
  Ana 3.9 + 15 = 18.9.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from kiosk.parlor.store.registry import ParlorStore
from tests.kiosk.conftest import make_kiosk
from tests.kiosk.parlor.conftest import PASSWORD, STAFF, Staff, kiosk_events, parlor_events
from tests.kiosk.parlor.net import ParlorServer, Proxy
from tests.kiosk.parlor.test_stats import confirm_shown
from tests.kiosk.server import page_post
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (the shared chromium)

pytestmark = pytest.mark.browser
MEMBERS = ["Ana", "Ben", "Chie", "Dai", "Eri"]  # numbers 00001-00005
REFRESH_WAIT = 25_000  # ms: the live page reloads itself every 15 s
WIDE = {"from": "2000-01-01", "to": "2099-12-31"}


class Kiosk:
    """A kiosk joined to the parlor at `url`, served on a port; its outbox retries quickly."""

    def __init__(self, root: Path, url: str, table: str, token: str, camera: str) -> None:
        self.app, self.services = make_kiosk(root, parlor_url=url, parlor_table=table,
                                             parlor_token=token, camera=camera)
        outbox = self.services.outbox
        assert outbox is not None
        outbox.poll, outbox.timeout, outbox.first_backoff, outbox.max_backoff = 0.2, 3, 0.05, 0.3
        self.services.start(recogniser=False)
        self.server = ParlorServer(self.app, live=self.services.live).start()
        self.url = self.server.url

    def stop(self) -> None:
        self.server.stop()
        self.services.stop()


@pytest.fixture
def parlor(parlor_app: Flask, parlor_store: ParlorStore) -> Iterator[ParlorServer]:
    for name in MEMBERS:
        parlor_store.add_member(name)
    parlor_store.add_staff(STAFF, PASSWORD)
    server = ParlorServer(parlor_app).start()
    yield server
    server.stop()


def counter_page(browser: Any, parlor: ParlorServer) -> Any:  # noqa: F811
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(parlor.url + "/counter/login")
    page.fill("input[name=name]", STAFF)
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Sign in')")
    page.wait_for_url(parlor.url + "/counter/")
    return page


def print_card(counter: Any, parlor: ParlorServer, number: str, camera: Path) -> None:
    """The counter's card page, as printed, becomes what kiosk B's camera sees."""
    counter.goto(f"{parlor.url}/counter/members/{number}/card")
    camera.mkdir(parents=True)
    counter.locator("#member-card").screenshot(path=str(camera / f"card-{number}.png"))
    counter.goto(parlor.url + "/counter/")


def pick(page: Any, search: str, number: str, expected: str, seat: int) -> None:
    from playwright.sync_api import expect

    page.fill("#member-q", search)
    page.locator(f".member-pick[data-number='{number}']").click()
    expect(page.locator(f"[name=player{seat}]")).to_have_value(expected)
    size = page.viewport_size
    shot(page, f"parlor-new-game-member-{seat}-{size['width']}x{size['height']}")


def new_game(page: Any, kiosk: Kiosk) -> None:
    page.goto(kiosk.url + "/new")
    page.select_option("#preset", "wrc")


def start(page: Any, kiosk: Kiosk, players: list[str]) -> None:
    page.click("#start-btn")
    page.wait_for_url(kiosk.url + "/")
    state = json.loads(page.request.get(kiosk.url + "/api/state").text())
    assert [s["name"] for s in state["seats"]] == players, state
    assert state["game"]["ruleset"] == "wrc", state


def row(counter: Any, table: str) -> Any:
    return counter.locator("tr", has=counter.locator(f"td:text-is('{table}')"))


def test_two_kiosks_members_a_lost_network_and_the_counter(
        tmp_path: Path, browser: Any, parlor: ParlorServer, parlor_app: Flask,  # noqa: F811
        parlor_store: ParlorStore) -> None:
    from playwright.sync_api import expect

    tokens = {t: parlor_store.add_table(t) for t in ("Table 1", "Table 2")}
    proxy = Proxy(parlor.port)  # kiosk B's road to the parlor
    counter = counter_page(browser, parlor)
    print_card(counter, parlor, "00004", tmp_path / "camera-b")
    a = Kiosk(tmp_path / "a", parlor.url, "Table 1", tokens["Table 1"], "none")
    b = Kiosk(tmp_path / "b", proxy.url, "Table 2", tokens["Table 2"],
              f"folder:{tmp_path / 'camera-b'}")
    page_a = browser.new_page(viewport={"width": 1280, "height": 800})
    page_b = browser.new_page(viewport={"width": 800, "height": 480})  # the kiosk's screen
    errors: list[str] = []
    for page in (page_a, page_b, counter):
        page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # A1 at Table 1: by name, by number, a guest typed, by name in lower case.
        new_game(page_a, a)
        pick(page_a, "Ana", "00001", "Ana #00001", 0)
        expect(page_a.locator("#member-seat")).to_have_value("1")  # on to the next seat
        page_a.fill("#member-q", "00002")
        page_a.press("#member-q", "Enter")  # searches; does not start the game
        page_a.locator(".member-pick[data-number='00002']").click()
        page_a.fill("[name=player2]", "Kim")
        page_a.click("[name=player3]")  # the seat tapped is the one picked for
        pick(page_a, "chie", "00003", "Chie #00003", 3)
        start(page_a, a, ["Ana #00001", "Ben #00002", "Kim", "Chie #00003"])

        # B1 at Table 2: Dai's printed card in front of the camera; Eri by name; two guests.
        new_game(page_b, b)
        assert page_b.evaluate("document.documentElement.scrollWidth") <= 800  # fits 800x480
        page_b.click("#member-scan")
        expect(page_b.locator("[name=player0]")).to_have_value("Dai #00004")
        pick(page_b, "Eri", "00005", "Eri #00005", 1)
        page_b.fill("[name=player2]", "Lee")
        page_b.fill("[name=player3]", "Max")
        start(page_b, b, ["Dai #00004", "Eri #00005", "Lee", "Max"])

        page_post(page_a, a.url, "/api/riichi", {"seat": 1})
        page_post(page_a, a.url, "/api/wins", {"winner": 1, "discarder": 0,
                                               "quick": {"han": 3, "fu": 30}})
        page_post(page_b, b.url, "/api/wins", {"winner": 0, "discarder": 2,
                                               "quick": {"han": 2, "fu": 30}})
        # The live page follows both tables by itself (no reload from the test).
        expect(row(counter, "Table 1")).to_contain_text("Ben #00002 33,900",
                                                        timeout=REFRESH_WAIT)
        expect(row(counter, "Table 2")).to_contain_text("Dai #00004 32,900",
                                                        timeout=REFRESH_WAIT)

        proxy.cut("refuse")  # kiosk B loses the parlor mid-game and plays on
        page_post(page_b, b.url, "/api/riichi", {"seat": 1})
        page_post(page_b, b.url, "/api/wins", {"winner": 1, "quick": {"han": 2, "fu": 30}})
        page_post(page_b, b.url, "/api/end", {"reason": "time"})
        page_post(page_a, a.url, "/api/wins", {"winner": 3, "quick": {"han": 1, "fu": 30}})
        page_post(page_a, a.url, "/api/end", {"reason": "time"})
        expect(row(counter, "Table 1")).to_contain_text("Ben #00002 33,400",
                                                        timeout=REFRESH_WAIT)
        expect(row(counter, "Table 1")).to_contain_text("finished")
        table_2 = row(counter, "Table 2").inner_text()  # the same load: B's news has not come
        assert "Dai #00004 32,900" in table_2 and "playing" in table_2, table_2

        # B2, still offline: the picker says the parlor is out of reach; Ana types her number.
        new_game(page_b, b)
        page_b.fill("#member-q", "ana")
        expect(page_b.locator("#member-note")).to_have_text(
            "the parlor cannot be reached: type the player's name (a member adds #number)")
        expect(page_b.locator("#member-note")).to_have_class(re.compile(r"\bbad\b"))
        for seat, name in enumerate(["Ana #00001", "Lee", "Max", "Oto"]):
            page_b.fill(f"[name=player{seat}]", name)
        start(page_b, b, ["Ana #00001", "Lee", "Max", "Oto"])
        page_post(page_b, b.url, "/api/riichi", {"seat": 2})
        page_post(page_b, b.url, "/api/wins", {"winner": 0, "discarder": 1,
                                               "quick": {"han": 2, "fu": 30}})
        page_post(page_b, b.url, "/api/end", {"reason": "time"})

        proxy.mend()  # the network is back: B catches up
        assert b.services.outbox is not None and b.services.outbox.flush(60)
        assert a.services.outbox is not None and a.services.outbox.flush(60)
        expect(row(counter, "Table 2")).to_contain_text("Ana #00001 33,900",
                                                        timeout=REFRESH_WAIT)
        expect(row(counter, "Table 2")).to_contain_text("finished")
        for kiosk, table in ((a, "Table 1"), (b, "Table 2")):  # none lost, none doubled
            assert parlor_events(parlor_store, table) == kiosk_events(kiosk.services)

        staff = Staff(parlor_app.test_client())
        confirm_shown(staff)  # the cards hold no secret: staff confirm who sat where
        check_figures(staff)
        counter.goto(parlor.url + "/counter/leaderboard?from=2000-01-01&to=2099-12-31"
                     "&min_games=1")
        names = counter.locator("table tr td:nth-child(2)").all_inner_texts()
        assert names == ["Ben (00002)", "Eri (00005)", "Dai (00004)", "Chie (00003)",
                         "Ana (00001)"]
        shot(counter, "parlor-counter-leaderboard")
        assert errors == []
    finally:
        for page in (page_a, page_b, counter):
            page.close()
        a.stop()
        b.stop()
        proxy.close()


def stats(staff: Staff, number: str) -> dict[str, Any]:
    answer = staff.get(f"/api/members/{number}/stats")
    assert answer.status_code == 200, answer.get_json()
    return dict(answer.get_json()["stats"])


def check_figures(staff: Staff) -> None:
    approx = pytest.approx
    assert stats(staff, "00001") == {
        "games": 2, "hands": 3,  # A1's two hands, B2's one
        "total_score": approx(-0.3), "average_score": approx(-0.15),  # -19.2 + 18.9; / 2
        "average_place": 2.5, "first_share": 0.5, "last_share": 0.5,  # (4 + 1) / 2
        "wins": 1, "win_rate": approx(0.3333),  # B2's ron, of 3 hands
        "deal_in_rate": approx(0.3333),  # A1 h1: Ben's ron off Ana
        "riichi_rate": 0.0, "average_win": 2900.0,  # dealer 2 han 30 fu ron; stick left out
        "chips": 0, "money": None,  # WRC's rules: no chips, no stakes (settles no money)
    }
    assert stats(staff, "00002") == {
        "games": 1, "hands": 2, "total_score": approx(18.4), "average_score": approx(18.4),
        "average_place": 1.0, "first_share": 1.0, "last_share": 0.0, "wins": 1,
        "win_rate": 0.5, "deal_in_rate": 0.0, "riichi_rate": 0.5,  # riichi in 1 of 2 hands
        "average_win": 3900.0,  # 3 han 30 fu ron; the stick left out
        "chips": 0, "money": None,
    }
    assert stats(staff, "00003") == {
        "games": 1, "hands": 2, "total_score": approx(6.1), "average_score": approx(6.1),
        "average_place": 2.0, "first_share": 0.0, "last_share": 0.0, "wins": 1,
        "win_rate": 0.5, "deal_in_rate": 0.0, "riichi_rate": 0.0,
        "average_win": 1100.0,  # 300 + 300 + 500
        "chips": 0, "money": None,
    }
    assert stats(staff, "00004") == {
        "games": 1, "hands": 2, "total_score": approx(6.8), "average_score": approx(6.8),
        "average_place": 2.0, "first_share": 0.0, "last_share": 0.0, "wins": 1,
        "win_rate": 0.5, "deal_in_rate": 0.0, "riichi_rate": 0.0,
        "average_win": 2900.0,  # dealer 2 han 30 fu ron
        "chips": 0, "money": None,
    }
    assert stats(staff, "00005") == {
        "games": 1, "hands": 2, "total_score": approx(17.3), "average_score": approx(17.3),
        "average_place": 1.0, "first_share": 1.0, "last_share": 0.0, "wins": 1,
        "win_rate": 0.5, "deal_in_rate": 0.0, "riichi_rate": 0.5,
        "average_win": 2000.0,  # 500 + 500 + 1,000; the honba and the stick left out
        "chips": 0, "money": None,
    }
    answer = staff.get("/api/leaderboard", query_string={**WIDE, "min_games": "1"})
    assert answer.status_code == 200, answer.get_json()
    rows = [(r["number"], r["games"], r["total_score"], r["rating"])
            for r in answer.get_json()["rows"]]
    # Tenhou R: A1 (everyone 1500, table average 1500, coefficient 1): Ben 1st 1500 + 30 =
    # 1530, Chie 2nd 1510, Ana 4th 1470. B1 likewise: Eri 1530, Dai 1510. B2: the table's
    # average (1470 + 3 x 1500) / 4 = 1492.5; Ana 1st: (30 + (1492.5 - 1470) / 40) x
    # (1 - 0.002 x 1) = 30.5625 x 0.998 = 30.501375 -> 1500.501375.
    assert rows == [
        ("00002", 1, approx(18.4), approx(1530.0)),
        ("00005", 1, approx(17.3), approx(1530.0)),
        ("00004", 1, approx(6.8), approx(1510.0)),
        ("00003", 1, approx(6.1), approx(1510.0)),
        ("00001", 2, approx(-0.3), approx(1500.501375)),
    ]
