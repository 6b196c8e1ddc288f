"""The SWd10 sheet's shape, declared once as SCHEMA: blank sheets, validation and the JSON
Schema of the character file all come from it. The character's name lives on the
character, not in the sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field, create_model

from rulesets.core import InvalidSheet, resolve_settings
from rulesets.core.compendium import PickedFrom
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
from rulesets.swd10.armor import (
    ARMOR,
    ARMOR_NAME_LIMIT,
    ARMOR_RATING_RANGE,
    KINDS,
    MAX_ARMOR_ROWS,
    RATING_RANGE,
    SHIELD_RATING_RANGE,
)
from rulesets.swd10.data import (
    ABILITIES,
    ABILITY_GROUPS,
    ATTRIBUTE_GROUPS,
    ATTRIBUTES,
    CREATION_POWER,
    CUSTOM_LORES,
    DEFAULT_WEAPON_DIFFICULTY,
    FORCE_ABILITIES,
    FORCE_ABILITY_BY_SLUG,
    FORCE_KNOWLEDGES,
    HERO_HEALTH,
    LANGUAGE_NAME_LIMIT,
    LORE_NAME_LIMIT,
    MAX_FLAW_POINTS,
    MAX_LANGUAGES,
    MAX_MERITS,
    MAX_POWER,
    MAX_SIDE,
    MAX_SWSE_LEVEL,
    MAX_TECHNIQUES,
    MAX_WEAPONS,
    MAX_WILLPOWER,
    MERIT_BY_SLUG,
    MERIT_CHOICE_LIMIT,
    MERITS,
    NUMBER_LIMITS,
    RATE_LIMIT,
    TECHNIQUE_KIND_LIMIT,
    WEAPON_DAMAGE_RANGE,
    WEAPON_DIFFICULTY_RANGE,
    WEAPON_NAME_LIMIT,
    WEAPON_TECHNIQUES_BY_SKILL,
    Kind,
)
from rulesets.swd10.rules import SETTINGS, health_track, owned_merits

SCHEMA_VERSION = 2
STAGES = (Stage.CREATION.value, Stage.PLAY.value)
# A Giant hero has the most health levels: the seven of a hero and one more.
MOST_HEALTH_LEVELS = len(HERO_HEALTH) + 1
MOST_MERIT_POINTS = max(max(merit.allowed_values) for merit in MERITS)
TECHNIQUE_SLUGS = sorted({slug for table in WEAPON_TECHNIQUES_BY_SKILL.values() for slug in table})


def _dots(name: str, traits: Any, *, low: Any, default: Any) -> type[SheetModel]:
    """A model with one whole-number field per trait slug."""
    fields: dict[str, Any] = {
        trait.slug: (whole(low(trait), trait.maximum), default(trait)) for trait in traits
    }
    return create_model(name, __base__=SheetModel, **fields)


class Info(SheetModel):
    player: text() = ""
    chronicle: text() = ""
    nature: text() = ""
    demeanor: text() = ""
    species: text() = ""
    destiny: text() = ""
    passion: text() = ""
    virtue: text() = ""
    destiny_points: whole(*NUMBER_LIMITS["destiny_points"]) = 0
    experience: whole(*NUMBER_LIMITS["experience"]) = 0
    # The compendium species or archetype `species` was picked from, if any (issue 26).
    compendium: PickedFrom = None


_ATTRIBUTE_GROUP_KEYS = [key for key, _ in ATTRIBUTE_GROUPS]
_ABILITY_GROUP_KEYS = [key for key, _ in ABILITY_GROUPS]


class Priorities(SheetModel):
    # Primary group first; each group once (checked across fields below).
    attributes: rows(one_of(_ATTRIBUTE_GROUP_KEYS), most=3) = Field(
        default_factory=lambda: list(_ATTRIBUTE_GROUP_KEYS), min_length=3
    )
    abilities: rows(one_of(_ABILITY_GROUP_KEYS), most=3) = Field(
        default_factory=lambda: list(_ABILITY_GROUP_KEYS), min_length=3
    )


# Appearance may be 0: the Monstrous flaw sets it so (checked across fields below).
Attributes = _dots(
    "Attributes",
    ATTRIBUTES,
    low=lambda trait: 0 if trait.slug == "appearance" else trait.minimum,
    default=lambda trait: trait.minimum,
)
Abilities = _dots(
    "Abilities", ABILITIES, low=lambda trait: trait.minimum, default=lambda trait: trait.minimum
)
ForceKnowledges = create_model(
    "ForceKnowledges",
    __base__=SheetModel,
    **{knowledge.slug: (whole(0, 5), 0) for knowledge in FORCE_KNOWLEDGES},
)
LoreNames = create_model(
    "LoreNames", __base__=SheetModel, **{slug: (text(LORE_NAME_LIMIT), "") for slug in CUSTOM_LORES}
)


class MeritRow(SheetModel):
    slug: one_of([merit.slug for merit in MERITS])
    value: whole(1, MOST_MERIT_POINTS)
    # What a parameterised merit is taken for (an ability, a sense...); empty otherwise.
    choice: text(MERIT_CHOICE_LIMIT) = ""


class Language(SheetModel):
    name: text(LANGUAGE_NAME_LIMIT)
    read: flag() = False
    write: flag() = False


class Technique(SheetModel):
    skill: one_of(sorted(WEAPON_TECHNIQUES_BY_SKILL))
    slug: one_of(TECHNIQUE_SLUGS)
    # The kind of special weapon, for techniques taken once per kind; empty otherwise.
    kind: text(TECHNIQUE_KIND_LIMIT) = ""


class Weapon(SheetModel):
    name: text(WEAPON_NAME_LIMIT)
    difficulty: whole(*WEAPON_DIFFICULTY_RANGE) = DEFAULT_WEAPON_DIFFICULTY
    rate: text(RATE_LIMIT) = ""
    damage: whole(*WEAPON_DAMAGE_RANGE) = 0
    compendium: PickedFrom = None


class ArmorRow(SheetModel):
    """A suit of armor or a shield (L185): its rating as bought, the points hits took
    from it (L220, L224) and whether it is worn; its class, penalty and soak are computed."""

    name: text(ARMOR_NAME_LIMIT)
    kind: one_of([kind for kind, _label in KINDS]) = ARMOR
    rating: whole(1, max(ARMOR_RATING_RANGE[1], SHIELD_RATING_RANGE[1])) = 1
    lost: whole(0, max(ARMOR_RATING_RANGE[1], SHIELD_RATING_RANGE[1])) = 0
    worn: flag() = False
    compendium: PickedFrom = None


class Baseline(SheetModel):
    """What creation ended with: XP pays for everything above it."""

    attributes: Attributes
    abilities: Abilities
    force_knowledges: ForceKnowledges
    willpower: whole(1, MAX_WILLPOWER)
    # Every merit and flaw owned, race grants included (slug -> points).
    merits: dict[one_of([merit.slug for merit in MERITS]), whole(1, MOST_MERIT_POINTS)]
    languages: rows(Language, most=MAX_LANGUAGES)


class SWd10Sheet(SheetModel):
    """A stored SWd10 sheet."""

    schema_version: whole(SCHEMA_VERSION, SCHEMA_VERSION) = SCHEMA_VERSION
    stage: one_of(STAGES) = Stage.CREATION.value
    info: Info = Field(default_factory=Info)
    priorities: Priorities = Field(default_factory=Priorities)
    attributes: Attributes = Field(default_factory=Attributes)
    abilities: Abilities = Field(default_factory=Abilities)
    lore_names: LoreNames = Field(default_factory=LoreNames)
    force_knowledges: ForceKnowledges = Field(default_factory=ForceKnowledges)
    power: whole(0, MAX_POWER) = CREATION_POWER
    power_current: whole(0, MAX_POWER) = 0
    willpower: whole(1, MAX_WILLPOWER) = 2
    willpower_current: whole(0, MAX_WILLPOWER) = 2
    light_side: whole(0, MAX_SIDE) = 0
    dark_side: whole(0, MAX_SIDE) = 0
    # Health boxes marked from the top of the track.
    health_marked: whole(0, MOST_HEALTH_LEVELS) = 0
    merits: rows(MeritRow, most=MAX_MERITS) = Field(default_factory=list)
    force_abilities: rows(one_of(sorted(FORCE_ABILITY_BY_SLUG)), most=len(FORCE_ABILITIES)) = Field(
        default_factory=list
    )
    languages: rows(Language, most=MAX_LANGUAGES) = Field(default_factory=list)
    techniques: rows(Technique, most=MAX_TECHNIQUES) = Field(default_factory=list)
    weapons: rows(Weapon, most=MAX_WEAPONS) = Field(default_factory=list)
    armor: rows(ArmorRow, most=MAX_ARMOR_ROWS) = Field(default_factory=list)
    swse_level: whole(0, MAX_SWSE_LEVEL) = 0
    # Set when creation ends, cleared when it reopens.
    baseline: Baseline | None = None


SCHEMA = SWd10Sheet


def _from_unversioned(sheet: dict) -> dict:
    """Upgrade a sheet stored before schema versions: the import then ignored the baseline
    of a sheet still in creation, which the schema now refuses."""
    upgraded = dict(sheet)
    if upgraded.get("stage", Stage.CREATION.value) == Stage.CREATION.value:
        upgraded["baseline"] = None
    return upgraded


def _add_armor(sheet: dict) -> dict:
    """Version 1 -> 2: armor and shields (L183-230), none on a sheet of before."""
    upgraded = dict(sheet)
    upgraded.setdefault("armor", [])
    return upgraded


MIGRATIONS = {0: _from_unversioned, 1: _add_armor}


def blank_sheet(settings: Mapping[str, Any]) -> dict:
    """Return a new hero in creation: free attribute dots, Power 1, Willpower Wits + 1.

    Its Light side, Dark side and Destiny points are the GM's readings (the seed gives none).
    """
    sheet = SCHEMA().model_dump(mode="json")
    settings = resolve_settings(SETTINGS, settings)
    sheet["light_side"] = settings["starting_light_side"]
    sheet["dark_side"] = settings["starting_dark_side"]
    sheet["info"]["destiny_points"] = settings["starting_destiny_points"]
    return sheet


def validate_sheet(data: Any) -> dict:
    """Return the normal form of a stored or imported sheet, or raise InvalidSheet."""
    if not isinstance(data, Mapping):
        raise InvalidSheet("the sheet must be a JSON object.")
    sheet = validate_with(
        SCHEMA, upgrade_sheet(data, current=SCHEMA_VERSION, migrations=MIGRATIONS)
    )
    faults = list(_cross_field_faults(sheet))
    if faults:
        raise InvalidSheet("; ".join(faults[:5]))
    return sheet


def _cross_field_faults(sheet: dict) -> Any:
    """Yield what no single field shows wrong, each as "path: what is wrong"."""
    for kind, groups in (
        ("attributes", _ATTRIBUTE_GROUP_KEYS),
        ("abilities", _ABILITY_GROUP_KEYS),
    ):
        if sorted(sheet["priorities"][kind]) != sorted(groups):
            yield f"priorities.{kind}: list {', '.join(groups)} once each, primary first"
    yield from _merit_faults(sheet)
    merits = owned_merits(sheet)
    if sheet["attributes"]["appearance"] == 0 and "monstrous" not in merits:
        yield "attributes.appearance: only the Monstrous flaw sets Appearance to 0"
    # The default reading gives a commoner the longest track, so no reading shortens it more.
    levels = len(health_track(sheet, {}))
    if sheet["health_marked"] > levels:
        yield f"health_marked: more boxes than this track's {levels}"
    for current, maximum in (("power_current", "power"), ("willpower_current", "willpower")):
        if sheet[current] > sheet[maximum]:
            yield f"{current}: cannot exceed {maximum} ({sheet[maximum]})"
    if len(set(sheet["force_abilities"])) != len(sheet["force_abilities"]):
        yield "force_abilities: a Force ability is listed twice"
    yield from _language_faults("languages", sheet["languages"])
    yield from _technique_faults(sheet["techniques"])
    for index, weapon in enumerate(sheet["weapons"]):
        if not weapon["name"].strip():
            yield f"weapons.{index}.name: a weapon needs a name"
    yield from _armor_faults(sheet["armor"])
    baseline = sheet["baseline"]
    if sheet["stage"] == Stage.PLAY and baseline is None:
        yield "baseline: a sheet in play needs its creation baseline"
    if sheet["stage"] == Stage.CREATION and baseline is not None:
        yield "baseline: a sheet still in creation has no baseline"
    if baseline is not None:
        yield from _language_faults("baseline.languages", baseline["languages"])


def _merit_faults(sheet: dict) -> Any:
    seen: set[tuple[str, str]] = set()
    for index, row in enumerate(sheet["merits"]):
        merit = MERIT_BY_SLUG[row["slug"]]
        if row["value"] not in merit.allowed_values:
            yield f"merits.{index}.value: {merit.name} costs {merit.cost_label}"
        owned_before = {slug for slug, _ in seen}
        if (row["slug"], row["choice"]) in seen or (
            row["slug"] in owned_before and not merit.repeatable
        ):
            yield f"merits.{index}: {merit.name} is listed twice"
        seen.add((row["slug"], row["choice"]))
    flaws = sum(
        points
        for slug, points in owned_merits(sheet).items()
        if MERIT_BY_SLUG[slug].kind is Kind.FLAW
    )
    if flaws > MAX_FLAW_POINTS:
        yield f"merits: flaws total {flaws} points, more than {MAX_FLAW_POINTS}"


def _language_faults(path: str, languages: list[dict]) -> Any:
    names = [row["name"].strip().casefold() for row in languages]
    if any(not name for name in names):
        yield f"{path}: a language needs a name"
    if len(set(names)) != len(names):
        yield f"{path}: a language is already on the sheet"


def _armor_faults(armor: list[dict]) -> Any:
    for index, row in enumerate(armor):
        if not row["name"].strip():
            yield f"armor.{index}.name: armor or a shield needs a name"
        low, high = RATING_RANGE[row["kind"]]
        if not low <= row["rating"] <= high:
            label = dict(KINDS)[row["kind"]]
            yield f"armor.{index}.rating: {label} rating runs from {low} to {high}"
        if row["lost"] > row["rating"]:
            yield f"armor.{index}.lost: cannot lose more than its rating ({row['rating']})"
    for kind, label in KINDS:
        if sum(1 for row in armor if row["worn"] and row["kind"] == kind) > 1:
            yield f"armor: only one {label.lower()} can be worn at a time"


def _technique_faults(techniques: list[dict]) -> Any:
    seen: list[dict] = []
    for index, row in enumerate(techniques):
        technique = WEAPON_TECHNIQUES_BY_SKILL[row["skill"]].get(row["slug"])
        if technique is None:
            yield f"techniques.{index}.slug: not a {row['skill'].capitalize()} technique"
            continue
        if technique.one_per_kind != bool(row["kind"].strip()):
            yield f"techniques.{index}.kind: name a kind for {technique.name} only"
        if row in seen:
            yield f"techniques.{index}: {technique.name} is listed twice"
        seen.append(row)


def demo_sheet() -> dict:
    """Return a complete, legal creation sheet: the digest's base character B."""
    sheet = blank_sheet({})
    sheet["info"] |= {
        "player": "Demo player",
        "chronicle": "Shadows of the Outer Rim",
        "nature": "Survivor",
        "demeanor": "Loner",
        "species": "Human",
        "destiny": "To find the lost Jedi archive",
        "passion": "Protect the crew",
        "virtue": "Loyalty",
    }
    sheet["attributes"] |= {
        "strength": 2, "dexterity": 4, "stamina": 3,  # physical: 1 + 3 + 2 = 6
        "charisma": 3, "manipulation": 2, "appearance": 2,  # social: 4
        "perception": 2, "intelligence": 2, "wits": 2,  # mental: 3
    }  # fmt: skip
    sheet["abilities"] |= {
        "alertness": 2, "athletics": 2, "acrobatics": 3, "brawl": 1, "dodge": 3,  # 11
        "firearms": 2, "melee": 2, "pilot": 2, "meditation": 1,  # 7
        "lore_jedi": 2, "technology": 1,  # 3, plus Battle 1 from the Knowledges pool
    }  # fmt: skip
    sheet["force_knowledges"]["battle"] = 1
    sheet["willpower"] = sheet["willpower_current"] = 3  # Wits 2 + 1
    sheet["light_side"] = 1
    sheet["merits"] = [
        {"slug": "force_sensitivity", "value": 1, "choice": ""},
        {"slug": "ambidextrous", "value": 1, "choice": ""},
        {"slug": "cat_like_balance", "value": 1, "choice": ""},
    ]
    sheet["force_abilities"] = ["battle_strike"]
    sheet["languages"] = [
        {"name": "Basic", "read": True, "write": True},
        {"name": "Huttese", "read": False, "write": False},
    ]
    sheet["techniques"] = [
        {"skill": "firearms", "slug": "blaster_pistols", "kind": ""},
        {"skill": "firearms", "slug": "blaster_rifles", "kind": ""},
        {"skill": "melee", "slug": "simple_weapons", "kind": ""},
        {"skill": "melee", "slug": "vibroblades", "kind": ""},
    ]
    sheet["weapons"] = [
        {"name": "Heavy blaster pistol", "difficulty": 6, "rate": "1", "damage": 3},
        {"name": "Vibroknife", "difficulty": 6, "rate": "1", "damage": 2},
    ]
    return sheet
