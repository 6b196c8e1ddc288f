"""The 1o3d10 sheet's shape, declared once: SCHEMA gives blank sheets, validation and the
JSON Schema of the character file.

Derived values (health state, pools, Defense, odds) are computed by rules.derived and never
stored. Bounds here are the hard ones no campaign setting may cross; the campaign's own
limits are checked by rules.check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from rulesets.core import InvalidSheet, Stage, resolve_settings
from rulesets.core.compendium import PickedFrom, picked_list
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
from rulesets.o3d10 import data as catalog
from rulesets.o3d10.data import SETTINGS
from rulesets.o3d10.edits import RESERVED_SKILL_SLUGS, apply_edit, normal_damage, slugify
from rulesets.o3d10.rules import KEY, max_hp

SCHEMA_VERSION = 1

Stat = whole(0, catalog.HARD_STAT_MAX)
Rank = whole(0, catalog.HARD_SKILL_MAX)
Day = whole(1, catalog.HARD_DAY_MAX)


def _damage_code(value: Any) -> Any:
    if type(value) is not str or len(value) > 20:
        raise PydanticCustomError("damage", "expected a damage code like 1d8 or 2d6+1")
    try:
        return normal_damage(value)
    except ValueError:
        raise PydanticCustomError("damage", "expected a damage code like 1d8 or 2d6+1") from None


DamageCode = Annotated[
    str,
    BeforeValidator(_damage_code),
    WithJsonSchema({"type": "string", "pattern": r"^\s*\d{1,2}\s*[dD]\s*\d{1,3}"}),
]


class Info(SheetModel):
    player: text(catalog.MAX_TEXT) = ""
    species: text(catalog.MAX_TEXT) = ""
    notes: text(catalog.MAX_NOTES, lines=True) = ""
    # The compendium entries (Force techniques) whose lines were added to `notes`.
    compendium: picked_list(catalog.MAX_ROWS) = []


class Stats(SheetModel):
    strength: Stat = 1
    dexterity: Stat = 1
    intelligence: Stat = 1
    perception: Stat = 1


class Skills(SheetModel):
    melee_weapons: Rank = 0
    ranged_weapons: Rank = 0
    dodge: Rank = 0
    reflexes: Rank = 0
    medicine: Rank = 0
    force_jump: Rank = 0
    physical_school: Rank = 0
    alteration_school: Rank = 0
    organic_school: Rank = 0


class CustomSkill(SheetModel):
    # The slug is the name in lower case with "_" between words ("Pilot (ships)" ->
    # "pilot_ships"); it is the skill's trait key, so validate_sheet checks it.
    slug: text(catalog.MAX_TEXT)
    name: text(catalog.MAX_TEXT)
    stat: one_of(["", *catalog.STAT_BY_SLUG])
    rank: Rank


class Base(SheetModel):
    """The stats and skills bought at creation, frozen when creation ends."""

    stats: Stats
    # Every standard skill, plus the custom skills the character had then.
    skills: dict[text(catalog.MAX_TEXT), Rank]


class Luck(SheetModel):
    day: Day = 1
    last_used_day: Day | None = None
    uses_that_day: whole(0, 100) = 0


class Weapon(SheetModel):
    name: text(catalog.MAX_TEXT)
    kind: one_of(catalog.WEAPON_KINDS)
    damage: DamageCode
    notes: text(catalog.MAX_TEXT) = ""
    compendium: PickedFrom = None


class Armor(SheetModel):
    name: text(catalog.MAX_TEXT)
    absorption: whole(0, catalog.MAX_ABSORPTION)
    worn: flag() = True
    compendium: PickedFrom = None


class Sheet1o3d10(SheetModel):
    """A 1o3d10 character sheet."""

    schema_version: whole(SCHEMA_VERSION, SCHEMA_VERSION) = SCHEMA_VERSION
    stage: one_of(Stage) = Stage.CREATION.value
    info: Info = Field(default_factory=Info)
    stats: Stats = Field(default_factory=Stats)
    skills: Skills = Field(default_factory=Skills)
    custom_skills: rows(CustomSkill, most=catalog.MAX_CUSTOM_SKILLS) = Field(default_factory=list)
    # Null in creation; the creation values once the character is in play.
    base: Base | None = None
    # Set by the GM (digest §3 force_sensitive); it opens the Force skills.
    force_sensitive: flag() = False
    hp: whole(catalog.HARD_HP_MIN, catalog.HARD_HP_MAX) = 12
    # Means something only while unconscious (L49-L51).
    stabilised: flag() = False
    defense_bonus: whole(catalog.DEFENSE_BONUS_MIN, catalog.DEFENSE_BONUS_MAX) = 0
    luck: Luck = Field(default_factory=Luck)
    xp_earned: whole(0, catalog.HARD_XP_MAX) = 0
    weapons: rows(Weapon, most=catalog.MAX_ROWS) = Field(default_factory=list)
    armor: rows(Armor, most=catalog.MAX_ROWS) = Field(default_factory=list)


SCHEMA = Sheet1o3d10


def _upgrade_unversioned(sheet: dict) -> dict:
    """Upgrade a sheet stored before schema versions (version 0) to version 1.

    Version 0 named its system inside the sheet ("system": "o3d10"); the character and the
    character file already say it, so version 1 drops the key. Version 0 imports could
    leave out whole sections and info fields, which took the blank sheet's values; the
    upgrade fills them in the same way, so a stored sheet is complete once upgraded.
    """
    upgraded = dict(sheet)
    system = upgraded.pop("system", KEY)
    if system != KEY:
        raise InvalidSheet(f"system: this sheet belongs to “{system}”, not 1o3d10.")
    blank = SCHEMA().model_dump(mode="json", exclude={"schema_version"})
    if isinstance(upgraded.get("info"), Mapping):
        upgraded["info"] = blank["info"] | dict(upgraded["info"])
    return blank | upgraded


MIGRATIONS = {0: _upgrade_unversioned}


def blank_sheet(settings: Mapping[str, Any]) -> dict:
    """Make a new character in the creation stage, every stat at the lowest value."""
    settings = resolve_settings(SETTINGS, settings)
    sheet = SCHEMA().model_dump(mode="json")
    sheet["stats"] = {stat.slug: settings["stat_min"] for stat in catalog.STATS}
    sheet["hp"] = max_hp(settings["stat_min"], settings)
    return sheet


def validate_sheet(data: Any) -> dict:
    """Return the normal form of a stored or imported sheet, or raise InvalidSheet naming
    every field at fault."""
    if not isinstance(data, Mapping):
        raise InvalidSheet("the sheet must be a JSON object.")
    upgraded = upgrade_sheet(data, current=SCHEMA_VERSION, migrations=MIGRATIONS)
    sheet = validate_with(SCHEMA, upgraded)
    faults = [*_custom_skill_faults(sheet), *_base_faults(sheet), *_luck_faults(sheet["luck"])]
    if faults:
        raise InvalidSheet("; ".join(faults))
    return sheet


def _custom_skill_faults(sheet: Mapping[str, Any]) -> list[str]:
    faults, seen = [], set()
    for number, row in enumerate(sheet["custom_skills"]):
        where, slug = f"custom_skills.{number}", row["slug"]
        if not slug or slug != slugify(row["name"]):
            faults.append(f"{where}.slug: expected “{slugify(row['name'])}” for “{row['name']}”")
        elif slug in catalog.SKILL_BY_SLUG or slug in RESERVED_SKILL_SLUGS or slug in seen:
            faults.append(f"{where}.name: the skill name “{row['name']}” is already taken")
        seen.add(slug)
    return faults


def _base_faults(sheet: Mapping[str, Any]) -> list[str]:
    base = sheet["base"]
    if sheet["stage"] == Stage.CREATION:
        return [] if base is None else ["base: expected null while the character is in creation"]
    if base is None:
        return ["base: expected the creation values once the character is in play"]
    known = set(catalog.SKILL_BY_SLUG) | {row["slug"] for row in sheet["custom_skills"]}
    faults = [
        f"base.skills.{slug}: is not a skill of this character"
        for slug in sorted(set(base["skills"]) - known)
    ]
    faults += [
        f"base.skills.{slug}: is missing"
        for slug in catalog.SKILL_BY_SLUG
        if slug not in base["skills"]
    ]
    return faults


def _luck_faults(luck: Mapping[str, Any]) -> list[str]:
    last = luck["last_used_day"]
    if last is None:
        return (
            ["luck.uses_that_day: expected 0 when Luck was never used"]
            if luck["uses_that_day"]
            else []
        )
    if last > luck["day"]:
        return ["luck.last_used_day: expected a day no later than luck.day"]
    return []


def demo_sheet() -> dict:
    """Build Kira Vant, a Force-sensitive scout in play: legal under the default settings."""
    settings = resolve_settings(SETTINGS, {})
    sheet = blank_sheet(settings)
    edits = [
        ("info.player", "Demo player"),
        ("info.species", "Human"),
        ("info.notes", "Academy dropout who still practises the Physical School."),
        ("force.sensitive", "yes"),
        ("stat.strength", "6"),
        ("stat.dexterity", "7"),
        ("stat.intelligence", "5"),
        ("stat.perception", "6"),
        ("skill.melee_weapons", "3"),
        ("skill.ranged_weapons", "4"),
        ("skill.dodge", "4"),
        ("skill.reflexes", "3"),
        ("skill.medicine", "2"),
        ("skill.add", "Pilot|dexterity"),
        ("skill.pilot", "2"),
        ("skill.physical_school", "2"),
        ("weapon.add", "blaster_pistol"),
        ("weapon.add", "Vibroknife|melee|1d6+1"),
        ("armor.add", "light"),
        ("stage", "play"),
        ("xp.earned", "12"),
        ("skill.dodge", "5"),
        ("skill.physical_school", "3"),
        ("skill.force_jump", "1"),
        ("hp.damage", "19"),
        ("luck.new_day", ""),
        ("luck.use", ""),
    ]
    for trait, raw in edits:
        sheet = apply_edit(sheet, trait, raw, settings)
    return sheet
