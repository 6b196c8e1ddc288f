"""1o3d10: an entry picked from the compendium works on the sheet as a typed one does."""

from __future__ import annotations

import copy

import pytest

from rulesets import o3d10
from rulesets.core import resolve_settings
from rulesets.core.compendium import InvalidEntry, blank_form, entry_from_form, find_kind

SETTINGS = resolve_settings(o3d10.SETTINGS, {})


def entry(kind: str, /, **form: str) -> dict:
    chosen = find_kind(o3d10.COMPENDIUM_KINDS, kind)
    return entry_from_form(chosen, blank_form(chosen) | form)


def pick(sheet: dict, kind: str, data: dict, ref: str = "campaign:1:1", version: int = 1):
    return o3d10.pick_entry(sheet, kind, ref, version, data, SETTINGS)


def blank() -> dict:
    return o3d10.blank_sheet(SETTINGS)


@pytest.mark.parametrize(
    ("kind", "damage"),
    [("melee", "1d8"), ("ranged", "2d6+1")],
)
def test_a_picked_weapon_rolls_its_damage_with_its_attack(kind, damage):
    sheet = pick(blank(), "weapon", entry("weapon", name="Vibroblade", kind=kind, damage=damage))
    (row,) = sheet["weapons"]
    assert row["compendium"] == {"kind": "weapon", "ref": "campaign:1:1", "version": 1}
    attack = next(r for r in o3d10.rollables(sheet, SETTINGS) if r.key == "weapon.0")
    assert attack.fact("damage") == damage
    assert attack.fact("kind") == kind


def test_picked_armor_is_worn_and_its_absorption_counts():
    sheet = pick(blank(), "armor", entry("armor", name="Flight suit", absorption="2"), ref="a")
    assert o3d10.derived(sheet, SETTINGS)["absorption"] == 2
    assert o3d10.entry_refs(sheet) == [("armor", "a", 1)]


def test_a_force_technique_adds_a_line_to_the_notes_with_its_ref():
    technique = entry("force_technique", name="Push", school="physical_school", dc="12")
    sheet = pick(blank(), "force_technique", technique, ref="t", version=2)
    assert sheet["info"]["notes"] == "Push (Physical School, DC 12)"
    assert o3d10.entry_refs(sheet) == [("force_technique", "t", 2)]
    assert o3d10.validate_sheet(copy.deepcopy(sheet)) == sheet


def test_an_npc_template_sets_stats_and_ranks():
    npc = entry("npc_template", name="Guard", **{"stats.strength": "4"}, skills="Melee Weapons 2")
    sheet = pick(blank(), "npc_template", npc)
    assert sheet["stats"]["strength"] == 4
    assert sheet["skills"]["melee_weapons"] == 2


def test_an_npc_template_with_an_unknown_skill_is_refused_naming_the_line():
    npc = entry("npc_template", name="Guard", skills="Melee Weapons 2\nPiloting 3")
    sheet = blank()
    before = copy.deepcopy(sheet)
    with pytest.raises(InvalidEntry) as refused:
        pick(sheet, "npc_template", npc)
    assert "line 2" in refused.value.errors["pick"]
    assert sheet == before


def test_a_new_version_of_a_weapon_changes_the_damage_its_attack_rolls():
    sheet = pick(blank(), "weapon", entry("weapon", name="Rifle", kind="ranged", damage="1d8"))
    better = entry("weapon", name="Rifle", kind="ranged", damage="1d10")
    refreshed = o3d10.refresh_entry(sheet, "weapon", "campaign:1:1", 2, better, SETTINGS)
    attack = next(r for r in o3d10.rollables(refreshed, SETTINGS) if r.key == "weapon.0")
    assert attack.fact("damage") == "1d10"
