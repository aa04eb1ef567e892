"""`python -m scorer bench`: hands per second of our scorer and of its peers (the `mahjong`
library; riichienv, a Rust engine, where the `bench` extra is installed), on the same hands in the
same run, two ways, with each ratio:

- CLI path, the JSON-lines contract of `score --jsonl`: read each record (JSON text), score it,
  write one JSON line. Ours is `scorer.batch.write_scores` itself; a peer reads the record
  with `json.loads` and our `from_record`, turns it into its own inputs (its adapter), scores it
  and writes its result with `json.dumps`. The lines are read from the file once, before timing;
  the output goes to os.devnull through a text stream, as to a redirected stdout.
- in-process: the scoring call alone, on inputs parsed (for a peer, converted) before timing.

Each measurement gets one warm-up pass; then passes alternate (ours, peer, ..., ours, ...) so
that load on the machine affects all alike, and the best pass of each counts. Our only caches are
per-suit decompositions (a few thousand shapes) and which yaku a set of facts allows, never whole
hands, so later passes are not a replay.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import IO, Any

from scorer.batch import write_scores
from scorer.build_info import PURE, build
from scorer.context import WinContext
from scorer.hand import Hand, InvalidInput
from scorer.records_io import from_record
from scorer.rules import RULESETS, Ruleset
from scorer.score import score
from scorer.words import SCORER, add_language_option, language, pad

DEFAULT_FILE = Path(__file__).resolve().parents[1].parent / "shared/scoring/tenhou-wins-dev.jsonl"

Case = tuple[Hand, WinContext]
Adapter = tuple[Callable[[Hand, WinContext, Ruleset], Any], Callable[[Any], Any],
                Callable[[Any, Hand], dict[str, Any]]]


def add_arguments(parser: argparse.ArgumentParser, lang: str = "en") -> None:
    def h(key: str, **values: object) -> str:
        return SCORER.t("cli.help.bench." + key, lang, **values)

    parser.add_argument("--file", type=Path, default=DEFAULT_FILE,
                        help=h("file", default=DEFAULT_FILE))
    parser.add_argument("--hands", type=int, default=0, help=h("hands"))
    parser.add_argument("--rounds", type=int, default=5, help=h("rounds"))
    parser.add_argument("--ruleset", choices=sorted(RULESETS), default="tenhou", help=h("ruleset"))
    parser.add_argument("--json", action="store_true", help=h("json"))
    add_language_option(parser, everywhere=True, lang=lang)


def load_lines(path: Path, hands: int = 0) -> list[str]:
    """The non-blank lines of `path` (the first `hands` of them when `hands` > 0)."""
    with path.open(encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    return lines[:hands] if hands > 0 else lines


def load_cases(path: Path, hands: int = 0) -> list[Case]:
    return parse_cases(load_lines(path, hands), str(path))


def parse_cases(lines: Sequence[str], where: str) -> list[Case]:
    cases = []
    for number, line in enumerate(lines, 1):
        try:
            cases.append(from_record(json.loads(line)))
        except (InvalidInput, json.JSONDecodeError) as e:
            raise SystemExit(f"{where}:{number}: {e}") from None
    return cases


def _timed(run: Callable[[], Any]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def _mahjong_json(result: Any, hand: Hand) -> dict[str, Any]:
    return {"han": result.han, "fu": result.fu, "error": result.error,
            "yaku": [[y.name, y.han_open if hand.melds else y.han_closed]
                     for y in result.yaku or ()],
            "cost": result.cost}


def _peers() -> dict[str, Adapter]:
    """name -> (convert, estimator, to_json) of every peer installed (none: ours alone)."""
    peers: dict[str, Adapter] = {}
    try:
        from scorer import peer_mahjong

        peers["mahjong"] = (peer_mahjong.peer_call, peer_mahjong.estimator(), _mahjong_json)
    except ImportError:
        pass  # the `test` extra's; without it ours is measured alone
    try:
        from scorer import peer_riichienv

        peers["riichienv"] = (peer_riichienv.peer_call, peer_riichienv.estimator(),
                              lambda result, _: peer_riichienv.result_json(result))
    except ImportError:
        pass  # the `bench` extra is optional
    return peers


def _peer_cli(adapter: Adapter, lines: Sequence[str], rules: Ruleset,
              out: IO[str]) -> Callable[[], None]:
    convert, estimate, to_json = adapter
    loads, dumps = json.loads, json.dumps

    def run() -> None:
        for line in lines:
            hand, ctx = from_record(loads(line))
            out.write(dumps(to_json(estimate(convert(hand, ctx, rules)), hand)) + "\n")
    return run


def _best_rates(runs: dict[str, Callable[[], None]], n: int, rounds: int) -> dict[str, int]:
    for run in runs.values():
        run()  # warm-up
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            best[name] = min(best[name], _timed(run))
    return {name: round(n / seconds) for name, seconds in best.items()}


def measure(lines: Sequence[str], rules: Ruleset, rounds: int,
            where: str = "hands") -> dict[str, Any]:
    cases = parse_cases(lines, where)
    peers = _peers()
    n = len(cases)
    result: dict[str, Any] = {"hands": n, "rounds": rounds, "ruleset": rules.name,
                              "build": build(), "peers": sorted(peers)}
    with open(os.devnull, "w", encoding="utf-8") as sink:
        cli: dict[str, Callable[[], None]] = {
            "ours": lambda: write_scores(lines, rules, sink)}
        for name, adapter in peers.items():
            cli[name] = _peer_cli(adapter, lines, rules, sink)
        result["cli"] = _best_rates(cli, n, rounds)

    def ours() -> None:
        for hand, ctx in cases:
            score(hand, ctx, rules)

    in_process: dict[str, Callable[[], None]] = {"ours": ours}
    for name, (convert, estimate, _) in peers.items():
        # The peer's inputs are converted once, outside the timing, as ours are parsed once.
        inputs = [convert(hand, ctx, rules) for hand, ctx in cases]
        in_process[name] = partial(_each, estimate, inputs)
    result["in_process"] = _best_rates(in_process, n, rounds)
    for way in ("cli", "in_process"):
        rates = result[way]
        result[f"{way}_ratio"] = {name: round(rates["ours"] / rates[name], 2) for name in peers}
    return result


def _each(estimate: Callable[[Any], Any], inputs: Sequence[Any]) -> None:
    for call in inputs:
        estimate(call)


def run(args: argparse.Namespace) -> int:
    lang = language(getattr(args, "language", None))

    def t(key: str, **values: object) -> str:
        return SCORER.t("cli.bench." + key, lang, **values)

    if not args.file.exists():
        print(t("no_file", file=args.file), file=sys.stderr)
        return 2
    if args.rounds < 1 or args.hands < 0:
        print(t("bad_counts"), file=sys.stderr)
        return 2
    lines = load_lines(args.file, args.hands)
    result = measure(lines, RULESETS[args.ruleset], args.rounds, str(args.file))
    if args.json:
        print(json.dumps(result))
        return 0
    print(t("head", n=result["hands"], ruleset=result["ruleset"], rounds=result["rounds"],
            build=t("pure" if result["build"] == PURE else "compiled")))
    for way in ("cli", "in_process"):
        print(t(way))
        for name, rate in result[way].items():
            label = t("ours") if name == "ours" else name
            ratio = "" if name == "ours" else "   " + t(
                "ratio", peer=name, ratio=result[way + "_ratio"][name])
            print(f"  {pad(label, 16)} {t('rate', rate=f'{rate:>9,}')}{ratio}")
    if "mahjong" not in result["peers"]:
        print(t("no_mahjong"))
    if "riichienv" not in result["peers"]:
        print(t("no_riichienv"))
    if result["build"] == PURE:
        print(t("pure_note"))
    return 0
