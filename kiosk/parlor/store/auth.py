"""Secrets: staff passwords (scrypt), table tokens (SHA-256) and names from outside.

Why two hashes: a password is chosen by a person and guessable, so it is stretched with scrypt
(memory-hard, in the standard library); a table token is 32 random bytes, which no dictionary
holds, so one SHA-256 is enough and keeps each kiosk's post cheap to check. Only hashes are
stored; a token is printed once, when the table is added.

>>> stored = hash_password("correct horse")
>>> check_password("correct horse", stored), check_password("wrong", stored)
(True, False)
>>> name_problem("Table 7"), name_problem("a/b")
(None, "'a/b': letters, digits, spaces, '.', '_' and '-' only, 1-40 characters")
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import re
import secrets

# scrypt cost: 2**14 x 8 x 1 takes ~50 ms and 16 MiB; a sign-in is rare, a guess expensive.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
PASSWORD_MIN, PASSWORD_MAX = 8, 200
TOKEN_MAX = 200  # characters of a bearer token read from a request
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}")


def name_problem(name: object) -> str | None:
    """None for a usable table or staff name (it appears in URLs and logs), else why not."""
    if isinstance(name, str) and NAME_RE.fullmatch(name) and name == name.strip():
        return None
    shown = repr(name)[:50]
    return f"{shown}: letters, digits, spaces, '.', '_' and '-' only, 1-40 characters"


def password_problem(password: str) -> str | None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return f"a password has {PASSWORD_MIN}-{PASSWORD_MAX} characters"
    return None


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def hash_password(password: str) -> str:
    """``scrypt$N$r$p$salt$hash`` (the parameters travel with the hash, so they can grow)."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8", "surrogatepass"), salt=salt, n=SCRYPT_N,
                            r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${_b64(salt)}${_b64(digest)}"


@functools.cache
def dummy_hash() -> str:
    """One fixed hash to check a password against when the name is unknown: the same work as
    for a known name (hashing a fresh one there too took twice as long and told names apart)."""
    return hash_password(secrets.token_urlsafe(16))


def check_password(password: object, stored: str) -> bool:
    """Constant-time check of a password against `hash_password`'s text; never raises."""
    if not isinstance(password, str) or len(password) > PASSWORD_MAX:
        return False
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt" or int(n) > 2**20 or int(r) > 32 or int(p) > 16:
            return False
        expected = base64.b64decode(digest)
        got = hashlib.scrypt(password.encode("utf-8", "surrogatepass"),
                             salt=base64.b64decode(salt), n=int(n), r=int(r), p=int(p),
                             dklen=len(expected), maxmem=2**26)
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, expected)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def bearer(header: str) -> str | None:
    """The token of an ``Authorization: Bearer ...`` header, or None."""
    if not header.startswith("Bearer "):
        return None
    token = header[len("Bearer "):].strip()
    return token if 0 < len(token) <= TOKEN_MAX else None
