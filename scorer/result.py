"""What scoring a hand returns: the outcome, its yaku and dora, its value and who pays.

A `Score` keeps what the scorer decided (outcome, yaku, dora counts, the hand's value and the
reading chosen); what follows from those (points, payments, fu items, the reading as text) is
worked out when asked for, so a caller pays only for what it reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from json.encoder import encode_basestring
from typing import Any, Final

from scorer.context import WinContext
from scorer.decompose import Form, Reading, Wait
from scorer.dora import DoraCount
from scorer.fu import FuItem, fu, fu_items
from scorer.hand import Hand
from scorer.points import HandValue, Limit, base_points, ron_points, total_points, tsumo_points
from scorer.rules import Ruleset

__all__ = ["ChosenReading", "Findings", "Outcome", "Payment", "Score", "payment"]


class Outcome(Enum):
    WIN = "win"
    NO_YAKU = "no yaku"  # a winning shape without a yaku (dora do not count): not a legal win
    NOT_A_WIN = "not a winning hand"  # the tiles do not form a winning shape
    # A ron on a closed kan (WinContext.chankan_of_ankan) by anything but kokushi, or where the
    # rules do not let kokushi rob one: not a legal win.
    ILLEGAL_CHANKAN = "illegal chankan"


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


def payment(value: HandValue, ctx: WinContext, rules: Ruleset) -> Payment:
    """The payments for a win worth `value`, honba and riichi sticks included."""
    return Payment(*payment_parts(value.base, ctx, rules))


Paid = tuple[int | None, int | None, int | None, int]


def payment_parts(base: int, ctx: WinContext, rules: Ruleset) -> Paid:
    """`payment`'s fields, in order, for a win of `base` points (what `score --jsonl` writes)."""
    dealer = ctx.is_dealer
    honba = ctx.honba * rules.honba_value
    sticks = ctx.riichi_sticks * rules.riichi_stick
    if not ctx.tsumo:
        ron = ron_points(base, dealer) + honba
        return ron, None, None, ron + sticks
    from_dealer, from_other = tsumo_points(base, dealer, rules)
    payers = rules.players - 1  # they share the honba (Tenhou's sanma: 200, 100 from each)
    per = honba // payers
    if dealer:
        return None, None, from_other + per, payers * (from_other + per) + sticks
    return (None, from_dealer + per, from_other + per,
            from_dealer + per + (payers - 1) * (from_other + per) + sticks)


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


_WIN: Final = Outcome.WIN  # (enum members are slow to read in Python 3.11)
_NO_YAKU: Final = Outcome.NO_YAKU
_NO_DORA: Final = DoraCount(0, 0, 0)


@dataclass(frozen=True, slots=True)
class Findings:
    """Everything scoring decided about a hand: what was asked (hand, context, rules), the
    outcome, yaku (id, han) without dora or yakuman (id, units), the dora, han (yaku and dora;
    13 per yakuman unit, as Tenhou reports it) and fu, the reading scored, and a message when
    the hand did not win."""

    hand: Hand
    context: WinContext
    rules: Ruleset
    outcome: Outcome
    yaku: tuple[tuple[str, int], ...]
    yakuman: tuple[tuple[str, int], ...]
    dora: DoraCount
    han: int
    fu: int
    reading: Reading | None
    message: str

    def __init__(self, hand: Hand, context: WinContext, rules: Ruleset, outcome: Outcome,
                 yaku: tuple[tuple[str, int], ...] = (),
                 yakuman: tuple[tuple[str, int], ...] = (), dora: DoraCount = _NO_DORA,
                 han: int = 0, fu: int = 0, reading: Reading | None = None,
                 message: str = "") -> None:
        # (Written out, not generated: compiled, each `object.__setattr__` is a plain store, and
        # every hand scored has its findings; as Python it is what dataclass would write.)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "context", context)
        object.__setattr__(self, "rules", rules)
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "yaku", yaku)
        object.__setattr__(self, "yakuman", yakuman)
        object.__setattr__(self, "dora", dora)
        object.__setattr__(self, "han", han)
        object.__setattr__(self, "fu", fu)
        object.__setattr__(self, "reading", reading)
        object.__setattr__(self, "message", message)


@dataclass(frozen=True, slots=True)
class Score:
    """A scored hand: its findings read as attributes (`hand`, `outcome`, `yaku`, `han`, `fu`,
    ...); `value`, `limit`, `points`, `payment`, `reading` and `fu_items` follow from them when
    asked for.

    The data is one `Findings`, built once per hand; everything else is read from it.
    """

    findings: Findings

    def __init__(self, findings: Findings) -> None:
        # (Written out, not generated: compiled, `object.__setattr__` is a plain store.)
        object.__setattr__(self, "findings", findings)

    @property
    def hand(self) -> Hand:
        return self.findings.hand

    @property
    def context(self) -> WinContext:
        return self.findings.context

    @property
    def rules(self) -> Ruleset:
        return self.findings.rules

    @property
    def outcome(self) -> Outcome:
        return self.findings.outcome

    @property
    def is_win(self) -> bool:
        return self.findings.outcome is _WIN

    @property
    def no_yaku(self) -> bool:
        return self.findings.outcome is _NO_YAKU

    @property
    def yaku(self) -> tuple[tuple[str, int], ...]:
        """(id, han) of every yaku, dora not included, in Tenhou's order."""
        return self.findings.yaku

    @property
    def yakuman(self) -> tuple[tuple[str, int], ...]:
        """(id, units) of every yakuman."""
        return self.findings.yakuman

    @property
    def han(self) -> int:
        return self.findings.han

    @property
    def fu(self) -> int:
        return self.findings.fu

    @property
    def chosen(self) -> Reading | None:
        """The reading scored (the internal form of `reading`)."""
        return self.findings.reading

    @property
    def message(self) -> str:
        return self.findings.message

    @property
    def dora_count(self) -> DoraCount:
        return self.findings.dora

    @property
    def dora(self) -> int:
        """Dora from the indicators (kan dora included)."""
        return self.dora_count.dora

    @property
    def aka_dora(self) -> int:
        return self.dora_count.aka

    @property
    def ura_dora(self) -> int:
        return self.dora_count.ura

    @property
    def value(self) -> HandValue | None:
        """What the hand is worth: base points and limit from its han and fu (or yakuman)."""
        if not self.han:
            return None
        return HandValue.of(self.han, self.fu, self.rules, sum(u for _, u in self.yakuman))

    @property
    def limit(self) -> Limit:
        value = self.value
        return value.limit if value else Limit.NONE

    @property
    def points(self) -> int:
        """The hand's value before honba and sticks (0 when it did not win)."""
        value = self.value
        if value is None or not self.is_win:
            return 0
        return value.total(self.context.is_dealer, self.context.tsumo, self.rules)

    @property
    def payment(self) -> Payment | None:
        value = self.value
        if value is None or not self.is_win:
            return None
        return payment(value, self.context, self.rules)

    @property
    def reading(self) -> ChosenReading | None:
        return None if self.chosen is None else ChosenReading(self.chosen, self.hand)

    @property
    def fu_items(self) -> tuple[FuItem, ...]:
        """Why the hand has its fu (itemised before rounding up; empty when it did not win)."""
        if self.chosen is None or not self.is_win:
            return ()
        return fu_items(self.chosen, self.context, self.rules)

    def to_json(self) -> dict[str, Any]:
        """Plain data: Tenhou's way of listing yaku (dora as `dora` / `aka_dora` / `ura_dora`).

        Built from the findings in one pass (the value worked out once, enum texts from tables).
        """
        findings = self.findings
        hand, rules, chosen = findings.hand, findings.rules, findings.reading
        win, yaku, units, limit, points, paid, items = _json_parts(findings)
        return {
            "is_win": win,
            "outcome": _OUTCOME_TEXT[findings.outcome],
            "message": findings.message,
            "han": findings.han,
            "fu": findings.fu,
            "yaku": [[y, h] for y, h in yaku],
            "yakuman": [y for y, _ in findings.yakuman],
            "yakuman_units": units,
            # Tenhou names a counted (kazoe) yakuman "yakuman" like a real one.
            "limit": limit,
            "points": points,
            "payments": None if paid is None else dict(zip(_PAYMENT_KEYS, paid, strict=True)),
            "fu_items": [[reason, n] for reason, n in items],
            "reading": None if chosen is None else {
                "form": _FORM_TEXT[chosen.form], "groups": list(chosen.groups()),
                "melds": [str(m) for m in hand.melds], "wait": _WAIT_TEXT[chosen.wait],
                "win_group": chosen.win_group_tiles()},
            "rules": rules.name,
        }

    def to_json_line(self) -> str:
        """`json.dumps(self.to_json(), ensure_ascii=False)`, written without the dict: the line
        `score --jsonl` writes for every hand (tests compare the two on every real hand)."""
        findings = self.findings
        hand, chosen = findings.hand, findings.reading
        win, yaku, units, limit, points, paid, items = _json_parts(findings)
        text = _text
        if paid is None:
            payments = "null"
        else:
            ron, from_dealer, from_non_dealer, winner_gain = paid
            payments = (f'{{"ron": {_number(ron)}, "from_dealer": {_number(from_dealer)}, '
                        f'"from_non_dealer": {_number(from_non_dealer)}, '
                        f'"winner_gain": {winner_gain}}}')
        if chosen is None:
            reading = "null"
        else:
            groups = ", ".join([text(g) for g in chosen.groups()])
            melds = ", ".join([text(str(m)) for m in hand.melds])
            reading = (f'{{"form": "{_FORM_TEXT[chosen.form]}", "groups": [{groups}], '
                       f'"melds": [{melds}], "wait": "{_WAIT_TEXT[chosen.wait]}", '
                       f'"win_group": {text(chosen.win_group_tiles())}}}')
        return "".join([
            '{"is_win": ', "true" if win else "false",
            ', "outcome": "', _OUTCOME_TEXT[findings.outcome], '", "message": ',
            text(findings.message), f', "han": {findings.han}, "fu": {findings.fu}, "yaku": [',
            ", ".join([f"[{text(y)}, {h}]" for y, h in yaku]),
            '], "yakuman": [', ", ".join([text(y) for y, _ in findings.yakuman]),
            f'], "yakuman_units": {units}, "limit": "{limit}", "points": {points}, "payments": ',
            payments, ', "fu_items": [',
            ", ".join([f"[{text(reason)}, {n}]" for reason, n in items]),
            '], "reading": ', reading, ', "rules": ', text(findings.rules.name), "}"])


def _json_parts(findings: Findings) -> tuple[bool, list[tuple[str, int]], int, str, int,
                                              Paid | None, list[tuple[str, int]]]:
    """What `to_json` and `to_json_line` report beyond the findings themselves: whether the hand
    won, its yaku with the dora, yakuman units, limit name, points, payment (`Payment`'s fields)
    and fu items ((reason, fu) pairs)."""
    ctx, rules, yakuman, han, chosen = \
        findings.context, findings.rules, findings.yakuman, findings.han, findings.reading
    win = findings.outcome is _WIN
    yaku = list(findings.yaku)
    units = 0
    for _, u in yakuman:
        units += u
    if win and not yakuman:
        dora = findings.dora
        dora_han, aka, ura = dora.dora, dora.aka, dora.ura
        if dora_han:
            yaku.append(("dora", dora_han))
        if aka:
            yaku.append(("aka_dora", aka))
        if ura:
            yaku.append(("ura_dora", ura))
    points = 0
    paid = None
    limit = ""
    if han:
        base, limit_kind = base_points(han, findings.fu, rules, units)
        limit = _LIMIT_JSON[limit_kind]
        if win:
            points = total_points(base, ctx.is_dealer, ctx.tsumo, rules)
            paid = payment_parts(base, ctx, rules)
    items: list[tuple[str, int]] = []
    if win and chosen is not None:
        fu(chosen, ctx, rules, items)
    return win, yaku, units, limit, points, paid, items


_PAYMENT_KEYS = ("ron", "from_dealer", "from_non_dealer", "winner_gain")


def _number(value: int | None) -> str:
    return "null" if value is None else str(value)


# A text as JSON writes it with ensure_ascii=False (quoted, escaped): json's own C function.
_text = encode_basestring


# Enum texts as tables (an enum member's `.value` is a property lookup under Python 3.11).
_OUTCOME_TEXT = {o: o.value for o in Outcome}
_FORM_TEXT = {f: f.value for f in Form}
_WAIT_TEXT = {w: w.value for w in Wait}
_LIMIT_JSON = {limit: Limit.YAKUMAN.value if limit is Limit.KAZOE_YAKUMAN else limit.value
               for limit in Limit}
