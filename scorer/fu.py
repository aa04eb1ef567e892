"""Fu (minipoints) of one reading, itemised.

20 base; 10 for a closed ron; 2 for tsumo (not with pinfu; a rinshan win by rule); 2 for a
kanchan, penchan or tanki wait; 2 for a dragon, seat-wind or round-wind pair (a double-wind
pair by rule, 2 or 4); triplets and quads by tile and openness; an open hand with nothing
beyond the base is counted 30; pinfu tsumo is 20; chiitoitsu is 25. Rounded up to 10.

>>> from scorer.hand import Hand
>>> from scorer.context import WinContext
>>> from scorer.decompose import HandShape, read
>>> from scorer.rules import RULESETS
>>> r = read(HandShape.of(Hand.parse("123m444p777z22s567s", win="2s")), tsumo=False)[0]
>>> for item in fu_items(r, WinContext(), RULESETS["tenhou"]):
...     print(item.fu, item.reason)
20 base (futei)
10 closed ron (menzen kafu)
2 tanki wait
8 concealed triplet of terminals/honours 777z
4 concealed triplet 444p
>>> fu(r, WinContext(), RULESETS["tenhou"])
50
"""

from __future__ import annotations

from typing import Final, NamedTuple

from scorer.context import WinContext
from scorer.decompose import Form, Reading, Wait
from scorer.hand import MeldKind
from scorer.rules import Ruleset
from scorer.tiles import TILES
from scorer.yaku.base import IS_ORPHAN
from scorer.yaku.patterns import is_pinfu


class FuItem(NamedTuple):
    reason: str
    fu: int


_MELD_NAME = {MeldKind.PON: "open triplet", MeldKind.MINKAN: "open quad",
              MeldKind.KAKAN: "open quad (added)", MeldKind.ANKAN: "closed quad"}


# Enum members as module names (see scorer.shape: `Wait.TANKI` is slow under Python 3.11).
_CHIITOITSU: Final = Form.CHIITOITSU
_KOKUSHI: Final = Form.KOKUSHI
_RYANMEN: Final = Wait.RYANMEN
_SHANPON: Final = Wait.SHANPON
_CHI: Final = MeldKind.CHI
_PON: Final = MeldKind.PON
_ANKAN: Final = MeldKind.ANKAN


def _set_name(name: str, kind: int) -> str:
    tiles = f"{TILES[kind].number}" * (4 if "quad" in name else 3) + TILES[kind].suit
    return f"{name}{' of terminals/honours' if IS_ORPHAN[kind] else ''} {tiles}"


# Every set's reason, worked out once: (name, kind) -> e.g. "concealed triplet 444p".
_SET_NAMES = {(name, k): _set_name(name, k) for name in (
    "concealed triplet", "triplet completed by ron", *_MELD_NAME.values()) for k in range(34)}
_WAIT_REASON = {w: f"{w.value} wait" for w in Wait}


def fu(r: Reading, ctx: WinContext, rules: Ruleset,
       items: list[tuple[str, int]] | None = None) -> int:
    """The reading's fu, rounded up to 10 (chiitoitsu stays 25).

    Fills `items`, when given, with (reason, fu) before rounding: one code path for both.
    """
    form, pair, hand_trips, ron_trip, wait, shape = \
        r.form, r.pair, r.hand_trips, r.ron_trip, r.wait, r.shape
    if form is _CHIITOITSU:
        if items is not None:
            items.append(("chiitoitsu (fixed, not rounded)", 25))
        return 25
    if form is _KOKUSHI:
        # A yakuman of no sets and no pair: nothing to count, and the limit pays it anyway.
        # Tenhou reports it with 0 fu (both kokushi wins of tenhou-sanma-wins-dev.jsonl).
        if items is not None:
            items.append(("kokushi musou (a yakuman: no fu counted)", 0))
        return 0
    closed = shape.closed
    total = 20
    if items is not None:
        items.append(("base (futei)", 20))
    if closed and not ctx.tsumo:
        total += 10
        if items is not None:
            items.append(("closed ron (menzen kafu)", 10))
    if ctx.tsumo and not is_pinfu(r, ctx, rules) and (rules.rinshan_tsumo_fu or not ctx.rinshan):
        total += 2
        if items is not None:
            items.append(("tsumo", 2))
    if wait is not _RYANMEN and wait is not _SHANPON:  # kanchan, penchan, tanki
        total += 2
        if items is not None:
            items.append((_WAIT_REASON[wait], 2))
    if pair >= 27:
        seat = pair == 26 + ctx.seat_wind
        round_ = pair == 26 + ctx.round_wind
        # North as everyone's value tile (sanma, `north_yakuhai`) pays like a dragon pair.
        north = pair == 30 and rules.north_yakuhai and not (seat or round_)
        pair_fu = 2 if pair >= 31 or north or seat != round_ else \
            rules.double_wind_pair_fu if seat else 0
        if pair_fu:
            total += pair_fu
            if items is not None:
                what = "dragon" if pair >= 31 else "value tile" if north else \
                    "double wind" if seat and round_ else "seat wind" if seat else "round wind"
                items.append((f"pair of the {what} {TILES[pair]}", pair_fu))
    for k in hand_trips:
        concealed = k != ron_trip
        set_fu = (4 if IS_ORPHAN[k] else 2) * (2 if concealed else 1)
        total += set_fu
        if items is not None:
            name = "concealed triplet" if concealed else "triplet completed by ron"
            items.append((_SET_NAMES[name, k], set_fu))
    for k, kind in shape.meld_sets:
        if kind is _CHI:
            continue
        # An open triplet's fu times 1 (pon), 4 (open kan) or 8 (closed kan).
        set_fu = (4 if IS_ORPHAN[k] else 2) * (1 if kind is _PON else 8 if kind is _ANKAN else 4)
        total += set_fu
        if items is not None:
            items.append((_SET_NAMES[_MELD_NAME[kind], k], set_fu))
    if total == 20 and not closed:
        total = 30
        if items is not None:
            items.append(("open hand of pinfu shape", 10))
    return -(-total // 10) * 10


def fu_items(r: Reading, ctx: WinContext, rules: Ruleset) -> tuple[FuItem, ...]:
    """The reasons behind `fu(r, ctx, rules)` (before rounding up)."""
    items: list[tuple[str, int]] = []
    fu(r, ctx, rules, items)
    return tuple([FuItem(reason, n) for reason, n in items])
