"""Each other tool's file, read field by field into a Datapad sheet: what lands where, what
is listed as having no place, and every way a file is refused."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from rulesets.weg_d6.sheet import validate_sheet as validate_weg
from sheets.transfer import formats
from sheets.transfer.formats import FormatRefused, NeedsMinimums

FIXTURES = Path(__file__).parent.parent / "fixtures" / "formats"
HUMAN = {
    "minimum": dict.fromkeys(
        ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical"), 6
    ),
    "maximum": dict.fromkeys(
        ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical"), 12
    ),
    "move": 10,
    "move_max": 12,
    "catalog_slug": "human",
}


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def read(data: dict, **answers):
    return formats.read(json.dumps(data).encode(), answers)


def placed(reading) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for item in reading.notes.placed:
        found.setdefault(item.where, []).append(item.value)
    return found


def dropped(reading) -> str:
    return "\n".join(f"{d.what}: {d.why}" for d in reading.notes.dropped)


# Foundry OD6S ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["od6s_system.json", "od6s_data.json"])
def test_an_od6s_actor_in_either_shape_becomes_a_weg_sheet(name):
    reading = read(fixture(name))
    sheet = reading.sheet
    assert reading.system == "weg_d6" and reading.format_key == "foundry_od6s"
    assert sheet["attributes"] == {
        "dexterity": 10,
        "knowledge": 7,
        "mechanical": 8,
        "perception": 11,
        "strength": 9,
        "technical": 9,
    }
    # A skill's base is above its attribute; a specialization's too (not above its skill).
    assert sheet["skills"]["blaster"] == 14
    assert sheet["skills"]["space_transports"] == 14
    assert sheet["specializations"]["heavy_blaster_pistol"] == {
        "name": "Heavy Blaster Pistol",
        "skill": "blaster",
        "pips": 17,
    }
    # An advanced skill is rolled without its attribute, and is the catalog's (A) one.
    assert sheet["skills"]["advanced_medicine"] == 5
    assert "medicine" not in sheet["skills"]
    # A skill the catalog lacks becomes the sheet's own, under its attribute.
    assert sheet["custom_skills"]["sabacc_tells"]["attribute"] == "perception"
    assert sheet["skills"]["sabacc_tells"] == 13
    assert (sheet["force"]["control"], sheet["force"]["sense"], sheet["force"]["alter"]) == (
        4,
        3,
        0,
    )
    assert sheet["force"]["sensitive"] is True
    assert sheet["force"]["powers"] == ["control_pain", "danger_sense"]
    assert sheet["force"]["custom_powers"]["danger_sense"]["skills"] == ["sense"]
    assert sheet["points"]["character"] == 7 and sheet["points"]["force"] == 2
    assert sheet["wound"] == "wounded"
    assert sheet["move"] == 10 and sheet["gear"]["credits"] == 1250
    assert sheet["weapons"][0] == {
        "name": "DL-44 Heavy Blaster",
        "damage": "5D",
        "range": "7/25/50",
        "ammo": "25",
    }
    assert "Blast Vest (armor: +1D physical, +0D+1 energy)" in sheet["gear"]["equipment"]
    assert "Comlink ×2" in sheet["gear"]["equipment"]
    assert sheet["info"]["template"] == "Smuggler"
    assert "Grew up on Corellia & left young." in sheet["info"]["description"]
    assert "Quick Draw: Draws first." in sheet["info"]["description"]
    assert sheet["info"]["physical"] == "Gender: Female; Age: 27; Height: 1.7 m; Weight: 60 kg"
    assert validate_weg(sheet) == sheet


def test_an_od6s_item_without_a_weg_place_is_kept_in_equipment_and_said_so():
    reading = read(fixture("od6s_system.json"))
    assert "Sabacc" in reading.sheet["gear"]["equipment"].split("\n")
    assert (
        "Foundry item “Sabacc” of type “item”: has no place in a WEG sheet: kept in Equipment"
        in dropped(reading)
    )
    assert "character-template" in dropped(reading)
    assert "system.attributes.per.mod" in dropped(reading)


def test_the_dark_side_points_of_the_older_shape_are_a_bare_string():
    assert read(fixture("od6s_data.json")).sheet["points"]["dark_side"] == 2
    assert read(fixture("od6s_system.json")).sheet["points"]["dark_side"] == 1


def test_every_value_placed_names_where_in_the_file_it_came_from():
    reading = read(fixture("od6s_system.json"))
    assert placed(reading)["Dexterity"] == ["3D+1"]
    sources = {p.where: p.source for p in reading.notes.placed}
    assert sources["Dexterity"] == "system.attributes.agi.base"
    assert sources["Skill Blaster"] == "items.0 (agi + base 4)"


def test_fields_of_a_newer_od6s_are_listed_and_the_rest_imports():
    data = fixture("od6s_system.json")
    data["system"]["hyperdriveKarma"] = {"value": 3}
    reading = read(data)
    assert reading.notes.unknown == ["system.hyperdriveKarma"]
    assert reading.sheet["attributes"]["dexterity"] == 10


def test_an_od6s_vehicle_is_not_a_character():
    data = fixture("od6s_system.json") | {"type": "starship"}
    with pytest.raises(FormatRefused, match="is a starship, not a character"):
        read(data)


def test_an_od6s_npc_is_an_npc():
    assert read(fixture("od6s_system.json") | {"type": "npc"}).sheet["role"] == "npc"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["system"]["attributes"]["agi"].update(base="lots"), "is not a die code"),
        (lambda d: d["system"]["attributes"]["agi"].update(base="4D+x"), "is not a die code"),
        (lambda d: d["system"]["attributes"]["agi"].update(base=900), "out of range"),
        (
            lambda d: d["system"]["attributes"]["agi"].update(base=1),
            "Dexterity 0D+1 is out of range",
        ),
        (lambda d: d["system"]["attributes"].pop("tec"), "attributes.tec.base is missing"),
        (lambda d: d["system"]["characterpoints"].update(value=-3), "out of range"),
        (lambda d: d["system"]["credits"].update(value=10**12), "out of range"),
        (lambda d: d["system"]["move"].update(value=True), "is not a number"),
        (lambda d: d["items"][0]["system"].update(base=1.5), "is not a whole number"),
        (lambda d: d.update(items={"a": 1}), "items must be a list"),
        (lambda d: d["items"].append("sword"), "items.17 must be a JSON object"),
    ],
)
def test_an_od6s_actor_with_a_bad_value_is_refused_by_name(change, message):
    data = copy.deepcopy(fixture("od6s_system.json"))
    change(data)
    with pytest.raises(FormatRefused, match=re.escape(message)):
        read(data)


def test_a_negative_od6s_skill_sets_the_skill_at_zero_and_says_so():
    data = fixture("od6s_system.json")
    data["items"][4]["system"]["base"] = -9
    reading = read(data)
    assert reading.sheet["skills"]["advanced_medicine"] == 0
    assert "a code below 0D: set to 0D" in dropped(reading)


# The 1Bln21 builder ------------------------------------------------------------------------


def test_a_builder_file_counts_its_attributes_up_from_the_species_minimum():
    reading = read(fixture("builder.swd6.json"), species_limits=HUMAN)
    sheet = reading.sheet
    # Human minimum 2D (6) + attrs + attrsCP.
    assert sheet["attributes"] == {
        "dexterity": 10,
        "knowledge": 7,
        "mechanical": 10,
        "perception": 8,
        "strength": 7,
        "technical": 7,
    }
    assert sheet["species"] == "human"
    assert sheet["skills"]["blaster"] == 14  # 10 + c 3 + cp 1
    assert sheet["skills"]["space_transports"] == 16
    assert sheet["custom_skills"]["swoop_racing"]["attribute"] == "mechanical"
    assert sheet["skills"]["swoop_racing"] == 12
    # "(A) " skills are rolled without the attribute.
    assert sheet["skills"]["advanced_medicine"] == 3
    # A specialization's pips are above the attribute too.
    spec = sheet["specializations"]["blaster_blaster_rifle"]
    assert (spec["skill"], spec["pips"]) == ("blaster", 15)
    # An untrained skill (no pips) is not written.
    assert "search" not in sheet["skills"]
    assert (sheet["force"]["control"], sheet["force"]["sensitive"]) == (4, True)
    assert sheet["force"]["powers"] == ["control_pain", "battle_meditation"]
    assert sheet["points"] == {"character": 0, "force": 2, "dark_side": 0}
    assert sheet["move"] == 11
    assert sheet["gear"]["credits"] == 800
    equipment = sheet["gear"]["equipment"].split("\n")
    assert {"Comlink", "Medpac ×2", "Blast Vest (armor, worn)", "Thermal Detonator"} <= set(
        equipment
    )
    assert "Loan: 500 credits to Uncle at 5%" in equipment
    names = [w["name"] for w in sheet["weapons"]]
    assert names == ["Blaster Pistol", "Vibroknife", "Father's Saber", "Hunting Rifle"]
    assert sheet["weapons"][-1]["damage"] == "4D+1" and sheet["weapons"][-1]["range"] == "3/30/100"
    assert sheet["info"]["quote"] == "I can fly anything."
    assert "Planet: Tatooine" in sheet["info"]["physical"]
    assert "Notes: Owes Uncle money." in sheet["info"]["description"]
    assert "cpEarned 10" in dropped(reading) and "info.portrait" in dropped(reading)


def test_a_builder_file_without_known_minimums_asks_for_them():
    with pytest.raises(NeedsMinimums) as asked:
        read(fixture("builder_ithorian.swd6.json"))
    assert asked.value.species == "Ithorian"


def test_a_builder_file_of_its_own_custom_species_needs_no_question():
    data = fixture("builder.swd6.json")
    data["info"]["species"] = "Custom"
    data["customSpecies"] = {
        "name": "Zeltron",
        "move": 10,
        "mins": [6, 6, 3, 9, 6, 6],
        "maxs": [12, 12, 9, 15, 12, 12],
    }
    reading = read(data)
    assert reading.sheet["species"] == "custom"
    assert reading.sheet["custom_species"]["name"] == "Zeltron"
    assert reading.sheet["attributes"]["mechanical"] == 7
    assert reading.sheet["attributes"]["perception"] == 11


def test_a_builder_file_with_a_broken_skill_count_is_refused():
    data = fixture("builder.swd6.json")
    data["skills"]["dex|Blaster"]["c"] = "three"
    with pytest.raises(FormatRefused, match=re.escape("skills.dex|Blaster.c")):
        read(data, species_limits=HUMAN)


# Valthoron's SWD6-Sheet --------------------------------------------------------------------


def test_an_swd6_sheet_file_adds_species_starting_and_improvement():
    reading = read(fixture("valthoron.json"))
    sheet = reading.sheet
    assert sheet["attributes"]["dexterity"] == 10 and sheet["attributes"]["technical"] == 6
    assert sheet["skills"]["blaster"] == 14
    assert sheet["skills"]["starship_piloting"] == 16
    assert sheet["skills"]["sabacc"] == 11
    assert sheet["skills"]["advanced_medicine"] == 5
    assert sheet["specializations"]["blaster_pistol"]["pips"] == 16
    assert "Bonus" in dropped(reading)
    assert "hold only the name, attributes and skills" in dropped(reading)


def test_an_swd6_sheet_file_of_the_old_layout_is_refused_with_what_to_do():
    with pytest.raises(FormatRefused, match="old layout"):
        read({"Name": "X", "Stats": [], "Attributes": []})


def test_an_swd6_sheet_file_missing_an_attribute_is_refused():
    data = fixture("valthoron.json")
    data["Stats"] = data["Stats"][1:]
    with pytest.raises(FormatRefused, match="no dexterity"):
        read(data)


def test_an_swd6_sheet_specialization_of_a_skill_not_in_the_file_is_refused():
    data = fixture("valthoron.json")
    data["Stats"][-1]["Base"] = "Lightsaber"
    with pytest.raises(FormatRefused, match="rests on “Lightsaber”"):
        read(data)


# cthunline ---------------------------------------------------------------------------------


def test_a_cthunline_character_reads_its_die_code_strings_as_totals():
    reading = read(fixture("cthunline.json"))
    sheet = reading.sheet
    assert sheet["attributes"]["dexterity"] == 11
    assert sheet["skills"]["blaster"] == 17 and sheet["skills"]["dodge"] == 14
    # "1D+4" is normalised to 2D+1.
    assert sheet["skills"]["security"] == 7
    assert sheet["custom_skills"]["tracking"]["attribute"] == "perception"
    assert "brawling" not in sheet["skills"]
    # The highest wound flag set counts.
    assert sheet["wound"] == "wounded"
    assert sheet["points"] == {"character": 5, "force": 1, "dark_side": 1}
    assert sheet["weapons"][1]["damage"] == "STR+1D"
    assert sheet["weapons"][0]["range"] == "3-10/25/50"
    assert "Macrobinoculars" in sheet["gear"]["equipment"]
    assert "Special abilities:\nKeen eyes" in sheet["info"]["description"]
    assert sheet["info"]["quote"] == "Nothing personal."


def test_a_cthunline_character_may_come_bare():
    assert read(fixture("cthunline.json")["data"]).name == "Dessa Moor"


def test_a_cthunline_character_of_another_game_is_refused_by_name():
    with pytest.raises(FormatRefused, match="cthunline character of “callOfCthulhu”"):
        read({"gameId": "callOfCthulhu", "name": "X", "data": {}})


def test_a_cthunline_die_code_that_is_no_die_code_is_refused():
    data = fixture("cthunline.json")
    data["data"]["attributes"]["strength"]["value"] = "3 dice"
    with pytest.raises(
        FormatRefused, match=re.escape("attributes.strength.value: “3 dice” is not a die code")
    ):
        read(data)


# Roll20 D6StarWars -------------------------------------------------------------------------


def test_a_roll20_character_reads_dice_and_pips_and_its_sections():
    reading = read(fixture("roll20_d6starwars.json"))
    sheet = reading.sheet
    assert sheet["attributes"]["dexterity"] == 10 and sheet["attributes"]["knowledge"] == 8
    assert sheet["skills"]["blaster"] == 13
    assert sheet["skills"]["starfighter_piloting"] == 17
    # The perception section is spelled "perckills" on the sheet.
    assert sheet["custom_skills"]["sabacc"]["attribute"] == "perception"
    assert sheet["skills"]["stamina"] == 9  # an empty pip field reads as 0
    assert sheet["force"]["control"] == 3 and sheet["force"]["powers"] == ["control_pain"]
    assert sheet["wound"] == "wounded"
    assert "1 is Stunned or Wounded: read as Wounded" in dropped(reading)
    assert sheet["weapons"][0]["damage"] == "4D" and sheet["weapons"][0]["range"] == "3-10/30/120"
    assert sheet["gear"]["credits"] == 540
    assert {"Flight suit", "Survival kit", "Flight helmet (armor)"} <= set(
        sheet["gear"]["equipment"].split("\n")
    )
    assert "Born on Chandrila." in sheet["info"]["description"]
    assert "repeating_cptable" in dropped(reading)


def test_a_roll20_starship_is_not_a_character():
    data = fixture("roll20_d6starwars.json")
    for attrib in data["character"]["attribs"]:
        if attrib["name"] == "sheettype":
            attrib["current"] = "2"
    with pytest.raises(FormatRefused, match="is a starship, not a character"):
        read(data)


def test_a_roll20_character_of_another_sheet_is_refused_by_name():
    data = {
        "schema_version": 3,
        "type": "character",
        "character": {"name": "X", "attribs": [{"name": "hp", "current": "3"}]},
    }
    with pytest.raises(FormatRefused, match="another character sheet"):
        read(data)


# Foundry World of Darkness 20th -> SWd10 ---------------------------------------------------


def test_a_wod20_actor_maps_its_nine_attributes_and_abilities_into_swd10():
    reading = read(fixture("wod20_pc.json"))
    sheet = reading.sheet
    assert reading.system == "swd10"
    assert sheet["attributes"]["perception"] == 4 and sheet["attributes"]["dexterity"] == 3
    assert sheet["abilities"]["alertness"] == 2 and sheet["abilities"]["stealth"] == 3
    assert sheet["abilities"]["investigation"] == 2
    # Knowledges SWd10 lacks take its named lores while one is free.
    assert sheet["lore_names"]["custom_lore_1"] == "Occult"
    assert sheet["abilities"]["custom_lore_1"] == 2
    assert (sheet["willpower"], sheet["willpower_current"]) == (5, 4)
    assert sheet["health_marked"] == 2
    assert (sheet["info"]["nature"], sheet["info"]["demeanor"]) == ("Survivor", "Loner")
    assert sheet["stage"] == "play" and sheet["baseline"]["abilities"] == sheet["abilities"]
    listed = dropped(reading)
    for what in ("ability Drive 1", "attribute Resolve 3", "Dodge's speciality", "Medkit"):
        assert what in listed
    # A hidden attribute of the later editions is no loss.
    assert "Composure" not in listed


def test_a_wod20_actor_of_the_older_shape_reads_its_abilities_by_group():
    sheet = read(fixture("wod20_legacy.json")).sheet
    assert sheet["abilities"]["brawl"] == 3 and sheet["abilities"]["melee"] == 2
    assert sheet["abilities"]["medicine"] == 1
    assert sheet["lore_names"]["custom_lore_1"] == "law"
    assert sheet["willpower"] == 4


def test_a_wod20_attribute_above_five_is_refused():
    data = fixture("wod20_pc.json")
    data["system"]["attributes"]["strength"]["value"] = 7
    with pytest.raises(FormatRefused, match="Strength 7 is out of range for SWd10"):
        read(data)


# Recognising the format --------------------------------------------------------------------


def test_a_foundry_actor_of_another_game_is_refused_naming_the_game():
    with pytest.raises(FormatRefused, match="Foundry VTT actor of the “dnd5e” game system"):
        read(fixture("foundry_dnd5e.json"))


def test_a_file_of_no_known_format_lists_the_formats_datapad_knows():
    with pytest.raises(FormatRefused) as refused:
        read({"hello": "world"})
    message = str(refused.value)
    assert message.startswith("This is not a file Datapad knows; it knows: Datapad character files")
    for label in (
        "Foundry VTT OD6S",
        "1Bln21",
        "Valthoron",
        "cthunline",
        "Roll20",
        "World of Darkness",
    ):
        assert label in message


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe\x00", "not text"),
        (b"[" * 5000, "too deeply nested"),
        (b'{"n": 1e999}', "not a number"),
        (b'{"n": NaN}', "not a number"),
        (b'{"n": ' + b"9" * 50 + b"}", "too large"),
        (b" " * (2 * 1024 * 1024 + 1), "at most 2.0 MB"),
    ],
)
def test_a_broken_file_is_refused_with_its_reason(raw, message):
    with pytest.raises(FormatRefused, match=re.escape(message)):
        formats.read(raw)


@pytest.mark.parametrize(
    "name",
    [
        "od6s_system.json",
        "od6s_data.json",
        "builder.swd6.json",
        "valthoron.json",
        "cthunline.json",
        "roll20_d6starwars.json",
        "wod20_pc.json",
        "wod20_legacy.json",
    ],
)
def test_each_fixture_is_recognised_as_exactly_one_format(name):
    data = fixture(name)
    assert [r.KEY for r in formats.READERS if r.detect(data)] == [formats.recognise(data).KEY]
