"""Whole games to their end, written from the rule texts in ../shared/rules (cited per game).

Each game asserts why it ended, the final points and every player's final score (uma, oka and
penalties in thousands, rounded as the ruleset rounds them: tests/scorer/test_final_rounding.py)
in rank order. Files: overview = riichi-overview.txt, handbook =
riichi-rich-handbook.txt, options = furiten-optional-rules-penalties.txt, tutorial =
tutorial-yaku-calls-rounds.txt.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

from scorer.rules import RULESETS, GameLength, LeftoverSticks, Renchan, Ruleset
from scorer.table import (
    Chombo,
    EndReason,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    RiichiDeclared,
    replay,
)
from tests.scorer.table_notation import hand, ron, tsumo

TENHOU = RULESETS["tenhou"]
R = RiichiDeclared
TIME = GameEnded("time limit")




def draws(count: int, *tenpai: int) -> tuple[ExhaustiveDraw, ...]:
    return (ExhaustiveDraw(frozenset(tenpai)),) * count


# Six non-dealer rons off seat 3 (2,000; 8,000; 2,000; 1,000; 2,000; 2,000), then South 3 and 4
# drawn with nobody tenpai: +11,000 / +4,000 / +2,000 / -17,000. From 30,000 that is the
# handbook's example table (l.523-531: 41,000 / 34,000 / 32,000 / 13,000).
SIX_WINS = (ron(3, hand(1, 2)), ron(3, hand(0, 5)), ron(3, hand(0, 2)), ron(3, hand(0, 1)),
            ron(3, hand(1, 2)), ron(3, hand(2, 2)), *draws(2))


@dataclass(frozen=True)
class Game:
    id: str
    rules: Ruleset
    events: tuple[Event, ...]
    ended: EndReason
    points: tuple[int, int, int, int]
    scores: tuple[tuple[int, str], ...]  # (seat, final score) from first place to last


GAMES = [
    # handbook l.535-547: WRC 30,000 start and return, no oka, uma +15/+5/-5/-15:
    # +26 / +9 / -3 / -32. tutorial l.218: competitive rules have no West round.
    Game("wrc-handbook-example", RULESETS["wrc"], SIX_WINS, EndReason.LAST_HAND,
         (41000, 34000, 32000, 13000), ((0, "26"), (1, "9"), (2, "-3"), (3, "-32"))),
    # handbook l.502-504: EMA as WRC.
    Game("ema-handbook-example", RULESETS["ema"], SIX_WINS, EndReason.LAST_HAND,
         (41000, 34000, 32000, 13000), ((0, "26"), (1, "9"), (2, "-3"), (3, "-32"))),
    # handbook l.551-565: M.League 25,000 start, 30,000 return, oka 20 to first, uma
    # +30/+10/-10/-30 (first +50 in all); options l.106.
    Game("mleague-oka-and-uma", RULESETS["mleague"], SIX_WINS, EndReason.LAST_HAND,
         (36000, 29000, 27000, 8000), ((0, "56"), (1, "9"), (2, "-13"), (3, "-52"))),
    # options l.96-105: Tenhou 25,000 start, 30,000 return (oka 20), uma +20/+10/-10/-20; seat 0
    # has 30,000 after South 4, so no West round (options l.114).
    Game("tenhou-oka-and-uma", TENHOU, SIX_WINS, EndReason.LAST_HAND,
         (36000, 29000, 27000, 8000), ((0, "46"), (1, "9"), (2, "-13"), (3, "-42"))),
    # handbook l.506: 101, 30,000 start and return, "No Oka or Uma, +1 to 1st -1 to 4th".
    Game("renmei101-plus-one-minus-one", RULESETS["renmei101"], SIX_WINS, EndReason.LAST_HAND,
         (41000, 34000, 32000, 13000), ((0, "12"), (1, "4"), (2, "2"), (3, "-18"))),
    # handbook l.569-577, JPML floating uma: only one player at or above 30,000: +12/-1/-3/-8.
    # The dealer's mangan tsumo is 4,000 from each (options l.203 shape); ended on time.
    Game("jpml-floating-uma-one-above", RULESETS["jpml"], (tsumo(0, 5), TIME), EndReason.CALLED,
         (42000, 26000, 26000, 26000), ((0, "24"), (1, "-5"), (2, "-7"), (3, "-12"))),
    # handbook l.577: two players above 30,000: +8/+4/-4/-8.
    Game("jpml-floating-uma-two-above", RULESETS["jpml"],
         (tsumo(0, 2), ron(2, hand(1, 1)), TIME), EndReason.CALLED,
         (33000, 30300, 27700, 29000), ((0, "11"), (1, "4.3"), (3, "-5"), (2, "-10.3"))),
    # handbook l.571: "how many players finish at or above the return point": seat 3 on exactly
    # 30,000 makes three: +8/+3/+1/-12.
    Game("jpml-floating-uma-three-at-or-above", RULESETS["jpml"],
         (tsumo(0, 2), ron(2, hand(1, 1)), ron(2, hand(3, 1)), TIME), EndReason.CALLED,
         (33000, 30300, 26700, 30000), ((0, "11"), (1, "3.3"), (3, "1"), (2, "-15.3"))),
    # handbook l.507 / l.577 say "above 30k": with `floating_uma_at_return` off, 30,000 is not
    # above, two count and the uma is +8/+4/-4/-8.
    Game("jpml-floating-uma-strictly-above",
         RULESETS["jpml"].with_options(floating_uma_at_return=False),
         (tsumo(0, 2), ron(2, hand(1, 1)), ron(2, hand(3, 1)), TIME), EndReason.CALLED,
         (33000, 30300, 26700, 30000), ((0, "11"), (1, "4.3"), (3, "-4"), (2, "-11.3"))),
    # handbook l.360-374: pao + ron, the 48,000 split between the liable (West) and the discarder
    # (South), who also pays the honba; tutorial l.212: below zero ends the game (tobi). Tenhou
    # rounds -300 to 0 (-30 - 20) and first place takes the rest: 86.3 - 0.3.
    Game("pao-ron-split-then-bust", TENHOU,
         (*draws(1, 0), ron(1, hand(0, 0, 0, yakuman=1, liable=2))), EndReason.BUST,
         (76300, -300, 0, 24000), ((0, "86"), (3, "4"), (2, "-40"), (1, "-50"))),
    # tutorial l.212, options l.118: the game ends when someone drops below 0. Dealer baiman
    # 24,000 then 1,500 + 300 at 1 honba; ties (seats 1 and 2) go by seat order. Tenhou rounds
    # -800 to -1,000 (-31 - 20); first place takes the rest: -(5 - 15 - 51) = 61.
    Game("tobi-below-zero", TENHOU, (ron(3, hand(0, 8)), ron(3, hand(0, 1))), EndReason.BUST,
         (50800, 25000, 25000, -800), ((0, "61"), (1, "5"), (2, "-15"), (3, "-51"))),
    # options l.118 ("At exactly 0, play goes on") as an option: tobi at zero ends it. Seat 3
    # riichis with its last 1,000; everyone tenpai pays nothing; the left-over stick goes to
    # first place, seat 1 (tied with seat 2, nearer the first dealer).
    Game("tobi-at-zero-by-rule", TENHOU.with_options(tobi_at_zero=True),
         (ron(3, hand(1, 6)), ron(3, hand(2, 6)), R(3), *draws(1, 0, 1, 2, 3)), EndReason.BUST,
         (25000, 38000, 37000, 0), ((1, "48"), (2, "17"), (0, "-15"), (3, "-50"))),
    # options l.114, tutorial l.215: nobody has 30,000 after South 4, so West 1 is played as
    # sudden death; seat 1's mangan at 8 honba (8,000 + 2,400) ends it at once. 14,600 counts
    # as 15,000 (-15 - 20), first place the rest: -(5 - 15 - 35) = 45.
    Game("west-round-sudden-death", TENHOU, (*draws(8), ron(0, hand(1, 5))),
         EndReason.TARGET_REACHED, (14600, 35400, 25000, 25000),
         ((1, "45"), (2, "5"), (3, "-15"), (0, "-35"))),
    # options l.114: "It goes no further than West 4."
    Game("west-round-ends-after-west-4", TENHOU, draws(12), EndReason.EXTRA_ROUND_OVER,
         (25000, 25000, 25000, 25000), ((0, "35"), (1, "5"), (2, "-15"), (3, "-25"))),
    # overview l.30, tutorial l.94: an east-only game is East 1-4 (here without an extra round).
    Game("east-only-game", TENHOU.with_options(length=GameLength.EAST, west_round=False),
         draws(4), EndReason.LAST_HAND, (25000, 25000, 25000, 25000),
         ((0, "35"), (1, "5"), (2, "-15"), (3, "-25"))),
    # tutorial l.214, options l.128: the all-last dealer wins in first place (at least 30,000 on
    # Tenhou): agari-yame. Dealer mangan 12,000 + 2,100 at 7 honba. 10,900 counts as 11,000.
    Game("agari-yame", TENHOU, (*draws(7), ron(0, hand(3, 5))), EndReason.AGARI_YAME,
         (10900, 25000, 25000, 39100), ((3, "49"), (1, "5"), (2, "-15"), (0, "-39"))),
    # tutorial l.208-213: South 4 ends with a non-dealer win and 30,000 reached: game over.
    Game("all-last-non-dealer-win-ends-the-game", TENHOU, (*draws(7), ron(0, hand(1, 5))),
         EndReason.LAST_HAND, (14900, 35100, 25000, 25000),
         ((1, "45"), (2, "5"), (3, "-15"), (0, "-35"))),
    # options l.128: Tenhou ends the game when the all-last dealer is tenpai at the draw in
    # first place with 30,000 or more (tenpai-yame). Seat 3's South 3 mangan (8,000 + 1,800) puts
    # it first; alone tenpai in South 4 it has 37,800. 14,200 counts as 14,000 (-16 - 20).
    Game("tenpai-yame-tenhou", TENHOU, (*draws(6), ron(0, hand(3, 5)), *draws(1, 3)),
         EndReason.TENPAI_YAME, (14200, 24000, 24000, 37800),
         ((3, "48"), (1, "4"), (2, "-16"), (0, "-36"))),
    # tutorial l.214: tenpai-yame, the dealer tenpai in first place at the last draw (no West
    # round at this table, so first place is enough).
    Game("tenpai-yame", TENHOU.with_options(tenpai_yame=True, west_round=False),
         (*draws(7), *draws(1, 3)), EndReason.TENPAI_YAME, (24000, 24000, 24000, 28000),
         ((3, "38"), (0, "4"), (1, "-16"), (2, "-26"))),
    # tutorial l.149-150: under agari renchan the tenpai all-last dealer does not repeat; the
    # game ends with the hand.
    Game("agari-renchan-ends-at-the-last-draw",
         TENHOU.with_options(renchan=Renchan.AGARI, west_round=False),
         (*draws(7), *draws(1, 3)), EndReason.LAST_HAND, (24000, 24000, 24000, 28000),
         ((3, "38"), (0, "4"), (1, "-16"), (2, "-26"))),
    # Left-over sticks (issue: to first place or lost, by rule): seat 1's riichi stick is still
    # on the table after the last draw and goes to first place (seat 1 itself).
    Game("leftover-stick-to-first-place", RULESETS["casual"],
         (*draws(7), R(1), *draws(1, 1)), EndReason.LAST_HAND, (24000, 28000, 24000, 24000),
         ((1, "38"), (0, "4"), (2, "-16"), (3, "-26"))),
    Game("leftover-stick-lost",
         RULESETS["casual"].with_options(leftover_sticks=LeftoverSticks.LOST),
         (*draws(7), R(1), *draws(1, 1)), EndReason.LAST_HAND, (24000, 27000, 24000, 24000),
         ((1, "37"), (0, "4"), (2, "-16"), (3, "-26"))),
    # Ties by seat order (options l.96-106 uma; Tenhou ranks equal scores by seat).
    Game("tie-by-seat-order", TENHOU, (ron(3, hand(1, 5)), TIME), EndReason.CALLED,
         (25000, 33000, 25000, 17000), ((1, "43"), (0, "5"), (2, "-15"), (3, "-33"))),
    # ... or shared where the table splits ties: seats 0 and 2 share +10 and -10.
    Game("tie-split", TENHOU.with_options(split_ties=True), (ron(3, hand(1, 5)), TIME),
         EndReason.CALLED, (25000, 33000, 25000, 17000),
         ((1, "43"), (0, "-5"), (2, "-5"), (3, "-33"))),
    # handbook l.400 (tournament chombo: points deducted from the final result; WRC's penalty is
    # 20): no points move, the hand is redealt, the deduction comes at the end.
    Game("wrc-chombo-deducted-at-the-end", RULESETS["wrc"], (Chombo(1), *draws(8)),
         EndReason.LAST_HAND, (30000, 30000, 30000, 30000),
         ((0, "15"), (1, "-15"), (2, "-5"), (3, "-15"))),
]


@pytest.mark.parametrize("game", GAMES, ids=[g.id for g in GAMES])
def test_game(game: Game) -> None:
    start = GameStarted(("Ana", "Ben", "Chie", "Dai"), game.rules)
    state = replay((start, *game.events))
    assert state.ended is game.ended
    assert state.points == game.points
    assert [(s.seat, s.score) for s in state.standings] == \
        [(seat, Fraction(score)) for seat, score in game.scores]
    # Scores sum to zero, less sticks lost on the table and tournament penalties.
    lost = state.sticks * game.rules.riichi_stick
    assert sum(s.score for s in state.standings) == \
        Fraction(-lost, 1000) - sum(s.penalty for s in state.standings)


def test_no_agari_or_tenpai_yame_under_competitive_rules() -> None:
    # tutorial l.218: "neither agari yame nor tenpai yame exists (as long as the dealer meets the
    # conditions to continue, they are forced to do so)".
    start = GameStarted(("A", "B", "C", "D"), RULESETS["mleague"])
    won = replay((start, *draws(7), ron(0, hand(3, 5))))
    assert (won.finished, won.label, won.points) == \
        (False, "South 4, 8 honba", (10900, 25000, 25000, 39100))
    tenpai = replay((start, *draws(6), ron(0, hand(3, 5)), *draws(1, 3)))
    assert (tenpai.finished, tenpai.label) == (False, "South 4, 1 honba")


def test_m_league_first_place_gets_plus_50() -> None:
    # options l.106: "Add the 20 from the oka and first place gets +50".
    state = replay((GameStarted(("A", "B", "C", "D"), RULESETS["mleague"]), *SIX_WINS))
    first = state.standings[0]
    assert (first.uma, first.oka, first.rank) == (30, 20, 1)


def test_tied_players_share_rank_when_split() -> None:
    state = replay((GameStarted(("A", "B", "C", "D"), TENHOU.with_options(split_ties=True)),
                    ron(3, hand(1, 5)), TIME))
    assert [(s.seat, s.rank, s.uma) for s in state.standings] == \
        [(1, 1, 20), (0, 2, 0), (2, 2, 0), (3, 4, -20)]
