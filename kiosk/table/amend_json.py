"""A corrected hand as JSON (`scorer.table.amend`): what it changes, shown before it is applied.

Each event from the corrected one on, with the hand it happens in and what it paid before and
after; the final points before and after; and, when the corrected game cannot reach some later
events (it now ends earlier, a riichi can no longer be paid), which ones and the rules' reason,
in the session's language.
"""

from __future__ import annotations

from typing import Any

from kiosk.words import refusal_words
from kiosk.words.event_words import describe
from kiosk.words.i18n import t
from scorer.table import Amendment, Event, HistoryRow, IllegalEvent, TableState, apply
from scorer.table.record import event_to_dict


def _round_text(state: TableState, lang: str) -> str:
    return t("history.round", lang, honba=t("table.honba", lang, n=state.honba),
             round=t("round", lang, hand=state.hand_number,
                     wind=t(f"wind.{state.round_wind.value}", lang)))


def _row(row: HistoryRow, at: TableState, text: str, lang: str) -> dict[str, Any]:
    """One side of a repaid event: the hand it happened in, what it moved, where it left us."""
    return {"round": row.hand, "round_text": _round_text(at, lang), "text": text,
            "deltas": list(row.deltas), "points": list(row.points), "honba": row.honba,
            "sticks": row.sticks}


def refusal_json(error: IllegalEvent, state: TableState, lang: str) -> dict[str, Any]:
    """Why a later event cannot happen in the corrected game (`state`): the rules' English, and
    the same in `lang` (a game that now ends before it says why it ends)."""
    words: dict[str, Any] = {k: f"{v:,}" if isinstance(v, int) and k != "seat" else v
                             for k, v in error.values.items()}
    seat = error.values.get("seat")
    if isinstance(seat, int) and 0 <= seat < len(state.players):
        words["who"] = state.players[seat]
    code = error.code or "illegal_event"
    n = (error.index or 0) + 1  # the history numbers events from 1
    if code == "game_over" and state.ended is not None:
        text = t("amend.ended", lang, n=n, why=t("end." + state.ended.value, lang))
    else:
        text = t("amend.cannot", lang, n=n, why=t("err." + code, lang, **{
            k: refusal_words.word(v, lang) for k, v in words.items()}))
    return {"index": error.index, "type": error.event_type, "code": code, "words": words,
            "error": str(error), "text": text}


def amendment_json(fixed: Amendment, lang: str = "en") -> dict[str, Any]:
    """The preview of a correction: `changes` (each event from the corrected one on, `old` and
    `new`), `points` before and after, `finished` and `end_reason` before and after, `dropped`
    (the indices of the events the corrected game cannot reach, with `dropped_text`) and
    `refusal` (why the first cannot, or null)."""
    upto = fixed.index + len(fixed.rows)
    old_at = _states_before(fixed.played, fixed.index, upto)
    new_at = _states_before(fixed.events, fixed.index, upto)
    changes = []
    for row, old, new in zip(fixed.rows, old_at, new_at, strict=True):
        changes.append({
            "index": row.index, "type": getattr(row.event, "TYPE", ""), "changed": row.changed,
            "old": _row(row.old, old, describe(fixed.played[row.index], fixed.was, lang), lang),
            "new": _row(row.new, new, describe(row.event, fixed.state, lang), lang)})
    return {
        "index": fixed.index, "event": event_to_dict(fixed.replacement), "changes": changes,
        "points": {"old": list(fixed.was.points), "new": list(fixed.state.points)},
        "finished": {"old": fixed.was.finished, "new": fixed.state.finished},
        "end_reason": {"old": fixed.was.ended.value if fixed.was.ended else None,
                       "new": fixed.state.ended.value if fixed.state.ended else None},
        "dropped": list(fixed.dropped),
        "dropped_text": [describe(fixed.played[i], fixed.was, lang) for i in fixed.dropped],
        "refusal": (refusal_json(fixed.refusal, fixed.state, lang)
                    if fixed.refusal else None),
    }


def _states_before(events: tuple[Event, ...], first: int, upto: int) -> list[TableState]:
    """The state before each of `events[first:upto]` (the round each happens in, in words)."""
    state: TableState | None = None
    out = []
    for i, event in enumerate(events[:upto]):
        if i >= first and state is not None:
            out.append(state)
        state = apply(state, event)
    return out
