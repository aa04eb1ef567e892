"""Whether a correction is the event as played: what the hand is, not the words it was scored in.

A win keeps its breakdown with the record, and the breakdown explains the hand in the language
of the session that scored it (yaku names, fu items, the summary, who pays whom). The same hand
scored again in another language is the same hand: a correction that brings nothing else is
refused as "nothing changes" (`scorer.table.amend`, code `amend_same`). What a win is: who dealt
in, and for each hand its winner, han, fu, yakuman, liability, chips and tiles (the concealed
ones in any order: the correction dialog types them again sorted, whatever order the win was
recorded in), and of its breakdown the facts no language changes: the tiles as drawn (red fives,
the sideways meld tile, the dora and ura indicators), the yaku by id, the dora counted, kita,
and whether it was entered by han and fu or by its points.

>>> from scorer.table import Win, WinningHand
>>> en = Win.ron(2, WinningHand(1, 3, 30, breakdown={"summary": "3 han 30 fu 3,900"}))
>>> ja = Win.ron(2, WinningHand(1, 3, 30, breakdown={"summary": "3翻30符 3,900点"}))
>>> same_event(en, ja), same_event(en, Win.ron(2, WinningHand(1, 3, 40)))
(True, False)
>>> tiles = _tiles("234m567m345p67s22p8s win 8s")
>>> tiles == _tiles("234567m22345p678s win 8s"), tiles == _tiles("234567m22345p678s win 5s")
(True, False)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from scorer.table import Event, Win, WinningHand
from scorer.tiles import parse_tiles

#: A win's `hand` as `scoring.score_spec` writes it: the concealed tiles (the winning one
#: among them), the winning tile, then each meld as played.
_HAND_TEXT = re.compile(r"^(\S+) win (\S+)((?: \[[^\]]+\])*)$")

#: The breakdown's entries that say what the hand is in no language (`scoring.score_spec`).
_FACTS = ("tiles", "dora_detail", "kita", "quick", "entered_points")


def _facts(breakdown: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if breakdown is None:
        return None
    facts = {key: breakdown.get(key) for key in _FACTS}
    facts["yaku"] = [y.get("id") if isinstance(y, Mapping) else y
                     for y in breakdown.get("yaku") or []]
    return facts


def _tiles(text: str | None) -> Any:
    """A win's `hand` with its concealed tiles sorted (the text as it is where it does not read:
    an imported record's own)."""
    found = _HAND_TEXT.match(text or "")
    if found is None:
        return text
    try:
        concealed = tuple(sorted(parse_tiles(found[1])))
    except ValueError:
        return text
    return concealed, found[2], found[3]


def _hand(hand: WinningHand) -> tuple[Any, ...]:
    return (hand.winner, hand.han, hand.fu, hand.yakuman, hand.liable, hand.liable_yakuman,
            _tiles(hand.hand), hand.chips, _facts(hand.breakdown))


def same_event(a: Event, b: Event) -> bool:
    """Whether `a` and `b` are the same event, a win's breakdown compared by its facts alone."""
    if isinstance(a, Win) and isinstance(b, Win):
        return (a.discarder == b.discarder and len(a.hands) == len(b.hands)
                and all(_hand(x) == _hand(y) for x, y in zip(a.hands, b.hands, strict=True)))
    return a == b
