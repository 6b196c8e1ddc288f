"""Creation budgets: 18D/12D attributes, alien templates, species limits, skill dice."""

from __future__ import annotations

import pytest

import rulesets.weg_d6 as weg
from rulesets.core import InvalidEdit, resolve_settings

SETTINGS = resolve_settings(weg.SETTINGS, {})
ORDER = ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical")


def character(codes: str, *, edition: str = "2e_re", role: str = "pc", **changes) -> dict:
    """A blank sheet with its six attributes typed in DEX..TEC order, e.g. "3D+1 3D 3D ..."."""
    sheet = weg.blank_sheet({**SETTINGS, "default_edition": edition})
    sheet["role"] = role
    for attribute, raw in zip(ORDER, codes.split(), strict=True):
        sheet = weg.apply_edit(sheet, f"attr.{attribute}", raw, SETTINGS)
    sheet.update(changes)
    return sheet


def errors(sheet: dict, settings: dict = SETTINGS) -> set[str]:
    return {v.code for v in weg.check(sheet, settings).errors}


def warnings(sheet: dict, settings: dict = SETTINGS) -> set[str]:
    return {v.code for v in weg.check(sheet, settings).warnings}


def test_a_pc_with_exactly_18d_of_attributes_is_legal() -> None:  # digest case 1, 003:913
    sheet = character("3D+1 3D 3D 3D 3D 2D+2")
    report = weg.check(sheet, SETTINGS)
    assert report.pool("attributes").spent == 54
    assert report.pool("attributes").left == 0
    assert not {"attributes_over", "attributes_left"} & report.codes()


def test_a_pc_one_pip_short_of_18d_is_flagged_with_the_pip_left() -> None:  # case 2, 003:913
    sheet = character("3D+1 3D 3D 3D 3D 2D+1")
    report = weg.check(sheet, SETTINGS)
    assert report.pool("attributes").left == 1
    [short] = [v for v in report.warnings if v.code == "attributes_left"]
    assert short.message.startswith("1 pip of attribute dice still to place")
    assert "17D+2 of 18D" in short.message


def test_it_refuses_a_pc_over_18d_of_attributes() -> None:  # 003:913
    sheet = character("4D 4D 3D 3D 3D 2D")
    assert "attributes_over" in errors(sheet)


def test_major_lariss_is_a_legal_12d_npc_in_1e() -> None:  # case 3, 003:2350
    sheet = character("2D 1D+2 1D 3D+1 3D 1D", edition="1e", role="npc")
    report = weg.check(sheet, SETTINGS)
    assert report.pool("attributes").spent == 36
    assert report.ok
    # Her 1D Mechanical is below the human minimum, which for an NPC only warns.
    assert "species_minimum" in warnings(sheet)


def test_an_npc_off_the_12d_norm_is_a_warning_not_an_error() -> None:  # case S9, 003:2487
    dedelin = character("3D 3D 3D 3D 3D 3D", edition="1e", role="npc")
    assert "npc_attribute_norm" in warnings(dedelin)
    assert weg.check(dedelin, SETTINGS).ok


def test_it_refuses_an_alien_pc_who_puts_all_6d_into_strength() -> None:  # case 4, 003:911
    sheet = character("2D 2D 2D 2D 8D 2D", edition="1e")
    sheet["alien_template"] = dict(zip(ORDER, (6, 6, 6, 6, 6, 6), strict=True))
    report = weg.check(sheet, SETTINGS)
    each = [v for v in report.errors if v.code == "alien_template_each"]
    assert {v.trait for v in each} == {f"attr.{a}" for a in ORDER if a != "strength"}
    assert "attributes_over" not in report.codes()  # the template rule replaces the 18D sum


def test_an_alien_pc_with_1d_added_to_each_attribute_is_legal() -> None:  # 003:911
    sheet = character("3D 3D 3D 3D 3D 3D", edition="1e")
    template_codes = ("2D", "2D", "2D", "2D", "2D", "2D")
    for attribute, raw in zip(ORDER, template_codes, strict=True):
        sheet = weg.apply_edit(sheet, f"template.{attribute}", raw, SETTINGS)
    report = weg.check(sheet, SETTINGS)
    assert report.pool("alien_template").exact
    assert not {"alien_template_each", "alien_template_over"} & report.codes()


def test_it_refuses_an_attribute_above_the_species_maximum_at_creation() -> None:  # 002:53
    sheet = character("4D+1 3D 3D 3D 2D+2 2D")
    found = weg.check(sheet, SETTINGS).for_trait("attr.dexterity")
    assert [v.code for v in found] == ["species_maximum"]
    assert "4D+1" in found[0].message and "4D" in found[0].message


def test_species_limits_follow_the_gm_setting() -> None:
    sheet = character("4D+1 3D 3D 3D 2D+2 2D")
    assert "species_maximum" in warnings(sheet, {**SETTINGS, "species_limits": "warning"})
    assert "species_maximum" not in weg.check(sheet, {**SETTINGS, "species_limits": "off"}).codes()


def test_a_custom_species_from_the_gm_sets_its_own_limits() -> None:
    sheet = character("1D 2D 3D 3D 5D+2 3D+1")
    assert "species_maximum" in errors(sheet)
    sheet = weg.apply_edit(sheet, "info.species", "custom", SETTINGS)
    sheet = weg.apply_edit(sheet, "species.name", "Wookiee-ish", SETTINGS)
    sheet = weg.apply_edit(sheet, "species.min.dexterity", "1D", SETTINGS)
    sheet = weg.apply_edit(sheet, "species.max.strength", "6D", SETTINGS)
    assert not {"species_maximum", "species_minimum"} & weg.check(sheet, SETTINGS).codes()
    with pytest.raises(InvalidEdit, match="Strength minimum is at most 6D"):
        weg.apply_edit(sheet, "species.min.strength", "7D", SETTINGS)


def test_seven_skill_dice_are_the_creation_budget_and_overspending_is_refused() -> None:
    sheet = weg.demo_sheet()
    assert weg.check(sheet, SETTINGS).pool("skill_dice").exact
    sheet = weg.apply_edit(sheet, "skill.bargain", "3D+1", SETTINGS)  # +1 pip over PER 3D
    assert "skill_dice_over" in errors(sheet)


def test_the_skill_dice_budget_is_a_setting() -> None:
    report = weg.check(weg.demo_sheet(), {**SETTINGS, "skill_dice": 8})
    assert report.pool("skill_dice").left == 3
    assert "skill_dice_left" in report.codes()


def test_it_refuses_more_than_2d_of_skill_dice_in_one_skill_at_creation() -> None:
    sheet = weg.apply_edit(weg.demo_sheet(), "skill.blaster", "5D+2", SETTINGS)
    assert "creation_skill_cap" in errors(sheet)


def test_one_die_of_skill_dice_buys_three_dice_of_specializations() -> None:
    sheet = weg.demo_sheet()
    spent_before = weg.check(sheet, SETTINGS).pool("skill_dice").spent
    # 3 more specialization pips cost exactly 1 more pip of skill dice.
    sheet = weg.apply_edit(sheet, "spec.space_transports_yt_1300", "7D+2", SETTINGS)
    assert weg.check(sheet, SETTINGS).pool("skill_dice").spent == spent_before + 1


def test_a_specialization_starts_at_its_skill_and_is_refused_in_1e() -> None:  # 002:37
    sheet = weg.apply_edit(weg.demo_sheet(), "spec.add", "Heavy blaster pistol|blaster", SETTINGS)
    assert sheet["specializations"]["blaster_heavy_blaster_pistol"]["pips"] == 16
    first = weg.apply_edit(weg.demo_sheet(), "info.edition", "1e", SETTINGS)
    with pytest.raises(InvalidEdit, match="no specializations"):
        weg.apply_edit(first, "spec.add", "Heavy blaster pistol|blaster", SETTINGS)


def test_a_player_adds_a_custom_skill_under_an_attribute() -> None:
    sheet = weg.apply_edit(weg.demo_sheet(), "skill.add", "Sabacc|PER", SETTINGS)
    assert sheet["custom_skills"]["sabacc"]["attribute"] == "perception"
    sheet = weg.apply_edit(sheet, "skill.sabacc", "3D", SETTINGS)
    assert weg.derived(sheet, SETTINGS)["codes"]["skill.sabacc"] == "3D"


def test_it_refuses_a_custom_skill_under_an_unknown_attribute() -> None:
    with pytest.raises(InvalidEdit, match="not an attribute"):
        weg.apply_edit(weg.demo_sheet(), "skill.add", "Sabacc|Charisma", SETTINGS)


def test_an_advanced_skill_needs_its_prerequisite_at_five_dice() -> None:  # 002:47, OUTSIDE
    sheet = weg.apply_edit(weg.demo_sheet(), "skill.advanced_medicine", "1D", SETTINGS)
    found = weg.check(sheet, SETTINGS).for_trait("skill.advanced_medicine")
    assert "advanced_prerequisite" in {v.code for v in found}
    sheet = weg.apply_edit(sheet, "skill.first_aid", "5D", SETTINGS)
    found = weg.check(sheet, SETTINGS).for_trait("skill.advanced_medicine")
    assert "advanced_prerequisite" not in {v.code for v in found}


def test_a_custom_advanced_skill_names_its_prerequisite() -> None:
    sheet = weg.apply_edit(
        weg.demo_sheet(), "skill.add", "Starship design|TEC|advanced:starship_repair", SETTINGS
    )
    assert sheet["custom_skills"]["starship_design"]["prerequisite"] == "starship_repair"
    sheet["skills"]["starship_design"] = 3
    assert "advanced_prerequisite" in errors(sheet)


def test_it_refuses_a_skill_below_its_attribute_at_creation() -> None:
    sheet = weg.apply_edit(weg.demo_sheet(), "skill.bargain", "2D", SETTINGS)
    assert "skill_below_attribute" in errors(sheet)


def test_the_demo_smuggler_is_legal_with_nothing_left_to_spend() -> None:
    report = weg.check(weg.demo_sheet(), SETTINGS)
    assert report.errors == []
    assert report.warnings == []
    assert all(pool.exact for pool in report.pools)


def test_the_blank_sheet_shows_the_dice_still_to_place() -> None:
    report = weg.check(weg.blank_sheet(SETTINGS), SETTINGS)
    assert report.pool("attributes").left == 18  # 12D at the human minimum of 2D each
    assert report.pool("skill_dice").left == 21
    assert report.ok
