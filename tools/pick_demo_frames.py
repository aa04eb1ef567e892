"""Pick the kiosk's demo camera frames: `python -m vision.training frames`, keeping only hands
that score, so that a newcomer's first photo is a win and not "No yaku" (issue 38, item 8).

    python tools/pick_demo_frames.py --out vision/demo_frames --seed 12

A hand is kept when it wins as a ron at every seat of the East and the South round under every
four-player preset (`scores_everywhere`): its yaku come from its tiles, not from a wind or a
ruleset. tests/vision/test_demo_frames.py scores each shipped frame as read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.context import WinContext, Wind  # noqa: E402
from scorer.hand import Hand, InvalidInput, Meld  # noqa: E402
from scorer.rules import RULESETS  # noqa: E402
from scorer.score import score  # noqa: E402
from scorer.tiles import Tile  # noqa: E402


def scorer_hand(layout: dict[str, Any]) -> tuple[Hand, tuple[Tile, ...]]:
    """A frame's truth (`HandSpec.layout_json`, expected.json) as the rules core's hand and its
    dora indicators."""
    melds = tuple(Meld.parse(m["kind"], "".join(m["tiles"])) for m in layout["melds"])
    win = str(layout["winning"])
    hand = Hand.parse("".join([*layout["concealed"], win]), win, melds)
    return hand, tuple(Tile.parse(t) for t in layout["dora"])


def scores_everywhere(layout: dict[str, Any]) -> bool:
    """Whether the hand wins as a ron at every seat of the East and the South round under every
    four-player preset; an impossible hand (four plain 5s and a red one) does not."""
    try:
        hand, dora = scorer_hand(layout)
        if hand.problems():
            return False
        for rules in RULESETS.values():
            if rules.players != 4:
                continue
            for seat in Wind:
                for round_wind in (Wind.EAST, Wind.SOUTH):
                    ctx = WinContext(seat_wind=seat, round_wind=round_wind,
                                     dora_indicators=dora)
                    if not score(hand, ctx, rules).is_win:
                        return False
    except InvalidInput:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    from vision.training import frames

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    frames.add_arguments(parser)
    return frames.run(parser.parse_args(argv), keep=scores_everywhere)


if __name__ == "__main__":
    sys.exit(main())
