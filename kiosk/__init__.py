"""The kiosk: the Flask application beside the table, and the wiring of scorer, vision and device.

`python -m kiosk` (kiosk/__main__.py) is the one composition root: configuration
(`kiosk.config`), services (`kiosk.services`: event store, game, camera, recogniser, captures,
serial display, live updates, security), `kiosk.app.create_app(config, services)` with the page
blueprint (`kiosk.views`) and the JSON API (`kiosk.api`, documented in docs/api.md), served by
`kiosk.server` (uvicorn in front, live updates on its event loop). Importing this package
opens nothing.
"""
