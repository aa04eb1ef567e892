"""`python -m device`: try the table's hardware without the kiosk.

The serial display: `display-sim` plays a display on a pseudo-terminal; `display-send` shows a
state on any display. Cameras: `cameras` lists them, `capture` saves a still.
"""

# Each subcommand lives in its own module exposing `add_arguments(parser)` and `run(args) -> int`.

from __future__ import annotations

import argparse
import importlib
import logging
import sys

COMMANDS = {
    "display-sim": ("device.display.sim",
                    "open a pseudo-terminal and show what a table display would show"),
    "display-send": ("device.display.cli_send",
                     "send a table state to a display (a real one, or display-sim) and print "
                     "its replies"),
    "cameras": ("device.camera.cli_list", "list the cameras this machine has"),
    "capture": ("device.camera.cli_capture", "take a still from a camera and save it as JPEG"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m device", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-v", "--verbose", action="store_true", help="log what the device "
                        "layer does (connects, reconnects, camera state)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    modules = {}
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(module_name)
        modules[name] = module
        command = sub.add_parser(name, help=help_text, description=module.__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(command)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return int(modules[args.command].run(args))


if __name__ == "__main__":
    sys.exit(main())
