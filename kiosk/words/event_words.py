"""What happened at the table, in the table's language: one line per event, built from the event
itself (with the game's players and rules) in the catalogue's words, never from the rules core's
English `HistoryRow.what`, which only the exports keep.

>>> from scorer.rules import RULESETS
>>> from scorer.table import AbortKind, AbortiveDraw, Chombo, GameStarted, Win, WinningHand, replay
>>> state = replay([GameStarted(("Aki", "Bun", "Chie", "Dai"), RULESETS["tenhou"])])
>>> describe(Win.ron(0, WinningHand(1, 4, 40)), state, "ja")
'ロン（放銃：Aki）：Bun 4翻40符 満貫'
>>> describe(AbortiveDraw(AbortKind.FOUR_WINDS), state, "ja")
'途中流局：四風連打'
>>> describe(Chombo(3), state, "en")
'Chombo: Dai (pays a mangan)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from kiosk.words.i18n import LANGS, has, t
from kiosk.words.yaku_names import hand_head, hand_summary, limit_name, yaku_name
from scorer.table import (
    ENDED_AT_TABLE,
    AbortiveDraw,
    AbortKind,
    Chombo,
    Correction,
    EndReason,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    RiichiDeclared,
    TableState,
    Win,
    WinningHand,
)
from scorer.table.settlement import rons_paid


def in_every_language(words: Callable[[str], str]) -> dict[str, str]:
    """{"en": ..., "ja": ..., "zh-Hans": ...}: for the live state, which every open page shares
    whatever its language; each page shows its own."""
    return {lang: words(lang) for lang in LANGS}


def ruleset_name(name: str, lang: str = "en") -> str:
    """A preset by its name ("Mahjong Soul", "雀魂"); any other ruleset as it is named."""
    key = "ruleset." + name
    return t(key, lang) if has(key) else name


def _names(players: tuple[str, ...], seats: Iterable[int], lang: str) -> str:
    return t("list.sep", lang).join(players[s] for s in sorted(seats))


def describe(event: Event, state: TableState, lang: str = "en",
             ended: EndReason | None = None) -> str:
    """One event in words. `state` is any state of its game (for the players and the rules);
    `ended` is why the game ended, when this event ended it."""
    what = _what(event, state, lang)
    if ended is not None and not isinstance(event, GameEnded):  # that one says so itself
        what = t("event.game_over", lang, what=what, why=t("end." + ended.value, lang))
    return what


def _what(event: Event, state: TableState, lang: str) -> str:
    players, rules = state.players, state.rules
    if isinstance(event, Win):
        paid = rons_paid(event, rules)
        if paid is None:  # three rons where the rules abort the hand
            return t("event.abort", lang, kind=t("abort." + AbortKind.TRIPLE_RON.value, lang))
        hands = t("list.sep", lang).join(_hand(hand, state, lang) for hand in paid)
        if event.discarder is None:
            return t("event.tsumo", lang, hands=hands)
        return t("event.ron", lang, hands=hands, **{"from": players[event.discarder]})
    if isinstance(event, RiichiDeclared):
        return t("event.riichi", lang, who=players[event.seat])
    if isinstance(event, ExhaustiveDraw):
        if event.nagashi:
            return t("event.nagashi", lang, who=_names(players, event.nagashi, lang))
        if event.tenpai:
            return t("event.tenpai", lang, who=_names(players, event.tenpai, lang))
        return t("event.noten", lang)
    if isinstance(event, AbortiveDraw):
        return t("event.abort", lang, kind=t("abort." + event.kind.value, lang))
    if isinstance(event, Chombo):
        penalty = t("chombo." + rules.chombo.value, lang, points=f"{rules.chombo_points:,}",
                    each=f"{rules.chombo_each:,}")
        return t("event.chombo", lang, who=players[event.seat], penalty=penalty)
    if isinstance(event, Correction):
        return t("event.correction", lang, reason=event.reason)
    if isinstance(event, GameEnded):
        reason = t("event.ended_at_table", lang) if event.reason == ENDED_AT_TABLE else \
            event.reason  # a reason typed at the table is said as typed
        return t("event.ended", lang, reason=reason)
    if isinstance(event, GameStarted):
        return t("event.started", lang, rules=ruleset_name(event.rules.name, lang))
    raise TypeError(f"not an event: {type(event).__name__}")


def _entered(hand: WinningHand) -> bool:
    """Whether the hand was entered by its points (quick mode): said as entered."""
    return bool(hand.breakdown and hand.breakdown.get("entered_points"))


def _hand(hand: WinningHand, state: TableState, lang: str) -> str:
    worth = hand_head(hand.value(state.rules), lang, _entered(hand))
    if hand.liable is None:
        return t("event.hand", lang, winner=state.players[hand.winner], worth=worth)
    return t("event.hand_pao", lang, winner=state.players[hand.winner], worth=worth,
             liable=state.players[hand.liable])


def hand_line(hand: WinningHand, before: TableState, tsumo: bool, lang: str = "en") -> str:
    """A winning hand in the history: its yaku and dora with their han, then what it was worth
    and paid ("Riichi 1, Menzen tsumo 1, Haku 1 — 3 han 40 fu — 1,300/2,600 (5,200)"), from
    the ids and numbers its breakdown kept (its names are in the language it was scored in)."""
    breakdown: dict[str, Any] = dict(hand.breakdown or {})
    parts = []
    for yaku in breakdown.get("yaku", []):
        name = yaku_name(yaku["id"], lang)
        units = yaku.get("yakuman") or (0 if isinstance(yaku.get("han"), int) else 1)
        parts.append(f"{name} {limit_name('yakuman', lang, units)}" if units else
                     t("history.yaku", lang, name=name, han=yaku["han"]))
    lines = breakdown.get("dora_lines")
    if lines is None and breakdown.get("dora"):  # kept before dora had lines of their own
        lines = [{"id": "dora", "han": breakdown["dora"]}]
    kita = breakdown.get("kita", 0)

    def dora_name(line_id: str) -> str:  # kita count as dora (kiosk.table.scoring says so too)
        name = yaku_name(line_id, lang)
        return t("win.dora_kita", lang, dora=name, n=kita) if line_id == "dora" and kita else name

    parts += [t("history.yaku", lang, name=dora_name(d["id"]), han=d["han"])
              for d in lines or ()]
    summary = hand_summary(hand.value(before.rules), hand.winner == before.dealer, tsumo, lang,
                           before.rules, _entered(hand))
    if not parts:  # quick mode: han and fu only
        return summary
    return t("history.hand", lang, yaku=t("list.sep", lang).join(parts), summary=summary)
