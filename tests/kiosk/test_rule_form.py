"""The new-game form's shape (issue 18, item 9): every rule option in exactly one group, with a
name and one line of explanation in English and Japanese; the presets first, the usual ones
before the rest; the page renders every option, its groups closed, and `GET /api/rulesets`
names the groups."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from kiosk.table import rule_form, rules_json
from kiosk.words import i18n
from scorer.rules import PARLOR_RULESETS, RULESETS, Ruleset
from tests.kiosk.catalogues import words

# Chips and stakes as one option a part (`chips.ura`, `stakes.rate`; issue 39).
OPTIONS = sorted(({f.name for f in fields(Ruleset)}
                  - {"name", *rule_form.HEADLINE, *rules_json.NOT_ON_FORM, *rules_json.PARTS})
                 | {f"{name}.{part.name}" for name, kind in rules_json.PARTS.items()
                    for part in fields(kind)})
GROUP_IDS = ["scoring", "dora", "limits", "payments", "draws", "penalties", "game_end",
             "final_score", "money"]


def test_every_option_is_in_exactly_one_group() -> None:
    grouped = [name for _, names in rule_form.GROUPS for name in names]
    assert sorted(grouped) == OPTIONS  # none missing, none twice, no name that is not an option
    assert [g.id for g in rule_form.groups()] == GROUP_IDS
    assert sum(len(g.options) for g in rule_form.groups()) == len(OPTIONS)


def test_the_form_offers_each_option_as_the_api_reads_it() -> None:
    by_name = {o.name: o for g in rule_form.groups() for o in g.options}
    assert by_name["kiriage"].kind == "bool" and by_name["uma"].kind == "uma"
    assert by_name["triple_ron"].choices == ("abort", "all_paid", "head_bump")
    assert by_name["pao"].choices == ("daisangen", "daisuushii", "suukantsu")
    bounds = by_name["min_han"].bounds
    assert bounds is not None and (bounds.low, bounds.high) == (0, 13)
    assert rule_form.form_values()["wrc"]["uma"] == "15,5,-5,-15"


def test_presets_come_usual_first() -> None:
    assert rule_form.presets()[:3] == ("tenhou", "mahjong_soul", "mleague")
    assert sorted(rule_form.presets()) == sorted({**RULESETS, **PARLOR_RULESETS})
    assert rule_form.presets()[8:11] == ("parlor", "parlor_four_reds", "parlor_sanma")


@pytest.mark.parametrize("lang", ["en", "ja", "zh-Hans"])
def test_every_option_group_preset_and_choice_has_words(lang: str) -> None:
    keys = [f"opt.{name}{part}" for name in OPTIONS for part in ("", ".help")]
    keys += [f"group.{gid}{part}" for gid in GROUP_IDS for part in ("", ".help")]
    keys += [f"preset.{name}.help" for name in rules_json.PRESETS]
    keys += [f"ruleset.{n}" for n in rules_json.PRESETS]
    keys += [f"choice.{o.name}.{c}" for g in rule_form.groups() for o in g.options
             for c in o.choices]
    missing = [key for key in keys if not i18n.has(key)]
    assert missing == []
    empty = [key for key in keys if not words(lang)[key].strip()]
    assert empty == []


RULE_FORM = ("opt.", "group.", "preset.", "choice.", "new.", "games.", "members.")


@pytest.mark.parametrize("lang, script", [("ja", r"[\u3040-\u30ff\u4e00-\u9fff]"),
                                          ("zh-Hans", r"[\u4e00-\u9fff]")])
def test_the_form_s_words_are_in_the_language(lang: str, script: str) -> None:
    """Each text of the form and the games page has kana or hanzi, unless it is only
    placeholders ("{round} {honba}")."""
    texts = {key: re.sub(r"\{\w+\}", "", text) for key, text in words(lang).items()
             if key.startswith(RULE_FORM)}
    assert len(texts) > 150
    not_in_it = [key for key, text in texts.items()
                 if re.search(r"\w", text) and not re.search(script, text)]
    assert not_in_it == []


def test_rulesets_name_the_groups(api) -> None:  # noqa: ANN001
    out = api.get("/api/rulesets").get_json()
    assert [g["id"] for g in out["groups"]] == GROUP_IDS
    assert out["groups"][0]["options"][:3] == ["red_fives", "kuitan", "atozuke"]


@pytest.mark.parametrize("lang, kiriage, help_text", [
    ("en", "Kiriage mangan", "4 han 30 fu and 3 han 60 fu are paid as mangan."),
    ("ja", "切り上げ満貫", "4翻30符と3翻60符を満貫として払う。"),
])
def test_the_page_holds_every_option_in_closed_groups(api, lang: str, kiriage: str,  # noqa: ANN001
                                                       help_text: str) -> None:
    html = api.get(f"/new?lang={lang}").get_data(as_text=True)
    assert len(re.findall(r'<details class="rule-group" data-group="[a-z_]+">', html)) == 9
    assert "<details open" not in html and " open>" not in html
    assert sorted(re.findall(r'data-name="([a-z_.]+)"', html)) == OPTIONS
    assert f'<label class="opt-name" for="opt-kiriage">{kiriage}</label>' in html
    assert f'<p class="opt-help muted" id="opt-kiriage-help">{help_text}</p>' in html
    assert html.index('id="preset"') < html.index('name="player0"') < html.index("rule-group")


def test_chips_and_stakes_one_part_at_a_time_with_bounds(api) -> None:  # noqa: ANN001
    """The form posts each part of chips and stakes by itself (`chips.ura`, `stakes.rate`): a
    part changes only itself, out of bounds or of the wrong kind it is refused naming the part in
    the page's words, and an unknown part is an unknown option."""
    players = ["Ann", "Bo", "Cy", "Di"]
    started = api.post("/api/games", {"players": players, "ruleset": "parlor", "options": {
        "stakes.rate": 100, "chips.ura": 2, "chips.open_hand": True,
        "stakes": {"game_fee": 600}}})
    assert started.status_code == 201, started.get_json()
    rules = api.get("/api/history").get_json()["ruleset"]
    # ピン: 100 a thousand; the game fee from the whole object, the chip's value the preset's.
    assert rules["stakes"] == {"rate": 100, "chip": 100, "game_fee": 600, "top_fee": 0}
    assert (rules["chips"]["ura"], rules["chips"]["open_hand"], rules["chips"]["red_five"]) == (
        2, True, 1)
    for options, code, said in (
            ({"stakes.rate": -1}, "rule_number", {"option": "Rate per 1,000 points",
                                                  "low": "0", "high": "1,000,000", "got": "-1"}),
            ({"chips.tsumo_factor": 0}, "rule_number", {"option": "Tsumo chips times",
                                                        "low": "1", "high": "10", "got": "0"}),
            ({"chips.open_hand": 1}, "rule_bool", {"option": "Chips for open hands",
                                                   "got": "1"})):
        body = api.post("/api/games", {"players": players, "options": options}).get_json()
        assert (body["code"], body["words"]) == (code, said), body
    body = api.post("/api/games", {"players": players, "options": {"chips.colour": 1}}).get_json()
    assert (body["code"], body["words"]) == ("rule_unknown", {"options": "chips.colour"})
