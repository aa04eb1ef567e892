"""Whole hands at the table, written from the rule texts in ../shared/rules (cited per scenario).

Each scenario plays events from East 1 (seat 0 deals, 25,000 each unless the ruleset says
otherwise) and asserts the exact points, the hand reached, honba and sticks left on the table.
Files: overview = riichi-overview.txt, handbook = riichi-rich-handbook.txt, options =
furiten-optional-rules-penalties.txt, tutorial = tutorial-yaku-calls-rounds.txt.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from scorer.rules import RULESETS, ChomboPenalty, Renchan, Ruleset
from scorer.table import (
    AbortiveDraw,
    AbortKind,
    Chombo,
    Event,
    ExhaustiveDraw,
    GameStarted,
    RiichiDeclared,
    replay,
)
from tests.scorer.table_notation import hand, ron, tsumo

TENHOU = RULESETS["tenhou"]
R = RiichiDeclared




def draw(*tenpai: int, nagashi: tuple[int, ...] = ()) -> ExhaustiveDraw:
    return ExhaustiveDraw(frozenset(tenpai), frozenset(nagashi))


@dataclass(frozen=True)
class Scenario:
    id: str
    rules: Ruleset
    events: tuple[Event, ...]
    points: tuple[int, int, int, int]
    hand: str  # e.g. "East 2, 1 honba": where the next hand stands
    sticks: int = 0


SCENARIOS = [
    # tutorial l.148-151: a dealer win is a renchan and adds a honba; l.188: each honba is 300 on
    # a ron, 100 from each player on a tsumo; handbook l.300-306: a non-dealer win resets it.
    # Dealer ron 2/30 = 2,900; dealer tsumo 1/30 at 1 honba = 600 all; ron 3/40 at 2 honba 5,800.
    Scenario("renchan-chain-then-non-dealer-win", TENHOU,
             (ron(1, hand(0, 2)), tsumo(0, 1), ron(3, hand(2, 3, 40))),
             (29700, 21500, 30200, 18600), "East 2, 0 honba"),
    # handbook l.336: "Round starts with 2 Honba -> North wins, gets 2 Honba payment -> Reset to
    # 0 -> East wins -> 1 Honba -> Exhaustive draw -> 2 Honba -> South wins, gets 2 Honba
    # payment -> Reset to 0"; tutorial l.206: a draw moves the deal on but adds a honba.
    # North (seat 1 in East 3) mangan tsumo at 2 honba: 4,200 / 2,200; East 4 dealer ron 2,900;
    # seat 0 alone tenpai; South (seat 1 in South 1) ron 1,000 + 600.
    Scenario("handbook-honba-walkthrough", TENHOU,
             (draw(), draw(), tsumo(1, 5), ron(0, hand(3, 2)), draw(0), ron(2, hand(1, 1))),
             (22900, 34200, 18200, 24700), "South 2, 0 honba"),
    # handbook l.318-320: "2 Honba: Normal Ron = 8,000 || Honba = 2 x 300 = 600 || Total = 8,600";
    # the dealer reached 2 honba tenpai alone twice (tutorial l.150, 197: 1,000 from each).
    Scenario("two-honba-ron-pays-8600", TENHOU,
             (draw(0), draw(0), ron(3, hand(2, 5))),
             (31000, 23000, 31600, 14400), "East 2, 0 honba"),
    # options l.205: sticks from earlier hands stay on the table; wrc l.89: "the value of
    # continuance counters and riichi bets are added". Three sticks and a honba to the winner.
    Scenario("riichi-sticks-carried-to-the-next-winner", TENHOU,
             (R(1), draw(1), R(2), R(3), ron(3, hand(2, 2, 40))),
             (24000, 27000, 28900, 20100), "East 3, 0 honba"),
    # options l.162 (double ron: the sticks and honba go to the winner closest in turn order to
    # the discarder); handbook l.270-277 (East pays South 8,000 and West 12,000 separately).
    Scenario("double-ron-sticks-and-honba-to-the-nearest", TENHOU,
             (R(0), draw(0), ron(0, hand(2, 6), hand(1, 5))),
             (6700, 33300, 36000, 24000), "East 2, 0 honba"),
    # options l.162: "closest in turn order": after seat 3 play seat 0, 1, 2; seat 1 is nearer
    # than seat 2 although it is listed second.
    Scenario("double-ron-nearest-counts-turns-round-the-table", TENHOU,
             (R(2), ron(3, hand(2, 1), hand(1, 1))),
             (25000, 27000, 25000, 23000), "East 2, 0 honba"),
    # options l.162 + tutorial l.149: the dealer is one of two winners, so the deal repeats
    # (honba +1); the other winner, nearer the discarder, gets nothing extra here (no sticks).
    Scenario("double-ron-with-the-dealer-is-a-renchan", TENHOU,
             (ron(2, hand(0, 2), hand(3, 2)),),
             (27900, 25000, 20100, 27000), "East 1, 1 honba"),
    # options l.164 (atamahane: only the winner closest to the discarder wins; the other ron does
    # not count): M.League plays it; seat 1's 2,000 + the stick beats seat 3's mangan.
    Scenario("atamahane-head-bump", RULESETS["mleague"],
             (R(3), ron(0, hand(3, 5), hand(1, 2))),
             (23000, 28000, 25000, 24000), "East 2, 0 honba"),
    # options l.166 ("With three rons on the same tile, Tenhou declares an abortive draw"),
    # handbook l.283 ("The hand is redealt"): same dealer, honba +1, the stick stays.
    Scenario("triple-ron-aborts-under-tenhou", TENHOU,
             (R(1), ron(0, hand(1, 1), hand(2, 1), hand(3, 1))),
             (25000, 24000, 25000, 25000), "East 1, 1 honba", sticks=1),
    # options l.166 ("... and Mahjong Soul pays all three"); handbook l.281: the fourth pays all.
    Scenario("triple-ron-all-paid-under-mahjong-soul", RULESETS["mahjong_soul"],
             (R(2), ron(0, hand(1, 1), hand(2, 1), hand(3, 1))),
             (22000, 27000, 25000, 26000), "East 2, 0 honba"),
    # handbook l.344-358 (pao + tsumo: the liable player pays the entire yakuman + honba; a dealer
    # yakuman is 48,000); options l.172, l.175. No bust here (tobi off) to see the negative score.
    Scenario("pao-tsumo-liable-pays-all-and-the-honba", TENHOU.with_options(tobi=False),
             (draw(0), tsumo(0, 0, 0, yakuman=1, liable=2)),
             (76300, 24000, -24300, 24000), "East 1, 2 honba"),
    # handbook l.340 (pao changes who pays the yakuman, not its value): of a double yakuman the
    # liable seat 3 answers for one (32,000 alone), the other is an ordinary tsumo
    # (16,000 / 8,000 / 8,000).
    Scenario("pao-on-one-of-two-stacked-yakuman", TENHOU.with_options(tobi=False),
             (tsumo(1, 0, 0, yakuman=2, liable=3, liable_yakuman=1),),
             (9000, 89000, 17000, -15000), "East 2, 0 honba"),
    # options l.200-205 (chombo: a non-dealer pays 4,000 to the dealer and 2,000 to each other;
    # no honba added, the deal stays, sticks of that hand go back, earlier sticks stay);
    # handbook l.396-408 says the same for a redeal.
    Scenario("chombo-mid-riichi-returns-this-hands-sticks", TENHOU,
             (R(2), draw(2), R(3), R(0), Chombo(3)),
             (26000, 28000, 29000, 16000), "East 2, 1 honba", sticks=1),
    # options l.203: "A dealer pays 12,000 in all: 4,000 to each player."
    Scenario("dealer-chombo-pays-4000-all", TENHOU, (Chombo(0),),
             (13000, 29000, 29000, 29000), "East 1, 0 honba"),
    # handbook l.400: "For Casual play a 1000 points penalty can be imposed, to be paid to every
    # player."
    Scenario("chombo-casual-1000-to-each", TENHOU.with_options(chombo=ChomboPenalty.PAY_EACH),
             (Chombo(2),), (26000, 26000, 22000, 26000), "East 1, 0 honba"),
    # handbook l.492 (suucha riichi: all 4 declare riichi); the four sticks stay and go to the
    # next winner with the honba the abort added (1,000 + 300 + 4,000).
    Scenario("four-riichi-abort-then-the-sticks-go-to-the-next-winner", TENHOU,
             (R(0), R(1), R(2), R(3), AbortiveDraw(AbortKind.FOUR_RIICHI), ron(1, hand(2, 1))),
             (24000, 22700, 29300, 24000), "East 2, 0 honba"),
    # overview l.291: "Triple/Quadruple riichi: Three or four players all declare riichi".
    Scenario("sancha-riichi-aborts-where-the-rules-say-three", TENHOU.with_options(
        riichi_abort_count=3), (R(1), R(2), R(3), AbortiveDraw(AbortKind.FOUR_RIICHI)),
             (25000, 24000, 24000, 24000), "East 1, 1 honba", sticks=3),
    # overview l.287: abortive draws "typically without dealer repeat" (abortive_renchan off).
    Scenario("abortive-draw-moving-the-deal", TENHOU.with_options(abortive_renchan=False),
             (AbortiveDraw(AbortKind.NINE_TERMINALS),),
             (25000, 25000, 25000, 25000), "East 2, 1 honba"),
    # tutorial l.196-200, overview l.296-299: two tenpai get 1,500 from each noten player; three
    # tenpai get 1,000 each from the one noten player; the tenpai dealer repeats.
    Scenario("noten-payments-two-then-three-tenpai", TENHOU,
             (draw(1, 3), draw(0, 1, 2)),
             (24500, 27500, 24500, 23500), "East 2, 2 honba"),
    # tutorial l.149-150 / options l.126: under agari renchan a tenpai dealer still passes the
    # deal, though noten payments and the honba are as always.
    Scenario("agari-renchan-tenpai-dealer-passes-the-deal",
             TENHOU.with_options(renchan=Renchan.AGARI), (draw(0),),
             (28000, 24000, 24000, 24000), "East 2, 1 honba"),
    # options l.156: nagashi mangan "you collect as if you'd won a mangan by tsumo" (4,000 from
    # the dealer, 2,000 from the others); the tenpai riichi player gets no noten payment, the
    # stick stays, a draw adds a honba.
    Scenario("nagashi-mangan-non-dealer", TENHOU,
             (R(1), draw(1, nagashi=(2,))),
             (21000, 22000, 33000, 23000), "East 2, 1 honba", sticks=1),
    # options l.156 with a dealer: a dealer's mangan tsumo is 4,000 from each.
    Scenario("nagashi-mangan-dealer", TENHOU, (draw(0, nagashi=(0,)),),
             (37000, 21000, 21000, 21000), "East 1, 1 honba"),
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario(scenario: Scenario) -> None:
    start = GameStarted(("Ana", "Ben", "Chie", "Dai"), scenario.rules)
    state = replay((start, *scenario.events))
    assert state.points == scenario.points
    assert (state.label, state.sticks) == (scenario.hand, scenario.sticks)
    assert not state.finished
    # Nothing made or lost: the players' points and the sticks on the table add up.
    assert sum(state.points) + state.sticks * scenario.rules.riichi_stick == \
        4 * scenario.rules.start_points
