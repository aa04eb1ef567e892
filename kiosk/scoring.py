"""From a win request to table events: score the tiles (or take quick han/fu/points), build the
`Win` event, and preview exactly what each seat would pay before anything is applied.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kiosk import checks, winspec
from kiosk.errors import ApiError, from_invalid
from kiosk.scorer_adapter import breakdown_of, furiten_breakdown, score
from kiosk.winspec import WinSpec
from scorer.hand import InvalidInput
from scorer.limits import FU, HAN, POINTS, YAKUMAN, Range
from scorer.points import HandValue
from scorer.rules import Ruleset
from scorer.table import TableState, Win, WinningHand
from scorer.table_validate import VALID_FU
from scorer.tiles import format_tiles
from scorer.waits import is_furiten, winning_kinds


@dataclass(frozen=True, slots=True)
class Scored:
    """One winner's hand, ready for the table, with its breakdown for the screen and history."""

    spec: WinSpec
    hand: WinningHand
    breakdown: dict[str, Any]
    hand_text: str | None = None


def _label(value: HandValue, dealer: bool, tsumo: bool) -> str:
    if value.real_yakuman:
        head = f"{value.real_yakuman}x yakuman" if value.real_yakuman > 1 else "yakuman"
    else:
        head = f"{value.han} han {value.fu} fu"
        if value.limit.value:
            head += f" {value.limit.value}"
    if tsumo:
        from_dealer, from_other = value.tsumo(dealer)
        pay = f"{from_other:,} all" if dealer else f"{from_other:,}/{from_dealer:,}"
    else:
        pay = f"{value.ron(dealer):,}"
    return f"{head} — {pay} ({value.total(dealer, tsumo):,})"


def quick_value(quick: dict[str, Any], rules: Ruleset, dealer: bool, tsumo: bool) -> HandValue:
    """Han and fu (or yakuman count), or the points the hand was worth."""
    unknown = sorted(set(quick) - {"han", "fu", "yakuman", "points"})
    if unknown:
        raise ApiError(400, f"quick: unknown field(s): {', '.join(unknown)}")

    def whole(name: str, bounds: Range, default: int | None = None) -> int:
        return checks.whole(quick.get(name, default), f"quick.{name}", bounds)

    if "points" in quick:
        points = whole("points", Range(0, POINTS.high))
        for han in range(1, 14):
            for fu in sorted(VALID_FU):
                value = HandValue.of(han, fu, rules)
                if value.total(dealer, tsumo) == points:
                    return value
        for yakuman in range(1, 7):
            value = HandValue.of(13, 0, rules, yakuman)
            if value.total(dealer, tsumo) == points:
                return value
        how = "tsumo" if tsumo else "ron"
        who = "dealer" if dealer else "non-dealer"
        raise ApiError(422, f"quick.points: no hand is worth {points:,} for a {who} {how}")
    yakuman = whole("yakuman", YAKUMAN, 0)
    if yakuman:
        return HandValue.of(13, 0, rules, yakuman)
    han, fu = whole("han", HAN), whole("fu", FU, 30)
    if han < 1:
        raise ApiError(422, "quick.han: a winning hand has at least 1 han")
    if fu not in VALID_FU:
        raise ApiError(422, f"quick.fu: {fu} is not a fu value (20, 25, 30, 40 ... 140)")
    return HandValue.of(han, fu, rules)


def score_spec(spec: WinSpec, state: TableState, lang: str = "en") -> Scored:
    """Score one winner; a hand that does not win raises 422 saying why plainly."""
    rules = state.rules
    dealer = spec.winner == state.dealer
    if spec.quick is not None:
        quick = quick_value(spec.quick, rules, dealer, spec.tsumo)
        breakdown = {"is_win": True, "quick": True, "yaku": [], "dora": 0, "han": quick.han,
                     "fu": quick.fu, "fu_items": [], "yakuman": quick.real_yakuman,
                     "limit": quick.limit.value, "points": quick.total(dealer, spec.tsumo),
                     "summary": _label(quick, dealer, spec.tsumo)}
        return Scored(spec, WinningHand.of(spec.winner, quick, liable=spec.pao,
                                           breakdown=breakdown), breakdown)
    hand, dora, ura, discards = winspec.build_hand(spec)
    context = winspec.context(spec, state, dora, ura)
    problems = context.problems(hand)
    if problems:
        raise ApiError(422, "the situation is not possible", [str(p) for p in problems])
    text = f"{format_tiles(hand.concealed)} win {hand.win_tile}" + "".join(
        f" [{m}]" for m in hand.melds)
    waiting = list(hand.concealed)
    waiting.remove(hand.win_tile)
    if not spec.tsumo and discards and is_furiten(waiting, discards, hand.melds):
        seen = next(t for t in discards if t.kind in set(winning_kinds(waiting, hand.melds)))
        return Scored(spec, WinningHand(spec.winner, 0, 0), furiten_breakdown(str(seen)), text)
    try:
        result = score(hand, context, rules)
    except InvalidInput as e:
        raise from_invalid(e) from None
    breakdown = breakdown_of(result, lang)
    if not breakdown["is_win"] or result.value is None:
        return Scored(spec, WinningHand(spec.winner, 0, 0), breakdown, text)
    value: HandValue = result.value
    breakdown["summary"] = _label(value, dealer, spec.tsumo)
    liable_yakuman = None
    if spec.pao is not None:
        liable_yakuman = sum(u for y, u in result.yakuman if y in rules.pao)
        if not liable_yakuman:
            raise ApiError(422, "pao: liability applies only to "
                           f"{', '.join(sorted(rules.pao)) or 'nothing'} under {rules.name}, "
                           "and this hand has none of them")
    return Scored(spec, WinningHand.of(spec.winner, value, liable=spec.pao,
                                       liable_yakuman=liable_yakuman, hand=text,
                                       breakdown=breakdown), breakdown, text)


def win_event(scored: Sequence[Scored]) -> Win:
    """One `Win` from one tsumo or the rons on one discard; refuses a mix."""
    discarders = {s.spec.discarder for s in scored}
    if len(discarders) != 1:
        raise ApiError(400, "wins: every ron in one event is on the same discard")
    discarder = discarders.pop()
    if discarder is None and len(scored) > 1:
        raise ApiError(400, "wins: a tsumo has one winner")
    winners = [s.spec.winner for s in scored]
    if len(set(winners)) != len(winners):
        raise ApiError(400, "wins: a seat wins once per discard")
    return Win(tuple(s.hand for s in scored), discarder)
