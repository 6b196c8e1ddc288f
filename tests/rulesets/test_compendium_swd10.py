"""SWd10: an entry picked from the compendium works on the sheet as the seed's do."""

from __future__ import annotations

import copy

import pytest

from rulesets import swd10
from rulesets.core import resolve_settings
from rulesets.core.compendium import InvalidEntry, blank_form, entry_from_form, find_kind

SETTINGS = resolve_settings(swd10.SETTINGS, {})


def entry(kind: str, /, **form: str) -> dict:
    chosen = find_kind(swd10.COMPENDIUM_KINDS, kind)
    return entry_from_form(chosen, blank_form(chosen) | form)


def pick(sheet: dict, kind: str, data: dict, ref: str = "campaign:1:1", version: int = 1):
    return swd10.pick_entry(sheet, kind, ref, version, data, SETTINGS)


def blank() -> dict:
    return swd10.blank_sheet(SETTINGS)


def builtin(kind: str, name: str) -> dict:
    return next(
        b.data for b in swd10.builtin_entries() if b.kind == kind and b.data["name"] == name
    )


def test_a_picked_weapon_adds_a_row_whose_damage_rolls():
    blaster = entry("weapon", name="Heavy blaster", difficulty="7", rate="2", damage="5", clip="8")
    sheet = pick(blank(), "weapon", blaster, ref="w")
    (row,) = sheet["weapons"]
    assert (row["difficulty"], row["rate"], row["damage"]) == (7, "2", 5)
    assert row["compendium"] == {"kind": "weapon", "ref": "w", "version": 1}
    damage = next(r for r in swd10.rollables(sheet, SETTINGS) if r.key == "dmg.0")
    assert damage.dice == 5


@pytest.mark.parametrize(
    ("kind", "rating", "soak_key"),
    [("armor", "3", "armor_soak"), ("shield", "4", "shield_soak")],
)
def test_a_picked_armor_or_shield_soaks_once_worn(kind, rating, soak_key):
    sheet = pick(blank(), "armor", entry("armor", name="Plate", kind=kind, rating=rating))
    assert swd10.derived(sheet, SETTINGS)[soak_key] == 0
    worn = swd10.apply_edit(sheet, "armor.0.worn", "yes", SETTINGS)
    assert swd10.derived(worn, SETTINGS)[soak_key] == int(rating)


def test_an_armor_rating_past_the_class_table_is_refused_on_the_rating():
    with pytest.raises(InvalidEntry) as refused:
        entry("armor", name="Plate", kind="armor", rating="8")
    assert list(refused.value.errors) == ["rating"]


def test_a_seed_merit_is_taken_as_the_merit_edit_takes_it():
    sheet = pick(blank(), "merit", builtin("merit", "Ambidextrous"))
    assert [row["slug"] for row in sheet["merits"]] == ["ambidextrous"]


def test_a_merit_of_the_tables_own_is_refused_and_the_sheet_unchanged():
    sheet = blank()
    before = copy.deepcopy(sheet)
    with pytest.raises(InvalidEntry) as refused:
        pick(sheet, "merit", entry("merit", name="Lucky Streak"))
    assert list(refused.value.errors) == ["pick"]
    assert sheet == before


def test_a_species_names_the_sheets_species_and_takes_the_merits_it_brings():
    species = entry("species", name="Trandoshan", merits="Ambidextrous")
    sheet = pick(blank(), "species", species, ref="s", version=5)
    assert sheet["info"]["species"] == "Trandoshan"
    assert [row["slug"] for row in sheet["merits"]] == ["ambidextrous"]
    assert swd10.entry_refs(sheet) == [("species", "s", 5)]


def test_a_species_bringing_an_unknown_merit_is_refused_naming_the_line():
    with pytest.raises(InvalidEntry) as refused:
        pick(blank(), "species", entry("species", name="X", merits="Ambidextrous\nTail Whip 2"))
    assert "line 2" in refused.value.errors["pick"]


def test_an_npc_template_sets_attributes_and_abilities():
    npc = entry("npc_template", name="Guard", traits="Dexterity 3\nFirearms 2")
    sheet = pick(blank(), "npc_template", npc)
    assert sheet["attributes"]["dexterity"] == 3
    assert sheet["abilities"]["firearms"] == 2


def test_a_new_version_of_an_armor_changes_its_row_and_keeps_what_it_lost_within_it():
    sheet = pick(blank(), "armor", entry("armor", name="Plate", rating="5"), ref="a")
    sheet = swd10.apply_edit(sheet, "armor.0.lost", "4", SETTINGS)
    lighter = entry("armor", name="Plate", rating="2")
    refreshed = swd10.refresh_entry(sheet, "armor", "a", 2, lighter, SETTINGS)
    assert (refreshed["armor"][0]["rating"], refreshed["armor"][0]["lost"]) == (2, 2)
    assert swd10.entry_refs(refreshed) == [("armor", "a", 2)]
