"""1o3d10 traits and tables as data.

Source: seeds/004_8cbd6e5c00de6f21.txt (cited as L<n>); digest: rules/1o3d10.md (cited as
§n). The seed is a rules fragment with no creation or equipment section, so every entry
marked `house_rule=True` (or a source starting with "digest") is the digest's proposal, not
the seed's text. SETTINGS, at the end, are the readings a GM may change.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulesets.core import Setting


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
HARD_XP_MAX = 100_000
# A shield, cover or the GM's adjustment; the seed has no Defense formula (digest §3).
DEFENSE_BONUS_MIN = -20
DEFENSE_BONUS_MAX = 30
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
    # What the state does, in a line a player reads (the printed sheet lists them all).
    effect: str = ""


NORMAL = HealthState(
    "normal",
    "Normal",
    "L39",
    0,
    "The middle of the three dice is the target die.",  # L7
)
WOUNDED = HealthState(
    "wounded",
    "Wounded",
    "L41",
    1,
    "The lowest of the three dice is the target die.",  # L41
)
UNCONSCIOUS = HealthState(
    "unconscious",
    "Unconscious",
    "L43",
    2,
    # L49-L51
    "Cannot move, interact or use the Force; rolls 1d10 each turn and loses that many HP "
    f"on {BLEED_SAFE_FROM - 1} or less, until an ally stabilises them.",
)
DEAD = HealthState("dead", "Dead", "L45", 3, "The character dies.")
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

# Ranged target modifiers: the seed names them without values (L78). These are the
# digest's proposal (§3), None meaning no line of fire at all: only the defaults of the
# GM's settings `ranged_mod_<slug>` (SETTINGS below), which the rolls read.
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


# The sign the rulebooks print in cost lines; spelled by code point to keep lint quiet.
TIMES = "\u00d7"


# --- Settings a GM may change --------------------------------------------------------
# Settings whose default is the digest's proposal for a gap in the seed start their help
# with this sentence; the sheet groups them under a "house rules" heading.
HOUSE_RULE_HELP = "House rule: the rulebook gives no such number."

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "stat_min",
        "Lowest stat (house rule)",
        1,
        "digest §3 stat_min",
        HOUSE_RULE_HELP,
        minimum=0,
        maximum=5,
    ),
    Setting(
        "stat_max",
        "Highest stat (house rule)",
        10,
        "digest §3 stat_max; the Force tables bracket stats up to >10 (L201-L205)",
        HOUSE_RULE_HELP,
        minimum=5,
        maximum=HARD_STAT_MAX,
    ),
    Setting(
        "stat_creation_max",
        "Highest stat at creation (house rule)",
        8,
        "digest §3 stat_max",
        HOUSE_RULE_HELP,
        minimum=1,
        maximum=HARD_STAT_MAX,
    ),
    Setting(
        "creation_stat_points",
        "Stat points at creation (house rule)",
        24,
        "digest §3 creation_stat_points",
        HOUSE_RULE_HELP,
        minimum=4,
        maximum=80,
    ),
    Setting(
        "skill_max",
        "Highest skill rank (house rule)",
        10,
        "digest §3 skill_min/max",
        HOUSE_RULE_HELP,
        minimum=1,
        maximum=HARD_SKILL_MAX,
    ),
    Setting(
        "skill_creation_max",
        "Highest skill rank at creation (house rule)",
        6,
        "digest §3 skill_min/max",
        HOUSE_RULE_HELP,
        minimum=0,
        maximum=HARD_SKILL_MAX,
    ),
    Setting(
        "creation_skill_points",
        "Skill points at creation (house rule)",
        20,
        "digest §3 creation_skill_points",
        HOUSE_RULE_HELP,
        minimum=0,
        maximum=200,
    ),
    Setting(
        "xp_per_stat_rank",
        "XP per point of the new stat value (house rule)",
        2,
        "digest §3 xp_cost",
        HOUSE_RULE_HELP + " Raising a stat to n costs n times this.",
        minimum=1,
        maximum=10,
    ),
    Setting(
        "xp_per_skill_rank",
        "XP per point of the new skill rank (house rule)",
        1,
        "digest §3 xp_cost",
        HOUSE_RULE_HELP + " Raising a skill to n costs n times this.",
        minimum=1,
        maximum=10,
    ),
    Setting(
        "hp_base",
        "Maximum HP: fixed part (house rule)",
        10,
        "digest §3 hp_formula",
        HOUSE_RULE_HELP + " Maximum HP = this + Strength x the per-Strength part.",
        minimum=0,
        maximum=100,
    ),
    Setting(
        "hp_per_strength",
        "Maximum HP: per point of Strength (house rule)",
        2,
        "digest §3 hp_formula",
        HOUSE_RULE_HELP,
        minimum=0,
        maximum=10,
    ),
    Setting(
        "defense_base",
        "Defense: fixed part added to Dexterity (house rule)",
        10,
        "digest §3 defense_formula",
        HOUSE_RULE_HELP,
        minimum=0,
        maximum=30,
    ),
    Setting(
        "force_needs_sensitivity",
        "Force skills need the GM's Force-sensitive mark (house rule)",
        True,
        "digest §3 force_sensitive; L149 (schools taught in the Academies)",
        HOUSE_RULE_HELP,
    ),
    Setting(
        "luck_per_day",
        "Midichlorian Luck uses per in-game day",
        1,
        "L17",
        "The rulebook gives one a day; a GM may change it.",
        minimum=1,
        maximum=5,
    ),
    Setting(
        "explode_mode",
        "What an exploding 10 adds",
        "max_of_3d10",
        "L9; digest §2.1 reading B",
        "The rulebook's wording can be read three ways.",
        choices=(
            ("max_of_3d10", "Roll 3d10 once more and add the highest (literal)"),
            ("open_d10", "Add 1d10, rolling again on every 10 (open-ended)"),
            ("new_1o3d10", "Roll a new 1o3d10 and add it (again on a kept 10)"),
        ),
    ),
    Setting(
        "crit_fail_when_wounded",
        "Critical fail while wounded",
        "literal",
        "L13, L41; digest §2.3",
        "While wounded the lowest die is the target die; which die is 'the next one up'?",
        choices=(
            ("literal", "Lowest die 1 and the middle die below 5 (16.3%)"),
            ("distinct", "Lowest die 1 and the next different value below 5 (14.5%)"),
            ("middle_only", "Test the middle die as when unhurt (1.0%)"),
        ),
    ),
    Setting(
        "crit_fail_auto_fails",
        "A critical fail fails whatever the total",
        True,
        "L13; digest §2.1 proposal",
        "The rulebook names the fumble without saying what it does.",
    ),
    Setting(
        "force_roll_keep",
        "Which die 1a3d10 (the Force rolls) keeps",
        "middle",
        "L153, L168, L196, L219, L246; digest §2.5",
        "The rulebook never defines 1a3d10; most likely it is 1o3d10.",
        choices=(("middle", "The middle die, like 1o3d10"), ("highest", "The highest die")),
    ),
    Setting(
        "luck_ten_explodes",
        "A 10 made by Midichlorian Luck explodes",
        False,
        "L9, L17; digest §2.1 proposal",
        "By default a Luck 10 was not rolled, so it does not explode.",
    ),
    Setting(
        "ranged_damage_bonus",
        "A ranged hit gains +1d6 damage per full 10 over the difficulty",
        False,
        "L59 gives the bonus to melee; the ranged rules (L61-L80) name none",
        "By default only melee attacks gain it, as the rulebook prints.",
    ),
    Setting(
        "reaction_points_at_15",
        "Reaction points for an initiative total of exactly 15",
        3,
        "L100-L101; digest §1.6 proposal",
        "The rulebook puts 15 in both the 2-point and the 3-point row.",
        choices=((3, "3 points (10-14 give 2)"), (2, "2 points (10-15 give 2)")),
    ),
    Setting(
        "initiative_pool",
        "Initiative roll (house rule)",
        "dexterity_reflexes",
        "L21, L97; digest §3 initiative_formula",
        HOUSE_RULE_HELP + " The rulebook uses an initiative total without saying what is rolled.",
        choices=(
            ("dexterity_reflexes", "Dexterity + Reflexes + 1o3d10"),
            ("perception_reflexes", "Perception + Reflexes + 1o3d10"),
            ("dexterity", "Dexterity + 1o3d10"),
        ),
    ),
    Setting(
        "initiative_fail",
        "What counts as a failed initiative roll",
        "critical_fail",
        "L23; digest §1.6 proposal",
        "The initiative roll has no difficulty, so 'fail' needs a reading.",
        choices=(
            ("critical_fail", "A critical fail"),
            ("gm", "The GM decides (the sheet never marks it)"),
        ),
    ),
)


def ranged_mod_key(slug: str) -> str:
    return f"ranged_mod_{slug}"


# Total cover's setting reads 0 as the digest's "no line of fire".
NO_LINE_OF_FIRE = 0
MOST_RANGED_MODIFIER = 30
SETTINGS += tuple(
    Setting(
        ranged_mod_key(slug),
        f"Ranged shot at a target {label.lower()}: difficulty added (house rule)",
        NO_LINE_OF_FIRE if value is None else value,
        "L78 names it; digest §3 ranged_mods proposes the value",
        HOUSE_RULE_HELP
        + " The rulebook names this modifier without a value."
        + (" 0: no line of fire, no shot." if value is None else ""),
        minimum=0,
        maximum=MOST_RANGED_MODIFIER,
    )
    for slug, label, value in RANGED_TARGET_MODIFIERS
)
SETTING_BY_KEY = {setting.key: setting for setting in SETTINGS}
HOUSE_RULE_SETTINGS = frozenset(s.key for s in SETTINGS if s.help.startswith(HOUSE_RULE_HELP))
