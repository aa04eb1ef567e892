"""`Idempotency-Key`: a change sent twice is recorded once (docs/api.md).

A page makes one key per user action and sends it again when it retries; a script one per call.
A game's change with a key (`@keyed` views) stores its answer with its events, in the same
transaction (`kiosk.store.receipts`), so a repeat in the same game, after a lost answer or a
restart, gets the first answer back (with ``Idempotent-Replayed: true``) and changes nothing.
The same key with another request is a 422. A refused change keeps nothing: sent again, it is
tried again. Every other change accepts the header (it is checked) and ignores it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from flask import Response, request

from kiosk.errors import ApiError
from kiosk.store.receipts import MakeReceipt, Receipt
from kiosk.web.context import services
from scorer.table import Table

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
# Long enough that two devices' random keys never meet, short enough to store freely.
KEY = re.compile(r"[A-Za-z0-9_.:-]{16,64}")

#: A change's answer made from the table it leaves and the game's id.
Render = Callable[[Table, str], Any]


@dataclass(frozen=True, slots=True)
class Key:
    key: str
    fingerprint: str  # the request's method, path and body: a key sent with another is refused


def check_header() -> str | None:
    """The request's key as sent, or None; a malformed key is a 400 naming the header."""
    raw = request.headers.get(HEADER)
    if raw is not None and not KEY.fullmatch(raw):
        raise ApiError(400, f"{HEADER}: expected 16-64 letters, digits or '-_.:' (one new key "
                       "per action, e.g. 32 random hex digits)", field=HEADER,
                       code="idempotency_key", words={"field": HEADER})
    return raw


def request_key() -> Key | None:
    raw = check_header()
    return None if raw is None else Key(raw, _fingerprint())


def _fingerprint() -> str:
    digest = hashlib.sha256(f"{request.method} {request.path}\n".encode())
    if request.mimetype == "multipart/form-data":
        # A browser picks a new boundary for each send: compare the fields, not the bytes.
        for name, value in sorted(request.form.items(multi=True)):
            digest.update(f"{len(name)}:{name}={len(value)}:".encode() + value.encode())
        for name, upload in sorted(request.files.items(multi=True), key=lambda f: f[0]):
            digest.update(f"{len(name)}:{name}@".encode() + hashlib.sha256(
                upload.stream.read()).digest())
            upload.stream.seek(0)
    else:
        digest.update(request.get_data(cache=True))
    return digest.hexdigest()


class Answer:
    """One change's answer: rendered from the table the change leaves (so it can be stored with
    the change, before the change becomes the state) and sent as rendered."""

    def __init__(self, key: Key | None, status: int, render: Render) -> None:
        self.key, self.status, self.render = key, status, render
        self.body: Any = None

    def bind(self, table: Table) -> MakeReceipt:
        def make(game_id: str) -> Receipt | None:
            self.body = self.render(table, game_id)
            if self.key is None:
                return None
            return Receipt(self.key.key, self.key.fingerprint, self.status,
                           json.dumps(self.body, ensure_ascii=False))
        return make


def _replay(kept: Receipt, key: Key) -> Response:
    if kept.fingerprint != key.fingerprint:
        raise ApiError(422, f"{HEADER}: this key already recorded another change in this game "
                       f"({request.method} {request.path} was not applied); make a new key for "
                       "each action", field=HEADER, code="idempotency_key_reused",
                       words={"field": HEADER})
    return Response(kept.body, kept.status, mimetype="application/json",
                    headers={REPLAYED: "true"})


def keyed(status: int = 200, render: Render | None = None) -> Callable[..., Any]:
    """A view that changes the game: `view(answer, **url_args)` passes `answer` to the game's
    change (and may set its `render`, default the table's state); its answer is sent."""
    def wrap(view: Callable[..., None]) -> Callable[..., Response | tuple[Any, int]]:
        @wraps(view)
        def run(**url_args: Any) -> Response | tuple[Any, int]:
            game = services().game
            key = request_key()
            with game.lock:  # a copy sent at once waits here, then finds the first's receipt
                kept = game.receipt(key.key) if key is not None else None
                if kept is not None and key is not None:
                    return _replay(kept, key)
                answer = Answer(key, status, render or game.state_of)
                view(answer, **url_args)
            if answer.body is None:
                raise RuntimeError(f"{view.__name__} changed nothing through its answer")
            return answer.body, answer.status
        return run
    return wrap

