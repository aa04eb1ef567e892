"""The benchmark's processes: the parlor server (`python -m kiosk.parlor serve`) on a free port,
and what /proc says of its CPU time and memory and of the throw-away PostgreSQL's that
kiosk.store.local_postgres starts, as the tests start theirs (Linux; no psutil needed)."""

from __future__ import annotations

import contextlib
import glob
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from kiosk.store.local_postgres import free_port

ROOT = Path(__file__).resolve().parents[2]
TICK = os.sysconf("SC_CLK_TCK")
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback, no proxy


class BenchError(Exception):
    """The benchmark cannot run (a parlor server that does not start); says why."""


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (its own, not its children's)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def memory_kb(pid: int) -> dict[str, int]:
    """VmRSS (now) and VmHWM (peak resident set) of a process, in KB."""
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(value.split()[0])
    return out


def postgres_cpu_seconds(data: Path) -> float:
    """CPU time of the PostgreSQL server (the postmaster and the processes it runs now)."""
    try:
        master = int((data / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return float("nan")
    total = 0.0
    for stat in glob.glob("/proc/[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            pid = int(Path(stat).parent.name)
            ppid = int(Path(stat).read_text().rsplit(")", 1)[1].split()[1])
            if master in (pid, ppid):
                total += cpu_seconds(pid)
    return total


class ParlorProcess:
    """`python -m kiosk.parlor --db URL serve` on a free port, stopped as Ctrl-C stops it."""

    def __init__(self, db: str, threads: int, log: Path, port: int | None = None) -> None:
        self.port = port or free_port()  # the same port again: a restart the kiosks find
        self.url = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KIOSK_", "PARLOR_"))}
        env["PARLOR_DB"] = db  # not on the command line, where `ps` would show a password
        self._log = log
        with log.open("a") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "kiosk.parlor", "--log-level", "WARNING",
                 "serve", "--port", str(self.port), "--threads", str(threads)],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while not self._answers():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise BenchError(f"the parlor did not start: {log.read_text()[-2000:]}")
            time.sleep(0.2)

    def _answers(self) -> bool:
        try:
            with _DIRECT.open(self.url + "/api/session", timeout=2) as answer:
                return bool(answer.status == 200)
        except OSError:
            return False

    def figures(self) -> dict[str, float]:
        memory = memory_kb(self.proc.pid)
        return {"cpu_seconds": cpu_seconds(self.proc.pid),
                "rss_mb": memory.get("VmRSS", 0) / 1024, "peak_rss_mb": memory.get("VmHWM", 0)
                / 1024}

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
