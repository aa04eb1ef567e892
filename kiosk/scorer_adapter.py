"""The rules core's `score()` and its result as the breakdown the win page shows.

A hand that does not win (no winning shape, no yaku, furiten) is a breakdown with `is_win`
false and a plain `verdict`; nothing is applied for it.
"""

from __future__ import annotations

from typing import Any

from kiosk.yaku_names import yaku_name
from scorer.score import Outcome, Score, score

__all__ = ["breakdown_of", "furiten_breakdown", "score", "yaku_name"]

def breakdown_of(result: Score, lang: str = "en") -> dict[str, Any]:
    if not result.is_win:
        head = {Outcome.NO_YAKU: "No yaku", Outcome.ILLEGAL_CHANKAN: "Not a legal win"}.get(
            result.outcome, "Not a winning hand")
        detail = result.message or ""
        if detail.lower().startswith(head.lower()):
            verdict = detail[0].upper() + detail[1:]
        else:
            verdict = f"{head}: {detail}" if detail else head
        return {"is_win": False, "outcome": result.outcome.value, "verdict": verdict,
                "problems": [], "yaku": [], "fu_items": []}
    yaku = [{"id": y, "name": yaku_name(y, lang), "han": h} for y, h in result.yaku]
    yaku += [{"id": y, "name": yaku_name(y, lang), "han": f"{u}x yakuman" if u > 1 else "yakuman"}
             for y, u in result.yakuman]
    dora = result.dora + result.aka_dora + result.ura_dora
    return {
        "is_win": True, "outcome": result.outcome.value, "yaku": yaku,
        "yakuman_ids": [y for y, _ in result.yakuman],
        "yakuman": sum(u for _, u in result.yakuman),
        "dora": dora if not result.yakuman else 0,
        "dora_detail": {"dora": result.dora, "aka": result.aka_dora, "ura": result.ura_dora},
        "han": result.han, "fu": result.fu,
        "fu_items": [{"reason": item.reason, "fu": item.fu} for item in result.fu_items],
        "limit": result.limit.value, "points": result.points,
        "reading": str(result.reading) if result.reading else "",
    }


def furiten_breakdown(discarded: str) -> dict[str, Any]:
    return {"is_win": False, "outcome": "furiten",
            "verdict": f"Furiten: the winner discarded {discarded}, which completes their hand; "
                       "they cannot win by ron (tsumo only)",
            "problems": [], "yaku": [], "fu_items": []}
