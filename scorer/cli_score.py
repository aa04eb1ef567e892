r"""`python -m scorer score`: score one hand from the command line, or a JSON-lines file of hands.

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
from scorer.cli_help import help_words
from scorer.context import Blessing, Riichi, WinContext, Wind
from scorer.hand import (
    CalledFrom,
    Hand,
    InvalidInput,
    Meld,
    MeldKind,
    Problem,
    ProblemCode,
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
#: The examples the help ends with (the docstring's; its words are the catalogue's).
_EXAMPLES = (__doc__ or "").split("\n\n")[1]


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


def add_arguments(parser: argparse.ArgumentParser, lang: str = "en") -> None:
    def h(key: str, **values: object) -> str:
        return SCORER.t("cli.help.score." + key, lang, **values)

    parser.formatter_class = help_words(lang, raw=True)
    parser.epilog = f"{_EXAMPLES}\n\n{h('exit_status')}"
    parser.add_argument("tiles", nargs="?", help=h("tiles"))
    parser.add_argument("--win", metavar="TILE", help=h("win"))
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--tsumo", action="store_true", help=h("tsumo"))
    how.add_argument("--ron", action="store_true", help=h("ron"))
    for kind in MeldKind:
        parser.add_argument(f"--{kind.value}", action="append", default=[], metavar="TILES",
                            help=h(kind.value, format=h("meld_format")))
    parser.add_argument("--seat", type=_wind, default=Wind.EAST, help=h("seat"))
    parser.add_argument("--round", type=_wind, default=Wind.EAST, help=h("round"))
    parser.add_argument("--riichi", action="store_true", help=h("riichi"))
    parser.add_argument("--double-riichi", action="store_true", help=h("double_riichi"))
    parser.add_argument("--ippatsu", action="store_true", help=h("ippatsu"))
    parser.add_argument("--rinshan", action="store_true", help=h("rinshan"))
    parser.add_argument("--chankan", action="store_true", help=h("chankan"))
    parser.add_argument("--chankan-of-ankan", action="store_true", help=h("chankan_of_ankan"))
    parser.add_argument("--haitei", action="store_true", help=h("haitei"))
    parser.add_argument("--houtei", action="store_true", help=h("houtei"))
    for blessing in Blessing:
        parser.add_argument(f"--{blessing.value}", action="store_true",
                            help=h("blessing", name=SCORER.t(f"blessing.{blessing.value}", lang)))
    parser.add_argument("--dora", action="append", default=[], metavar="TILES", help=h("dora"))
    parser.add_argument("--ura", action="append", default=[], metavar="TILES", help=h("ura"))
    parser.add_argument("--kita", type=_bounded(KITA), default=0, help=h("kita"))
    parser.add_argument("--honba", type=_bounded(HONBA), default=0, help=h("honba"))
    parser.add_argument("--sticks", type=_bounded(STICKS), default=0, help=h("sticks"))
    parser.add_argument("--ruleset", default="tenhou", choices=sorted(RULESETS | PARLOR_RULESETS),
                        help=h("ruleset"))
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help=h("option"))
    parser.add_argument("--json", action="store_true", help=h("json"))
    parser.add_argument("--jsonl", metavar="FILE", help=h("jsonl"))
    add_language_option(parser, everywhere=True, lang=lang)


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
