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
from scorer.words import SCORER, add_language_option, language, pad

_ROUNDING = {
    FinalRounding.THOUSAND_HALF_UP: "half_up",
    FinalRounding.THOUSAND_HALF_DOWN: "half_down",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="table_command", required=True, metavar="ACTION")
    replay = sub.add_parser("replay", help="replay a JSON game record and print its state",
                            description="Replay a JSON game record (docs/game-record.md) and "
                                        "print the state; a finished game adds its standings.")
    replay.add_argument("record", type=Path, help="the game record (JSON), or - for stdin")
    replay.add_argument("--history", action="store_true",
                        help="also list every event with what it paid")
    add_language_option(replay, everywhere=True)


def run(args: argparse.Namespace) -> int:
    name = str(args.record)
    lang = language(getattr(args, "language", None))
    try:
        text = sys.stdin.read() if name == "-" else args.record.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(SCORER.t("cli.table.no_read", lang, name=name, error=error), file=sys.stderr)
        return 2
    try:
        _, state = events_from_record(parse_json(text))
    except RecordError as error:
        print(SCORER.t("cli.error", lang, problem=f"{name}: {error}"), file=sys.stderr)
        return 2
    print(render(state, history=args.history, lang=lang))
    return 0


def render(state: TableState, history: bool = False, lang: str = "en") -> str:
    """Where the game stands, in `lang`; the English columns are as they always were."""
    def t(key: str, **values: object) -> str:
        return SCORER.t("cli.table." + key, lang, **values)

    def right(text: str, width: int) -> str:
        return pad("", width - len(pad(text, 0))) + text

    lines = [t("rules", rules=state.rules.name)]
    if state.finished and state.ended is not None:
        lines.append(t("finished", reason=state.ended.value, label=state.label))
    else:
        lines.append(t("playing", label=state.label, dealer=state.players[state.dealer],
                       sticks=state.sticks))
    if history:
        lines.append("")
        lines.append(f"{'#':>3}  {pad(t('hand'), 18)} {pad(t('changes'), 31)} {t('event')}")
        for row in state.history:
            changes = " ".join(f"{d:+7d}" if d else f"{'.':>7}" for d in row.deltas)
            lines.append(f"{row.index:>3}  {row.hand:<18} {changes:<31} {row.what}")
    lines.append("")
    if state.standings:
        # The rounding column only where the rules round, so an exact table reads as before.
        rounds = state.rules.final_rounding is not FinalRounding.EXACT
        lines.append(f"{pad(t('rank'), 5)} {pad(t('player'), 16)} {right(t('points'), 7)} "
                     + (f"{right(t('round'), 6)} " if rounds else "")
                     + f"{right(t('uma'), 6)} {right(t('oka'), 6)} {right(t('penalty'), 8)} "
                     f"{right(t('score'), 7)}")
        for s in state.standings:
            lines.append(f"{s.rank:<5} {s.name:<16} {s.points:>7} "
                         + (f"{_signed(s.rounding):>6} " if rounds else "")
                         + f"{_signed(s.uma):>6} {_signed(s.oka):>6} {_signed(-s.penalty):>8} "
                         f"{_signed(s.score):>7}")
        if rounds:
            lines.append(t("rounding", rounding=t(_ROUNDING[state.rules.final_rounding])))
        if state.sticks:
            lines.append(t("sticks_lost", sticks=state.sticks))
    else:
        for seat, (name, points) in enumerate(zip(state.players, state.points, strict=True)):
            riichi = f"  {t('riichi')}" if seat in state.riichi else ""
            wind = SCORER.t(f"wind.{state.seat_wind(seat).value}", lang)
            lines.append(f"{pad(wind, 6)} {name:<16} {points:>7}{riichi}")
    return "\n".join(lines)


def _signed(value: Fraction) -> str:
    return f"{float(value):+.1f}" if value else "0"
