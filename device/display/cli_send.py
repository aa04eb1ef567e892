"""`python -m device display-send URL`: show a table state on a display and report what it says.

URL is anything pyserial opens: /dev/riichi-display, /dev/ttyUSB0, /dev/pts/N (display-sim),
socket://host:port. The state is sent at once and then as a heartbeat until --seconds pass;
the display's hello, acknowledgements and the link state are printed.
"""

from __future__ import annotations

import argparse
import time

from device.display.state import WIND_LETTERS, DisplayState, DisplayStateError
from device.display.supervisor import DisplayStatus, DisplaySupervisor


def _round(text: str) -> tuple[int, int]:
    if len(text) != 2 or text[0].upper() not in WIND_LETTERS or text[1] not in "1234":
        raise argparse.ArgumentTypeError(f"round {text!r} is not like E1 ... N4")
    return WIND_LETTERS.index(text[0].upper()) + 1, int(text[1])


def _points(text: str) -> tuple[int, ...]:
    parts = text.split(",")
    if len(parts) not in (3, 4) or not all(p.lstrip("-").isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"points {text!r} are not four numbers a,b,c,d (or "
                                         "three, a,b,c, at a three-player table)")
    return tuple(map(int, parts))


def _riichi(text: str) -> tuple[bool, ...]:
    if len(text) not in (3, 4) or set(text) - {"0", "1"}:
        raise argparse.ArgumentTypeError(f"riichi {text!r} is not four 0/1 digits like 0100 "
                                         "(or three, like 010)")
    return tuple(ch == "1" for ch in text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", help="the display's port or URL")
    parser.add_argument("--baud", type=int, default=9600, help="baud rate (default 9600, 8N1)")
    parser.add_argument("--round", type=_round, default=(1, 1), metavar="E1",
                        help="round wind and hand number, E1 ... N4 (default E1)")
    parser.add_argument("--honba", type=int, default=0, help="honba count (default 0)")
    parser.add_argument("--sticks", type=int, default=0, help="riichi sticks on the table")
    parser.add_argument("--dealer", type=int, default=0, choices=range(4), help="dealer seat")
    parser.add_argument("--points", type=_points, default=None, metavar="A,B,C,D",
                        help="the four seats' points (default 25000 each); three, A,B,C, "
                             "show a three-player table (an RTC frame)")
    parser.add_argument("--riichi", type=_riichi, default=None, metavar="0000",
                        help="riichi flags of seats 0-3, e.g. 0100 (three digits at three "
                             "players)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="keep the link up this long (default 3)")


def run(args: argparse.Namespace) -> int:
    points = args.points or (25000,) * 4
    riichi = args.riichi or (False,) * len(points)
    try:
        state = DisplayState(round_wind=args.round[0], hand_number=args.round[1],
                             honba=args.honba, riichi_sticks=args.sticks, dealer=args.dealer,
                             points=points, riichi=riichi)
    except DisplayStateError as e:  # e.g. three points with four riichi flags
        print(f"display-send: {e}")
        return 2

    def show(status: DisplayStatus) -> None:
        extra = f" ({status.error})" if status.error else ""
        hello = f" display {status.display_name!r} {','.join(status.capabilities)}" \
            if status.display_name else ""
        print(f"{status.state.value}{hello}{extra}", flush=True)

    display = DisplaySupervisor(args.url, baudrate=args.baud, on_status=show)
    display.publish(state)
    display.start()
    time.sleep(args.seconds)
    final = display.status()
    display.stop()
    print(f"frames sent {final.frames_sent}, last ack {final.last_ack}, "
          f"garbled replies {final.garbled_replies}")
    return 0 if final.connected else 1
