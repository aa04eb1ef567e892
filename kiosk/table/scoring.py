"""From a win request to table events: score the tiles (or take quick han/fu/points), build the
`Win` event, and preview exactly what each seat would pay before anything is applied.

The breakdown explains every point in the table's language: yaku, dora, fu items in words and
their rounding, base points and limit, then who pays whom, honba and riichi sticks, from the
rules core's own numbers (`scorer.table.settlement`), so that the lines add up to each seat's
change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from kiosk.errors import ApiError, from_invalid, impossible
from kiosk.table import checks, win_tile, winspec
from kiosk.table.hand_tiles import hand_tiles
from kiosk.table.scorer_adapter import breakdown_of, furiten_breakdown, score
from kiosk.table.winspec import WinSpec
from kiosk.words.i18n import t
from kiosk.words.yaku_names import LIMIT_HAN, fu_words, hand_summary, limit_name, yaku_name
from scorer.chips import WinChips, win_chips
from scorer.context import WinContext, Wind
from scorer.hand import Hand, InvalidInput
from scorer.limits import FU, HAN, POINTS, YAKUMAN, Range
from scorer.points import HandValue, base_points, round_up
from scorer.rules import Ruleset
from scorer.table import TableState, Win, WinningHand
from scorer.table.settlement import hand_payment, rons_paid, turn_distance
from scorer.table.validation import VALID_FU
from scorer.tiles import format_tiles
from scorer.waits import is_furiten, winning_kinds


@dataclass(frozen=True, slots=True)
class Scored:
    """One winner's hand, ready for the table, with its breakdown for the screen and history."""

    spec: WinSpec
    hand: WinningHand
    breakdown: dict[str, Any]
    hand_text: str | None = None


# --- quick mode: only the han and fu a real hand can have ----------------------------------

#: The payment tables' fu (WRC 2015 annex A-2): 20, 25, then 30 to 110 in tens. More fu (up
#: to 140) needs three closed kans, so sankantsu and sanankou, 4 han and a mangan: no hand of 1
#: to 3 han passes 110 (checked by scoring every hand of two or more kans of eight kinds).
TABLE_FU = (20, 25, *range(30, 111, 10))
MORE_FU_FROM_HAN = 4
#: The one shape that has each of these fu, as its cheapest hand: 20 fu is pinfu tsumo (a
#: closed ron adds 10 fu, an open hand without fu counts 30), 25 fu is chiitoitsu.
# (No 2m-8m: the same hands are valid at a three-player table.)
_SHAPES = {20: ("123p456p789s55p234s", "4s"), 25: ("1199m5577p2244s66z", "6z")}
_WHY = {20: "20 fu is pinfu tsumo", 25: "25 fu is chiitoitsu"}


@lru_cache(maxsize=32)
def fewest_han(rules: Ruleset, fu: int, tsumo: bool) -> int | None:
    """The fewest han of a hand with `fu` won so under `rules`; None when there is none.

    Measured, not assumed: the cheapest hand of that fu is scored under these rules (with
    `min_han` 1, then the rules' `min_han` applies), so a rule that changed its fu or yaku
    would change the answer. Dora add han but never make a hand win, hence `min_han`.
    """
    floor = max(1, rules.min_han)
    if fu not in _SHAPES:
        return floor if fu <= TABLE_FU[-1] else max(floor, MORE_FU_FROM_HAN)
    concealed, win = _SHAPES[fu]
    result = score(Hand.parse(concealed, win), WinContext(tsumo=tsumo, seat_wind=Wind.SOUTH),
                   replace(rules, min_han=1))
    if not result.is_win or result.fu != fu:
        return None
    return max(floor, result.han)


def quick_problem(han: int, fu: int, tsumo: bool, rules: Ruleset) -> str | None:
    """Why no hand has `han` han and `fu` fu won so (the field named), or None."""
    if fu not in VALID_FU:
        return (f"quick.fu: {fu} is not a fu value (20, 25, or 30 to {TABLE_FU[-1]} in steps "
                "of 10)")
    least = fewest_han(rules, fu, tsumo)
    if least is not None and han >= least:
        return None
    how = "tsumo" if tsumo else "ron"
    head = f"quick.fu: {han} han {fu} fu {how} cannot happen: "
    if fu == 20 and least is None:
        return head + ("20 fu is pinfu tsumo (a closed ron has 10 fu more, 30; an open hand "
                       "without fu counts 30)")
    if fu in _WHY:
        least_text = "no hand" if least is None else f"at least {least} han"
        extra = " with menzen tsumo" if tsumo and fu == 25 else ""
        return head + f"{_WHY[fu]}, {least_text}{extra}"
    if fu > TABLE_FU[-1]:
        return head + (f"more than {TABLE_FU[-1]} fu needs three closed kans (sankantsu "
                       f"and sanankou), at least {least} han")
    return f"quick.han: these rules ({rules.name}) need at least {least} han to win"


def fu_choices(han: int, tsumo: bool, rules: Ruleset) -> list[int]:
    """The fu a hand of `han` won so can have: [] from 5 han (fu do not count there)."""
    if han >= LIMIT_HAN:
        return []
    return [fu for fu in sorted(VALID_FU) if quick_problem(han, fu, tsumo, rules) is None]


def quick_choices(rules: Ruleset, lang: str = "en") -> dict[str, Any]:
    """What the quick form offers under `rules`: per win type and han, the possible fu."""
    floor = max(1, rules.min_han)
    hans = list(range(floor, 14))
    return {
        "ruleset": rules.name, "han": hans, "limit_han": LIMIT_HAN,
        "fu": {how: {str(h): fu_choices(h, how == "tsumo", rules) for h in hans}
               for how in ("ron", "tsumo")},
        "limits": {str(h): limit_name(base_points(h, 0, rules)[1].value, lang)
                   for h in hans if h >= LIMIT_HAN},
    }


def quick_value(quick: dict[str, Any], rules: Ruleset, dealer: bool, tsumo: bool) -> HandValue:
    """Han and fu (fu not needed from 5 han), a yakuman count, or the points the hand was
    worth; a combination no hand can have is a 422 saying why."""
    checks.known_fields(quick, {"han", "fu", "yakuman", "points"}, "quick")

    def whole(name: str, bounds: Range, default: int | None = None) -> int:
        return checks.whole(quick.get(name, default), f"quick.{name}", bounds)

    if "points" in quick:
        points = whole("points", Range(0, POINTS.high))
        # The hand as entered: a count below the limits, else the limit itself at its own han
        # (8,000 for a non-dealer's ron is a mangan, 5 han; not 3 han 70 fu, which nobody said).
        for han in range(max(1, rules.min_han), 14):
            for fu in fu_choices(han, tsumo, rules) if han < LIMIT_HAN else [30]:
                value = HandValue.of(han, fu, rules)
                if value.total(dealer, tsumo, rules) == points and (
                        han >= LIMIT_HAN or not value.limit.value):
                    return value
        for yakuman in range(1, 7):
            value = HandValue.of(13, 0, rules, yakuman)
            if value.total(dealer, tsumo, rules) == points:
                return value
        how = "tsumo" if tsumo else "ron"
        who = "dealer" if dealer else "non-dealer"
        raise ApiError(422, f"quick.points: no hand is worth {points:,} for a {who} {how}",
                       code="quick_points", words={
                           "points": f"{points:,}", "how": f"t:quick.by_{how}",
                           "who": "t:err.dealer" if dealer else "t:err.non_dealer"})
    yakuman = whole("yakuman", YAKUMAN, 0)
    if yakuman:
        return HandValue.of(13, 0, rules, yakuman)
    han = whole("han", HAN)
    if han < 1:
        raise ApiError(422, "quick.han: a winning hand has at least 1 han", code="quick_no_han")
    fu = whole("fu", FU, 30)  # from 5 han fu do not count: 30 when not given
    problem = quick_problem(han, fu, tsumo, rules)
    if problem:
        least = fewest_han(rules, fu, tsumo)
        code = ("quick_fu" if fu not in VALID_FU else
                "quick_min_han" if problem.startswith("quick.han") else "quick_impossible")
        raise ApiError(422, problem, code=code, words={
            "han": han, "fu": fu, "least": least, "how": "t:quick.by_" + ("tsumo" if tsumo
                                                                         else "ron")})
    return HandValue.of(han, fu, rules)


# --- the breakdown's words -------------------------------------------------------------------

def _base(value: HandValue, lang: str) -> dict[str, Any]:
    """The base points and where they come from: fu x 2^(han + 2), or the limit."""
    limit = limit_name(value.limit.value, lang, value.real_yakuman)
    if value.real_yakuman or value.han >= LIMIT_HAN:
        text = t("base.limit", lang, limit=limit, base=f"{value.base:,}")
    else:
        raw = value.fu << (2 + value.han)
        key = "base.formula" if not value.limit.value else (
            "base.capped" if raw >= value.base else "base.kiriage")
        text = t(key, lang, fu=value.fu, han=value.han, raw=f"{raw:,}",
                 limit=limit.lower() if lang == "en" else limit, base=f"{value.base:,}")
    return {"points": value.base, "limit": value.limit.value, "text": text}


def _explain(breakdown: dict[str, Any], value: HandValue, lang: str,
             yakuman: Sequence[tuple[str, int]] = ()) -> None:
    """Adds to a winning breakdown: fu items in words and their total before and after rounding,
    each yakuman's name for its size, dora, red fives and ura dora as lines of their own, and
    the base points."""
    items = breakdown.get("fu_items", [])
    for item in items:
        item["text"] = fu_words(item["reason"], lang) or item["reason"]
    if items:
        raw = sum(item["fu"] for item in items)
        breakdown["fu_raw"] = raw
        breakdown["fu_text"] = (t("fu.total", lang, raw=raw, fu=breakdown["fu"])
                                if raw != breakdown["fu"] else
                                t("fu.total_even", lang, fu=breakdown["fu"]))
    units = dict(yakuman)
    for yaku in breakdown.get("yaku", []):
        if yaku["id"] in units:
            yaku["yakuman"] = units[yaku["id"]]
            yaku["han_text"] = limit_name("yakuman", lang, units[yaku["id"]])
    detail = breakdown.get("dora_detail") or {}
    breakdown["dora_lines"] = [] if breakdown.get("yakuman") else [
        {"id": name, "name": yaku_name(name, lang), "han": detail[key]}
        for key, name in (("dora", "dora"), ("aka", "aka_dora"), ("ura", "ura_dora"))
        if detail.get(key)]
    kita = breakdown.get("kita", 0)
    for line in breakdown["dora_lines"]:
        # The rules core counts kita under dora (one each, and again for each indicator that
        # points at North): the line says so, since no indicator explains them.
        if line["id"] == "dora" and kita:
            line["name"] = t("win.dora_kita", lang, dora=line["name"], n=kita)
    breakdown["base"] = _base(value, lang)
    breakdown["fu_counts"] = not value.real_yakuman and value.han < LIMIT_HAN


def score_spec(spec: WinSpec, state: TableState, lang: str = "en") -> Scored:
    """Score one winner; a hand that does not win raises 422 saying why plainly."""
    rules = state.rules
    dealer = spec.winner == state.dealer
    if spec.quick is not None:
        quick = quick_value(spec.quick, rules, dealer, spec.tsumo)
        entered = spec.quick.get("points")
        breakdown = {"is_win": True, "quick": True, "yaku": [], "dora": 0, "han": quick.han,
                     "fu": quick.fu, "fu_items": [], "yakuman": quick.real_yakuman,
                     "limit": quick.limit.value,
                     "points": quick.total(dealer, spec.tsumo, rules),
                     "summary": hand_summary(quick, dealer, spec.tsumo, lang, rules,
                                             entered=entered is not None)}
        if entered is not None:  # kept: the history says what was entered, not a han count
            breakdown["entered_points"] = breakdown["points"]
        _explain(breakdown, quick, lang)
        return Scored(spec, WinningHand.of(spec.winner, quick, liable=spec.pao,
                                           breakdown=breakdown), breakdown)
    if not (spec.hand or {}).get("win"):  # none set apart: where it makes no difference
        return win_tile.scored_any_win(spec, state, lang, score_spec)
    hand, dora, ura, discards = winspec.build_hand(spec, state)
    context = winspec.context(spec, state, dora, ura)
    problems = context.problems(hand)
    if problems:
        raise impossible("the situation is not possible", problems, "situation")
    text = f"{format_tiles(hand.concealed)} win {hand.win_tile}" + "".join(
        f" [{m}]" for m in hand.melds)
    waiting = list(hand.concealed)
    waiting.remove(hand.win_tile)
    if not spec.tsumo and discards and is_furiten(waiting, discards, hand.melds):
        seen = next(t for t in discards if t.kind in set(winning_kinds(waiting, hand.melds)))
        return Scored(spec, WinningHand(spec.winner, 0, 0), furiten_breakdown(str(seen), lang),
                      text)
    try:
        result = score(hand, context, rules)
    except InvalidInput as e:
        raise from_invalid(e) from None
    breakdown = breakdown_of(result, lang)
    if not breakdown["is_win"] or result.value is None:
        return Scored(spec, WinningHand(spec.winner, 0, 0), breakdown, text)
    value: HandValue = result.value
    # Kept with the record for the history's drawing: red fives and the sideways meld tile.
    breakdown["tiles"] = hand_tiles(hand, result.reading.groups if result.reading else None,
                                    dora, ura)
    breakdown["summary"] = hand_summary(value, dealer, spec.tsumo, lang, rules)
    _explain(breakdown, value, lang, result.yakuman)
    chips = win_chips(result)
    if rules.chips.pays:
        breakdown["chips"] = chips_json(chips, lang)
    liable_yakuman = None
    if spec.pao is not None:
        liable_yakuman = sum(u for y, u in result.yakuman if y in rules.pao)
        if not liable_yakuman:
            raise ApiError(422, "pao: liability applies only to "
                           f"{', '.join(sorted(rules.pao)) or 'nothing'} under {rules.name}, "
                           "and this hand has none of them", code="pao_none",
                           words={"yaku": ["yaku:" + y for y in sorted(rules.pao)]})
    return Scored(spec, WinningHand.of(spec.winner, value, liable=spec.pao,
                                       liable_yakuman=liable_yakuman, hand=text,
                                       breakdown=breakdown, chips=chips.each), breakdown, text)


def chips_json(chips: WinChips, lang: str) -> dict[str, Any]:
    """A win's chips (祝儀) for the breakdown: each reason and count, what each payer pays, and
    a line in words ("ura 1, aka 2: 3 chips from each")."""
    items = [{"what": i.what, "count": i.count, "chips": i.chips} for i in chips.items]
    if not chips.items:
        text = t("chips.none", lang)
    else:
        reasons = t("chips.join", lang).join(
            t(f"chips.{i.what}", lang, n=i.count) for i in chips.items)
        text = t("chips.from_each" if chips.tsumo else "chips.from_discarder", lang,
                 items=reasons, n=chips.each)
        if chips.factor != 1:
            text += t("chips.factor", lang, factor=chips.factor)
    return {"each": chips.each, "tsumo": chips.tsumo, "factor": chips.factor, "items": items,
            "text": text}


# --- who pays whom ---------------------------------------------------------------------------

def _seat_name(state: TableState, seat: int, lang: str) -> str:
    return t("seat.name", lang, name=state.players[seat],
             wind=t(f"wind.{state.seat_wind(seat).value}", lang))


def _times(hand: WinningHand, payer: int, dealer: int, tsumo: bool) -> int:
    """How many times the base points `payer` pays: ron 6 (dealer won) or 4; tsumo 2 from the
    dealer or to a dealer, else 1."""
    if not tsumo:
        return 6 if hand.winner == dealer else 4
    return 2 if dealer in (hand.winner, payer) else 1


def _hand_lines(hand: WinningHand, state: TableState, discarder: int | None, first: bool,
                lang: str) -> list[dict[str, Any]]:
    """One winner's payments: the hand from each payer, then honba, then the riichi sticks."""
    rules, dealer, winner = state.rules, state.dealer, hand.winner
    honba = state.honba if first else 0
    sticks = state.sticks if first else 0
    bare = hand_payment(hand, rules, dealer, discarder, 0, 0)
    with_honba = hand_payment(hand, rules, dealer, discarder, honba, 0)
    to = _seat_name(state, winner, lang)
    base = hand.value(rules).base
    lines = []
    for seat in sorted(range(len(bare)), key=lambda s: turn_distance(winner, s)):
        amount = -bare[seat]
        if amount <= 0:
            continue
        detail = t("pay.pao_liable" if seat == hand.liable else "pay.pao_rest", lang)
        if hand.liable is None:
            times = _times(hand, seat, dealer, discarder is None)
            raw = base * times
            detail = t("pay.formula" if raw == amount else "pay.formula_rounded", lang,
                       base=f"{base:,}", times=times, raw=f"{raw:,}")
            if round_up(raw) != amount:  # never: the table settles by the same formula
                detail = ""
        lines.append({"kind": "hand", "from": [seat], "to": winner, "each": amount,
                      "amount": amount, "detail": detail,
                      "text": t("pay.hand", lang, payer=_seat_name(state, seat, lang),
                                winner=to)})
    honba_paid = {s: bare[s] - with_honba[s] for s in range(len(bare))
                  if with_honba[s] < bare[s]}
    if honba_paid:
        payers = sorted(honba_paid, key=lambda s: turn_distance(winner, s))
        each = honba_paid[payers[0]]
        names = (t("pay.others", lang) if len(payers) == 3 else
                 ", ".join(_seat_name(state, s, lang) for s in payers))
        if len(payers) == 1:
            text = t("pay.honba", lang, payer=names, winner=to)
            detail = t("pay.honba_formula", lang, n=honba, value=f"{rules.honba_value:,}")
        else:
            text = t("pay.honba_each", lang, payers=names, winner=to)
            unit = rules.honba_value // len(payers)
            detail = (t("pay.honba_formula", lang, n=honba, value=f"{unit:,}") + " = "
                      if unit * len(payers) == rules.honba_value else "")
            detail += t("pay.each", lang, each=f"{each:,}")
        if all(v == each for v in honba_paid.values()):
            lines.append({"kind": "honba", "from": payers, "to": winner, "each": each,
                          "amount": sum(honba_paid.values()), "detail": detail, "text": text})
        else:  # an uneven split (a custom honba value): one line per payer
            lines.extend({"kind": "honba", "from": [s], "to": winner, "each": honba_paid[s],
                          "amount": honba_paid[s], "detail": "",
                          "text": t("pay.honba", lang, payer=_seat_name(state, s, lang),
                                    winner=to)} for s in payers)
    if sticks:
        amount = sticks * rules.riichi_stick
        lines.append({"kind": "sticks", "from": [], "to": winner, "each": 0, "amount": amount,
                      "text": t("pay.sticks", lang, winner=to),
                      "detail": t("pay.sticks_formula", lang, n=sticks,
                                  value=f"{rules.riichi_stick:,}")})
    return lines


def add_payment_lines(scored: Sequence[Scored], state: TableState, lang: str = "en") -> None:
    """Gives each winning breakdown its `payment_lines` (who pays whom for the hand, honba,
    riichi sticks), settled as the table settles them: they add up to each seat's change."""
    if not scored or not all(s.breakdown.get("is_win") for s in scored):
        return
    event = win_event(scored)
    paid = rons_paid(event, state.rules)
    by_winner = {s.spec.winner: s.breakdown for s in scored}
    for breakdown in by_winner.values():
        kind = "aborted" if paid is None else "not_paid"
        breakdown["payment_lines"] = [{"kind": kind, "from": [], "to": None, "each": 0,
                                       "amount": 0, "detail": "",
                                       "text": t(f"pay.{kind}", lang)}]
    for i, hand in enumerate(paid or ()):
        by_winner[hand.winner]["payment_lines"] = _hand_lines(hand, state, event.discarder,
                                                              i == 0, lang)


def win_event(scored: Sequence[Scored]) -> Win:
    """One `Win` from one tsumo or the rons on one discard; refuses a mix."""
    discarders = {s.spec.discarder for s in scored}
    if len(discarders) != 1:
        raise ApiError(400, "wins: every ron in one event is on the same discard",
                       code="wins_same_discard")
    discarder = discarders.pop()
    if discarder is None and len(scored) > 1:
        raise ApiError(400, "wins: a tsumo has one winner", code="wins_one_tsumo")
    winners = [s.spec.winner for s in scored]
    if len(set(winners)) != len(winners):
        raise ApiError(400, "wins: a seat wins once per discard", code="wins_twice")
    return Win(tuple(s.hand for s in scored), discarder)
