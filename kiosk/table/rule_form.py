"""The new-game form's shape: a preset first, then the rule options in groups a player knows
(scoring, dora, limits, table payments, draws, penalties, game end, final score, chips and
money), each group
collapsed until opened and each option with one line of explanation.

Only the grouping lives here. The options, their kinds and values come from `scorer.rules`
through `kiosk.table.rules_json`, so the form posts exactly what `POST /api/games` reads; the names
and explanations are in the message catalogue (`kiosk/words/locale/`: `group.*`, `opt.*`,
`choice.*`). An option no group names still shows, in the last group, so a new rule option is
never out of reach.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kiosk.table import rules_json
from scorer.limits import Range

#: Shown beside the preset, not in a group: the option a table changes most.
HEADLINE = ("start_points",)

#: Each group and its options, in the order the form shows them.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("scoring", ("red_fives", "kuitan", "atozuke", "min_han", "double_wind_pair_fu",
                 "rinshan_tsumo_fu", "kiriage", "players", "nukidora", "north_yakuhai")),
    ("dora", ("ippatsu", "ura_dora", "kan_dora", "kan_ura_dora")),
    ("limits", ("kazoe", "stacked_yakuman", "double_yakuman", "renhou", "kokushi_chankan_ankan",
                "pao")),
    ("payments", ("honba_value", "riichi_stick", "riichi_needs_points", "noten_total",
                  "double_ron", "triple_ron", "tsumo_payment")),
    ("draws", ("renchan", "nagashi_mangan", "abortive_draws", "abortive_renchan",
               "riichi_abort_count")),
    ("penalties", ("chombo", "chombo_points", "chombo_each")),
    ("game_end", ("length", "tobi", "tobi_at_zero", "west_round", "extra_round_renchan",
                  "target_points", "target_must_exceed", "agari_yame", "tenpai_yame")),
    ("final_score", ("return_points", "uma", "leftover_sticks", "split_ties",
                     "floating_uma_at_return", "final_rounding")),
    # Chips (祝儀) beside the points and the money a game is settled in (issue 39).
    ("money", ("chips.red_five", "chips.ura", "chips.ippatsu", "chips.yakuman_ron",
               "chips.yakuman_tsumo", "chips.tsumo_factor", "chips.open_hand", "chips.kan_ura",
               "stakes.rate", "stakes.chip", "stakes.game_fee", "stakes.top_fee")),
)

#: The presets in the order the form offers them: the most played first (not alphabetical),
#: the free parlors' with chips and stakes last.
PRESET_ORDER = ("tenhou", "mahjong_soul", "mleague", "wrc", "ema", "jpml", "renmei101", "casual",
                "parlor", "parlor_four_reds", "parlor_sanma")


@dataclass(frozen=True, slots=True)
class Option:
    name: str
    kind: str  # bool, int, enum, uma, set, text (rules_json.option_fields)
    choices: tuple[str, ...]
    bounds: Range | None  # a whole number's, as the API checks them (scorer.limits)


@dataclass(frozen=True, slots=True)
class Group:
    id: str
    options: tuple[Option, ...]


def presets() -> tuple[str, ...]:
    """Every preset, the usual ones first; one added to `RULESETS` later comes last."""
    known = tuple(name for name in PRESET_ORDER if name in rules_json.PRESETS)
    return known + tuple(sorted(set(rules_json.PRESETS) - set(known)))


def groups() -> tuple[Group, ...]:
    """The groups with their options; options no group names join the last group."""
    fields = {f["name"]: Option(f["name"], f["kind"], tuple(f.get("choices", ())),
                                rules_json.bounds(f["name"]))
              for f in rules_json.option_fields()}
    placed = {name for _, names in GROUPS for name in names} | set(HEADLINE) | {"name"}
    rest = tuple(fields[name] for name in fields if name not in placed)
    out = [Group(gid, tuple(fields[n] for n in names if n in fields)) for gid, names in GROUPS]
    out[-1] = Group(out[-1].id, out[-1].options + rest)
    return tuple(out)


def groups_json() -> list[dict[str, Any]]:
    """For `GET /api/rulesets`: `[{id, options: [name, ...]}]`, in the form's order."""
    return [{"id": g.id, "options": [o.name for o in g.options]} for g in groups()]


def form_values() -> dict[str, dict[str, Any]]:
    """Every preset's values as the form's inputs hold them (`rules_json.to_json`): the page
    carries them, so choosing a preset fills the options at once."""
    return {name: rules_json.to_json(rules_json.PRESETS[name]) for name in presets()}
