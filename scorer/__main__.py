"""`python -m scorer`: score hands, replay game records, benchmark the scorer.

Each subcommand lives in its own module exposing `add_arguments(parser, lang)` and
`run(args) -> int`; the help and the output speak the catalogues' language (`scorer.words`).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from scorer.cli_help import closed_pipe_is_quiet, help_words, language_in
from scorer.words import SCORER, add_language_option

#: Each subcommand's module; its help is the catalogue's ``cli.help.<name>``.
COMMANDS = {"score": "scorer.cli_score", "table": "scorer.cli_table", "bench": "scorer.bench"}


def main(argv: list[str] | None = None) -> int:
    lang = language_in(argv)  # before the parsers are built, so that --help speaks it too
    formatter = help_words(lang)
    parser = argparse.ArgumentParser(prog="python -m scorer", formatter_class=formatter,
                                     description=SCORER.t("cli.help.scorer", lang))
    parser.add_argument("--version", action=_Version,
                        help=SCORER.t("cli.help.version", lang))
    add_language_option(parser, lang=lang)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    modules = {}
    for name, module_name in COMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name != module_name:
                raise
            continue
        modules[name] = module
        help_text = SCORER.t(f"cli.help.{name}", lang)
        command = sub.add_parser(name, help=help_text, description=help_text,
                                 formatter_class=formatter)
        module.add_arguments(command, lang)
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

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None,
                 **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(version())
        parser.exit()


if __name__ == "__main__":
    sys.exit(closed_pipe_is_quiet(main))
