"""The benchmark's live page: the counter's tables page open in Debian's chromium (Playwright),
staff signed in, noting when each table's row first shows a new state, and the lag that gives.

Each row of the page names its game and event count (``data-game``, ``data-events``); a
MutationObserver in the page notes the time (``Date.now()``) at which a row first holds a new
pair, and the benchmark drains those notes every fraction of a second. The lag of a hand is
the time from the kiosk's recording it (or from the outbox's first post of its last event) to
the first note of that table showing that game with at least that many events, or a later game.
"""

from __future__ import annotations

import bisect
import statistics
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kiosk.bench.parlor_kiosks import Hand

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# Runs in every document the page loads (a reload without scripts included).
OBSERVER = """
window.__seen = [];
document.addEventListener("DOMContentLoaded", () => {
  const rows = document.getElementById("live-tables");
  if (!rows) return;
  const last = new Map();
  const note = () => {
    const now = Date.now();
    for (const r of rows.querySelectorAll("tr[data-table]")) {
      const key = r.dataset.game + " " + r.dataset.events;
      if (last.get(r.dataset.table) !== key) {
        last.set(r.dataset.table, key);
        window.__seen.push([now / 1000, r.dataset.table, r.dataset.game, +r.dataset.events]);
      }
    }
  };
  new MutationObserver(note).observe(rows, {childList: true, subtree: true});
  note();
});
"""
Seen = tuple[float, str, str, int]  # (epoch s, table, game, events)


def pct(values: list[float], q: int) -> float | None:
    """The q-th percentile (interpolated); None for no values."""
    if len(values) < 2:
        return values[0] if values else None
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def spread(values: list[float]) -> dict[str, float | None]:
    """p50 / p95 / p99 / max of values in seconds, as milliseconds."""
    ms = [v * 1000 for v in values]
    return {"count": len(ms), "p50_ms": pct(ms, 50), "p95_ms": pct(ms, 95),
            "p99_ms": pct(ms, 99), "max_ms": max(ms, default=None)}


class LivePage:
    """The tables page in chromium, signed in as `staff`."""

    def __init__(self, url: str, staff: str, password: str, chromium: str = CHROMIUM) -> None:
        if not Path(chromium).exists():
            raise FileNotFoundError(f"no chromium at {chromium} (Debian: apt install chromium); "
                                    "or run with --no-browser")
        from playwright.sync_api import sync_playwright  # only when a page is wanted

        self._playwright = sync_playwright().start()
        try:
            self._browser = self._playwright.chromium.launch(executable_path=chromium, args=ARGS)
            self.page = self._browser.new_page(viewport={"width": 1280, "height": 1600})
            self.page.add_init_script(OBSERVER)
            self.page.goto(url + "/counter/login")
            self.page.fill("input[name=name]", staff)
            self.page.fill("input[name=password]", password)
            self.page.click("button:has-text('Sign in')")
            self.page.wait_for_url(url + "/counter/")
        except BaseException:
            self.close()
            raise
        self.seen: list[Seen] = []

    def drain(self) -> int:
        """Collect the page's notes so far; how many came. A page between two documents (a
        reload) answers nothing this time."""
        try:
            got = self.page.evaluate("() => (window.__seen || []).splice(0)")
        except Exception:  # noqa: BLE001  (navigating: the next drain reads the new document)
            return 0
        self.seen.extend((float(t), str(table), str(game), int(n)) for t, table, game, n in got)
        return len(got)

    def wait(self, seconds: float) -> None:
        self.page.wait_for_timeout(seconds * 1000)  # lets the page's own events run meanwhile

    def close(self) -> None:
        browser = getattr(self, "_browser", None)
        if browser is not None:
            browser.close()
        self._playwright.stop()


def lags(hands: Iterable[Hand], games: dict[str, list[str]], seen: list[Seen],
         first_posted: dict[tuple[str, int], float]) -> dict[str, Any]:
    """Per hand, the time until the page first showed it: from its recording and from its
    first post. `games`: each table's games in the order its kiosk played them."""
    numbers = {table: {g: i for i, g in enumerate(played)} for table, played in games.items()}
    streams: dict[str, tuple[list[int], list[float]]] = {}
    for table, index in numbers.items():
        keys, times, top = [], [], -1
        for t, _table, game, events in sorted(s for s in seen if s[1] == table):
            if game in index:
                top = max(top, index[game] * 1_000_000 + events)  # what it has shown so far
                keys.append(top)
                times.append(t)
        streams[table] = keys, times
    from_record, from_post, missed = [], [], 0
    for hand in hands:
        keys, times = streams.get(hand.table, ([], []))
        number = numbers.get(hand.table, {}).get(hand.game)
        if number is None:
            continue
        key = number * 1_000_000 + hand.events
        i = bisect.bisect_left(keys, key)
        if i == len(keys):
            missed += 1
            continue
        from_record.append(max(0.0, times[i] - hand.recorded))
        posted = first_posted.get((hand.game, hand.events - 1))
        if posted is not None:
            from_post.append(max(0.0, times[i] - posted))
    return {"hands": len(from_record) + missed, "not_seen": missed,
            "from_record": spread(from_record), "from_post": spread(from_post)}
