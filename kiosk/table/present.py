"""The game as JSON for the pages, the API, the live stream and the exports."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

from kiosk.table import rules_json
from kiosk.words.event_words import describe, hand_line, in_every_language, ruleset_name
from kiosk.words.i18n import t
from scorer.rules import ChomboPenalty, TripleRon
from scorer.table import Table, TableState, Win, apply
from scorer.table.events import AbortKind
from scorer.table.money import settle_money
from scorer.table.settlement import chombo_deltas
from scorer.table.standings import standings, with_leftover_sticks


def _num(value: Fraction) -> float:
    return round(float(value), 1)


def offers(s: TableState) -> dict[str, Any]:
    """What the pages offer at this table, so that nothing is offered only to be refused:
    `aborts`, the abortive draws the rules know (three rons only where they abort the hand,
    four winds only at four players); `chi`, whether a meld may be a chi (nobody calls chi at
    three players); `riichi_from`, the points a seat needs to declare riichi (0: any); `chombo`,
    what a chombo costs each seat before it is applied: `pays` now (a reverse mangan, 8,000 for a
    non-dealer), `final` off the final score; `ura`, whether a riichi win counts ura dora (the
    win page asks for them before it applies one)."""
    rules, seats = s.rules, len(s.players)
    aborts = [k.value for k in AbortKind if k is not AbortKind.TRIPLE_RON and rules.abortive_draws
              and (k is not AbortKind.FOUR_WINDS or seats == 4)]
    if rules.triple_ron is TripleRon.ABORT:
        aborts.append(AbortKind.TRIPLE_RON.value)
    final = rules.chombo_points if rules.chombo is ChomboPenalty.POINTS else 0
    chombo = [{"pays": -chombo_deltas(seat, s.dealer, rules)[seat], "final": final}
              for seat in range(seats)]
    return {"aborts": aborts, "chi": seats == 4,
            "riichi_from": rules.riichi_stick if rules.riichi_needs_points else 0,
            "chombo": chombo, "ura": rules.ura_dora}


def state_json(table: Table | None, game_id: str = "") -> dict[str, Any]:
    if table is None:
        return {"game": None, "seats": [], "finished": False, "can_undo": False,
                "can_redo": False}
    s = table.state
    last = s.history[-1] if s.history else None
    return {
        # `kita`: the win page asks for Norths pulled out (sanma's nukidora) only where the
        # rules pull them; how many sit is `len(seats)` (3 or 4).
        "game": {"id": game_id, "ruleset": s.rules.name, "players": list(s.players),
                 "events": len(table.events), "kita": s.rules.nukidora,
                 "ruleset_name": in_every_language(lambda lang: ruleset_name(s.rules.name, lang)),
                 # whether wins move chips (祝儀) beside the points: the seats' `chips` shown
                 "chips": s.rules.chips.pays, "offers": offers(s)},
        "seats": [{"seat": i, "name": s.players[i], "points": s.points[i],
                   "chips": _chips(s)[i], "wind": s.seat_wind(i).value, "dealer": i == s.dealer,
                   "riichi": i in s.riichi} for i in range(len(s.players))],
        "round_wind": s.round_wind.value,
        "hand": s.hand_number,
        "label": s.label,
        "honba": s.honba,
        "riichi_sticks": s.sticks,
        "dealer": s.dealer,
        "finished": s.finished,
        "end_reason": s.ended.value if s.ended else None,
        "can_undo": table.can_undo,
        "can_redo": table.can_redo,
        # `summary` is the rules core's English (for scripts); the pages show `text`, in theirs.
        "last_event": {"summary": last.what, "deltas": list(last.deltas),
                       "text": in_every_language(lambda lang: describe(
                           table.events[-1], s, lang, s.ended))} if last else None,
    }


def _chips(s: TableState) -> tuple[int, ...]:
    """Each seat's chips, won (+) or paid (-); 0 each where the rules pay none."""
    return s.chips or (0,) * len(s.players)


def _breakdowns(event: Any) -> list[dict[str, Any]]:
    if not isinstance(event, Win):
        return []
    return [dict(h.breakdown) for h in event.hands if h.breakdown]


def history_json(table: Table, lang: str = "en") -> dict[str, Any]:
    """Every event with what it moved; `text`, `round_text` and each winning hand's line in
    `lang` (`summary` and `round` are the rules core's English, for scripts)."""
    s = table.state
    entries = []
    before: TableState | None = None
    for row, event in zip(s.history, table.events, strict=False):
        after = apply(before, event)
        at = before or after  # the hand it happened in (the game's first for its start)
        ended = s.ended if row is s.history[-1] else None
        entry = {"index": row.index, "round": row.hand, "summary": row.what,
                 "text": describe(event, s, lang, ended), "type": getattr(event, "TYPE", ""),
                 "deltas": list(row.deltas), "points": list(row.points), "honba": row.honba,
                 "sticks": row.sticks, "chips": list(row.chips or (0,) * len(s.players)),
                 "breakdowns": _breakdowns(event),
                 "round_text": t("history.round", lang, honba=t("table.honba", lang, n=at.honba),
                                 round=t("round", lang, hand=at.hand_number,
                                         wind=t(f"wind.{at.round_wind.value}", lang)))}
        if isinstance(event, Win):
            entry["hands"] = [{"text": hand_line(h, at, event.discarder is None, lang),
                               "reading": (h.breakdown or {}).get("reading", ""),
                               # red fives and sideways tiles (kiosk.table.hand_tiles); absent in
                               # records kept before it, where the page draws `reading`
                               "tiles": (h.breakdown or {}).get("tiles")}
                              for h in event.hands if h.breakdown]
        entries.append(entry)
        before = after
    return {"players": list(s.players), "entries": entries,
            "undone": len(table.undone), "ruleset": rules_json.to_json(s.rules)}


def standings_json(table: Table) -> dict[str, Any]:
    """Final standings, or provisional ones (as if the game ended now) while it runs; each
    player's chips, and `money` where the rules have stakes (`Ruleset.stakes`): each player's
    settlement (`scorer.table.money.settle_money`), in place order."""
    s = table.state
    rows = s.standings
    if not rows:
        points = with_leftover_sticks(s.points, s.sticks, s.first_dealer, s.rules)
        rows = standings(s.players, points, s.penalties, s.first_dealer, s.rules)
    chips = _chips(s)
    stakes = s.rules.stakes
    money = None
    if stakes.settles:
        money = {"rate": stakes.rate, "chip": stakes.chip, "game_fee": stakes.game_fee,
                 "top_fee": stakes.top_fee,
                 "lines": [{"seat": m.seat, "name": m.name, "place": m.rank,
                            "score": _num(m.score), "chips": m.chips, "for_score": m.for_score,
                            "for_chips": m.for_chips, "fee": m.fee, "total": m.total}
                           for m in settle_money(rows, chips, stakes)]}
    return {"finished": s.finished, "end_reason": s.ended.value if s.ended else None,
            "chips": s.rules.chips.pays, "money": money,
            "standings": [{"seat": r.seat, "name": r.name, "place": r.rank, "points": r.points,
                           "uma": _num(r.uma), "oka": _num(r.oka), "penalty": _num(r.penalty),
                           "final": _num(r.score), "chips": chips[r.seat]} for r in rows]}


#: What a spreadsheet reads as the start of a formula (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell: Any) -> Any:
    """Text that a spreadsheet would run as a formula, quoted so it shows as text; numbers (a
    negative change too) stay numbers."""
    if isinstance(cell, str) and cell.startswith(_FORMULA_START):
        return "'" + cell
    return cell


def history_csv(table: Table, lang: str = "en") -> str:
    """One row per event: index, hand, what happened, each seat's change and points after; the
    columns and words in `lang` (English keeps the rules core's own `hand` and `what`)."""
    s = table.state
    out = io.StringIO()
    writer = csv.writer(out)

    def write(cells: list[Any]) -> None:
        writer.writerow([spreadsheet_safe(cell) for cell in cells])

    words = {} if lang == "en" else {e["index"]: e for e in history_json(table, lang)["entries"]}
    write([t("csv.index", lang), t("csv.hand", lang), t("csv.event", lang),
           *(t("csv.change", lang, player=p) for p in s.players),
           *(t("csv.points", lang, player=p) for p in s.players), t("csv.honba", lang),
           t("csv.sticks", lang)])
    for row in s.history:
        said = words.get(row.index)
        write([row.index, said["round_text"] if said else row.hand,
               said["text"] if said else row.what, *row.deltas, *row.points, row.honba,
               row.sticks])
    if s.standings:
        write([])
        write([t(f"csv.{column}", lang) for column in
               ("place", "player", "score_points", "uma", "oka", "penalty", "final")])
        for r in s.standings:
            write([r.rank, r.name, r.points, _num(r.uma), _num(r.oka), _num(r.penalty),
                   _num(r.score)])
    return out.getvalue()
