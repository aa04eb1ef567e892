"""Run the real kiosk (`python -m kiosk`, kiosk.serve.server) in a subprocess for a test."""

from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _local_ipv4_candidates() -> Iterator[str]:
    """This machine's IPv4 addresses as the resolver, the routing table and `ip` name them."""
    try:
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            yield str(sockaddr[0])
    except OSError:
        pass
    for target in ("192.0.2.254", "10.255.255.254", "172.31.255.254", "192.168.255.254"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((target, 9))  # UDP: picks the outgoing address, sends nothing
                yield str(s.getsockname()[0])
            except OSError:
                pass
    ip = shutil.which("ip")
    if ip:
        try:
            out = subprocess.run([ip, "-4", "-o", "addr", "show"], capture_output=True,
                                 text=True, timeout=5).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        for line in out.splitlines():
            fields = line.split()
            if "inet" in fields and fields.index("inet") + 1 < len(fields):
                yield fields[fields.index("inet") + 1].split("/")[0]


def lan_address() -> str | None:
    """A non-loopback IPv4 address of this machine, or None. A connection from this machine to
    that address comes from that address too, so a kiosk listening on 0.0.0.0 sees the test as
    a device on the LAN (not its own screen)."""
    for candidate in _local_ipv4_candidates():
        try:
            address = ipaddress.IPv4Address(candidate)
        except ValueError:
            continue
        if address.is_loopback or address.is_unspecified or address.is_link_local:
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((candidate, 0))  # it is this machine's
            except OSError:
                continue
        return candidate
    return None


def shown_points(html: str) -> list[str]:
    """The points each seat shows on the table page, as written there ("25,000")."""
    return re.findall(r'<div class="points">([^<]*)</div>', html)


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


@contextmanager
def running_kiosk(data_dir: Path, *args: str, env: dict[str, str] | None = None,
                  ready_s: float = 60.0) -> Iterator[str]:
    """Start `python -m kiosk --data-dir DATA --port P ARGS`; yield its base URL."""
    port = free_port()
    log = (data_dir.parent / f"kiosk-{port}.log").open("w")
    environ = {k: v for k, v in os.environ.items() if not k.startswith("KIOSK_")}
    environ.update(env or {})
    proc = subprocess.Popen([sys.executable, "-m", "kiosk", "--data-dir", str(data_dir),
                             "--port", str(port), *args], cwd=ROOT, stdout=log,
                            stderr=subprocess.STDOUT, env=environ)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + ready_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"the kiosk exited with {proc.returncode}: "
                                   f"{Path(log.name).read_text()[-2000:]}")
            try:
                get_json(base + "/api/state")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield base
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def page_post(page: Any, base: str, path: str, body: dict[str, Any]) -> Any:
    """A change through the API from a Playwright page, as the kiosk's own screen (the page's
    session and CSRF token); asserts it was accepted and returns its JSON."""
    csrf = page.request.get(base + "/api/session").json()["csrf"]
    r = page.request.post(base + path, data=json.dumps(body),
                          headers={"X-CSRF-Token": csrf, "Content-Type": "application/json"})
    assert r.ok, r.text()
    return r.json()


@contextmanager
def kiosk_on_frame(root: Path, frame: Path) -> Iterator[str]:
    """A running `python -m kiosk` in `root` whose camera is a folder holding only `frame`."""
    frames = root / "frames"
    frames.mkdir()
    shutil.copy(frame, frames)
    with running_kiosk(root / "data", "--camera", f"folder:{frames}") as url:
        yield url


@contextmanager
def game_pages(browser: Any, base: str, players: list[str]) -> Iterator[Any]:
    """`open(width, height, lang="en") -> (page, its script errors)`: a Playwright page of that
    size and language on a new game of `players`; every page is closed afterwards (the kiosk
    serves each address a few live streams only)."""
    pages: list[Any] = []

    def open_page(width: int, height: int, lang: str = "en") -> tuple[Any, list[str]]:
        page = browser.new_page(viewport={"width": width, "height": height})
        pages.append(page)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}/?lang={lang}")
        page_post(page, base, "/api/games", {"players": players, "ruleset": "tenhou"})
        return page, errors

    try:
        yield open_page
    finally:
        for page in pages:
            page.close()
