"""The verdict and the printed report of `python -m kiosk.bench.live`: which targets its
figures missed, in words, and the figures as lines to quote."""

from __future__ import annotations

import argparse
from typing import Any

from kiosk.bench import live_cameras as bench_cameras

OWN_SCREEN_MS = 1000.0  # target: every own-screen request answered within this
Figures = dict[str, Any]


def verdict(r: Figures, p99_ms: float) -> list[str]:
    """The targets missed, in words."""
    failed = []
    if r["peer"]["non_2xx"] or r["load"]["non_2xx"]:
        failed.append(f"writes not 2xx: {r['peer']['non_2xx']} peer, {r['load']['non_2xx']} load")
    if missed := bench_cameras.missed(r["cameras"]):
        failed.append(missed)
    if not r["load"]["p99_ms"] < p99_ms:  # NaN (no writes) fails too
        failed.append(f"p99 write latency {r['load']['p99_ms']:.0f} ms, target {p99_ms:g} ms")
    for path in ("/", "/api/state"):
        own = r["half_open"][f"GET {path}"]
        if not (own["all_200"] and own["max_ms"] < OWN_SCREEN_MS):
            failed.append(f"own screen GET {path}: all 200 {own['all_200']}, "
                          f"max {own['max_ms']:.0f} ms")
    return failed


def report(r: Figures, args: argparse.Namespace) -> None:
    w, d, h = r["watchers"], r["delivery"], r["half_open"]
    print(f"CPU: {r['cpu']}; {args.writers} writers at {args.rate:g} writes/s each")
    for name, seconds in (("peer", args.peer_seconds), ("load", args.seconds)):
        f = r[name]
        print(f"{name} ({seconds:g} s{', no watchers' if name == 'peer' else ''}): "
              f"{f['writes']} writes ({f['games_started']} new games), non-2xx {f['non_2xx']}, "
              f"p50/p95/p99/max {f['p50_ms']:.1f}/{f['p95_ms']:.1f}/{f['p99_ms']:.1f}/"
              f"{f['max_ms']:.1f} ms")
    print(f"p99 load / p99 peer: {r['load']['p99_ms'] / r['peer']['p99_ms']:.2f}")
    print(f"watchers: {w['connected']}/{w['asked']} connected, {w['open_at_end']} open at the "
          f"end; states per watcher min {w['states_min']}, median {w['states_median']}")
    print(f"delivery lag (last watcher, from the write's answer): p50 {d['p50_ms']:.1f} ms, "
          f"p99 {d['p99_ms']:.1f} ms, max {d['max_ms']:.1f} ms; writes not seen by every "
          f"watcher: {d['writes_not_seen_by_all']}")
    print(bench_cameras.summary(r["cameras"]))
    print(f"half-open: {h['asked']}, {h['open_after_own_screen']} still open after the "
          f"own-screen requests; the kiosk closed {h['closed_by_kiosk']} after "
          f"{h['closed_after_min_s']:.1f}-{h['closed_after_max_s']:.1f} s")
    for path in ("/", "/api/state"):
        o = h[f"GET {path}"]
        print(f"  own screen GET {path:<10} {o['requests']} requests, all 200: {o['all_200']}, "
              f"p50 {o['p50_ms']:.1f} ms, max {o['max_ms']:.1f} ms")
