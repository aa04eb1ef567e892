"""The Japanese and Chinese pages draw their words with the CJK font they ship (issue 37, part 2),
on a machine with no CJK font at all: Debian's chromium started with a fontconfig that knows
only DejaVu, so a glyph the pages' own font lacks has nowhere else to come from. Which font drew
a node's text is asked of the browser itself (DevTools' CSS.getPlatformFontsForNode)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kiosk.server import page_post, running_kiosk
from tests.kiosk.test_browser import ARGS, CHROMIUM
from tests.kiosk.whole_game import PINFU, PLAYERS

pytestmark = pytest.mark.browser
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


@pytest.fixture(scope="module")
def bare_browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Chromium seeing DejaVu only: no CJK font installed, as far as it can tell."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"Debian's chromium is not installed ({CHROMIUM}); .ci/run installs it")
    if not DEJAVU.is_dir():
        pytest.skip(f"{DEJAVU} is absent (fonts-dejavu-core)")
    folder = tmp_path_factory.mktemp("fontconfig")
    fonts = folder / "fonts"
    shutil.copytree(DEJAVU, fonts)
    conf = folder / "fonts.conf"
    conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
                    f"<fontconfig><dir>{fonts}</dir><cachedir>{folder / 'cache'}</cachedir>"
                    "</fontconfig>\n", encoding="utf-8")
    env = {"FONTCONFIG_FILE": str(conf), "HOME": str(folder), "PATH": "/usr/bin:/bin"}
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, env=env)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_kiosk(tmp_path_factory.mktemp("cjk") / "data", "--camera", "none") as url:
        yield url


def fonts_of(page: Any, selector: str) -> list[dict[str, Any]]:
    """The fonts that drew the text of the first node `selector` finds, as the browser says."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, selector
    fonts: list[dict[str, Any]] = cdp.send("CSS.getPlatformFontsForNode",
                                           {"nodeId": node})["fonts"]
    cdp.detach()
    return fonts


@pytest.mark.parametrize("lang, face, text", [("zh-Hans", "Noto Sans CJK SC", "牌桌"),
                                              ("ja", "Noto Sans CJK JP", "卓")])
def test_a_page_s_words_are_drawn_with_the_shipped_font(bare_browser, base: str, lang: str,  # noqa: ANN001
                                                        face: str, text: str) -> None:
    page = bare_browser.new_page()
    try:
        page.goto(f"{base}/?lang={lang}")
        page.evaluate("document.fonts.ready")
        assert page.inner_text("header nav a") == text
        fonts = fonts_of(page, "header nav a")
        assert [(f["familyName"], f["isCustomFont"], f["glyphCount"]) for f in fonts] == [
            (face, True, len(text))]
        family = "Kiosk Sans CJK SC" if lang == "zh-Hans" else "Kiosk Sans CJK JP"
        assert page.evaluate(f"document.fonts.check('18px \"{family}\"', '{text}')")
    finally:
        page.close()


def test_without_the_shipped_font_there_is_no_cjk_here(bare_browser, base: str) -> None:  # noqa: ANN001
    """The control: the same words in the system's own sans-serif are drawn by no CJK font at
    all (DejaVu's missing-glyph boxes), so the pages' words above could only have come from
    the shipped one."""
    page = bare_browser.new_page()
    try:
        page.goto(f"{base}/?lang=zh-Hans")
        page.evaluate("""document.body.insertAdjacentHTML('beforeend',
            '<p id=plain style="font-family: sans-serif">牌桌</p>')""")
        fonts = fonts_of(page, "#plain")
        assert fonts and [f for f in fonts if "CJK" in f["familyName"] or f["isCustomFont"]] == []
        assert all(f["familyName"].startswith("DejaVu") for f in fonts), fonts
    finally:
        page.close()


def test_the_tiles_kanji_are_drawn_with_the_shipped_font(bare_browser, base: str) -> None:  # noqa: ANN001
    """A man tile's 萬 in the history's hand, on a Chinese page: the JP face (the tiles are
    Japanese tiles whatever the page's language)."""
    page = bare_browser.new_page()
    try:
        page.goto(f"{base}/?lang=zh-Hans")
        page_post(page, base, "/api/games", {"players": PLAYERS, "ruleset": "tenhou"})
        page_post(page, base, "/api/wins", {"winner": 1, "discarder": 3, "hand": PINFU})
        page.goto(f"{base}/history")
        page.locator("#entries svg text").first.wait_for()
        man = page.evaluate("""() => [...document.querySelectorAll('#entries svg text')]
            .findIndex(t => t.textContent === '萬')""")
        assert man >= 0
        page.evaluate(f"document.querySelectorAll('#entries svg text')[{man}].id = 'man'")
        fonts = fonts_of(page, "#man")
        assert [(f["familyName"], f["isCustomFont"]) for f in fonts] == [
            ("Noto Sans CJK JP", True)]
    finally:
        page.close()
