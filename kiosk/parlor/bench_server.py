"""The benchmark's processes: a throw-away PostgreSQL (initdb into a temporary folder, as the
tests start theirs), the parlor server (`python -m kiosk.parlor serve`) on a free port, and
what /proc says of their CPU time and memory (Linux; no psutil needed)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TICK = os.sysconf("SC_CLK_TCK")
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback, no proxy


class BenchError(Exception):
    """The benchmark cannot run (no PostgreSQL, a server that does not start); says why."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pg_binary(name: str) -> str | None:
    """`name` on PATH, else the newest /usr/lib/postgresql/<version>/bin/<name>."""
    found = shutil.which(name)
    if found:
        return found
    candidates = [p for p in glob.glob(f"/usr/lib/postgresql/*/bin/{name}")
                  if Path(p).parts[-3].isdigit()]
    candidates.sort(key=lambda p: int(Path(p).parts[-3]))
    return candidates[-1] if candidates else None


def _server_user() -> pwd.struct_passwd | None:
    """PostgreSQL refuses to run as root: then as `postgres` (Debian's) or `nobody`."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise BenchError("running as root, but no 'postgres' or 'nobody' user to run PostgreSQL as")


def _run_as(user: pwd.struct_passwd | None, args: list[str], log: Path) -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C"}
    if user is not None:
        env["HOME"] = user.pw_dir
    result = subprocess.run(
        args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120,
        user=user.pw_uid if user else None, group=user.pw_gid if user else None,
        extra_groups=[] if user else None, cwd="/", check=False)
    if result.returncode != 0:
        tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        raise BenchError(f"{Path(args[0]).name} failed ({result.returncode}):\n"
                         f"{result.stdout[-2000:]}\n{tail}")


@contextlib.contextmanager
def local_postgres() -> Iterator[tuple[str, Path]]:
    """A PostgreSQL server of its own, on a unix socket only (no TCP port), removed at the end;
    yields (URL, data folder)."""
    initdb, pg_ctl = pg_binary("initdb"), pg_binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise BenchError("PostgreSQL is not installed (no initdb on PATH or in "
                         "/usr/lib/postgresql/*/bin): install Debian's postgresql, or give "
                         "--db postgresql://... of a server of yours")
    user = _server_user()
    base = Path(tempfile.mkdtemp(prefix="riichi-bench-pg-", dir="/tmp"))
    data, log = base / "data", base / "server.log"
    if user is not None:
        os.chown(base, user.pw_uid, user.pw_gid)
    port = free_port()  # names the socket file only
    try:
        _run_as(user, [initdb, "-D", str(data), "-U", "riichi", "--auth=trust", "-E", "UTF8",
                       "--no-locale", "--no-sync"], log)
        _run_as(user, [pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o",
                       f"-k {base} -p {port} -c listen_addresses='' -c fsync=on", "start"], log)
        try:
            yield f"postgresql://riichi@/postgres?host={base}&port={port}", data
        finally:
            _run_as(user, [pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"], log)
    finally:
        shutil.rmtree(base, ignore_errors=True)


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

    def __init__(self, db: str, threads: int, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KIOSK_", "PARLOR_"))}
        env["PARLOR_DB"] = db  # not on the command line, where `ps` would show a password
        self._log = log
        with log.open("w") as out:
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
