"""Wrong passwords slow the guesser down and nobody else (issue 35, item 5), and take as long
for a name that does not exist (item 12), on a real store through the Flask test client.

The delays are the throttle's (kiosk.parlor.web.throttle): per address 5 wrong passwords free, then
1, 2, 4 ... s after the latest, at most 60; per account 10 free, holding up failing addresses only.
"""

from __future__ import annotations

import pytest
from flask import Flask

from kiosk.parlor.store.registry import ParlorStore
from kiosk.parlor.web.app import ParlorOptions, create_app
from kiosk.parlor.web.throttle import Clock, SignInThrottle, networks
from tests.kiosk.parlor.browser import Browser
from tests.kiosk.parlor.conftest import PASSWORD, STAFF, Staff

MEMBER_PASSWORD = "ana's own secret"


@pytest.fixture
def accounts(parlor_app: Flask, parlor_store: ParlorStore, staff: Staff) -> Flask:
    """alice (staff) and member 00001, Ana, with a password."""
    parlor_store.add_member("Ana")
    assert staff.post("/api/members/00001/password",
                      {"password": MEMBER_PASSWORD}).status_code == 200
    return parlor_app


def test_others_wrong_passwords_never_keep_the_right_one_out(accounts: Flask) -> None:
    guessers = [Browser(accounts, "203.0.113.1"), Browser(accounts, "203.0.113.2")]
    for i in range(20):  # the 20 from two addresses, at the staff and member sign-ins
        guesser = guessers[i % 2]
        assert guesser.sign_in(STAFF, f"guess {i:04d}").status_code in (403, 429)
        assert guesser.sign_in("00001", f"guess {i:04d}", "/api/member/login").status_code in (
            403, 429)
    assert guessers[0].sign_in(STAFF, PASSWORD).status_code == 429  # the guesser waits
    assert Browser(accounts, "192.0.2.21").sign_in(STAFF, PASSWORD).status_code == 200
    counter = Browser(accounts, "192.0.2.22").form_sign_in(STAFF, PASSWORD)
    assert counter.status_code == 302 and counter.location.endswith("/counter/")
    member = Browser(accounts, "192.0.2.23").sign_in("00001", MEMBER_PASSWORD,
                                                     "/api/member/login")
    assert member.status_code == 200


def test_a_guessing_address_is_slowed_never_locked(accounts: Flask) -> None:
    clock = Clock()
    accounts.extensions["parlor"].sign_ins = SignInThrottle(clock=clock)
    guesser = Browser(accounts, "203.0.113.7")
    for _ in range(5):  # a person's typos cost nothing
        assert guesser.sign_in(STAFF, "not the one").status_code == 403
    waits = []
    for _ in range(9):
        refused = guesser.sign_in(STAFF, PASSWORD)
        assert refused.status_code == 429  # not even checked: the right one waits too
        waits.append(refused.get_json()["retry_after"])
        clock.now += waits[-1]
        assert guesser.sign_in(STAFF, "not the one").status_code == 403
    assert waits == [1, 2, 4, 8, 16, 32, 60, 60, 60]
    form = guesser.form_sign_in(STAFF, PASSWORD)
    assert form.status_code == 429 and "try again in 60 s" in form.get_data(as_text=True)
    clock.now += 60
    assert guesser.sign_in(STAFF, PASSWORD).status_code == 200


def test_forwarded_addresses_count_only_from_a_trusted_proxy(parlor_store: ParlorStore,
                                                             parlor_app: Flask) -> None:
    parlor_store.add_staff(STAFF, PASSWORD)
    behind = create_app(parlor_store, ParlorOptions(trusted_proxies=networks(["127.0.0.1"])))
    for app, right in ((behind, 200), (parlor_app, 429)):  # all of them 127.0.0.1 to the parlor
        proxy = [Browser(app, "127.0.0.1") for _ in range(2)]
        for _ in range(6):
            proxy[0].send("/api/login", {"name": STAFF, "password": "wrong one"},
                          headers={"X-Forwarded-For": "198.51.100.1, 203.0.113.0"})
        assert proxy[0].send("/api/login", {"name": STAFF, "password": PASSWORD}, headers={
            "X-Forwarded-For": "203.0.113.0"}).status_code == 429
        # The staff member's own browser, through the same proxy:
        assert proxy[1].send("/api/login", {"name": STAFF, "password": PASSWORD}, headers={
            "X-Forwarded-For": "192.0.2.30"}).status_code == right


def test_a_wrong_password_costs_the_same_for_a_name_that_does_not_exist(
        accounts: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown name is checked against one fixed dummy hash: the same one scrypt of the same
    cost as a known name's wrong password, so the answer's time tells nothing (counted, not
    timed: a timing on a shared 2-core machine varies by half either way)."""
    import hashlib

    real, calls = hashlib.scrypt, []

    def counted(password: bytes, **cost: object) -> bytes:
        calls.append((cost["n"], cost["r"], cost["p"]))
        return real(password, **cost)  # type: ignore[arg-type]

    monkeypatch.setattr(hashlib, "scrypt", counted)
    fresh = iter(f"10.9.0.{i}" for i in range(1, 200))  # never throttled

    def cost_of(path: str, name: str) -> list[tuple[object, ...]]:
        calls.clear()
        answer = Browser(accounts, next(fresh)).sign_in(name, "wrong password", path)
        assert answer.status_code == 403
        return list(calls)

    for path, known, unknown in (("/api/login", STAFF, "mallory"),
                                 ("/api/member/login", "00001", "00077")):
        assert cost_of(path, unknown) == cost_of(path, known) == [(2**14, 8, 1)], path
