"""The parlor's database: its schema, tables, staff and members, every game's events and results,
and its settings."""
