"""The parlor: one server for many tables, and each kiosk's outbox towards it.

Server side (`python -m kiosk.parlor`):

- `db` opens SQLite (the trial default) or PostgreSQL (by URL) behind one small transaction API;
- `store` keeps tables (name, token digest, revoked), staff (scrypt hashes) and members;
- `ledger` keeps every game's events as each kiosk recorded them, idempotent by (table, game,
  index), and `batch` parses what a kiosk posts, naming the field of anything wrong;
- `live` replays each table's latest game for the counter; `app` and `views_*` are the HTTP API;
  `auth` holds the password and token hashing, `sessions` the server-side sign-ins and
  `throttle` the limits on wrong passwords and member look-ups;
- `results` keeps each game's result per seat (a cache of its replay), `stats` the members'
  figures and the boards, `rating` Tenhou's R, `reports` the day's games and the CSV report,
  `settings` the time zone, fee and seasons, `query` the checked parameters, `access` who may
  read what (staff, a signed-in member); `views_stats` (JSON) and `views_counter` + `pages` (the
  counter's HTML) serve them;
- `cards` is the member card's QR format (printed at the counter, read by a kiosk's camera).

Kiosk side (`python -m kiosk --parlor-url ...`): `outbox` is the background sender, `outbox_state`
its position in the kiosk's own store, `client` the HTTP calls (events; the new-game form's
member search, `kiosk/api/members.py`). See docs/parlor.md.
"""
