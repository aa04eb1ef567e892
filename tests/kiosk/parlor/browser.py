"""A browser of the parlor from a given address (the Flask test client), and a copy of its
cookies as someone who took them would hold them."""

from __future__ import annotations

from typing import Any

from flask import Flask


class Browser:
    """Requests from `address`, naming the parlor by that address (its Host check allows any
    address), with the session's CSRF token as the counter's pages send it."""

    def __init__(self, app: Flask, address: str = "192.0.2.10") -> None:
        self.client = app.test_client()
        self.client.environ_base["REMOTE_ADDR"] = address
        self.base = "http://192.0.2.1:8090"
        self.csrf = self.get("/api/session").get_json()["csrf"]

    def get(self, path: str, **kw: Any) -> Any:
        return self.client.get(path, base_url=self.base, **kw)

    def send(self, path: str, json: Any = None, method: str = "POST", **kw: Any) -> Any:
        headers = {"X-CSRF-Token": self.csrf, **kw.pop("headers", {})}
        return self.client.open(path, method=method, json=json, base_url=self.base,
                                headers=headers, **kw)

    def sign_in(self, name: str, password: str, path: str = "/api/login") -> Any:
        field = "number" if path == "/api/member/login" else "name"
        answer = self.send(path, {field: name, "password": password})
        if answer.status_code == 200:
            self.csrf = answer.get_json()["csrf"]
        return answer

    def form_sign_in(self, name: str, password: str) -> Any:
        """The counter's sign-in form (its CSRF token is the session's)."""
        return self.client.post("/counter/login", base_url=self.base, data={
            "csrf": self.csrf, "name": name, "password": password})

    def copy(self, address: str = "198.51.100.9") -> Browser:
        """Another browser holding this one's cookies (copied before whatever comes next)."""
        other = Browser.__new__(Browser)
        other.client = self.client.application.test_client()
        other.client.environ_base["REMOTE_ADDR"] = address
        other.base, other.csrf = self.base, self.csrf
        for cookie in self.client._cookies.values():
            other.client.set_cookie(cookie.key, cookie.value, domain=cookie.domain,
                                    path=cookie.path)
        return other
