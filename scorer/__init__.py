"""The rules core: tiles, hands, yaku, fu, points, rulesets and the table's game flow.

Pure functions and immutable values, standard library only.

Glossary (one romanisation, Tenhou's):
- *mpsz*: tile notation, digits before a suit letter (m characters, p dots, s bamboo, z honours);
  `0` is a red five.
- *han* / *fu*: the two factors of a hand's value; *base points* = fu x 2^(2 + han), capped.
- *yaku*: a scoring pattern; a hand needs one to win. *Yakuman*: a limit-hand yaku.
- *dora* / *ura dora* / *aka dora*: bonus han from indicators, hidden indicators (riichi only),
  red fives.
- *tsumo* / *ron*: a win by self-draw / on another player's discard. *Riichi*: a closed-hand
  declaration.
- *honba*: the counter of repeat / drawn hands, each adding a bonus; *riichi sticks*: 1,000-point
  deposits that go to the next winner.
- *chi* / *pon* / *kan* (*minkan*, *ankan*, *kakan*): called sequences, triplets and quads.
- *pao*: liability for a yakuman another player completed through one's discard.
- *sanma*: three-player mahjong (`Ruleset.players` 3): no 2m-8m, no chi; *kita* / *nukidora*: a
  North pulled out beside the hand, a dora each (`Hand.kita`); *tsumo loss*: at three players
  nobody pays the absent seat's share of a tsumo.
- *renchan*: the dealer keeps the deal; *tobi*: a player goes bust; *uma* / *oka*: placement
  bonuses.
"""

# The public face: score a hand (scorer.score), describe it (hand, context, rules), read the
# result (points), and the waits helpers for tenpai and furiten. Loaded on first use, so that
# `import scorer.tiles` (all that vision needs) does not import the whole rules core.
import importlib
from typing import TYPE_CHECKING, Any

from scorer import build_info as _build_info

_build_info.skip_a_stale_build()  # a compiled build older than its sources: run the sources

if TYPE_CHECKING:
    from scorer.context import Blessing, Riichi, WinContext, Wind
    from scorer.hand import CalledFrom, Hand, InvalidInput, Meld, MeldKind, Problem
    from scorer.points import HandValue, Limit
    from scorer.rules import RULESETS, Ruleset
    from scorer.score import ChosenReading, Outcome, Payment, Score, score
    from scorer.tiles import Tile, TileError, format_tiles, parse_tiles
    from scorer.waits import is_furiten, is_tenpai, winning_tiles

_HOME = {
    "scorer.context": ("Blessing", "Riichi", "WinContext", "Wind"),
    "scorer.hand": ("CalledFrom", "Hand", "InvalidInput", "Meld", "MeldKind", "Problem"),
    "scorer.points": ("HandValue", "Limit"),
    "scorer.rules": ("RULESETS", "Ruleset"),
    "scorer.score": ("ChosenReading", "Outcome", "Payment", "Score", "score"),
    "scorer.tiles": ("Tile", "TileError", "format_tiles", "parse_tiles"),
    "scorer.waits": ("is_furiten", "is_tenpai", "winning_tiles"),
}
_MODULE_OF = {name: module for module, names in _HOME.items() for name in names}
__all__ = [
    "RULESETS", "Blessing", "CalledFrom", "ChosenReading", "Hand", "HandValue", "InvalidInput",
    "Limit", "Meld", "MeldKind", "Outcome", "Payment", "Problem", "Riichi", "Ruleset", "Score",
    "Tile", "TileError", "WinContext", "Wind", "format_tiles", "is_furiten", "is_tenpai",
    "parse_tiles", "score", "winning_tiles",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'scorer' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
