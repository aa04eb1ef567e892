"""The parlor: one server for many tables, and each kiosk's outbox towards it.

Laid out as the kiosk is, by layer:

- `web/` is the parlor server (`python -m kiosk.parlor serve`): `app` (the factory, its guard and
  one error handler), `context` (what a view reads: services, body, signed-in staff), `views_*`
  (the kiosks' bearer-token endpoint, staff's and the statistics' JSON, the counter's pages with
  `pages`), `batch` (what a kiosk posts, parsed at the edge, naming the field of anything wrong),
  `sessions` (server-side sign-ins), `throttle` (wrong passwords and member look-ups slowed),
  `access` (who may read what) and `query` (the checked parameters);
- `store/` is its database: `db` (SQLite for a trial, PostgreSQL by URL, one transaction API),
  `registry` (tables with their token digests, staff, members), `ledger` (every game's events as
  each kiosk recorded them, idempotent by table, game and index), `results` (each game's result
  per seat, a cache of its replay), `settings` (time zone, fee, seasons), `auth` (password and
  token hashing, names from outside);
- `standings/` is what the counter reads from them: `live` (each table's latest game replayed),
  `stats` (members' figures and the boards), `rating` (Tenhou's R), `reports` (the day's games,
  the CSV report);
- `link/` is the kiosk's side (`python -m kiosk --parlor-url ...`): `outbox` (the background
  sender) with `outbox_state` (its position in the kiosk's own store), `client` (the HTTP calls:
  events, the new-game form's member search) and `cards` (the member card's QR format, printed at
  the counter, read by a kiosk's camera).

See docs/parlor.md.
"""
