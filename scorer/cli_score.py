"""`python -m scorer score`: score one hand from the command line, or a JSON-lines file of hands.

    python -m scorer score "234m456p22s345678s" --win 8s --tsumo --riichi --dora 1s
    python -m scorer score "123m55p" --pon 777z:toimen --chi 406p:0p --chi 789s --win 5p
    python -m scorer score --jsonl ../shared/scoring/tenhou-wins-dev.jsonl --ruleset tenhou
    python -m scorer score "111m123p456s99p" --pon 777z:shimocha --win 9p --kita 2 \
        --ruleset tenhou_sanma
    python -m scorer score --jsonl ../shared/scoring/tenhou-sanma-wins-dev.jsonl \
        --ruleset tenhou_sanma

Exit status: 0 for a win, 1 for a hand that is not a legal win (no yaku, not a winning shape),
2 for bad input (the message names the tile or field).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import fields, replace
from enum import Enum
from typing import IO, Any

from scorer.batch import write_scores
from scorer.cli_describe import describe
from scorer.context import Blessing, Riichi, WinContext, Wind
from scorer.hand import (
    CalledFrom,
    Hand,
    InvalidInput,
    Meld,
    MeldKind,
    Problem,
    ProblemCode,
    article,
)
from scorer.limits import (
    HONBA,
    KITA,
    RED_FIVES,
    RULE_OPTIONS,
    STICKS,
    Range,
    number_problem,
)
from scorer.names import problem_words
from scorer.rules import PARLOR_RULESETS, RULESETS, RedFives, Ruleset
from scorer.score import score
from scorer.tiles import Tile, TileError, parse_tiles
from scorer.words import SCORER, add_language_option, language

_WINDS = {"e": Wind.EAST, "s": Wind.SOUTH, "w": Wind.WEST, "n": Wind.NORTH,
          "east": Wind.EAST, "south": Wind.SOUTH, "west": Wind.WEST, "north": Wind.NORTH,
          "1": Wind.EAST, "2": Wind.SOUTH, "3": Wind.WEST, "4": Wind.NORTH}
_MELD_HELP = ("TILES[:CALLED][:FROM], e.g. 406p:0p:kamicha; CALLED is the claimed tile, FROM "
              "kamicha, toimen or shimocha (both optional); repeatable")


def _wind(text: str) -> Wind:
    try:
        return _WINDS[text.lower()]
    except KeyError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a wind (E, S, W, N or 1-4)") from None


def _bounded(bounds: Range) -> Callable[[str], int]:
    """An argparse type: a whole number within `bounds`."""
    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a whole number") from None
        problem = number_problem(value, bounds)
        if problem:
            raise argparse.ArgumentTypeError(problem)
        return value
    return whole


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = __doc__.split("\n\n", 1)[1] if __doc__ else None
    parser.add_argument("tiles", nargs="?", help="the concealed tiles in mpsz notation, with or "
                        "without the winning tile (e.g. 234m456p22s345678s)")
    parser.add_argument("--win", metavar="TILE", help="the winning tile (default: the last tile)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--tsumo", action="store_true", help="won by self-draw")
    how.add_argument("--ron", action="store_true", help="won on a discard (the default)")
    for kind in MeldKind:
        parser.add_argument(f"--{kind.value}", action="append", default=[], metavar="TILES",
                            help=f"{article(kind.value)} {kind.value} meld: {_MELD_HELP}")
    parser.add_argument("--seat", type=_wind, default=Wind.EAST,
                        help="seat wind: E, S, W, N or 1-4 (default E, the dealer)")
    parser.add_argument("--round", type=_wind, default=Wind.EAST,
                        help="round wind: E, S, W, N or 1-4 (default E)")
    parser.add_argument("--riichi", action="store_true", help="riichi was declared")
    parser.add_argument("--double-riichi", action="store_true",
                        help="riichi on the first uninterrupted discard")
    parser.add_argument("--ippatsu", action="store_true", help="won within one go-around of riichi")
    parser.add_argument("--rinshan", action="store_true", help="tsumo on a kan replacement tile")
    parser.add_argument("--chankan", action="store_true", help="ron on another player's added kan")
    parser.add_argument("--chankan-of-ankan", action="store_true",
                        help="with --chankan: the robbed kan was a closed kan (only kokushi "
                             "musou may rob one, where the rules allow)")
    parser.add_argument("--haitei", action="store_true", help="tsumo on the last wall tile")
    parser.add_argument("--houtei", action="store_true", help="ron on the last discard")
    for blessing in Blessing:
        parser.add_argument(f"--{blessing.value}", action="store_true",
                            help=f"{blessing.value}: a win on the very first go-around")
    parser.add_argument("--dora", action="append", default=[], metavar="TILES",
                        help="dora indicators (repeatable or compact, e.g. 1s4m)")
    parser.add_argument("--ura", action="append", default=[], metavar="TILES",
                        help="ura dora indicators (counted only with riichi)")
    parser.add_argument("--kita", type=_bounded(KITA), default=0,
                        help="Norths pulled out as kita at a three-player table (nukidora, a "
                             "dora each; e.g. --ruleset tenhou_sanma)")
    parser.add_argument("--honba", type=_bounded(HONBA), default=0,
                        help="honba counters (default 0)")
    parser.add_argument("--sticks", type=_bounded(STICKS), default=0,
                        help="riichi sticks on the table, the winner's own included (default 0)")
    parser.add_argument("--ruleset", default="tenhou", choices=sorted(RULESETS | PARLOR_RULESETS),
                        help="rule preset (default tenhou)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="change one rule of the preset, e.g. kiriage=true, min_han=2, "
                        "red_fives=121 (red fives in m, p, s; true/false: one each/none)")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--jsonl", metavar="FILE", help="score every hand of a JSON-lines file "
                        "('-' for stdin), one JSON line out per line in")
    add_language_option(parser, everywhere=True)


def run(args: argparse.Namespace) -> int:
    lang = language(getattr(args, "language", None))
    try:
        rules = _rules(args.ruleset, args.option)
        if args.jsonl:
            if args.tiles:
                raise InvalidInput([Problem("tiles", "give either tiles or --jsonl, not both",
                                             ProblemCode.INPUT_TILES_AND_JSONL)])
            return _run_jsonl(args.jsonl, rules, sys.stdout)
        hand, context = _hand_and_context(args)
        result = score(hand, context, rules)
    except InvalidInput as e:
        for problem in e.problems:
            print(SCORER.t("cli.error", lang, problem=problem_words(problem, lang)),
                  file=sys.stderr)
        return 2
    except OSError as e:
        print(SCORER.t("cli.error", lang, problem=e), file=sys.stderr)
        return 2

    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(describe(result, lang))
    return 0 if result.is_win else 1


def _rules(name: str, options: Iterable[str]) -> Ruleset:
    rules = (RULESETS | PARLOR_RULESETS)[name]
    types = {f.name: type(getattr(rules, f.name)) for f in fields(rules)}
    changes: dict[str, Any] = {}
    problems = []
    for option in options:
        key, sep, text = option.partition("=")
        kind = types.get(key)
        if not sep or kind is None:
            problems.append(Problem("option", f"{option!r}: expected NAME=VALUE with NAME one of "
                                    f"{', '.join(sorted(types))}", ProblemCode.INPUT_OPTION,
                                    {"option": option}))
            continue
        try:
            changes[key] = _convert(kind, text, RULE_OPTIONS.get(key))
        except ValueError as e:
            problems.append(Problem("option", f"{key}: {e}", ProblemCode.INPUT_OPTION,
                                    {"option": key}))
    if problems:
        raise InvalidInput(problems)
    return replace(rules, name=f"{name}+" if changes else name, **changes)


def _convert(kind: type, text: str, bounds: Range | None) -> Any:
    if kind is bool:
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"{text!r} is not true or false")
    if kind is int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{text[:20]!r} is not a whole number") from None
        problem = number_problem(value, bounds) if bounds else None
        if problem:
            raise ValueError(problem)
        return value
    if kind is RedFives:  # on / off (one a suit / none), or per suit m, p, s: "121", "1,2,1"
        digits = text.replace(",", "")
        if len(digits) == 3 and digits.isdigit():
            red = RedFives(*(int(d) for d in digits))
            problem = next((number_problem(n, RED_FIVES) for n in red.counts
                            if number_problem(n, RED_FIVES)), None)
            if problem:
                raise ValueError(problem)
            return red
        return RedFives.of(_convert(bool, text, None))
    if issubclass(kind, Enum):
        try:
            return kind(text)
        except ValueError:
            raise ValueError(f"{text!r} is not one of "
                             f"{', '.join(str(m.value) for m in kind)}") from None
    raise ValueError("this rule cannot be set from the command line")


def _tiles(texts: Iterable[str], field: str, problems: list[Problem]) -> tuple[Tile, ...]:
    out: list[Tile] = []
    for text in texts:
        try:
            out.extend(parse_tiles(text))
        except TileError as e:
            problems.append(Problem(field, str(e), ProblemCode.INPUT_TILES))
    return tuple(out)


def _meld(kind: MeldKind, spec: str, problems: list[Problem]) -> Meld | None:
    field = f"--{kind.value} {spec}"
    tiles_text, *rest = spec.split(":")
    called: Tile | None = None
    source: CalledFrom | None = None
    try:
        tiles = parse_tiles(tiles_text)
        for part in rest:
            if not part:
                continue
            if part in {c.value for c in CalledFrom}:
                source = CalledFrom(part)
            else:
                called = Tile.parse(part)
    except TileError as e:
        problems.append(Problem(field, f"{e} (or {', '.join(c.value for c in CalledFrom)})",
                                ProblemCode.INPUT_TILES))
        return None
    return Meld(kind, tiles, called, source)


def _hand_and_context(args: argparse.Namespace) -> tuple[Hand, WinContext]:
    problems: list[Problem] = []
    if not args.tiles:
        raise InvalidInput([Problem("tiles", "give the concealed tiles (e.g. 234m456p22s345678s) "
                                    "or --jsonl FILE", ProblemCode.INPUT_NO_TILES)])
    concealed = list(_tiles([args.tiles], "tiles", problems))
    melds = [m for kind in MeldKind for spec in getattr(args, kind.value)
             if (m := _meld(kind, spec, problems)) is not None]
    win: Tile | None = None
    if args.win:
        parsed = _tiles([args.win], "--win", problems)
        if len(parsed) == 1:
            win = parsed[0]
        elif parsed:
            problems.append(Problem("--win", f"{args.win!r}: give one tile, not {len(parsed)}",
                                    ProblemCode.INPUT_WIN_COUNT, {"n": len(parsed)}))
    elif concealed:
        win = concealed[-1]
    if win is not None and len(concealed) + 3 * len(melds) == 13:
        concealed.append(win)  # the tiles were given without the winning tile
    if args.haitei and not args.tsumo:
        problems.append(Problem("--haitei", "haitei is a tsumo on the last tile (add --tsumo, or "
                                "use --houtei for a ron on the last discard)",
                                ProblemCode.INPUT_HAITEI_RON))
    if args.houtei and args.tsumo:
        problems.append(Problem("--houtei", "houtei is a ron on the last discard (use --haitei "
                                "for a tsumo)", ProblemCode.INPUT_HOUTEI_TSUMO))
    blessings = [b for b in Blessing if getattr(args, b.value)]
    if len(blessings) > 1:
        problems.append(Problem("blessing", "at most one of --tenhou, --chiihou and --renhou",
                                ProblemCode.INPUT_BLESSINGS))
    dora = _tiles(args.dora, "--dora", problems)
    ura = _tiles(args.ura, "--ura", problems)
    if problems or win is None:
        raise InvalidInput(problems or [Problem("--win", "give the winning tile",
                                                     ProblemCode.INPUT_NO_WIN)])
    riichi = Riichi.DOUBLE if args.double_riichi else \
        Riichi.RIICHI if args.riichi else Riichi.NONE
    context = WinContext(
        tsumo=args.tsumo, seat_wind=args.seat, round_wind=args.round, riichi=riichi,
        ippatsu=args.ippatsu, rinshan=args.rinshan, chankan=args.chankan,
        chankan_of_ankan=args.chankan_of_ankan, last_tile=args.haitei or args.houtei,
        blessing=blessings[0] if blessings else None, dora_indicators=dora,
        ura_indicators=ura, honba=args.honba, riichi_sticks=args.sticks)
    return Hand(tuple(concealed), tuple(melds), win, args.kita), context


def _run_jsonl(path: str, rules: Ruleset, out: IO[str]) -> int:
    source = sys.stdin if path == "-" else open(path, encoding="utf-8")
    with source:
        try:
            write_scores(source, rules, out)
            out.flush()
        except BrokenPipeError:
            # The reader stopped early (e.g. `| head`): point stdout at devnull so that the
            # interpreter's final flush does not fail as well.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except UnicodeDecodeError as e:
            # Not a text file at all (or another encoding): no line after this one can be read.
            out.flush()
            print(f"error: {path}: not UTF-8 text ({e.reason})", file=sys.stderr)
            return 2
    return 0
