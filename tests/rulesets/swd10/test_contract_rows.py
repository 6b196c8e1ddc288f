"""SWd10 under the one contract: the stored shape and its migration, the rows a sheet page
prints (ranges, locks, who sets what), the stage step and plain messages."""

from __future__ import annotations

import copy

import pytest

import rulesets.swd10 as swd10
from rulesets.core import InvalidEdit, InvalidSheet, RowKind, Setter, resolve_settings

DEFAULTS = resolve_settings(swd10.SETTINGS, {})


def edited(sheet: dict, *edits: tuple[str, str]) -> dict:
    for trait, raw in edits:
        sheet = swd10.apply_edit(sheet, trait, raw, DEFAULTS)
    return sheet


def rows_of(sheet: dict) -> dict:
    return {row.key: row for row in swd10.trait_rows(sheet, DEFAULTS)}


def played() -> dict:
    return edited(swd10.demo_sheet(), ("stage", "play"), ("info.experience", "100"))


# --- the stored shape -------------------------------------------------------------------


def _todays_sheet() -> dict:
    """A sheet as Datapad stored it before schema versions, written out literally."""
    attributes = dict.fromkeys(
        (
            "strength",
            "dexterity",
            "stamina",
            "charisma",
            "manipulation",
            "appearance",
            "perception",
            "intelligence",
            "wits",
        ),
        2,
    )
    abilities = {
        row.key.removeprefix("abil."): 0
        for row in swd10.trait_rows(swd10.blank_sheet(DEFAULTS), DEFAULTS)
        if row.key.startswith("abil.")
    }
    abilities |= {"dodge": 2, "firearms": 1}
    knowledges = dict.fromkeys(
        ("battle", "mind", "nature", "telekinetic", "transform", "swordplay"), 0
    )
    return {
        "stage": "play",
        "info": {
            "player": "Ana",
            "chronicle": "Outer Rim",
            "nature": "Survivor",
            "demeanor": "Loner",
            "species": "Human",
            "destiny": "",
            "passion": "",
            "virtue": "",
            "destiny_points": 1,
            "experience": 30,
        },
        "priorities": {
            "attributes": ["social", "physical", "mental"],
            "abilities": ["talents", "skills", "knowledges"],
        },
        "attributes": attributes,
        "abilities": abilities,
        "lore_names": {"custom_lore_1": "", "custom_lore_2": "", "custom_lore_3": ""},
        "force_knowledges": knowledges,
        "power": 1,
        "power_current": 1,
        "willpower": 3,
        "willpower_current": 2,
        "light_side": 1,
        "dark_side": 0,
        "health_marked": 2,
        "merits": [{"slug": "ambidextrous", "value": 1, "choice": ""}],
        "force_abilities": [],
        "languages": [{"name": "Basic", "read": True, "write": False}],
        "techniques": [{"skill": "firearms", "slug": "blaster_pistols", "kind": ""}],
        "weapons": [{"name": "Blaster", "difficulty": 6, "rate": "1", "damage": 3}],
        "swse_level": 0,
        "baseline": {
            "attributes": attributes,
            "abilities": abilities,
            "force_knowledges": knowledges,
            "willpower": 3,
            "merits": {"ambidextrous": 1},
            "languages": [{"name": "Basic", "read": True, "write": False}],
        },
    }


def test_a_sheet_stored_before_schema_versions_upgrades_and_validates():
    old = _todays_sheet()
    upgraded = swd10.validate_sheet(copy.deepcopy(old))
    assert upgraded["schema_version"] == swd10.SCHEMA_VERSION
    # Version 2 added armor and shields (000:L183-230): an old sheet has none.
    assert {k: v for k, v in upgraded.items() if k != "schema_version"} == old | {"armor": []}
    assert swd10.check(upgraded, DEFAULTS).pool("xp").allowed == 30


def test_the_migration_drops_the_baseline_an_old_creation_sheet_kept():
    old = _todays_sheet() | {"stage": "creation"}
    assert swd10.validate_sheet(old)["baseline"] is None


@pytest.mark.parametrize(
    ("change", "path_and_message"),
    [
        ({"power": "3"}, "power: expected a whole number from 0 to 10"),
        ({"power": True}, "power: expected a whole number from 0 to 10"),
        ({"stage": "retired"}, "stage: expected one of creation, play"),
        ({"info": {"player": 7}}, "info.player: expected text"),
        ({"lore_names": {"custom_lore_1": "x" * 41}}, "lore_names.custom_lore_1: expected at most"),
        ({"languages": [{"name": "Basic", "read": "yes"}]}, "languages.0.read: expected true"),
        ({"weapons": [{"name": "Axe", "damage": 21}]}, "weapons.0.damage: expected a whole"),
        ({"force_abilities": ["sith_alchemy"]}, "force_abilities.0: expected one of"),
        ({"merits": [{"slug": "giant", "value": 1, "choice": 3}]}, "merits.0.choice"),
        ({"health_marked": -1}, "health_marked: expected a whole number"),
    ],
)
def test_a_wrong_value_is_refused_with_the_path_of_its_field(change, path_and_message):
    with pytest.raises(InvalidSheet, match=path_and_message.replace("(", r"\(")):
        swd10.validate_sheet(swd10.demo_sheet() | change)


@pytest.mark.parametrize(
    ("baseline_change", "path"),
    [
        ({"willpower": "3"}, "baseline.willpower"),
        ({"attributes": {"wits": "two"}}, "baseline.attributes.wits"),
        ({"merits": {"ambidextrous": "1"}}, "baseline.merits.ambidextrous"),
        ({"merits": {"no_such_merit": 1}}, "baseline.merits"),
        ({"languages": "Basic"}, "baseline.languages"),
        ({"spells": {}}, "baseline.spells: is not part of this sheet"),
    ],
)
def test_a_baseline_of_the_wrong_types_is_refused_at_import(baseline_change, path):
    sheet = played()
    sheet["baseline"] = sheet["baseline"] | baseline_change
    with pytest.raises(InvalidSheet, match=path):
        swd10.validate_sheet(sheet)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"power_current": 2}, "power_current: cannot exceed power"),
        ({"health_marked": 8}, "health_marked: more boxes than this track's 7"),
        ({"techniques": [{"skill": "melee", "slug": "gunnery", "kind": ""}]}, "techniques.0.slug"),
        (
            {"techniques": [{"skill": "melee", "slug": "special_weapons", "kind": ""}]},
            "techniques.0.kind",
        ),
        ({"weapons": [{"name": " "}]}, "weapons.0.name: a weapon needs a name"),
        ({"merits": [{"slug": "giant", "value": 2, "choice": ""}]}, "merits.0.value"),
        ({"attributes": {"appearance": 0}}, "attributes.appearance: only the Monstrous flaw"),
        ({"baseline": played()["baseline"]}, "baseline: a sheet still in creation"),
    ],
)
def test_what_no_single_field_shows_is_refused_across_fields(change, message):
    sheet = swd10.demo_sheet() | change
    with pytest.raises(InvalidSheet, match=message):
        swd10.validate_sheet(sheet)


# --- rows -------------------------------------------------------------------------------


def test_disfigured_caps_the_appearance_row_at_two():
    sheet = edited(swd10.demo_sheet(), ("merit.add", "disfigured"))
    row = rows_of(sheet)["attr.appearance"]
    assert (row.minimum, row.maximum, row.locked) == (1, 2, "")
    swd10.apply_edit(sheet, "attr.appearance", "2", DEFAULTS)
    with pytest.raises(InvalidEdit):
        swd10.apply_edit(sheet, "attr.appearance", "3", DEFAULTS)


def test_monstrous_locks_appearance_at_zero_and_says_why():
    sheet = edited(swd10.demo_sheet(), ("merit.add", "monstrous"), ("attr.appearance", "0"))
    row = rows_of(sheet)["attr.appearance"]
    assert (row.value, row.minimum, row.maximum) == (0, 0, 0)
    assert row.locked == "The Monstrous flaw sets Appearance to 0."


def test_in_play_a_row_starts_at_its_value_when_creation_ended():
    sheet = edited(played(), ("attr.wits", "3"))
    rows = rows_of(sheet)
    assert (rows["attr.wits"].minimum, rows["attr.wits"].value) == (2, 3)
    assert rows["willpower"].minimum == 3
    assert rows["attr.wits"].next_cost.amount == 16


def test_the_storyteller_sets_what_the_seed_reserves_to_them():
    rows = rows_of(swd10.demo_sheet())
    storyteller = {key for key, row in rows.items() if row.setter is Setter.GM}
    assert storyteller == {
        "power",
        "side.light",
        "side.dark",
        "info.destiny",
        "info.experience",
        "swse_level",
    }
    assert rows["power"].source == "000:L96"
    assert rows["info.experience"].source == "000:L394"
    in_play = rows_of(edited(played(), ("merit.add", "eidetic_memory")))
    assert in_play["merit.3.value"].setter is Setter.GM
    assert "000:L320" in in_play["merit.3.value"].source
    assert rows["merit.0.value"].setter is Setter.PLAYER


def test_a_lore_of_your_own_is_labelled_by_its_chosen_name_in_its_row():
    sheet = edited(swd10.demo_sheet(), ("lorename.custom_lore_2", "Mandalorians"))
    rows = swd10.trait_rows(sheet, DEFAULTS)
    keys = [row.key for row in rows]
    assert keys.index("lorename.custom_lore_2") + 1 == keys.index("abil.custom_lore_2")
    assert rows_of(sheet)["abil.custom_lore_2"].label == "Lore: Mandalorians"
    assert swd10.trait_label("abil.custom_lore_2") == "Lore: (your own)"


def test_a_flaw_row_offers_only_the_points_the_flaw_cap_leaves():
    sheet = edited(swd10.demo_sheet(), ("merit.add", "addiction|3"), ("merit.add", "enemy|1"))
    row = rows_of(sheet)["merit.4.value"]
    assert [value for value, _label in row.choices] == ["1", "2", "3"]
    assert row.choices[0] == ("1", "1 point")
    with pytest.raises(InvalidEdit, match=r"Flaws would total 7 points; at most 6\."):
        swd10.apply_edit(sheet, "merit.4.value", "4", DEFAULTS)


def test_every_row_kind_is_one_the_page_knows_and_rows_follow_print_order():
    rows = swd10.trait_rows(played(), DEFAULTS)
    sections = list(dict.fromkeys(row.section for row in rows))
    assert sections == [
        "header",
        "attributes",
        "abilities",
        "force",
        "merits",
        "languages",
        "weapons",
        "other",
        "experience",
        "stage",
    ]
    assert {row.kind for row in rows} <= set(RowKind)


def test_trait_label_names_every_kind_of_key():
    assert swd10.trait_label("attr.wits") == "Wits"
    assert swd10.trait_label("prio.abilities.skills") == "Skills priority"
    assert swd10.trait_label("weapon.2.damage") == "Weapon 3: damage"
    assert swd10.trait_label("merit.add") == "New merit or flaw"
    assert swd10.trait_label("stage") == "Stage"


# --- stage, flags and row numbers -------------------------------------------------------


def test_creation_finishes_and_reopens_through_the_stage_trait():
    sheet = edited(swd10.demo_sheet(), ("stage", "play"))
    assert sheet["stage"] == "play" and sheet["baseline"]["willpower"] == 3
    assert swd10.status(sheet, DEFAULTS).unspent == 0
    assert edited(sheet, ("stage", "play")) == sheet
    reopened = edited(sheet, ("stage", "creation"))
    assert reopened["stage"] == "creation" and reopened["baseline"] is None
    raised = edited(sheet, ("info.experience", "20"), ("attr.wits", "3"))
    with pytest.raises(InvalidEdit, match="XP has been spent since creation ended"):
        swd10.apply_edit(raised, "stage", "creation", DEFAULTS)


def test_status_counts_unspent_experience_in_play_only():
    assert swd10.status(swd10.demo_sheet(), DEFAULTS).unspent is None
    status = swd10.status(edited(played(), ("attr.wits", "3")), DEFAULTS)
    assert (status.stage, status.legal, status.unspent, status.unit) == ("play", True, 88, "XP")


def test_an_unknown_flag_value_is_refused_not_read_as_no():
    with pytest.raises(InvalidEdit, match="is not yes or no"):
        swd10.apply_edit(swd10.demo_sheet(), "language.1.read", "perhaps", DEFAULTS)
    assert edited(swd10.demo_sheet(), ("language.1.read", "yes"))["languages"][1]["read"]


@pytest.mark.parametrize(
    ("trait", "message"),
    [
        ("weapon.2.damage", "There is no weapon number 3 on this sheet."),
        ("merit.3.value", "There is no merit or flaw number 4 on this sheet."),
        ("language.2.remove", "There is no language number 3 on this sheet."),
        ("technique.4.remove", "There is no technique number 5 on this sheet."),
    ],
)
def test_row_numbers_in_messages_count_from_one(trait, message):
    with pytest.raises(InvalidEdit) as refused:
        swd10.apply_edit(swd10.demo_sheet(), trait, "1", DEFAULTS)
    assert refused.value.message == message


def test_no_message_a_player_reads_cites_a_seed_line():
    sheet = edited(swd10.demo_sheet(), ("attr.dexterity", "5"), ("abil.dodge", "4"))
    for violation in swd10.check(sheet, DEFAULTS).violations:
        assert "(L" not in violation.message and "§" not in violation.message
    with pytest.raises(InvalidEdit) as refused:
        swd10.apply_edit(sheet, "merit.add", "juyo", DEFAULTS)
    assert (
        "(L" not in refused.value.message
        and "Juyo needs Melee 4; you have 2" in refused.value.message
    )


def test_a_reading_that_shortens_the_track_never_breaks_a_sheet_marked_to_its_end():
    commoner = edited(swd10.demo_sheet(), ("power", "0"), ("health", "4"))
    three = DEFAULTS | {"commoner_health_levels": 3}
    assert swd10.derived(commoner, three)["incapacitated"]
    assert swd10.status(commoner, three).stage == "creation"
