"""What a player should check in a photo's reading, in the words a player uses.

Vision reports its problems as its own diagnostics ("sideways flag of 1 tile(s) set by the meld
grammar", "unresolved: not a complete winning hand"): right for a log, meaningless at the table.
Here the kiosk looks at the finished reading itself (the tiles, their grouping, the classifier's
choices) and says what a player can act on: which tiles may be extra, what is missing, which
tiles break the set's counts, which meld is not a set. Each `Problem` also names the tiles it
blames, so the win page marks exactly those.

A tile is *doubtful* (`doubtful`) when the classifier hesitated between it and another label, or
hardly chose at all, or when hand-aware decoding replaced its label. A tile read at a modest
probability with no rival is not doubtful: on a real photo most tiles come out between 0.5 and
0.9 and are right, and marking them all hides the two that need a look (issue 18, item 3).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kiosk.words import i18n

#: below this the classifier's label had less than an even chance against the rest put
#: together, a guess rather than a reading
LOW_CONFIDENCE = 0.45
#: a runner-up with at least this share of the chosen label's probability is a real rival
RIVAL_SHARE = 1 / 3
HAND_SIZE = 14  # each kan counted as 3
SET_ASIDE_NAMED = 4  # set-aside tiles named in the problem; more (a wall, a row) are counted
SET_ASIDE_KEYS = ("set_aside", "set_aside_many")  # the problems that ask for no check
#: a number of tiles as an English sentence starts it ("Two tiles may be extra")
_COUNT_WORDS = ("No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine")
_TIMES = ("", "", "", "", "", "Five", "Six", "Seven", "Eight")


def doubtful(tile: Any) -> bool:
    """Whether a `vision.reading.DetectedTile` needs the player's look (see the module doc).

    >>> from vision.reading import DetectedTile
    >>> box = (0.0, 0.0, 10.0, 10.0)
    >>> doubtful(DetectedTile("3m", box, 0.62, (("5m", 0.05),)))   # modest, unrivalled
    False
    >>> doubtful(DetectedTile("1z", box, 0.56, (("7m", 0.30),)))   # 7m is a real rival
    True
    """
    confidence = float(tile.confidence)
    rival = float(tile.alternatives[0][1]) if tile.alternatives else 0.0
    return (bool(tile.changed_by_decoder) or confidence < LOW_CONFIDENCE
            or rival >= RIVAL_SHARE * confidence)


@dataclass(frozen=True)
class Problem:
    """One thing to check: a catalogue key (`reading.KEY`), the tiles it names (mpsz) and the
    indices (into the reading's tiles) of the tiles it blames."""

    key: str
    tiles: tuple[str, ...] = ()
    count: int = 0
    blamed: tuple[int, ...] = ()
    meld: int = 0  # 1-based, for a meld's problem
    meld_kind: str = ""  # chi, pon, ... for a meld's problem

    def words(self, lang: str = "en") -> str:
        """The problem as the win page says it.

        >>> Problem("extra", ("6s", "6s"), 2).words()
        'Two tiles may be extra: 6s, 6s. Remove them, or drag them where they belong.'
        >>> Problem("extra", ("6s", "6s"), 2).words("ja")
        '余分な牌が2枚あるかもしれません：6索、6索。削除するか、正しい場所へ動かしてください。'
        """
        names = [tile_name(label, lang) for label in self.tiles]
        count = (_COUNT_WORDS[self.count] if lang == "en" and self.count < len(_COUNT_WORDS)
                 else str(self.count))
        if self.key == "too_many" and lang == "en":
            count = _TIMES[min(self.count, len(_TIMES) - 1)]
        return i18n.t("reading." + self.key, lang, n=self.count, count=count, meld=self.meld,
                      tiles=i18n.t("list.sep", lang).join(names),
                      kind=i18n.t("meld." + self.meld_kind, lang) if self.meld_kind else "")


def tile_name(label: str, lang: str = "en") -> str:
    """A tile as players write it: 6s / 6索, red 5s / 赤5索, East / 東.

    >>> tile_name("0s"), tile_name("0s", "ja"), tile_name("1z"), tile_name("3m", "ja")
    ('red 5s', '赤5索', 'East wind', '3萬')
    """
    if label == "back":
        return i18n.t("tile.name_back", lang)
    number, suit = label[0], label[1]
    if suit == "z":
        return i18n.t("tile." + label, lang)
    if number == "0":
        return i18n.t("reading.red", lang, name=i18n.t("tile." + suit, lang, n=5))
    return i18n.t("tile." + suit, lang, n=number)


def _kind(label: str) -> str:
    return "5" + label[1] if label[0] == "0" else label


def _overlap(a: Sequence[float], b: Sequence[float]) -> float:
    """The share of the smaller box that the two boxes share (a tile found twice: near 1)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / smaller if smaller > 0 else 0.0


def likely_extra(reading: Any, hand: Sequence[int], n: int) -> list[int]:
    """The `n` hand tiles most likely not there at all: a tile found twice (boxes overlapping)
    first, then the ones the finder was least sure were tiles, then the least well read."""
    tiles = reading.tiles

    def phantom(i: int) -> tuple[float, float, float]:
        shared = max((_overlap(tiles[i].box, tiles[j].box) for j in hand if j != i), default=0)
        return (-round(shared, 2), float(tiles[i].detection_score), float(tiles[i].confidence))

    return sorted(sorted(hand, key=phantom)[:n])


def problems_of(reading: Any,
                complete: Callable[[list[str], str | None, list[tuple[str, list[str]]]], bool]
                | None = None, red_fives: tuple[int, int, int] = (1, 1, 1)
                ) -> tuple[Problem, ...]:
    """Everything a player should check in a `vision.reading.Reading`, most useful first;
    `red_fives` the red fives the table's set holds in m, p, s (one of each by default)."""
    tiles, g = reading.tiles, reading.grouping
    if not tiles:
        return ()
    label = [t.label for t in tiles]
    hand = list(g.concealed) + ([g.winning] if g.winning is not None else [])
    counted = len(hand) + 3 * len(g.melds)
    out: list[Problem] = []
    if counted > HAND_SIZE:
        extra = likely_extra(reading, hand, counted - HAND_SIZE)
        out.append(Problem("extra", tuple(label[i] for i in extra), len(extra), tuple(extra)))
    elif counted < HAND_SIZE:
        out.append(Problem("missing", count=HAND_SIZE - counted))
    if g.winning is None and hand:
        out.append(Problem("no_win"))
    placed = hand + [i for m in g.melds for i in m.tiles] + list(g.dora)
    kinds = Counter(_kind(label[i]) for i in placed if label[i] != "back")
    for kind, n in sorted(kinds.items()):
        if n > 4:
            blamed = tuple(i for i in placed if _kind(label[i]) == kind)
            out.append(Problem("too_many", (kind,), n, blamed))
    reds = Counter(label[i][1] for i in placed if label[i][0] == "0")
    for suit, n in sorted(reds.items()):
        if n > max(red_fives["mps".index(suit)], 1):  # the set's (`Ruleset.red_fives`)
            blamed = tuple(i for i in placed if label[i] == "0" + suit)
            out.append(Problem("red_fives", ("0" + suit,), n, blamed))
    for number, m in enumerate(g.melds, start=1):
        shown = [label[i] for i in m.tiles]
        if not _is_set(shown, m.kind.value):
            out.append(Problem("meld_not_set", tuple(shown), meld=number,
                               meld_kind=m.kind.value, blamed=tuple(m.tiles)))
    if not out and complete is not None:
        win = label[g.winning] if g.winning is not None else None
        melds = [(m.kind.value, [label[i] for i in m.tiles]) for m in g.melds]
        if not complete([label[i] for i in g.concealed], win, melds):
            out.append(Problem("not_a_win"))
    if g.unassigned:
        # set aside (a wall, discards, a tile stacked on another): shown grey on the page, not
        # counted and not marked doubtful (nor hiding whether the hand is a win); a tap brings
        # one in. A whole row is counted, not named.
        left = tuple(g.unassigned)
        key = "set_aside" if len(left) <= SET_ASIDE_NAMED else "set_aside_many"
        out.append(Problem(key, tuple(label[i] for i in left), len(left)))
    return tuple(out)


def _is_set(labels: Sequence[str], kind: str) -> bool:
    faces = [_kind(t) for t in labels if t != "back"]
    if kind in ("ankan", "minkan", "kakan"):
        return len(labels) == 4 and len(set(faces)) == 1
    if len(labels) != 3 or len(faces) != 3:
        return False
    if len(set(faces)) == 1:
        return True
    numbers = sorted(int(f[0]) for f in faces)
    return (len({f[1] for f in faces}) == 1 and faces[0][1] != "z"
            and numbers == [numbers[0], numbers[0] + 1, numbers[0] + 2])


def blamed_tiles(problems: Sequence[Problem]) -> frozenset[int]:
    return frozenset(i for p in problems for i in p.blamed)
