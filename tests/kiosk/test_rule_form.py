"""The new-game form's shape (issue 18, item 9): every rule option in exactly one group, with a
name and one line of explanation in English and Japanese; the presets first, the usual ones
before the rest; the page renders every option, its groups closed, and `GET /api/rulesets`
names the groups."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from kiosk.table import rule_form, rules_json
from kiosk.words import i18n
from kiosk.words.messages_game import GAME_MESSAGES
from kiosk.words.messages_navigation import NAVIGATION_MESSAGES
from kiosk.words.messages_rules import RULE_MESSAGES
from scorer.rules import RULESETS, Ruleset

# (Not yet on the form, issue 39: `rules_json.NOT_ON_FORM`, words to come with the catalogues.)
OPTIONS = sorted({f.name for f in fields(Ruleset)}
                 - {"name", *rule_form.HEADLINE, *rules_json.NOT_ON_FORM})
GROUP_IDS = ["scoring", "dora", "limits", "payments", "draws", "penalties", "game_end",
             "final_score"]


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
    assert sorted(rule_form.presets()) == sorted(RULESETS)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_option_group_preset_and_choice_has_words(lang: str) -> None:
    keys = [f"opt.{name}{part}" for name in OPTIONS for part in ("", ".help")]
    keys += [f"group.{gid}{part}" for gid in GROUP_IDS for part in ("", ".help")]
    keys += [f"preset.{name}.help" for name in RULESETS] + [f"ruleset.{n}" for n in RULESETS]
    keys += [f"choice.{o.name}.{c}" for g in rule_form.groups() for o in g.options
             for c in o.choices]
    missing = [key for key in keys if key not in i18n.MESSAGES]
    assert missing == []
    index = i18n.LANGS.index(lang)
    empty = [key for key in keys if not i18n.MESSAGES[key][index].strip()]
    assert empty == []


def test_the_japanese_words_are_japanese() -> None:
    """Each Japanese text has kana or kanji, unless it is only placeholders ("{round} {honba}")."""
    kana_or_kanji = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    words = {key: re.sub(r"\{\w+\}", "", ja) for key, (_, ja) in
             {**RULE_MESSAGES, **NAVIGATION_MESSAGES}.items()}
    not_japanese = [key for key, ja in words.items()
                    if re.search(r"\w", ja) and not kana_or_kanji.search(ja)]
    assert not_japanese == []


def test_no_key_is_defined_twice() -> None:
    """All are merged into one catalogue, where a key defined twice would silently win."""
    ours = set(RULE_MESSAGES) | set(NAVIGATION_MESSAGES)
    assert set(RULE_MESSAGES) & set(NAVIGATION_MESSAGES) == set()
    assert ours & set(GAME_MESSAGES) == set()
    page_words = Path(i18n.__file__).read_text(encoding="utf-8")
    assert [key for key in ours if f'"{key}":' in page_words] == []


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
    assert len(re.findall(r'<details class="rule-group" data-group="[a-z_]+">', html)) == 8
    assert "<details open" not in html and " open>" not in html
    assert sorted(re.findall(r'data-name="([a-z_]+)"', html)) == OPTIONS
    assert f'<label class="opt-name" for="opt-kiriage">{kiriage}</label>' in html
    assert f'<p class="opt-help muted" id="opt-kiriage-help">{help_text}</p>' in html
    assert html.index('id="preset"') < html.index('name="player0"') < html.index("rule-group")
