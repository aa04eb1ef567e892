"""`python -m scorer bench`: hands per second of our scorer and of the `mahjong` library, measured
on the same hands in the same run, and their ratio.

Both scorers get one warm-up pass; then passes alternate (ours, peer, ours, ...) so that load on the
machine affects both alike, and the best pass of each counts. Each scorer is looked up once, before
timing. Our only caches are per-suit decompositions (a few thousand shapes) and which yaku a set of
facts allows, never whole hands, so later passes are not a replay.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from scorer.context import WinContext
from scorer.hand import Hand, InvalidInput
from scorer.peer_mahjong import estimator, peer_call
from scorer.records_io import from_record
from scorer.rules import RULESETS, Ruleset
from scorer.score import score

DEFAULT_FILE = Path(__file__).resolve().parents[1].parent / "shared/scoring/tenhou-wins-dev.jsonl"

Case = tuple[Hand, WinContext]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE,
                        help="JSONL hands in the real-wins format (default: %(default)s)")
    parser.add_argument("--rounds", type=int, default=5,
                        help="timed passes of each scorer after one warm-up (default: 5)")
    parser.add_argument("--ruleset", choices=sorted(RULESETS), default="tenhou",
                        help="ruleset for both scorers (default: tenhou)")
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")


def load_cases(path: Path) -> list[Case]:
    cases = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                cases.append(from_record(json.loads(line)))
            except (InvalidInput, json.JSONDecodeError) as e:
                raise SystemExit(f"{path}:{number}: {e}") from None
    return cases


def _timed(run: Callable[[], Any]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def measure(cases: Sequence[Case], rules: Ruleset, rounds: int) -> dict[str, Any]:
    try:
        peer_inputs = [peer_call(hand, ctx, rules) for hand, ctx in cases]
        estimate = estimator()
    except ImportError:
        raise SystemExit("the peer needs the `mahjong` library: pip install -e '.[test]'") from None
    # The peer's inputs are converted once, outside the timing, as ours are parsed once.

    def ours() -> None:
        for hand, ctx in cases:
            score(hand, ctx, rules)

    def peer() -> None:
        for call in peer_inputs:
            estimate(call)

    ours()
    peer()
    our_times, peer_times = [], []
    for _ in range(rounds):
        our_times.append(_timed(ours))
        peer_times.append(_timed(peer))
    n = len(cases)
    our_rate, peer_rate = n / min(our_times), n / min(peer_times)
    return {"hands": n, "rounds": rounds, "ours_hands_per_s": round(our_rate),
            "peer_hands_per_s": round(peer_rate), "ratio": round(our_rate / peer_rate, 2)}


def run(args: argparse.Namespace) -> int:
    if not args.file.exists():
        print(f"no hands file at {args.file}; pass --file (the real-wins JSONL of ../shared)",
              file=sys.stderr)
        return 2
    if args.rounds < 1:
        print("--rounds must be at least 1", file=sys.stderr)
        return 2
    cases = load_cases(args.file)
    result = measure(cases, RULESETS[args.ruleset], args.rounds)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['hands']} hands, best of {result['rounds']} passes each")
        print(f"  scorer (ours)     {result['ours_hands_per_s']:>9,} hands/s")
        print(f"  mahjong library   {result['peer_hands_per_s']:>9,} hands/s")
        print(f"  ratio             {result['ratio']:>9}x")
    return 0
