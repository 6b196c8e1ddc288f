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
)

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

# The hero's health track with the penalty printed beside each level (sheet L47-54).
HEALTH_LEVELS: tuple[tuple[str, str], ...] = (
    ("Bruised", "-0"),
    ("Hurt", "-1"),
    ("Injured", "-1"),
    ("Wounded (can't run)", "-2"),
    ("Mauled", "-2"),
    ("Crippled (only 1 m / round)", "-5"),
    ("Incapacitated", ""),
)
# The sheet prints 5 Willpower circles (L52) but Wits 5 gives 6 at creation (L296); the
# digest proposes the Storyteller norm of 10 (digest §1.6), which the print follows.
WILLPOWER_CIRCLES = 10
