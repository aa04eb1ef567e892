"""A photo's reading checked again as the player edits it (issue 38, item 2).

The win page shows what to check in a reading (`kiosk.words.reading_words`). Said once, at the
capture, the list goes stale as soon as a tile is moved: "No winning tile set apart" stayed after
one was set. Here the tiles as the page holds them now (each with the box and confidence it was
read with, where it was read) are checked by the same `problems_of` as the capture was.

Where the hand holds all 14 tiles but none is set apart as the winning tile (players seldom leave
the photo convention's gap), the page asks "Which tile won?" instead of saying a problem:
`win_choices` orders the hand's tiles for one tap, the likeliest first. A tile is likelier when it
completes the hand as its winning tile (taken out, the other 13 wait on it: the rules core's
waits, through `kiosk.photos.recognition.is_complete`), then the nearer it lies to the row's end,
where the convention puts the winning tile. (Of 14 tiles that make a winning hand each tile is a
winning tile, and of 14 that do not, none is: a tile misread. Then the page also says the tiles
make no winning hand, and still asks, the row's end first.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.errors import ApiError
from kiosk.photos.recognition import is_complete
from kiosk.table import checks
from kiosk.words.reading_words import HAND_SIZE, SET_ASIDE_KEYS, Problem, problems_of
from scorer.hand import MeldKind
from scorer.limits import brief
from scorer.tiles import MODEL_CLASSES

FIELDS = {"concealed", "win", "melds", "dora", "unplaced"}
TILE_FIELDS = {"label", "box", "confidence"}
MAX_GROUP = 64  # tiles in one group: a wall and more set aside still fit
MAX_MELDS = 4


@dataclass(frozen=True)
class SeenTile:
    """A tile as the page holds it, in the shape `problems_of` reads (vision's DetectedTile)."""

    label: str
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    confidence: float = 1.0
    alternatives: tuple[tuple[str, float], ...] = ()
    changed_by_decoder: bool = False
    detection_score: float = 1.0


@dataclass(frozen=True)
class SeenMeld:
    kind: MeldKind
    tiles: tuple[int, ...]


@dataclass(frozen=True)
class SeenGrouping:
    concealed: tuple[int, ...]
    winning: int | None
    melds: tuple[SeenMeld, ...]
    dora: tuple[int, ...]
    unassigned: tuple[int, ...]


@dataclass(frozen=True)
class SeenReading:
    tiles: tuple[SeenTile, ...]
    grouping: SeenGrouping


def _tile(value: Any, field: str) -> SeenTile:
    if not isinstance(value, dict):
        raise ApiError(400, f"{field}: expected an object", code="field_object",
                       words={"field": field})
    checks.known_fields(value, TILE_FIELDS, field)
    label = value.get("label")
    if label not in MODEL_CLASSES:
        raise ApiError(400, f"{field}.label: unknown tile", code="unknown_tile",
                       words={"field": f"{field}.label", "got": brief(label)})
    box = value.get("box")
    if box is None:
        box = (0.0, 0.0, 0.0, 0.0)
    elif not (isinstance(box, list) and len(box) == 4
              and all(isinstance(v, int | float) and not isinstance(v, bool)
                      and abs(v) < 1e6 for v in box)):
        raise ApiError(400, f"{field}.box: expected 4 numbers", code="field_list",
                       words={"field": f"{field}.box"})
    confidence = value.get("confidence", 1.0)
    if (not isinstance(confidence, int | float) or isinstance(confidence, bool)
            or not 0 <= confidence <= 1):
        raise ApiError(400, f"{field}.confidence: expected a number from 0 to 1",
                       code="field_list", words={"field": f"{field}.confidence"})
    return SeenTile(str(label), tuple(float(v) for v in box), float(confidence))  # type: ignore[arg-type]


def _tiles(value: Any, field: str) -> list[SeenTile]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_GROUP:
        raise ApiError(400, f"{field}: expected a list of at most {MAX_GROUP} tiles",
                       code="field_list", words={"field": field})
    return [_tile(v, f"{field}[{i}]") for i, v in enumerate(value)]


def seen_reading(hand: Any) -> SeenReading:
    """The page's groups (`{concealed, win, melds: [{kind, tiles}], dora, unplaced}`, each tile
    `{label, box?, confidence?}`) as a reading; a 400 naming the field that is not."""
    if not isinstance(hand, dict):
        raise ApiError(400, "hand: expected an object", code="field_object",
                       words={"field": "hand"})
    checks.known_fields(hand, FIELDS, "hand")
    tiles: list[SeenTile] = []

    def add(group: list[SeenTile]) -> tuple[int, ...]:
        tiles.extend(group)
        return tuple(range(len(tiles) - len(group), len(tiles)))

    concealed = add(_tiles(hand.get("concealed"), "hand.concealed"))
    win = hand.get("win")
    winning = add([_tile(win, "hand.win")])[0] if win is not None else None
    raw_melds = hand.get("melds") or []
    if not isinstance(raw_melds, list) or len(raw_melds) > MAX_MELDS:
        raise ApiError(400, f"hand.melds: expected a list of at most {MAX_MELDS} melds",
                       code="field_list", words={"field": "hand.melds"})
    melds = []
    for i, m in enumerate(raw_melds):
        where = f"hand.melds[{i}]"
        if not isinstance(m, dict):
            raise ApiError(400, f"{where}: expected an object", code="field_object",
                           words={"field": where})
        checks.known_fields(m, {"kind", "tiles"}, where)
        try:
            kind = MeldKind(m.get("kind"))
        except ValueError:
            allowed = ", ".join(k.value for k in MeldKind)
            raise ApiError(400, f"{where}.kind: {brief(m.get('kind'))} is not one of {allowed}",
                           code="field_choice", words={"field": f"{where}.kind",
                                                       "got": brief(m.get("kind")),
                                                       "allowed": allowed}) from None
        melds.append(SeenMeld(kind, add(_tiles(m.get("tiles"), f"{where}.tiles")[:4])))
    dora = add(_tiles(hand.get("dora"), "hand.dora"))
    unplaced = add(_tiles(hand.get("unplaced"), "hand.unplaced"))
    return SeenReading(tuple(tiles), SeenGrouping(concealed, winning, tuple(melds), dora,
                                                  unplaced))


def win_choices(concealed: list[str], melds: list[tuple[str, list[str]]]) -> tuple[list[int],
                                                                                    int]:
    """For a hand of 14 (each meld 3) with no winning tile: one index into `concealed` (row
    order) per label, the likeliest winning tile first, and how many of them complete the hand.

    Each label's copy nearest the row's end stands for it; the tiles that complete the hand
    come first, each group from the row's end back.

    >>> hand = "1m 1m 1m 7m 7m 3s 0s 7s 8s 9s 5z 5z 5z 4s".split()
    >>> order, completing = win_choices(hand, [])
    >>> [hand[i] for i in order], completing
    (['4s', '5z', '9s', '8s', '7s', '0s', '3s', '7m', '1m'], 9)
    >>> hand = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5z 5z 6z".split()   # no winning hand
    >>> order, completing = win_choices(hand, [])
    >>> [hand[i] for i in order], completing
    (['6z', '5z', '1p', '9m', '8m', '7m', '6m', '5m', '4m', '3m', '2m', '1m'], 0)
    """
    last: dict[str, int] = {}
    for i, label in enumerate(concealed):
        last[label] = i
    latest = sorted(last.values(), reverse=True)

    def completes(i: int) -> bool:
        rest = concealed[:i] + concealed[i + 1:]
        return is_complete(rest, concealed[i], melds)

    winning = [i for i in latest if completes(i)]
    return winning + [i for i in latest if i not in winning], len(winning)


def check(hand: Any, lang: str = "en", red_fives: tuple[int, int, int] = (1, 1, 1)
          ) -> dict[str, Any]:
    """{problems (in `lang`), set_aside, win_choices, completing} for the page's groups: the
    problems `problems_of` finds, where the hand lacks only its winning tile `win_choices`
    (indices into `hand.concealed`, the likeliest first; `completing` of them make a winning
    hand) in place of "No winning tile set apart"."""
    reading = seen_reading(hand)
    g = reading.grouping
    found = problems_of(reading, is_complete, red_fives)
    labels = [reading.tiles[i].label for i in g.concealed]
    choices: list[int] = []
    completing = 0
    if (g.winning is None and "back" not in labels
            and len(labels) + 3 * len(g.melds) == HAND_SIZE):
        melds = [(m.kind.value, [reading.tiles[i].label for i in m.tiles]) for m in g.melds]
        choices, completing = win_choices(labels, melds)
        found = tuple(p for p in found if p.key != "no_win")
        if not completing and all(p.key in SET_ASIDE_KEYS for p in found):
            found = (Problem("not_a_win"), *found)  # whichever tile won: a tile misread
    aside = [p.words(lang) for p in found if p.key in SET_ASIDE_KEYS]
    return {"problems": [p.words(lang) for p in found], "set_aside": aside[0] if aside else "",
            "win_choices": choices, "completing": completing}
