"""Short ways to write table events in the game tests: `tsumo(1, 3, 40)`, `ron(0, hand(2, 4))`."""

from __future__ import annotations

from scorer.table import Win, WinningHand


def hand(winner: int, han: int, fu: int = 30, **extra: object) -> WinningHand:
    return WinningHand(winner, han, fu, **extra)  # type: ignore[arg-type]


def ron(discarder: int, *hands: WinningHand) -> Win:
    return Win.ron(discarder, *hands)


def tsumo(winner: int, han: int, fu: int = 30, **extra: object) -> Win:
    return Win.tsumo(hand(winner, han, fu, **extra))
