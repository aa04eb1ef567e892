"""Sign-ins that can be withdrawn (issue 35, item 7), the parlor's own cookie and Host check
(item 12), on a real store through the Flask test client: a cookie copied before a sign-out,
a new password, a removal or a member's deletion is worth nothing after it."""

from __future__ import annotations

from flask import Flask

from kiosk.parlor.__main__ import main
from kiosk.parlor.store.registry import ParlorStore
from kiosk.parlor.web.app import ParlorOptions, create_app
from tests.kiosk.parlor.browser import Browser
from tests.kiosk.parlor.conftest import PASSWORD, STAFF, Staff


def staff_browser(app: Flask, store: ParlorStore) -> Browser:
    store.add_staff(STAFF, PASSWORD)
    browser = Browser(app)
    assert browser.sign_in(STAFF, PASSWORD).status_code == 200
    return browser


def test_signing_out_ends_every_copy_of_the_cookie(parlor_app: Flask,
                                                   parlor_store: ParlorStore) -> None:
    browser = staff_browser(parlor_app, parlor_store)
    stolen = browser.copy()
    assert stolen.get("/api/tables").status_code == 200  # the copy works while she is in
    assert browser.send("/api/logout").status_code == 200
    assert stolen.get("/api/tables").status_code == 401
    assert stolen.send("/api/members", {"name": "Mallory"}).status_code == 401
    assert stolen.get("/counter/").status_code == 302  # to the sign-in form
    browser.csrf = browser.get("/api/session").get_json()["csrf"]
    assert browser.form_sign_in(STAFF, PASSWORD).status_code == 302  # the counter's pages
    stolen = browser.copy()
    assert stolen.get("/counter/").status_code == 200
    browser.csrf = stolen.csrf = browser.get("/api/session").get_json()["csrf"]
    assert browser.client.post("/counter/logout", base_url=browser.base,
                               data={"csrf": browser.csrf}).status_code == 302
    assert stolen.get("/counter/").status_code == 302
    assert stolen.send("/api/members", {"name": "Mallory"}).status_code == 401


def test_a_new_password_or_a_removal_ends_a_staff_members_sign_ins(
        parlor_app: Flask, parlor_store: ParlorStore, parlor_db: str) -> None:
    browser = staff_browser(parlor_app, parlor_store)
    stolen = browser.copy()
    parlor_store.add_staff(STAFF, "a new password", replace=True)  # add-staff --replace
    assert stolen.get("/api/tables").status_code == 401
    assert browser.get("/api/session").get_json()["staff"] is None
    assert browser.sign_in(STAFF, "a new password").status_code == 200
    assert browser.get("/api/tables").status_code == 200
    assert main(["--db", parlor_db, "remove-staff", STAFF]) == 0
    assert browser.get("/api/tables").status_code == 401
    assert browser.sign_in(STAFF, "a new password").status_code == 403
    assert main(["--db", parlor_db, "remove-staff", STAFF]) == 1  # no such staff now


def test_a_members_sign_in_ends_at_a_reset_and_a_deletion(parlor_app: Flask,
                                                          staff: Staff) -> None:
    assert staff.post("/api/members", {"name": "Ana"}).status_code == 201
    assert staff.post("/api/members/00001/password", {"password": "ana's one"}).status_code == 200
    ana = Browser(parlor_app, "192.0.2.40")
    assert ana.sign_in("00001", "ana's one", "/api/member/login").status_code == 200
    assert ana.get("/api/me").get_json()["name"] == "Ana"
    stolen = ana.copy()
    assert staff.post("/api/members/00001/password", {"password": "ana's two"}).status_code == 200
    assert stolen.get("/api/me").status_code == 401 and ana.get("/api/me").status_code == 401
    assert ana.sign_in("00001", "ana's two", "/api/member/login").status_code == 200
    stolen = ana.copy()
    assert staff.post("/api/members/00001", method="DELETE").status_code == 200
    # The number goes to somebody else, who gets a password of their own:
    assert staff.post("/api/members", {"name": "Bea", "number": "00001"}).status_code == 201
    assert staff.post("/api/members/00001/password", {"password": "bea's own"}).status_code == 200
    for old in (ana, stolen):
        assert old.get("/api/me").status_code == 401
        assert old.get("/api/members/00001/games").status_code == 401


def test_a_sign_in_lasts_a_playing_day(staff: Staff, parlor_store: ParlorStore) -> None:
    assert staff.get("/api/tables").status_code == 200
    with parlor_store.db.transaction() as tx:  # 12 hours on
        tx.run("UPDATE parlor_sessions SET expires = created")
    assert staff.get("/api/tables").status_code == 401


def test_the_parlor_has_a_cookie_of_its_own(parlor_app: Flask, parlor_store: ParlorStore) -> None:
    browser = staff_browser(parlor_app, parlor_store)
    cookie = browser.client.get_cookie("parlor_session", domain="192.0.2.1")
    assert cookie is not None and browser.client.get_cookie("session") is None  # the kiosk's
    answer = browser.sign_in(STAFF, PASSWORD)
    header = answer.headers["Set-Cookie"]
    assert header.startswith("parlor_session=") and "HttpOnly" in header
    assert "SameSite=Strict" in header and "Secure" not in header
    behind_tls = create_app(parlor_store, ParlorOptions(secure_cookie=True))
    header = Browser(behind_tls).sign_in(STAFF, PASSWORD).headers["Set-Cookie"]
    assert header.startswith("parlor_session=") and "; Secure" in header


def test_the_parlor_answers_only_its_own_names(parlor_app: Flask,
                                               parlor_store: ParlorStore) -> None:
    token = parlor_store.add_table("Table 1")
    client = parlor_app.test_client()
    for host in ("evil.example", "evil.example:8090"):  # a DNS-rebinding page's name
        answer = client.get("/api/session", headers={"Host": host})
        assert answer.status_code == 400
        assert answer.get_json()["error"].startswith(f"Host {host!r} is not a name of this parlor")
        posted = client.get("/api/tables/Table 1/members?q=a", headers={
            "Host": host, "Authorization": f"Bearer {token}"})
        assert posted.status_code == 400
    assert client.get("/counter/login", headers={"Host": "evil.example"}).status_code == 400
    for host in ("192.168.1.2:8090", "[::1]:8090", "localhost:8090"):
        assert client.get("/api/session", headers={"Host": host}).status_code == 200, host
    lan = Browser(parlor_app, "192.168.1.50")
    assert lan.client.get("/api/session", headers={"Host": "localhost"}).status_code == 400
    named = create_app(parlor_store, ParlorOptions(allowed_hosts=("parlor.lan",)))
    assert named.test_client().get("/api/session", headers={
        "Host": "parlor.lan:8090"}).status_code == 200
