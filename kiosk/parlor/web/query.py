"""Query parameters of the statistics, boards and reports, each checked by name.

An unknown parameter is refused too (a typo such as ``?form=`` would otherwise silently show all
time), and every error is a 400 whose `field` names the parameter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

from kiosk.parlor.standings.stats import ORDERS
from kiosk.parlor.store.db import Database
from kiosk.parlor.store.settings import (
    FIRST_DAY,
    LAST_DAY,
    Period,
    Settings,
    bad,
    parse_date,
    parse_min_games,
    parse_month,
    season,
)

MAX_LIMIT, MAX_OFFSET = 500, 1_000_000
PAGE = 200  # a list's default page: a real parlor's day of games fits in one


def checked(args: Mapping[str, str], allowed: set[str]) -> dict[str, str]:
    """The parameters as a dict, refusing unknown names and over-long values."""
    unknown = sorted(str(k)[:40] for k in set(args) - allowed)
    if unknown:
        raise bad(unknown[0], f"unknown query parameter (known: {', '.join(sorted(allowed))})")
    out = {k: str(args[k]) for k in args}
    for key, value in out.items():
        if len(value) > 60:
            raise bad(key, "at most 60 characters")
    return out


def period(args: Mapping[str, str], settings: Settings) -> Period:
    """``from`` / ``to`` (local days, both included); either left out: all time that way."""
    first = parse_date(args["from"], "from") if args.get("from") else FIRST_DAY
    last = parse_date(args["to"], "to") if args.get("to") else LAST_DAY
    return Period.of(first, last, settings.zone)


def day(args: Mapping[str, str], settings: Settings) -> Period:
    """``date`` (a local day), today by default."""
    when = parse_date(args["date"], "date") if args.get("date") else settings.today()
    return Period.of(when, when, settings.zone, "date")


def board_period(args: Mapping[str, str], db: Database, settings: Settings) -> tuple[Period, str]:
    """One of ``month``, ``season`` or ``from``/``to``; none: this month. Also its label."""
    ways = [k for k in ("month", "season") if args.get(k)]
    if args.get("from") or args.get("to"):
        ways.append("from")
    if len(ways) > 1:
        raise bad(ways[1], f"give one of month, season or from/to, not {' and '.join(ways)}")
    if args.get("season"):
        found = season(db, args["season"])
        return Period.of(found.first, found.last, settings.zone), f"season {found.name}"
    if ways == ["from"]:
        chosen = period(args, settings)
        return chosen, f"{chosen.first} to {chosen.last}"
    month = args.get("month") or settings.today().strftime("%Y-%m")
    first, last = parse_month(month)
    return Period.of(first, last, settings.zone), month


def min_games(args: Mapping[str, str], settings: Settings) -> int:
    raw = args.get("min_games")
    return settings.min_games if not raw else parse_min_games(raw)


def order(args: Mapping[str, str]) -> str:
    chosen = args.get("order") or "score"
    if chosen not in ORDERS:
        raise bad("order", f"expected one of {', '.join(ORDERS)}, got {chosen[:30]!r}")
    return chosen


def whole(args: Mapping[str, str], name: str, default: int, high: int) -> int:
    raw = args.get(name) or str(default)
    if not raw.isdigit() or len(raw) > 9 or not 0 <= int(raw) <= high:
        raise bad(name, f"expected a whole number from 0 to {high:,}, got {raw[:20]!r}")
    return int(raw)


def page(args: Mapping[str, str], path: str, key: str, items: Sequence[Any],
         default: int = PAGE) -> dict[str, Any]:
    """A page of `items` (``limit``, at most `MAX_LIMIT`, from ``offset``): ``{key: [...],
    "total", "offset", "limit", "next"}``, where ``next`` is the link to the following page
    (the same parameters) or null on the last."""
    limit = whole(args, "limit", default, MAX_LIMIT) or 1
    offset = whole(args, "offset", 0, MAX_OFFSET)
    after = offset + limit
    following = (f"{path}?{urlencode({**args, 'limit': limit, 'offset': after})}"
                 if after < len(items) else None)
    return {key: list(items[offset:after]), "total": len(items), "offset": offset,
            "limit": limit, "next": following}
