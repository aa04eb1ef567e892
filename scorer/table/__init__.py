"""The game at the table: events folded into a state, paid by the rules, kept as a record.

The modules, in the order a game flows through them:

- `events`: what the table saw (a win, a draw, a riichi, ...), and `IllegalEvent`;
- `validation`: checks on an event that need no game state (seats, han and fu, pao);
- `settlement`: who pays whom when a hand ends;
- `game`: `apply` / `replay` / `Table`, the fold of events into a `TableState` (undo, redo);
- `amend`: a hand already played corrected, the game replayed and re-paid from there;
- `state`: `TableState`, its history rows and the final `Standing`s;
- `standings`: left-over sticks, placement, uma, oka and the rounding of the final scores;
- `record`: the versioned JSON game record (docs/game-record.md); `record_json` its rules
  and strict readers.

The public face is re-exported here (`from scorer.table import Win, replay, dumps`); the
helpers of settlement, standings and validation are imported from their own modules.
"""

from scorer.table.amend import Amendment, Repaid, amend
from scorer.table.events import (
    ENDED_AT_TABLE,
    EVENT_TYPES,
    SEATS,
    AbortiveDraw,
    AbortKind,
    Chombo,
    Correction,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    IllegalEvent,
    RiichiDeclared,
    Transfer,
    Win,
    WinningHand,
)
from scorer.table.game import Table, apply, replay, start
from scorer.table.record import (
    FORMAT,
    VERSION,
    dumps,
    event_from_dict,
    event_from_json,
    event_to_dict,
    event_to_json,
    events_from_record,
    loads,
    parse_json,
)
from scorer.table.record_json import RecordError, rules_from_dict, rules_to_dict
from scorer.table.state import EndReason, HistoryRow, Standing, TableState

__all__ = [
    "ENDED_AT_TABLE", "EVENT_TYPES", "FORMAT", "SEATS", "VERSION", "AbortKind", "AbortiveDraw",
    "Amendment", "Chombo", "Correction", "EndReason", "Event", "ExhaustiveDraw", "GameEnded",
    "GameStarted", "HistoryRow", "IllegalEvent", "RecordError", "Repaid", "RiichiDeclared",
    "Standing", "Table", "TableState", "Transfer", "Win", "WinningHand", "amend", "apply",
    "dumps", "event_from_dict", "event_from_json", "event_to_dict", "event_to_json",
    "events_from_record", "loads", "parse_json", "replay", "rules_from_dict", "rules_to_dict",
    "start",
]
