"""The kiosk installed in a Debian arm64 userland, checked as a Pi would run it (the second half
of tools/pi_userland.py, which builds the userland and runs the installer in it).

The installed unit is read as systemd reads it and checked (`check_unit`); the kiosk is started
the way its ExecStart would start it (its User, WorkingDirectory, Environment and
EnvironmentFile, the venv the installer made: `start_kiosk`), then asked for `/` and
`/api/state` over HTTP and made to read the demo camera's frame as `expected.json` says
(`check_kiosk`). Each step's time goes into the userland's figures.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[1]


class Userland(Protocol):
    """What the checks use of tools/pi_userland.py's `Userland`."""

    release: str
    root: Path
    figures: dict[str, float]

    def command(self, argv: list[str], env: dict[str, str] | None = None) -> list[str]: ...

    def run(self, argv: list[str], env: dict[str, str] | None = None, timeout: float = 1800,
            check: bool = True) -> subprocess.CompletedProcess[str]: ...


def say(line: str) -> None:
    print(f"pi-userland: {line}", file=sys.stderr, flush=True)


def parse_unit(text: str) -> dict[str, list[str]]:
    """The [Service] section's keys and their values (a key may repeat)."""
    out: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
        elif section == "Service":
            key, _, value = line.partition("=")
            out.setdefault(key, []).append(value)
    return out


def env_file(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines()
                if line.strip() and not line.lstrip().startswith("#") and "=" in line)


def unit_command(land: Userland) -> tuple[list[str], dict[str, str]]:
    """What systemd would run for riichi-kiosk.service: runuser -u User -- sh -c 'cd
    WorkingDirectory && exec ExecStart', with Environment= and the EnvironmentFile."""
    unit = parse_unit((land.root / "etc/systemd/system/riichi-kiosk.service").read_text())
    env: dict[str, str] = {}
    for item in unit.get("Environment", []):
        for pair in shlex.split(item):
            key, _, value = pair.partition("=")
            env[key] = value
    for name in unit.get("EnvironmentFile", []):
        path = land.root / name.lstrip("-").lstrip("/")
        if path.exists():
            env.update(env_file(path.read_text()))
        elif not name.startswith("-"):
            raise RuntimeError(f"EnvironmentFile {name} is missing")
    (user,), (workdir,), (exec_start,) = unit["User"], unit["WorkingDirectory"], unit["ExecStart"]
    home = workdir  # the unit's WorkingDirectory is the user's home
    env = {"HOME": home, "USER": user, "LOGNAME": user, **env}
    argv = ["runuser", "-u", user, "--", "/usr/bin/env",
            *[f"{k}={v}" for k, v in env.items()],
            "sh", "-c", f"cd {shlex.quote(workdir)} && exec {exec_start}"]
    return argv, env


class Http:
    """A browser-like client of the kiosk: a session cookie and the page's CSRF token."""

    def __init__(self, port: int):
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.csrf = ""

    def get(self, path: str, timeout: float = 60) -> tuple[int, bytes]:
        with self.opener.open(self.base + path, timeout=timeout) as r:
            return r.status, r.read()

    def json(self, path: str, timeout: float = 60) -> Any:
        return json.loads(self.get(path, timeout)[1])

    def post(self, path: str, timeout: float = 600) -> tuple[int, Any]:
        if not self.csrf:
            self.csrf = self.json("/api/session")["csrf"]
        request = urllib.request.Request(self.base + path, data=b"", method="POST",
                                         headers={"X-CSRF-Token": self.csrf})
        with self.opener.open(request, timeout=timeout) as r:
            return r.status, json.loads(r.read())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def expected_hands() -> list[dict[str, Any]]:
    truth = json.loads((ROOT / "vision" / "demo_frames" / "expected.json").read_text())
    return list(truth.values())


def labels(tiles: list[dict[str, Any]]) -> list[str]:
    return [t["label"] for t in tiles]


def hand_as_truth(hand: dict[str, Any]) -> dict[str, Any]:
    """A reading's hand in expected.json's shape."""
    return {"concealed": labels(hand["concealed"]),
            "winning": (hand.get("win") or {}).get("label"),
            "melds": [{"kind": m["kind"], "tiles": labels(m["tiles"])} for m in hand["melds"]],
            "dora": labels(hand["dora"])}


@dataclass
class Kiosk:
    process: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)  # the group this run started
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(30)

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""


def start_kiosk(land: Userland, port: int, log: Path, timeout: float = 600) -> Kiosk:
    """The kiosk as the unit would start it; returns once `/` answers (figure `kiosk start`)."""
    argv, _ = unit_command(land)
    started = time.monotonic()
    with log.open("wb") as out:
        process = subprocess.Popen(land.command(argv), stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    kiosk = Kiosk(process, log)
    client = Http(port)
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{land.release}: the kiosk exited {process.returncode}:\n"
                               f"{kiosk.tail()}")
        try:
            if client.get("/", timeout=10)[0] == 200:
                break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        if time.monotonic() - started > timeout:
            kiosk.stop()
            raise RuntimeError(f"{land.release}: no answer on port {port} in {timeout:.0f} s:\n"
                               f"{kiosk.tail()}")
        time.sleep(1)
    land.figures["kiosk start"] = time.monotonic() - started
    say(f"{land.release}: kiosk start {land.figures['kiosk start']:.0f} s")
    return kiosk


def check_kiosk(land: Userland, port: int, timeout: float = 900) -> dict[str, Any]:
    """`/`, `/api/state`, then the recogniser's start and one read of the demo camera's frame;
    returns what was seen (and records the figures)."""
    client = Http(port)
    status, page = client.get("/")
    assert status == 200 and b"<html" in page.lower(), page[:200]
    state = client.json("/api/state")
    assert state["finished"] is False and len(state["game"]["players"]) == 4, state
    started = time.monotonic()
    while True:
        camera = client.json("/api/camera")
        if camera["recogniser"]["available"]:
            break
        if camera["recogniser"]["message"] or time.monotonic() - started > timeout:
            raise RuntimeError(f"{land.release}: the recogniser did not start: {camera}")
        time.sleep(2)
    assert camera["ok"] and camera["demo"], camera
    land.figures["recogniser ready"] = time.monotonic() - started
    started = time.monotonic()
    status, reading = client.post("/api/captures")
    land.figures["frame read (request)"] = time.monotonic() - started
    land.figures["frame read (recognise_ms)"] = reading["recognise_ms"] / 1000
    say(f"{land.release}: frame read {land.figures['frame read (request)']:.1f} s "
        f"(recognise {reading['recognise_ms'] / 1000:.1f} s), recogniser warm-up "
        f"{camera['recogniser']['warmup_ms'] / 1000:.1f} s")
    assert status == 201 and reading["recognised"] and reading["problems"] == [], reading
    hand = hand_as_truth(reading["hand"])
    assert hand in expected_hands(), f"read {hand}, not one of the demo frames' hands"
    return {"camera": camera, "state": state, "reading": reading, "hand": hand}


def check_unit(land: Userland) -> str:
    """The installed unit is enabled and systemd-analyze accepts it (inside the userland)."""
    enabled = land.run(["systemctl", "is-enabled", "riichi-kiosk.service"], check=False)
    assert enabled.stdout.strip() == "enabled", enabled.stdout + enabled.stderr
    wants = land.root / "etc/systemd/system/multi-user.target.wants/riichi-kiosk.service"
    assert wants.is_symlink(), f"{wants} missing"
    verify = land.run(["systemd-analyze", "verify", "/etc/systemd/system/riichi-kiosk.service"],
                      check=False)
    return (verify.stdout + verify.stderr).strip()
