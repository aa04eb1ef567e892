"""Tile faces in Debian's chromium (issue 18, item 2), against the real app and server.

Every tile is an SVG face drawn by kiosk/web/static/tiles.js: the 34 kinds, the three red fives and
a face-down back, each named for screen readers in the page's language; a called tile lies
sideways in a box wider than tall. The picker (opened from the win page's tile mode) shows all
38 faces at least 44 px tall on the kiosk's 800x480 screen and a 390x844 phone, without a
sideways scroll; the pips and sticks drawn for 1p-9p and 2s-9s number what the tile says, inside
the face, the circles never overlapping; the history shows each win's hand and the standings
each player's starting wind with the same faces. Screenshots: test-artifacts/tiles-*.png.
"""

from __future__ import annotations

import pytest

from tests.kiosk.server import page_post
from tests.kiosk.test_browser import SHOTS, browser, pick, shot, shown  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser
SUITS = {"m": "man (characters)", "p": "pin (dots)", "s": "sou (bamboo)"}
HONOURS = ["East wind", "South wind", "West wind", "North wind", "White dragon",
           "Green dragon", "Red dragon"]
KANJI = "一二三四五六七八九"
JA_SUITS = {"m": "萬", "p": "筒", "s": "索"}
JA_HONOURS = "東南西北白發中"
ALL_TILES = ([f"{n}{s}" for s in "mps" for n in range(1, 10)]
             + [f"{n}z" for n in range(1, 8)] + ["0m", "0p", "0s", "back"])
RED = "#cc2b2b"  # tiles.js C.red


def name(label: str, lang: str) -> str:
    """The accessible name a face should carry (kiosk/words/i18n.py, tile.name_* and tile.1z-7z)."""
    if label == "back":
        return "Face-down tile" if lang == "en" else "伏せ牌"
    n, suit = int(label[0]), label[1]
    if suit == "z":
        return (HONOURS if lang == "en" else JA_HONOURS)[n - 1]
    k = n or 5
    plain = f"{k} {SUITS[suit]}" if lang == "en" else KANJI[k - 1] + JA_SUITS[suit]
    if n:
        return plain
    return f"Red {plain}" if lang == "en" else "赤" + plain


FACES = """() => [...document.querySelectorAll('#tile-picker .picker .tile')].map((b) => {
    const svg = b.querySelector('svg'), r = b.getBoundingClientRect();
    return { tile: b.dataset.tile, svg: !!svg, role: svg && svg.getAttribute('role'),
             name: svg && svg.getAttribute('aria-label'),
             mark: !!(svg && svg.querySelector('.red-mark')),
             red: svg ? svg.querySelectorAll('[fill="__RED__"]').length : 0,
             html: svg ? svg.innerHTML : '', top: r.top, bottom: r.bottom, left: r.left,
             right: r.right, height: r.height };
  })""".replace("__RED__", RED)


@pytest.mark.parametrize("width, height, lang", [(800, 480, "en"), (390, 844, "ja")],
                         ids=["800x480-en", "390x844-ja"])
def test_the_picker_shows_all_38_faces(open_page, base: str,  # noqa: ANN001
                                       width: int, height: int, lang: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(width, height, lang)
    page.goto(base + "/win")
    page.click("#g-concealed .tile.add")
    expect(page.locator("#tile-picker")).to_be_visible()
    faces = {f["tile"]: f for f in page.evaluate(FACES)}
    assert sorted(faces) == sorted(ALL_TILES) and len(faces) == 38
    assert all(f["svg"] and f["role"] == "img" for f in faces.values())
    assert {t: f["name"] for t, f in faces.items()} == {t: name(t, lang) for t in ALL_TILES}
    for suit in "mps":  # a red five: red, framed in red, unlike the plain five
        red, plain = faces["0" + suit], faces["5" + suit]
        assert red["mark"] and not plain["mark"]
        assert red["red"] > plain["red"] and red["html"] != plain["html"]
    # Big enough to tap, all on the screen: no sideways scroll, nothing below the dialog's fold.
    assert min(f["height"] for f in faces.values()) >= 44
    assert min(f["left"] for f in faces.values()) >= 0
    assert max(f["right"] for f in faces.values()) <= width
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.evaluate("""() => { const d = document.querySelector('#tile-picker');
        return d.scrollWidth <= d.clientWidth && d.scrollHeight <= d.clientHeight; }""")
    # A row per suit, ending in its red five (on a phone the red fives and the back below).
    rows = {t: round(f["top"]) for t, f in faces.items()}
    assert len({rows[f"{n}m"] for n in range(1, 10)}) == 1
    assert rows["1m"] < rows["1p"] < rows["1s"] < rows["1z"]
    if width >= 800:
        assert rows["0m"] == rows["5m"] and faces["0m"]["left"] > faces["9m"]["left"]
    else:
        assert rows["0m"] == rows["0p"] == rows["0s"] == rows["back"] > rows["1z"]
    SHOTS.mkdir(exist_ok=True)  # the screen as it is: the dialog over the page
    page.screenshot(path=str(SHOTS / f"tiles-picker-{width}x{height}.png"))
    pick(page, "0p")
    assert shown(page, "#g-concealed") == ["0p"]
    assert errors == []


COUNTS = """() => {
  const box = document.createElement('div');
  box.style.cssText = 'position:absolute;left:0;top:0;width:120px;height:170px';
  document.body.append(box);
  const out = {};
  for (const label of [...'123456789'].map((n) => n + 'p').concat(
                      [...'23456789'].map((n) => n + 's'), ['0p', '0s', '1s', '5z'])) {
    const svg = TILES.svg(label);
    svg.style.cssText = 'width:120px;height:170px';
    box.replaceChildren(svg);
    const face = svg.getBoundingClientRect();
    const rect = (e) => e.getBoundingClientRect();
    const inside = (r) => r.left >= face.left && r.right <= face.right && r.top >= face.top
      && r.bottom <= face.bottom - 5 * 170 / 85 + 1;  // above the tile's side
    const pips = [...svg.querySelectorAll('.pip')], sticks = [...svg.querySelectorAll('.stick')];
    let overlap = 0;
    pips.forEach((a, i) => pips.slice(i + 1).forEach((b) => {
      const p = rect(a), q = rect(b);
      const d = Math.hypot(p.x + p.width / 2 - q.x - q.width / 2,
                           p.y + p.height / 2 - q.y - q.height / 2);
      if (d < (p.width + q.width) / 2) overlap++;
    }));
    out[label] = { pips: pips.length, sticks: sticks.length, overlap,
                   inside: [...pips, ...sticks].every((e) => inside(rect(e))),
                   bird: svg.querySelectorAll('.bird').length,
                   frame: svg.querySelectorAll('.frame').length };
  }
  box.remove();
  return out;
}"""


def test_each_pin_and_sou_face_draws_its_number(open_page, base: str) -> None:  # noqa: ANN001
    page, errors = open_page(800, 480)
    page.goto(base + "/win")
    drawn = page.evaluate(COUNTS)
    for n in range(1, 10):
        assert drawn[f"{n}p"]["pips"] == n, f"{n}p"
        assert drawn[f"{n}p"]["sticks"] == 0 and drawn[f"{n}p"]["overlap"] == 0, f"{n}p"
        assert drawn[f"{n}p"]["inside"], f"{n}p"
    for n in range(2, 10):
        assert drawn[f"{n}s"]["sticks"] == n and drawn[f"{n}s"]["pips"] == 0, f"{n}s"
        assert drawn[f"{n}s"]["inside"], f"{n}s"
    assert drawn["0p"]["pips"] == 5 and drawn["0s"]["sticks"] == 5
    assert drawn["1s"] == {"pips": 0, "sticks": 0, "overlap": 0, "inside": True, "bird": 1,
                           "frame": 0}
    assert drawn["5z"]["frame"] == 1
    assert errors == []


def test_a_hand_with_a_called_meld_then_history_and_standings(  # noqa: ANN001
        open_page, base: str) -> None:
    from playwright.sync_api import expect

    page, errors = open_page(800, 480)
    page.goto(base + "/win")
    page.click("#manual-btn")
    for label in ["1m", "2m", "3m", "0p", "6p", "7p", "7z", "7z", "5s", "6s"]:
        page.click("#g-concealed .tile.add")
        pick(page, label)
    page.click("#g-win .tile.add")
    pick(page, "4s")
    page.click('.add-meld[data-kind="pon"]')
    for _ in range(3):
        page.click("#g-melds .meld .tile.add")
        pick(page, "6z")
    page.click("#g-dora .tile.add")
    pick(page, "back")
    called = page.locator("#g-melds .tile.sideways")
    expect(called).to_have_count(1)
    box = called.bounding_box()
    assert box and box["width"] > box["height"] >= 44
    assert called.locator("svg").get_attribute("aria-label") == "Green dragon, sideways (called)"
    view = called.locator("svg").get_attribute("viewBox").split()
    assert float(view[2]) > float(view[3])
    upright = page.locator("#g-concealed .tile").first.bounding_box()
    assert upright and upright["height"] > upright["width"] and upright["height"] >= 60
    shot(page, "tiles-hand-800x480")

    page_post(page, base, "/api/wins", {"winner": 1, "discarder": 3, "hand": {
        "concealed": "123m406p77z56s", "win": "4s",
        "melds": [{"kind": "pon", "tiles": "666z", "called": "6z", "source": "toimen"}]}})
    page.goto(base + "/history")
    hand = page.locator("#entries .entry .hand").first
    expect(hand.locator(".tile svg")).to_have_count(14)
    assert hand.locator(".set.called .tile").evaluate_all(
        "ts => ts.map((t) => t.dataset.tile)") == ["6z", "6z", "6z"]
    shot(page, "tiles-history")
    page.goto(base + "/standings")
    expect(page.locator("#standings tbody tr")).to_have_count(4)
    winds = page.eval_on_selector_all("#standings td.player .tile",
                                      "ts => ts.map((t) => t.dataset.tile)")
    assert sorted(winds) == ["1z", "2z", "3z", "4z"]
    shot(page, "tiles-standings")
    assert errors == []
