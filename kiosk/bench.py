"""`python -m kiosk.bench`: time from "capture" to the breakdown, through the real app.

Each round does what the win page does: POST /api/captures (a full-resolution still from the demo
camera, read by the recogniser) and POST /api/score with the tiles as read. Reports the median and
90th percentile of the whole round and of recognition alone. Not a test: a measurement to quote.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kiosk.camera import demo_folder


def _labels(tiles: list[dict[str, Any]]) -> str:
    return ",".join(t["label"] for t in tiles)


def spec_from(capture: dict[str, Any]) -> dict[str, Any]:
    hand = capture["hand"]
    return {"winner": 1, "discarder": None, "hand": {
        "concealed": _labels(hand["concealed"]),
        "win": hand["win"]["label"] if hand["win"] else "",
        "melds": [{"kind": m["kind"], "tiles": _labels(m["tiles"])} for m in hand["melds"]],
        "dora": _labels(hand["dora"])}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.bench", description=__doc__)
    parser.add_argument("--rounds", type=int, default=20, help="captures to time (default 20)")
    parser.add_argument("--frames", default=str(demo_folder()),
                        help="folder of frames the camera shows (default: the demo frames)")
    parser.add_argument("--models-dir", default="", help="ONNX models (default: models/)")
    args = parser.parse_args(argv)

    from kiosk.app import create_app
    from kiosk.config import load
    from kiosk.services import build_services

    with tempfile.TemporaryDirectory() as data:
        config = load(None, environ={}, defaults={
            "data_dir": data, "camera": f"folder:{Path(args.frames).resolve()}",
            "models_dir": args.models_dir, "save_captures": False})
        services = build_services(config)
        app = create_app(config, services)
        started = time.perf_counter()
        services.start()
        print(f"start-up (camera + recogniser load and warm-up): "
              f"{(time.perf_counter() - started) * 1000:.0f} ms")
        recogniser = services.recogniser.status()
        if not recogniser["available"]:
            print(f"no recogniser: {recogniser['message']}", file=sys.stderr)
        client = app.test_client()
        csrf = client.get("/api/session").get_json()["csrf"]
        headers = {"X-CSRF-Token": csrf}
        client.post("/api/captures", headers=headers)  # the camera's first frame
        totals: list[float] = []
        reads: list[float] = []
        outcomes: dict[str, int] = {}
        try:
            for _ in range(args.rounds):
                t0 = time.perf_counter()
                capture = client.post("/api/captures", headers=headers).get_json()
                answer = client.post("/api/score", json=spec_from(capture), headers=headers)
                totals.append((time.perf_counter() - t0) * 1000)
                reads.append(capture["recognise_ms"])
                body = answer.get_json()
                key = "win" if body.get("is_win") else body.get("outcome") or body.get("error")
                outcomes[key] = outcomes.get(key, 0) + 1
        finally:
            services.stop()

    def pct(values: list[float], q: float) -> float:
        return sorted(values)[min(len(values) - 1, int(q * len(values)))]

    print(f"capture -> breakdown, {args.rounds} rounds on {args.frames}:")
    for name, values in (("total      ", totals), ("recognition", reads)):
        print(f"  {name} median {statistics.median(values):7.1f} ms   "
              f"p90 {pct(values, 0.9):7.1f} ms")
    print(f"  answers: {outcomes}")
    return 0 if recogniser["available"] else 1


if __name__ == "__main__":
    sys.exit(main())
