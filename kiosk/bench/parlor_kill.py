"""Durability of the parlor under SIGKILL (issue 35): two simulated kiosks (real kiosk stores and
outboxes, `kiosk.bench.parlor_kiosks`) post hands to a parlor server (`python -m kiosk.parlor
serve`) that is killed with SIGKILL `--kills` times at random moments during ingest and started
again on the same port and database. Each kill comes at a random moment after the start, then
(`--aim`) as soon as a kiosk's post is on its way, so that most land inside a request.

After each kill, with the server down, every event the parlor had acknowledged (each receipt's
`last_index`, noted as the answer arrived) is looked up in its database and compared with the
kiosk's copy: an acknowledged event missing or different there is lost. At the end, once the
outboxes have caught up, every event each kiosk recorded must be held exactly once
(`kiosk.bench.parlor.stored_once`: none missing, differing, extra or doubled).

    python -m kiosk.bench.parlor_kill --kills 30
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from kiosk.bench.parlor import register, stored_once
from kiosk.bench.parlor_kiosks import SimKiosk, TimedOutbox, play
from kiosk.bench.parlor_server import ParlorProcess
from kiosk.parlor.link.client import ParlorLink
from kiosk.parlor.store.db import open_database
from kiosk.parlor.store.registry import ParlorStore
from kiosk.store.local_postgres import free_port
from kiosk.store.sqlite import SqliteStore


class AckOutbox(TimedOutbox):
    """The kiosk's outbox, noting the highest index the parlor acknowledged per game and how
    many posts are on the way."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.acked: dict[str, int] = {}
        self.in_flight = 0
        self._lock = threading.Lock()

    def post(self, body: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            self.in_flight += 1
        try:
            answer = super().post(body)
        finally:
            with self._lock:
                self.in_flight -= 1
        with self._lock:
            for game, receipt in (answer.get("games") or {}).items():
                if isinstance(receipt, dict) and isinstance(receipt.get("last_index"), int):
                    self.acked[game] = max(self.acked.get(game, -1), receipt["last_index"])
        return answer

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self.acked)


def acknowledged_check(url: str, kiosks: list[SimKiosk]) -> dict[str, int]:
    """Every acknowledged event in the parlor's database as its kiosk recorded it."""
    acked = {k.table: k.outbox.snapshot() for k in kiosks}  # type: ignore[attr-defined]
    checked = lost = differing = 0
    store = ParlorStore(open_database(url))
    try:
        with store.db.transaction() as tx:
            doubled = int(tx.rows("SELECT COUNT(*) FROM (SELECT table_id, game_id, idx FROM "
                                  "parlor_events GROUP BY table_id, game_id, idx "
                                  "HAVING COUNT(*) > 1) d")[0][0])
            for kiosk in kiosks:
                mine = kiosk.events()
                rows = tx.rows("SELECT e.game_id, e.idx, e.body FROM parlor_events e JOIN "
                               "parlor_tables t ON t.id = e.table_id WHERE t.name = ?",
                               (kiosk.table,))
                theirs = {(g, int(i)): b for g, i, b in rows}
                for game, last in acked[kiosk.table].items():
                    for index in range(last + 1):
                        checked += 1
                        body = theirs.get((game, index))
                        lost += body is None
                        differing += body is not None and body != mine[game][index]
    finally:
        store.close()
    return {"acknowledged": checked, "lost": lost, "differing": differing, "doubled": doubled}


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="parlor-kill-") as folder:
        root = Path(folder)
        url = f"sqlite:///{root / 'parlor.sqlite3'}"
        tokens, kind = register(url, 2)
        port = free_port()
        log = root / "parlor.log"
        server = ParlorProcess(url, 8, log, port)
        kiosks = []
        for i, (table, token) in enumerate(tokens.items()):
            (root / f"kiosk{i}").mkdir()
            store = SqliteStore(root / f"kiosk{i}" / "kiosk.sqlite3")
            outbox = AckOutbox(store, ParlorLink(server.url, table, token), timeout=5.0,
                               max_backoff=1.0, first_backoff=0.1)
            kiosks.append(SimKiosk(table, store, outbox, random.Random(args.seed + i)))
        stop = threading.Event()
        players = play(kiosks, 10**6, args.every, stop)
        kills: list[dict[str, Any]] = []
        started = time.monotonic()
        try:
            for n in range(args.kills):
                time.sleep(rng.uniform(args.up_min, args.up_max))
                aim = time.monotonic() + args.aim  # then kill as a post is on its way, if any
                while time.monotonic() < aim and not any(
                        k.outbox.in_flight for k in kiosks):  # type: ignore[attr-defined]
                    time.sleep(0.0005)
                in_flight = sum(k.outbox.in_flight for k in kiosks)  # type: ignore[attr-defined]
                server.proc.kill()  # SIGKILL
                server.proc.wait()
                kills.append({"kill": n + 1, "posts_in_flight": in_flight,
                              **acknowledged_check(url, kiosks)})
                print(json.dumps(kills[-1]), flush=True)
                server = ParlorProcess(url, 8, log, port)
            stop.set()
            for player in players:
                player.join(10)
            caught_up = all(k.outbox.flush(args.grace) for k in kiosks)
            final = stored_once(url, kiosks)
        finally:
            stop.set()
            for kiosk in kiosks:
                kiosk.close()
            server.stop()
    return {"database": kind, "kills": len(kills), "seconds": round(time.monotonic() - started),
            "kills_with_posts_in_flight": sum(k["posts_in_flight"] > 0 for k in kills),
            "acknowledged_lost": sum(k["lost"] + k["differing"] for k in kills),
            "doubled": max((k["doubled"] for k in kills), default=0) + final["doubled"],
            "hands": sum(len(k.hands) for k in kiosks), "caught_up": caught_up,
            "player_errors": [e for k in kiosks for e in k.errors][:5], "final": final}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.bench.parlor_kill",
                                     description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--kills", type=int, default=30, help="SIGKILLs of the parlor")
    parser.add_argument("--every", type=float, default=0.5,
                        help="mean seconds between a kiosk's hands (a table may start 60 "
                        "games an hour)")
    parser.add_argument("--up-min", type=float, default=0.5,
                        help="least seconds the parlor runs before a kill")
    parser.add_argument("--up-max", type=float, default=2.5,
                        help="most seconds the parlor runs before a kill")
    parser.add_argument("--aim", type=float, default=2.0,
                        help="after the random wait, seconds to wait for a post on its way, "
                        "and kill then (0: kill at once)")
    parser.add_argument("--grace", type=float, default=120,
                        help="seconds the outboxes get to catch up at the end")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    result = run(parser.parse_args(argv))
    print(json.dumps(result, indent=1))
    if result_file := parser.parse_args(argv).json:
        result_file.write_text(json.dumps(result, indent=1))
    ok = (result["acknowledged_lost"] == 0 and result["doubled"] == 0 and result["caught_up"]
          and result["final"]["exactly_once"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
