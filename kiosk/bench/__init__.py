"""The kiosk's and the parlor's benchmarks, apart from the runtime packages: each runs as
`python -m kiosk.bench.<name>` (`capture`, `live`, `parlor`)."""
