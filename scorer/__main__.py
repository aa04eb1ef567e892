"""`python -m scorer`: score hands, replay game records, benchmark the scorer.

Each subcommand lives in its own module exposing `add_arguments(parser)` and `run(args) -> int`.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable

from scorer.words import add_language_option

COMMANDS = {
    "score": ("scorer.cli_score", "score a hand (or a JSONL file of hands) and explain it"),
    "table": ("scorer.cli_table", "replay a game record and print its state and standings"),
    "bench": ("scorer.bench", "measure hands per second against the `mahjong` library and "
              "riichienv, through the CLI path and in-process"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorer", description=__doc__)
    parser.add_argument("--version", action=_Version)
    add_language_option(parser)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    modules = {}
    for name, (module_name, help_text) in COMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name != module_name:
                raise
            continue
        modules[name] = module
        command = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(command)
    args = parser.parse_args(argv)
    return int(modules[args.command].run(args))


def version() -> str:
    """`riichi-table-assistant 0.1.0, scorer: compiled (mypyc)` (or `pure Python`)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    from scorer.build_info import build

    try:
        number = installed("riichi-table-assistant")
    except PackageNotFoundError:
        number = "(not installed)"
    return f"riichi-table-assistant {number}, scorer: {build()}"


class _Version(argparse.Action):
    """--version, looked up only when asked for."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the version and which build runs: compiled (mypyc) or "
                         "pure Python")

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(version())
        parser.exit()


def closed_pipe_is_quiet(run: Callable[[], int]) -> int:
    """`run()`, but a reader that goes away (`| head`) ends us quietly, as it does a Unix tool:
    no traceback, exit status 141 (what a shell reports for a tool stopped by SIGPIPE)."""
    try:
        status = run()
        sys.stdout.flush()
    except BrokenPipeError:
        # Point stdout at devnull so that the interpreter's own flush at exit cannot fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status


if __name__ == "__main__":
    sys.exit(closed_pipe_is_quiet(main))
