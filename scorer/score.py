"""Score a winning hand: the reading that pays most, its yaku, dora, fu, limit and payments.

>>> from scorer.hand import Hand
>>> from scorer.context import Riichi, Wind, WinContext
>>> from scorer.rules import RULESETS
>>> from scorer.tiles import parse_tiles
>>> s = score(Hand.parse("234m456p22s345678s", win="8s"),
...           WinContext(tsumo=True, seat_wind=Wind.SOUTH, riichi=Riichi.RIICHI,
...                      dora_indicators=parse_tiles("1s")), RULESETS["tenhou"])
>>> s.yaku, s.dora, s.han, s.fu, s.points
((('menzen_tsumo', 1), ('riichi', 1), ('pinfu', 1), ('tanyao', 1)), 2, 6, 20, 12000)
>>> s.payment
Payment(ron=None, from_dealer=6000, from_non_dealer=3000, winner_gain=12000)
"""

from __future__ import annotations

import dataclasses
from typing import Final

from scorer.context import Blessing, WinContext
from scorer.decompose import Form, Reading, read
from scorer.dora import count_dora
from scorer.fu import fu
from scorer.hand import Hand, InvalidInput
from scorer.points import MANGAN_BASE, HandValue, Limit, base_points
from scorer.result import ChosenReading, Findings, Outcome, Payment, Score
from scorer.rules import RenhouValue, Ruleset
from scorer.shape import HandShape
from scorer.tiles import TILES, format_tiles
from scorer.validity import plainly_valid, rule_problems
from scorer.waits import winning_kinds
from scorer.yaku import Entries, found, hand_facts

__all__ = ["ChosenReading", "Outcome", "Payment", "Score", "nagashi_mangan", "score"]

#: Han reported for each yakuman unit (Tenhou reports a yakuman as 13 han).
YAKUMAN_HAN: Final = 13
# Enum members as module names (see scorer.shape: `Form.KOKUSHI` is slow under Python 3.11).
_WIN: Final = Outcome.WIN
_NO_YAKU: Final = Outcome.NO_YAKU
_NOT_A_WIN: Final = Outcome.NOT_A_WIN
_KOKUSHI: Final = Form.KOKUSHI
_RENHOU: Final = Blessing.RENHOU


def score(hand: Hand, context: WinContext, rules: Ruleset) -> Score:
    """Score `hand` won in `context` under `rules`.

    Raises `InvalidInput` with every problem of the hand and the context (and of the hand under
    the rules: with red fives, a set's fourth five is red). A hand that is not a winning shape,
    has no yaku, or robs a closed kan it may not, is a `Score` whose `outcome` says so.
    """
    shape = HandShape.of(hand)
    # The tally proves nearly every input valid in a few integer tests; anything it cannot goes
    # to the detailed checks, which name every problem.
    if not plainly_valid(shape, hand, context, rules):
        problems = (hand.problems() + context.problems(hand)
                    + rule_problems(hand, rules, context))
        if problems:
            raise InvalidInput(problems)
    result = _evaluate(shape, hand, context, rules)
    if not rules.atozuke and result.is_win and not _yaku_on_every_wait(hand, context, rules):
        return Score(dataclasses.replace(
            result.findings, outcome=_NO_YAKU,
            message="no yaku on every winning tile of this wait (atozuke is off: the yaku "
                    "must not depend on the winning tile)"))
    return result


def nagashi_mangan(rules: Ruleset) -> HandValue | None:
    """What nagashi mangan is worth at an exhaustive draw (paid like a mangan tsumo), if played."""
    return HandValue(MANGAN_BASE, 0, 5, 0, Limit.MANGAN) if rules.nagashi_mangan else None


def _why_no_robbing_ankan(r: Reading, rules: Ruleset) -> str:
    """Why this hand may not win by robbing a closed kan ("" when it may)."""
    if r.form is not _KOKUSHI:
        return ("not a legal win: only kokushi musou may rob a closed kan, and this hand is "
                "not kokushi")
    if not rules.kokushi_chankan_ankan:
        return ("not a legal win: these rules do not let kokushi musou rob a closed kan "
                "(kokushi_chankan_ankan is off)")
    return ""


def _yakuman_total(entries: Entries, rules: Ruleset) -> Entries:
    if rules.stacked_yakuman or len(entries) < 2:
        return entries
    return (max(entries, key=lambda e: e[1]),)


def _key(han: int, fu: int, units: int, rules: Ruleset) -> tuple[int, int, int, int]:
    """What decides between readings: base points, then real yakuman, then han, then fu."""
    return base_points(han, fu, rules, units)[0], units, han, fu


def _evaluate(shape: HandShape, hand: Hand, ctx: WinContext, rules: Ruleset) -> Score:
    """Score a validated hand: the best of every reading (no validation here)."""
    readings = read(shape, ctx.tsumo)
    if not readings:
        return Score(Findings(hand, ctx, rules, _NOT_A_WIN, message=(
            f"not a winning hand: {format_tiles(hand.concealed)} does not form four sets and a "
            "pair, seven distinct pairs or thirteen orphans")))
    first = readings[0]
    if ctx.chankan_of_ankan:
        illegal = _why_no_robbing_ankan(first, rules)
        if illegal:
            return Score(Findings(hand, ctx, rules, Outcome.ILLEGAL_CHANKAN, reading=first,
                                  message=illegal))
    facts = hand_facts(shape, ctx, rules)
    dora = count_dora(shape, ctx, rules, hand.kita)
    dora_han = dora.dora + dora.aka + dora.ura
    min_han = rules.min_han
    # (reading, yaku, han, fu, yakuman units) of the best reading so far: the one that pays most
    # (see `_key`). Nearly every hand has one reading, which needs no comparing.
    best: tuple[Reading, Entries, int, int, int] | None = None
    for r in readings:
        entries, han, is_yakuman = found(r, ctx, rules, facts)
        r_fu = fu(r, ctx, rules)
        if is_yakuman:
            entries = _yakuman_total(entries, rules)
            units = sum([u for _, u in entries])
            han = YAKUMAN_HAN * units
        else:
            if han < min_han or han == 0:
                continue
            units = 0
            han += dora_han
        if best is None or _key(han, r_fu, units, rules) > _key(*best[2:], rules):
            best = (r, entries, han, r_fu, units)
    if ctx.blessing is _RENHOU and rules.renhou is RenhouValue.MANGAN and (
            best is None or _key(*best[2:], rules)[0] < MANGAN_BASE):
        # Renhou as a mangan does not combine with other yaku or dora (the better one is paid).
        r = best[0] if best else first
        return Score(Findings(hand, ctx, rules, _WIN, yaku=(("renhou", 5),), han=5,
                              fu=fu(r, ctx, rules), reading=r))
    if best is None:
        return Score(Findings(hand, ctx, rules, _NO_YAKU, dora=dora, reading=first, message=(
            f"no yaku (at least {rules.min_han} han of yaku needed; dora do not count)")))
    r, entries, han, r_fu, units = best
    if units:
        return Score(Findings(hand, ctx, rules, _WIN, (), entries, dora, han, r_fu, r, ""))
    # found() lists the yaku in Tenhou's order.
    return Score(Findings(hand, ctx, rules, _WIN, entries, (), dora, han, r_fu, r, ""))


def _yaku_on_every_wait(hand: Hand, ctx: WinContext, rules: Ruleset) -> bool:
    """Without atozuke, every tile the hand waits on must give a yaku, not just the one won on."""
    rest = list(hand.concealed)
    rest.remove(hand.win_tile)
    with_atozuke = dataclasses.replace(rules, atozuke=True)
    for kind in winning_kinds(rest, hand.melds):
        if kind == hand.win_tile.kind:
            continue
        other = Hand((*rest, TILES[kind]), hand.melds, TILES[kind])
        if not _evaluate(HandShape.of(other), other, ctx, with_atozuke).is_win:
            return False
    return True
