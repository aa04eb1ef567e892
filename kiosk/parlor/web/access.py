"""Who may read what: staff see everything; a signed-in member sees their own statistics and
games and the public leaderboards, nothing else.

A member signs in with their number and a password that staff set for them
(``POST /api/members/<number>/password``); it is kept as a scrypt hash like a staff password. A
member's sign-in is a server-side session like staff's (`kiosk.parlor.web.sessions`), never both at
once, so one browser at the counter is either staff's or a member's.
"""

from __future__ import annotations

from kiosk.errors import ApiError
from kiosk.parlor.store import auth
from kiosk.parlor.store.db import Database
from kiosk.parlor.store.registry import Member, ParlorError, end_sessions, now
from kiosk.parlor.web import sessions
from kiosk.parlor.web.context import parlor, staff_name


def set_member_password(db: Database, member: Member, password: object) -> None:
    if not isinstance(password, str) or auth.password_problem(password):
        raise ParlorError(f"password: a password has {auth.PASSWORD_MIN}-{auth.PASSWORD_MAX} "
                          "characters", 400, "password")
    hashed = auth.hash_password(password)
    with db.transaction() as tx:
        tx.run("DELETE FROM parlor_member_logins WHERE member_id = ?", (member.id,))
        tx.run("INSERT INTO parlor_member_logins VALUES (?, ?, ?)", (member.id, hashed, now()))
        end_sessions(tx, member_id=member.id)  # a reset password ends the old sign-ins


def check_member(db: Database, member: Member | None, password: object) -> bool:
    """The same work whether or not the member exists or has a password."""
    stored = None
    if member is not None:
        with db.transaction() as tx:
            rows = tx.rows("SELECT password FROM parlor_member_logins WHERE member_id = ?",
                           (member.id,))
        stored = rows[0][0] if rows else None
    ok = auth.check_password(password, stored or auth.dummy_hash())
    return ok and stored is not None


def signed_in_member() -> Member | None:
    found = sessions.current(parlor().store.db)
    return None if found is None else found.member


def is_staff() -> bool:
    try:
        staff_name()
    except ApiError:
        return False
    return True


def staff_or_member(number: str) -> None:
    """Staff, or the member `number` themselves; else 401 (nobody) or 403 (another member)."""
    if is_staff():
        return
    member = signed_in_member()
    if member is None:
        raise ApiError(401, "sign in first (staff: POST /api/login, a member: POST "
                       "/api/member/login)", needs_login=True)
    if member.number != number:
        raise ApiError(403, "a member sees only their own statistics and games")


def anyone_signed_in() -> None:
    """Staff or any member: the public boards."""
    if not is_staff() and signed_in_member() is None:
        raise ApiError(401, "sign in first (staff: POST /api/login, a member: POST "
                       "/api/member/login)", needs_login=True)
