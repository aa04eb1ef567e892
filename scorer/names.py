"""The rules core's values in words, in a catalogue's language (`scorer.words`): tiles as players
say them ("6s", "Green dragon"; 6索, 發) and each fu item of `scorer.fu` ("Closed pon of Green
dragon (honour)", not "concealed triplet of terminals/honours 666z"). The kiosk's breakdown and
``python -m scorer``'s Japanese and Chinese speak them; their words are ``tile.*`` and ``fu.*`` in
scorer/locale/.
"""

from __future__ import annotations

import re

from scorer.words import SCORER


def tile_name(label: str, lang: str = "en") -> str:
    """A tile as players say it: "6s", "5m" (a red five is still a five), "White dragon"."""
    number, suit = label[0], label[1]
    if suit == "z":
        return SCORER.t(f"tile.{label}", lang)
    return SCORER.t(f"tile.{suit}", lang, n=5 if number == "0" else number)


def _kind_of_set(tiles: str) -> str:
    """simple, terminal or honour: why a set is worth what it is."""
    if tiles.endswith("z"):
        return "honour"
    return "terminal" if tiles[0] in "19" else "simple"


#: The rules core's fu reasons (scorer/fu.py) -> message keys; a set's tiles follow its name.
_PLAIN = {"base (futei)": "fu.base", "closed ron (menzen kafu)": "fu.closed_ron",
          "tsumo": "fu.tsumo", "kanchan wait": "fu.wait_kanchan",
          "penchan wait": "fu.wait_penchan", "tanki wait": "fu.wait_tanki",
          "open hand of pinfu shape": "fu.open_pinfu",
          "chiitoitsu (fixed, not rounded)": "fu.chiitoitsu"}
# "value tile": North at a sanma table where it is everyone's yakuhai (scorer/fu.py).
_PAIR = re.compile(r"pair of the (dragon|double wind|seat wind|round wind|value tile) ([1-7]z)")
_SET = re.compile(r"(concealed triplet|triplet completed by ron|open triplet|open quad \(added\)"
                  r"|open quad|closed quad)(?: of terminals/honours)? ([1-9]{3,4}[mpsz])")
_SET_KEY = {"concealed triplet": "fu.concealed_triplet",
            "triplet completed by ron": "fu.ron_triplet", "open triplet": "fu.open_triplet",
            "open quad (added)": "fu.added_quad", "open quad": "fu.open_quad",
            "closed quad": "fu.closed_quad"}


def fu_words(reason: str, lang: str = "en") -> str | None:
    """One fu item of the rules core in words, or None for a reason not known here.

    >>> fu_words("concealed triplet of terminals/honours 666z")
    'Closed pon of Green dragon (honour)'
    >>> fu_words("open triplet 666s", "ja")
    '6索の明刻（中張牌）'
    """
    if reason in _PLAIN:
        return SCORER.t(_PLAIN[reason], lang)
    pair = _PAIR.fullmatch(reason)
    if pair:
        what = SCORER.t("fu.pair_" + pair[1].replace(" ", "_"), lang)
        return SCORER.t("fu.pair", lang, tile=tile_name(pair[2], lang), what=what)
    found = _SET.fullmatch(reason)
    if found:
        tiles = found[2]
        return SCORER.t(_SET_KEY[found[1]], lang, tile=tile_name(tiles[0] + tiles[-1], lang),
                        kind=SCORER.t("fu." + _kind_of_set(tiles), lang))
    return None
