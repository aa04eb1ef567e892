"""Rule options that are values of their own: the red fives a set holds per suit, the chips
(祝儀) a parlor pays beside the points, and the stakes the points and chips are settled at.
`scorer.rules` holds them in a `Ruleset` and re-exports them; they are here so that module stays
one page of options and presets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class RedFives:
    """The red fives the set holds in each suit (man, pin, sou), each one han of aka dora.

    The usual set has one of each (`RedFives()`); many sets and parlors play four, the fourth a
    second red 5p (`RedFives(1, 2, 1)`); a set played without aka dora is `RedFives(0, 0, 0)`.
    Older records and configurations say `true` or `false` (`RedFives.of`): one of each, none.
    A suit played with none may still show its usual single red five, read as a plain five.
    """

    m: int = 1
    p: int = 1
    s: int = 1

    @staticmethod
    def of(value: RedFives | bool) -> RedFives:
        """`True` (the on/off option of old): one red five a suit; `False`: none."""
        if isinstance(value, RedFives):
            return value
        return ONE_EACH if value else NO_RED_FIVES

    def in_suit(self, suit: str) -> int:
        """How many red fives suit `m`, `p` or `s` holds."""
        return self.m if suit == "m" else self.p if suit == "p" else self.s

    @property
    def counts(self) -> tuple[int, int, int]:
        return (self.m, self.p, self.s)

    @property
    def any(self) -> bool:
        return self.m > 0 or self.p > 0 or self.s > 0

    @property
    def one_each(self) -> bool:
        return self.m == 1 and self.p == 1 and self.s == 1

    def __str__(self) -> str:
        return f"{self.m}{self.p}{self.s}"


ONE_EACH: Final = RedFives(1, 1, 1)
NO_RED_FIVES: Final = RedFives(0, 0, 0)


@dataclass(frozen=True, slots=True)
class Chips:
    """Chips (祝儀, チップ) paid beside the points for a win, as Japanese free parlors pay them.

    All zero (the default): no chips, as online rooms and tournaments play. The conventions
    (mahjongcollege.com "麻雀の祝儀(チップ)とは?", leonkkblog.com "祝儀とは",
    beginners.biz "赤牌と祝儀"): a chip for each red five in the winning hand, each ura dora and
    an ippatsu; yakuman by the house (commonly 10 on a ron, 5 from each on a tsumo); on a ron the
    discarder pays them, on a tsumo each other player pays the same count. `scorer.chips`
    counts a win's chips; the table keeps them beside the points (`TableState.chips`).
    """

    red_five: int = 0  # per red five in the winning hand (an open meld's too, see open_hand)
    ura: int = 0  # per ura dora (riichi wins only)
    ippatsu: int = 0
    yakuman_ron: int = 0  # per yakuman unit, from the discarder; replaces the chips above
    yakuman_tsumo: int = 0  # per yakuman unit, from each other player
    tsumo_factor: int = 1  # 2: a tsumo's chips doubled, from each payer (some sanma parlors)
    # 鳴き祝 (True, most four-player parlors) or 面祝 (False: an open hand earns no red-five
    # chips; many three-player and country parlors; leonkkblog.com "祝儀とは"). Ura and ippatsu
    # need riichi, so they only ever come with a closed hand (a closed kan keeps it closed).
    open_hand: bool = True
    # ura dora shown by the kan ura indicators (カン裏) earn chips too; False: only the first
    # ura indicator's (the points still count every indicator the rules allow).
    kan_ura: bool = True

    @property
    def pays(self) -> bool:
        return (self.red_five > 0 or self.ura > 0 or self.ippatsu > 0 or self.yakuman_ron > 0
                or self.yakuman_tsumo > 0)


NO_CHIPS: Final = Chips()


@dataclass(frozen=True, slots=True)
class Stakes:
    """What the table plays for, in the house's money unit (yen): `scorer.table.money` turns the
    final scores and chips into money with them. All zero (the default): no money, as online
    rooms, tournaments and home tables without stakes play.

    A free parlor (フリー雀荘) plays for a rate per 1,000 points of final score (点5: 50 yen, ピン:
    100 yen), a value per chip (100 yen is usual at 点5) and a game fee (場代) to the house,
    "1ゲーム600円 → ピン、300~400円 → 点5" (note.com/seaburaroushi "How to フリー雀荘①"); some take
    it, or more of it, from the top player only (paioniya.okoshi-yasu.net: the top pays 1,000
    yen a hanchan).
    """

    rate: int = 0  # per 1,000 points of final score (50: 点5, 100: ピン)
    chip: int = 0  # per chip
    game_fee: int = 0  # 場代: each player pays the house this a game
    top_fee: int = 0  # first place pays the house this on top (トップ払い)

    @property
    def settles(self) -> bool:
        """Whether a game ends in money at all."""
        return self.rate > 0 or self.chip > 0 or self.game_fee > 0 or self.top_fee > 0


NO_STAKES: Final = Stakes()
