"""Hand-aware decoding: the most probable labelling that is a legal hand.

The classifier gives each tile a few (label, probability) choices. The decoder searches the
labellings in order of falling joint probability (changing only the least certain tiles) and takes
the first that breaks no rule: at most four of a kind, at most the red fives of a suit the
table's set holds (``VisionConfig.red_fives``: one each by default; many sets carry two red 5p),
every meld a real set, and (when the kiosk passes a check) a complete winning shape. Every tile it
changes is marked; when nothing legal is found within the budget it keeps the classifier's labels
and says what is wrong instead of guessing silently.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from vision.config import VisionConfig
from vision.kinds import kind_of
from vision.problems import MELD_NOT_SET, NOT_A_WIN, RED_FIVES, TOO_MANY, UNRESOLVED, Problem
from vision.reading import Grouping, MeldKind

#: The kiosk's winning-shape check: (concealed, winning tile, [(meld kind, labels)]) -> complete?
CompleteCheck = Callable[[list[str], str | None, list[tuple[str, list[str]]]], bool]


@dataclass(frozen=True)
class Decoded:
    labels: tuple[str, ...]
    changed: tuple[bool, ...]
    problems: tuple[Problem, ...]


KANS = (MeldKind.ANKAN, MeldKind.MINKAN, MeldKind.KAKAN)
#: red fives a suit may hold: (m, p, s)
RedFives = tuple[int, int, int]
ONE_EACH: RedFives = (1, 1, 1)


def _too_many_reds(labels: Sequence[str], allowed: RedFives) -> dict[str, int]:
    """suit -> how many red fives it holds past ``allowed``."""
    reds = Counter(t[1] for t in labels if t[0] == "0")
    limit = dict(zip("mps", allowed, strict=True))
    return {suit: n - limit[suit] for suit, n in sorted(reds.items()) if n > limit[suit]}


def _is_set(labels: Sequence[str], kind: MeldKind) -> bool:
    faces = [kind_of(t) for t in labels if t != "back"]
    if kind in KANS:
        backs_ok = kind != MeldKind.ANKAN or sum(t == "back" for t in labels) <= 2
        return len(labels) == 4 and len(set(faces)) == 1 and backs_ok
    if len(labels) != 3 or "back" in labels:
        return False
    if len(set(faces)) == 1:
        return True
    nums = sorted(int(f[0]) for f in faces)
    suits = {f[1] for f in faces}
    return len(suits) == 1 and "z" not in suits and nums == [nums[0], nums[0] + 1, nums[0] + 2]


def violations(
    labels: Sequence[str],
    grouping: Grouping | None = None,
    complete: CompleteCheck | None = None,
    red_fives: RedFives = ONE_EACH,
) -> list[Problem]:
    """Everything illegal about a labelling (empty when legal).

    >>> [str(p) for p in violations(["3m", "3m", "3m", "3m", "3m", "0p", "0p"])]
    ['five 3m', 'two red fives in p']
    >>> violations(["0p", "0p", "0p"], red_fives=(1, 2, 1))
    [Problem(key='problem.red_fives', params=(('n', 3), ('suit', 'p')))]
    """
    problems = []
    counts = Counter(kind_of(t) for t in labels if t != "back")
    for kind, n in sorted(counts.items()):
        if n > 4:
            problems.append(Problem.of(TOO_MANY, n=n, tile=kind))
    reds = Counter(t[1] for t in labels if t[0] == "0")
    for suit in _too_many_reds(labels, red_fives):
        problems.append(Problem.of(RED_FIVES, n=reds[suit], suit=suit))
    if grouping is not None:
        for i, m in enumerate(grouping.melds, start=1):
            tiles = [labels[t] for t in m.tiles]
            if not _is_set(tiles, m.kind):
                problems.append(Problem.of(MELD_NOT_SET, meld=i, kind=m.kind.value,
                                           tiles=tuple(tiles)))
        if complete is not None and not problems:
            concealed = [labels[t] for t in grouping.concealed]
            win = labels[grouping.winning] if grouping.winning is not None else None
            melds = [(m.kind.value, [labels[t] for t in m.tiles]) for m in grouping.melds]
            if not complete(concealed, win, melds):
                problems.append(Problem.of(NOT_A_WIN))
    return problems


def blamed(
    labels: Sequence[str], grouping: Grouping | None, red_fives: RedFives = ONE_EACH
) -> set[int]:
    """The tiles a change to which could mend a rule the labelling breaks: every tile of a kind
    read more than four times, every red five of a suit with too many, every tile of a broken
    meld.
    Changing any other tile cannot make the labelling legal (bar the winning-shape check).

    >>> sorted(blamed(["3m", "1p", "3m", "3m", "3m", "3m", "0s", "0s"], None))
    [0, 2, 3, 4, 5, 6, 7]
    """
    counts = Counter(kind_of(t) for t in labels if t != "back")
    over = {kind for kind, n in counts.items() if n > 4}
    reds = _too_many_reds(labels, red_fives)
    out = {i for i, t in enumerate(labels) if kind_of(t) in over or (t[0] == "0" and t[1] in reds)}
    if grouping is not None:
        for m in grouping.melds:
            if not _is_set([labels[t] for t in m.tiles], m.kind):
                out.update(m.tiles)
    return out


def could_be_mended(
    options: Sequence[Sequence[str]],
    movable: Sequence[int],
    grouping: Grouping | None,
    red_fives: RedFives = ONE_EACH,
) -> bool:
    """Whether changing only the ``movable`` tiles (tile i to one of ``options[i]``, its
    classifier label first) could possibly make the labelling legal: each kind over four and
    each suit with too many red fives needs enough movable tiles of it, and each broken meld has the
    size of its kind and some choice among its tiles' options that makes it a set.

    >>> could_be_mended([["3m"]] * 5 + [["1p", "3m"]], movable=[5], grouping=None)
    False
    >>> could_be_mended([["3m", "2m"]] * 5 + [["1p"]], movable=[0], grouping=None)
    True
    """
    labels = [o[0] for o in options]
    free = set(movable)
    counts = Counter(kind_of(t) for t in labels if t != "back")
    for kind, n in counts.items():
        if n > 4 and sum(kind_of(labels[i]) == kind for i in free) < n - 4:
            return False
    for suit, over in _too_many_reds(labels, red_fives).items():
        if sum(labels[i] == "0" + suit for i in free) < over:
            return False
    for m in grouping.melds if grouping is not None else ():
        if _is_set([labels[t] for t in m.tiles], m.kind):
            continue
        if len(m.tiles) != (4 if m.kind in KANS else 3):  # no relabelling mends a wrong size
            return False
        picks = [options[t] if t in free else [labels[t]] for t in m.tiles]
        if not any(_is_set(c, m.kind) for c in itertools.product(*picks)):
            return False
    return True


def _unresolved(problems: Sequence[Problem]) -> tuple[Problem, ...]:
    """The decoder's problems it found no labelling to mend."""
    return tuple(Problem.of(UNRESOLVED, problem=p) for p in problems)


def decode(
    choices: Sequence[Sequence[tuple[str, float]]],
    grouping: Grouping | None,
    config: VisionConfig,
    complete: CompleteCheck | None = None,
) -> Decoded:
    """Pick the most probable legal labelling; ``choices[i]`` is tile i's (label, p), best first."""
    top = [c[0][0] for c in choices]
    reds = config.red_fives
    first = violations(top, grouping, complete, reds)
    if not first:
        return Decoded(tuple(top), (False,) * len(top), ())
    # options per tile: alternatives above the floor; cost = log-probability lost
    options: list[list[tuple[str, float]]] = []
    for c in choices:
        p0 = max(c[0][1], 1e-9)
        options.append(
            [
                (lab, math.log(p0) - math.log(max(p, 1e-9)))
                for lab, p in c
                if lab == c[0][0]
                or (p >= config.min_alternative and p >= config.min_alternative_ratio * p0)
            ]
        )
    # Without the winning-shape check only the blamed tiles can mend the labelling; searching
    # over the others as well spent most of a crowded photo's time (tens of ms) for nothing.
    candidates = range(len(choices)) if complete is not None else blamed(top, grouping, reds)
    movable = sorted(
        (i for i in candidates if len(options[i]) > 1), key=lambda i: options[i][1][1]
    )[: config.decode_tiles]
    if not could_be_mended([[lab for lab, _ in o] for o in options], movable, grouping, reds):
        # No labelling reachable by changing only the movable tiles can be legal, so searching
        # would only spend the whole budget (most of a frame's time on crowded photos).
        return Decoded(tuple(top), (False,) * len(top), _unresolved(first))
    start = tuple(0 for _ in movable)
    heap: list[tuple[float, tuple[int, ...]]] = [(0.0, start)]
    seen = {start}
    tried = 0
    while heap and tried < config.decode_budget:
        cost, state = heapq.heappop(heap)
        tried += 1
        labels = list(top)
        for slot, pick in zip(movable, state, strict=True):
            labels[slot] = options[slot][pick][0]
        if state != start and not violations(labels, grouping, complete, reds):
            changed = tuple(a != b for a, b in zip(labels, top, strict=True))
            return Decoded(tuple(labels), changed, ())
        for k, slot in enumerate(movable):
            if state[k] + 1 < len(options[slot]):
                nxt = state[:k] + (state[k] + 1,) + state[k + 1 :]
                if nxt not in seen:
                    seen.add(nxt)
                    step = options[slot][state[k] + 1][1] - options[slot][state[k]][1]
                    heapq.heappush(heap, (cost + step, nxt))
    return Decoded(tuple(top), (False,) * len(top), _unresolved(first))
