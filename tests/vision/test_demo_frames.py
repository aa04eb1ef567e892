"""Every frame of the kiosk's demo camera (vision/demo_frames) is a scoring hand: read by the
shipped models as its truth lists it, then scored as a non-dealer's ron (South seat, East round)
under the kiosk's default rules (Tenhou) and Mahjong Soul's. A newcomer's first photo is a win
with these yaku, han, fu and points, worked by hand (issue 38, item 8)."""

import importlib.util
import json
from functools import cache
from pathlib import Path

import cv2
import pytest

from scorer.context import WinContext, Wind
from scorer.rules import RULESETS
from scorer.score import score
from vision.recogniser import Recogniser

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("pick_demo_frames",
                                               ROOT / "tools" / "pick_demo_frames.py")
assert _spec is not None and _spec.loader is not None
pick = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pick)
scorer_hand, scores_everywhere = pick.scorer_hand, pick.scores_everywhere

DEMO = ROOT / "vision" / "demo_frames"
TRUTH = json.loads((DEMO / "expected.json").read_text())

# (yaku with their han, dora + aka, han, fu, points of a non-dealer's ron)
WORKED = {
    # 222p 777z (concealed) 5z5z (tanki on haku) | chi 567s | chi 789p; dora 9p (indicator 8p)
    # in the chi. Fu: 20 + 222p 4 + 777z 8 + a dragon pair 2 + tanki 2 = 36 -> 40.
    "hand_12_005.jpg": ({"chun": 1}, 1, 2, 40, 2600),
    # 666p 550s (concealed) 7m7m (tanki) | pon 999s | minkan 5550m: toitoi, two red fives.
    # Fu: 20 + 666p 4 + 555s 4 + 999s open 4 + 5m open kan 8 + tanki 2 = 42 -> 50; 4 han 50 fu
    # is past the limit: mangan.
    "hand_12_009.jpg": ({"toitoi": 2}, 2, 4, 50, 8000),
    # 333s (concealed) 33p pair, 666s on the ron (shanpon) | pon 666p | chi 345m: all simples.
    # Fu: 20 + 333s 4 + 666s (won on a discard: open) 2 + 666p 2 = 28 -> 30.
    "hand_12_025.jpg": ({"tanyao": 1}, 0, 1, 30, 1000),
    # 234p, 777p on the ron (shanpon), 7s7s | chi 340m | chi 234m: all simples, one red five.
    # Fu: 20 + 777p open 2 = 22 -> 30.
    "hand_12_035.jpg": ({"tanyao": 1}, 1, 2, 30, 2000),
}


@cache
def reading(name: str) -> dict:
    return Recogniser.load().read(cv2.imread(str(DEMO / name))).to_json()


def test_every_demo_frame_is_worked_here() -> None:
    assert sorted(p.name for p in DEMO.glob("*.jpg")) == sorted(TRUTH) == sorted(WORKED)


@pytest.mark.parametrize("name", sorted(WORKED))
@pytest.mark.parametrize("rules", ["tenhou", "mahjong_soul"])
def test_the_hand_read_from_a_demo_frame_scores_as_worked_by_hand(name: str, rules: str) -> None:
    read = reading(name)
    layout = {k: read[k] for k in ("concealed", "winning", "dora")}
    layout["melds"] = [{"kind": m["kind"], "tiles": m["tiles"]} for m in read["melds"]]
    assert layout == TRUTH[name]
    assert not read["problems"]
    hand, dora = scorer_hand(layout)
    result = score(hand, WinContext(seat_wind=Wind.SOUTH, dora_indicators=dora), RULESETS[rules])
    yaku, dora_han, han, fu, points = WORKED[name]
    assert result.is_win
    assert dict(result.yaku) == yaku
    assert result.dora + result.aka_dora == dora_han
    assert (result.han, result.fu, result.points) == (han, fu, points)


@pytest.mark.parametrize("name", sorted(WORKED))
def test_a_demo_hand_wins_at_any_seat_under_every_preset(name: str) -> None:
    assert scores_everywhere(TRUTH[name])


def test_the_old_demo_frames_had_no_yaku() -> None:
    """The frames the demo showed before (kept for the tests in vision/sample_frames) are what
    the check turns away."""
    old = json.loads((DEMO.parent / "sample_frames" / "expected.json").read_text())
    assert [scores_everywhere(hand) for hand in old.values()] == [False, False, False]
