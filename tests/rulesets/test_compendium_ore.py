"""Star O.R.E.: an entry picked from the compendium works on the sheet as the seed's do."""

from __future__ import annotations

import copy

import pytest

from rulesets import ore
from rulesets.core import InvalidEdit, resolve_settings
from rulesets.core.compendium import InvalidEntry, blank_form, entry_from_form, find_kind
from rulesets.ore.rules import armor_by_location, cost_items, stat_maximum

SETTINGS = resolve_settings(ore.SETTINGS, {})


def entry(kind: str, /, **form: str) -> dict:
    chosen = find_kind(ore.COMPENDIUM_KINDS, kind)
    return entry_from_form(chosen, blank_form(chosen) | form)


def pick(sheet: dict, kind: str, data: dict, ref: str = "campaign:1:1", version: int = 1):
    return ore.pick_entry(sheet, kind, ref, version, data, SETTINGS)


def blank() -> dict:
    return ore.blank_sheet(SETTINGS)


def builtin(kind: str, name: str) -> dict:
    return next(b.data for b in ore.builtin_entries() if b.kind == kind and b.data["name"] == name)


TOGRUTA = {
    "name": "Togruta",
    "cost": "5",
    "stat_max_bonus.sense": "1",
    "natural_ar": "1",
    "extra_wound_boxes": "1",
}


def test_a_picked_species_moves_the_stat_maximum_costs_its_points_and_adds_boxes():
    sheet = pick(blank(), "species", entry("species", **TOGRUTA), ref="c:2:5", version=3)
    assert sheet["species"] == "custom"
    assert stat_maximum(sheet, "sense", SETTINGS) == stat_maximum(blank(), "sense", SETTINGS) + 1
    species_cost = next(item for item in cost_items(sheet, SETTINGS) if item.trait == "species")
    assert species_cost.amount == 5
    assert armor_by_location(sheet)["torso"] == 1
    assert len(sheet["wounds"]["torso"]) == len(blank()["wounds"]["torso"]) + 1
    assert ore.entry_refs(sheet) == [("species", "c:2:5", 3)]
    assert ore.validate_sheet(copy.deepcopy(sheet)) == sheet


def test_a_stat_over_the_picked_species_maximum_is_refused_with_the_species_named():
    sheet = pick(blank(), "species", entry("species", **TOGRUTA))
    ore.apply_edit(sheet, "stat.sense", "6d", SETTINGS)
    with pytest.raises(InvalidEdit, match=r"6d .*Togruta"):
        ore.apply_edit(sheet, "stat.sense", "7d", SETTINGS)


def test_the_seeds_own_species_is_simply_chosen():
    sheet = pick(blank(), "species", builtin("species", "Wookiee"))
    assert sheet["species"] == "wookiee"
    assert "custom_species" not in sheet
    assert ore.entry_refs(sheet) == []


def test_a_picked_droid_species_has_no_force_sense():
    sheet = pick(blank(), "species", entry("species", name="Probe droid", droid="on"))
    assert sheet["powers"]["force_sense"]["dice"] == 0


@pytest.mark.parametrize(
    ("form", "special"),
    [
        ({"damage": "width+2", "penetration": "2"}, ""),
        ({"damage": "width+1", "spray": "3", "special": "Daze"}, "Daze, Spray 3"),
        ({"damage": "width", "area": "4"}, "Area 4"),
    ],
)
def test_a_picked_weapon_adds_a_row_as_a_typed_one(form, special):
    sheet = pick(blank(), "weapon", entry("weapon", name="Bowcaster", **form), ref="w")
    (row,) = sheet["weapons"]
    assert row["damage"] == form["damage"]
    assert row["special"] == special
    assert row["compendium"] == {"kind": "weapon", "ref": "w", "version": 1}
    assert any("Bowcaster" in rollable.label for rollable in ore.rollables(sheet, SETTINGS))


def test_a_picked_armor_feeds_the_ar_of_the_locations_it_covers():
    form = {f"covers.{slug}": "" for slug in ("head", "left_arm", "right_arm")}
    sheet = pick(blank(), "armor", entry("armor", name="Plates", ar="3", **form))
    ratings = armor_by_location(sheet)
    assert ratings["torso"] == 3
    assert ratings["head"] == 0


def test_a_seed_stunt_is_bought_and_a_table_stunt_is_refused():
    sheet = pick(blank(), "stunt", builtin("stunt", "Empathy"))
    assert sheet["stunts"]["empathy"]["dice"] == 1
    with pytest.raises(InvalidEntry) as refused:
        pick(blank(), "stunt", entry("stunt", name="Force Whirlwind"))
    assert list(refused.value.errors) == ["pick"]


def test_an_npc_template_sets_stats_and_skills():
    npc = entry(
        "npc_template", name="Thug", **{"stats.body": "3"}, skills="Athletics 2\nBrawling 1"
    )
    sheet = pick(blank(), "npc_template", npc)
    assert sheet["stats"]["body"] == 3
    dice = {row["name"]: row["dice"] for row in sheet["skills"]}
    assert dice["Athletics"] == 2


def test_a_full_sheet_refuses_the_pick_and_stays_as_it_was():
    sheet = blank()
    for _ in range(2):
        sheet = pick(sheet, "armor", entry("armor", name="Vest"))
    before = copy.deepcopy(sheet)
    with pytest.raises(InvalidEntry, match="room"):
        pick(sheet, "armor", entry("armor", name="Vest"))
    assert sheet == before


def test_a_new_version_of_a_species_refits_the_wound_boxes_and_the_stat_maximum():
    sheet = pick(blank(), "species", entry("species", **TOGRUTA))
    plain = entry("species", **TOGRUTA | {"extra_wound_boxes": "0", "stat_max_bonus.sense": "0"})
    refreshed = ore.refresh_entry(sheet, "species", "campaign:1:1", 2, plain, SETTINGS)
    assert len(refreshed["wounds"]["torso"]) == len(blank()["wounds"]["torso"])
    assert stat_maximum(refreshed, "sense", SETTINGS) == stat_maximum(blank(), "sense", SETTINGS)
    assert ore.entry_refs(refreshed) == [("species", "campaign:1:1", 2)]
