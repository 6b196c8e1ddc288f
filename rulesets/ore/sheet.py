"""The shape of a Star O.R.E. sheet, declared once as the schema SCHEMA (`OreSheet`).

A blank sheet, the validation of a stored or imported one and the published JSON Schema
all come from these models; derived values (pools, Willpower, wound states) are never
stored. Older shapes are upgraded through MIGRATIONS.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import ConfigDict, Field

from rulesets.core import InvalidSheet, resolve_settings
from rulesets.core.compendium import PickedFrom
from rulesets.core.schema import (
    SheetModel,
    flag,
    one_of,
    rows,
    text,
    upgrade_sheet,
    validate_with,
    whole,
)
from rulesets.core.stage import STAGE_TRAIT
from rulesets.ore.data import (
    ABILITIES,
    ABILITY_BY_SLUG,
    ABILITY_MAXIMUM_LEVEL,
    ABILITY_ROWS,
    ALL_LOCATIONS,
    ARMOR_COORDINATION_MAXIMUM,
    ARMOR_ROWS,
    ARMORS,
    BOX_STATES,
    CUSTOM_SPECIES,
    GEAR_NUMBER_MAXIMUM,
    HIT_LOCATIONS,
    LIGHTSABER_FORMS,
    LOCATION_BY_SLUG,
    MAX_POINTS,
    POWER_BY_SLUG,
    POWER_MAXIMUM_DICE,
    ROW_TEXT_LENGTH,
    SETTINGS,
    SKILL_MAXIMUM,
    SKILL_ROWS,
    SKILLS,
    SPECIAL_TEXT_LENGTH,
    SPECIES,
    STARTING_LANGUAGE_DICE,
    STAT_CEILING,
    STAT_MINIMUM,
    STATS,
    STUNT_MAXIMUM_DICE,
    STUNTS,
    TEXT_MAX_LENGTH,
    WEAPON_ROWS,
    WEAPONS,
    WILLPOWER_BOUGHT_MAXIMUM,
    WOUND_BOX_MOST,
    XP_AWARD_ROWS,
)
from rulesets.ore.edits import RESERVED_SKILL_IDS, apply_edit
from rulesets.ore.rules import fit_wounds, starting_skills, wound_box_count

SCHEMA_VERSION = 1
STAGES = ("creation", "play")
SKILL_ID = r"^[a-z0-9_]+$"


def _blank_or(slugs: Any) -> Any:
    # Rows picked from a catalog remember where they came from; typed-in rows say "".
    return one_of(("", *slugs))


def _info_text() -> Any:
    # Edits keep one line for most fields, several for Appearance and Motivations; a stored
    # sheet from before that distinction may hold line breaks anywhere.
    return text(TEXT_MAX_LENGTH, lines=True)


class Info(SheetModel):
    player: _info_text() = ""
    gender: _info_text() = ""
    career: _info_text() = ""
    age: _info_text() = ""
    height: _info_text() = ""
    weight: _info_text() = ""
    eyes: _info_text() = ""
    hair: _info_text() = ""
    skin: _info_text() = ""
    appearance: _info_text() = ""
    motivations: _info_text() = ""


class XpAward(SheetModel):
    amount: whole(1, MAX_POINTS)
    note: text(SPECIAL_TEXT_LENGTH)


def _stat() -> Any:
    return whole(STAT_MINIMUM, STAT_CEILING)


class Stats(SheetModel):
    body: _stat() = STAT_MINIMUM
    coordination: _stat() = STAT_MINIMUM
    sense: _stat() = STAT_MINIMUM
    brains: _stat() = STAT_MINIMUM
    command: _stat() = STAT_MINIMUM
    cool: _stat() = STAT_MINIMUM


class SkillEntry(SheetModel):
    id: Annotated[text(ROW_TEXT_LENGTH), Field(pattern=SKILL_ID)]
    skill: _blank_or(skill.slug for skill in SKILLS)
    name: text(ROW_TEXT_LENGTH)
    specialty: text(ROW_TEXT_LENGTH)
    stat: one_of(stat.slug for stat in STATS)
    dice: whole(0, SKILL_MAXIMUM)
    free: whole(0, STARTING_LANGUAGE_DICE)


class Power(SheetModel):
    dice: whole(0, POWER_MAXIMUM_DICE) = 0
    hard: whole(0, POWER_MAXIMUM_DICE) = 0
    wiggle: whole(0, POWER_MAXIMUM_DICE) = 0
    # The GM's permission (L774); Force Sense needs none.
    approved: flag() = False


class Powers(SheetModel):
    force_sense: Power = Field(
        default_factory=lambda: Power(dice=POWER_BY_SLUG["force_sense"].free_dice)
    )
    energy_manipulation: Power = Field(default_factory=Power)
    physical_control: Power = Field(default_factory=Power)
    mental_influence: Power = Field(default_factory=Power)


class Stunt(SheetModel):
    dice: whole(1, STUNT_MAXIMUM_DICE)
    approved: flag()


class Willpower(SheetModel):
    bought: whole(0, WILLPOWER_BOUGHT_MAXIMUM) = 0
    extra: whole(0, WILLPOWER_BOUGHT_MAXIMUM) = 0
    # Current Willpower is base + extra + adjustment; play moves only the adjustment.
    adjustment: whole(-MAX_POINTS, MAX_POINTS) = 0


class DarkSide(SheetModel):
    base: whole(0, MAX_POINTS) = 0
    current: whole(0, MAX_POINTS) = 0


class AbilityEntry(SheetModel):
    ability: one_of(ability.slug for ability in ABILITIES)
    # A stat slug or a skill id for abilities that apply to one, else "".
    target: text(ROW_TEXT_LENGTH)
    level: whole(1, ABILITY_MAXIMUM_LEVEL)


class CustomSpecies(SheetModel):
    """A species picked from the compendium: the sheet's own copy of what the rules read
    of a species (cost, stat maxima, natural AR, wound boxes), used when `species` is
    "custom"."""

    name: text(ROW_TEXT_LENGTH)
    cost: whole(0, MAX_POINTS)
    stat_max_bonus: dict[one_of(stat.slug for stat in STATS), whole(-STAT_CEILING, STAT_CEILING)]
    natural_ar: whole(0, GEAR_NUMBER_MAXIMUM) = 0
    extra_wound_boxes: whole(0, WOUND_BOX_MOST) = 0
    droid: flag() = False
    abilities: rows(text(SPECIAL_TEXT_LENGTH), most=ABILITY_ROWS) = Field(default_factory=list)
    compendium: PickedFrom = None


class ArmorEntry(SheetModel):
    model_config = ConfigDict(serialize_by_alias=True)

    from_: _blank_or(armor.slug for armor in ARMORS) = Field(alias="from")
    name: text(ROW_TEXT_LENGTH)
    ar: whole(0, GEAR_NUMBER_MAXIMUM)
    coordination: whole(0, ARMOR_COORDINATION_MAXIMUM)
    move: whole(0, GEAR_NUMBER_MAXIMUM)
    special: text(SPECIAL_TEXT_LENGTH)
    covers: rows(one_of(ALL_LOCATIONS), most=len(ALL_LOCATIONS))
    worn: flag()
    compendium: PickedFrom = None


class WeaponEntry(SheetModel):
    model_config = ConfigDict(serialize_by_alias=True)

    from_: _blank_or(weapon.slug for weapon in WEAPONS) = Field(alias="from")
    name: text(ROW_TEXT_LENGTH)
    damage: text(ROW_TEXT_LENGTH)
    penetration: whole(0, GEAR_NUMBER_MAXIMUM)
    initiative: whole(0, GEAR_NUMBER_MAXIMUM)
    special: text(SPECIAL_TEXT_LENGTH)
    compendium: PickedFrom = None


def _boxes(location: str) -> Any:
    count = LOCATION_BY_SLUG[location].boxes
    return Annotated[rows(one_of(BOX_STATES), most=WOUND_BOX_MOST), Field(default=[""] * count)]


class Wounds(SheetModel):
    """One entry per wound box: "" empty, "shock" (/) or "killing" (X, normal damage)."""

    right_leg: _boxes("right_leg")
    left_leg: _boxes("left_leg")
    right_arm: _boxes("right_arm")
    left_arm: _boxes("left_arm")
    torso: _boxes("torso")
    vitals: _boxes("vitals")
    head: _boxes("head")


class OreSheet(SheetModel):
    """A Star O.R.E. character sheet (the `sheet` member of a character file)."""

    schema_version: whole(SCHEMA_VERSION, SCHEMA_VERSION) = SCHEMA_VERSION
    stage: one_of(STAGES) = "creation"
    info: Info = Field(default_factory=Info)
    species: one_of((*(species.slug for species in SPECIES), CUSTOM_SPECIES)) = "human"
    # The compendium species the sheet uses when `species` is "custom" (issue 26).
    custom_species: Annotated[
        CustomSpecies | None, Field(exclude_if=lambda value: value is None)
    ] = None
    # The creation budget in CP, set by the GM (L772); blank_sheet fills in the setting.
    character_points: whole(0, MAX_POINTS) = 0
    # What creation cost when it ended: set exactly when the stage is play.
    creation_spent: whole(0, MAX_POINTS) | None = None
    xp_awards: rows(XpAward, most=XP_AWARD_ROWS) = Field(default_factory=list)
    stats: Stats = Field(default_factory=Stats)
    skills: rows(SkillEntry, most=SKILL_ROWS) = Field(
        default_factory=lambda: [SkillEntry(**row) for row in starting_skills()]
    )
    powers: Powers = Field(default_factory=Powers)
    stunts: dict[one_of(stunt.slug for stunt in STUNTS), Stunt] = Field(default_factory=dict)
    willpower: Willpower = Field(default_factory=Willpower)
    dark_side: DarkSide = Field(default_factory=DarkSide)
    abilities: rows(AbilityEntry, most=ABILITY_ROWS) = Field(default_factory=list)
    armor: rows(ArmorEntry, most=ARMOR_ROWS) = Field(default_factory=list)
    weapons: rows(WeaponEntry, most=WEAPON_ROWS) = Field(default_factory=list)
    wounds: Wounds = Field(default_factory=Wounds)
    lightsaber_form: _blank_or(form.slug for form in LIGHTSABER_FORMS) = ""


SCHEMA = OreSheet


def blank_sheet(settings: Mapping[str, Any]) -> dict:
    """Build a new human with the free starting package (L758-L766) and the GM's budget."""
    budget = resolve_settings(SETTINGS, settings)["creation_budget"]
    return OreSheet().model_dump(mode="json") | {"character_points": budget}


def validate_sheet(data: Any) -> dict:
    """Return the normal form of a stored or imported sheet, or raise InvalidSheet naming
    every field at fault."""
    if not isinstance(data, Mapping):
        raise InvalidSheet("the sheet must be a JSON object.")
    upgraded = upgrade_sheet(data, current=SCHEMA_VERSION, migrations=MIGRATIONS)
    sheet = validate_with(OreSheet, upgraded)
    faults = _cross_field_faults(sheet)
    if faults:
        raise InvalidSheet("; ".join(faults[:5]))
    return sheet


def _cross_field_faults(sheet: Mapping[str, Any]) -> list[str]:
    """What the schema's fields cannot say one at a time, so that no accepted sheet fails
    later: stage and creation spend agree, skill ids are unique, ability targets exist and
    every location has as many boxes as the species and abilities give it."""
    faults = []
    if sheet["species"] == CUSTOM_SPECIES and sheet.get("custom_species") is None:
        return ["custom_species: a sheet of its own species holds that species"]
    if (sheet["stage"] == "play") != (sheet["creation_spent"] is not None):
        faults.append("creation_spent: is set exactly when the stage is play")
    skills = sheet["skills"]
    ids = [row["id"] for row in skills]
    names = [row["name"].lower() for row in skills]
    if len(set(ids)) != len(ids) or len(set(names)) != len(names):
        faults.append("skills: two skills share an id or a name")
    for n, row in enumerate(skills):
        if row["id"] in RESERVED_SKILL_IDS:
            faults.append(f"skills.{n}.id: “{row['id']}” is reserved")
        if not row["name"].strip():
            faults.append(f"skills.{n}.name: a skill needs a name")
        if row["free"] and row["skill"] != "language":
            faults.append(f"skills.{n}.free: only the two starting languages come with free dice")
    if sum(1 for row in skills if row["free"]) > 2:
        faults.append("skills: only two starting languages come with free dice")
    taken = set()
    for n, row in enumerate(sheet["abilities"]):
        kind = ABILITY_BY_SLUG[row["ability"]].target
        target = row["target"]
        if kind == "stat" and target not in sheet["stats"]:
            faults.append(f"abilities.{n}.target: expected a stat")
        elif kind == "skill" and target not in ids:
            faults.append(f"abilities.{n}.target: no skill with this id on the sheet")
        elif not kind and target:
            faults.append(f"abilities.{n}.target: this ability applies to no stat or skill")
        if (row["ability"], target) in taken:
            faults.append(f"abilities.{n}: bought twice; raise the level of the first instead")
        taken.add((row["ability"], target))
    if not faults:
        for location in HIT_LOCATIONS:
            count = wound_box_count(sheet, location.boxes)
            found = len(sheet["wounds"][location.slug])
            if found != count:
                faults.append(f"wounds.{location.slug}: expected {count} boxes, found {found}")
    return faults


def _upgrade_unversioned(old: dict) -> dict:
    """Upgrade a sheet stored before schema versions: `phase` became the shared `stage`,
    and parts an older export lacks are filled from a blank sheet, as imports always were."""
    sheet = copy.deepcopy(old)
    if "phase" in sheet:
        sheet[STAGE_TRAIT] = sheet.pop("phase")
    blank = OreSheet().model_dump(mode="json")
    blank.pop("schema_version")
    for key, default in blank.items():
        if key not in sheet:
            sheet[key] = copy.deepcopy(default)
        elif isinstance(default, dict) and isinstance(sheet[key], dict) and key != "stunts":
            # A part written by an older version may lack a newer field (an info line).
            sheet[key] = copy.deepcopy(default) | sheet[key]
    if "wounds" not in old and isinstance(sheet["species"], str):
        # A broken species or ability row is left for the schema to name.
        with contextlib.suppress(KeyError, TypeError):
            fit_wounds(sheet)
    return sheet


MIGRATIONS = {0: _upgrade_unversioned}

# Each edit is (trait, raw value) exactly as a browser form would submit it. With the default
# settings (150 CP, wiggle die 5) creation spends exactly 150 CP; 2 of 3 XP go to Stealth.
DEMO_EDITS: tuple[tuple[str, str], ...] = (
    ("info.player", "Demo player"),
    ("info.gender", "Female"),
    ("info.career", "Jedi Knight"),
    ("info.age", "27"),
    ("info.height", "1.72 m"),
    ("info.weight", "61 kg"),
    ("info.eyes", "Grey"),
    ("info.hair", "Black"),
    ("info.skin", "Tan"),
    ("info.appearance", "Weathered robes, a hilt of dark alloy, a scar across one palm."),
    ("info.motivations", "Find her lost Padawan; keep the Outer Rim clinics open."),
    ("stat.body", "2d"),
    ("stat.coordination", "4d"),
    ("stat.sense", "3d"),
    ("stat.brains", "2d"),
    ("stat.command", "2d"),
    ("stat.cool", "3d"),
    ("skill.language_native.specialty", "Huttese"),
    ("skill.add", "Lightsaber"),
    ("skill.lightsaber", "3d"),
    ("skill.add", "Dodge"),
    ("skill.dodge", "2d"),
    ("skill.add", "Athletics"),
    ("skill.athletics", "1d"),
    ("skill.add", "Meditation"),
    ("skill.meditation", "2d"),
    ("skill.add", "Lore [Jedi lore]"),
    ("skill.lore_jedi_lore", "2d"),
    ("skill.add", "Pilot [Starfighter]"),
    ("skill.pilot_starfighter", "1d"),
    ("skill.add", "Sight"),
    ("skill.sight", "2d"),
    ("power.force_sense", "2d"),
    ("power.force_sense.hard", "1"),
    ("power.energy_manipulation", "2d"),
    ("power.energy_manipulation.approved", "yes"),
    ("power.physical_control", "2d"),
    ("power.physical_control.approved", "yes"),
    ("stunt.blaster_defense", "2d"),
    ("stunt.blaster_defense.approved", "yes"),
    ("stunt.force_jump", "1d"),
    ("stunt.force_jump.approved", "yes"),
    ("stunt.healing", "1d"),
    ("stunt.healing.approved", "yes"),
    ("power.mental_influence", "2d"),
    ("power.mental_influence.approved", "yes"),
    ("stunt.affect_mind", "1d"),
    ("stunt.affect_mind.approved", "yes"),
    ("skill.add", "Persuade"),
    ("skill.persuade", "1d"),
    ("skill.add", "Blaster"),
    ("skill.blaster", "2d"),
    ("willpower.bought", "3"),
    ("willpower.extra", "4"),
    ("lightsaber_form", "iii"),
    ("weapon.add", "lightsaber"),
    ("weapon.add", "Hold-out or decorative blaster"),
    ("armor.add", "Thick furs or leathers"),
    ("armor.0.worn", "no"),
    ("wound.left_arm.0", "cycle"),
    # Creation ends on exactly 150 CP; then one session of play and a first XP purchase.
    (STAGE_TRAIT, "play"),
    ("xp.award", "3|Session 1: held the clinic gate, and the plan to flood the hangar worked"),
    ("skill.add", "Stealth"),
    ("skill.stealth", "1d"),
)


def demo_sheet() -> dict:
    """Build Kael Varrin, a human Jedi Knight on 150 CP with a hard die and three stunts."""
    settings = resolve_settings(SETTINGS, {})
    sheet = blank_sheet(settings)
    for trait, raw in DEMO_EDITS:
        sheet = apply_edit(sheet, trait, raw, settings)
    return sheet
