"""The checking client of the API fuzz suite (test_fuzz_api.py): a real kiosk and its clients.

`Fuzz.send` is the one way a request goes out; after each it checks the answer (under 500,
JSON or the documented type, no traceback, a refusal in the one error shape) and the table
(points conserved, a refusal changed nothing, a change answered the state it made).
"""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import EnvironBuilder, run_wsgi_app

from kiosk.photos.captures import CaptureStore
from kiosk.table.game import DEFAULT_PLAYERS
from kiosk.web.security import TOKENS_FILE, PinLimiter
from scorer.rules import RULESETS
from scorer.table import GameStarted
from tests.kiosk.conftest import KIOSK_ON_LAN, Api, PhoneClient, lan_client, make_kiosk
from tests.kiosk.fuzz_strategies import Form, Request, to_json

STREAMS = {"/api/camera/stream": "multipart/x-mixed-replace"}
#: The two answers that are 503 by design while the kiosk has no camera (docs/api.md).
NO_CAMERA = {("/api/camera/frame.jpg", "GET"), ("/api/camera/frame.jpg", "HEAD"),
             ("/api/captures", "POST")}
DOWNLOADS = {"/api/export.json": "application/json", "/api/export.csv": "text/csv",
             "/api/camera/frame.jpg": "image/jpeg"}


class Fuzz:
    """A real kiosk (SQLite store in `tmp_path`, no camera, no recogniser) and its clients: the
    kiosk's own screen, a phone with a PIN session, a device with a token, a stranger."""

    def __init__(self, tmp_path: Path) -> None:
        self.app, self.services = make_kiosk(tmp_path)
        self.services.start(camera=False, recogniser=False)
        self.kiosk = Api(self.app.test_client())
        self.phone = lan_client(self.app)
        self.phone_csrf = ""
        self.stranger = lan_client(self.app, "192.168.1.99")
        self.device = lan_client(self.app, "192.168.1.77")
        self.sent = 0
        self.answers: Counter[tuple[str, str, int]] = Counter()
        self.rules: dict[str, dict[str, Any]] = {}
        self.reset()

    def close(self) -> None:
        self.services.stop()

    def reset(self) -> None:
        """The same start for every example, so that hypothesis can replay and shrink one: a
        new game on the default rules, no pending captures, a new device token, the phone
        logged in again (the PIN limiter forgets earlier wrong PINs). Set up directly, not
        through the API under test."""
        kiosk = self.services
        kiosk.game.start(GameStarted(DEFAULT_PLAYERS, RULESETS[kiosk.config.ruleset]))
        kiosk.captures = CaptureStore(kiosk.captures.folder, kiosk.captures.save)
        kiosk.security.limiter = PinLimiter()
        (kiosk.security.data_dir / TOKENS_FILE).unlink(missing_ok=True)
        self.token = kiosk.security.issue_token("scoreboard")
        self.captures: list[str] = []
        self.token_ids: list[str] = []
        r = self.phone.post("/api/session/pin", json={"pin": kiosk.security.pin})
        assert r.status_code == 200, r.get_json()
        self.phone_csrf = r.get_json()["csrf"]
        self.state = self.read_state()

    # --- sending -------------------------------------------------------------------------
    def send(self, req: Request) -> tuple[int, Any]:
        """Send, check the answer and the table; (status, parsed JSON or None)."""
        client, headers = self._client(req.who)
        headers = {**headers, **req.headers}
        data, content_type = self._body(req.body)
        if content_type:
            headers.setdefault("Content-Type", content_type)
        if "Host" in headers or "Cookie" in headers:
            response = self._wsgi(client, req, data, headers)
        else:
            response = client.open(req.path, method=req.method, data=data, headers=headers)
        self.sent += 1
        status, body = check_answer(req, response)
        self.answers[req.method, req.path.split("?")[0], status] += 1
        self.check_table(req, status, body)
        self._remember(req, status, body)
        return status, body

    def _remember(self, req: Request, status: int, body: Any) -> None:
        """Ids later requests may name: captures, device tokens; the phone's new CSRF token."""
        if req.path == "/api/captures/upload" and status == 201:
            self.captures.append(body["id"])
        elif req.path == "/api/tokens" and req.method == "GET" and status == 200:
            self.token_ids = [t["id"] for t in body["tokens"]]
        elif req.path == "/api/session/pin" and req.who == "phone" and status == 200:
            self.phone_csrf = body["csrf"]

    def _client(self, who: str) -> tuple[FlaskClient, dict[str, str]]:
        if who == "phone":
            return self.phone, {"X-CSRF-Token": self.phone_csrf}
        if who == "device":
            return self.device, {"Authorization": f"Bearer {self.token}"}
        if who == "stranger":
            return self.stranger, {}
        return self.kiosk.client, {"X-CSRF-Token": self.kiosk.csrf}

    @staticmethod
    def _body(body: Any) -> tuple[Any, str | None]:
        if body is None:
            return None, None
        if isinstance(body, bytes):
            return body, None
        if isinstance(body, Form):  # multipart, written by werkzeug
            return {name: (io.BytesIO(data), f"{name}.bin") for name, data in body.fields.items()
                    }, None
        return to_json(body).encode("utf-8", "surrogatepass"), "application/json"

    def _wsgi(self, client: FlaskClient, req: Request, data: Any, headers: dict[str, str]) -> Any:
        """A request with a Host or Cookie of any text, straight to the app: the test client
        cannot build some Hosts (a port past 65535) and puts its own cookies over the header."""
        lan = isinstance(client, PhoneClient)
        cookie = client.get_cookie("session", domain=KIOSK_ON_LAN.split(":")[0] if lan
                                   else "localhost")
        host = headers.pop("Host", None)
        if cookie is not None:
            headers.setdefault("Cookie", f"session={cookie.value}")
        environ = EnvironBuilder(path=req.path, method=req.method, data=data, headers=headers,
                                 base_url=f"http://{KIOSK_ON_LAN}/" if lan else None,
                                 environ_base=client.environ_base).get_environ()
        if host is not None:
            environ["HTTP_HOST"] = host
        app_iter, status, response_headers = run_wsgi_app(self.app, environ)
        return self.app.response_class(app_iter, status, response_headers)

    # --- the table -----------------------------------------------------------------------
    def read_state(self) -> dict[str, Any]:
        state = self.kiosk.get("/api/state").get_json()
        assert isinstance(state, dict)
        return state

    def check_table(self, req: Request, status: int, body: Any) -> None:
        """Points conserved; a refusal changed nothing; a change answers the state it made."""
        before, state = self.state, self.read_state()
        self.state = state
        if 400 <= status < 500:
            assert state == before, f"{req.method} {req.path} answered {status} but changed " \
                "the table"
        if status in (200, 201) and req.method == "POST" and isinstance(body, dict):
            answered = body.get("state", body)
            if "seats" in answered:
                assert answered == state, f"{req.method} {req.path} answered another state"
        if state["game"] is None:
            return
        game = state["game"]["id"]
        if game not in self.rules:
            self.rules[game] = self.kiosk.get("/api/history").get_json()["ruleset"]
        rules = self.rules[game]
        total = sum(s["points"] for s in state["seats"]) + state["riichi_sticks"] * rules[
            "riichi_stick"]
        assert total == 4 * rules["start_points"], (
            f"points not conserved after {req.method} {req.path} -> {status}: seats "
            f"{[s['points'] for s in state['seats']]} + {state['riichi_sticks']} sticks of "
            f"{rules['riichi_stick']} != 4 x {rules['start_points']} "
            f"(last event: {state['last_event']})")


def check_answer(req: Request, response: Any) -> tuple[int, Any]:
    """Under 500, no traceback, JSON (or the documented type), a refusal in the error shape."""
    status, mimetype = response.status_code, response.mimetype
    where = f"{req.method} {req.path} -> {status}"
    path = req.path.split("?")[0]
    if mimetype in STREAMS.values() and status == 200 and req.method != "HEAD":
        chunks = []
        for chunk in response.response:
            chunks.append(chunk if isinstance(chunk, bytes) else chunk.encode())
            if len(chunks) == 2:
                break
        response.close()
        data = b"".join(chunks)
        assert STREAMS.get(path) == mimetype, where
    else:
        data = response.get_data()
        response.close()
    no_camera = status == 503 and (path, req.method) in NO_CAMERA  # documented: no picture
    assert status < 500 or no_camera, f"{where}: {data[:2000]!r}"
    assert b"Traceback" not in data, f"{where}: {data[:2000]!r}"
    if req.method == "HEAD" or (status == 200 and path in STREAMS):
        return status, None
    expected = DOWNLOADS.get(path) or (
        "image/jpeg" if path.startswith("/api/captures/") and path.endswith(".jpg")
        else "application/json")
    if status >= 400 or req.method != "GET":
        expected = "application/json"
    assert mimetype == expected, f"{where}: {mimetype}, expected {expected}: {data[:300]!r}"
    if mimetype != "application/json":
        return status, None
    body = json.loads(data)
    if status >= 400:
        assert isinstance(body, dict) and isinstance(body.get("error"), str), (where, body)
        assert body["status"] == status and isinstance(body["problems"], list), (where, body)
    return status, body
