"""The 1o3d10 side of the one contract: schema and migration, rows, stage and row numbers."""

from __future__ import annotations

import copy

import pytest

from rulesets.core import InvalidEdit, InvalidSheet, Setter, resolve_settings
from rulesets.core.schema import upgrade_sheet
from rulesets.o3d10 import (
    MIGRATIONS,
    SCHEMA_VERSION,
    SETTINGS,
    apply_edit,
    blank_sheet,
    check,
    demo_sheet,
    status,
    trait_label,
    trait_rows,
    validate_sheet,
)

DEFAULTS = resolve_settings(SETTINGS, {})


def _today_shape() -> dict:
    """A sheet exactly as stored before schema versions: "system" inside, no version."""
    return {
        "system": "o3d10",
        "stage": "play",
        "info": {"player": "Ana", "species": "Human", "notes": "Pilot."},
        "stats": {"strength": 6, "dexterity": 7, "intelligence": 5, "perception": 6},
        "skills": {
            "melee_weapons": 3,
            "ranged_weapons": 4,
            "dodge": 5,
            "reflexes": 3,
            "medicine": 2,
            "force_jump": 0,
            "physical_school": 0,
            "alteration_school": 0,
            "organic_school": 0,
        },
        "custom_skills": [{"slug": "pilot", "name": "Pilot", "stat": "dexterity", "rank": 3}],
        "base": {
            "stats": {"strength": 6, "dexterity": 7, "intelligence": 5, "perception": 6},
            "skills": {
                "melee_weapons": 3,
                "ranged_weapons": 4,
                "dodge": 4,
                "reflexes": 3,
                "medicine": 2,
                "force_jump": 0,
                "physical_school": 0,
                "alteration_school": 0,
                "organic_school": 0,
                "pilot": 3,
            },
        },
        "force_sensitive": False,
        "hp": 20,
        "stabilised": False,
        "defense_bonus": 1,
        "luck": {"day": 4, "last_used_day": 3, "uses_that_day": 1},
        "xp_earned": 5,
        "weapons": [{"name": "Blaster", "kind": "ranged", "damage": "1D8", "notes": ""}],
        "armor": [{"name": "Vest", "absorption": 1, "worn": True}],
    }


# --- Schema and migration ----------------------------------------------------------------
def test_a_sheet_stored_today_upgrades_to_version_one_and_validates():
    upgraded = validate_sheet(_today_shape())
    assert upgraded["schema_version"] == SCHEMA_VERSION == 1
    assert "system" not in upgraded
    assert upgraded["stage"] == "play"
    assert upgraded["base"]["skills"]["pilot"] == 3
    assert upgraded["weapons"][0]["damage"] == "1d8"  # stored in its normal spelling
    assert check(upgraded, DEFAULTS).ok
    assert validate_sheet(copy.deepcopy(upgraded)) == upgraded


def test_an_old_export_without_optional_sections_takes_the_blank_values():
    old = _today_shape()
    gone = ("weapons", "armor", "luck", "custom_skills", "stabilised", "defense_bonus")
    for key in gone:
        del old[key]
    del old["info"]["notes"]
    del old["base"]["skills"]["pilot"]
    upgraded = upgrade_sheet(old, current=SCHEMA_VERSION, migrations=MIGRATIONS)
    blank = blank_sheet(DEFAULTS)
    assert {key: upgraded[key] for key in gone} == {key: blank[key] for key in gone}
    assert upgraded["info"]["notes"] == ""
    assert validate_sheet(upgraded) == upgraded


def test_an_old_sheet_of_another_system_is_refused():
    old = _today_shape() | {"system": "swd10"}
    with pytest.raises(InvalidSheet, match="system: this sheet belongs to “swd10”"):
        validate_sheet(old)


def test_a_version_one_sheet_may_not_carry_the_system_key():
    sheet = demo_sheet() | {"system": "o3d10"}
    with pytest.raises(InvalidSheet, match="system: is not part of this sheet"):
        validate_sheet(sheet)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("stats", "dexterity"), "7", "stats.dexterity: expected a whole number from 0 to 20"),
        (("stats", "dexterity"), True, "stats.dexterity: expected a whole number"),
        (("skills", "dodge"), 4.0, "skills.dodge: expected a whole number from 0 to 20"),
        (("skills", "dodge"), None, "skills.dodge: expected a whole number"),
        (("info", "player"), 7, "info.player: expected text"),
        (("info", "species"), "x" * 201, "info.species: expected at most 200 characters"),
        (("hp",), -1000, "hp: expected a whole number from -999 to 999"),
        (("xp_earned",), "12", "xp_earned: expected a whole number from 0 to 100000"),
        (("force_sensitive",), 1, "force_sensitive: expected true or false"),
        (("stage",), "finished", "stage: expected one of creation, play"),
        (("luck", "day"), 0, "luck.day: expected a whole number from 1"),
        (("weapons", 0, "kind"), "thrown", "weapons.0.kind: expected one of melee, ranged"),
        (("weapons", 0, "damage"), 8, "weapons.0.damage: expected a damage code"),
        (("armor", 0, "worn"), "yes", "armor.0.worn: expected true or false"),
        (("armor", 0, "absorption"), 21, "armor.0.absorption: expected a whole number"),
        (("custom_skills", 0, "stat"), "luck", "custom_skills.0.stat: expected one of"),
        (("base", "stats", "strength"), "6", "base.stats.strength: expected a whole number"),
        (("base", "skills", "dodge"), -1, "base.skills.dodge: expected a whole number"),
        (("weapons",), {}, "weapons: Input should be a valid list"),
    ],
)
def test_validate_sheet_refuses_wrong_values_naming_the_field(path, value, message):
    sheet = demo_sheet()
    target = sheet
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    with pytest.raises(InvalidSheet, match=message):
        validate_sheet(sheet)


def test_lists_are_capped_where_edits_stop():
    sheet = demo_sheet()
    sheet["armor"] = [{"name": "Vest", "absorption": 1, "worn": True}] * 31
    with pytest.raises(InvalidSheet, match="armor: List should have at most 30 items"):
        validate_sheet(sheet)


def test_the_blank_sheet_follows_the_settings():
    chosen = resolve_settings(SETTINGS, {"stat_min": 2, "hp_base": 20})
    sheet = blank_sheet(chosen)
    assert set(sheet["stats"].values()) == {2}
    assert sheet["hp"] == 24
    assert sheet["stage"] == "creation" and sheet["schema_version"] == 1


# --- Stage --------------------------------------------------------------------------------
def _legal_creation() -> dict:
    sheet = blank_sheet(DEFAULTS)
    for trait, raw in [
        *(
            (f"stat.{slug}", "6")
            for slug in ("strength", "dexterity", "intelligence", "perception")
        ),
        *((f"skill.{slug}", "4") for slug in ("melee_weapons", "ranged_weapons", "dodge")),
        ("skill.reflexes", "4"),
        ("skill.medicine", "4"),
    ]:
        sheet = apply_edit(sheet, trait, raw, DEFAULTS)
    return sheet


def test_the_stage_trait_ends_creation_and_freezes_the_base():
    sheet = apply_edit(_legal_creation(), "stage", "play", DEFAULTS)
    assert sheet["stage"] == "play"
    assert sheet["base"]["stats"]["strength"] == 6 and sheet["base"]["skills"]["dodge"] == 4
    with pytest.raises(InvalidEdit, match="below its creation value 4"):
        apply_edit(sheet, "skill.dodge", "3", DEFAULTS)


def test_going_back_to_creation_clears_the_base():
    sheet = apply_edit(_legal_creation(), "stage", "play", DEFAULTS)
    reopened = apply_edit(sheet, "stage", "creation", DEFAULTS)
    assert reopened["stage"] == "creation" and reopened["base"] is None
    assert validate_sheet(reopened) == reopened


def test_asking_for_the_stage_the_sheet_is_in_changes_nothing():
    sheet = apply_edit(_legal_creation(), "stage", "play", DEFAULTS)
    sheet["stats"]["strength"] = 7
    assert apply_edit(sheet, "stage", "play", DEFAULTS) == sheet  # base not refrozen


def test_creation_cannot_end_while_a_rule_is_broken_and_the_row_says_why():
    sheet = apply_edit(_legal_creation(), "stat.strength", "8", DEFAULTS)  # 26 of 24 points
    with pytest.raises(InvalidEdit, match="Creation cannot end while the sheet breaks a rule"):
        apply_edit(sheet, "stage", "play", DEFAULTS)
    row = _row(sheet, "stage")
    assert row.locked == "Creation can end once the sheet breaks no rule."
    assert _row(_legal_creation(), "stage").locked == ""


def test_the_old_finish_key_is_gone():
    with pytest.raises(InvalidEdit, match="not a trait"):
        apply_edit(_legal_creation(), "sheet.finish_creation", "1", DEFAULTS)


def test_an_unknown_stage_is_refused():
    with pytest.raises(InvalidEdit, match="choose one of Creation, In play"):
        apply_edit(_legal_creation(), "stage", "finished", DEFAULTS)


# --- Rows --------------------------------------------------------------------------------
def _row(sheet: dict, key: str):
    return next(row for row in trait_rows(sheet, DEFAULTS) if row.key == key)


def test_only_force_sensitivity_xp_and_the_day_are_set_by_the_gm():
    gm = {row.key for row in trait_rows(demo_sheet(), DEFAULTS) if row.setter is Setter.GM}
    assert gm == {"force.sensitive", "xp.earned", "luck.day"}
    assert "004:L149" in _row(demo_sheet(), "force.sensitive").source


def test_the_rows_follow_the_stage_limits():
    creating = _row(blank_sheet(DEFAULTS), "stat.strength")
    assert (creating.minimum, creating.maximum) == (1, 8)
    assert creating.next_cost.explanation == "Strength 1 → 2: 1 stat point per rank = 1 stat point"
    playing = _row(demo_sheet(), "skill.dodge")
    assert (playing.minimum, playing.maximum) == (4, 10)  # bought 4 at creation
    assert playing.next_cost.amount == 6 and playing.next_cost.unit == "XP"


def test_a_gm_setting_moves_the_row_range():
    chosen = resolve_settings(SETTINGS, {"stat_creation_max": 12, "stat_max": 12})
    row = next(r for r in trait_rows(blank_sheet(chosen), chosen) if r.key == "stat.strength")
    assert row.maximum == 12


def test_force_skills_are_locked_until_the_gm_marks_the_character():
    sheet = blank_sheet(DEFAULTS)
    row = _row(sheet, "skill.force_jump")
    assert row.locked == "Only a character the GM marks Force-sensitive may learn Force skills."
    assert row.next_cost is None and row.group == "Force skills"
    marked = apply_edit(sheet, "force.sensitive", "yes", DEFAULTS)
    assert _row(marked, "skill.force_jump").locked == ""


def test_stabilised_is_locked_unless_unconscious():
    sheet = blank_sheet(DEFAULTS)
    assert "unconscious" in _row(sheet, "hp.stabilised").locked
    knocked_out = apply_edit(sheet, "hp.damage", "13", DEFAULTS)  # HP 12 → -1
    assert _row(knocked_out, "hp.stabilised").locked == ""


def test_hp_and_day_rows_carry_the_ranges_apply_edit_keeps():
    sheet = demo_sheet()  # Strength 6: maximum HP 22; Luck last used on day 2
    assert (_row(sheet, "hp.current").minimum, _row(sheet, "hp.current").maximum) == (-999, 22)
    assert _row(sheet, "luck.day").minimum == 2


def test_list_rows_use_their_item_keys_and_count_from_one():
    sheet = demo_sheet()
    keys = [row.key for row in trait_rows(sheet, DEFAULTS) if row.section == "gear"]
    assert keys[:4] == ["weapon.0.name", "weapon.0.kind", "weapon.0.damage", "weapon.0.notes"]
    assert _row(sheet, "weapon.1.damage").label == "Weapon 2 damage"
    assert _row(sheet, "armor.0.absorption").maximum == 20
    assert _row(sheet, "skill.pilot.stat").choices[0] == ("", "No stat")


@pytest.mark.parametrize(
    ("trait", "label"),
    [
        ("stat.perception", "Perception"),
        ("skill.organic_school", "Organic School"),
        ("skill.pilot_ships", "Pilot ships"),
        ("skill.pilot_ships.stat", "Pilot ships: stat"),
        ("hp.bleed", "Bleeding d10"),
        ("luck.new_day", "New in-game day"),
        ("stage", "Stage"),
        ("weapon.0.kind", "Weapon 1 kind"),
        ("armor.2.worn", "Armor 3 worn"),
        ("weapon.x.kind", "weapon.x.kind"),
        ("no.such.trait", "no.such.trait"),
    ],
)
def test_every_trait_key_has_a_plain_label(trait, label):
    assert trait_label(trait) == label


def test_status_counts_unspent_xp():
    summary = status(demo_sheet(), DEFAULTS)
    assert (summary.stage, summary.legal, summary.unspent, summary.unit) == ("play", True, 3, "XP")
    blank = status(blank_sheet(DEFAULTS), DEFAULTS)
    assert (blank.stage, blank.warnings, blank.unspent) == ("creation", 2, 0)


# --- Row numbers in messages --------------------------------------------------------------
@pytest.mark.parametrize(
    ("trait", "raw", "message"),
    [
        ("weapon.2.name", "Spear", "There is no weapon number 3 on this sheet."),
        ("weapon.remove", "2", "There is no weapon number 3 on this sheet."),
        ("armor.1.worn", "yes", "There is no armor number 2 on this sheet."),
        ("armor.remove", "1", "There is no armor number 2 on this sheet."),
    ],
)
def test_messages_count_rows_from_one(trait, raw, message):
    with pytest.raises(InvalidEdit) as refused:
        apply_edit(demo_sheet(), trait, raw, DEFAULTS)
    assert refused.value.message == message and refused.value.trait == trait


def test_flags_are_strict():
    with pytest.raises(InvalidEdit, match="“perhaps” is not yes or no"):
        apply_edit(demo_sheet(), "armor.0.worn", "perhaps", DEFAULTS)
