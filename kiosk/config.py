"""Layered configuration: embedded defaults -> TOML file -> KIOSK_* environment -> CLI flags.

Every option is declared once in `OPTIONS` (name, type, default, help); the CLI, the TOML reader and
the environment reader are all generated from it, so `python -m kiosk --help` documents every option
and an unknown key anywhere is rejected with its name. Validation runs at start-up, before anything
opens a camera, a port or a database.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from kiosk.words.i18n import LANGS
from scorer.rules import RULESETS

APP_NAME = "riichi-kiosk"
LANGUAGES = LANGS  # those with a catalogue (kiosk/words/locale/)


class ConfigError(ValueError):
    """A configuration value that cannot be used; the message names the key and its source."""


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    kind: type
    default: Any
    help: str
    metavar: str | None = None


def _default_data_dir() -> str:
    import platformdirs

    return platformdirs.user_data_dir(APP_NAME)


OPTIONS: tuple[Option, ...] = (
    Option("host", str, "127.0.0.1",
           "address to listen on; anything but loopback makes every change need the table PIN",
           "ADDR"),
    Option("port", int, 8080, "TCP port to listen on", "PORT"),
    Option("data_dir", str, "",
           "folder for the database, PIN, secret key and saved captures "
           "(default: the user's data directory; also KIOSK_DATA_DIR)", "DIR"),
    Option("database_url", str, "",
           "event store: sqlite:///PATH or postgresql://... (default: sqlite in data_dir)", "URL"),
    Option("camera", str, "auto",
           "camera source: auto (first camera, else the demo frames), demo, none, "
           "folder:PATH, v4l2:N, v4l2:/dev/PATH or picamera[:N]", "SPEC"),
    Option("display", str, "none",
           "serial honba/points display: a pyserial URL (/dev/ttyUSB0, socket://host:port, "
           "loop://) or none", "URL"),
    Option("models_dir", str, "",
           "folder of the ONNX tile models (default: models/ of the project)", "DIR"),
    Option("save_captures", bool, True,
           "keep every confirmed capture (photo + confirmed tiles) in data_dir/captures"),
    Option("pin", str, "",
           "table PIN for changes from other devices (default: generated at first start and "
           "stored in data_dir)", "PIN"),
    Option("language", str, "en", "user-interface language: en, ja or zh-Hans", "LANG"),
    Option("ruleset", str, "tenhou",
           f"default ruleset preset for a new game: {', '.join(sorted(RULESETS))}", "NAME"),
    Option("threads", int, 8, "worker threads for other devices' requests (open live pages "
           "need none; the kiosk's own screen has threads of its own)", "N"),
    Option("max_upload_mb", int, 12, "largest photo upload accepted, in MB", "MB"),
    Option("public_url", str, "",
           "address phones should use for the QR code (default: guessed from host/port)",
           "URL"),
    Option("allowed_hosts", str, "",
           "host names the kiosk answers to besides its addresses, the machine's name and the "
           "public URL's, comma-separated (others are refused: DNS rebinding)", "NAMES"),
    Option("parlor_url", str, "",
           "a parlor server to send this table's events to, http(s)://HOST:PORT (default: "
           "none; see docs/parlor.md)", "URL"),
    Option("parlor_table", str, "", "this table's name at the parlor", "NAME"),
    Option("parlor_token", str, "",
           "the table's token from the parlor (python -m kiosk.parlor add-table); better in "
           "the TOML file or the environment than on a command line others can list", "TOKEN"),
)
_BY_NAME = {o.name: o for o in OPTIONS}


@dataclass(frozen=True, slots=True)
class KioskConfig:
    """The validated configuration. `data_dir` and `database_url` are always filled in."""

    host: str = "127.0.0.1"
    port: int = 8080
    data_dir: str = ""
    database_url: str = ""
    camera: str = "auto"
    display: str = "none"
    models_dir: str = ""
    save_captures: bool = True
    pin: str = ""
    language: str = "en"
    ruleset: str = "tenhou"
    threads: int = 8
    max_upload_mb: int = 12
    public_url: str = ""
    allowed_hosts: str = ""
    parlor_url: str = ""
    parlor_table: str = ""
    parlor_token: str = ""

    @property
    def host_names(self) -> tuple[str, ...]:
        return tuple(n.strip().lower() for n in self.allowed_hosts.split(",") if n.strip())

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir)

    @property
    def listens_on_lan(self) -> bool:
        """True when the listener is reachable from other machines."""
        return not is_loopback(self.host)


def is_loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _coerce(option: Option, value: Any, source: str) -> Any:
    where = f"{option.name} (from {source})"
    if option.kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("1", "true", "yes", "on"):
            return True
        if isinstance(value, str) and value.lower() in ("0", "false", "no", "off"):
            return False
        raise ConfigError(f"{where}: expected true or false, got {value!r}")
    if option.kind is int:
        if isinstance(value, bool):
            raise ConfigError(f"{where}: expected a whole number, got {value!r}")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{where}: expected a whole number, got {value!r}") from None
    if not isinstance(value, str):
        raise ConfigError(f"{where}: expected text, got {value!r}")
    return value


def _layer(values: Mapping[str, Any], source: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in values.items():
        option = _BY_NAME.get(key)
        if option is None:
            known = ", ".join(_BY_NAME)
            raise ConfigError(f"unknown configuration key {key!r} in {source} (known: {known})")
        out[key] = _coerce(option, value, source)
    return out


def read_toml(path: Path) -> dict[str, Any]:
    """Options from a TOML file: top-level keys, or a [kiosk] table."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"config file {path}: {e}") from None
    if set(data) == {"kiosk"} and isinstance(data["kiosk"], dict):
        data = data["kiosk"]
    return _layer(data, str(path))


def read_env(environ: Mapping[str, str]) -> dict[str, Any]:
    """KIOSK_<OPTION> variables; an unknown KIOSK_ variable is an error (a typo would be silent)."""
    values: dict[str, str] = {}
    for key, value in environ.items():
        if key.startswith("KIOSK_") and key != "KIOSK_CONFIG":
            values[key[len("KIOSK_"):].lower()] = value
    for key in values:
        if key not in _BY_NAME:
            known = ", ".join(f"KIOSK_{name.upper()}" for name in _BY_NAME)
            raise ConfigError(f"unknown environment variable KIOSK_{key.upper()} (known: {known}, "
                              "KIOSK_CONFIG)")
    return _layer(values, "environment")


def validate(config: KioskConfig) -> KioskConfig:
    """Check every value and fill in the derived defaults (data_dir, database_url)."""
    if not 0 < config.port < 65536:
        raise ConfigError(f"port: {config.port} is not a TCP port (1-65535)")
    if config.language not in LANGUAGES:
        raise ConfigError(f"language: {config.language!r} is not one of {', '.join(LANGUAGES)}")
    if config.ruleset not in RULESETS:
        raise ConfigError(f"ruleset: unknown preset {config.ruleset!r} "
                          f"(known: {', '.join(sorted(RULESETS))})")
    if config.threads < 4:
        raise ConfigError(f"threads: {config.threads} is too few (at least 4)")
    if not 1 <= config.max_upload_mb <= 100:
        raise ConfigError(f"max_upload_mb: {config.max_upload_mb} is outside 1-100")
    if config.pin and not re.fullmatch(r"[0-9]{4,12}", config.pin):
        raise ConfigError("pin: a PIN is 4-12 digits")
    for name in config.host_names:
        if not re.fullmatch(r"[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?", name):
            raise ConfigError(f"allowed_hosts: {name!r} is not a host name")
    from device.camera import CameraSpec

    try:
        spec = CameraSpec.parse(config.camera)
    except ValueError as e:
        raise ConfigError(f"camera: {e}") from None
    if spec.kind.value == "folder" and not Path(spec.target or "").is_dir():
        raise ConfigError(f"camera: folder {spec.target!r} does not exist")
    data_dir = config.data_dir or _default_data_dir()
    db = config.database_url or f"sqlite:///{Path(data_dir) / 'kiosk.sqlite3'}"
    if not db.startswith(("sqlite:///", "postgresql://", "postgres://")):
        raise ConfigError(f"database_url: {db!r} is neither sqlite:///PATH nor postgresql://...")
    if config.models_dir and not Path(config.models_dir).is_dir():
        raise ConfigError(f"models_dir: folder {config.models_dir!r} does not exist")
    _check_parlor(config)
    return replace(config, data_dir=str(Path(data_dir).expanduser()), database_url=db)


def _check_parlor(config: KioskConfig) -> None:
    """A parlor needs all three of url, table and token, or none of them."""
    given = [n for n in ("parlor_url", "parlor_table", "parlor_token") if getattr(config, n)]
    if not given:
        return
    if len(given) < 3:
        missing = sorted({"parlor_url", "parlor_table", "parlor_token"} - set(given))
        raise ConfigError(f"{missing[0]}: a parlor needs parlor_url, parlor_table and "
                          "parlor_token together")
    if not re.fullmatch(r"https?://[A-Za-z0-9.\-\[\]:]{1,253}(/[A-Za-z0-9._~/-]{0,200})?",
                        config.parlor_url):
        raise ConfigError(f"parlor_url: {config.parlor_url[:80]!r} is not http(s)://HOST[:PORT]")
    from kiosk.parlor.store.auth import TOKEN_MAX, name_problem

    problem = name_problem(config.parlor_table)
    if problem:
        raise ConfigError(f"parlor_table: {problem}")
    if not re.fullmatch(rf"[A-Za-z0-9_-]{{16,{TOKEN_MAX}}}", config.parlor_token):
        raise ConfigError("parlor_token: not a parlor token (16+ letters, digits, '-' or '_', "
                          "as add-table printed it)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One flag per option (`--data-dir`, `--save-captures/--no-save-captures`, ...)."""
    parser.add_argument("--config", metavar="FILE",
                        help="TOML file of options (also KIOSK_CONFIG); later layers: KIOSK_* "
                             "environment variables, then these flags")
    for option in OPTIONS:
        flag = "--" + option.name.replace("_", "-")
        env = f"KIOSK_{option.name.upper()}"
        text = f"{option.help} [default: {option.default!r}; env {env}]"
        if option.kind is bool:
            parser.add_argument(flag, dest=option.name, action=argparse.BooleanOptionalAction,
                                default=None, help=text)
        else:
            parser.add_argument(flag, dest=option.name, type=option.kind, default=None,
                                metavar=option.metavar, help=text)


def load(args: argparse.Namespace | None = None, environ: Mapping[str, str] | None = None,
         defaults: Mapping[str, Any] | None = None) -> KioskConfig:
    """Fold every layer in order and validate the result."""
    environ = os.environ if environ is None else environ
    merged: dict[str, Any] = {f.name: f.default for f in fields(KioskConfig)}
    merged.update(_layer(defaults or {}, "defaults"))
    path = getattr(args, "config", None) or environ.get("KIOSK_CONFIG")
    if path:
        merged.update(read_toml(Path(path)))
    merged.update(read_env(environ))
    if args is not None:
        merged.update({o.name: getattr(args, o.name) for o in OPTIONS
                       if getattr(args, o.name, None) is not None})
    return validate(KioskConfig(**merged))

