"""The Raspberry Pi install files are checked here so they cannot rot: the scripts by shellcheck
(or `bash -n`), the rendered unit by `systemd-analyze verify` (and always by a parser), the env
file by the kiosk's own config reader, the udev rule by a parser, the browser launcher by running
it against stand-in chromium and curl commands, the install by its dry run."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
INSTALL = DEPLOY / "install.sh"
SCRIPTS = [INSTALL, DEPLOY / "riichi-kiosk-browser"]


def sh(*args: str | Path, env: dict[str, str] | None = None,
       timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env,
                          timeout=timeout)


@pytest.fixture
def rendered(tmp_path: Path) -> Path:
    """The files the install would put on the system, for user pi, port 8123, a test prefix."""
    prefix = tmp_path / "opt"
    (prefix / "venv" / "bin").mkdir(parents=True)
    (prefix / "venv" / "bin" / "python").symlink_to(sys.executable)
    out = tmp_path / "rendered"
    result = sh("bash", INSTALL, "--render", out, "--user", "pi", "--port", "8123",
                "--prefix", prefix, "--camera", "v4l2:0", "--display", "/dev/riichi-display")
    assert result.returncode == 0, result.stderr
    return out


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_scripts_are_clean(script: Path) -> None:
    assert os.access(script, os.X_OK), f"{script.name} is not executable"
    if shutil.which("shellcheck"):
        result = sh("shellcheck", "--severity=info", script)
    else:
        result = sh("bash", "-n", script)
    assert result.returncode == 0, result.stdout + result.stderr


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """A systemd unit as {section: {key: [values]}} (keys may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if m := re.fullmatch(r"\[(\w+)\]", line):
            current = sections.setdefault(m.group(1), {})
            continue
        key, eq, value = line.partition("=")
        assert current is not None and eq and re.fullmatch(r"[A-Za-z]+", key), \
            f"line {number}: {line!r} is not KEY=value inside a section"
        current.setdefault(key, []).append(value)
    return sections


def test_the_unit_runs_the_kiosk_as_the_user_with_camera_and_serial_access(
        rendered: Path, tmp_path: Path) -> None:
    text = (rendered / "riichi-kiosk.service").read_text()
    settings = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    assert re.findall(r"@[A-Z_]+@", settings) == [], "a placeholder was left unrendered"
    unit = parse_unit(text)
    assert set(unit) == {"Unit", "Service", "Install"}
    service = unit["Service"]
    assert service["ExecStart"] == [f"{tmp_path}/opt/venv/bin/python -m kiosk"]
    assert service["User"] == ["pi"] and service["WorkingDirectory"] == ["/home/pi"]
    assert set(service["SupplementaryGroups"][0].split()) == {"video", "dialout"}
    assert service["EnvironmentFile"] == ["-/etc/default/riichi-kiosk"]
    assert service["Restart"] == ["always"]
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]
    assert (ROOT / "kiosk" / "__main__.py").is_file(), "the unit runs `python -m kiosk`"


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze not installed")
def test_systemd_accepts_the_unit(rendered: Path) -> None:
    result = sh("systemd-analyze", "verify", rendered / "riichi-kiosk.service")
    # verify exits 0 on unknown keys but warns: any output is a problem.
    assert result.returncode == 0 and result.stdout + result.stderr == "", result.stderr


def test_the_env_file_is_what_the_kiosk_reads(rendered: Path) -> None:
    config = pytest.importorskip("kiosk.config")
    values = {}
    for line in (rendered / "riichi-kiosk.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, eq, value = line.partition("=")
            assert eq and re.fullmatch(r"KIOSK_[A-Z_]+", key), line
            values[key] = value
    assert values == {"KIOSK_PORT": "8123", "KIOSK_CAMERA": "v4l2:0",
                      "KIOSK_DISPLAY": "/dev/riichi-display"}
    options = config.read_env(values)  # rejects unknown KIOSK_ names, as the service would
    assert options == {"port": 8123, "camera": "v4l2:0", "display": "/dev/riichi-display"}
    # The commented example must be valid too once uncommented.
    example = re.search(r"^#(KIOSK_\w+)=(\S+)$", (rendered / "riichi-kiosk.env").read_text(),
                        re.MULTILINE)
    assert example is not None and config.read_env({example[1]: example[2]})


UDEV_TOKEN = re.compile(r'(?P<key>[A-Z]+(\{[A-Za-z_]+\})?)(?P<op>==|!=|\+=|:=|=)"(?P<val>[^"]*)"')
UDEV_KEYS = {"SUBSYSTEM", "KERNEL", "ATTRS{idVendor}", "ATTRS{idProduct}", "ATTRS{serial}",
             "SYMLINK", "GROUP", "MODE"}


def udev_rules(text: str) -> list[dict[str, tuple[str, str]]]:
    rules = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        tokens = [t.strip() for t in line.split(",")]
        rule = {}
        for token in tokens:
            m = UDEV_TOKEN.fullmatch(token)
            assert m, f"line {number}: {token!r} is not KEY op \"value\""
            assert m["key"] in UDEV_KEYS, f"line {number}: unexpected key {m['key']}"
            rule[m["key"]] = (m["op"], m["val"])
        rules.append(rule)
    return rules


def check_display_rule(rule: dict[str, tuple[str, str]]) -> None:
    assert rule["SUBSYSTEM"] == ("==", "tty")
    assert rule["SYMLINK"] == ("+=", "riichi-display")
    assert rule["GROUP"] == ("=", "dialout") and rule["MODE"] == ("=", "0660")
    for key in ("ATTRS{idVendor}", "ATTRS{idProduct}"):
        op, value = rule[key]
        assert op == "==" and re.fullmatch(r"[0-9a-f]{4}", value), (key, value)


def test_the_udev_rule_names_the_display_adapter(rendered: Path) -> None:
    rules = udev_rules((rendered / "99-riichi-display.rules").read_text())
    assert len(rules) == 5
    for rule in rules:
        check_display_rule(rule)
    ids = {(r["ATTRS{idVendor}"][1], r["ATTRS{idProduct}"][1]) for r in rules}
    assert ("0403", "6001") in ids and ("1a86", "7523") in ids  # FTDI, CH340


def test_serial_option_writes_a_rule_for_one_adapter(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert sh("bash", INSTALL, "--render", out, "--serial", "0403:6001:A10K3ZB1").returncode == 0
    (rule,) = udev_rules((out / "99-riichi-display.rules").read_text())
    check_display_rule(rule)
    assert rule["ATTRS{serial}"] == ("==", "A10K3ZB1")


def test_browser_launcher_opens_chromium_in_kiosk_mode_on_the_kiosk_port(
        rendered: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    args_file = tmp_path / "chromium-args"
    # Stand-ins: curl answers at once; chromium records its arguments, then stops the launcher's
    # restart loop by ending its parent.
    (bin_dir / "curl").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "chromium").write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$@" > "{args_file}"\nkill -TERM "$PPID"\n')
    for tool in ("curl", "chromium"):
        (bin_dir / tool).chmod(0o755)
    config_home = tmp_path / "config"
    prefs = config_home / "riichi-kiosk-chromium" / "Default" / "Preferences"
    prefs.parent.mkdir(parents=True)
    prefs.write_text('{"profile":{"exit_type":"Crashed","exited_cleanly":false}}')
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(config_home),
           "RIICHI_KIOSK_ENV": str(rendered / "riichi-kiosk.env")}
    sh("bash", rendered / "riichi-kiosk-browser", env=env, timeout=20)
    args = args_file.read_text().split("\n")
    assert "--kiosk" in args and "--noerrdialogs" in args
    assert args[-2] == "http://127.0.0.1:8123/"  # the env file's KIOSK_PORT
    assert f"--user-data-dir={config_home}/riichi-kiosk-chromium" in args
    assert prefs.read_text() == '{"profile":{"exit_type":"Normal","exited_cleanly":true}}'


def test_labwc_autostart_starts_the_installed_launcher(rendered: Path) -> None:
    block = (rendered / "labwc-autostart").read_text()
    commands = [line for line in block.splitlines() if line and not line.startswith("#")]
    assert commands == ["/usr/local/bin/riichi-kiosk-browser &"]
    assert "/usr/local/bin/riichi-kiosk-browser" in INSTALL.read_text()
    assert sh("sh", "-n", rendered / "labwc-autostart").returncode == 0


def test_dry_run_plans_the_whole_install(tmp_path: Path) -> None:
    result = sh("bash", INSTALL, "--dry-run", "--user", "pi", "--port", "8123", "--no-apt")
    assert result.returncode == 0, result.stderr
    plan = result.stdout
    for step in ["+ python3 -m venv --system-site-packages /opt/riichi-kiosk/venv",
                 f"+ /opt/riichi-kiosk/venv/bin/pip install --editable {ROOT}",
                 "+ usermod -aG video,dialout",
                 "/etc/systemd/system/riichi-kiosk.service",
                 "/etc/udev/rules.d/99-riichi-display.rules",
                 "+ install -m 0755", "/usr/local/bin/riichi-kiosk-browser",
                 "+ append", "/home/pi/.config/labwc/autostart",
                 "+ raspi-config nonint do_wayland W3",
                 "+ raspi-config nonint do_boot_behaviour B4",
                 "+ raspi-config nonint do_blanking 1",
                 "+ systemctl enable --now riichi-kiosk.service",
                 "http://127.0.0.1:8123/"]:
        assert step in plan, f"missing {step!r} in\n{plan}"
    assert "apt-get" not in plan
    quiet = sh("bash", INSTALL, "--dry-run", "--user", "pi", "--no-autologin").stdout
    assert "raspi-config" not in quiet
    assert "apt-get install -y --no-install-recommends python3-venv" in quiet


@pytest.mark.parametrize("args, words", [
    (["--port", "99999"], "--port: '99999' is not a TCP port"),
    (["--serial", "0403-6001"], "--serial: '0403-6001' is not VID:PID"),
    (["--user", "Bad User"], "--user: 'Bad User' is not a user name"),
    (["--camera", "webcam"], "--camera: 'webcam'"),
    (["--display", "COM3"], "--display: 'COM3'"),
    (["--frobnicate"], "unknown option: --frobnicate"),
])
def test_install_rejects_bad_options_by_name(args: list[str], words: str) -> None:
    result = sh("bash", INSTALL, "--dry-run", *args)
    assert result.returncode == 2 and words in result.stderr, result.stderr


def test_install_help() -> None:
    result = sh("bash", INSTALL, "--help")
    assert result.returncode == 0
    for option in ("--user", "--port", "--camera", "--display", "--serial", "--dry-run",
                   "--render", "--no-autologin"):
        assert option in result.stdout
