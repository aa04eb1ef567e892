"""Shared fixtures: a real PostgreSQL server for the session (never a mock).

`postgres_url` starts a throw-away cluster: `initdb` into a temporary directory, `pg_ctl start`
listening only on a unix socket in that directory (no TCP port to collide with), and stops and
removes it at the end. PostgreSQL refuses to run as root, so as root the server runs as the
`postgres` system user (Debian's package creates it) or else `nobody`. Set
RIICHI_TEST_POSTGRES_URL to use a server of your own instead.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


def _pg_binary(name: str) -> str | None:
    """`name` on PATH, else the newest /usr/lib/postgresql/<version>/bin/<name>."""
    found = shutil.which(name)
    if found:
        return found
    candidates = glob.glob(f"/usr/lib/postgresql/*/bin/{name}")
    candidates.sort(key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return candidates[-1] if candidates else None


def _server_user() -> pwd.struct_passwd | None:
    """Who runs the server: ourselves, or as root an unprivileged system user."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    pytest.fail("running as root, but neither a 'postgres' nor a 'nobody' user exists to run "
                "PostgreSQL as")


def _free_port() -> int:
    # Only names the socket file (no TCP listening), but a free number avoids any clash.
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _run_as(user: pwd.struct_passwd | None, args: list[str], log: Path) -> None:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C"}
    if user is not None:
        env["HOME"] = user.pw_dir
    result = subprocess.run(
        args, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120,
        user=user.pw_uid if user else None, group=user.pw_gid if user else None,
        extra_groups=[] if user else None, cwd="/")
    if result.returncode != 0:
        server_log = log.read_text(errors="replace") if log.exists() else ""
        pytest.fail(f"{' '.join(args[:2])} failed ({result.returncode}):\n{result.stdout}\n"
                    f"{server_log}")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The URL of a running PostgreSQL server for this test session."""
    external = os.environ.get("RIICHI_TEST_POSTGRES_URL")
    if external:
        yield external
        return
    initdb, pg_ctl = _pg_binary("initdb"), _pg_binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("PostgreSQL is not installed (no initdb on PATH or in "
                    "/usr/lib/postgresql/*/bin); .ci/run installs Debian's postgresql")
    user = _server_user()
    # Not under pytest's tmp_path: that is private to root and the server user must enter it.
    base = Path(tempfile.mkdtemp(prefix="riichi-pg-", dir="/tmp"))
    data, log = base / "data", base / "server.log"
    if user is not None:
        os.chown(base, user.pw_uid, user.pw_gid)
    port = _free_port()
    try:
        _run_as(user, [initdb, "-D", str(data), "-U", "riichi", "--auth=trust", "-E", "UTF8",
                       "--no-locale", "--no-sync"], log)
        _run_as(user, [pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", "60", "-o",
                       f"-k {base} -p {port} -c listen_addresses='' -c fsync=on", "start"], log)
        try:
            yield f"postgresql://riichi@/postgres?host={base}&port={port}"
        finally:
            _run_as(user, [pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"], log)
    finally:
        shutil.rmtree(base, ignore_errors=True)
