"""Configuration layers (defaults -> TOML -> KIOSK_* -> flags), validation naming the key."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.__main__ import parser
from kiosk.config import OPTIONS, ConfigError, load


def test_embedded_defaults(tmp_path: Path) -> None:
    config = load(None, environ={"KIOSK_DATA_DIR": str(tmp_path)})
    assert (config.host, config.port, config.camera, config.display) == (
        "127.0.0.1", 8080, "auto", "none")
    assert config.database_url == f"sqlite:///{tmp_path / 'kiosk.sqlite3'}"
    assert config.save_captures and not config.listens_on_lan


def test_layers_override_in_order(tmp_path: Path) -> None:
    toml = tmp_path / "kiosk.toml"
    toml.write_text('port = 9000\nlanguage = "ja"\nsave_captures = false\nhost = "0.0.0.0"\n')
    env = {"KIOSK_PORT": "9100", "KIOSK_DATA_DIR": str(tmp_path)}
    args = parser().parse_args(["--config", str(toml), "--language", "en"])
    config = load(args, environ=env)
    assert config.port == 9100  # env beats the file
    assert config.language == "en"  # the flag beats both
    assert config.save_captures is False and config.listens_on_lan  # from the file


def test_kiosk_table_in_toml(tmp_path: Path) -> None:
    toml = tmp_path / "k.toml"
    toml.write_text('[kiosk]\nruleset = "mleague"\n')
    assert load(None, environ={"KIOSK_CONFIG": str(toml),
                               "KIOSK_DATA_DIR": str(tmp_path)}).ruleset == "mleague"


@pytest.mark.parametrize("toml, named", [
    ("prot = 80", "'prot'"),
    ("port = 'eighty'", "port"),
    ("port = 70000", "port"),
    ("language = 'fr'", "language"),
    ("ruleset = 'nope'", "ruleset"),
    ("camera = 'webcam'", "camera"),
    ("camera = 'folder:/no/such/folder'", "camera"),
    ("save_captures = 'maybe'", "save_captures"),
    ("pin = '12'", "pin"),
    ("database_url = 'mysql://x'", "database_url"),
    ("port = [", "k.toml"),
], ids=["unknown-key", "text-port", "big-port", "language", "ruleset", "camera", "folder",
        "bool", "short-pin", "database", "broken-toml"])
def test_bad_config_names_the_key(tmp_path: Path, toml: str, named: str) -> None:
    path = tmp_path / "k.toml"
    path.write_text(toml + "\n")
    with pytest.raises(ConfigError) as error:
        load(None, environ={"KIOSK_CONFIG": str(path), "KIOSK_DATA_DIR": str(tmp_path)})
    assert named in str(error.value)


def test_unknown_environment_variable_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="KIOSK_PROT"):
        load(None, environ={"KIOSK_PROT": "1", "KIOSK_DATA_DIR": str(tmp_path)})


def test_help_documents_every_option() -> None:
    out = subprocess.run([sys.executable, "-m", "kiosk", "--help"], capture_output=True,
                         text=True, check=True).stdout
    for option in OPTIONS:
        assert "--" + option.name.replace("_", "-") in out
        assert f"KIOSK_{option.name.upper()}" in out.replace("\n", "").replace(" ", "")
    assert "--config" in out


def test_bad_config_exits_2_with_the_key(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "kiosk", "--data-dir", str(tmp_path),
                        "--language", "fr"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "language" in r.stderr
