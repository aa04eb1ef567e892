"""`python -m kiosk`: the one composition root. Read the configuration, build and start the
services, serve the app (kiosk.serve.server: uvicorn in front of Flask), and stop everything on the
way out."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import tempfile
from pathlib import Path

from kiosk import config as kiosk_config


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m kiosk",
        description="The Riichi table kiosk: a local web app that photographs, scores and tracks "
                    "a table's game. Options come from embedded defaults, then a TOML file "
                    "(--config or KIOSK_CONFIG), then KIOSK_* environment variables, then these "
                    "flags.")
    kiosk_config.add_arguments(p)
    p.add_argument("--log-level", default="INFO",
                   choices=["DEBUG", "INFO", "WARNING", "ERROR"], help="logging detail")
    return p


def data_dir_problem(folder: str) -> str | None:
    """Why the kiosk cannot keep its data in `folder` (made if missing), in one line; None
    when it can. Checked before anything opens a file there, so no traceback says it."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".kiosk-write-test-")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        return f"cannot use the data directory {folder}: {e.strerror or e}"
    return None


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: "
                        "%(message)s")
    log = logging.getLogger("kiosk")
    try:
        config = kiosk_config.load(args)
    except kiosk_config.ConfigError as e:
        print(f"configuration error: {e}", file=sys.stderr)
        return 2
    problem = data_dir_problem(config.data_dir)
    if problem:
        print(problem, file=sys.stderr)
        return 2

    from kiosk.serve.server import serve
    from kiosk.services import build_services
    from kiosk.web.app import create_app

    services = build_services(config)
    app = create_app(config, services)
    services.start()
    where = f"http://{config.host}:{config.port}/"
    log.info("kiosk on %s (data in %s, camera %s)", where, config.data_dir, config.camera)
    if config.parlor_url:
        log.info("sending this table's events to the parlor at %s as table %r (in the "
                 "background; the kiosk plays on without it)", config.parlor_url,
                 config.parlor_table)
    if config.listens_on_lan:
        log.info("listening beyond this machine: changes from other devices need the PIN "
                 "shown on the kiosk's screen")
    signal.signal(signal.SIGTERM, _interrupt)  # systemd's stop: shut down like Ctrl-C
    try:
        serve(config, app, services.live, services.camera)
    except KeyboardInterrupt:
        log.info("stopping")
    except SystemExit:  # uvicorn's answer to a port it cannot have (it logged why)
        log.error("cannot listen on %s:%s", config.host, config.port)
        return 1
    finally:
        services.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
