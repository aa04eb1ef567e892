"""Run the real kiosk (`python -m kiosk`, served by waitress) in a subprocess for a test."""

from __future__ import annotations

import json
import os
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
