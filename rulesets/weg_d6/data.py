"""WEG d6 catalogs as data: attributes, skills, species, Force powers, wounds, droid prices.

Sources: seeds/002_c0783f93f53f9280.txt (2nd edition R&E upgrade, cited "002:<line>") and
seeds/003_509dec3565b88d49.txt (1st edition Rules Companion, cited "003:<line>"); digest
rules/weg_d6.md. Entries marked OUTSIDE come from neither seed (the digest names them as
well-known core-book values) and are flagged so the sheet can say so.
"""

from __future__ import annotations

from dataclasses import dataclass

EDITION_RE = "2e_re"
EDITION_1E = "1e"
EDITIONS: tuple[tuple[str, str], ...] = (
    (EDITION_RE, "2nd edition Revised & Expanded"),
    (EDITION_1E, "1st edition (Rules Companion)"),
)
EDITION_LABELS = dict(EDITIONS)

# The advancement currency changes its name between the editions (003:1762, 002:43).
CURRENCY = {
    EDITION_RE: ("CP", "Character Points"),
    EDITION_1E: ("SP", "skill points"),
}


@dataclass(frozen=True)
class Attribute:
    slug: str
    label: str
    abbreviation: str
    source: str


# The six attributes of every stat block (003:85, 003:953, 003:2350).
ATTRIBUTES: tuple[Attribute, ...] = (
    Attribute("dexterity", "Dexterity", "DEX", "003:2350"),
    Attribute("knowledge", "Knowledge", "KNO", "003:2350"),
    Attribute("mechanical", "Mechanical", "MEC", "003:2350"),
    Attribute("perception", "Perception", "PER", "003:2350"),
    Attribute("strength", "Strength", "STR", "003:2350"),
    Attribute("technical", "Technical", "TEC", "003:2350"),
)
ATTRIBUTE_BY_SLUG = {a.slug: a for a in ATTRIBUTES}
ATTRIBUTE_SLUGS = tuple(a.slug for a in ATTRIBUTES)
# Players type "DEX" as often as "dexterity" when adding a custom skill.
ATTRIBUTE_ALIASES = {
    **{a.slug: a.slug for a in ATTRIBUTES},
    **{a.abbreviation.lower(): a.slug for a in ATTRIBUTES},
}


@dataclass(frozen=True)
class Skill:
    slug: str
    label: str
    attribute: str
    source: str
    # True when the attribute grouping is the core book's, not either seed's (digest §2.2).
    outside: bool = False
    advanced: bool = False
    prerequisite: str | None = None


def _skills(attribute: str, *rows: tuple[str, str, str], outside: bool = False) -> list[Skill]:
    return [Skill(slug, label, attribute, source, outside) for slug, label, source in rows]


# Every skill either seed names, under the attribute the seed (or its index page) files it.
SKILLS: tuple[Skill, ...] = (
    *_skills(
        "dexterity",
        ("blaster", "Blaster", "003:131"),
        ("brawling_parry", "Brawling parry", "003:2426"),
        ("dodge", "Dodge", "003:2350"),
        ("grenade", "Grenade", "003:2426"),
        ("heavy_weapons", "Heavy weapons", "003:2487"),
        ("melee", "Melee", "003:2350"),
        ("melee_parry", "Melee parry", "003:2350"),
    ),
    *_skills("dexterity", ("lightsaber", "Lightsaber", "002:499"), outside=True),
    *_skills(
        "knowledge",
        ("alien_races", "Alien races", "003:979"),
        ("bureaucracy", "Bureaucracy", "003:1078"),
        ("cultures", "Cultures", "003:2350"),
        ("languages", "Languages", "003:979"),
        ("planetary_systems", "Planetary systems", "003:2487"),
        ("streetwise", "Streetwise", "003:2972"),
        ("survival", "Survival", "003:2487"),
        ("technology", "Technology", "003:2487"),
        ("starship_tactics", "Starship tactics", "003:1400"),
        ("scholar", "Scholar", "002:70"),
        ("tactics", "Tactics", "002:82"),
    ),
    *_skills(
        "mechanical",
        ("astrogation", "Astrogation", "003:2487"),
        ("beast_riding", "Beast riding", "003:2781"),
        ("repulsorlift_operation", "Repulsorlift operation", "003:2996"),
        ("starship_gunnery", "Starship gunnery", "003:2487"),
        ("starship_piloting", "Starship piloting", "003:2965"),
        ("starship_shields", "Starship shields", "003:2487"),
        ("jet_pack_operation", "Jet pack operation", "002:104"),
        ("rocket_pack_operation", "Rocket pack operation", "002:111"),
    ),
    *_skills(
        "mechanical",
        ("capital_ship_piloting", "Capital ship piloting", "002:499"),
        ("space_transports", "Space transports", "002:499"),
        ("starfighter_piloting", "Starfighter piloting", "002:499"),
        outside=True,
    ),
    *_skills(
        "perception",
        ("bargain", "Bargain", "003:2354"),
        ("command", "Command", "003:2350"),
        ("con", "Con", "003:143"),
        ("gambling", "Gambling", "003:2967"),
        ("hide_sneak", "Hide/sneak", "003:2255"),
        ("search", "Search", "003:143"),
    ),
    *_skills(
        "strength",
        ("brawling", "Brawling", "003:2426"),
        ("climbing_jumping", "Climbing/jumping", "003:2426"),
        ("lifting", "Lifting", "003:2396"),
        ("stamina", "Stamina", "003:2487"),
        ("swimming", "Swimming", "003:2982"),
    ),
    *_skills(
        "technical",
        ("computer_programming_repair", "Computer programming/repair", "003:2412"),
        ("demolition", "Demolition", "003:2887"),
        ("droid_programming", "Droid programming", "003:2910"),
        ("droid_repair", "Droid repair", "003:2911"),
        ("medicine", "Medicine", "003:3015"),
        ("repulsorlift_repair", "Repulsorlift repair", "003:2997"),
        ("security", "Security", "003:3007"),
        ("starship_repair", "Starship repair", "003:2487"),
    ),
    *_skills("technical", ("first_aid", "First aid", "002:559"), outside=True),
    # 002:47 says advanced skills exist and cost double but names none; the digest's
    # example is the core book's (A) medicine resting on first aid (OUTSIDE).
    Skill(
        "advanced_medicine",
        "(A) Medicine",
        "technical",
        "002:47",
        outside=True,
        advanced=True,
        prerequisite="first_aid",
    ),
)
SKILL_BY_SLUG = {s.slug: s for s in SKILLS}

FORCE_SKILLS: tuple[tuple[str, str], ...] = (
    ("control", "Control"),  # 003:1820, 002:794
    ("sense", "Sense"),  # 003:1820
    ("alter", "Alter"),  # 003:1820
)
FORCE_SKILL_SLUGS = tuple(slug for slug, _label in FORCE_SKILLS)
FORCE_SKILL_LABELS = dict(FORCE_SKILLS)


@dataclass(frozen=True)
class Species:
    slug: str
    label: str
    # Whole pips per attribute; the seeds refer to a species minimum and maximum (002:53)
    # but print no table, so every number here is OUTSIDE.
    minimum: dict[str, int]
    maximum: dict[str, int]
    move: int
    move_max: int
    source: str


SPECIES: tuple[Species, ...] = (
    Species(
        "human",
        "Human",
        minimum=dict.fromkeys(ATTRIBUTE_SLUGS, 6),
        maximum=dict.fromkeys(ATTRIBUTE_SLUGS, 12),
        move=10,
        move_max=12,
        source="OUTSIDE (2E core: 2D-4D, Move 10 max 12; digest §3)",
    ),
)
SPECIES_BY_SLUG = {s.slug: s for s in SPECIES}
CUSTOM_SPECIES = "custom"
SPECIES_CHOICES: tuple[tuple[str, str], ...] = (
    *((s.slug, s.label) for s in SPECIES),
    (CUSTOM_SPECIES, "Custom (the GM's)"),
)


@dataclass(frozen=True)
class ForcePower:
    slug: str
    label: str
    skills: tuple[str, ...]
    source: str
    # True for powers the Companion adds (its "New Force Powers" chapter, 003:2167).
    new_in_companion: bool = False
    # Using it hands the user a Dark Side Point on the spot.
    dark_side: bool = False


def _power(slug: str, label: str, skills: str, source: str, **kwargs: bool) -> ForcePower:
    return ForcePower(slug, label, tuple(skills.split("+")), source, **kwargs)


# Required skills as the Companion's section headings give them (003:1834-2249).
FORCE_POWERS: tuple[ForcePower, ...] = (
    _power("control_pain", "Control pain", "control", "003:1836"),
    _power("remain_conscious", "Remain conscious", "control", "003:1846"),
    _power("hibernation_trance", "Hibernation trance", "control", "003:1864"),
    _power("accelerate_healing", "Accelerate healing", "control", "003:1888"),
    _power("contort_escape", "Contort/escape", "control", "003:1898"),
    _power("detoxify_poison", "Detoxify poison", "control", "003:1906"),
    _power("control_disease", "Control disease", "control", "003:1912"),
    _power("absorb_dissipate_energy", "Absorb/dissipate energy", "control", "003:1920"),
    _power("emptiness", "Emptiness", "control", "003:2175", new_in_companion=True),
    _power("force_of_will", "Force of will", "control", "003:2203", new_in_companion=True),
    _power("receptive_telepathy", "Receptive telepathy", "sense", "003:1934"),
    _power("magnify_senses", "Magnify senses", "sense", "003:1948"),
    _power("life_sense", "Life sense", "sense", "003:1954"),
    _power("instinctive_astrogation", "Instinctive astrogation", "sense", "003:1962"),
    _power("postcognition", "Postcognition", "sense", "003:2215", new_in_companion=True),
    _power("sense_force", "Sense Force", "sense", "003:2231", new_in_companion=True),
    _power("shift_sense", "Shift sense", "sense", "003:2239", new_in_companion=True),
    _power("projective_telepathy", "Projective telepathy", "control+sense", "003:1970"),
    _power("farseeing", "Farseeing", "control+sense", "003:1978"),
    _power("telekinesis", "Telekinesis", "alter", "003:2015"),
    _power("injure_kill", "Injure/kill", "alter", "003:2025", dark_side=True),
    _power("control_anothers_pain", "Control another's pain", "control+alter", "003:2041"),
    _power("inflict_pain", "Inflict pain", "control+alter", "003:2049", dark_side=True),
    _power("return_to_consciousness", "Return to consciousness", "control+alter", "003:2069"),
    _power("place_in_hibernation", "Place in hibernation trance", "control+alter", "003:2083"),
    _power(
        "accelerate_anothers_healing", "Accelerate another's healing", "control+alter", "003:2091"
    ),
    _power("detoxify_poison_in_another", "Detoxify poison in another", "control+alter", "003:2099"),
    _power("control_anothers_disease", "Control another's disease", "control+alter", "003:2107"),
    _power("transfer_force", "Transfer Force", "control+alter", "003:2115"),
    _power("affect_mind", "Affect mind", "control+sense+alter", "003:2131"),
    _power(
        "telekinetic_kill", "Telekinetic kill", "control+sense+alter", "003:2155", dark_side=True
    ),
    _power(
        "dim_others_senses", "Dim other's senses", "sense+alter", "003:2249", new_in_companion=True
    ),
)
POWER_BY_SLUG = {p.slug: p for p in FORCE_POWERS}

# The three powers a 1E pupil masters with the first die of each skill (003:1778-1796).
INITIAL_POWERS_1E: dict[str, tuple[str, ...]] = {
    "control": ("control_pain", "remain_conscious", "force_of_will"),
    "sense": ("life_sense", "magnify_senses", "receptive_telepathy"),
    "alter": ("control_anothers_pain", "shift_sense", "telekinesis"),
}
INITIAL_POWER_COUNT_1E = 3  # 003:1778
# Which skill's traditional set lists each initial power (003:1782-1796).
INITIAL_SET_OF_1E = {slug: skill for skill, slugs in INITIAL_POWERS_1E.items() for slug in slugs}
# The 1E templates that start with Force skills; anyone else learns from a master (003:1758).
FORCE_TEMPLATES_1E = ("Alien Student of the Force", "Failed Jedi", "Minor Jedi", "Quixotic Jedi")
POWERS_ON_FIRST_DIE_RE = 1  # 002:796

# A 1E character born without Force skills needs a master: all three at 7D or better.
MASTER_MINIMUM_PIPS = 21  # 003:1760
# Learning a 1E Force skill: 10 weeks, one week off per skill point, never under a week.
LEARN_FORCE_SKILL_WEEKS = 10  # 003:1762
LEARNED_FORCE_SKILL_PIPS = 3  # starts at 1D, 003:1764

FORCE_SENSITIVITY_COST = 20  # 002:59
RE_FORCE_POWER_COST = 5  # 002:802
ATTRIBUTE_COST_MULTIPLIER_RE = 10  # 002:51
ADVANCED_SKILL_MULTIPLIER = 2  # 002:47


@dataclass(frozen=True)
class WoundLevel:
    slug: str
    label: str
    # Whole pips taken off every shown code while the character acts.
    penalty: int
    can_act: bool
    source: str
    # 1E stun spares Strength (003:440); R&E leaves that to the core chart.
    spares_strength_in_1e: bool = False


WOUND_LEVELS: tuple[WoundLevel, ...] = (
    WoundLevel("healthy", "Healthy", 0, True, ""),
    WoundLevel("stunned", "Stunned", -3, True, "003:440", spares_strength_in_1e=True),
    WoundLevel("wounded", "Wounded", -3, True, "003:1840"),
    WoundLevel("wounded_twice", "Wounded twice", -6, True, "002:557"),
    WoundLevel("incapacitated", "Incapacitated", 0, False, "003:1852"),
    WoundLevel("mortally_wounded", "Mortally wounded", 0, False, "003:2125"),
    WoundLevel("killed", "Killed", 0, False, "002:559"),
)
WOUND_BY_SLUG = {w.slug: w for w in WOUND_LEVELS}
# "Wounded twice" exists only in R&E (002:553); a second 1E wound incapacitates (003:1840).
WOUND_LADDER = {
    EDITION_RE: ("healthy", "wounded", "wounded_twice", "incapacitated", "mortally_wounded"),
    EDITION_1E: ("healthy", "wounded", "incapacitated", "mortally_wounded"),
}
WOUND_SLUGS_BY_EDITION = {
    EDITION_RE: tuple(w.slug for w in WOUND_LEVELS),
    EDITION_1E: tuple(w.slug for w in WOUND_LEVELS if w.slug != "wounded_twice"),
}

# Droid building dice, 1E Companion, all counted in dice (003:929-947).
DROID_BASE_ATTRIBUTE_PIPS = 3  # every attribute starts at 1D, 003:929
DROID_BUILDING_DICE = {"npc": 35, "pc": 65}  # 003:931
DROID_ATTRIBUTE_RATE = 5  # 5D per +1D of attribute, 003:933
DROID_SPEED_RATE = 3  # 3D per +1D of speed above Dexterity, 003:935
DROID_ARMOR_RATE = 3  # 3D per 1D of armor, 003:935
DROID_ITEM_DICE = 1  # per item or tool, 003:937
DROID_FEATURE_DICE = 1  # per extra function or feature, 003:945
DROID_SKILL_CAP_PIPS = 39  # 13D, 003:947
DROID_PC_STARTING_FORCE_POINTS = 1  # 003:1004

# Creation budgets in whole pips (003:913).
PC_ATTRIBUTE_PIPS = 54
NPC_ATTRIBUTE_PIPS = 36
ALIEN_TEMPLATE_BONUS_PIPS = 18  # +6D, 003:911
ALIEN_TEMPLATE_MIN_PER_ATTRIBUTE = 3  # 1D to each attribute, 003:911

# What a sheet is, besides its edition: the choices of its header.
KINDS: tuple[tuple[str, str], ...] = (("character", "Character"), ("droid", "Droid"))
ROLES: tuple[tuple[str, str], ...] = (("pc", "Player character"), ("npc", "Non-player character"))

# A code nobody needs to exceed on a sheet; it keeps imports and typos in range.
MAX_CODE_PIPS = 3 * 60
LOWEST_ATTRIBUTE_PIPS = 3  # an attribute is at least 1D
MAX_POINTS = 9999
MAX_MOVE = 99
# Caps that keep a sheet (and an imported file) a sensible size; edits keep the same ones.
NAME_LIMIT = 200
DESCRIPTION_LIMIT = 4000
MAX_FEATURES = 20
MAX_EQUIPMENT = 60
MAX_CUSTOM_SKILLS = 60
MAX_SPECIALIZATIONS = 100
MAX_CUSTOM_POWERS = 40
MAX_POWERS = len(FORCE_POWERS) + MAX_CUSTOM_POWERS
# Each pip a Force skill gains in R&E owes one power at most (002:800).
MAX_POWER_PICKS = 3 * MAX_CODE_PIPS
MAX_INTERVAL = 200
# The classic template's weapons, gear, credits, looks and quote (a character's, not the
# seeds': neither prints a blank template, digest §10.23).
MAX_WEAPONS = 12
WEAPON_TEXT_LIMITS = {"damage": 20, "range": 40, "ammo": 20}
EQUIPMENT_TEXT_LIMIT = 2000
PHYSICAL_LIMIT = 1000
QUOTE_LIMIT = 300
MAX_CREDITS = 999_999_999
