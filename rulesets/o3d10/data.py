"""1o3d10 traits and tables as data.

Source: seeds/004_8cbd6e5c00de6f21.txt (cited as L<n>); digest: rules/1o3d10.md (cited as
§n). The seed is a rules fragment with no creation or equipment section, so every entry
marked `house_rule=True` (or a source starting with "digest") is the digest's proposal, not
the seed's text.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Stat:
    slug: str
    label: str
    abbreviation: str
    source: str


STATS: tuple[Stat, ...] = (
    Stat("strength", "Strength", "STR", "L39-L45, L55"),
    Stat("dexterity", "Dexterity", "DEX", "L63, L116, L132"),
    Stat("intelligence", "Intelligence", "INT", "L51"),
    Stat("perception", "Perception", "PER", "L126"),
)


@dataclass(frozen=True)
class Skill:
    slug: str
    label: str
    # The stat added to the skill when rolling; None for the Force skills, which the seed
    # rolls on the skill alone (L153, L168, L196, L219).
    stat: str | None
    source: str
    force: bool = False


SKILLS: tuple[Skill, ...] = (
    Skill("melee_weapons", "Melee Weapons", "strength", "L55"),
    Skill("ranged_weapons", "Ranged Weapons", "dexterity", "L63"),
    Skill("dodge", "Dodge", "dexterity", "L116"),
    Skill("reflexes", "Reflexes", "perception", "L126"),
    Skill("medicine", "Medicine", "intelligence", "L51"),
    Skill("force_jump", "Force Jump", None, "L151-L153", force=True),
    Skill("physical_school", "Physical School", None, "L166-L168", force=True),
    Skill("alteration_school", "Alteration School", None, "L194-L196", force=True),
    Skill("organic_school", "Organic School", None, "L217-L219", force=True),
)

STAT_BY_SLUG = {stat.slug: stat for stat in STATS}
SKILL_BY_SLUG = {skill.slug: skill for skill in SKILLS}

# Bounds no campaign setting may cross; validate_sheet has no settings, so it checks these.
HARD_STAT_MAX = 20
HARD_SKILL_MAX = 20
HARD_HP_MIN = -999
HARD_HP_MAX = 999
HARD_DAY_MAX = 100_000
MAX_CUSTOM_SKILLS = 30
MAX_ROWS = 30  # weapons or armor
MAX_TEXT = 200
MAX_NOTES = 4000

# The character's name is kept once, on the character, not in the sheet.
INFO_FIELDS: tuple[tuple[str, str, int], ...] = (
    ("player", "Player", MAX_TEXT),
    ("species", "Species", MAX_TEXT),
    ("notes", "Notes", MAX_NOTES),
)

# --- Dice ------------------------------------------------------------------------------
DIE_SIDES = 10  # L5
CRIT_FAIL_NEXT_DIE_BELOW = 5  # L13
CRITICAL_MARGIN = 10  # L11
LUCK_FACE = 10  # L17: a Luck point turns one die into its highest face

# --- Fixed difficulties ----------------------------------------------------------------
DODGE_DC = 18  # L118
DEFLECT_DC = 18  # L128
STABILISE_DC = 18  # L51
FORCE_HEALING_DC = 15  # L247
MELEE_FROM_BEHIND_BONUS = 4  # L59
MELEE_BONUS_D6_PER_MARGIN = 10  # L59: +1d6 per full 10 over Defense
DEFLECT_REDIRECT_DAMAGE_MODIFIER = -2  # L145
COMBINED_LIFT_PENALTY_PER_USER = 5  # L192

# --- Health ----------------------------------------------------------------------------
DEATH_MULTIPLIER = 3  # L45: dead below -3 x STR
BLEED_SAFE_FROM = 6  # L49: a bleed d10 of 6+ costs nothing, 5 or less costs its value


@dataclass(frozen=True)
class HealthState:
    slug: str
    label: str
    source: str
    # Rank orders the states from best to worst, so "lower HP never improves" is testable.
    rank: int


NORMAL = HealthState("normal", "Normal", "L39", 0)
WOUNDED = HealthState("wounded", "Wounded", "L41", 1)
UNCONSCIOUS = HealthState("unconscious", "Unconscious", "L43", 2)
DEAD = HealthState("dead", "Dead", "L45", 3)
HEALTH_STATES: tuple[HealthState, ...] = (NORMAL, WOUNDED, UNCONSCIOUS, DEAD)

# --- Initiative, actions and reactions -------------------------------------------------
INITIATIVE_PER_EXTRA_ACTION = 10  # L21: <20 one action, 20-29 two, and so on

# L97-L102. The printed rows overlap at 15; the setting `reaction_points_at_15` picks the row,
# so each row here is (lowest total, points) for the default reading (15 in the 3 row).
REACTION_POINTS: tuple[tuple[int, int], ...] = (
    (10, 2),  # L100
    (15, 3),  # L101
    (26, 4),  # L102 (">25")
)
REACTION_POINTS_BELOW_10 = 1  # L99


@dataclass(frozen=True)
class Reaction:
    slug: str
    label: str
    points: int
    source: str


REACTIONS: tuple[Reaction, ...] = (
    Reaction("dodge", "Dodge", 1, "L106"),
    Reaction("move", "Move up to 2 cells", 2, "L107"),
    Reaction("deflect", "Deflect/Block", 2, "L108"),
    # L110: once between turns, only together with another reaction, never as a dodge.
    Reaction("attached_move", "2-cell move with another reaction", 1, "L110"),
)

# --- Movement (L31-L35; 1 cell = 1.5 m) ------------------------------------------------
METRES_PER_CELL = 1.5  # L31
SHORT_ACTION_CELLS = 2  # L31
LONG_ACTION_CELLS = 4  # L33
MAX_CELLS_PER_TURN = 6  # L35

# --- Ranged difficulty by distance in cells (L67-L74) ----------------------------------
# (lowest cell count, DC). The printed ">16 cells" leaves 16 uncovered; the digest (§4.1)
# reads it as 16 and more.
RANGED_DC_BY_CELLS: tuple[tuple[int, int], ...] = (
    (1, 10),  # L69
    (2, 15),  # L70
    (4, 20),  # L71
    (8, 25),  # L72
    (11, 30),  # L73
    (16, 35),  # L74
)

# Ranged target modifiers: the seed names them without values (L78); these are the
# digest's proposal (§3), None meaning no line of fire at all.
RANGED_TARGET_MODIFIERS: tuple[tuple[str, str, int | None], ...] = (
    ("running", "Running", 3),
    ("prone", "Prone", 2),
    ("small_cover", "Small cover", 2),
    ("medium_cover", "Medium cover", 5),
    ("big_cover", "Big cover", 8),
    ("total_cover", "Total cover", None),
    ("moving_vehicle", "Moving vehicle", 5),
)


@dataclass(frozen=True)
class HitLocation:
    roll: int
    label: str
    # Flat damage added; the head adds a die instead (L93).
    damage_bonus: int
    extra_damage_dice: str
    source: str


HIT_LOCATIONS: tuple[HitLocation, ...] = (
    HitLocation(1, "Left leg", 0, "", "L84"),
    HitLocation(2, "Right leg", 0, "", "L85"),
    HitLocation(3, "Upper back", 1, "", "L86"),
    HitLocation(4, "Neck", 2, "", "L87"),
    HitLocation(5, "Left arm", 0, "", "L88"),
    HitLocation(6, "Right arm", 0, "", "L89"),
    HitLocation(7, "Lower back", 0, "", "L90"),
    HitLocation(8, "Stomach", 1, "", "L91"),
    HitLocation(9, "Chest", 1, "", "L92"),
    HitLocation(10, "Head", 0, "1d6", "L93"),
)

# --- Deflection redirect (L138-L143) ---------------------------------------------------
# The seed names the bands without distances; the cell ranges are the digest's proposal
# (§3 deflect_bands): (slug, label, lowest cell count, DC).
DEFLECT_REDIRECT_DC: tuple[tuple[str, str, int, int], ...] = (
    ("very_short", "Very short", 1, 10),  # L140
    ("short", "Short", 2, 15),  # L141
    ("normal", "Normal", 4, 20),  # L142
    ("far", "Far", 11, 30),  # L143
)

# --- The Force -------------------------------------------------------------------------
# Force Jump by distance or height in cells (L158-L161): (lowest cells, DC); more than 15
# cells is not in the table (digest §4.4), so the jump is refused.
FORCE_JUMP_DC_BY_CELLS: tuple[tuple[int, int], ...] = (
    (1, 10),  # L158
    (4, 15),  # L159
    (8, 20),  # L160
    (11, 25),  # L161
)
FORCE_JUMP_MAX_CELLS = 15  # L161
FORCE_JUMP_TARGET_MOVING: dict[str, int] = {"slow": 3, "normal": 5, "fast": 8}  # L162-L164


@dataclass(frozen=True)
class Band:
    """One row of a condition table: applies from `low` upward (strictly above if not
    `low_inclusive`) until the next row starts."""

    low: float
    modifier: int
    source: str
    low_inclusive: bool = True


# Physical School (L169-L186): DC 12 + one modifier per category. Where two printed ranges
# share an edge (50 kg, 100 kg, 500 kg, 20/50/80 km/h, 8 m) the higher row wins (digest
# §4.5); the ">" rows start strictly above their number.
PHYSICAL_BASE_DC = 12  # L169
PHYSICAL_WEIGHT_KG: tuple[Band, ...] = (
    Band(0, 1, "L173"),
    Band(50, 3, "L174"),
    Band(100, 5, "L175"),
    Band(500, 7, "L176"),
    Band(1000, 10, "L177", low_inclusive=False),
)
PHYSICAL_SPEED_KMH: tuple[Band, ...] = (
    Band(0, 2, "L178"),
    Band(20, 5, "L179"),
    Band(50, 8, "L180"),
    Band(80, 10, "L181", low_inclusive=False),
)
PHYSICAL_DISTANCE_M: tuple[Band, ...] = (
    Band(0, 1, "L182"),
    Band(2, 3, "L183"),
    Band(8, 5, "L184"),
    Band(15, 10, "L185", low_inclusive=False),
)
PHYSICAL_ORGANIC_TARGET = 5  # L186

# Alteration School (L197-L213): DC 10 + conditions; machines are immune (L215).
ALTERATION_BASE_DC = 10  # L197
ALTERATION_TARGET_INTELLIGENCE: tuple[Band, ...] = (
    Band(-1000, 1, "L201"),
    Band(5, 3, "L202"),
    Band(7, 5, "L203"),
    Band(9, 7, "L204"),
    Band(10, 10, "L205", low_inclusive=False),
)
ALTERATION_TRICK: dict[str, int] = {"easy": 2, "normal": 5, "hard": 8, "very_hard": 10}  # L206-L209
ALTERATION_DISTANCE_M: tuple[Band, ...] = (
    Band(0, 1, "L210"),
    Band(2, 5, "L211"),
    Band(8, 10, "L212"),
    Band(15, 20, "L213", low_inclusive=False),
)

# Organic School (L220-L234): DC 12 + conditions; machines are immune (L236).
ORGANIC_BASE_DC = 12  # L220
ORGANIC_DISTANCE_M: tuple[Band, ...] = (
    Band(0, 0, "L224"),
    Band(2, 5, "L225"),
    Band(5, 15, "L226", low_inclusive=False),
)
# L230 prints "8 - 9", which overlaps L229 and leaves 10 uncovered; read as 9-10 (§4.7).
ORGANIC_TARGET_STRENGTH: tuple[Band, ...] = (
    Band(-1000, 1, "L227"),
    Band(5, 2, "L228"),
    Band(7, 5, "L229"),
    Band(9, 8, "L230"),
    Band(10, 10, "L231", low_inclusive=False),
)
ORGANIC_MANEUVER: dict[str, int] = {"easy": 1, "medium": 5, "hard": 10}  # L232-L234


@dataclass(frozen=True)
class Healing:
    slug: str
    label: str
    effect: str
    action: str
    source: str


# L240 promises five kinds; only four are described (digest §1.8).
HEALING: tuple[Healing, ...] = (
    Healing("force", "Force healing", "Organic School vs 15: heal 1d6 HP", "long action", "L242"),
    Healing("revitalizer", "Revitalizer", "1d6 HP now, 1d6 HP next turn", "short action", "L251"),
    Healing("short_rest", "Short rest", "1 hour: 1d10 HP", "rest", "L255"),
    Healing("long_rest", "Long rest", "8 hours (humans): full HP", "rest", "L257-L259"),
)

# --- Equipment (house rules: the seed has no equipment list, digest §3) ----------------
WEAPON_KINDS: dict[str, str] = {"melee": "melee_weapons", "ranged": "ranged_weapons"}


@dataclass(frozen=True)
class WeaponTemplate:
    slug: str
    label: str
    kind: str
    damage: str
    source: str = "digest §3 proposal"


WEAPONS: tuple[WeaponTemplate, ...] = (
    WeaponTemplate("knife", "Knife", "melee", "1d6"),
    WeaponTemplate("blaster_pistol", "Blaster pistol", "ranged", "1d8"),
    WeaponTemplate("blaster_rifle", "Blaster rifle", "ranged", "1d10"),
    WeaponTemplate("lightsaber", "Lightsaber", "melee", "2d6"),
)
WEAPON_BY_SLUG = {weapon.slug: weapon for weapon in WEAPONS}


@dataclass(frozen=True)
class ArmorTemplate:
    slug: str
    label: str
    absorption: int
    source: str = "digest §3 proposal"


ARMORS: tuple[ArmorTemplate, ...] = (
    ArmorTemplate("light", "Light armor", 1),
    ArmorTemplate("medium", "Medium armor", 2),
    ArmorTemplate("heavy", "Heavy armor", 3),
)
ARMOR_BY_SLUG = {armor.slug: armor for armor in ARMORS}
MAX_ABSORPTION = 20
