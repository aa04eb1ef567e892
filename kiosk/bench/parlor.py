"""`python -m kiosk.bench.parlor`: a parlor of many tables under load, through the real server.

Starts a PostgreSQL of its own (kiosk.store.local_postgres; or takes ``--db URL``), the
parlor server as a separate process (`python -m kiosk.parlor serve`) on a free port, registers
N tables with their tokens, and runs N simulated kiosks (`bench_kiosks`: each a real kiosk
store and outbox, posting legal hands over HTTP every few seconds) while the counter's tables
page is open in chromium, staff signed in (`bench_page`). Then it checks that the parlor holds
every event of every kiosk exactly once, in order, and reports: events recorded / posted /
stored, the outbox's request latency, the live page's lag (p50/p95/p99), the server's CPU time
and peak RSS (from /proc) and PostgreSQL's CPU time. Printed, and as JSON (``--out``).
Exit status 0 when every event was stored exactly once and no kiosk failed; 1 otherwise.
Not a test: a measurement to quote (docs/parlor.md, "Scale").
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kiosk.bench.parlor_kiosks import SimKiosk, play
from kiosk.bench.parlor_page import CHROMIUM, LivePage, lags, spread
from kiosk.bench.parlor_server import (
    ROOT,
    BenchError,
    ParlorProcess,
    cpu_seconds,
    postgres_cpu_seconds,
)
from kiosk.parlor.store.db import open_database
from kiosk.parlor.store.registry import ParlorStore
from kiosk.parlor.web.views_counter import POLL
from kiosk.store.local_postgres import LocalPostgresError, PostgresNotInstalled, local_postgres

STAFF, PASSWORD = "bench", "bench-counter-password"
BOUNDS = {"kiosks": (1, 200), "minutes": (0.1, 120), "every": (0.5, 120), "threads": (4, 64),
          "sample": (0.05, 5), "progress": (1, 600), "grace": (5, 600)}


def span(name: str) -> str:
    low, high = BOUNDS[name]
    return f"{low:g}-{high:g}"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m kiosk.bench.parlor", description="N simulated kiosks posting hands to "
        "one parlor server (on PostgreSQL) with the counter's live page open in chromium: "
        "whether every event is stored exactly once, the live page's lag, request latency, "
        "the server's CPU and memory. See docs/parlor.md, 'Scale'.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    add = p.add_argument
    add("--kiosks", type=int, default=50, help=f"simulated kiosks (tables), {span('kiosks')}")
    add("--minutes", type=float, default=10, help=f"how long the kiosks play, {span('minutes')}")
    add("--every", type=float, default=3, help="mean seconds between a kiosk's hands "
        f"(each 0.5-1.5 times it), {span('every')}")
    add("--db", metavar="URL", help="the parlor's database (postgresql://... or sqlite:///PATH); "
        "default: a PostgreSQL of its own, initdb'd into a temporary folder and removed after")
    add("--threads", type=int, default=8,
        help=f"the parlor server's request threads, {span('threads')}")
    add("--no-browser", action="store_true", help="no live page (its lag is not measured)")
    add("--chromium", default=CHROMIUM, metavar="PATH",
        help="the chromium Playwright drives (Debian's)")
    add("--sample", type=float, default=0.2, help="seconds between two reads of the live page's "
        f"notes (the notes themselves are timed in the page), {span('sample')}")
    add("--progress", type=float, default=10,
        help=f"seconds between two progress lines, {span('progress')}")
    add("--grace", type=float, default=60, help="seconds the outboxes (then the page) get to "
        f"catch up after the kiosks stop, {span('grace')}")
    add("--seed", type=int, default=20, help="seed of the hands played")
    add("--out", type=Path, metavar="FILE", help="the JSON report; by default "
        "runs/parlor-bench-<time>.json")
    return p


def checked(argv: list[str] | None) -> argparse.Namespace:
    p = parser()
    args = p.parse_args(argv)
    for name, (low, high) in BOUNDS.items():
        if not low <= getattr(args, name) <= high:
            p.error(f"--{name} must be {low:g}-{high:g}, got {getattr(args, name):g}")
    if args.db and not args.db.startswith(("postgresql://", "postgres://", "sqlite:///")):
        p.error("--db must be postgresql://... or sqlite:///PATH")
    return args


@contextlib.contextmanager
def database(args: argparse.Namespace) -> Iterator[tuple[str, Path | None]]:
    if args.db:
        yield args.db, None
    else:
        with local_postgres(prefix="riichi-bench-pg-") as server:
            yield server.url, server.data


def register(url: str, kiosks: int) -> tuple[dict[str, str], str]:
    """Staff and N tables (new tokens if they exist); the tokens by table, and the database."""
    store = ParlorStore(open_database(url))
    try:
        store.add_staff(STAFF, PASSWORD, replace=True)
        tokens = {f"Bench {i:03d}": "" for i in range(1, kiosks + 1)}
        for table in tokens:
            tokens[table] = store.add_table(table, replace=True)
        kind = "SQLite"
        if url.startswith("postgres"):
            with store.db.transaction() as tx:
                kind = f"PostgreSQL {tx.rows('SHOW server_version')[0][0]}"
        return tokens, kind
    finally:
        store.close()


def stored_once(url: str, kiosks: list[SimKiosk]) -> dict[str, Any]:
    """Every kiosk's events against the parlor's copy of the same games: missing, differing,
    extra; and any (table, game, index) held twice."""
    store = ParlorStore(open_database(url))
    recorded = stored = missing = differing = extra = 0
    try:
        with store.db.transaction() as tx:
            doubled = tx.rows("SELECT COUNT(*) FROM (SELECT table_id, game_id, idx FROM "
                              "parlor_events GROUP BY table_id, game_id, idx "
                              "HAVING COUNT(*) > 1) d")[0][0]
            for kiosk in kiosks:
                mine = kiosk.events()
                rows = tx.rows("SELECT e.game_id, e.idx, e.body FROM parlor_events e JOIN "
                               "parlor_tables t ON t.id = e.table_id WHERE t.name = ? "
                               "ORDER BY e.game_id, e.idx", (kiosk.table,))
                theirs: dict[str, dict[int, str]] = {}
                for game, index, body in rows:
                    if game in mine:
                        theirs.setdefault(game, {})[int(index)] = body
                for game, events in mine.items():
                    held = theirs.get(game, {})
                    recorded += len(events)
                    stored += len(held)
                    missing += sum(i not in held for i in range(len(events)))
                    differing += sum(held[i] != e for i, e in enumerate(events) if i in held)
                    extra += sum(i >= len(events) for i in held)
    finally:
        store.close()
    return {"recorded": recorded, "posted": sum(k.outbox.stats.sent_events for k in kiosks),
            "stored": stored, "missing": missing, "differing": differing, "extra": extra,
            "doubled": int(doubled), "exactly_once": not (missing or differing or extra or doubled)
            and stored == recorded}


def machine() -> dict[str, Any]:
    model = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {"cpu": model, "cores": os.cpu_count(), "loadavg": list(os.getloadavg())}


def progress(started: float, seconds: float, kiosks: list[SimKiosk], page: LivePage | None,
             server: ParlorProcess, cpu0: float) -> None:
    hands = sum(len(k.hands) for k in kiosks)
    sent = sum(k.outbox.stats.sent_events for k in kiosks)
    notes = len(page.seen) if page else 0
    f = server.figures()
    print(f"[{time.monotonic() - started:5.0f}/{seconds:.0f} s] hands {hands}, events "
          f"acknowledged {sent}, page notes {notes}, server CPU {f['cpu_seconds'] - cpu0:.1f} s, "
          f"RSS {f['rss_mb']:.0f} MB", file=sys.stderr, flush=True)


def drive(args: argparse.Namespace, kiosks: list[SimKiosk], page: LivePage | None,
          server: ParlorProcess, cpu0: float) -> float:
    """Play for --minutes, reading the page meanwhile; then let the outboxes and the page
    catch up. Returns the seconds played."""
    seconds, stop = args.minutes * 60, threading.Event()
    started = time.monotonic()
    threads = play(kiosks, seconds, args.every, stop)
    last = started
    try:
        while any(t.is_alive() for t in threads):
            if page:
                page.drain()
                page.wait(args.sample)
            else:
                time.sleep(args.sample)
            if time.monotonic() - last >= args.progress:
                last = time.monotonic()
                progress(started, seconds, kiosks, page, server, cpu0)
    finally:
        stop.set()
        for t in threads:
            t.join(10)
    played = time.monotonic() - started
    deadline = time.monotonic() + args.grace
    for kiosk in kiosks:
        kiosk.outbox.flush(max(0.1, deadline - time.monotonic()))
    if page:  # until the page showed every table's last hand, or the grace is spent
        last_hands = {(k.table, k.hands[-1].game, k.hands[-1].events) for k in kiosks if k.hands}
        deadline = time.monotonic() + max(5.0, 3 * POLL)
        while time.monotonic() < deadline:
            page.drain()
            if last_hands <= {(t, g, n) for _, t, g, n in page.seen}:
                break
            page.wait(args.sample)
    return played


def run(args: argparse.Namespace) -> dict[str, Any]:
    report: dict[str, Any] = {"config": {k: v for k, v in vars(args).items() if k not in
                                         ("db", "out", "chromium")}, "machine": machine()}
    with tempfile.TemporaryDirectory(prefix="parlor-bench-") as tmp, database(args) as (url,
                                                                                          data):
        tokens, kind = register(url, args.kiosks)
        report["config"]["db"] = kind + (" (its own, initdb)" if data else " (--db)")
        server = ParlorProcess(url, args.threads, Path(tmp) / "parlor.log")
        kiosks: list[SimKiosk] = []
        page = None
        try:
            kiosks = [SimKiosk.open(Path(tmp) / f"kiosk-{i}", server.url, table, token,
                                    args.seed + i) for i, (table, token) in
                      enumerate(tokens.items())]
            if not args.no_browser:
                page = LivePage(server.url, STAFF, PASSWORD, args.chromium)
            cpu0 = cpu_seconds(server.proc.pid)
            pg0 = postgres_cpu_seconds(data) if data else 0.0
            played = drive(args, kiosks, page, server, cpu0)
            figures = server.figures()
            report["server"] = {"cpu_seconds": figures["cpu_seconds"] - cpu0,
                                "cpu_share": (figures["cpu_seconds"] - cpu0) / played,
                                "rss_mb": figures["rss_mb"], "peak_rss_mb": figures["peak_rss_mb"]}
            report["postgres"] = {"cpu_seconds": postgres_cpu_seconds(data) - pg0} if data \
                else None
            report["seconds"] = played
        finally:
            if page:
                page.close()
            for kiosk in kiosks:
                kiosk.outbox.stop()
            server.stop()
        report["events"] = stored_once(url, kiosks)
        report["events"]["hands"] = sum(len(k.hands) for k in kiosks)
        report["events"]["games"] = sum(len(k.games) for k in kiosks)
        calls = [c for k in kiosks for c in k.outbox.calls]
        report["requests"] = {**spread([s for s, _ in calls]),
                              "failed": sum(not ok for _, ok in calls)}
        report["live_page"] = None if page is None else {"poll_s": POLL, **lags(
            [h for k in kiosks for h in k.hands], {k.table: k.games for k in kiosks}, page.seen,
            {key: t for k in kiosks for key, t in k.outbox.first_posted.items()})}
        report["kiosk_errors"] = [e for k in kiosks for e in k.errors][:20]
        for kiosk in kiosks:
            kiosk.close()
    return report


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def show(r: dict[str, Any]) -> None:
    c, e, q, s = r["config"], r["events"], r["requests"], r["server"]
    print(f"{c['kiosks']} kiosks, a hand every {c['every']:g} s each, {r['seconds']:.0f} s, "
          f"on {c['db']}; {r['machine']['cores']} cores ({r['machine']['cpu']})")
    print(f"events: {e['recorded']:,} recorded in {e['hands']:,} hands of {e['games']:,} games, "
          f"{e['posted']:,} acknowledged, {e['stored']:,} stored; missing {e['missing']}, "
          f"differing {e['differing']}, extra {e['extra']}, doubled {e['doubled']}: "
          f"{'every event stored exactly once' if e['exactly_once'] else 'NOT exactly once'}")
    print(f"requests (outbox posts): {q['count']:,}, failed {q['failed']}; p50 {ms(q['p50_ms'])}"
          f" ms, p99 {ms(q['p99_ms'])} ms, max {ms(q['max_ms'])} ms")
    live = r["live_page"]
    if live:
        for name, words in (("from_record", "from the kiosk's record"),
                            ("from_post", "from the outbox's post")):
            f = live[name]
            print(f"live page lag {words}: p50 {ms(f['p50_ms'])} ms, p95 {ms(f['p95_ms'])} ms, "
                  f"p99 {ms(f['p99_ms'])} ms, max {ms(f['max_ms'])} ms ({f['count']:,} hands)")
        print(f"  the page asks for news every {live['poll_s']} s; hands it never showed: "
              f"{live['not_seen']}")
    print(f"server: CPU {s['cpu_seconds']:.1f} s ({s['cpu_share']:.0%} of one core), "
          f"RSS {s['rss_mb']:.0f} MB, peak {s['peak_rss_mb']:.0f} MB"
          + (f"; PostgreSQL CPU {r['postgres']['cpu_seconds']:.1f} s" if r["postgres"] else ""))
    for error in r["kiosk_errors"]:
        print(f"kiosk error: {error}")


def main(argv: list[str] | None = None) -> int:
    args = checked(argv)
    try:
        report = run(args)
    except PostgresNotInstalled as error:
        print(f"error: {error}: install Debian's postgresql, or give --db postgresql://... of a "
              "server of yours", file=sys.stderr)
        return 2
    except (BenchError, LocalPostgresError, FileNotFoundError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    show(report)
    out = args.out or ROOT / "runs" / time.strftime("parlor-bench-%Y%m%d-%H%M%S.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")
    print(f"report: {out}")
    return 0 if report["events"]["exactly_once"] and not report["kiosk_errors"] else 1


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stops what it started, as Ctrl-C
    sys.exit(main())
