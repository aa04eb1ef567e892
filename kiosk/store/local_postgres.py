"""A throw-away PostgreSQL server of its own, for the tests and the parlor's benchmark.

`local_postgres()` runs `initdb` into a temporary folder, `pg_ctl start` listening only on a unix
socket in that folder (no TCP port to collide with), yields the server's URL and data folder, and
stops and removes it at the end. PostgreSQL refuses to run as root, so as root the server runs as
the `postgres` system user (Debian's package creates it) or else `nobody`. Every failure raises
`LocalPostgresError`, saying which binary is missing or which step failed with its output's tail;
`PostgresNotInstalled` (a kind of it) when there is no PostgreSQL to start at all.

The kiosk's own PostgreSQL store is kiosk/store/postgres.py; this only starts a server.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

STEP_TIMEOUT_S = 120
TAIL = 2000  # characters of a failed step's output (and of the server's log) in the error


class LocalPostgresError(Exception):
    """The local PostgreSQL server cannot be started or stopped; the message says why."""


class PostgresNotInstalled(LocalPostgresError):
    """No `initdb` or `pg_ctl` on PATH or in /usr/lib/postgresql/<version>/bin."""


@dataclass(frozen=True)
class LocalPostgres:
    url: str  # postgresql://riichi@/postgres?host=SOCKET_FOLDER&port=N
    data: Path  # the cluster's folder (its postmaster.pid names the server's process)


def free_port() -> int:
    """A TCP port nobody on 127.0.0.1 listens on now."""
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
    """Who runs the server: ourselves, or as root an unprivileged system user."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise LocalPostgresError("running as root, but neither a 'postgres' nor a 'nobody' user "
                             "exists to run PostgreSQL as")


def _run_as(user: pwd.struct_passwd | None, step: str, args: list[str], log: Path) -> None:
    """Run one step (initdb, pg_ctl start or stop) as `user`; its failure names the step and
    ends with the tails of its output and of the server's log."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C"}
    if user is not None:
        env["HOME"] = user.pw_dir
    try:
        result = subprocess.run(
            args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            timeout=STEP_TIMEOUT_S, user=user.pw_uid if user else None,
            group=user.pw_gid if user else None, extra_groups=[] if user else None, cwd="/",
            check=False)
    except subprocess.TimeoutExpired as error:
        raise LocalPostgresError(f"{step} did not finish in {STEP_TIMEOUT_S} s") from error
    if result.returncode != 0:
        server_log = log.read_text(errors="replace")[-TAIL:] if log.exists() else ""
        raise LocalPostgresError(f"{step} failed (exit {result.returncode}):\n"
                                 f"{result.stdout[-TAIL:]}\n{server_log}")


@contextlib.contextmanager
def local_postgres(prefix: str = "riichi-pg-") -> Iterator[LocalPostgres]:
    """A PostgreSQL server of its own on a unix socket in a new folder under /tmp (`prefix`
    names it), removed at the end."""
    initdb, pg_ctl = pg_binary("initdb"), pg_binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        missing = " and ".join(n for n, b in (("initdb", initdb), ("pg_ctl", pg_ctl)) if not b)
        raise PostgresNotInstalled(f"PostgreSQL is not installed (no {missing} on PATH or in "
                                   "/usr/lib/postgresql/*/bin)")
    user = _server_user()
    # Not under a private temporary folder (pytest's tmp_path is root's only): the server's
    # user must enter it.
    base = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    data, log = base / "data", base / "server.log"
    if user is not None:
        os.chown(base, user.pw_uid, user.pw_gid)
    port = free_port()  # names the socket file only, but a free number avoids any clash
    try:
        _run_as(user, "initdb", [initdb, "-D", str(data), "-U", "riichi", "--auth=trust", "-E",
                                 "UTF8", "--no-locale", "--no-sync"], log)
        _run_as(user, "pg_ctl start", [
            pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o",
            f"-k {base} -p {port} -c listen_addresses='' -c fsync=on", "start"], log)
        try:
            yield LocalPostgres(f"postgresql://riichi@/postgres?host={base}&port={port}", data)
        finally:
            _run_as(user, "pg_ctl stop", [pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"],
                    log)
    finally:
        shutil.rmtree(base, ignore_errors=True)
