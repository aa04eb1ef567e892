"""What vision noticed, as values: a `Problem` is the key of its entry in vision's catalogue
(``vision/locale/<lang>/LC_MESSAGES/vision.po``) and the facts its words name (a count, a meld's
number and kind, tiles, a problem the decoder could not mend), no words. `problem_words` words
one in a language at the edge, as the rules core's values are worded;
`english()` (and `str`) is the entry's English, the sentence a reading's ``problems`` have always
held (`Reading.to_json`, the kiosk's log).

`KEYS` names every problem a stage can write (vision.layout, vision.decode, vision.assemble, an
order `vision.teach.expected_rows` cannot read) with the values it carries; a problem of any other
key, or other values, is refused when made, so each has its catalogue entries
(tests/vision/test_problems.py).

>>> p = Problem.of(TOO_MANY, n=5, tile="3m")
>>> p.key, p.value("n"), p.english()
('problem.too_many', 5, 'five 3m')
>>> str(Problem.of(UNRESOLVED, problem=Problem.of(MELD_NOT_SET, meld=1, kind="pon",
...                                                tiles=("1m", "1m", "2m"))))
'unresolved: meld 1 (pon) is not a set: 1m 1m 2m'
>>> Problem.from_json(p.to_json()) == p, p.to_json()
(True, {'key': 'problem.too_many', 'params': {'n': 5, 'tile': '3m'}})
>>> broken = Problem.of(MELD_NOT_SET, meld=1, kind="pon", tiles=("1m", "1m", "2m"))
>>> problem_words(Problem.of(UNRESOLVED, problem=broken), "ja")
'補正できません：副露1（ポン）が面子になっていません：1m 1m 2m'
>>> red = Problem.of(RED_FIVES, n=2, suit="p")
>>> problem_words(red, "zh-Hans"), problem_words(red), str(red)
('赤5（0p）有2张', 'two red fives in p', 'two red fives in p')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral
from typing import Any, Union

from scorer.words import SCORER
from vision.catalogue import VISION

#: What a problem's values are: a count or number, a text (an mpsz label, a meld's kind, a
#: suit, the tile reader's message), mpsz labels, or the problem a stage could not mend.
Value = Union[int, str, tuple[str, ...], "Problem"]

IN_HAND = "problem.in_hand"  # n: the hand's tiles, each kan counted as 3 (14 expected)
NO_TILES = "problem.no_tiles"
NO_WINNING_GAP = "problem.no_winning_gap"
EXTRA_GAPS = "problem.extra_gaps"  # n: gaps splitting the concealed tiles
MELD_SIDEWAYS = "problem.meld_sideways"  # meld: 1-based; n: its sideways tiles (1 expected)
LEFTOVER = "problem.leftover"  # n: tiles after the melds that make no set
FACE_DOWN = "problem.face_down"  # n: face-down tiles outside a closed kan, set aside
ON_MELD = "problem.on_meld"  # n: tiles stacked on a chi or pon, set aside
GRAMMAR = "problem.grammar"  # n: tiles whose sideways flag the meld grammar set
ON_CONCEALED = "problem.on_concealed"  # n: tiles stacked on concealed tiles, set aside
EXTRA_ROW = "problem.extra_row"  # n: tiles of a row beside the hand besides the dora row
AWAY = "problem.away"  # n: tiles of a row away from the hand
TOO_MANY = "problem.too_many"  # n (over 4) of one kind; tile: its mpsz label
RED_FIVES = "problem.red_fives"  # n red fives of suit (m, p or s), more than the set holds
MELD_NOT_SET = "problem.meld_not_set"  # meld: 1-based; kind: chi, pon, ...; tiles: its labels
NOT_A_WIN = "problem.not_a_win"  # the kiosk's winning-shape check said no
UNRESOLVED = "problem.unresolved"  # problem: one of the decoder's it found no labelling to mend
ORDER_UNREADABLE = "teach.order.unreadable"  # reason: the tile reader's (English) message
ORDER_EMPTY = "teach.order.empty"  # order: the text given

#: Every problem a stage can write, by its key, with the names of the values it carries.
KEYS: Mapping[str, tuple[str, ...]] = {
    IN_HAND: ("n",), NO_TILES: (), NO_WINNING_GAP: (), EXTRA_GAPS: ("n",),
    MELD_SIDEWAYS: ("meld", "n"), LEFTOVER: ("n",), FACE_DOWN: ("n",), ON_MELD: ("n",),
    GRAMMAR: ("n",), ON_CONCEALED: ("n",), EXTRA_ROW: ("n",), AWAY: ("n",),
    TOO_MANY: ("n", "tile"), RED_FIVES: ("n", "suit"), MELD_NOT_SET: ("meld", "kind", "tiles"),
    NOT_A_WIN: (), UNRESOLVED: ("problem",), ORDER_UNREADABLE: ("reason",), ORDER_EMPTY: ("order",),
}
#: The problems only about the gaps between the concealed tiles (every photo of tiles not laid
#: out as a win has one), not about the tiles read.
GAP_KEYS = frozenset({NO_WINNING_GAP, EXTRA_GAPS})


@dataclass(frozen=True)
class Problem:
    """One thing a stage noticed: its catalogue key (one of `KEYS`) and its values, in the
    order `KEYS` names them. Immutable and hashable; compared by key and values."""

    key: str
    params: tuple[tuple[str, Value], ...] = ()

    def __post_init__(self) -> None:
        names = tuple(name for name, _ in self.params)
        if KEYS.get(self.key) != names:
            raise ValueError(f"no problem {self.key!r} with values {names} (vision.problems.KEYS)")

    @classmethod
    def of(cls, key: str, **values: Value) -> Problem:
        """`key`'s problem with `values`, in the order `KEYS` names them; a count that is a
        NumPy integer (a stage's sum) kept as a plain int, so the problem goes into JSON."""
        def plain(value: Value) -> Value:
            return int(value) if isinstance(value, Integral) else value

        return cls(key, tuple((name, plain(values[name])) for name in KEYS.get(key, values)))

    def value(self, name: str) -> Value:
        return dict(self.params)[name]

    def english(self) -> str:
        """The problem as the stages wrote it in English (``5 tile(s) ...``)."""
        return problem_words(self)

    def __str__(self) -> str:
        return self.english()

    def to_json(self) -> dict[str, Any]:
        """``{"key", "params": {name: value}}``: labels as a list, a problem as its own."""
        def plain(value: Value) -> Any:
            if isinstance(value, Problem):
                return value.to_json()
            return list(value) if isinstance(value, tuple) else value

        return {"key": self.key, "params": {name: plain(v) for name, v in self.params}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Problem:
        """The problem `to_json` gave."""
        def value(v: Any) -> Value:
            if isinstance(v, Mapping):
                return cls.from_json(v)
            return tuple(v) if isinstance(v, list) else v

        return cls.of(str(data["key"]), **{k: value(v) for k, v in data["params"].items()})


class ProblemError(ValueError):
    """A value refused for a `Problem` (an order that names no tiles); its message the English."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.english())
        self.problem = problem


#: the counts of `vision.problems.TOO_MANY` and `RED_FIVES` as the English says them ("five
#: 3m", "two red fives in p"; more than eight as "eight", as vision.decode always wrote them)
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
_IN_WORDS = (TOO_MANY, RED_FIVES)


def problem_words(problem: Problem, lang: str = "en") -> str:
    """One of vision's problems (a `vision.problems.Problem`: a reading's, an order that
    cannot be read) in `lang`, from its catalogue entry: in English the sentence the stages
    always wrote (`Problem.english`, as ``--json`` and the kiosk's log keep it); a meld's kind
    in the rules core's words (``meld.*``) but in English, where it is its id (``pon``); tiles
    as their mpsz labels; a problem the decoder could not mend worded in turn."""
    values: dict[str, object] = {}
    for name, value in problem.params:
        if isinstance(value, Problem):
            values[name] = problem_words(value, lang)
        elif isinstance(value, tuple):
            values[name] = " ".join(value)
        elif name == "kind" and lang != "en":
            values[name] = SCORER.t("meld." + str(value), lang)
        elif isinstance(value, int) and lang == "en" and problem.key in _IN_WORDS:
            values[name] = _NUMBERS[min(value, len(_NUMBERS) - 1)]
        elif name == "order":
            values[name] = repr(value)
        else:
            values[name] = value
    return VISION.t(problem.key, lang, **values)
