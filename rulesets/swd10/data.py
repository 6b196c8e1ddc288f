"""SWd10 sheet traits as data, in the order the seed's sheet prints them.

Source: seeds/000_0413f1179ca9c507.txt (cited as L<n>); digest: rules/swd10.md.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Trait:
    slug: str
    label: str
    group: str
    source: str
    # The seed prints a free first dot on attributes (•0000) and none on abilities.
    minimum: int = 0
    maximum: int = 5


ATTRIBUTE_GROUPS: tuple[tuple[str, str], ...] = (
    ("physical", "Physical"),  # L9
    ("social", "Social"),  # L9
    ("mental", "Mental"),  # L9
)

ATTRIBUTES: tuple[Trait, ...] = (
    Trait("strength", "Strength", "physical", "L10", minimum=1),
    Trait("dexterity", "Dexterity", "physical", "L11", minimum=1),
    Trait("stamina", "Stamina", "physical", "L12", minimum=1),
    Trait("charisma", "Charisma", "social", "L10", minimum=1),
    Trait("manipulation", "Manipulation", "social", "L11", minimum=1),
    Trait("appearance", "Appearance", "social", "L12", minimum=1),
    Trait("perception", "Perception", "mental", "L10", minimum=1),
    Trait("intelligence", "Intelligence", "mental", "L11", minimum=1),
    Trait("wits", "Wits", "mental", "L12", minimum=1),
)

ABILITY_GROUPS: tuple[tuple[str, str], ...] = (
    ("talents", "Talents"),  # L16
    ("skills", "Skills"),  # L16 (both "Skills" columns)
    ("knowledges", "Knowledges"),  # L29
)

_TALENTS = (  # L17-27, first column
    ("alertness", "Alertness"),
    ("athletics", "Athletics"),
    ("acrobatics", "Acrobatics"),
    ("brawl", "Brawl"),
    ("dodge", "Dodge"),
    ("empathy", "Empathy"),
    ("expression", "Expression"),
    ("intimidation", "Intimidation"),
    ("leadership", "Leadership"),
    ("persuasion", "Persuasion"),
    ("subterfuge", "Subterfuge"),
)
_SKILLS = (  # L17-27, second and third columns
    ("animal_ken", "Animal ken"),
    ("appraise", "Appraise"),
    ("astrogate", "Astrogate"),
    ("crafts", "Crafts"),
    ("computer", "Computer"),
    ("demolition", "Demolition"),
    ("diplomacy", "Diplomacy"),
    ("disguise", "Disguise"),
    ("enigmas", "Enigmas"),
    ("firearms", "Firearms"),
    ("gamble", "Gamble"),
    ("investigation", "Investigation"),
    ("medicine", "Medicine"),
    ("meditation", "Meditation"),
    ("melee", "Melee"),
    ("performance", "Performance"),
    ("pilot", "Pilot (ships/speeders)"),
    ("repair", "Repair"),
    ("ride", "Ride (bikes/animals)"),
    ("security", "Security"),
    ("stealth", "Stealth"),
    ("survival", "Survival"),
)
# L30-37. Business, Science, Streetwise and Tactics print four circles; the digest reads
# that as a layout loss (digest §1.3, ambiguity 12), so every ability runs 0-5.
_KNOWLEDGES = (
    ("business", "Business"),
    ("engineering", "Engineering"),
    ("history", "History"),
    ("politics", "Politics"),
    ("science", "Science"),
    ("streetwise", "Streetwise"),
    ("tactics", "Tactics"),
    ("technology", "Technology"),
    ("lore_jedi", "Lore: Jedi"),
    ("lore_planets", "Lore: Planets"),
    ("lore_sith", "Lore: Sith"),
    ("lore_species", "Lore: Species"),
    ("lore_wilderness", "Lore: Wilderness"),
    # Three blank "Lore: ____" rows for lores the player names (L35-37).
    ("custom_lore_1", "Lore: (your own)"),
    ("custom_lore_2", "Lore: (your own)"),
    ("custom_lore_3", "Lore: (your own)"),
)
CUSTOM_LORES = ("custom_lore_1", "custom_lore_2", "custom_lore_3")

ABILITIES: tuple[Trait, ...] = (
    *(Trait(slug, label, "talents", "L17-27") for slug, label in _TALENTS),
    *(Trait(slug, label, "skills", "L17-27") for slug, label in _SKILLS),
    *(Trait(slug, label, "knowledges", "L30-37") for slug, label in _KNOWLEDGES),
)

# Header fields, three columns of three (L3-5).
TEXT_FIELDS: tuple[tuple[str, str], ...] = (
    ("player", "Player"),
    ("chronicle", "Chronicle"),
    ("nature", "Nature"),
    ("demeanor", "Demeanor"),
    ("species", "Species"),
    ("destiny", "Destiny"),
    ("passion", "Passion"),  # L59-61, L170
    ("virtue", "Virtue"),  # L59-61, L172
)
NUMBER_FIELDS: tuple[tuple[str, str], ...] = (
    ("destiny_points", "Destiny points"),
    ("experience", "Experience"),
)

ATTRIBUTE_PRIORITIES = (6, 4, 3)  # L290
ABILITY_PRIORITIES = (11, 7, 4)  # L292
CREATION_ABILITY_CAP = 3  # L292
RANK_LABELS = ("Primary", "Secondary", "Tertiary")

ATTRIBUTE_BY_SLUG = {t.slug: t for t in ATTRIBUTES}
ABILITY_BY_SLUG = {t.slug: t for t in ABILITIES}


@dataclass(frozen=True)
class HealthLevel:
    name: str
    # None where the character cannot act at all (Incapacitated).
    penalty: int | None
    note: str = ""


# The hero's health track with the penalty printed beside each level (sheet L47-54).
HERO_HEALTH: tuple[HealthLevel, ...] = (
    HealthLevel("Bruised", 0),
    HealthLevel("Hurt", -1),
    HealthLevel("Injured", -1),
    HealthLevel("Wounded", -2, "can't run"),  # also L214
    HealthLevel("Mauled", -2),
    HealthLevel("Crippled", -5, "only 1 m / round"),  # also L214
    HealthLevel("Incapacitated", None),
)
# A commoner (Power 0) has four levels (L98); whether "full health" is a box is unclear,
# so the count is a setting (digest §4.2, ambiguity 6).
COMMONER_HEALTH: tuple[HealthLevel, ...] = (
    HealthLevel("Full health", 0),
    HealthLevel("Injured", -1),
    HealthLevel("Mauled", -2),
    HealthLevel("Incapacitated", None),
)
GIANT_LEVEL = HealthLevel("Bruised (Giant)", 0)  # L346

# Printed sheet columns (L1-69) and what the rules need beyond them (digest §1.6-1.7).
MAX_POWER = 10  # ten circles (L48); Fearless needs Power 7 (L553)
MAX_WILLPOWER = 10  # digest §1.6 proposal: five circles cannot show Wits 5 + 1 (L296)
MAX_SIDE = 10  # both Path tables run 1-10 (L134-168)
MERIT_POINTS = 3  # L298
MAX_FLAW_POINTS = 6  # L302
CREATION_POWER = 1  # L294
MAX_LANGUAGES = 12
MAX_WEAPONS = 10
DEFAULT_WEAPON_DIFFICULTY = 6  # digest §1.6 [INTERP]: "Diff" is never defined
# The sheet prints 5 Willpower circles (L52) but Wits 5 gives 6 at creation (L296); the
# digest proposes the Storyteller norm of 10 (digest §1.6), which the print follows.
WILLPOWER_CIRCLES = MAX_WILLPOWER
HEALTH_LEVELS: tuple[tuple[str, str], ...] = tuple(
    (
        f"{level.name} ({level.note})" if level.note else level.name,
        "" if level.penalty is None else f"{level.penalty:+d}".replace("+0", "-0"),
    )
    for level in HERO_HEALTH
)
