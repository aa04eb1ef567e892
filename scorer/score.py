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
from dataclasses import dataclass
from enum import Enum
from typing import Any

from scorer.context import Blessing, WinContext
from scorer.decompose import Form, HandShape, Reading, Wait, read
from scorer.dora import DoraCount, count_dora
from scorer.fu import FuItem, fu, fu_items
from scorer.hand import Hand, InvalidInput
from scorer.points import MANGAN_BASE, HandValue, Limit, base_points
from scorer.rules import RenhouValue, Ruleset
from scorer.tiles import TILES, format_tiles
from scorer.waits import winning_kinds
from scorer.yaku import HAND_YAKU, HAND_YAKUMAN, READING_YAKU, READING_YAKUMAN, found, tenhou_order

__all__ = ["ChosenReading", "Outcome", "Payment", "Score", "nagashi_mangan", "score"]

#: Han reported for each yakuman unit (Tenhou reports a yakuman as 13 han).
YAKUMAN_HAN = 13


class Outcome(Enum):
    WIN = "win"
    NO_YAKU = "no yaku"  # a winning shape without a yaku (dora do not count): not a legal win
    NOT_A_WIN = "not a winning hand"  # the tiles do not form a winning shape


@dataclass(frozen=True, slots=True)
class Payment:
    """Who pays what for this win, honba included; `winner_gain` adds the riichi sticks.

    A ron fills `ron` (paid by the discarder). A tsumo fills `from_non_dealer` (each non-dealer)
    and, when the winner is not the dealer, `from_dealer`.
    """

    ron: int | None
    from_dealer: int | None
    from_non_dealer: int | None
    winner_gain: int


@dataclass(frozen=True, slots=True)
class ChosenReading:
    """The interpretation that was scored: concealed groups (pair last), melds and the wait.

    Built from the internal `Reading`; the strings are made only when asked for.
    """

    reading: Reading
    hand: Hand

    @property
    def form(self) -> Form:
        return self.reading.form

    @property
    def wait(self) -> Wait:
        return self.reading.wait

    @property
    def groups(self) -> tuple[str, ...]:
        return self.reading.groups()

    @property
    def melds(self) -> tuple[str, ...]:
        return tuple(str(m) for m in self.hand.melds)

    @property
    def win_group(self) -> str:
        return self.reading.win_group_tiles()

    def __str__(self) -> str:
        melds = "".join(f" [{m}]" for m in self.melds)
        return f"{' '.join(self.groups)}{melds} ({self.wait.value} wait on {self.win_group})"


@dataclass(frozen=True, slots=True)
class Score:
    """A scored hand. `yaku` holds (id, han) without dora; `yakuman` holds (id, units)."""

    hand: Hand
    context: WinContext
    rules: Ruleset
    outcome: Outcome
    yaku: tuple[tuple[str, int], ...] = ()
    yakuman: tuple[tuple[str, int], ...] = ()
    dora: int = 0
    aka_dora: int = 0
    ura_dora: int = 0
    han: int = 0  # yaku + dora; 13 per unit for yakuman (as Tenhou reports it)
    fu: int = 0
    value: HandValue | None = None
    limit: Limit = Limit.NONE
    points: int = 0  # the hand's value before honba and sticks
    payment: Payment | None = None
    reading: ChosenReading | None = None
    message: str = ""

    @property
    def is_win(self) -> bool:
        return self.outcome is Outcome.WIN

    @property
    def no_yaku(self) -> bool:
        return self.outcome is Outcome.NO_YAKU

    @property
    def fu_items(self) -> tuple[FuItem, ...]:
        """Why the hand has its fu (itemised before rounding up; empty when it did not win)."""
        if self.reading is None or not self.is_win:
            return ()
        return fu_items(self.reading.reading, self.context, self.rules)

    def to_json(self) -> dict[str, Any]:
        """Plain data: Tenhou's way of listing yaku (dora as `dora` / `aka_dora` / `ura_dora`)."""
        yaku: list[list[str | int]] = [[y, h] for y, h in self.yaku]
        if self.is_win and not self.yakuman:
            yaku += [[name, n] for name, n in (("dora", self.dora), ("aka_dora", self.aka_dora),
                                                ("ura_dora", self.ura_dora)) if n]
        payment = self.payment
        return {
            "is_win": self.is_win,
            "outcome": self.outcome.value,
            "message": self.message,
            "han": self.han,
            "fu": self.fu,
            "yaku": yaku,
            "yakuman": [y for y, _ in self.yakuman],
            "yakuman_units": sum(u for _, u in self.yakuman),
            # Tenhou names a counted (kazoe) yakuman "yakuman" like a real one.
            "limit": Limit.YAKUMAN.value if self.limit is Limit.KAZOE_YAKUMAN
            else self.limit.value,
            "points": self.points,
            "payments": dataclasses.asdict(payment) if payment else None,
            "fu_items": [[item.reason, item.fu] for item in self.fu_items],
            "reading": None if self.reading is None else {
                "form": self.reading.form.value, "groups": list(self.reading.groups),
                "melds": list(self.reading.melds), "wait": self.reading.wait.value,
                "win_group": self.reading.win_group},
            "rules": self.rules.name,
        }


def score(hand: Hand, context: WinContext, rules: Ruleset) -> Score:
    """Score `hand` won in `context` under `rules`.

    Raises `InvalidInput` with every problem of the hand and the context. A hand that is not a
    winning shape, or has no yaku, is a `Score` whose `outcome` says so.
    """
    problems = hand.problems() + context.problems(hand)
    if problems:
        raise InvalidInput(problems)
    result = _evaluate(hand, context, rules)
    if result.is_win and not rules.atozuke and not _yaku_on_every_wait(hand, context, rules):
        return dataclasses.replace(
            result, outcome=Outcome.NO_YAKU, payment=None, points=0,
            message="no yaku on every winning tile of this wait (atozuke is off: the yaku "
                    "must not depend on the winning tile)")
    return result


def nagashi_mangan(rules: Ruleset) -> HandValue | None:
    """What nagashi mangan is worth at an exhaustive draw (paid like a mangan tsumo), if played."""
    return HandValue(MANGAN_BASE, 0, 5, 0, Limit.MANGAN) if rules.nagashi_mangan else None


def _yakuman_total(entries: list[tuple[str, int]], rules: Ruleset) -> list[tuple[str, int]]:
    if rules.stacked_yakuman or len(entries) < 2:
        return entries
    return [max(entries, key=lambda e: e[1])]


def _evaluate(hand: Hand, ctx: WinContext, rules: Ruleset) -> Score:
    """Score a validated hand: the best of every reading (no validation here)."""
    shape = HandShape.of(hand)
    readings = read(shape, ctx.tsumo)
    if not readings:
        return Score(hand, ctx, rules, Outcome.NOT_A_WIN, message=(
            f"not a winning hand: {format_tiles(hand.concealed)} does not form four sets and a "
            "pair, seven distinct pairs or thirteen orphans"))
    first = readings[0]
    hand_yaku = found(HAND_YAKU, first, ctx, rules)
    hand_yakuman = found(HAND_YAKUMAN, first, ctx, rules)
    hand_han = sum(h for _, h in hand_yaku)
    dora = count_dora(shape, ctx, rules)
    dora_han = dora.total
    best: tuple[tuple[int, int, int, int], Reading, list[tuple[str, int]], bool] | None = None
    for r in readings:
        yakuman = hand_yakuman + found(READING_YAKUMAN, r, ctx, rules)
        r_fu = fu(r, ctx, rules)
        if yakuman:
            yakuman = _yakuman_total(yakuman, rules)
            units = sum(u for _, u in yakuman)
            key = (4 * MANGAN_BASE * units, units, YAKUMAN_HAN * units, r_fu)
            entries, is_yakuman = yakuman, True
        else:
            reading_yaku = found(READING_YAKU, r, ctx, rules)
            han = hand_han + sum(h for _, h in reading_yaku)
            if han < rules.min_han or han == 0:
                continue
            base, _ = base_points(han + dora_han, r_fu, rules)
            key = (base, 0, han + dora_han, r_fu)
            entries, is_yakuman = hand_yaku + reading_yaku, False
        if best is None or key > best[0]:
            best = (key, r, entries, is_yakuman)
    if ctx.blessing is Blessing.RENHOU and rules.renhou is RenhouValue.MANGAN and (
            best is None or best[0][0] < MANGAN_BASE):
        # Renhou as a mangan does not combine with other yaku or dora (the better one is paid).
        r = best[1] if best else first
        return _win(hand, ctx, rules, r, [("renhou", 5)], False, DoraCount(0, 0, 0),
                    HandValue(MANGAN_BASE, 0, 5, fu(r, ctx, rules), Limit.MANGAN))
    if best is None:
        return Score(hand, ctx, rules, Outcome.NO_YAKU,
                     dora=dora.dora, aka_dora=dora.aka, ura_dora=dora.ura,
                     reading=_chosen(hand, first), message=(
                         f"no yaku (at least {rules.min_han} han of yaku needed; "
                         "dora do not count)"))
    key, r, entries, is_yakuman = best
    base, units, han, r_fu = key
    value = HandValue(base, units, han, r_fu, base_points(han, r_fu, rules, units)[1])
    return _win(hand, ctx, rules, r, entries, is_yakuman, dora, value)


def _win(hand: Hand, ctx: WinContext, rules: Ruleset, r: Reading,
         entries: list[tuple[str, int]], is_yakuman: bool, dora: DoraCount,
         value: HandValue) -> Score:
    dealer = ctx.is_dealer
    points = value.total(dealer, ctx.tsumo)
    return Score(
        hand, ctx, rules, Outcome.WIN,
        yaku=() if is_yakuman else tuple(tenhou_order(entries)),
        yakuman=tuple(tenhou_order(entries)) if is_yakuman else (),
        dora=dora.dora, aka_dora=dora.aka, ura_dora=dora.ura,
        han=value.han, fu=value.fu, value=value,
        limit=value.limit, points=points, payment=_payment(value, ctx, rules),
        reading=_chosen(hand, r))


def _payment(value: HandValue, ctx: WinContext, rules: Ruleset) -> Payment:
    dealer = ctx.is_dealer
    honba = ctx.honba * rules.honba_value
    sticks = ctx.riichi_sticks * rules.riichi_stick
    if not ctx.tsumo:
        ron = value.ron(dealer) + honba
        return Payment(ron, None, None, ron + sticks)
    from_dealer, from_other = value.tsumo(dealer)
    per = honba // 3
    if dealer:
        return Payment(None, None, from_other + per, 3 * (from_other + per) + sticks)
    return Payment(None, from_dealer + per, from_other + per,
                   from_dealer + per + 2 * (from_other + per) + sticks)


def _chosen(hand: Hand, r: Reading) -> ChosenReading:
    return ChosenReading(r, hand)


def _yaku_on_every_wait(hand: Hand, ctx: WinContext, rules: Ruleset) -> bool:
    """Without atozuke, every tile the hand waits on must give a yaku, not just the one won on."""
    rest = list(hand.concealed)
    rest.remove(hand.win_tile)
    with_atozuke = dataclasses.replace(rules, atozuke=True)
    for kind in winning_kinds(rest, hand.melds):
        if kind == hand.win_tile.kind:
            continue
        other = Hand((*rest, TILES[kind]), hand.melds, TILES[kind])
        if not _evaluate(other, ctx, with_atozuke).is_win:
            return False
    return True
