"""The event store: every game's events in SQLite or PostgreSQL, with the receipts of keyed
changes and the followers' marks kept beside them."""
