"""`python -m scorer`: score hands, replay game records, benchmark the scorer.

Each subcommand lives in its own module exposing `add_arguments(parser)` and `run(args) -> int`.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = {
    "score": ("scorer.cli_score", "score a hand (or a JSONL file of hands) and explain it"),
    "table": ("scorer.cli_table", "replay a game record and print its state and standings"),
    "bench": ("scorer.bench", "measure hands per second against the `mahjong` library"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scorer", description=__doc__)
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


if __name__ == "__main__":
    sys.exit(main())
