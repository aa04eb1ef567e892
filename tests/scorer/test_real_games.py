"""Every one of the 271 whole real Tenhou games replays to Tenhou's own final scores.

Each game record (../shared/scoring/tenhou-games-dev, docs/game-record.md) carries Tenhou's points
after every event, so reading it checks each payment, the honba and the sticks on the way; here the
game must also end with its last event (not before: the replay refuses an event after the end; not
after: `finished`), on Tenhou's final points, and with Tenhou's final scores (uma, oka and the
rounding of `FinalRounding.THOUSAND_HALF_UP`) for every seat. Failures are grouped by what differs.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from scorer.rules import RULESETS
from scorer.table import EndReason, RecordError, TableState, events_from_record, parse_json
from tests.scorer.tenhou_data import SCORING, assert_every_row_agrees, json_lines

GAMES = SCORING / "tenhou-games-dev"


def _expected() -> list[dict[str, Any]]:
    return json_lines(GAMES / "expected.jsonl")


def _replay(row: dict[str, Any]) -> TableState:
    text = (GAMES / f"{row['game']}.json").read_text(encoding="utf-8")
    return events_from_record(parse_json(text))[1]


def _differences(row: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """What differs between our replay and Tenhou's end: {aspect: (ours, Tenhou's)}."""
    try:
        state = _replay(row)
    except RecordError as error:  # a payment, the honba or an end Tenhou did not make
        return {"replay": (str(error), "every event as Tenhou recorded it")}
    out: dict[str, tuple[Any, Any]] = {}
    if not state.finished:
        out["end"] = (f"still running at {state.label}", "over after the last event")
    if list(state.points) != row["final_points"]:
        out["final_points"] = (list(state.points), row["final_points"])
    ours = {s.seat: s.score for s in state.standings}
    # Tenhou writes its scores as decimals (8.0, -22.0); read them exactly.
    tenhou = [Fraction(str(score)) for score in row["owari_scores"]]
    if [ours.get(seat) for seat in range(4)] != tenhou:
        out["final_scores"] = ([str(ours.get(seat)) for seat in range(4)],
                               [str(score) for score in tenhou])
    return out


def test_every_real_game_ends_on_tenhous_final_scores() -> None:
    rows = _expected()
    assert len(rows) == 271
    assert_every_row_agrees(rows, _differences, lambda row: row["game"], "games")


def test_the_games_cover_what_they_are_trusted_for() -> None:
    """The rounding and the extension round are exercised (guards a thinned folder)."""
    states = [_replay(row) for row in _expected()]
    assert all(s.rules.final_rounding is RULESETS["tenhou"].final_rounding for s in states)
    below_first = [row for s in states for row in s.standings[1:]]
    # A half thousand is what tells the conventions apart: 28,500 counts as 29,000 (not 28,000)
    # and -500 as -1,000 (not 0: the rounding goes by size, not towards +infinity).
    assert any(r.points > 0 and r.points % 1000 == 500 for r in below_first)
    assert any(r.points < 0 and -r.points % 1000 == 500 for r in below_first)
    ends = {s.ended for s in states}
    assert {EndReason.TARGET_REACHED, EndReason.EXTRA_ROUND_OVER, EndReason.AGARI_YAME,
            EndReason.TENPAI_YAME, EndReason.BUST, EndReason.LAST_HAND} <= ends
    # The extension round with the dealer repeating (West 1 below the target: play on), and
    # East-only games whose extension is the South round.
    assert any("West 1, 1 honba" in row.hand for s in states for row in s.history)
    assert any(s.rules.length.value == "east" and s.in_extra_round for s in states)
