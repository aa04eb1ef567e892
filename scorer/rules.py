"""Rulesets: every optional rule as a named field, with presets for common tables.

A `Ruleset` is immutable; scoring and the table read it and never change it. Build a variant
with `dataclasses.replace(RULESETS["tenhou"], kiriage=True)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import Enum
from typing import Any

from scorer.rule_values import (
    NO_CHIPS,
    NO_RED_FIVES,
    NO_STAKES,
    ONE_EACH,
    Chips,
    RedFives,
    Stakes,
)

__all__ = ["NO_CHIPS", "NO_RED_FIVES", "NO_STAKES", "ONE_EACH", "PARLOR_RULESETS", "RULESETS",
           "ChomboPenalty", "Chips", "ExtraRoundRenchan", "FinalRounding", "GameLength",
           "KazoeLimit", "LeftoverSticks", "RedFives", "Renchan", "RenhouValue", "Ruleset",
           "Stakes", "TripleRon", "TsumoPayment", "Uma"]


class KazoeLimit(Enum):
    """What 13 or more counted han are worth."""

    YAKUMAN = "yakuman"
    SANBAIMAN = "sanbaiman"


class RenhouValue(Enum):
    OFF = "off"
    MANGAN = "mangan"
    HAN5 = "5han"  # counted as a 5-han yaku that stacks with the others
    YAKUMAN = "yakuman"


class Renchan(Enum):
    """When the dealer keeps the deal at an exhaustive draw."""

    TENPAI = "tenpai"  # dealer tenpai at the draw keeps the deal
    AGARI = "agari"  # only a dealer win keeps the deal


class TripleRon(Enum):
    ABORT = "abort"  # three rons on one discard end the hand as an abortive draw
    ALL_PAID = "all_paid"
    HEAD_BUMP = "head_bump"  # only the winner nearest the discarder wins


class ChomboPenalty(Enum):
    REVERSE_MANGAN = "reverse_mangan"  # pays a mangan to the others as if they had won by tsumo
    POINTS = "points"  # a fixed deduction (`chombo_points`) from the final score
    PAY_EACH = "pay_each"  # pays `chombo_each` to every other player (a casual table's penalty)


class LeftoverSticks(Enum):
    FIRST_PLACE = "first_place"
    LOST = "lost"


class FinalRounding(Enum):
    """How a player's points become a final score in thousands (see `scorer.table.standings`).

    Rounding goes on the points themselves, not on points - return, and on their size, so that
    -500 is "500 below zero" (Tenhou: 28,500 counts as 29,000 and -1; -500 as -1,000 and -31).
    First place is never rounded: it takes what the others' rounding gave or took, so the table
    still sums to zero (Japanese Wikipedia's "Final points and place"; Tenhou's own finals).
    """

    # To the hundred, shown in tenths: riichi-rich-handbook.txt l.535-577 (WRC, EMA, M.League,
    # JPML, 101: "Raw points (Difference/1000)" with no rounding step); M.League publishes
    # tenths (112,700 is +132.7 with its +50 for first); Mahjong Soul's end score is
    # (points - start) / 1000 + uma (riichi.wiki "Majsoul", Calculations): only its rank points
    # are rounded.
    EXACT = "exact"
    # 四捨五入: 500 and up round up. Tenhou's rules as translated on the Japanese mahjong wiki
    # ("Tenhou.net rules": "rounded to the closest thousand, 4 down, 5 up"), and all 271 games
    # of ../shared/scoring/tenhou-games-dev to the point (-500 ends as -1,000).
    THOUSAND_HALF_UP = "thousand_half_up"
    # 五捨六入: 500 rounds down, more rounds up; the other convention of Japanese parlours
    # (w.atwiki.jp/mahjlocal "スコア": 28,500 -> -2, 28,700 -> -1, 30,500 -> 0).
    THOUSAND_HALF_DOWN = "thousand_half_down"


class TsumoPayment(Enum):
    """Who pays a tsumo at a three-player table, where the fourth (North) seat is missing."""

    # ツモ損: the two others pay what they would at four and the absent seat's share is simply
    # not paid (a non-dealer's 1 han 30 fu is 300 + 500). Tenhou's sanma, as every one of the
    # 602 wins of ../shared/scoring/tenhou-sanma-wins-dev.jsonl pays (see its README), and
    # Mahjong Soul's three-player rooms (riichi.wiki "Sanma", Mahjong Soul column).
    TSUMO_LOSS = "tsumo_loss"
    # 北家折半: the absent North's share is split between the two payers (in base points, each
    # payment then rounded up to 100), so a tsumo pays what a ron does: a non-dealer's mangan
    # 3,000 + 5,000, a dealer's 6,000 all. The parlour alternative to tsumo loss (Japanese
    # Wikipedia "三人麻雀", 点数計算).
    NORTH_BISECTION = "north_bisection"


class ExtraRoundRenchan(Enum):
    """Whether a dealer who repeats in the extra round (West, or South after an east-only game)
    deals again though someone has reached `target_points`. A dealer in first place at or above
    the target still ends the game by agari-yame / tenpai-yame where those are on."""

    # The game ends as soon as someone has the target after a hand, as the rule texts read it
    # (furiten-optional-rules-penalties.txt l.114, tutorial-yaku-calls-rounds.txt l.215).
    OFF = "off"
    # Tenhou: at an exhaustive draw the dealer, tenpai and not in first place, deals again with
    # one more honba even though another player has 30,000 (hagurin-tenhou.com, "西4局を越える
    # と": "西場でも流局時に親がテンパイ、かつ親がトップ目でない場合は、親以外が30000点以上に
    # なっても1本場が始まる"; a win ends it). A real east-only phoenix game ended so a hand later.
    AT_DRAW = "at_draw"
    # Mahjong Soul: the extension ends once someone has 30,000 "and the dealer does not repeat"
    # (mj-news.net ?p=172350, a Mahjong Soul game: "30000点以上の対局者が出てなおかつ親が連荘
    # しない"): any dealer repeat, a win or a tenpai draw, plays on.
    ALWAYS = "always"


class GameLength(Enum):
    EAST = "east"  # tonpuusen, one round
    HANCHAN = "hanchan"  # east and south rounds


@dataclass(frozen=True, slots=True)
class Uma:
    """Placement bonus in thousands of points, 1st to last: one value a player (four, or three at
    a three-player table; the table checks the count against `Ruleset.players`).

    `floating` overrides `fixed` by how many players finish at or above the return points
    (JPML): a mapping 1..3 -> one value a player.
    """

    fixed: tuple[int, ...] = (20, 10, -10, -20)
    floating: tuple[tuple[int, tuple[int, ...]], ...] = ()

    def for_players_above(self, above: int) -> tuple[int, ...]:
        return dict(self.floating).get(above, self.fixed)


@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str = "custom"

    # --- who plays -----------------------------------------------------------------------
    # 3: sanma. The set has no 2m-8m (108 tiles), nobody calls chi, the seats are East, South
    # and West and a tsumo is paid by two (see `tsumo_payment`); `scorer.validity` rejects any
    # hand that breaks this, naming the tile or meld.
    players: int = 4
    # Sanma's nukidora: a North may be pulled out (kita) and replaced from the dead wall; each
    # is a dora, and a dora again for each indicator that points at North (`Hand.kita`). A win
    # on the replacement tile is rinshan kaihou. Tenhou and Mahjong Soul both play it.
    nukidora: bool = False
    # A North kept in the hand is a value tile for everyone (a set of it 1 han, a pair 2 fu,
    # no pinfu): Mahjong Soul's sanma. Tenhou's sanma treats it as a guest wind (no yaku; no
    # North set in the 602 wins carries one).
    north_yakuhai: bool = False
    tsumo_payment: TsumoPayment = TsumoPayment.TSUMO_LOSS  # three players only

    # --- what scores --------------------------------------------------------------------
    # Red fives per suit, each worth one han (aka dora); `True` / `False` in `with_options`
    # and in records mean one each / none (see `RedFives`).
    red_fives: RedFives = ONE_EACH
    kuitan: bool = True  # tanyao counts in an open hand
    atozuke: bool = True  # a yaku may come from the winning tile alone (e.g. yakuhai wait)
    ippatsu: bool = True
    ura_dora: bool = True  # ura dora after a riichi win
    kan_dora: bool = True  # a new indicator after each kan
    kan_ura_dora: bool = True
    min_han: int = 1  # han needed to win, dora not counted (2 = ryanhan shibari)
    double_wind_pair_fu: int = 4  # a pair of the seat wind that is also the round wind
    rinshan_tsumo_fu: bool = True  # a rinshan win counts the 2 tsumo fu
    kiriage: bool = False  # 4 han 30 fu and 3 han 60 fu round up to mangan
    kazoe: KazoeLimit = KazoeLimit.YAKUMAN
    stacked_yakuman: bool = True  # several yakuman in one hand add up
    double_yakuman: bool = False  # 13-sided kokushi, suuankou tanki, junsei chuuren, daisuushii
    renhou: RenhouValue = RenhouValue.OFF
    kokushi_chankan_ankan: bool = False  # kokushi may rob a closed kan (see WinContext)
    nagashi_mangan: bool = True

    # --- how the table pays ---------------------------------------------------------------
    honba_value: int = 300  # per honba: a ron pays all of it, a tsumo's payers share it
    riichi_stick: int = 1000
    riichi_needs_points: bool = True  # a player below 1,000 may not declare riichi
    noten_total: int = 3000  # split between the noten players at an exhaustive draw
    renchan: Renchan = Renchan.TENPAI
    double_ron: bool = True  # False: head bump, the winner nearest the discarder only
    triple_ron: TripleRon = TripleRon.ABORT
    abortive_draws: bool = True  # nine terminals, four winds, four riichi, four kans
    abortive_renchan: bool = True  # redealt by the same dealer (False: the deal moves on)
    riichi_abort_count: int = 4  # this many riichi declarations abort the hand (3: sancha riichi)
    chombo: ChomboPenalty = ChomboPenalty.REVERSE_MANGAN
    chombo_points: int = 20000
    chombo_each: int = 1000  # ChomboPenalty.PAY_EACH: paid to each of the other three
    pao: frozenset[str] = frozenset({"daisangen", "daisuushii"})

    # --- how a game runs and ends -------------------------------------------------------
    length: GameLength = GameLength.HANCHAN
    start_points: int = 25000
    return_points: int = 30000  # oka = (return - start) x players, to first place
    uma: Uma = field(default_factory=Uma)
    tobi: bool = True  # the game ends when a player goes bust
    tobi_at_zero: bool = False  # bust at exactly zero too (otherwise only below zero)
    west_round: bool = True  # play on into the West round until someone reaches `target_points`
    extra_round_renchan: ExtraRoundRenchan = ExtraRoundRenchan.OFF  # see ExtraRoundRenchan
    target_points: int = 30000
    target_must_exceed: bool = False  # True: exactly `target_points` is not enough to end the game
    agari_yame: bool = True  # the last dealer in first place may end the game by winning
    tenpai_yame: bool = False  # ... or by being tenpai at the last hand's draw
    leftover_sticks: LeftoverSticks = LeftoverSticks.FIRST_PLACE
    split_ties: bool = False  # tied players share their uma; otherwise seat order decides
    floating_uma_at_return: bool = True  # floating uma counts a player on exactly the return points
    final_rounding: FinalRounding = FinalRounding.EXACT
    chips: Chips = NO_CHIPS  # chips beside the points (none by default; see `Chips`)
    # The money the final scores and chips are settled in (none by default; see `Stakes`).
    stakes: Stakes = NO_STAKES

    def with_options(self, **options: Any) -> Ruleset:
        """A copy with some options changed, rejecting unknown names."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"unknown rule option(s): {', '.join(unknown)}")
        if "red_fives" in options:
            options["red_fives"] = RedFives.of(options["red_fives"])
        return replace(self, **options)

    @property
    def oka(self) -> int:
        return (self.return_points - self.start_points) * self.players


# options text l.128: on Tenhou and Mahjong Soul the last dealer in first place (30,000 or more)
# ends the game by winning or by being tenpai; tutorial l.218: competitive rules have neither.
_TENHOU = Ruleset(name="tenhou", tenpai_yame=True)

# Tenhou ranked (phoenix room): the real-wins file was scored under these. Tenhou and Mahjong
# Soul let kokushi musou rob a closed kan; the other presets keep the rule of the rich
# handbook (l.181, l.244): a closed kan cannot be robbed, not even for kokushi.
# Final scores: everyone but first place rounded to the thousand, 500 up (FinalRounding).
# The extra round as Tenhou plays it (`ExtraRoundRenchan.AT_DRAW`).
_TENHOU_RANKED = _TENHOU.with_options(kokushi_chankan_ankan=True,
                                      final_rounding=FinalRounding.THOUSAND_HALF_UP,
                                      extra_round_renchan=ExtraRoundRenchan.AT_DRAW)
# Mahjong Soul ranked: as Tenhou, but double yakuman forms count double, pao covers four kans
# and three rons on one discard are all paid. Its end score is (points - 25,000) / 1000 + uma
# +15/+5/-5/-15, exact, with no oka (riichi.wiki "Majsoul", Calculations); 30,000 stays the
# target of the West round and of agari-yame.
_MAHJONG_SOUL = _TENHOU.with_options(
    name="mahjong_soul", double_yakuman=True, triple_ron=TripleRon.ALL_PAID,
    pao=frozenset({"daisangen", "daisuushii", "suukantsu"}), kokushi_chankan_ankan=True,
    return_points=25000, uma=Uma((15, 5, -5, -15)),
    extra_round_renchan=ExtraRoundRenchan.ALWAYS)

# The rule texts in ../shared/rules say nothing of three players. Every scoring and payment rule
# of `tenhou_sanma` is checked by the 602 real wins of tenhou-sanma-wins-dev.jsonl; the table
# values (uma, noten points) and Mahjong Soul's are taken from the pages named, which were not
# at hand to quote here.
# What Tenhou's and Mahjong Soul's three-player rooms share (../shared/scoring/README.md for
# Tenhou: 35,000 start, no chi, tsumo loss, 200 a honba, 100 from each payer on a tsumo, as all
# 602 wins of tenhou-sanma-wins-dev.jsonl pay; riichi.wiki "Sanma" for both): kita as nukidora;
# 2,000 noten points (1,000 from each noten player to a lone tenpai one, 1,000 to each of two
# from the one noten player); the West round when nobody has 40,000 after South 3.
_SANMA: dict[str, Any] = dict(
    players=3, nukidora=True, tsumo_payment=TsumoPayment.TSUMO_LOSS, honba_value=200,
    noten_total=2000, start_points=35000, target_points=40000)

# The other presets play no extra round (`west_round` off), so `extra_round_renchan` is moot
# there and left OFF.

# A free parlor (フリー雀荘) as one publishes its four-player rules (新栄店, starcat.ne.jp
# "m20_rl": 25,000 / 30,000, uma +10/+5, one red five a suit, no West round, 4 han 30 fu and
# 3 han 60 fu are mangan, "チップは面前和了時の赤、裏ドラ、一発に各1枚づつ(槓裏ドラも有効)": a chip
# each for red fives, ura and ippatsu on a concealed win, kan ura too); yakuman 10 chips on a
# ron, 5 from each on a tsumo (mahjongcollege.com, "一般的"). Its money (`scorer.table.money`)
# at 点5 stakes: 50 yen per 1,000 points, 100 yen a chip, a 400 yen game fee each ("300~400円 →
# 点5", note.com/seaburaroushi "How to フリー雀荘①"; `Stakes`).
_PARLOR = _TENHOU.with_options(
    name="parlor", uma=Uma((10, 5, -5, -10)), west_round=False, kiriage=True,
    chips=Chips(red_five=1, ura=1, ippatsu=1, yakuman_ron=10, yakuman_tsumo=5,
                open_hand=False, kan_ura=True),
    stakes=Stakes(rate=50, chip=100, game_fee=400))

RULESETS: dict[str, Ruleset] = {
    "tenhou": _TENHOU_RANKED,
    "mahjong_soul": _MAHJONG_SOUL,
    # M.League: 25k start, 30k return, uma +30/+10/-10/-30 (first also takes the 20k oka).
    "mleague": _TENHOU.with_options(
        name="mleague", uma=Uma((30, 10, -10, -30)), double_ron=False,
        triple_ron=TripleRon.HEAD_BUMP, west_round=False, tobi=False, agari_yame=False,
        tenpai_yame=False, nagashi_mangan=False),
    # World Riichi Championship 2015: no red fives, no kazoe yakuman, renhou as mangan.
    # Its annex table A-2 rounds 4 han 30 fu and 3 han 60 fu up to mangan (kiriage).
    "wrc": _TENHOU.with_options(
        name="wrc", red_fives=False, kazoe=KazoeLimit.SANBAIMAN, renhou=RenhouValue.MANGAN,
        kiriage=True,
        double_wind_pair_fu=2, double_ron=False, triple_ron=TripleRon.HEAD_BUMP,
        abortive_draws=False, nagashi_mangan=False, chombo=ChomboPenalty.POINTS,
        start_points=30000, return_points=30000, uma=Uma((15, 5, -5, -15)), tobi=False,
        west_round=False, agari_yame=False, tenpai_yame=False,
        leftover_sticks=LeftoverSticks.FIRST_PLACE,
        pao=frozenset({"daisangen", "daisuushii"})),
    # EMA Riichi Competition Rules: as WRC in scoring, leftover sticks go to first place.
    "ema": _TENHOU.with_options(
        name="ema", red_fives=False, kazoe=KazoeLimit.SANBAIMAN, renhou=RenhouValue.MANGAN,
        double_wind_pair_fu=4, double_ron=False, triple_ron=TripleRon.HEAD_BUMP,
        abortive_draws=False, nagashi_mangan=False, chombo=ChomboPenalty.POINTS,
        start_points=30000, return_points=30000, uma=Uma((15, 5, -5, -15)), tobi=False,
        west_round=False, agari_yame=False, tenpai_yame=False, riichi_needs_points=False),
    # JPML: 30k start, no oka, floating uma by how many finish at or above 30,000.
    "jpml": _TENHOU.with_options(
        name="jpml", red_fives=False, ippatsu=False, ura_dora=False, kan_ura_dora=False,
        double_wind_pair_fu=2, start_points=30000, return_points=30000,
        uma=Uma((12, -1, -3, -8), floating=((1, (12, -1, -3, -8)), (2, (8, 4, -4, -8)),
                                               (3, (8, 3, 1, -12)))),
        chombo=ChomboPenalty.POINTS, west_round=False, agari_yame=False, tenpai_yame=False,
        tobi=False),
    # 101 Kyougi Renmei: 30k start and return, no oka, +1 to first and -1 to fourth. Its scoring
    # (no dora at all, no pinfu tsumo) is beyond these options; the table side is right.
    "renmei101": _TENHOU.with_options(
        name="renmei101", red_fives=False, ippatsu=False, ura_dora=False, kan_ura_dora=False,
        start_points=30000, return_points=30000, uma=Uma((1, 0, 0, -1)), double_ron=False,
        triple_ron=TripleRon.HEAD_BUMP, nagashi_mangan=False, chombo=ChomboPenalty.POINTS,
        west_round=False, agari_yame=False, tenpai_yame=False, tobi=False),
    # A relaxed home table: kiriage, renhou as mangan, double yakuman, no bust; final scores in
    # whole thousands as most Japanese tables settle them, 500 up, first place takes the rest.
    "casual": _TENHOU.with_options(
        name="casual", kiriage=True, renhou=RenhouValue.MANGAN, double_yakuman=True,
        tobi=False, west_round=False, final_rounding=FinalRounding.THOUSAND_HALF_UP),
    # Tenhou's three-player ranked rooms: 40,000 return (the 15,000 oka to first place) and
    # uma +20/0/-20 (tenhou.net/man, 三麻), final scores rounded as in its four-player rooms;
    # North is a guest wind, not a yakuhai.
    "tenhou_sanma": _TENHOU_RANKED.with_options(
        name="tenhou_sanma", **_SANMA, return_points=40000, uma=Uma((20, 0, -20))),
    # Mahjong Soul's three-player ranked rooms: as its four-player ones (double yakuman, exact
    # end score without oka), uma +15/0/-15, and a North kept in the hand is a yakuhai for
    # everyone (riichi.wiki "Majsoul" and "Sanma").
    "mahjong_soul_sanma": _MAHJONG_SOUL.with_options(
        name="mahjong_soul_sanma", **_SANMA, north_yakuhai=True, return_points=35000,
        uma=Uma((15, 0, -15))),
}

#: Free parlors' rules with chips (`Ruleset.chips`): presets of the rules core, the CLI and the
#: game record; the kiosk's new-game form offers `RULESETS` only until their words are in its
#: catalogues (issue 39).
PARLOR_RULESETS: dict[str, Ruleset] = {
    "parlor": _PARLOR,
    # A four-red free parlor: as `parlor`, with the second red 5p many sets and parlors carry
    # (赤4枚) and chips for open hands' red fives too (鳴き祝, "ほとんどの四麻のフリー雀荘",
    # leonkkblog.com "祝儀とは").
    "parlor_four_reds": _PARLOR.with_options(
        name="parlor_four_reds", red_fives=RedFives(1, 2, 1),
        chips=replace(_PARLOR.chips, open_hand=True)),
    # A three-player free parlor, the part of its published rules these options hold
    # (teneiso.com "フリー麻雀(三人打ち)ルール": east-south with the West round, 35,000 / 40,000,
    # no open tanyao, no atozuke, "五筒・五索は全て赤ドラ": every 5p and 5s red, a chip per ura);
    # its other rules (tsumo +1,000, flowers) are beyond these options. Its stakes are not
    # published there: the four-player parlor's 点5 (`_PARLOR`), for a house to change.
    "parlor_sanma": _TENHOU.with_options(
        name="parlor_sanma", **_SANMA, return_points=40000, uma=Uma((20, 0, -20)),
        red_fives=RedFives(0, 4, 4), kuitan=False, atozuke=False, chips=Chips(ura=1),
        stakes=_PARLOR.stakes),
}
