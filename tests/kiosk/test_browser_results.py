"""Results worth looking at (issue 38, item 7), in Debian's chromium at 800x480, 1280x720, 390x844
and 1920x1080: the win over the whole screen after it is applied, the ura dora asked for before a
riichi win is applied, the final ranking by itself at the game's end, the TV page and the phone
page with its own seat at the bottom. Screenshots: test-artifacts/results-*.png.

The hands, worked by hand (Tenhou rules, East 1, dealer Aki at seat 0, 25,000 each, no honba):
- MANGAN: Chie (seat 2, West) wins by ron off Bun (seat 1) on 234m 234p 234s 55s 67s + 8s, dora
  indicator 1s: pinfu 1, tanyao 1, sanshoku doujun 2, dora 1 (one 2s) = 5 han, a mangan: a
  non-dealer's ron, 2,000 base x 4 = 8,000. Chie 33,000 (+8,000), Bun 17,000 (-8,000).
- URA: the same hand after Chie's riichi (24,000 and one stick), no dora indicator entered:
  riichi 1, pinfu 1, tanyao 1, sanshoku 2 = 5 han mangan 8,000; the ura indicator 1s makes 2s an
  ura dora: 6 han, haneman, 3,000 base x 4 = 12,000. Chie +12,000 and the stick = +13,000
  (37,000), Bun -12,000 (13,000).
- The final ranking after MANGAN and the end (Tenhou: uma 20/10/-10/-20, return 30,000, start
  25,000, so oka 4 x 5,000 = 20.0 to the first): Chie (33,000 - 30,000) / 1,000 = +3 + 20 + 20 =
  +43.0; Aki and Dai 25,000, tied, placed by seat from the first dealer: Aki -5 + 10 = +5.0, Dai
  -5 - 10 = -15.0; Bun -13 - 20 = -33.0 (sum 0).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.kiosk.server import page_post
from tests.kiosk.test_browser import browser, shot  # noqa: F401  (shared fixture)

pytestmark = pytest.mark.browser
SIZES = [(800, 480), (1280, 720), (390, 844), (1920, 1080)]
IDS = [f"{w}x{h}" for w, h in SIZES]
HAND = {"concealed": "234m234p234s55s67s", "win": "8s"}
PLAYERS3 = ["Aki", "Bun", "Chie"]
MANGAN = {"winner": 2, "discarder": 1, "riichi": "none", "hand": {**HAND, "dora": "1s"}}


def font_px(page: Any, selector: str) -> float:
    return page.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)")


def inside(page: Any, selector: str, width: int, height: int) -> bool:
    box = page.locator(selector).bounding_box()
    return bool(box) and box["x"] >= 0 and box["y"] >= 0 \
        and box["x"] + box["width"] <= width + 1 and box["y"] + box["height"] <= height + 1


def drawn_for(page: Any, seats: int) -> None:
    """The table page drawn for `seats` players. table.js loads the page again when a game of
    another size starts (a four-player game after the three-player test's, or the other way
    round), and a page.goto racing that reload lands back on the table."""
    from playwright.sync_api import expect

    expect(page.locator("#table")).to_have_attribute("data-seats", str(seats))


def type_the_win(page: Any, base: str) -> None:
    """On the win page: Chie's 234m234p234s55s67s8s typed in, a ron off Bun (not yet applied).
    The table the tab opened on has seen the game first: the tab keeps what it saw
    (moments.js), and the table the win page goes back to shows the win as newer than that (a
    tab that left before its first state came, under load, showed none)."""
    game = page.request.get(base + "/api/state").json()["game"]["id"]
    page.wait_for_function(
        "(id) => (JSON.parse(sessionStorage.getItem('kiosk.moment.seen') || 'null') || {}).game"
        " === id", arg=game)
    page.goto(base + "/win")
    page.click("#manual-btn")
    page.fill("#mpsz", "234m234p234s55s67s8s")
    page.click("#mpsz-set")
    page.click('#winner button[data-v="2"]')
    page.click('#discarder button[data-v="1"]')


@pytest.mark.parametrize("width, height", SIZES, ids=IDS)
def test_a_win_shows_over_the_whole_screen_with_its_yaku_limit_and_changes(
        open_page: Any, base: str, width: int, height: int) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(width, height)
    page.locator("#live.on").wait_for()
    page_post(page, base, "/api/wins", MANGAN)  # applied from another device: every screen shows it
    moment = page.locator("#moment")
    expect(moment).to_be_visible()
    expect(moment.locator(".moment-limit")).to_have_text("Mangan")
    expect(moment.locator(".moment-points")).to_have_text("8,000")
    expect(moment.locator(".moment-head")).to_have_text("Chie — Ron from Bun")
    yaku = moment.locator(".moment-yaku li")
    said = "ls => ls.map((l) => [l.dataset.yaku, l.innerText.replace(/\\s+/g, ' ')])"
    assert yaku.evaluate_all(said) == [
        ["pinfu", "Pinfu 1 han"], ["tanyao", "Tanyao 1 han"],
        ["sanshoku_doujun", "Sanshoku doujun 2 han"], ["dora", "Dora 1 han"]]
    changes = {seat: moment.locator(f'.moment-changes tr[data-seat="{seat}"] .delta').inner_text()
               for seat in range(4)}
    assert changes == {0: "±0", 1: "-8,000", 2: "+8,000", 3: "±0"}
    # read from a seat: the limit and the points the largest, everything on the screen
    big = 40 if width < 700 else 48
    assert font_px(page, ".moment-limit") >= big and font_px(page, ".moment-points") >= big + 8
    assert font_px(page, '.moment-changes tr[data-seat="2"] .delta') >= 28 - 4 * (width < 700)
    for part in (".moment-limit", ".moment-points", '.moment-changes tr[data-seat="3"]'):
        assert inside(page, part, width, height), part
    page.wait_for_timeout(400)  # the fade-in done
    shot(page, f"results-moment-{width}x{height}")
    moment.click()  # a tap puts it away
    expect(moment).to_have_count(0)
    expect(page.locator('.seat[data-seat="2"] .points')).to_have_text("33,000")
    assert errors == []


def test_the_win_applied_on_the_win_page_shows_on_the_table_it_goes_back_to_in_japanese(
        open_page: Any, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480, "ja")
    type_the_win(page, base)
    page.locator("#apply-btn").click()
    page.wait_for_url(base + "/")
    moment = page.locator("#moment")
    # No dora entered: pinfu, tanyao and sanshoku are 4 han 30 fu, 7,700 for a non-dealer's ron
    # (Tenhou: no kiriage); below the limits the han and fu are said instead of a limit's name.
    expect(moment.locator(".moment-limit")).to_have_text("4翻30符")
    expect(moment.locator(".moment-points")).to_have_text("7,700")
    expect(moment.locator('.moment-changes tr[data-seat="1"] .delta')).to_have_text("-7,700")
    assert errors == []


@pytest.mark.parametrize("width, height", [(800, 480), (390, 844)], ids=["800x480", "390x844"])
def test_a_riichi_win_asks_for_the_ura_dora_before_it_is_applied(
        open_page: Any, base: str, width: int, height: int) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(width, height)
    page_post(page, base, "/api/riichi", {"seat": 2})
    type_the_win(page, base)
    expect(page.locator("#bar-total")).to_have_text("5 han mangan — 8,000")
    page.locator("#apply-btn").click()
    dialog = page.locator("#ura-dialog")
    expect(dialog).to_be_visible()  # asked now, before anything is recorded
    assert page.url == base + "/win"
    page.click('#ura-dialog .picker button[data-tile="1s"]')
    expect(page.locator("#ura-total")).to_have_text("With the ura dora: 6 han haneman — 12,000")
    for part in ("#ura-apply", "#ura-none", '#ura-dialog .picker button[data-tile="7z"]'):
        assert inside(page, part, width, height), part
    shot(page, f"results-ura-{width}x{height}")
    with page.expect_request(lambda r: r.url.endswith("/api/wins")) as sent:
        page.click("#ura-apply")
    assert json.loads(sent.value.post_data)["hand"]["ura"] == "1s"
    page.wait_for_url(base + "/")
    moment = page.locator("#moment")
    expect(moment.locator(".moment-limit")).to_have_text("Haneman")
    expect(moment.locator(".moment-points")).to_have_text("12,000")
    expect(moment.locator('.moment-changes tr[data-seat="2"] .delta')).to_have_text("+13,000")
    expect(moment.locator('.moment-changes tr[data-seat="1"] .delta')).to_have_text("-12,000")
    assert moment.locator('.moment-yaku li[data-yaku="ura_dora"]').inner_text().split() \
        == ["Ura", "dora", "1", "han"]
    assert errors == []


def test_without_ura_dora_the_win_is_applied_as_it_was(open_page: Any, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(1280, 720)
    page_post(page, base, "/api/riichi", {"seat": 2})
    type_the_win(page, base)
    page.locator("#apply-btn").click()
    page.click("#ura-none")
    page.wait_for_url(base + "/")
    expect(page.locator('#moment .moment-changes tr[data-seat="2"] .delta')).to_have_text("+9,000")
    assert errors == []


RANKING = [["1", "Chie", "33,000", "+20.0", "+20.0", "+43.0"],
           ["2", "Aki", "25,000", "+10.0", "0.0", "+5.0"],
           ["3", "Dai", "25,000", "-10.0", "0.0", "-15.0"],
           ["4", "Bun", "17,000", "-20.0", "0.0", "-33.0"]]


def ranking_rows(page: Any, within: str, players: int = 4) -> list[list[str]]:
    rows = page.locator(f"{within} .ranking tbody tr")
    expect_count(rows, players)
    return [r.split("\t") for r in rows.all_inner_texts()]


def expect_count(locator: Any, n: int) -> None:
    from playwright.sync_api import expect

    expect(locator).to_have_count(n)


@pytest.mark.parametrize("width, height", SIZES, ids=IDS)
def test_at_the_game_s_end_the_final_ranking_shows_by_itself(
        open_page: Any, base: str, width: int, height: int) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(width, height)
    page.locator("#live.on").wait_for()
    page_post(page, base, "/api/wins", MANGAN)
    page_post(page, base, "/api/end", {})  # from another device; this screen follows
    page.locator("#moment").click()  # the last win first, then the ranking
    final = page.locator("#final-ranking")
    expect(final.locator("h1")).to_have_text("Final ranking")
    head = final.locator(".ranking thead th").all_inner_texts()
    assert head == ["Place", "Player", "Points", "Uma", "Oka", "Result"]
    assert ranking_rows(page, "#final-ranking") == RANKING
    big = 24 if width < 700 else 40
    assert font_px(page, "#final-ranking .ranking tbody tr td.c-final") >= big
    assert inside(page, "#final-ranking .ranking", width, height)
    page.wait_for_timeout(400)
    shot(page, f"results-final-{width}x{height}")
    # the ranking on a page of its own, for a screen left showing it
    final.get_by_role("link", name="Full screen").click()
    page.wait_for_url(re.compile(r"/results\?back=%2F"))
    expect(page.locator("#results-title")).to_have_text("Final ranking")
    assert ranking_rows(page, "#results") == RANKING
    assert inside(page, "#ranking", width, height)
    shot(page, f"results-ranking-{width}x{height}")
    page.locator("#results-back").click()
    page.wait_for_url(re.compile(r"/\?lang=en$"))
    expect(page.locator("#finished")).to_be_visible()  # the table says the game is over
    assert errors == []


def test_the_end_taken_back_takes_the_ranking_with_it(open_page: Any, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    page.locator("#live.on").wait_for()
    page_post(page, base, "/api/end", {})
    expect(page.locator("#final-ranking .ranking tbody tr")).to_have_count(4)
    page_post(page, base, "/api/undo", {})  # from another device: the game goes on
    expect(page.locator("#final-ranking")).to_have_count(0)
    expect(page.locator("#finished")).to_be_hidden()
    assert errors == []


def test_a_three_player_game_s_end_on_the_tv(open_page: Any, base: str) -> None:
    """Tenhou three-player: 35,000 each, return 40,000 (oka 3 x 5,000 = 15.0 to the first), uma
    20/0/-20. Bun's mangan ron off Aki (8,000, entered as points): Bun 43,000 = +3 + 20 + 15 =
    +38.0; Chie 35,000 = -5 + 0 = -5.0; Aki 27,000 = -13 - 20 = -33.0 (sum 0)."""
    from playwright.sync_api import expect

    page, errors = open_page(1280, 720)
    page_post(page, base, "/api/games", {"players": PLAYERS3, "ruleset": "tenhou_sanma"})
    drawn_for(page, 3)
    page.goto(base + "/tv")
    expect(page.locator(".tv-seat")).to_have_count(3)
    page_post(page, base, "/api/wins", {"winner": 1, "discarder": 0, "quick": {"points": 8000}})
    bun_to_aki = page.locator('.tv-seat[data-seat="1"] .apart li[data-seat="0"] b')
    expect(bun_to_aki).to_have_text("+16,000")
    page_post(page, base, "/api/end", {})
    expect(page.locator("#moment .moment-limit")).to_have_text("Mangan")
    page.locator("#moment").click()
    assert ranking_rows(page, "#final-ranking", 3) == [
        ["1", "Bun", "43,000", "+20.0", "+15.0", "+38.0"],
        ["2", "Chie", "35,000", "0.0", "0.0", "-5.0"],
        ["3", "Aki", "27,000", "-20.0", "0.0", "-33.0"]]
    page.wait_for_timeout(400)
    shot(page, "results-final-sanma-tv-1280x720")
    page.goto(base + "/me?seat=0")  # at three players the others sit right and left
    places = {p: page.locator(f".me-seat.place-{p}").get_attribute("data-seat")
              for p in ("right", "left")}
    assert places == {"right": "1", "left": "2"} and page.locator(".place-across").count() == 0
    expect(page.locator('.me-seat[data-seat="1"] .me-apart')).to_have_text("16,000 above you")
    assert errors == []


def test_the_final_ranking_in_chinese(open_page: Any, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480, "zh-Hans")
    drawn_for(page, 4)  # after the three-player test's game: the table loads itself again
    page_post(page, base, "/api/end", {})
    page.goto(base + "/results")
    expect(page.locator("#results-title")).to_have_text("最终排名")
    expect(page.locator("#ranking thead th").first).to_have_text("名次")
    assert errors == []


@pytest.mark.parametrize("width, height", SIZES, ids=IDS)
def test_the_tv_page_shows_every_seat_and_the_points_apart_in_large_digits_live(
        open_page: Any, base: str, width: int, height: int) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(width, height)
    page.click("#join-btn")
    page.locator("#join-screens").get_by_role("link", name="TV").click()
    page.wait_for_url(base + "/tv")
    expect(page.locator(".tv-seat")).to_have_count(4)
    expect(page.locator('.tv-seat[data-seat="2"] .points')).to_have_text("25,000")
    page_post(page, base, "/api/wins", MANGAN)  # no reload: the live stream brings it
    page.locator("#moment").click()
    chie = page.locator('.tv-seat[data-seat="2"]')
    expect(chie.locator(".points")).to_have_text("33,000")
    apart = {n: chie.locator(f'.apart li[data-seat="{n}"] b').inner_text() for n in (0, 1, 3)}
    assert apart == {0: "+8,000", 1: "+16,000", 3: "+8,000"}
    bun_to_chie = page.locator('.tv-seat[data-seat="1"] .apart li[data-seat="2"] b')
    expect(bun_to_chie).to_have_text("-16,000")
    points, digits = (48, 22) if width < 700 else (64, 24) if width < 1200 else (96, 36)
    assert font_px(page, '.tv-seat[data-seat="2"] .points') >= points
    assert font_px(page, '.tv-seat[data-seat="2"] .apart b') >= digits
    if width >= 700:  # the whole table on the screen, nothing to scroll
        for n in range(4):
            assert inside(page, f'.tv-seat[data-seat="{n}"]', width, height), n
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    shot(page, f"results-tv-{width}x{height}")
    assert errors == []


@pytest.mark.parametrize("width, height", SIZES, ids=IDS)
def test_the_phone_page_puts_its_own_seat_at_the_bottom_with_the_others_apart(
        open_page: Any, base: str, width: int, height: int) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(width, height)
    page.click("#join-btn")  # the table's Join dialog names the screens that watch it
    page.locator("#join-screens").get_by_role("link", name="My seat").click()
    page.wait_for_url(base + "/me")
    expect(page.locator("#choose h1")).to_have_text("Which seat is yours?")
    page.click('#choices button[data-seat="1"]')  # Bun
    mine = page.locator(".me-seat.place-mine")
    expect(mine).to_have_attribute("data-seat", "1")
    # seen from Bun: Chie (the next seat) on the right, Dai across, Aki on the left
    places = {p: page.locator(f".me-seat.place-{p}").get_attribute("data-seat")
              for p in ("right", "across", "left")}
    assert places == {"right": "2", "across": "3", "left": "0"}
    expect(page.locator('.me-seat[data-seat="2"] .me-apart')).to_have_text("Level with you")
    page_post(page, base, "/api/wins", MANGAN)
    page.locator("#moment").click()
    expect(mine.locator(".points")).to_have_text("17,000")
    apart = {n: page.locator(f'.me-seat[data-seat="{n}"] .me-apart').inner_text()
             for n in (0, 2, 3)}
    assert apart == {0: "8,000 above you", 2: "16,000 above you", 3: "8,000 above you"}
    boxes = {n: page.locator(f'.me-seat[data-seat="{n}"]').bounding_box() for n in range(4)}
    assert all(boxes[1]["y"] > boxes[n]["y"] for n in (0, 2, 3))  # its own seat at the bottom
    assert boxes[2]["x"] > boxes[0]["x"]  # right of the one on its left
    for n in range(4):
        assert inside(page, f'.me-seat[data-seat="{n}"]', width, height), n
    assert font_px(page, '.me-seat[data-seat="2"] .me-apart b') >= 24
    shot(page, f"results-me-{width}x{height}")
    page.reload()  # the phone keeps its seat
    expect(page.locator(".me-seat.place-mine")).to_have_attribute("data-seat", "1")
    assert errors == []


def test_the_phone_page_in_japanese_from_its_address(open_page: Any, base: str) -> None:
    from playwright.sync_api import expect

    page, _ = open_page(390, 844, "ja")
    page_post(page, base, "/api/wins", MANGAN)
    page.goto(base + "/me?seat=2")
    expect(page.locator(".me-seat.place-mine")).to_have_attribute("data-seat", "2")
    expect(page.locator('.me-seat[data-seat="1"] .me-apart')).to_have_text("あなたより16,000点下")
