"""`python -m kiosk.bench.live`: the kiosk under live-page load, through the real server.

Starts `python -m kiosk` in a subprocess and measures, in one run: (1) the peer: paced writers
(`POST /api/corrections` as the kiosk's own screen, a new game every few hundred writes) alone,
the latency of every write; (2) the same writers while hundreds of live pages (`GET /api/events`
on raw loopback sockets) read every state: each write's status and latency, how many watchers
stay open, how many states each received, and the delivery lag (for each write, from its answer
until the last watcher holds a state at least as new as that answer, matched by game id and
event count), and the pictures each camera view (`GET /api/camera/stream` of the demo camera)
received; (3) hundreds of half-open requests (`GET / HTTP/1.1\\r\\nHo` and no more) while the
kiosk's own screen loads `/` and `/api/state`, and when the kiosk closes the half-open ones (its
header deadline). Exit status 0 when every write was 2xx, the p99 write latency under load is
under the target, every camera view had a picture a second and every own-screen request was
answered 200 within 1 s; 1 otherwise. Not a test: a measurement to quote.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import http.client
import json
import os
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kiosk.bench import live_cameras as bench_cameras
from kiosk.bench.live_report import Figures, report, verdict

ROOT = Path(__file__).resolve().parents[2]
CORRECTION = json.dumps({"deltas": [100, -100, 0, 0], "reason": "bench"}).encode()
NEW_GAME = json.dumps({"players": ["East", "South", "West", "North"]}).encode()
STATE = re.compile(rb'data: \{"game":\{"id":"([^"]*)".*?"events":(\d+)')


@dataclass
class Write:
    kind: str  # "correction" or "game"
    status: int  # 0: no answer (a connection error)
    sent: float
    answered: float
    gid: str = ""  # the answer's game id and event count
    events: int = -1


@contextlib.contextmanager
def running_kiosk(host: str, workdir: Path, camera: str) -> Iterator[tuple[str, int]]:
    """`python -m kiosk` on a free port; yields the (address, port) to connect to."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    addr = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIOSK_")}
    out = workdir / "kiosk.log"
    with out.open("w") as f:
        proc = subprocess.Popen([sys.executable, "-m", "kiosk", "--data-dir", str(workdir / "d"),
                                 "--port", str(port), "--host", host, "--camera", camera,
                                 "--log-level", "WARNING"], cwd=ROOT, env=env, stdout=f,
                                stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while get(addr, port, "/api/state")[0] != 200:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the kiosk did not start: {out.read_text()[-2000:]}")
            time.sleep(0.2)
        yield addr, port
    finally:
        proc.send_signal(signal.SIGINT)  # the kiosk's own graceful stop, as Ctrl-C
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def get(addr: str, port: int, path: str) -> tuple[int, bytes, str]:
    """One GET on a new connection: (status, or 0 for none; body; Set-Cookie)."""
    conn = http.client.HTTPConnection(addr, port, timeout=10)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, r.read(), r.getheader("Set-Cookie") or ""
    except (OSError, http.client.HTTPException):
        return 0, b"", ""
    finally:
        conn.close()


class Writers:
    """Paced writers as the kiosk's own screen, each a thread with a keep-alive connection."""

    def __init__(self, addr: str, port: int, rate: float, game_every: int) -> None:
        self.addr, self.port, self.rate, self.game_every = addr, port, rate, game_every
        status, body, cookie = get(addr, port, "/api/session")  # loopback: no PIN, but CSRF
        if status != 200:
            raise RuntimeError(f"GET /api/session answered {status}")
        self.headers = {"Content-Type": "application/json", "Cookie": cookie.split(";")[0],
                        "X-CSRF-Token": json.loads(body)["csrf"]}
        self.lock, self.count, self.full = threading.Lock(), 0, False

    def run(self, writers: int, seconds: float) -> list[Write]:
        out: list[Write] = []
        start = time.monotonic() + 0.1
        threads = [threading.Thread(target=self._writer, args=(i / writers, start, seconds, out))
                   for i in range(writers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return out

    def _writer(self, phase: float, start: float, seconds: float, out: list[Write]) -> None:
        due = start + phase / self.rate  # staggered over one period: a steady load
        conn: http.client.HTTPConnection | None = None
        while due < start + seconds:
            time.sleep(max(0.0, due - time.monotonic()))
            due += 1 / self.rate  # a fixed schedule: a slow answer does not lower the load
            with self.lock:  # a game holds 1,000 events and each change replays them
                self.count += 1
                new_game = self.full or self.count % self.game_every == 0
                self.full = self.full and not new_game
            path, body = ("/api/games", NEW_GAME) if new_game else ("/api/corrections", CORRECTION)
            conn = conn or http.client.HTTPConnection(self.addr, self.port, timeout=30)
            sent = time.monotonic()
            try:
                conn.request("POST", path, body, self.headers)
                r = conn.getresponse()
                data, status = r.read(), r.status
            except (OSError, http.client.HTTPException):
                data, status = b"", 0
                conn.close()
                conn = None  # a new connection for the next write
            w = Write("game" if new_game else "correction", status, sent, time.monotonic())
            if 200 <= status < 300:
                game = json.loads(data)["game"]
                w.gid, w.events = game["id"], game["events"]
            elif b"holds at most" in data:  # the game is full after all: the next write starts one
                self.full = True
            out.append(w)
        if conn is not None:
            conn.close()


class Watcher(asyncio.Protocol):
    """A live page. Counts `event: state` and notes which state each read brought last (a
    regex over the bytes, not a JSON parse per message: the CPU is the kiosk's)."""

    def __init__(self, host: str) -> None:
        self.request = f"GET /api/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
        self.status, self.states, self.tail, self.open = 0, 0, b"", True
        self.seen: list[tuple[float, str, int]] = []  # (arrival, game id, events)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        if not self.status and data.startswith(b"HTTP/1.1 "):
            self.status = int(data[9:12])
        buf = self.tail + data
        end = buf.rfind(b"\n\n") + 2  # an SSE event ends with a blank line
        done, self.tail = (buf[:end], buf[end:]) if end >= 2 else (b"", buf)
        if count := done.count(b"event: state"):
            self.states += count
            if match := STATE.match(done, max(0, done.rfind(b'data: {"game"'))):
                self.seen.append((now, match[1].decode(), int(match[2])))

    def connection_lost(self, exc: Exception | None) -> None:
        self.open = False


def pct(values: list[float], q: int) -> float:
    """The q-th percentile (interpolated); NaN for no values."""
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def latency(writes: list[Write]) -> dict[str, float]:
    ms = [(w.answered - w.sent) * 1000 for w in writes]
    return {"writes": len(writes), "non_2xx": sum(not 200 <= w.status < 300 for w in writes),
            "games_started": sum(w.kind == "game" for w in writes), "p50_ms": pct(ms, 50),
            "p95_ms": pct(ms, 95), "p99_ms": pct(ms, 99), "max_ms": max(ms, default=0.0)}


def delivery(writes: list[Write], watchers: list[Watcher]) -> dict[str, float]:
    """Per write, the lag of the last watcher to hold a state at least as new as its answer."""
    order: dict[str, int] = {}  # games in the order the writers met them
    for w in sorted(writes, key=lambda w: w.answered):
        if w.gid:
            order.setdefault(w.gid, len(order))
    streams = [([order[g] * 10_000 + n for _, g, n in v.seen if g in order],
                [t for t, g, _ in v.seen if g in order]) for v in watchers]
    lags, missed = [], 0
    for w in (w for w in writes if w.gid and streams):
        key, last = order[w.gid] * 10_000 + w.events, 0.0
        for keys, times in streams:  # each stream's states only get newer
            i = bisect.bisect_left(keys, key)
            if i == len(keys):
                missed += 1
                break
            last = max(last, times[i] - w.answered)  # 0: all had it before the writer's answer
        else:
            lags.append(last * 1000)
    return {"p50_ms": pct(lags, 50), "p99_ms": pct(lags, 99), "max_ms": max(lags, default=0.0),
            "writes_not_seen_by_all": missed}


async def watched_writes(args: argparse.Namespace, addr: str, port: int,
                         writers: Writers) -> Figures:
    loop = asyncio.get_running_loop()
    conns = await asyncio.gather(*(loop.create_connection(lambda: Watcher(f"{addr}:{port}"),
                                                          addr, port)
                                   for _ in range(args.watchers)), return_exceptions=True)
    watchers = [c[1] for c in conns if not isinstance(c, BaseException)]
    views = await bench_cameras.open_views(addr, port, args.cameras)
    deadline = time.monotonic() + 30
    while any(v.open and not v.states for v in watchers) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)  # every page has its first state before the writers start
    live = [v for v in watchers if v.status == 200 and v.states]
    print(f"load: {len(live)}/{args.watchers} watchers live, writing", file=sys.stderr)
    started = time.monotonic()
    writes = await asyncio.to_thread(writers.run, args.writers, args.seconds)
    await asyncio.sleep(2)  # the last states on their way
    cameras = bench_cameras.figures(views, args.cameras, time.monotonic() - started)
    still_open = sum(v.open for v in watchers)
    for v in watchers:
        v.transport.close()
    counts = sorted(v.states for v in live) or [0]
    return {"load": latency(writes), "delivery": delivery(writes, live), "watchers": {
        "asked": args.watchers, "connected": len(live), "open_at_end": still_open,
        "states_min": counts[0], "states_median": counts[len(counts) // 2]},
        "cameras": cameras}


def own_screen(addr: str, port: int, n: int) -> dict[str, list[tuple[int, float]]]:
    """n GETs each of the kiosk's screen page and of its state, on new connections."""
    out: dict[str, list[tuple[int, float]]] = {"/": [], "/api/state": []}
    for _ in range(n):
        for path, answers in out.items():
            t = time.monotonic()
            answers.append((get(addr, port, path)[0], (time.monotonic() - t) * 1000))
    return out


async def hold_half_open(addr: str, port: int, wait: float) -> float | None:
    """A request's first bytes and nothing more: seconds until the kiosk closes it, or None."""
    opened = time.monotonic()
    reader, writer = await asyncio.open_connection(addr, port)
    writer.write(b"GET / HTTP/1.1\r\nHo")
    try:
        await asyncio.wait_for(reader.read(), wait)  # until EOF
        return time.monotonic() - opened
    except (TimeoutError, OSError):
        return None
    finally:
        writer.close()


async def half_open(args: argparse.Namespace, addr: str, port: int) -> Figures:
    held = [asyncio.create_task(hold_half_open(addr, port, args.half_open_wait))
            for _ in range(args.half_open)]
    await asyncio.sleep(1)  # all connected and sent their first bytes
    answers = await asyncio.to_thread(own_screen, addr, port, args.own_requests)
    open_meanwhile = sum(not t.done() for t in held)
    closed = [e for e in await asyncio.gather(*held, return_exceptions=True)
              if isinstance(e, float)]
    figures: Figures = {"asked": args.half_open, "open_after_own_screen": open_meanwhile,
                     "closed_by_kiosk": len(closed), "closed_after_min_s": min(closed, default=-1),
                     "closed_after_max_s": max(closed, default=-1)}
    for path, got in answers.items():
        figures[f"GET {path}"] = {"requests": len(got), "all_200": all(s == 200 for s, _ in got),
                                  "p50_ms": pct([t for _, t in got], 50),
                                  "max_ms": max((t for _, t in got), default=0.0)}
    return figures


def cpu() -> str:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name"):
                return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} cores"
    return f"unknown, {os.cpu_count()} cores"


async def bench(args: argparse.Namespace, addr: str, port: int) -> Figures:
    writers = Writers(addr, port, args.rate, args.game_every)
    print(f"peer: {args.writers} writers, no watchers, {args.peer_seconds:g} s", file=sys.stderr)
    peer = latency(await asyncio.to_thread(writers.run, args.writers, args.peer_seconds))
    print(f"load: opening {args.watchers} watchers", file=sys.stderr)
    loaded = await watched_writes(args, addr, port, writers)
    print(f"half-open: {args.half_open} connections, own screen", file=sys.stderr)
    return {"cpu": cpu(), "peer": peer, **loaded, "half_open": await half_open(args, addr, port)}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m kiosk.bench.live", description="The kiosk under "
                                "live-page load: write latency with and without watchers, "
                                "delivery lag, half-open connections against its own screen.",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    add = p.add_argument
    add("--host", default="127.0.0.1", help="address the kiosk listens on (0.0.0.0: the "
        "benchmark still connects over loopback, as the kiosk's own screen)")
    add("--watchers", type=int, default=300, help="live pages (GET /api/events) while writing")
    add("--cameras", type=int, default=8, help="camera views (GET /api/camera/stream of the "
        "demo camera) open while writing")
    add("--writers", type=int, default=4, help="writer threads")
    add("--rate", type=float, default=5.0, help="writes per second of each writer")
    add("--seconds", type=float, default=60, help="writing time with the watchers")
    add("--peer-seconds", type=float, default=15, help="writing time before, with no watchers")
    add("--game-every", type=int, default=400, help="start a new game every N writes in all "
        "(a game holds at most 1,000 events)")
    add("--half-open", type=int, default=200, help="half-open connections in the last phase")
    add("--half-open-wait", type=float, default=30,
        help="seconds to wait for the kiosk to close each half-open connection")
    add("--own-requests", type=int, default=20,
        help="own-screen GET / and GET /api/state each, while the half-open ones are open")
    add("--p99-ms", type=float, default=250, help="target: p99 write latency with the watchers")
    add("--json", metavar="FILE", type=Path, help="also write the figures to FILE as JSON")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # A stop from outside (timeout, systemd) still stops the kiosk it started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # a socket per watcher, half-open
    want = args.watchers + args.cameras + args.half_open + 256
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY
                                                    else min(want, hard), hard))
    with tempfile.TemporaryDirectory(prefix="bench-live-") as tmp:
        with running_kiosk(args.host, Path(tmp), "demo" if args.cameras else "none") as (
                addr, port):
            results = asyncio.run(bench(args, addr, port))
    report(results, args)
    results["failed"] = failed = verdict(results, args.p99_ms)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    print("PASS: every target met" if not failed else "FAIL: " + "; ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
