"""WEG d6: an entry picked from the compendium works on the sheet as the seeds' own do."""

from __future__ import annotations

import copy

import pytest

from rulesets import weg_d6
from rulesets.core import resolve_settings
from rulesets.core.compendium import (
    InvalidEntry,
    blank_form,
    entry_from_form,
    find_kind,
)

SETTINGS = resolve_settings(weg_d6.SETTINGS, {})


def entry(kind: str, /, **form: str) -> dict:
    chosen = find_kind(weg_d6.COMPENDIUM_KINDS, kind)
    return entry_from_form(chosen, blank_form(chosen) | form)


def pick(sheet: dict, kind: str, data: dict, ref: str = "campaign:1:1", version: int = 1):
    return weg_d6.pick_entry(sheet, kind, ref, version, data, SETTINGS)


def blank() -> dict:
    return weg_d6.blank_sheet(SETTINGS)


def faults(sheet: dict) -> dict[str | None, list[str]]:
    report = weg_d6.check(sheet, SETTINGS)
    found: dict[str | None, list[str]] = {}
    for violation in (*report.errors, *report.warnings):
        found.setdefault(violation.trait, []).append(violation.code)
    return found


TWILEK = {"name": "Twi'lek", "maximum.dexterity": "4D+1", "minimum.knowledge": "2D+1"}


@pytest.mark.parametrize(
    ("trait", "code", "expected"),
    [
        ("attr.dexterity", "4D+2", "species_maximum"),
        ("attr.dexterity", "4D+1", None),
        ("attr.knowledge", "2D", "species_minimum"),
        ("attr.knowledge", "2D+1", None),
    ],
)
def test_a_picked_species_bounds_the_attributes_at_creation(trait, code, expected):
    sheet = pick(blank(), "species", entry("species", **TWILEK))
    sheet = weg_d6.apply_edit(sheet, trait, code, SETTINGS)
    codes = faults(sheet).get(trait, [])
    if expected is None:
        assert not {"species_maximum", "species_minimum"} & set(codes)
    else:
        assert expected in codes


def test_a_picked_species_is_the_sheets_own_copy_marked_with_its_entry():
    sheet = pick(blank(), "species", entry("species", **TWILEK), ref="campaign:3:9", version=4)
    assert sheet["species"] == "custom"
    assert sheet["custom_species"]["name"] == "Twi'lek"
    assert sheet["custom_species"]["maximum"]["dexterity"] == 13
    assert sheet["custom_species"]["compendium"] == {
        "kind": "species",
        "ref": "campaign:3:9",
        "version": 4,
    }
    assert weg_d6.entry_refs(sheet) == [("species", "campaign:3:9", 4)]
    # The entry gone, the sheet still reads and checks from its own copy.
    assert weg_d6.validate_sheet(copy.deepcopy(sheet)) == sheet
    weg_d6.check(sheet, SETTINGS)


@pytest.mark.parametrize(
    ("form", "damage", "range_"),
    [
        ({"damage": "4D"}, "4D", ""),
        ({"damage": "5D+2", "range.short": "3", "range.medium": "25"}, "5D+2", "3/25"),
        ({"damage": "1D", "adds_strength": "on"}, "STR+1D", ""),
    ],
)
def test_a_picked_weapon_adds_a_row_with_its_damage_code(form, damage, range_):
    sheet = pick(blank(), "weapon", entry("weapon", name="Blaster", **form), ref="r", version=2)
    (row,) = sheet["weapons"]
    assert (row["name"], row["damage"], row["range"]) == ("Blaster", damage, range_)
    assert row["compendium"] == {"kind": "weapon", "ref": "r", "version": 2}
    # The row reads as a typed one: the sheet's own damage edit accepts what it holds.
    weg_d6.apply_edit(sheet, "weapon.0.damage", row["damage"], SETTINGS)


SMUGGLER = {
    "name": "Smuggler",
    "attributes.dexterity": "3D+1",
    "attributes.knowledge": "2D",
    "attributes.mechanical": "3D+2",
    "attributes.perception": "3D",
    "attributes.strength": "3D",
    "attributes.technical": "3D",
    "skills": "blaster 1D+1\nStarship piloting 2D\ndodge 1D",
    "equipment": "heavy blaster pistol\ncomlink",
    "credits": "1000",
    "background": "Owes a crime lord",
}


def test_a_template_fills_a_blank_sheet_and_counts_against_the_creation_budget():
    sheet = pick(blank(), "template", entry("template", **SMUGGLER))
    assert sheet["attributes"]["dexterity"] == 10
    # Skills are the attribute plus the template's dice: Dexterity 3D+1 + 1D+1 = 4D+2.
    assert sheet["skills"] == {"blaster": 14, "starship_piloting": 17, "dodge": 13}
    assert sheet["gear"] == {
        "credits": 1000,
        "equipment": "heavy blaster pistol\ncomlink",
    }
    assert sheet["info"]["template"] == "Smuggler"
    assert sheet["info"]["description"] == "Owes a crime lord"
    pools = {pool.key: (pool.allowed, pool.spent) for pool in weg_d6.check(sheet, SETTINGS).pools}
    assert pools["attributes"] == (54, 54)  # 18D (003:913)
    assert pools["skill_dice"][1] == 13  # 4D+1 of the 7D
    assert weg_d6.check(sheet, SETTINGS).ok


def test_a_template_over_18d_is_over_the_budget():
    sheet = pick(blank(), "template", entry("template", **SMUGGLER | {"attributes.strength": "4D"}))
    assert "attributes_over" in faults(sheet)[None]


@pytest.mark.parametrize(
    ("kind", "form", "said"),
    [
        ("template", SMUGGLER | {"skills": "sabacc 1D"}, "not a skill"),
        ("skill", {"name": "Blaster"}, "already"),
        ("skill", {"name": "YT-1300", "specialization_of": "no such skill"}, "not a skill"),
        ("force_power", {"name": "Shatter"}, "needs Control"),
    ],
)
def test_a_pick_the_sheet_cannot_take_is_refused_with_the_sheet_unchanged(kind, form, said):
    sheet = blank()
    before = copy.deepcopy(sheet)
    with pytest.raises(InvalidEntry) as refused:
        pick(sheet, kind, entry(kind, **form))
    assert list(refused.value.errors) == ["pick"]
    assert said in refused.value.errors["pick"]
    assert sheet == before


def test_a_template_fills_only_a_sheet_in_creation():
    sheet = weg_d6.demo_sheet()
    if sheet["stage"] != "play":
        sheet = weg_d6.apply_edit(sheet, "stage", "play", SETTINGS)
    with pytest.raises(InvalidEntry, match="creation"):
        pick(sheet, "template", entry("template", **SMUGGLER))


def test_a_picked_skill_and_specialization_join_the_sheets_lists():
    sheet = pick(blank(), "skill", entry("skill", name="Sabacc", attribute="perception"))
    assert sheet["custom_skills"]["sabacc"]["attribute"] == "perception"
    sheet = pick(
        sheet, "skill", entry("skill", name="YT-1300", specialization_of="space transports")
    )
    spec = sheet["specializations"]["space_transports_yt_1300"]
    assert spec["pips"] == sheet["attributes"]["mechanical"]
    assert [kind for kind, _ref, _v in weg_d6.entry_refs(sheet)] == ["skill"]
    assert len(weg_d6.entry_refs(sheet)) == 1  # the same ref, once


def test_a_picked_force_power_is_learned_under_the_power_rules():
    sheet = weg_d6.apply_edit(blank(), "force.sensitive", "yes", SETTINGS)
    sheet = weg_d6.apply_edit(sheet, "force.sense", "1D", SETTINGS)
    power = entry("force_power", name="Shatter", **{"skills.control": "", "skills.sense": "on"})
    sheet = pick(sheet, "force_power", power, ref="p")
    assert "shatter" in sheet["force"]["powers"]
    assert sheet["force"]["custom_powers"]["shatter"]["skills"] == ["sense"]
    assert weg_d6.entry_refs(sheet) == [("force_power", "p", 1)]


def test_armor_and_equipment_add_lines_to_the_equipment_with_their_refs():
    sheet = pick(
        blank(), "armor", entry("armor", name="Blast vest", physical="1D", energy="0D+1"), ref="a"
    )
    sheet = pick(sheet, "equipment", entry("equipment", name="Medpac"), ref="m")
    assert sheet["gear"]["equipment"] == "Blast vest (armor: +1D physical, +0D+1 energy)\nMedpac"
    assert weg_d6.entry_refs(sheet) == [("armor", "a", 1), ("equipment", "m", 1)]


def test_an_npc_template_makes_an_npc_with_its_codes():
    npc = entry("npc_template", name="Stormtrooper", skills="blaster 4D", move="10")
    sheet = pick(blank(), "npc_template", npc)
    assert sheet["role"] == "npc"
    assert sheet["skills"] == {"blaster": 12}


def test_picking_never_changes_the_sheet_it_is_given():
    sheet = blank()
    before = copy.deepcopy(sheet)
    for kind, form in (("species", TWILEK), ("template", SMUGGLER), ("weapon", {"name": "X"})):
        pick(sheet, kind, entry(kind, **form))
    assert sheet == before


def test_an_unknown_kind_or_invalid_data_is_refused_by_field():
    with pytest.raises(InvalidEntry) as refused:
        pick(blank(), "starship", {"name": "X"})
    assert list(refused.value.errors) == ["kind"]
    with pytest.raises(InvalidEntry) as refused:
        pick(blank(), "weapon", {"name": "X", "damage": "4D"})
    assert list(refused.value.errors) == ["damage"]


@pytest.mark.parametrize(
    ("form", "pips"),
    [({"damage": "4D"}, 12), ({"damage": "1D+1", "adds_strength": "on"}, 6 + 4)],
)
def test_a_picked_weapons_damage_rolls_with_the_wild_die_and_no_wound_dice(form, pips):
    sheet = pick(blank(), "weapon", entry("weapon", name="Blade", **form))
    sheet["wound"] = "wounded"
    damage = next(r for r in weg_d6.rollables(sheet, SETTINGS) if r.key == "weapon.0.damage")
    assert damage.dice == pips  # Strength 2D on a blank sheet, plus the code
    assert damage.fact("wound_dice") == 0
    assert damage.label == "Blade: damage"


def test_a_new_version_of_a_species_shows_the_sheet_it_would_break():
    sheet = pick(blank(), "species", entry("species", **TWILEK | {"maximum.dexterity": "4D+2"}))
    sheet = weg_d6.apply_edit(sheet, "attr.dexterity", "4D+2", SETTINGS)
    assert "species_maximum" not in faults(sheet).get("attr.dexterity", [])
    lowered = entry("species", **TWILEK)  # maximum Dexterity 4D+1
    refreshed = weg_d6.refresh_entry(sheet, "species", "campaign:1:1", 2, lowered, SETTINGS)
    assert "species_maximum" in faults(refreshed)["attr.dexterity"]
    assert refreshed["custom_species"]["compendium"]["version"] == 2
    assert weg_d6.entry_refs(refreshed) == [("species", "campaign:1:1", 2)]


def test_a_new_version_of_a_weapon_changes_its_row_in_place_and_no_other():
    sheet = pick(blank(), "weapon", entry("weapon", name="Blaster", damage="4D"), ref="w")
    sheet = pick(sheet, "weapon", entry("weapon", name="Knife", damage="1D"), ref="k")
    stronger = entry("weapon", name="Blaster", damage="5D")
    refreshed = weg_d6.refresh_entry(sheet, "weapon", "w", 2, stronger, SETTINGS)
    assert [row["damage"] for row in refreshed["weapons"]] == ["5D", "1D"]
    assert weg_d6.entry_refs(refreshed) == [("weapon", "w", 2), ("weapon", "k", 1)]


def test_a_new_version_of_a_template_changes_no_sheet_filled_from_it():
    sheet = pick(blank(), "template", entry("template", **SMUGGLER))
    changed = entry("template", **SMUGGLER | {"credits": "5"})
    assert weg_d6.refresh_entry(sheet, "template", "campaign:1:1", 2, changed, SETTINGS) == sheet


def test_a_picked_species_limits_show_in_the_sheets_species_rows():
    sheet = pick(blank(), "species", entry("species", **TWILEK))
    rows = {row.key: row for row in weg_d6.trait_rows(sheet, SETTINGS)}
    assert rows["species.name"].value == "Twi'lek"
    assert rows["species.max.dexterity"].value == 13
    assert rows["species.min.knowledge"].value == 7


def test_a_picked_species_carries_its_words_and_a_new_version_brings_its_own():
    words = {"special_abilities": "Claws: +1D to brawling\nLow-light vision"}
    sheet = pick(blank(), "species", entry("species", **TWILEK | words))
    species = sheet["custom_species"]
    assert species["special_abilities"] == ["Claws: +1D to brawling", "Low-light vision"]
    assert "story_factors" not in species  # absent while empty, as before the pick
    # Words only: nothing of the check or the rows changes with them.
    plain = pick(blank(), "species", entry("species", **TWILEK))
    assert faults(sheet) == faults(plain)
    changed = entry("species", **TWILEK | {"story_factors": "Distrusted in the Core Worlds"})
    refreshed = weg_d6.refresh_entry(sheet, "species", "campaign:1:1", 2, changed, SETTINGS)
    assert refreshed["custom_species"]["story_factors"] == ["Distrusted in the Core Worlds"]
    assert "special_abilities" not in refreshed["custom_species"]
    assert weg_d6.validate_sheet(refreshed) == refreshed


@pytest.mark.parametrize(
    ("reading", "damage"),
    [("chart", "STR+2D"), ("dedelin", "STR+1D+2")],  # 003:2704 and 003:2487
)
def test_the_seeds_vibroaxe_is_picked_with_the_tables_reading_of_its_damage(reading, damage):
    axe = next(e for e in weg_d6.builtin_entries() if e.kind == "weapon" and e.slug == "vibroaxe")
    settings = resolve_settings(weg_d6.SETTINGS, {"vibroaxe_damage": reading})
    picked = weg_d6.pick_entry(blank(), "weapon", axe.ref, 1, axe.data, settings)
    assert picked["weapons"][-1]["damage"] == damage


def test_a_tables_own_vibroaxe_keeps_the_damage_its_gm_wrote():
    axe = next(e for e in weg_d6.builtin_entries() if e.kind == "weapon" and e.slug == "vibroaxe")
    settings = resolve_settings(weg_d6.SETTINGS, {"vibroaxe_damage": "dedelin"})
    picked = weg_d6.pick_entry(blank(), "weapon", "campaign:1:7", 1, axe.data, settings)
    assert picked["weapons"][-1]["damage"] == "STR+2D"
