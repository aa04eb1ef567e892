"""`python -m kiosk.parlor`: serve the parlor, or manage its staff and tables.

    python -m kiosk.parlor add-staff NAME          # asks for the password twice
    python -m kiosk.parlor remove-staff NAME       # ends their sign-ins too
    python -m kiosk.parlor add-table "Table 1"     # prints the table's token, once
    python -m kiosk.parlor revoke-table "Table 1"
    python -m kiosk.parlor serve --host 0.0.0.0 --port 8090

Every command takes ``--db`` (also PARLOR_DB): ``postgresql://...`` for real use, else SQLite,
by default ``parlor.sqlite3`` in the same user data folder as the kiosk's store. What it says,
``--help`` included, is in the kiosk's catalogues (``parlor.cli.*``), in the language of
``--language`` or the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), English by default;
its help is the rules core's command line's (`scorer.cli_help`: argparse's own words too).
"""

from __future__ import annotations

import argparse
import getpass
import logging
import os
import signal
import sys
from pathlib import Path

from kiosk.parlor.store.db import DatabaseError, open_database
from kiosk.parlor.store.quota import Quota
from kiosk.parlor.store.registry import ParlorError, ParlorStore
from kiosk.parlor.web.batch import MAX_BODY
from kiosk.words.i18n import t
from scorer.cli_help import help_words, language_in
from scorer.words import add_language_option

DEFAULT_PORT = 8090


def default_db() -> str:
    from kiosk.config import _default_data_dir

    return f"sqlite:///{Path(_default_data_dir()).expanduser() / 'parlor.sqlite3'}"


def parser(lang: str = "en") -> argparse.ArgumentParser:
    """The command line, its help in `lang`: the kiosk's ``parlor.cli.help.*``, argparse's own
    words the rules core's command line's (`scorer.cli_help.help_words`)."""
    formatter = help_words(lang)

    def said(key: str, **values: object) -> str:
        return t("parlor.cli.help." + key, lang, **values)

    p = argparse.ArgumentParser(prog="python -m kiosk.parlor", formatter_class=formatter,
                                description=said("description"))
    p.add_argument("--db", default=None, metavar="URL", help=said("db"))
    p.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                   help=said("log_level"))
    add_language_option(p, lang=lang)
    commands = p.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str) -> argparse.ArgumentParser:
        key = name.replace("-", "_")
        return commands.add_parser(name, help=said(key), description=said(key + ".description"),
                                   formatter_class=formatter)

    serve = command("serve")
    serve.add_argument("--host", default="127.0.0.1", metavar="ADDR", help=said("host"))
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="PORT",
                       help=said("port", default=DEFAULT_PORT))
    serve.add_argument("--threads", type=int, default=8, metavar="N", help=said("threads"))
    serve.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                       help=said("trusted_proxy"))
    serve.add_argument("--allowed-hosts", default="", metavar="NAMES",
                       help=said("allowed_hosts"))
    serve.add_argument("--secure-cookie", action="store_true", help=said("secure_cookie"))
    for option in ("games-per-hour", "games-per-day", "mb-per-hour", "mb-per-day"):
        default = getattr(Quota(), option.replace("-", "_"))
        serve.add_argument(f"--{option}", type=int, default=default, metavar="N",
                           help=said(option.replace("-", "_"), default=default))
    staff = command("add-staff")
    staff.add_argument("name", metavar="NAME")
    staff.add_argument("--password-stdin", action="store_true", help=said("password_stdin"))
    staff.add_argument("--replace", action="store_true", help=said("new_password"))
    command("remove-staff").add_argument("name", metavar="NAME")
    table = command("add-table")
    table.add_argument("name", metavar="NAME")
    table.add_argument("--replace", action="store_true", help=said("new_token"))
    command("revoke-table").add_argument("name", metavar="NAME")
    command("list-tables")
    for made in commands.choices.values():  # after a command's name too
        add_language_option(made, everywhere=True, lang=lang)
    return p


def _password(from_stdin: bool, lang: str) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass(t("parlor.cli.password", lang))
    if first != getpass.getpass(t("parlor.cli.again", lang)):
        raise ParlorError(t("parlor.cli.passwords_differ", lang), 400)
    return first


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _serve(store: ParlorStore, args: argparse.Namespace, lang: str) -> int:
    from kiosk.config import KioskConfig
    from kiosk.parlor.web.app import ParlorOptions, create_app
    from kiosk.parlor.web.throttle import networks
    from kiosk.serve.live import LiveUpdates
    from kiosk.serve.server import build_server, raise_open_files_limit

    if not 0 < args.port < 65536 or not 4 <= args.threads <= 64:
        print(t("parlor.cli.port_threads", lang), file=sys.stderr)
        return 2
    try:
        proxies = networks(p for value in args.trusted_proxy for p in value.split(","))
    except ValueError as error:
        print(t("parlor.cli.trusted_proxy", lang, error=error), file=sys.stderr)
        return 2
    quota = Quota(args.games_per_hour, args.games_per_day, args.mb_per_hour, args.mb_per_day)
    if not all(1 <= n <= 1_000_000 for n in (quota.games_per_hour, quota.games_per_day,
                                             quota.mb_per_hour, quota.mb_per_day)):
        print(t("parlor.cli.quota", lang), file=sys.stderr)
        return 2
    hosts = tuple(h.strip().lower() for h in args.allowed_hosts.split(",") if h.strip())
    options = ParlorOptions(trusted_proxies=proxies, allowed_hosts=hosts,
                            secure_cookie=args.secure_cookie, quota=quota)
    # The kiosk's server (uvicorn + a2wsgi, with its per-address caps and request deadlines)
    # serves the parlor too; its configuration only needs the listener's values.
    listen = KioskConfig(host=args.host, port=args.port, threads=args.threads,
                         max_upload_mb=MAX_BODY // 2**20, allowed_hosts=",".join(hosts))
    server = build_server(listen, create_app(store, options), LiveUpdates())
    raise_open_files_limit()
    logging.getLogger("kiosk.parlor").info("parlor on http://%s:%s/", args.host, args.port)
    signal.signal(signal.SIGTERM, _interrupt)  # systemd's stop: shut down like Ctrl-C
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    except SystemExit:
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    lang = language_in(argv)  # before the parser is built, so that --help speaks it too
    args = parser(lang).parse_args(argv)
    logging.basicConfig(level=args.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    url = args.db or os.environ.get("PARLOR_DB") or default_db()
    try:
        store = ParlorStore(open_database(url))
    except (DatabaseError, ParlorError) as error:
        print(t("parlor.cli.no_database", lang, error=error), file=sys.stderr)
        return 2
    try:
        command = args.command or "serve"
        if command == "serve":
            if args.command is None:  # the serve options' defaults
                args = parser(lang).parse_args([*(argv or sys.argv[1:]), "serve"])
            return _serve(store, args, lang)
        if command == "add-staff":
            store.add_staff(args.name, _password(args.password_stdin, lang),
                            replace=args.replace)
            print(t("parlor.cli.staff_added", lang, name=repr(args.name)))
        elif command == "remove-staff":
            store.remove_staff(args.name)
            print(t("parlor.cli.staff_removed", lang, name=repr(args.name)))
        elif command == "add-table":
            token = store.add_table(args.name, replace=args.replace)
            print(t("parlor.cli.table_added", lang, name=repr(args.name), token=token))
        elif command == "revoke-table":
            store.revoke_table(args.name)
            print(t("parlor.cli.table_revoked", lang, name=repr(args.name)))
        elif command == "list-tables":
            for table in store.tables():
                state = t("parlor.cli.revoked" if table.revoked else "parlor.cli.active", lang)
                print(f"{table.name}\t{state}\t{table.created}")
        return 0
    except ParlorError as error:
        print(t("parlor.cli.error", lang, error=error), file=sys.stderr)
        return 1
    finally:
        store.close()


if __name__ == "__main__":
    sys.exit(main())
