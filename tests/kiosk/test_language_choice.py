"""Which language a page speaks (issue 37, part 2): the session's choice (the switch in the
header, `?lang=`, POST /api/session/language), else on a phone or laptop the first of its
browser's languages the pages speak (Accept-Language, Simplified Chinese for zh-CN), else the
kiosk's configured language, which its own screen always starts in."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask

from kiosk.config import ConfigError, load
from tests.kiosk.conftest import lan_client, make_kiosk


def lang_of(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)">', page)
    assert found, page[:200]
    return found[1]


@pytest.mark.parametrize("header, lang", [
    ("zh-CN,zh;q=0.9,en;q=0.8", "zh-Hans"), ("zh-Hans-CN", "zh-Hans"), ("ja-JP,ja;q=0.9", "ja"),
    ("zh-TW,ja;q=0.5", "ja"),  # no Traditional catalogue: the next language wanted
    ("zh-HK", "en"), ("ko,fr;q=0.8", "en"), ("en-GB", "en"), ("", "en"),
])
def test_a_phone_gets_its_browser_s_language(app: Flask, header: str, lang: str) -> None:
    phone = lan_client(app)
    page = phone.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
    assert lang_of(page) == lang
    assert phone.get("/api/session", headers={"Accept-Language": header}).get_json()[
        "language"] == lang


def test_the_kiosk_s_own_screen_keeps_the_configured_language(app: Flask) -> None:
    screen = app.test_client()  # loopback, naming localhost
    page = screen.get("/", headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert lang_of(page) == "en"


def test_the_switch_beats_the_browser(app: Flask) -> None:
    phone = lan_client(app)
    chinese = {"Accept-Language": "zh-CN"}
    assert lang_of(phone.get("/?lang=ja", headers=chinese).get_data(as_text=True)) == "ja"
    page = phone.get("/", headers=chinese).get_data(as_text=True)
    assert lang_of(page) == "ja"
    assert [m[0] for m in re.findall(r'href="\?lang=([\w-]+)" hreflang="([\w-]+)"', page)] == [
        "en", "zh-Hans"]
    assert ">中文</a>" in page and ">English</a>" in page


def test_the_session_takes_chinese_and_names_the_languages_it_refuses(app: Flask) -> None:
    screen = app.test_client()
    csrf = screen.get("/api/session").get_json()["csrf"]
    ok = screen.post("/api/session/language", json={"language": "zh-Hans"},
                     headers={"X-CSRF-Token": csrf})
    assert (ok.status_code, ok.get_json()) == (200, {"language": "zh-Hans"})
    assert lang_of(screen.get("/").get_data(as_text=True)) == "zh-Hans"
    refused = screen.post("/api/session/language", json={"language": "zh"},
                          headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 400  # said in the session's language, now Chinese
    assert refused.get_json()["error"] == "language：'zh'不在en, ja, zh-Hans之中"


def test_a_kiosk_configured_in_chinese(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path, language="zh-Hans")
    try:
        page = app.test_client().get("/").get_data(as_text=True)
        assert lang_of(page) == "zh-Hans" and "<title>立直麻将 计分板</title>" in page
    finally:
        services.stop()
    with pytest.raises(ConfigError, match=r"language: 'zh' is not one of en, ja, zh-Hans"):
        load(None, environ={"KIOSK_LANGUAGE": "zh"}, defaults={"data_dir": str(tmp_path)})
