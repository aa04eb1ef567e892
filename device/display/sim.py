"""`python -m device display-sim`: a reference display on a pseudo-terminal.

It opens a pty pair, prints the port's path (point the kiosk's `display` option at it), and
shows what a display would show. It answers the host's `RTQ` with a hello and acknowledges
every frame, as a real display may; `--honba-only` plays a two-digit honba counter. People
building a display can compare their device with it; the tests drive the real link against it.
"""

from __future__ import annotations

import argparse
import os
import select
import signal
import sys
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from device.display.protocol import (
    Ack,
    Capability,
    Hello,
    HonbaFrame,
    LineReader,
    ProtocolError,
    Query,
    StateFrame,
    decode,
    encode,
)
from device.display.state import WIND_LETTERS, DisplayState

WIND_NAMES = ("East", "South", "West", "North")


def render(state: DisplayState) -> list[str]:
    """The full display as text lines (the reference layout).

    >>> print("\\n".join(render(DisplayState(2, 3, 1, 2, 2, (31000, 18000, 25000, 26000),
    ...                                      (False, True, False, False)))))
    +------------------------------+
    | South 3   honba 1  sticks 2  |
    |  seat 0        31000         |
    |  seat 1        18000  riichi |
    |  seat 2 dealer 25000         |
    |  seat 3        26000         |
    +------------------------------+

    A three-player table (an `RTC` frame) shows its three seats, and no empty fourth:

    >>> print("\\n".join(render(DisplayState(1, 3, 1, 0, 2, (43900, 33700, 27400),
    ...                                      (False,) * 3))))
    +------------------------------+
    | East 3    honba 1  sticks 0  |
    |  seat 0        43900         |
    |  seat 1        33700         |
    |  seat 2 dealer 27400         |
    +------------------------------+
    """
    head = f"{WIND_NAMES[state.round_wind - 1]} {state.hand_number}"
    lines = [f"{head:<9} honba {state.honba:<2} sticks {state.riichi_sticks:<2}"]
    for seat in range(state.seats):
        dealer = "dealer" if seat == state.dealer else ""
        riichi = "riichi" if state.riichi[seat] else ""
        lines.append(f" seat {seat} {dealer:<6} {state.points[seat]:>5}  {riichi:<6}")
    width = max(len(line) for line in lines)
    border = "+" + "-" * (width + 2) + "+"
    return [border, *(f"| {line:<{width}} |" for line in lines), border]


def summary(message: StateFrame | HonbaFrame) -> str:
    """One greppable line per frame, for logs and `--plain`."""
    if isinstance(message, HonbaFrame):
        return f"seq={message.seq} honba={message.honba:02d}"
    s = message.state
    return (f"seq={message.seq} round={WIND_LETTERS[s.round_wind - 1]}{s.hand_number} "
            f"honba={s.honba} sticks={s.riichi_sticks} dealer={s.dealer} "
            f"points={','.join(map(str, s.points))} "
            f"riichi={''.join('1' if r else '0' for r in s.riichi)}")


class SimDisplay:
    """The display end of a pty pair: decodes frames, replies, and hands them to `show`."""

    def __init__(self, *, name: str = "RiichiSim", honba_only: bool = False, ack: bool = True,
                 show: Callable[[StateFrame | HonbaFrame], None] = lambda m: None) -> None:
        caps = {Capability.HONBA_ONLY if honba_only else Capability.FULL}
        if ack:
            caps.add(Capability.ACK)
        self.hello = Hello(name, frozenset(caps))
        self.ack, self.honba_only = ack, honba_only
        self.show = show
        self.garbled = 0
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo, no CR/LF translation before the host configures it
        self.path = os.ttyname(self._slave)
        self._lines = LineReader()

    def say_hello(self) -> None:
        """Announce ourselves, as a display does when it boots."""
        self._send(encode(self.hello))

    def poll(self, timeout: float) -> int:
        """Handle what arrives within `timeout`; return the number of frames shown."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return 0
        try:
            data = os.read(self.master, 4096)
        except OSError:
            return 0  # no host has the port open right now
        shown = 0
        for line in self._lines.feed(data):
            try:
                message = decode(line)
            except ProtocolError:
                self.garbled += 1
                continue
            if isinstance(message, Query):
                self.say_hello()
            elif isinstance(message, StateFrame) and self.honba_only:
                continue  # a two-digit display does not read RTA; the host resends RTB
            elif isinstance(message, StateFrame | HonbaFrame):
                if self.ack:
                    self._send(encode(Ack(message.seq)))
                self.show(message)
                shown += 1
        return shown

    def _send(self, data: bytes) -> None:
        try:
            os.write(self.master, data)
        except OSError:
            pass  # the host went away; it asks again (RTQ) when it is back

    def close(self) -> None:
        for fd in (self.master, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass


class Screen:
    """Shows frames: redraws a box on a terminal, one line per changed frame otherwise."""

    def __init__(self, out: TextIO, plain: bool) -> None:
        self.out, self.plain = out, plain
        self._last: object = None

    def __call__(self, message: StateFrame | HonbaFrame) -> None:
        content = message.state if isinstance(message, StateFrame) else message.honba
        stamp = time.strftime("%H:%M:%S")
        if self.plain:
            if content != self._last:  # heartbeats repeat the state; print changes only
                print(f"{stamp} {summary(message)}", file=self.out, flush=True)
        else:
            if isinstance(message, StateFrame):
                body = render(message.state)
            else:
                body = ["+---------+", f"| honba {message.honba:02d}|", "+---------+"]
            print("\x1b[H\x1b[2J" + "\n".join(body), file=self.out)
            print(f"last frame {stamp} seq {message.seq}", file=self.out, flush=True)
        self._last = content


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--link", metavar="PATH", type=Path,
                        help="also make PATH a symlink to the port, like the udev rule's "
                             "/dev/riichi-display (removed on exit)")
    parser.add_argument("--name", default="RiichiSim", help="name sent in the hello")
    parser.add_argument("--honba-only", action="store_true",
                        help="play a two-digit honba counter (asks for RTB frames)")
    parser.add_argument("--no-ack", action="store_true", help="do not acknowledge frames")
    parser.add_argument("--plain", action="store_true",
                        help="one line per changed frame instead of redrawing the terminal "
                             "(the default when output is not a terminal)")
    parser.add_argument("--frames", type=int, metavar="N",
                        help="exit after showing N frames (for scripts and tests)")


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    out = sys.stdout
    screen = Screen(out, plain=args.plain or not out.isatty())
    sim = SimDisplay(name=args.name, honba_only=args.honba_only, ack=not args.no_ack,
                     show=screen)
    if args.link:
        args.link.unlink(missing_ok=True)
        args.link.symlink_to(sim.path)
    where = args.link or sim.path
    print(f"display-sim: port {sim.path} (run the kiosk with --display {where})",
          file=out, flush=True)
    shown = 0
    if threading.current_thread() is threading.main_thread():
        # `kill` / systemd stop it like Ctrl+C does (port closed, symlink removed); a shell
        # script's background job ignores SIGINT, so SIGTERM is how scripts stop it
        signal.signal(signal.SIGTERM, _interrupt)
    try:
        sim.say_hello()
        while args.frames is None or shown < args.frames:
            shown += sim.poll(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()
        if args.link and args.link.is_symlink():
            args.link.unlink()
    return 0
