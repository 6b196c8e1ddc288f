"""The NPC rules of each system, from the seed lines they come from."""

from __future__ import annotations

import pytest

from rulesets.core import resolve_settings
from rulesets.core.npcs import InvalidHit, members_refusal, npc_rules, quick_edits
from rulesets.registry import SYSTEMS, get_ruleset


def _npc(system: str, **settings) -> dict:
    ruleset = get_ruleset(system)
    return npc_rules(system).prepare_npc(
        ruleset.blank_sheet(resolve_settings(ruleset.SETTINGS, settings)), settings
    )


def _weg(dice: dict[str, int]) -> dict:
    sheet = _npc("weg_d6", default_edition="1e")
    sheet["attributes"] = {k: v * 3 for k, v in dice.items()}
    return sheet


# (system, what the seed says, the NPC's budget pool: allowed) -------------------------------
@pytest.mark.parametrize(
    ("system", "pool", "allowed", "source"),
    [
        ("weg_d6", "attributes", 36, "003:913"),  # 12D of attributes for an NPC
        ("ore", "points", 100, "001:L768, L772"),  # the GM's npc_points, 100 by default
        ("o3d10", "stats", 24, "setting npc_stat_points"),
        ("o3d10", "skills", 20, "setting npc_skill_points"),
        ("swd10", "attributes.physical", 6, "L290"),  # the player's priorities, as a guide
    ],
)
def test_each_systems_npc_budget_comes_from_its_seed_or_a_declared_setting(
    system, pool, allowed, source
):
    report = npc_rules(system).npc_report(_npc(system), {})
    found = next(p for p in report.pools if p.key == pool)
    assert found.allowed == allowed
    assert source in found.source or found.source.startswith(source.split(",")[0])


def test_a_weg_npc_of_twelve_dice_like_major_lariss_is_within_the_norm():
    # 003:2350: DEX 2D, KNO 1D+2, MEC 1D, PER 3D+1, STR 3D, TEC 1D = 36 pips.
    sheet = _npc("weg_d6", default_edition="1e")
    sheet["attributes"] = {
        "dexterity": 6,
        "knowledge": 5,
        "mechanical": 3,
        "perception": 10,
        "strength": 9,
        "technical": 3,
    }
    report = npc_rules("weg_d6").npc_report(sheet, {})
    assert next(p for p in report.pools if p.key == "attributes").spent == 36
    # Only the species minimum the digest notes (Lariss's MEC 1D, below 2E's 2D) remains.
    assert "npc_attribute_norm" not in report.codes()


def test_a_weg_npc_off_the_twelve_dice_like_dedelin_is_warned_not_refused():
    # 003:2487: Dedelin has 18D, which the 12D rule (003:913) calls a norm, not a law.
    report = npc_rules("weg_d6").npc_report(
        _weg(
            dict.fromkeys(
                ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical"), 3
            )
        ),
        {},
    )
    assert "npc_attribute_norm" in report.codes()
    assert not report.errors


def test_a_weg_npc_has_no_skill_dice_to_spend():
    report = npc_rules("weg_d6").npc_report(_npc("weg_d6"), {})
    assert not [p for p in report.pools if p.key.startswith("skill_dice")]
    assert not [c for c in report.codes() if c.startswith("skill_dice")]


def test_a_swd10_npc_is_a_commoner_with_four_health_levels_until_given_power():
    rules = npc_rules("swd10")
    sheet = _npc("swd10")
    assert sheet["power"] == 0  # 000:L96
    assert "power_at_creation" not in rules.npc_report(sheet, {}).codes()
    assert rules.hit_fields(sheet, {})[0].maximum == 4  # 000:L98
    assert "L98" in rules.npc_report(sheet, {}).notes[0].source
    hero = dict(sheet, power=2)
    assert rules.hit_fields(hero, {})[0].maximum == 7
    assert "hero" in rules.npc_report(hero, {}).notes[0].text


def test_the_swd10_gm_may_drop_the_dot_guide():
    report = npc_rules("swd10").npc_report(_npc("swd10"), {"npc_dot_budget": "none"})
    assert report.pools == []


def test_an_ore_npc_starts_with_the_gms_npc_budget_and_is_only_warned_over_it():
    rules = npc_rules("ore")
    sheet = _npc("ore", npc_points=20)
    assert sheet["character_points"] == 20
    sheet["stats"] = dict.fromkeys(sheet["stats"], 4)
    report = rules.npc_report(sheet, {})
    assert "npc_points_over" in report.codes()
    assert not [v for v in report.errors if "budget" in v.code]


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_a_quick_npc_is_held_to_no_budget(system):
    report = npc_rules(system).npc_report(_npc(system), {}, quick=True)
    assert report.quick and report.pools == [] and report.violations == []


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_system_declares_its_npc_settings_with_a_source(system):
    for setting in npc_rules(system).NPC_SETTINGS:
        assert setting.source


# Minions ---------------------------------------------------------------------------------


def test_a_weg_minion_wounded_twice_climbs_the_editions_ladder():
    rules = npc_rules("weg_d6")
    re_block, first = _npc("weg_d6"), _npc("weg_d6", default_edition="1e")
    wounds = rules.hit(re_block, {}, rules.fresh_wounds(re_block, {}), {"level": "wounded"})
    assert rules.hit(re_block, {}, wounds, {"level": "wounded"}) == {"level": "wounded_twice"}
    assert rules.hit(first, {}, wounds, {"level": "wounded"}) == {"level": "incapacitated"}
    assert rules.condition(first, {}, {"level": "incapacitated"}).down


def test_an_ore_minion_is_out_on_a_head_hit_or_five_points_in_one_place():
    rules = npc_rules("ore")
    block = _npc("ore")
    fresh = rules.fresh_wounds(block, {})
    head = rules.hit(block, {}, fresh, {"location": "head", "damage": "1"})
    assert rules.condition(block, {}, head).down  # 001:L236
    arm = rules.hit(block, {}, fresh, {"location": "left_arm", "damage": "4"})
    assert not rules.condition(block, {}, arm).down
    arm = rules.hit(block, {}, arm, {"location": "left_arm", "damage": "1"})
    assert rules.condition(block, {}, arm).down


def test_a_1o3d10_minion_loses_hp_and_goes_down_below_zero():
    rules = npc_rules("o3d10")
    block = _npc("o3d10")
    wounds = rules.hit(block, {}, rules.fresh_wounds(block, {}), {"damage": "12"})
    assert "Wounded" in rules.condition(block, {}, wounds).label  # HP 0: L41
    wounds = rules.hit(block, {}, wounds, {"damage": "1"})
    assert rules.condition(block, {}, wounds).down  # L43


def test_a_swd10_minion_is_incapacitated_at_the_end_of_its_track():
    rules = npc_rules("swd10")
    block = _npc("swd10")
    wounds = rules.hit(block, {}, {"levels": 0}, {"levels": "4"})
    assert rules.condition(block, {}, wounds).down
    assert rules.condition(block, {}, {"levels": 1}).penalty == ""


@pytest.mark.parametrize(
    ("system", "raw", "field"),
    [
        ("swd10", {"levels": "nine"}, "levels"),
        ("swd10", {"levels": "9"}, "levels"),
        ("ore", {"location": "tail", "damage": "1"}, "location"),
        ("weg_d6", {"level": "dead-ish"}, "level"),
        ("o3d10", {"damage": "-3"}, "damage"),
    ],
)
def test_a_bad_hit_is_refused_naming_its_field(system, raw, field):
    rules = npc_rules(system)
    block = _npc(system)
    with pytest.raises(InvalidHit) as refused:
        rules.hit(block, {}, rules.fresh_wounds(block, {}), raw)
    assert refused.value.field == field


@pytest.mark.parametrize(
    ("count", "ok"),
    [
        ("1", True),
        ("6", True),
        ("50", True),
        ("0", False),
        ("51", False),
        ("10000", False),
        ("six", False),
    ],
)
def test_a_group_has_one_to_fifty_members(count, ok):
    assert (members_refusal(count) == "") is ok


def test_quick_lines_name_traits_by_their_label():
    ruleset = get_ruleset("weg_d6")
    sheet = _npc("weg_d6")
    rows = ruleset.trait_rows(sheet, resolve_settings(ruleset.SETTINGS, {}))
    edits, problems = quick_edits(rows, "Blaster 5D\nDodge: 4D\nBanana 3")
    assert edits == [("skill.blaster", "5D"), ("skill.dodge", "4D")]
    assert len(problems) == 1 and "Banana" in problems[0]
