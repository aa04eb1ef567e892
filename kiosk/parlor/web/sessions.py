"""Server-side sign-ins, as the kiosk keeps its PIN sessions: the signed cookie holds only a
random id, the database (`parlor_sessions`) holds its SHA-256 digest, who it signs in and until
when. So a sign-in can be withdrawn, for every copy of the cookie: signing out deletes its row;
a staff member's new password (``add-staff --replace``) or removal (``remove-staff``) and a
member's new password or deletion delete theirs (`ParlorStore.end_sessions`, in the same
transaction). A member's session names the member's internal id, never the number: a number
given to a new member after a deletion does not carry an old sign-in over.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import g, session

from kiosk.parlor.store import auth
from kiosk.parlor.store.db import Database
from kiosk.parlor.store.registry import Member, now
from kiosk.web.security import SESSION_TTL

_CURRENT = "parlor_signed_in"  # the request's sign-in, looked up once (flask.g)


@dataclass(frozen=True, slots=True)
class SignedIn:
    staff: str | None = None  # a staff member's name, or
    member: Member | None = None  # a member


def begin(db: Database, staff: str | None = None, member_id: int | None = None) -> str:
    """Sign this browser in (a new id: no fixation); returns the session's new CSRF token."""
    end(db)
    sid = secrets.token_urlsafe(32)
    expires = (datetime.now(UTC) + timedelta(seconds=SESSION_TTL)).isoformat(
        timespec="milliseconds")
    with db.transaction() as tx:
        tx.run("DELETE FROM parlor_sessions WHERE expires <= ?", (now(),))
        tx.run("INSERT INTO parlor_sessions (digest, staff, member_id, created, expires) VALUES "
               "(?, ?, ?, ?, ?)", (auth.token_digest(sid), staff, member_id, now(), expires))
    session["sid"], session["csrf"] = sid, secrets.token_urlsafe(24)
    g.pop(_CURRENT, None)
    return str(session["csrf"])


def current(db: Database) -> SignedIn | None:
    """Who this request's cookie signs in, if its session is live and its person still is."""
    if _CURRENT not in g:
        g.setdefault(_CURRENT, _look_up(db, session.get("sid")))
    found: SignedIn | None = g.get(_CURRENT)
    return found


def _look_up(db: Database, sid: object) -> SignedIn | None:
    if not isinstance(sid, str) or len(sid) > auth.TOKEN_MAX:
        return None
    with db.transaction() as tx:
        rows = tx.rows("SELECT f.name, m.id, m.number, m.name, m.created FROM parlor_sessions s "
                       "LEFT JOIN parlor_staff f ON f.name = s.staff "
                       "LEFT JOIN parlor_members m ON m.id = s.member_id "
                       "WHERE s.digest = ? AND s.expires > ?", (auth.token_digest(sid), now()))
    if not rows:
        return None
    staff, member_id, *member = rows[0]
    if staff is not None:
        return SignedIn(staff=str(staff))
    return None if member_id is None else SignedIn(member=Member(int(member_id), *member))


def end(db: Database) -> None:
    """Sign this browser out: its session's row goes, so a copy of the cookie is worth nothing."""
    sid = session.get("sid")
    if isinstance(sid, str):
        with db.transaction() as tx:
            tx.run("DELETE FROM parlor_sessions WHERE digest = ?", (auth.token_digest(sid),))
    session.clear()
    g.pop(_CURRENT, None)
