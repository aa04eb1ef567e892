"""Fuzz the kiosk and the parlor from their own OpenAPI descriptions with schemathesis (issue 37,
part 4): every described operation, requests that fit the description and requests that do not,
sent in-process (WSGI) to real apps (a kiosk on a SQLite store without camera or recogniser; a
parlor on a SQLite file with a table and a signed-in staff member), authorised as a device and as
staff so changes get past the guard. After each request: no 5xx but the documented ones (a
kiosk without a camera answers 503 to what needs a picture, and the parlor's member picker in
the kiosk 503 when no parlor answers), and no traceback in the body. Then the parlor's
description is walked statefully along its links (a member made, read, renamed, deleted).

The examples are fixed (derandomized); the requests sent are counted and printed. More per
operation outside CI: OPENAPI_FUZZ_EXAMPLES=200 python -m pytest tests/kiosk/test_openapi_fuzz.py
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from kiosk.parlor.store.db import open_database
from kiosk.parlor.store.registry import ParlorStore
from kiosk.parlor.web.app import create_app as create_parlor
from kiosk.table.game import DEFAULT_PLAYERS
from kiosk.web.openapi.parts import PATH
from scorer.rules import RULESETS
from scorer.table import GameStarted
from tests.kiosk.conftest import make_kiosk
from tests.kiosk.parlor.conftest import PASSWORD, STAFF, Staff

pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("OPENAPI_FUZZ_EXAMPLES", "30"))  # per operation and mode
#: 5xx the descriptions document: (method, path template, status).
DOCUMENTED = {("POST", "/api/captures", 503), ("GET", "/api/camera/frame.jpg", 503),
              ("POST", "/api/teach/photo", 503), ("POST", "/api/members/scan", 503),
              ("POST", "/api/members/search", 503)}
SENT: Counter[str] = Counter()
TRACEBACK = "Traceback (most recent call last)"


def checked(server: str, case: Any, response: Any) -> None:
    """No 5xx but the documented ones, no traceback; counted."""
    SENT[server] += 1
    op = case.operation
    where = f"{server}: {op.method.upper()} {case.formatted_path} -> {response.status_code}"
    documented = (op.method.upper(), op.path, response.status_code) in DOCUMENTED
    SENT[f"{server} {response.status_code} (documented)" if documented
         else f"{server} {response.status_code // 100}xx"] += 1
    assert response.status_code < 500 or documented, f"{where}: {response.text[:2000]}"
    # The marker of a Python traceback (a request's own text, echoed in a refusal, may say
    # "Traceback": hypothesis draws strings from the source's literals).
    assert TRACEBACK not in response.text, f"{where}: {response.text[:2000]}"


def on_loopback(app: Any) -> Any:
    """`app` as a server on the loopback interface hands it requests: werkzeug's client, which
    schemathesis uses, names no client address (and the apps answer `localhost` only to one)."""

    def wsgi(environ: dict[str, Any], start_response: Any) -> Any:
        environ.setdefault("REMOTE_ADDR", "127.0.0.1")
        return app(environ, start_response)

    return wsgi


def report(server: str) -> None:
    by_class = sorted((k, v) for k, v in SENT.items() if k.startswith(server + " "))
    print(f"\n{server}: {SENT[server]} requests, {by_class}")


def fuzz(server: str, schema: Any, credentials: Callable[[], dict[str, Any]],
         reset: Callable[[], None], path: dict[str, str] | None = None) -> None:
    """Every operation of `schema`, positive and negative, EXAMPLES each (and as many positive
    with the path's parameters in `path` fixed: a real table's name); `reset` before each
    operation, `credentials` (`case.call`'s headers and cookies) on every request."""
    for result in schema.get_all_operations():
        operation = result.ok()
        if "x-served-by" in schema.raw_schema["paths"][operation.path] or operation.path == PATH:
            continue
        reset()
        modes = [operation.as_strategy(generation_mode=m) for m in GenerationMode]
        fixed = {k: v for k, v in (path or {}).items() if "{" + k + "}" in operation.path}
        if fixed:
            modes.append(operation.as_strategy(path_parameters=fixed))

        @given(case=st.one_of(modes))
        @settings(max_examples=EXAMPLES * len(modes), derandomize=True, database=None,
                  deadline=None, phases=[Phase.explicit, Phase.generate],
                  suppress_health_check=list(HealthCheck))
        def send(case: Any) -> None:
            checked(server, case, case.call(**credentials()))

        send()


def test_the_kiosk_answers_no_5xx_to_its_description(tmp_path: Path) -> None:
    app, services = make_kiosk(tmp_path)
    services.start(camera=False, recogniser=False)
    token = services.security.issue_token("fuzz")

    def reset() -> None:  # a game on the default rules, as the fuzz of test_fuzz_api starts
        services.game.start(GameStarted(DEFAULT_PLAYERS, RULESETS[services.config.ruleset]))

    try:
        schema = schemathesis.openapi.from_wsgi(PATH, on_loopback(app))
        fuzz("kiosk", schema, lambda: {"headers": {"Authorization": f"Bearer {token}"}}, reset)
    finally:
        services.stop()
    report("kiosk")
    assert SENT["kiosk"] >= 40 * EXAMPLES and SENT["kiosk 5xx"] == 0


class Parlor:
    """A parlor on its own SQLite file with staff, a table ("Table 1") and a member; `sign_in`
    gives the credentials every request carries: staff's session and CSRF token, the table's
    token."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.store = ParlorStore(open_database(f"sqlite:///{folder / 'parlor.sqlite3'}"))
        self.store.add_staff(STAFF, PASSWORD)
        self.token = self.store.add_table("Table 1")
        self.store.add_member("Aki", "00012")
        self.app = create_parlor(self.store)
        self.credentials: dict[str, Any] = {}

    def sign_in(self) -> None:
        """Staff signed in again (a fuzzed logout ends the session), from an address of its
        own (the fuzzed wrong passwords slow down 127.0.0.1, never one that has not failed)."""
        client = self.app.test_client()
        client.environ_base["REMOTE_ADDR"] = "127.0.0.2"
        staff = Staff(client)
        cookie = staff.client.get_cookie("parlor_session")
        assert cookie is not None
        self.credentials = {"cookies": {"parlor_session": cookie.value}, "headers": {
            "X-CSRF-Token": staff.csrf, "Authorization": f"Bearer {self.token}"}}


def test_the_parlor_answers_no_5xx_to_its_description(tmp_path: Path) -> None:
    parlor = Parlor(tmp_path / "fuzz")
    scenarios: list[Parlor] = []
    try:
        schema = schemathesis.openapi.from_wsgi(PATH, on_loopback(parlor.app))
        fuzz("parlor", schema, lambda: parlor.credentials, parlor.sign_in,
             {"name": "Table 1", "table": "Table 1"})

        class Links(schema.as_state_machine()):  # type: ignore[misc]
            """Along the description's links, as staff, with our checks; each scenario on a
            parlor of its own, so that the same steps meet the same answers (hypothesis
            replays them)."""

            def setup(self) -> None:
                scenarios.append(Parlor(tmp_path / f"links{len(scenarios)}"))
                scenarios[-1].sign_in()

            def get_call_kwargs(self, case: Any) -> dict[str, Any]:
                return {"app": on_loopback(scenarios[-1].app), **scenarios[-1].credentials}

            def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
                checked("parlor", case, response)
                SENT["parlor stateful"] += 1

        Links.run(settings=settings(max_examples=EXAMPLES, derandomize=True, database=None,
                                    deadline=None, stateful_step_count=6,
                                    suppress_health_check=list(HealthCheck)))
    finally:
        for each in [parlor, *scenarios]:
            each.store.close()
    report("parlor")
    assert SENT["parlor"] >= 30 * EXAMPLES and SENT["parlor 5xx"] == 0
