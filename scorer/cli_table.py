"""`python -m scorer table replay RECORD.json`: replay a game record and print where it stands.

Prints each player's points, the hand, honba, riichi sticks and (with --history) every event's
payments; for a finished game, the standings with uma and oka and the final scores rounded as the
rules round them (`Ruleset.final_rounding`). A record that cannot be read is reported with the
event and field at fault, exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from pathlib import Path

from scorer.rules import FinalRounding
from scorer.table import RecordError, TableState, events_from_record, parse_json

_ROUNDING = {
    FinalRounding.THOUSAND_HALF_UP: "points rounded to the thousand, 500 up",
    FinalRounding.THOUSAND_HALF_DOWN: "points rounded to the thousand, 500 down",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="table_command", required=True, metavar="ACTION")
    replay = sub.add_parser("replay", help="replay a JSON game record and print its state",
                            description="Replay a JSON game record (docs/game-record.md) and "
                                        "print the state; a finished game adds its standings.")
    replay.add_argument("record", type=Path, help="the game record (JSON), or - for stdin")
    replay.add_argument("--history", action="store_true",
                        help="also list every event with what it paid")


def run(args: argparse.Namespace) -> int:
    name = str(args.record)
    try:
        text = sys.stdin.read() if name == "-" else args.record.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"error: cannot read {name}: {error}", file=sys.stderr)
        return 2
    try:
        _, state = events_from_record(parse_json(text))
    except RecordError as error:
        print(f"error: {name}: {error}", file=sys.stderr)
        return 2
    print(render(state, history=args.history))
    return 0


def render(state: TableState, history: bool = False) -> str:
    lines = [f"rules: {state.rules.name}"]
    if state.finished and state.ended is not None:
        lines.append(f"finished ({state.ended.value}) after {state.label}")
    else:
        dealer = state.players[state.dealer]
        lines.append(f"{state.label}, dealer {dealer}, riichi sticks on the table: "
                     f"{state.sticks}")
    if history:
        lines.append("")
        lines.append(f"{'#':>3}  {'hand':<18} {'changes':<31} event")
        for row in state.history:
            changes = " ".join(f"{d:+7d}" if d else f"{'.':>7}" for d in row.deltas)
            lines.append(f"{row.index:>3}  {row.hand:<18} {changes:<31} {row.what}")
    lines.append("")
    if state.standings:
        # The rounding column only where the rules round, so an exact table reads as before.
        rounds = state.rules.final_rounding is not FinalRounding.EXACT
        lines.append(f"{'rank':<5} {'player':<16} {'points':>7} "
                     + (f"{'round':>6} " if rounds else "")
                     + f"{'uma':>6} {'oka':>6} {'penalty':>8} {'score':>7}")
        for s in state.standings:
            lines.append(f"{s.rank:<5} {s.name:<16} {s.points:>7} "
                         + (f"{_signed(s.rounding):>6} " if rounds else "")
                         + f"{_signed(s.uma):>6} {_signed(s.oka):>6} {_signed(-s.penalty):>8} "
                         f"{_signed(s.score):>7}")
        if rounds:
            lines.append(f"(final scores: {_ROUNDING[state.rules.final_rounding]}; first place "
                         "takes the rest)")
        if state.sticks:
            lines.append(f"({state.sticks} riichi stick(s) left on the table are lost)")
    else:
        for seat, (name, points) in enumerate(zip(state.players, state.points, strict=True)):
            riichi = "  riichi" if seat in state.riichi else ""
            lines.append(f"{state.seat_wind(seat).name.title():<6} {name:<16} {points:>7}"
                         f"{riichi}")
    return "\n".join(lines)


def _signed(value: Fraction) -> str:
    return f"{float(value):+.1f}" if value else "0"
