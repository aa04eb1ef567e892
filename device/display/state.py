"""What a table display shows: the whole table state in one small immutable value.

The kiosk builds a `DisplayState` from its table state after every change and hands it to the
display (`DisplaySupervisor.publish`). Seats are 0-3 counter-clockwise from the first dealer
(0-2 at a three-player table: three points and three riichi flags);
winds are 1-4 = East, South, West, North (`scorer.context.Wind` is an `IntEnum` and works as is).
"""

from __future__ import annotations

from dataclasses import dataclass

WIND_LETTERS = "ESWN"
MAX_COUNTER = 999  # honba and riichi sticks: three digits on the wire
MAX_POINTS = 9_999_900  # |points| fits the 8-character field of the protocol
SEATS = (3, 4)  # a three-player (sanma) or a four-player table


class DisplayStateError(ValueError):
    """A display state that cannot be shown; the message names the field."""


@dataclass(frozen=True, slots=True)
class DisplayState:
    """The table as a display shows it.

    >>> s = DisplayState(round_wind=1, hand_number=2, honba=1, riichi_sticks=0, dealer=1,
    ...                  points=(25000, 25000, 25000, 25000), riichi=(False,) * 4)
    >>> s.round_name, s.seats
    ('E2', 4)
    >>> DisplayState(2, 3, 0, 0, 2, (40000, 30000, 35000), (False,) * 3).seats
    3
    """

    round_wind: int  # 1-4 = E S W N
    hand_number: int  # 1-4 within the round wind (East 1 ... East 4; 1-3 at three players)
    honba: int
    riichi_sticks: int  # riichi deposits lying on the table
    dealer: int  # seat 0-3 (0-2 at three players)
    points: tuple[int, ...]  # one a seat: four, or three at a three-player (sanma) table
    riichi: tuple[bool, ...]  # seats that have declared riichi this hand, as many as points

    def __post_init__(self) -> None:
        def check(ok: bool, field: str, value: object, want: str) -> None:
            if not ok:
                raise DisplayStateError(f"{field}: {value!r} is not {want}")

        check(_is_int(self.round_wind) and 1 <= self.round_wind <= 4, "round_wind",
              self.round_wind, "a wind 1-4 (E S W N)")
        check(_is_int(self.honba) and 0 <= self.honba <= MAX_COUNTER, "honba", self.honba,
              f"a count 0-{MAX_COUNTER}")
        check(_is_int(self.riichi_sticks) and 0 <= self.riichi_sticks <= MAX_COUNTER,
              "riichi_sticks", self.riichi_sticks, f"a count 0-{MAX_COUNTER}")
        check(isinstance(self.points, tuple) and len(self.points) in SEATS
              and all(_is_int(p) and abs(p) <= MAX_POINTS for p in self.points),
              "points", self.points, f"four (or three) whole numbers within +-{MAX_POINTS}")
        seats = len(self.points)
        check(_is_int(self.hand_number) and 1 <= self.hand_number <= seats, "hand_number",
              self.hand_number, f"a hand number 1-{seats}")
        check(_is_int(self.dealer) and 0 <= self.dealer < seats, "dealer", self.dealer,
              f"a seat 0-{seats - 1}")
        check(isinstance(self.riichi, tuple) and len(self.riichi) == seats
              and all(isinstance(r, bool) for r in self.riichi),
              "riichi", self.riichi, f"{seats} booleans, one a seat")

    @property
    def seats(self) -> int:
        """How many sit at the table: 4, or 3 at a three-player one (the points given)."""
        return len(self.points)

    @property
    def round_name(self) -> str:
        """`E1` ... `N4`, as the round is called at the table."""
        return f"{WIND_LETTERS[self.round_wind - 1]}{self.hand_number}"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
