"""Shared fixtures: a real PostgreSQL server for the session (never a mock).

`postgres_url` starts a throw-away cluster with kiosk.store.local_postgres: `initdb` into a
temporary directory, `pg_ctl start` listening only on a unix socket in that directory (no TCP port
to collide with), and stops and removes it at the end; as root the server runs as the `postgres`
system user or else `nobody`. Skipped where PostgreSQL is not installed (.ci/run installs it, so
there it always runs); any other failure to start or stop it fails. Set RIICHI_TEST_POSTGRES_URL
to use a server of your own instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from kiosk.store.local_postgres import LocalPostgresError, PostgresNotInstalled, local_postgres


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The URL of a running PostgreSQL server for this test session."""
    external = os.environ.get("RIICHI_TEST_POSTGRES_URL")
    if external:
        yield external
        return
    try:
        with local_postgres(prefix="riichi-pg-") as server:
            yield server.url
    except PostgresNotInstalled as error:
        pytest.skip(f"{error}; .ci/run installs Debian's postgresql")
    except LocalPostgresError as error:
        pytest.fail(str(error))
