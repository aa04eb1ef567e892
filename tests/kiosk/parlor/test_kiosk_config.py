"""Joining a parlor is configured like every other kiosk option, and checked at start."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.config import ConfigError, load

TOKEN = "hwEFinGXan5eN2NFw_MtFjNobxhgTpxmW9cGcds24RA"


def test_the_parlor_options_come_from_the_environment(tmp_path: Path) -> None:
    config = load(None, environ={"KIOSK_PARLOR_URL": "http://192.168.1.2:8090",
                                 "KIOSK_PARLOR_TABLE": "Table 1", "KIOSK_PARLOR_TOKEN": TOKEN,
                                 "KIOSK_DATA_DIR": str(tmp_path), "KIOSK_CAMERA": "demo"})
    assert (config.parlor_url, config.parlor_table, config.parlor_token) == (
        "http://192.168.1.2:8090", "Table 1", TOKEN)


@pytest.mark.parametrize(("options", "named"), [
    ({"parlor_url": "http://p:8090"}, "parlor_table"),
    ({"parlor_url": "ftp://p", "parlor_table": "T", "parlor_token": TOKEN}, "parlor_url"),
    ({"parlor_url": "http://p", "parlor_table": "a/b", "parlor_token": TOKEN}, "parlor_table"),
    ({"parlor_url": "http://p", "parlor_table": "T", "parlor_token": "short"}, "parlor_token"),
], ids=["url-alone", "not-http", "bad-table", "bad-token"])
def test_a_bad_parlor_option_is_named(tmp_path: Path, options: dict[str, str],
                                      named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        load(None, environ={}, defaults={"data_dir": str(tmp_path), "camera": "demo",
                                         **options})
