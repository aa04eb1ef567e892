"""Correcting a hand already played: preview what it changes, then apply it (docs/api.md).

The correction names the event by its index in the history and gives what the table really saw:
a win as `POST /api/wins` takes it (scored as the table stood at that hand: its dealer, winds,
honba and riichi), or any event in the game record's JSON (docs/game-record.md), e.g. an
exhaustive draw with other tenpai seats. Every later event is replayed and re-paid by the rules
(`scorer.table.amend`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kiosk.errors import ApiError
from kiosk.table import checks, scoring, winspec
from kiosk.table.amend_json import amendment_json
from kiosk.web.api.common import blueprint, json_object
from kiosk.web.context import language, services
from kiosk.web.idempotency import Answer, keyed
from scorer.limits import GAME_EVENTS, Range, brief
from scorer.table import Event, RecordError, Win, event_from_dict, replay

EVENTS = Range(1, GAME_EVENTS)
_FIELDS = {"event", "win"}


def _no_event(index: int, length: int) -> ApiError:
    return ApiError(404, f"no event {index} to correct: the game's events are 1-{length - 1} "
                    "(0 is its start)", code="amend_no_event", words={"index": index})


def _win(raw: Any, index: int) -> Event:
    """A win (or the rons on one discard, a list of 1-3) scored where event `index` happened."""
    specs = raw if isinstance(raw, list) else [raw]
    if not 1 <= len(specs) <= 3:
        raise ApiError(400, "win: expected a win, or a list of 1-3 rons on one discard",
                       code="wins_list")
    before = replay(services().game.table.events[:index])
    scored = []
    for i, spec in enumerate(specs):
        one = scoring.score_spec(winspec.parse_spec(spec, before), before, language())
        if not one.breakdown["is_win"]:
            raise ApiError(422, f"win[{i}]: not a win: {one.breakdown['verdict']}",
                           one.breakdown.get("problems", []), breakdown=one.breakdown,
                           code="not_applied", words={"verdict": one.breakdown["verdict"]})
        scored.append(one)
    scoring.add_payment_lines(scored, before, language())
    return _keep_chips(scoring.win_event(scored), specs, index)


def _keep_chips(new: Event, specs: list[Any], index: int) -> Event:
    """A win corrected by han and fu alone (no tiles to count chips from) keeps the chips its
    hands took as played: the red fives, ura and one-shot are the hand's, whoever won it."""
    old = services().game.table.events[index]
    quick = all(isinstance(s, dict) and "quick" in s for s in specs)
    if not (quick and isinstance(new, Win) and isinstance(old, Win)
            and len(new.hands) == len(old.hands)):
        return new
    return replace(new, hands=tuple(replace(h, chips=o.chips)
                                    for h, o in zip(new.hands, old.hands, strict=True)))


def correction(body: dict[str, Any], index: int) -> Event:
    """The event that replaces event `index`, from `event` (record JSON) or `win`."""
    length = len(services().game.table.events)
    if not 1 <= index < length:
        raise _no_event(index, length)
    given = _FIELDS & set(body)
    if len(given) != 1:
        raise ApiError(400, "give either 'event' (an event as the game record writes it) or "
                       "'win' (as POST /api/wins takes it)", code="amend_event_or_win")
    if "win" in body:
        return _win(body["win"], index)
    try:
        return event_from_dict(body["event"])
    except RecordError as e:
        where = f"event.{e.field}" if e.field else "event"
        raise ApiError(400, f"{where}: {e.reason}", field=where, code="amend_event_field",
                       words={"field": where, "got": brief(body["event"])}) from None


@blueprint.post("/history/<int:index>/preview")
def preview_correction(index: int) -> dict[str, Any]:
    """What correcting event `index` changes: nothing is stored."""
    body = json_object()
    checks.known_fields(body, _FIELDS)
    game = services().game
    with game.lock:
        fixed = game.amendment(index, correction(body, index))
        return {**amendment_json(fixed, language()), "game": game.game_id,
                "events": len(fixed.played)}


@blueprint.post("/history/<int:index>")
@keyed()
def apply_correction(answer: Answer, index: int) -> None:
    """Correct event `index`: `game` and `events` are those the preview answered with (a change
    recorded since is a 409); `drop_later` accepts losing later events that cannot happen."""
    body = json_object()
    checks.known_fields(body, _FIELDS | {"game", "events", "drop_later"})
    game_id = body.get("game")
    if not isinstance(game_id, str):
        raise ApiError(400, f"game: expected the game's id from the preview, got "
                       f"{brief(game_id)}", code="field_text",
                       words={"field": "game", "got": brief(game_id)})
    expected = (game_id, checks.whole(body.get("events"), "events", EVENTS))
    drop_later = checks.flag(body.get("drop_later", False), "drop_later")
    game, lang = services().game, language()
    event = correction(body, index)
    shown = game.amendment(index, event)
    answer.render = lambda table, gid: {"state": game.state_of(table, gid),
                                        "amendment": amendment_json(shown, lang)}
    game.amend(index, event, expected, drop_later, answer)
