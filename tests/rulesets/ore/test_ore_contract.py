"""The shared contract for Star O.R.E.: the stored shape and its migration, the stage step,
trait rows (ranges, who may set what, locks), labels, status and row numbers in messages."""

from __future__ import annotations

import copy

import pytest

import rulesets.ore as ore
from rulesets.core import InvalidEdit
from rulesets.core.rows import RowKind, Setter, Stage
from rulesets.ore.data import HIT_LOCATIONS, INFO_KEYS, POWER_BY_SLUG, STATS
from rulesets.ore.sheet import Info, Powers, Stats, Wounds


def rows_by_key(sheet: dict, settings: dict | None = None) -> dict:
    return {row.key: row for row in ore.trait_rows(sheet, settings or {})}


def build(*edits: tuple[str, str]) -> dict:
    sheet = ore.blank_sheet({})
    for trait, raw in edits:
        sheet = ore.apply_edit(sheet, trait, raw, {})
    return sheet


# --- the stored shape -------------------------------------------------------------------------

# A sheet exactly as Datapad stored it before schema versions: no "schema_version", and the
# stage kept under "phase".
TODAYS_SHEET = {
    "info": {
        "player": "Ana",
        "gender": "",
        "career": "Smuggler",
        "age": "",
        "height": "",
        "weight": "",
        "eyes": "",
        "hair": "",
        "skin": "",
        "appearance": "Scarred.\nQuiet.",
        "motivations": "",
    },
    "species": "wookiee",
    "character_points": 150,
    "phase": "play",
    "creation_spent": 40,
    "xp_awards": [{"amount": 2, "note": "Session 1"}],
    "stats": {"body": 4, "coordination": 2, "sense": 1, "brains": 1, "command": 1, "cool": 1},
    "skills": [
        {
            "id": "language_native",
            "skill": "language",
            "name": "Language [native]",
            "specialty": "native",
            "stat": "brains",
            "dice": 2,
            "free": 2,
        },
        {
            "id": "language_basic",
            "skill": "language",
            "name": "Language [Basic]",
            "specialty": "Basic",
            "stat": "brains",
            "dice": 2,
            "free": 2,
        },
        {
            "id": "sabacc",
            "skill": "",
            "name": "Sabacc",
            "specialty": "",
            "stat": "cool",
            "dice": 1,
            "free": 0,
        },
    ],
    "powers": {
        "force_sense": {"dice": 1, "hard": 0, "wiggle": 0, "approved": False},
        "energy_manipulation": {"dice": 0, "hard": 0, "wiggle": 0, "approved": False},
        "physical_control": {"dice": 0, "hard": 0, "wiggle": 0, "approved": False},
        "mental_influence": {"dice": 0, "hard": 0, "wiggle": 0, "approved": False},
    },
    "stunts": {},
    "willpower": {"bought": 0, "extra": 0, "adjustment": -1},
    "dark_side": {"base": 0, "current": 0},
    "abilities": [{"ability": "skill_hard_die", "target": "sabacc", "level": 1}],
    "armor": [
        {
            "from": "blast_vest",
            "name": "Blast vest",
            "ar": 3,
            "coordination": 1,
            "move": 10,
            "special": "",
            "covers": ["torso"],
            "worn": True,
        }
    ],
    "weapons": [
        {
            "from": "",
            "name": "Gaffi stick",
            "damage": "width+1",
            "penetration": 0,
            "initiative": 0,
            "special": "",
        }
    ],
    "wounds": {
        "right_leg": ["", "", "", "", "", ""],
        "left_leg": ["", "", "", "", "", ""],
        "right_arm": ["shock", "", "", "", "", ""],
        "left_arm": ["", "", "", "", "", ""],
        "torso": ["killing", "", "", "", "", "", ""],
        "vitals": ["", "", "", "", ""],
        "head": ["", "", "", "", ""],
    },
    "lightsaber_form": "",
}


def test_a_sheet_of_todays_shape_upgrades_phase_to_stage_and_validates():
    upgraded = ore.validate_sheet(copy.deepcopy(TODAYS_SHEET))
    assert upgraded["schema_version"] == ore.SCHEMA_VERSION == 1
    assert upgraded["stage"] == "play" and "phase" not in upgraded
    rest = {k: v for k, v in upgraded.items() if k not in ("schema_version", "stage")}
    assert rest == {k: v for k, v in TODAYS_SHEET.items() if k != "phase"}
    assert ore.validate_sheet(upgraded) == upgraded
    ore.trait_rows(upgraded, {})


def test_an_old_export_missing_parts_is_filled_from_a_blank_sheet():
    partial = {"phase": "creation", "info": {"player": "Old export"}, "stats": {"body": 3}}
    sheet = ore.validate_sheet(partial)
    assert sheet["info"]["player"] == "Old export" and sheet["info"]["career"] == ""
    assert sheet["stats"] == {slug.slug: 3 if slug.slug == "body" else 1 for slug in STATS}
    assert sheet["stage"] == "creation" and len(sheet["wounds"]["torso"]) == 6


def test_the_schema_parts_follow_the_catalogs():
    assert tuple(Info.model_fields) == INFO_KEYS
    assert tuple(Stats.model_fields) == tuple(stat.slug for stat in STATS)
    assert set(Powers.model_fields) == set(POWER_BY_SLUG)
    assert {slug: len(field.default) for slug, field in Wounds.model_fields.items()} == {
        location.slug: location.boxes for location in HIT_LOCATIONS
    }


def test_a_blank_sheet_takes_the_budget_the_gm_chose():
    assert ore.blank_sheet({"creation_budget": "400"})["character_points"] == 400
    assert ore.blank_sheet({"creation_budget": "lots"})["character_points"] == 150


# --- the stage ------------------------------------------------------------------------------


def test_finishing_creation_goes_through_the_stage_trait_and_can_be_undone():
    sheet = build(("stat.body", "3"))
    played = ore.apply_edit(sheet, "stage", "play", {})
    assert (played["stage"], played["creation_spent"]) == ("play", 10)
    assert ore.apply_edit(played, "stage", "play", {}) == played
    reopened = ore.apply_edit(played, "stage", "creation", {})
    assert (reopened["stage"], reopened["creation_spent"]) == ("creation", None)
    assert ore.status(played, {}).unit == "XP" and ore.status(reopened, {}).unit == "CP"


def test_the_stage_row_is_locked_while_creation_is_over_budget():
    over = build(("character_points", "5"), ("stat.body", "3"))
    row = rows_by_key(over)["stage"]
    assert "over budget" in row.locked
    assert rows_by_key(build())["stage"].locked == ""


def test_status_counts_what_a_gm_list_shows():
    status = ore.status(ore.blank_sheet({}), {})
    assert (status.stage, status.legal, status.errors) == (Stage.CREATION, True, 0)
    assert (status.warnings, status.unspent, status.unit) == (1, 150, "CP")


# --- rows ---------------------------------------------------------------------------------


def test_only_the_gm_sets_force_permission_the_budget_and_experience_awards():
    rows = rows_by_key(ore.demo_sheet())
    gm = sorted(key for key, row in rows.items() if row.setter is Setter.GM)
    assert gm == sorted(
        [
            "character_points",  # L772
            "power.energy_manipulation.approved",  # L774
            "power.mental_influence.approved",
            "power.physical_control.approved",
            "stunt.affect_mind.approved",
            "stunt.blaster_defense.approved",
            "stunt.force_jump.approved",
            "stunt.healing.approved",
            "xp.0.amount",  # L826
            "xp.0.note",
        ]
    )
    assert "power.force_sense.approved" not in rows  # Force Sense needs no permission


def test_dice_rows_give_the_ranges_apply_edit_keeps():
    rows = rows_by_key(ore.demo_sheet())
    body = rows["stat.body"]
    assert (body.kind, body.minimum, body.maximum, body.shown) == (RowKind.DOTS, 1, 5, "2d")
    assert body.next_cost.amount == 5 and body.next_cost.unit == "XP"
    force_sense = rows["power.force_sense"]
    assert (force_sense.minimum, force_sense.maximum) == (1, 9)  # 1 hard die already
    hard = rows["power.force_sense.hard"]
    assert (hard.kind, hard.minimum, hard.maximum, hard.value) == (RowKind.DICE, 0, 8, 1)
    wiggle = rows["power.energy_manipulation.wiggle"]
    assert (wiggle.kind, wiggle.minimum, wiggle.maximum) == (RowKind.DICE, 0, 8)
    assert rows["stunt.fear"].value == 0 and rows["stunt.fear"].maximum == 10
    assert rows["skill.lightsaber"].maximum == 5


def test_rows_say_what_each_pool_rolls_so_a_sheet_never_adds_dice_itself():
    rows = rows_by_key(ore.demo_sheet())
    assert rows["stat.body"].kind is rows["skill.lightsaber"].kind is RowKind.DOTS
    assert rows["skill.lightsaber"].note.startswith("Rolls 7d with Coordination.")
    assert rows["power.force_sense"].note.startswith("Pool 2d+1hd: 3 of 10 dice. Comes with")
    assert rows["stunt.blaster_defense"].note == "Rolls 4d+1hd."
    assert (
        rows["stunt.healing"].note
        == "Light Side stunt. Rolls 3d. Willpower 1 per point healed or converted."
    )
    assert "Rolls" not in rows["stunt.fear"].note  # not bought


def test_gear_rows_are_numbered_and_covers_reads_back_as_it_is_shown():
    sheet = ore.apply_edit(ore.demo_sheet(), "armor.0.covers", "Left Arm, Torso", {})
    covers = rows_by_key(sheet)["armor.0.covers"]
    assert (covers.label, covers.value) == ("Armor 1: Covers", "Left Arm, Torso")
    assert ore.apply_edit(sheet, covers.key, covers.value, {}) == sheet
    assert rows_by_key(sheet)["weapon.1.damage"].label == "Weapon 2: Damage"


def test_budget_messages_belong_to_the_points_pool_and_xp_add_awards_experience():
    report = ore.check(build(("character_points", "5"), ("stat.body", "3")), {})
    assert [v.trait for v in report.errors] == ["pool.points"]
    assert ore.apply_edit(ore.blank_sheet({}), "xp.add", "2|Held", {})["xp_awards"] == [
        {"amount": 2, "note": "Held"}
    ]


def test_a_wookiee_row_says_body_7d_and_command_4d():  # L814
    rows = rows_by_key(build(("species", "wookiee")))
    assert (rows["stat.body"].maximum, rows["stat.command"].maximum) == (7, 4)
    assert "Wookiee" in rows["stat.command"].note


def test_a_droid_has_its_force_and_willpower_rows_locked():  # L764-L766
    rows = rows_by_key(build(("species", "droid")))
    assert "Droids have no Force Sense" in rows["power.force_sense"].locked
    assert "Droids have no Force Sense" in rows["stunt.empathy"].locked
    assert rows["willpower.bought"].locked == "Droids have no Willpower."
    assert "Dark Side" in rows["dsp.base"].locked
    assert rows["stat.body"].locked == ""


def test_wound_boxes_are_choices_keyed_from_zero():
    rows = rows_by_key(ore.demo_sheet())
    box = rows["wound.left_arm.0"]
    assert (box.kind, box.value, box.shown, box.label) == (
        RowKind.CHOICE,
        "shock",
        "/",
        "Left Arm box 1",
    )
    assert [value for value, _label in box.choices] == ["empty", "shock", "killing"]
    assert "wound.torso.5" in rows and "wound.torso.6" not in rows


def test_gear_and_award_rows_edit_their_own_fields():
    sheet = ore.apply_edit(ore.demo_sheet(), "xp.0.amount", "4", {})
    sheet = ore.apply_edit(sheet, "xp.0.note", "A long session", {})
    assert sheet["xp_awards"] == [{"amount": 4, "note": "A long session"}]
    rows = rows_by_key(sheet)
    assert rows["armor.0.coordination"].maximum == 10
    assert rows["armor.0.worn"].kind is RowKind.FLAG and rows["armor.0.worn"].shown == "no"
    assert rows["weapon.0.name"].value == "Lightsaber"


def test_a_labelled_trait_names_the_thing_in_plain_words():
    assert ore.trait_label("stat.body") == "Body"
    assert ore.trait_label("skill.lore_jedi_lore") == "Lore jedi lore"
    assert ore.trait_label("skill.blaster.stat") == "Blaster: stat"
    assert ore.trait_label("power.force_sense.hard") == "Force Sense hard dice"
    assert ore.trait_label("stunt.healing.approved") == "Healing: the GM's permission"
    assert ore.trait_label("wound.torso.0") == "Torso box 1"
    assert ore.trait_label("weapon.2.damage") == "Weapon 3: Damage"
    assert ore.trait_label("xp.0.amount") == "Experience award 1: XP"
    assert ore.trait_label("stage") == "Stage"
    assert ore.trait_label("wound.torso.²") == "wound.torso.²"


# --- row numbers in messages --------------------------------------------------------------


@pytest.mark.parametrize(
    ("trait", "message"),
    [
        ("wound.torso.²", "“²” does not name a torso wound box row"),
        ("weapon.².name", "“²” does not name a weapon row"),
        ("xp.².remove", "“²” does not name a experience award row"),
        ("armor.².worn", "“²” does not name a armor row"),
        ("ability.².level", "“²” does not name a ability row"),
        ("wound.torso.-1", "“-1” does not name a torso wound box row"),
    ],
)
def test_a_row_index_that_is_not_plain_digits_is_refused_with_a_message(trait, message):
    with pytest.raises(InvalidEdit, match=message) as refused:
        ore.apply_edit(ore.demo_sheet(), trait, "1", {})
    assert refused.value.trait == trait


@pytest.mark.parametrize(
    ("trait", "message"),
    [
        ("wound.torso.6", "There is no torso wound box number 7 on this sheet."),
        ("weapon.2.name", "There is no weapon number 3 on this sheet."),
        ("armor.1.worn", "There is no armor number 2 on this sheet."),
        ("xp.1.remove", "There is no experience award number 2 on this sheet."),
        ("ability.0.level", "There is no ability number 1 on this sheet."),
    ],
)
def test_messages_count_rows_from_one(trait, message):
    with pytest.raises(InvalidEdit) as refused:
        ore.apply_edit(ore.demo_sheet(), trait, "1", {})
    assert refused.value.message == message


def test_no_player_facing_message_carries_a_seed_line():
    sheet = build(("character_points", "5"), ("stat.body", "3"), ("stunt.fear", "1"))
    messages = [v.message for v in ore.check(sheet, {}).violations]
    messages += [row.next_cost.explanation for row in ore.trait_rows(sheet, {}) if row.next_cost]
    for trait, raw in (("stat.body", "9"), ("stunt.fear.hard", "1"), ("skill.x", "1")):
        with pytest.raises(InvalidEdit) as refused:
            ore.apply_edit(sheet, trait, raw, {})
        messages.append(refused.value.message)
    assert messages and not [m for m in messages if "(L" in m or "§" in m]
