"""The rules core's `score()` and its result as the breakdown the win page shows.

A hand that does not win (no winning shape, no yaku, furiten) is a breakdown with `is_win`
false and a plain `verdict` (the rules core's words, `scorer.names.verdict_words`); nothing is
applied for it.
"""

from __future__ import annotations

from typing import Any

from kiosk.words.i18n import t
from kiosk.words.yaku_names import limit_name, tile_name, yaku_name
from scorer.names import verdict_words as verdict
from scorer.result import Score
from scorer.score import score

__all__ = ["breakdown_of", "furiten_breakdown", "score", "verdict", "yaku_name"]


def breakdown_of(result: Score, lang: str = "en") -> dict[str, Any]:
    if not result.is_win:
        return {"is_win": False, "outcome": result.outcome.value,
                "verdict": verdict(result, lang), "problems": [], "yaku": [], "fu_items": []}
    yaku = [{"id": y, "name": yaku_name(y, lang), "han": h} for y, h in result.yaku]
    yaku += [{"id": y, "name": yaku_name(y, lang), "han": limit_name("yakuman", lang, u)}
             for y, u in result.yakuman]
    dora = result.dora + result.aka_dora + result.ura_dora
    return {
        "is_win": True, "outcome": result.outcome.value, "yaku": yaku,
        "yakuman_ids": [y for y, _ in result.yakuman],
        "yakuman": sum(u for _, u in result.yakuman),
        "dora": dora if not result.yakuman else 0,
        "dora_detail": {"dora": result.dora, "aka": result.aka_dora, "ura": result.ura_dora},
        "kita": result.hand.kita,
        "han": result.han, "fu": result.fu,
        "fu_items": [{"reason": item.reason, "fu": item.fu} for item in result.fu_items],
        "limit": result.limit.value, "points": result.points,
        "reading": str(result.reading) if result.reading else "",
    }


def furiten_breakdown(discarded: str, lang: str = "en") -> dict[str, Any]:
    return {"is_win": False, "outcome": "furiten",
            "verdict": t("verdict.furiten", lang, tile=tile_name(discarded, lang)),
            "problems": [], "yaku": [], "fu_items": []}
