"""The WEG d6 sheet: its declared shape, a blank sheet, and the normal form of an import.

`SCHEMA` (the pydantic models below) is the documentation of a stored sheet. Every die
code in it is a whole number of pips (3 pips = 1D, 003:97): 14 is 4D+2. The trait keys an
edit takes are listed in edits.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BeforeValidator, ConfigDict, Field, WithJsonSchema
from pydantic_core import PydanticCustomError

from rulesets.core import InvalidSheet, resolve_settings
from rulesets.core.compendium import PickedFrom, carried_lines, picked_list
from rulesets.core.rows import Stage
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
from rulesets.weg_d6.data import (
    ATTRIBUTE_SLUGS,
    DESCRIPTION_LIMIT,
    EDITION_RE,
    EDITIONS,
    EQUIPMENT_TEXT_LIMIT,
    FORCE_SKILL_SLUGS,
    KINDS,
    LOWEST_ATTRIBUTE_PIPS,
    MAX_CODE_PIPS,
    MAX_CREDITS,
    MAX_CUSTOM_POWERS,
    MAX_CUSTOM_SKILLS,
    MAX_EQUIPMENT,
    MAX_FEATURES,
    MAX_INTERVAL,
    MAX_MOVE,
    MAX_POINTS,
    MAX_POWER_PICKS,
    MAX_POWERS,
    MAX_SPECIALIZATIONS,
    MAX_WEAPONS,
    NAME_LIMIT,
    PHYSICAL_LIMIT,
    POWER_BY_SLUG,
    QUOTE_LIMIT,
    ROLES,
    SKILL_BY_SLUG,
    SKILLS,
    SPECIES_BY_SLUG,
    SPECIES_CHOICES,
    WEAPON_TEXT_LIMITS,
    WOUND_LEVELS,
    WOUND_SLUGS_BY_EDITION,
)
from rulesets.weg_d6.settings import SETTINGS
from rulesets.weg_d6.traits import slugify
from rulesets.weg_d6.wounds import MOST_SCENE_ROUND, MOST_STUN_ENTRIES, MOST_STUNS_A_RESULT

SCHEMA_VERSION = 4

HUMAN = SPECIES_BY_SLUG["human"]

Code = whole(0, MAX_CODE_PIPS)
AttributeCode = whole(LOWEST_ATTRIBUTE_PIPS, MAX_CODE_PIPS)
Move = whole(0, MAX_MOVE)
PointCount = whole(0, MAX_POINTS)
Features = whole(0, MAX_FEATURES)
Version = whole(SCHEMA_VERSION, SCHEMA_VERSION)
Name = text(NAME_LIMIT)
Description = text(DESCRIPTION_LIMIT, lines=True)
TraitKey = text(2 * NAME_LIMIT)
Flag = flag()
ForceSkill = one_of(FORCE_SKILL_SLUGS)
AttributeSlug = one_of(ATTRIBUTE_SLUGS)
StageName = one_of(Stage)
Edition = one_of(slug for slug, _label in EDITIONS)
Kind = one_of(slug for slug, _label in KINDS)
Role = one_of(slug for slug, _label in ROLES)
SpeciesSlug = one_of(slug for slug, _label in SPECIES_CHOICES)
WoundLevel = one_of(w.slug for w in WOUND_LEVELS)
ForceSkills = rows(ForceSkill, most=len(FORCE_SKILL_SLUGS))
PowerPicks = rows(ForceSkill, most=MAX_POWER_PICKS)


def _plain_key(value: Any) -> Any:
    if type(value) is not str or not value or slugify(value) != value:
        raise PydanticCustomError("plain_key", "expected a plain lower-case key like first_aid")
    return value


# The keys of skills, specializations and powers: what slugify makes of a name.
Key = Annotated[
    str, BeforeValidator(_plain_key), WithJsonSchema({"type": "string", "minLength": 1})
]


class AttributeCodes(SheetModel):
    """A code for each of the six attributes, 0D or more (a species' limits, a template)."""

    dexterity: Code = 6
    knowledge: Code = 6
    mechanical: Code = 6
    perception: Code = 6
    strength: Code = 6
    technical: Code = 6


class Attributes(SheetModel):
    """The six attributes of every stat block (003:2350), each at least 1D."""

    dexterity: AttributeCode = HUMAN.minimum["dexterity"]
    knowledge: AttributeCode = HUMAN.minimum["knowledge"]
    mechanical: AttributeCode = HUMAN.minimum["mechanical"]
    perception: AttributeCode = HUMAN.minimum["perception"]
    strength: AttributeCode = HUMAN.minimum["strength"]
    technical: AttributeCode = HUMAN.minimum["technical"]


class Info(SheetModel):
    # The character's name is kept once, on the character, not in the sheet.
    player: Name = ""
    template: Name = ""
    description: Description = ""
    # The classic template's physical description and quote (version 2).
    physical: text(PHYSICAL_LIMIT, lines=True) = ""
    quote: text(QUOTE_LIMIT) = ""
    # The compendium template the sheet was started from, if any (issue 26).
    compendium: PickedFrom = None


class CustomSpecies(SheetModel):
    """The GM's own species, used when `species` is "custom"."""

    name: Name = ""
    minimum: AttributeCodes = Field(default_factory=lambda: AttributeCodes(**HUMAN.minimum))
    maximum: AttributeCodes = Field(default_factory=lambda: AttributeCodes(**HUMAN.maximum))
    move: Move = HUMAN.move
    move_max: Move = HUMAN.move_max
    # The compendium species these limits were copied from, if any (issue 26), and what it
    # says in words: shown on the sheet and the PDF, never counted.
    compendium: PickedFrom = None
    special_abilities: carried_lines() = []  # type: ignore[valid-type]
    story_factors: carried_lines() = []  # type: ignore[valid-type]


class CustomSkill(SheetModel):
    name: Name
    attribute: AttributeSlug
    advanced: Flag = False
    prerequisite: Key | None = None
    compendium: PickedFrom = None


class Specialization(SheetModel):
    """R&E only: a skill of its own once chosen (002:37)."""

    name: Name
    skill: Key
    pips: Code
    compendium: PickedFrom = None


class CustomPower(SheetModel):
    name: Name
    skills: ForceSkills
    compendium: PickedFrom = None


class Force(SheetModel):
    # R&E: Force-sensitive (002:794). 1E: a Force template or a master's training (003:1758).
    sensitive: Flag = False
    control: Code = 0
    sense: Code = 0
    alter: Code = 0
    powers: rows(Key, most=MAX_POWERS) = []
    custom_powers: Annotated[dict[Key, CustomPower], Field(max_length=MAX_CUSTOM_POWERS)] = {}
    # R&E: each pip a Force skill rose owes a power the teacher picks (002:800).
    power_picks: PowerPicks = []
    # R&E: the picks each power learned with them used up, so dropping the power gives
    # them back (version 3).
    power_picks_spent: Annotated[dict[Key, ForceSkills], Field(max_length=MAX_POWERS)] = {}


class Points(SheetModel):
    character: PointCount = 0
    force: PointCount = 0
    dark_side: PointCount = 0


class DarkSideState(SheetModel):
    """This adventure's calls on the Dark Side (each raises the next difficulty by 3,
    003:1702) and whether a point was atoned (its Force Point returns at the end, 003:1730)."""

    calls: whole(0, 60) = 0
    atoned: Flag = False


class Teacher(SheetModel):
    """The teacher or master the character trains with, and the teacher's codes (1E)."""

    present: Flag = False
    control: Code = 0
    sense: Code = 0
    alter: Code = 0


class Raise(SheetModel):
    """One paid raise since the last adventure (the one-pip window, 002:39)."""

    model_config = ConfigDict(serialize_by_alias=True)

    trait: TraitKey
    start: Code = Field(alias="from")
    to: Code
    cost: PointCount = 0


class Item(SheetModel):
    name: Name
    features: Features = 0


class Weapon(SheetModel):
    """A line of the template's weapons box: damage as the books write it (4D, STR+1D)."""

    name: Name
    damage: text(WEAPON_TEXT_LIMITS["damage"]) = ""
    range: text(WEAPON_TEXT_LIMITS["range"]) = ""
    ammo: text(WEAPON_TEXT_LIMITS["ammo"]) = ""
    compendium: PickedFrom = None
    # The damage before its first improvement (1E, 003:1064: the technology roll counts the
    # pips added to it); absent on a weapon never improved.
    stock: Annotated[
        str | None, Field(max_length=WEAPON_TEXT_LIMITS["damage"], exclude_if=lambda v: v is None)
    ] = None


class Gear(SheetModel):
    """What a character carries besides weapons, and the credits in hand."""

    credits: whole(0, MAX_CREDITS) = 0
    equipment: text(EQUIPMENT_TEXT_LIMIT, lines=True) = ""
    # The compendium entries (equipment, armor) whose lines were added to `equipment`.
    compendium: picked_list(MAX_EQUIPMENT) = []


class Droid(SheetModel):
    """Droid building dice (003:929-947): speed and armor codes, equipment."""

    speed: Code = 0
    armor: Code = 0
    equipment: rows(Item, most=MAX_EQUIPMENT) = []


class Stun(SheetModel):
    """A 1E stun result the character took (003:433-436), kept while it counts: the scene
    and round it came in (none outside a running scene). What it does now is derived
    (rulesets/weg_d6/wounds.py stuns_now)."""

    stuns: whole(0, MOST_STUNS_A_RESULT) = 1
    # This result knocked the character out (003:436, 003:448): out until the stun is over.
    unconscious: Flag = False
    scene: whole(1, MOST_SCENE_ROUND) | None = None
    round: whole(1, MOST_SCENE_ROUND) | None = None
    # Back for one round at "1 Stun" by remain conscious (003:1855).
    woke: Flag = False


class WegSheet(SheetModel):
    """A West End Games d6 character or droid, 1st edition or R&E."""

    schema_version: Version = SCHEMA_VERSION
    stage: StageName = Stage.CREATION.value
    edition: Edition = EDITION_RE
    kind: Kind = "character"
    role: Role = "pc"
    info: Info = Field(default_factory=Info)
    species: SpeciesSlug = HUMAN.slug
    custom_species: CustomSpecies = Field(default_factory=CustomSpecies)
    # A 1E alien PC: the template plus 6D, at least 1D to each attribute (003:911).
    alien_template: AttributeCodes | None = None
    attributes: Attributes = Field(default_factory=Attributes)
    move: Move = HUMAN.move
    # Full codes of trained skills, by catalog key or custom skill key.
    skills: Annotated[dict[Key, Code], Field(max_length=len(SKILLS) + MAX_CUSTOM_SKILLS)] = {}
    custom_skills: Annotated[dict[Key, CustomSkill], Field(max_length=MAX_CUSTOM_SKILLS)] = {}
    specializations: Annotated[
        dict[Key, Specialization], Field(max_length=MAX_SPECIALIZATIONS)
    ] = {}
    force: Force = Field(default_factory=Force)
    points: Points = Field(default_factory=Points)
    teacher: Teacher = Field(default_factory=Teacher)
    interval: rows(Raise, most=MAX_INTERVAL) = []
    wound: WoundLevel = "healthy"
    # 1E stun results still counting (version 4); empty in R&E, whose chart has none.
    stuns: rows(Stun, most=MOST_STUN_ENTRIES) = []
    droid: Droid = Field(default_factory=Droid)
    weapons: rows(Weapon, most=MAX_WEAPONS) = []
    gear: Gear = Field(default_factory=Gear)
    # Absent until the character calls on the Dark Side or atones; gone when the adventure ends.
    dark_side: Annotated[DarkSideState | None, Field(exclude_if=lambda value: value is None)] = None


SCHEMA = WegSheet


def _from_unversioned(sheet: dict) -> dict:
    """Upgrade a sheet stored before schema versions: the same shape, without a version.

    The stage was already a top-level key; `upgrade_sheet` adds `schema_version`.
    """
    return dict(sheet)


def _add_gear(sheet: dict) -> dict:
    """Version 1 -> 2: weapons, gear and credits, a physical description and a quote.

    A 1E sheet's Force-sensitive mark already stood for a Force template or a master's
    training (003:1758); it keeps that meaning, so nothing else moves.
    """
    upgraded = dict(sheet)
    info = upgraded.get("info")
    if isinstance(info, Mapping):  # anything else is refused by validation, as before
        upgraded["info"] = {"physical": "", "quote": "", **info}
    upgraded.setdefault("weapons", [])
    upgraded.setdefault("gear", {"credits": 0, "equipment": ""})
    return upgraded


def _add_power_picks_spent(sheet: dict) -> dict:
    """Version 2 -> 3: the picks each Force power used up, none on a sheet of before.

    Which picks an earlier power took was not kept, so dropping it gives none back.
    """
    upgraded = dict(sheet)
    force = upgraded.get("force")
    if isinstance(force, Mapping):  # anything else is refused by validation, as before
        upgraded["force"] = {"power_picks_spent": {}, **force}
    return upgraded


def _add_stuns(sheet: dict) -> dict:
    """Version 3 -> 4: the stun results a 1E sheet keeps, none before.

    A sheet stunned before kept only the Stunned level, which still takes its 1D off."""
    upgraded = dict(sheet)
    upgraded.setdefault("stuns", [])
    return upgraded


MIGRATIONS = {0: _from_unversioned, 1: _add_gear, 2: _add_power_picks_spent, 3: _add_stuns}


def blank_sheet(settings: Mapping[str, Any]) -> dict:
    """Return a new human character at the species minimum, nothing spent."""
    chosen = resolve_settings(SETTINGS, settings)
    sheet = WegSheet().model_dump(mode="json")
    sheet["edition"] = chosen["default_edition"]
    sheet["points"].update(
        character=chosen["starting_character_points"], force=chosen["starting_force_points"]
    )
    return sheet


def validate_sheet(data: Any) -> dict:
    """Return the normal form of a stored or imported sheet, or raise InvalidSheet."""
    if not isinstance(data, Mapping):
        raise InvalidSheet("the sheet must be a JSON object.")
    upgraded = upgrade_sheet(data, current=SCHEMA_VERSION, migrations=MIGRATIONS)
    sheet = validate_with(WegSheet, upgraded)
    faults = _cross_field_faults(sheet)
    if faults:
        raise InvalidSheet("; ".join(faults[:5]))
    return sheet


def _cross_field_faults(sheet: dict) -> list[str]:
    """Name what the types alone cannot: keys that must refer to something on the sheet."""
    faults = []
    custom_skills = sheet["custom_skills"]
    known_skills = SKILL_BY_SLUG.keys() | custom_skills.keys()
    for slug in sheet["skills"]:
        if slug not in known_skills:
            faults.append(f"skills.{slug}: is neither a catalog skill nor a custom skill")
    for slug, entry in custom_skills.items():
        if slug in SKILL_BY_SLUG:
            faults.append(f"custom_skills.{slug}: has the key of a catalog skill")
        prerequisite = entry["prerequisite"]
        if prerequisite is not None and prerequisite not in known_skills:
            faults.append(f"custom_skills.{slug}.prerequisite: “{prerequisite}” is not a skill")
    for slug, entry in sheet["specializations"].items():
        if entry["skill"] not in known_skills:
            faults.append(f"specializations.{slug}.skill: “{entry['skill']}” is not a skill")
    force = sheet["force"]
    for slug, entry in force["custom_powers"].items():
        if slug in POWER_BY_SLUG:
            faults.append(f"force.custom_powers.{slug}: has the key of a catalog power")
        if not entry["skills"] or len(set(entry["skills"])) != len(entry["skills"]):
            faults.append(f"force.custom_powers.{slug}.skills: list each Force skill once")
    for index, slug in enumerate(force["powers"]):
        if slug not in POWER_BY_SLUG and slug not in force["custom_powers"]:
            faults.append(f"force.powers.{index}: “{slug}” is not a Force power")
    if len(set(force["powers"])) != len(force["powers"]):
        faults.append("force.powers: a power is listed twice")
    for slug in force["power_picks_spent"]:
        if slug not in force["powers"]:
            faults.append(f"force.power_picks_spent.{slug}: “{slug}” is not a learned power")
    limits = sheet["custom_species"]
    for slug in ATTRIBUTE_SLUGS:
        if limits["minimum"][slug] > limits["maximum"][slug]:
            faults.append(f"custom_species.minimum.{slug}: is above the maximum")
    if sheet["wound"] not in WOUND_SLUGS_BY_EDITION[sheet["edition"]]:
        faults.append(f"wound: “{sheet['wound']}” is not a wound level of this edition")
    for index, entry in enumerate(sheet["interval"]):
        if entry["to"] < entry["from"]:
            faults.append(f"interval.{index}: goes down; the list only records raises")
    return faults
