"""One table's game as the kiosk runs it: its events, wins scored into events, rulesets as forms
and JSON, the game as JSON, the serial display fed."""
