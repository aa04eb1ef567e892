"""Checks on events that need no game state: seats, values, combinations the rules forbid.

Each failure is an `IllegalEvent` naming the field, e.g. ``hands[1].winner``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scorer import limits
from scorer.limits import Range, brief
from scorer.rules import Chips, RedFives, Ruleset, Stakes, Uma
from scorer.table.events import SEATS, ExhaustiveDraw, GameStarted, IllegalEvent, Transfer, Win

MAX_FU = limits.FU.high
VALID_FU = frozenset({20, 25, *range(30, MAX_FU + 1, 10)})


def check_int(value: Any, field: str, minimum: int | None = None,
              bounds: Range = limits.POINTS) -> int:
    """A whole number within `bounds` (and at least `minimum`)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalEvent(f"expected a whole number, got {brief(value)}", field=field)
    if minimum is not None and value < minimum:
        raise IllegalEvent(f"must be at least {minimum}, got {brief(value)}", field=field)
    problem = limits.number_problem(value, bounds)
    if problem:
        raise IllegalEvent(problem, field=field)
    return value


def check_text(value: Any, field: str, max_length: int) -> str:
    problem = limits.text_problem(value, max_length)
    if problem:
        raise IllegalEvent(problem, field=field)
    return str(value)


def check_reason(value: Any, what: str) -> str:
    """The reason of a correction or an early end: said, bounded, printable."""
    reason = check_text(value, "reason", limits.REASON_LENGTH)
    if not reason.strip():
        raise IllegalEvent(what, field="reason")
    return reason


def check_seat(value: Any, field: str, seats: int = SEATS) -> int:
    """A seat of a table of `seats` (4, or 3 at a three-player table)."""
    seat = check_int(value, field)
    if not 0 <= seat < seats:
        raise IllegalEvent(f"no seat {seat}: seats are 0-{seats - 1}", field=field)
    return seat


def check_seats(values: Iterable[Any], field: str, seats: int = SEATS) -> None:
    if not isinstance(values, frozenset | set | tuple | list):
        raise IllegalEvent(f"expected a set of seats, got {brief(values)}", field=field)
    for value in values:
        check_seat(value, field, seats)


def check_start(event: GameStarted) -> None:
    if not isinstance(event.rules, Ruleset):
        raise IllegalEvent("expected a Ruleset", field="rules")
    # The rules first: they say how many sit at the table.
    check_rules(event.rules)
    seats = event.rules.players
    if not isinstance(event.players, tuple) or len(event.players) != seats:
        got = len(event.players) if isinstance(event.players, tuple) else brief(event.players)
        raise IllegalEvent(f"{event.rules.name} seats {seats} players, got {got}",
                           field="players")
    for i, name in enumerate(event.players):
        if not isinstance(name, str) or not name.strip():
            raise IllegalEvent(f"a player needs a name, got {brief(name)}", field=f"players[{i}]")
        check_text(name, f"players[{i}]", limits.NAME_LENGTH)
    check_seat(event.first_dealer, "first_dealer", seats)


def check_rules(rules: Ruleset) -> None:
    """Every number and name of a ruleset within `scorer.limits` (a record brings its own)."""
    check_text(rules.name, "rules.name", limits.LABEL_LENGTH)
    for name, bounds in limits.RULE_OPTIONS.items():
        check_int(getattr(rules, name), f"rules.{name}", bounds=bounds)
    if len(rules.pao) > limits.LABELS:
        raise IllegalEvent(f"at most {limits.LABELS} names", field="rules.pao")
    for label in rules.pao:
        check_text(label, "rules.pao", limits.LABEL_LENGTH)
    check_uma(rules.uma, rules.players)
    if not isinstance(rules.red_fives, RedFives) or not isinstance(rules.chips, Chips):
        raise IllegalEvent("expected RedFives and Chips (`Ruleset.with_options` converts a bool "
                           "for red_fives)", field="rules.red_fives")
    for suit, count in zip("mps", rules.red_fives.counts, strict=True):
        check_int(count, f"rules.red_fives.{suit}", bounds=limits.RED_FIVES)
    chips = rules.chips
    for name in ("red_five", "ura", "ippatsu", "yakuman_ron", "yakuman_tsumo"):
        check_int(getattr(chips, name), f"rules.chips.{name}", bounds=limits.CHIPS)
    check_int(chips.tsumo_factor, "rules.chips.tsumo_factor", bounds=limits.CHIP_FACTOR)
    if not isinstance(rules.stakes, Stakes):
        raise IllegalEvent("expected Stakes", field="rules.stakes")
    for name in ("rate", "chip", "game_fee", "top_fee"):
        check_int(getattr(rules.stakes, name), f"rules.stakes.{name}", bounds=limits.MONEY)


def check_uma(uma: Uma, players: int = SEATS) -> None:
    """One uma a player (1st to last), each within bounds."""
    rows = [("rules.uma.fixed", uma.fixed)]
    for above, values in uma.floating:
        check_int(above, "rules.uma.floating", bounds=Range(1, players))
        rows.append((f"rules.uma.floating.{above}", values))
    for field, values in rows:
        if len(values) != players:
            raise IllegalEvent(f"{players} players need {players} uma values, got "
                               f"{len(values)}", field=field)
        for i, value in enumerate(values):
            check_int(value, f"{field}[{i}]", bounds=limits.UMA)


def check_win(event: Win, rules: Ruleset) -> None:
    seats = rules.players
    hands = event.hands
    if not isinstance(hands, tuple) or not hands:
        raise IllegalEvent("a win needs at least one winning hand", field="hands")
    if event.discarder is None:
        if len(hands) != 1:
            raise IllegalEvent("a tsumo has one winner; rons need the discarder", field="hands")
    else:
        check_seat(event.discarder, "discarder", seats)
        if len(hands) > seats - 1:
            raise IllegalEvent(f"at most {seats - 1} players can ron one discard",
                               field="hands")
    seen: set[int] = set()
    for i, hand in enumerate(hands):
        where = f"hands[{i}]"
        winner = check_seat(hand.winner, f"{where}.winner", seats)
        if winner == event.discarder:
            raise IllegalEvent("the discarder cannot ron their own discard",
                               field=f"{where}.winner")
        if winner in seen:
            raise IllegalEvent(f"seat {winner} wins twice", field=f"{where}.winner")
        seen.add(winner)
        yakuman = check_int(hand.yakuman, f"{where}.yakuman", 0, limits.YAKUMAN)
        han = check_int(hand.han, f"{where}.han", 0 if yakuman else 1, limits.HAN)
        fu = check_int(hand.fu, f"{where}.fu", 0, limits.FU)
        if not yakuman and han < 5 and fu not in VALID_FU:
            raise IllegalEvent(f"{fu} fu is not a hand's fu (20, 25, 30, 40 ... {MAX_FU})",
                               field=f"{where}.fu")
        _check_pao(hand.liable, hand.liable_yakuman, winner, yakuman, rules, where)
        if check_int(hand.chips, f"{where}.chips", 0, limits.CHIPS) and not rules.chips.pays:
            raise IllegalEvent(f"{rules.name} pays no chips", field=f"{where}.chips")
        if hand.hand is not None:
            check_text(hand.hand, f"{where}.hand", limits.HAND_TEXT_LENGTH)
        if hand.breakdown is not None:
            _check_breakdown(hand.breakdown, f"{where}.breakdown")


def _check_breakdown(breakdown: Any, field: str) -> None:
    if not isinstance(breakdown, Mapping):
        raise IllegalEvent("expected a mapping", field=field)
    found = limits.json_value_problem(dict(breakdown))
    if found:
        path, problem = found
        raise IllegalEvent(problem, field=field if path == "." else f"{field}.{path}")


def _check_pao(liable: Any, units: Any, winner: int, yakuman: int, rules: Ruleset,
               where: str) -> None:
    if liable is None:
        if units is not None:
            raise IllegalEvent("liable_yakuman needs a liable player",
                               field=f"{where}.liable_yakuman")
        return
    seat = check_seat(liable, f"{where}.liable", rules.players)
    if seat == winner:
        raise IllegalEvent("the winner cannot be liable for their own hand",
                           field=f"{where}.liable")
    if not rules.pao:
        raise IllegalEvent(f"{rules.name} plays without pao", field=f"{where}.liable")
    if not yakuman:
        raise IllegalEvent("pao applies to yakuman only", field=f"{where}.liable")
    if units is not None:
        check_int(units, f"{where}.liable_yakuman", 1, limits.YAKUMAN)
        if units > yakuman:
            raise IllegalEvent(f"the hand has only {yakuman} yakuman",
                               field=f"{where}.liable_yakuman")


def check_draw(event: ExhaustiveDraw, rules: Ruleset) -> None:
    check_seats(event.tenpai, "tenpai", rules.players)
    check_seats(event.nagashi, "nagashi", rules.players)
    if event.nagashi and not rules.nagashi_mangan:
        raise IllegalEvent(f"{rules.name} plays without nagashi mangan", field="nagashi")


def check_transfer(transfer: Transfer, where: str, seats: int = SEATS) -> None:
    payer = check_seat(transfer.payer, f"{where}.payer", seats)
    payee = check_seat(transfer.payee, f"{where}.payee", seats)
    if payer == payee:
        raise IllegalEvent("a transfer goes from one player to another", field=f"{where}.payee")
    check_int(transfer.points, f"{where}.points", 1, limits.PAYMENT)
