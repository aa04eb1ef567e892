"""`python -m kiosk.bench.capture`: time from "capture" to the breakdown, through the real app.

Each round does what the win page does: POST /api/captures (a full-resolution still from the demo
camera, read by the recogniser) and POST /api/score with the tiles as read. Reports the median and
90th percentile of the whole round and of recognition alone. With `--browser`, the same on screen:
Debian's chromium (Playwright) taps "Capture" on the win page of the real kiosk server, then
"Score", and the clock stops when the breakdown (or the verdict) is drawn.
Not a test: a measurement to quote.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kiosk.photos.camera import demo_folder


def _labels(tiles: list[dict[str, Any]]) -> str:
    return ",".join(t["label"] for t in tiles)


def spec_from(capture: dict[str, Any]) -> dict[str, Any]:
    hand = capture["hand"]
    return {"winner": 1, "discarder": None, "hand": {
        "concealed": _labels(hand["concealed"]),
        "win": hand["win"]["label"] if hand["win"] else "",
        "melds": [{"kind": m["kind"], "tiles": _labels(m["tiles"])} for m in hand["melds"]],
        "dora": _labels(hand["dora"])}}


CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


def browser_rounds(rounds: int, frames: str, models_dir: str) -> list[float]:
    """Milliseconds from the tap on "Capture" to the breakdown drawn, in chromium."""
    import shutil
    import subprocess
    import urllib.request

    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        args = [sys.executable, "-m", "kiosk", "--data-dir", data, "--port", str(port),
                "--camera", f"folder:{Path(frames).resolve()}", "--no-save-captures"]
        if models_dir:
            args += ["--models-dir", models_dir]
        server = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(base + "/api/state", timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            out = []
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                    args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(base + "/win")
                page.wait_for_selector("#capture-btn:not([disabled])")
                page.click('#winner button[data-v="1"]')
                for _ in range(rounds):
                    t0 = time.perf_counter()
                    page.click("#capture-btn")
                    page.wait_for_selector("#capture-btn:not([disabled])")
                    page.click("#score-btn")
                    page.wait_for_selector("#breakdown > *, #toast:not([hidden])")
                    out.append((time.perf_counter() - t0) * 1000)
                    page.evaluate("document.getElementById('toast').hidden = true")
                browser.close()
            return out
        finally:
            server.terminate()
            server.wait(10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.bench.capture", description=__doc__)
    parser.add_argument("--rounds", type=int, default=20, help="captures to time (default 20)")
    parser.add_argument("--frames", default=str(demo_folder()),
                        help="folder of frames the camera shows (default: the demo frames)")
    parser.add_argument("--models-dir", default="", help="ONNX models (default: models/)")
    parser.add_argument("--browser", action="store_true",
                        help="also time it on screen in Debian's chromium (Playwright)")
    args = parser.parse_args(argv)

    from kiosk.config import load
    from kiosk.services import build_services
    from kiosk.web.app import create_app

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
    if args.browser:
        shown = browser_rounds(args.rounds, args.frames, args.models_dir)
        print(f"  on screen   median {statistics.median(shown):7.1f} ms   "
              f"p90 {pct(shown, 0.9):7.1f} ms   (tap Capture ... breakdown drawn, chromium)")
    return 0 if recogniser["available"] else 1


if __name__ == "__main__":
    sys.exit(main())
