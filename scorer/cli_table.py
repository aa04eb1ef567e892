"""`python -m scorer table replay RECORD.json`: replay a game record and print where it stands.

Prints each player's points, the hand, honba, riichi sticks and (with --history) every event's
payments; for a finished game, the standings with uma and oka and the final scores rounded as the
rules round them (`Ruleset.final_rounding`). A record that cannot be read is reported with the
event and field at fault, exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path

from scorer.rules import FinalRounding
from scorer.table import (
    ENDED_AT_TABLE,
    AbortiveDraw,
    Chombo,
    Correction,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    RecordError,
    RiichiDeclared,
    TableState,
    Win,
    WinningHand,
    apply,
    events_from_record,
    parse_json,
)
from scorer.table.settlement import rons_paid
from scorer.words import SCORER, add_language_option, language, pad

_ROUNDING = {
    FinalRounding.THOUSAND_HALF_UP: "half_up",
    FinalRounding.THOUSAND_HALF_DOWN: "half_down",
}


def _words(lang: str) -> Callable[..., str]:
    """`t(key, **values)`: the entry ``cli.table.<key>`` in `lang`."""
    return lambda key, **values: SCORER.t("cli.table." + key, lang, **values)


def add_arguments(parser: argparse.ArgumentParser, lang: str = "en") -> None:
    def h(key: str) -> str:
        return SCORER.t("cli.help.table." + key, lang)

    sub = parser.add_subparsers(dest="table_command", required=True, metavar="ACTION")
    replay = sub.add_parser("replay", help=h("replay"), description=h("replay_description"),
                            formatter_class=parser.formatter_class)
    replay.add_argument("record", type=Path, help=h("record"))
    replay.add_argument("--history", action="store_true", help=h("history"))
    add_language_option(replay, everywhere=True, lang=lang)


def run(args: argparse.Namespace) -> int:
    name = str(args.record)
    lang = language(getattr(args, "language", None))
    try:
        text = sys.stdin.read() if name == "-" else args.record.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(SCORER.t("cli.table.no_read", lang, name=name, error=error), file=sys.stderr)
        return 2
    try:
        events, _ = events_from_record(parse_json(text))
    except RecordError as error:
        print(SCORER.t("cli.error", lang, problem=f"{name}: {error}"), file=sys.stderr)
        return 2
    print(render(events, history=args.history, lang=lang))
    return 0


def render(events: Sequence[Event], history: bool = False, lang: str = "en") -> str:
    """Where the game of `events` stands, in `lang`; in English, as it always was (the history
    as `HistoryRow` has it, the rules core's ids for its reasons and kinds)."""
    t = _words(lang)

    def right(text: str, width: int) -> str:
        return pad(text, width, right=True)

    state, said = history_words(events, lang)
    lines = [t("rules", rules=state.rules.name)]
    if state.finished and state.ended is not None:
        lines.append(t("finished", reason=t("end." + state.ended.value), label=label(state, lang)))
    else:
        lines.append(t("playing", label=label(state, lang), dealer=state.players[state.dealer],
                       sticks=state.sticks))
    if history:
        lines.append("")
        lines.append(f"{'#':>3}  {pad(t('hand'), 18)} {pad(t('changes'), 31)} {t('event')}")
        for row, (hand, what) in zip(state.history, said, strict=True):
            changes = " ".join(f"{d:+7d}" if d else f"{'.':>7}" for d in row.deltas)
            lines.append(f"{row.index:>3}  {pad(hand, 18)} {changes:<31} {what}")
    lines.append("")
    if state.standings:
        # The rounding column only where the rules round, so an exact table reads as before.
        rounds = state.rules.final_rounding is not FinalRounding.EXACT
        lines.append(f"{pad(t('rank'), 5)} {pad(t('player'), 16)} {right(t('points'), 7)} "
                     + (f"{right(t('round'), 6)} " if rounds else "")
                     + f"{right(t('uma'), 6)} {right(t('oka'), 6)} {right(t('penalty'), 8)} "
                     f"{right(t('score'), 7)}")
        for s in state.standings:
            lines.append(f"{s.rank:<5} {pad(s.name, 16)} {s.points:>7} "
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
            lines.append(f"{pad(wind, 6)} {pad(name, 16)} {points:>7}{riichi}")
    return "\n".join(lines)


def label(state: TableState, lang: str = "en") -> str:
    """The hand being played: "East 1, 0 honba", 東1局 0本場, 东1局 0本场."""
    return SCORER.t("cli.table.label", lang, wind=SCORER.t(f"wind.{state.round_wind.value}", lang),
                    hand=state.hand_number, honba=state.honba)


def history_words(events: Sequence[Event],
                  lang: str = "en") -> tuple[TableState, list[tuple[str, str]]]:
    """The game of `events` and, for each row of its history, the hand the event happened in
    and the event, in `lang`. The English is the rules core's `HistoryRow` word for word
    (tests/scorer/test_cli_languages.py holds them equal)."""
    t = _words(lang)
    rows: list[tuple[str, str]] = []
    state: TableState | None = None
    for event in events:
        after = apply(state, event)
        what = _what(event, state or after, lang)
        if after.ended is not None:
            what = t("game_over", what=what, reason=t("end." + after.ended.value))
        rows.append((label(state or after, lang), what))
        state = after
    if state is None:
        raise ValueError("a game needs at least its game_started event")
    return state, rows


def _what(event: Event, state: TableState, lang: str) -> str:
    """One event in words; `state` is the one it happened in (the first for `GameStarted`)."""
    t = _words(lang)

    def names(seats: Sequence[int] | frozenset[int]) -> str:
        return t("names_separator").join(state.players[s] for s in sorted(seats))

    if isinstance(event, GameStarted):
        return t("started", rules=event.rules.name)
    if isinstance(event, RiichiDeclared):
        return t("declared", who=state.players[event.seat])
    if isinstance(event, Win):
        paid = rons_paid(event, state.rules)
        if paid is None:  # three rons where the rules abort the hand
            return t("triple_ron")
        hands = t("hands_separator").join(_hand(hand, state, lang) for hand in paid)
        if event.discarder is None:
            return t("tsumo", hands=hands)
        return t("ron", hands=hands, discarder=state.players[event.discarder])
    if isinstance(event, ExhaustiveDraw):
        if event.nagashi:
            return t("nagashi", who=names(event.nagashi))
        return t("tenpai", who=names(event.tenpai)) if event.tenpai else t("noten")
    if isinstance(event, AbortiveDraw):
        return t("abort", kind=t("abort." + event.kind.value))
    if isinstance(event, Chombo):
        return t("chombo", who=state.players[event.seat],
                 penalty=t("chombo." + state.rules.chombo.value))
    if isinstance(event, Correction):
        return t("correction", reason=event.reason)
    if isinstance(event, GameEnded):  # a reason typed at the table is said as typed
        return t("ended", reason=t("ended_at_table") if event.reason == ENDED_AT_TABLE
                 else event.reason)
    raise TypeError(f"not an event: {type(event).__name__}")


def _hand(hand: WinningHand, state: TableState, lang: str) -> str:
    """A winning hand: who won, what it was worth, who was liable (pao)."""
    t = _words(lang)
    winner = state.players[hand.winner]
    units = hand.value(state.rules).real_yakuman
    said = (t("won", winner=winner, han=hand.han, fu=hand.fu) if not units
            else t("won_yakuman", winner=winner) if units == 1
            else t("won_yakumans", winner=winner, n=units))
    return said if hand.liable is None else t("pao", hand=said, liable=state.players[hand.liable])


def _signed(value: Fraction) -> str:
    return f"{float(value):+.1f}" if value else "0"
