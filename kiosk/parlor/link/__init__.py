"""The kiosk's side of the parlor: its outbox and HTTP client, and the members' cards it reads."""
