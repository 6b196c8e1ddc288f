"""Readings a GM may change, each with the default the seeds (or the digest) give.

Settings whose default comes from neither seed say "not in either seed" in their source.
"""

from __future__ import annotations

from rulesets.core import Setting
from rulesets.weg_d6.data import EDITION_1E, EDITION_RE, EDITIONS
from rulesets.weg_d6.dice import DICE_SETTINGS
from rulesets.weg_d6.gear import GEAR_SETTINGS
from rulesets.weg_d6.wounds import STUN_SETTINGS

NOT_IN_SEEDS = "not in either seed"

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "default_edition",
        "Edition for new characters",
        EDITION_RE,
        "002 (R&E upgrade) and 003 (1E Rules Companion)",
        help="Each sheet keeps its own edition; this only picks the one a new sheet starts in.",
        choices=EDITIONS,
    ),
    Setting(
        "pc_attribute_dice",
        "Attribute dice for a player character",
        18,
        "003:913",
        minimum=6,
        maximum=60,
    ),
    Setting(
        "npc_attribute_dice",
        "Attribute dice for a non-player character",
        12,
        "003:913; published NPCs breaking it: 003:2467, 003:2487",
        help="Published NPCs break it, so it only warns.",
        minimum=6,
        maximum=60,
    ),
    Setting(
        "skill_dice",
        "Skill dice at creation",
        7,
        f"{NOT_IN_SEEDS}: core-book value (digest §3)",
        minimum=0,
        maximum=40,
    ),
    Setting(
        "creation_skill_cap",
        "Most skill dice one skill may take at creation (R&E)",
        2,
        f"{NOT_IN_SEEDS}: core-book value (digest §3)",
        help="0 turns the cap off.",
        minimum=0,
        maximum=20,
    ),
    Setting(
        "specialization_ratio",
        "Specialization dice bought by 1D of skill dice",
        3,
        f"{NOT_IN_SEEDS}: core-book value (digest §3)",
        minimum=1,
        maximum=6,
    ),
    Setting(
        "creation_specialization_cap",
        "Most dice a specialization may rise above its skill at creation (R&E)",
        0,
        f"{NOT_IN_SEEDS}: 002:37 makes a specialization its own skill; the digest (§3) "
        "prices it (1D of skill dice buys 3D) but proposes no ceiling",
        help="0 turns the cap off: the skill dice alone limit it.",
        minimum=0,
        maximum=20,
    ),
    Setting(
        "specialization_rounding",
        "Rounding of half the number before the D (specializations)",
        "up",
        f"002:45 gives no rounding; {NOT_IN_SEEDS} (digest §10.2)",
        choices=(("up", "Round up"), ("down", "Round down")),
    ),
    Setting(
        "starting_character_points",
        "Character Points (skill points) on a new sheet",
        5,
        f"{NOT_IN_SEEDS}: R&E core-book value (digest §3)",
        minimum=0,
        maximum=100,
    ),
    Setting(
        "starting_force_points",
        "Force Points on a new sheet",
        1,
        f"{NOT_IN_SEEDS} for characters (digest §3); PC droids start with 1 (003:1004)",
        minimum=0,
        maximum=20,
    ),
    Setting(
        "pip_limit_scope",
        "One pip per trait between adventures (R&E) applies to",
        "skills",
        f"002:39 says 'skill'; whether attributes count is {NOT_IN_SEEDS} (digest §10.3)",
        help="Skills include specializations, advanced skills and Force skills.",
        choices=(
            ("skills", "Every kind of skill"),
            ("skills_and_attributes", "Skills and attributes"),
        ),
    ),
    Setting(
        "re_first_force_die_cost",
        "R&E price of the first die of a Force skill (doubled without a teacher)",
        3,
        f"{NOT_IN_SEEDS}; digest §10.6 proposes 1 per pip as 003:1010 charges 0D codes",
        minimum=0,
        maximum=50,
    ),
    Setting(
        "multi_skill_power_count",
        "An R&E power using several Force skills counts as",
        "per_skill",
        "002:804 covers two-skill powers; three-skill powers are a digest proposal (§10.5)",
        choices=(("per_skill", "One power per skill it uses"), ("one", "One power")),
    ),
    Setting(
        "power_total_editions",
        "Power total (3 per die + 1 per pip of each skill) applies in",
        EDITION_1E,
        f"003:1798 is a 1E rule; 002 states no cap, so using it in R&E is {NOT_IN_SEEDS}",
        choices=((EDITION_1E, "1st edition only"), ("both", "Both editions")),
    ),
    Setting(
        "alter_order",
        "1E: Alter may be learned after",
        "after_both",
        "003:1762 (digest §10.7)",
        choices=(("after_both", "Both Control and Sense"), ("after_either", "Control or Sense")),
    ),
    Setting(
        "shift_sense_skill",
        "Shift sense needs",
        "sense",
        "003:2239 files it under Sense; 003:1796 lists it among the Alter powers (digest §10.8)",
        choices=(("sense", "Sense"), ("alter", "Alter")),
    ),
    Setting(
        "initial_power_slots",
        "1E: the three initial powers of a Force skill count against",
        "own_skill",
        "003:1778-1796 (the traditional sets) against 003:1798 (a power counts against every "
        "skill it uses); the first reading lets the traditional sets fit at 1D",
        help="Under the second, a set that cannot fit leaves a power for the player to swap.",
        choices=(
            ("own_skill", "Only the skill whose set lists them"),
            ("every_skill", "Every skill they use"),
        ),
    ),
    Setting(
        "forgotten_power_picks",
        "R&E: a power forgotten on the sheet gives back the free picks that taught it",
        "returned",
        f"{NOT_IN_SEEDS}: 002:800-806 and the digest (§5.1, §10) do not say; the first "
        "reading makes forgetting undo the learning",
        help="Undoing the learning on the Advancement page always gives them back.",
        choices=(
            ("returned", "Given back, to teach another power"),
            ("lost", "Lost with the power"),
        ),
    ),
    Setting(
        "force_creation",
        "Force skills at creation are paid with",
        "skill_dice",
        f"{NOT_IN_SEEDS}: the core books' rule (digest §3); who may have them: 002:794, 003:1758",
        help="Either way R&E needs Force-sensitivity, and 1E a Force template or a teacher.",
        choices=(
            ("skill_dice", "The beginning skill dice, under the per-skill cap"),
            ("force_dice", "Force dice of their own (the next reading)"),
        ),
    ),
    Setting(
        "creation_force_dice",
        "Force dice of their own at creation",
        3,
        f"{NOT_IN_SEEDS}: a house rule, used only with the reading above",
        minimum=0,
        maximum=20,
    ),
    Setting(
        "attribute_cost_multiplier_1e",
        "1E attribute price per pip, times the number before the D",
        10,
        f"{NOT_IN_SEEDS} for 1E; the R&E rate of 002:51 as a proposal",
        minimum=1,
        maximum=50,
    ),
    Setting(
        "advanced_prerequisite_dice",
        "Dice the prerequisite of an advanced skill needs",
        5,
        f"{NOT_IN_SEEDS}: core-book value for (A) medicine (digest §2.2)",
        minimum=0,
        maximum=20,
    ),
    Setting(
        "species_limits",
        "Species minimum and maximum at creation",
        "error",
        "002:53 names a species maximum; the numbers are core-book values (digest §3); "
        "003:2350 prints an NPC with a 1D Mechanical",
        help="NPCs only ever get a warning: published ones fall outside the limits.",
        choices=(("error", "Refuse"), ("warning", "Warn"), ("off", "Ignore")),
    ),
    Setting(
        "attribute_roll_1e",
        "1E: buying an attribute pip makes the R&E improvement roll",
        "no_roll",
        f"002:53 is an R&E rule; 003 prices no attribute raise, so carrying the roll over is "
        f"{NOT_IN_SEEDS}",
        help="R&E sheets always roll: the new code against the GM's roll of the species maximum.",
        choices=(("no_roll", "No roll: the pip is bought"), ("roll", "Roll as in R&E")),
    ),
    Setting(
        "training_1e",
        "1E: training time for raises other than learning the Force",
        "none",
        f"003:1762 and 003:1798 time only learning a Force skill or power; a time for other "
        f"raises is {NOT_IN_SEEDS} for 1E (002:43-55 is R&E's)",
        choices=(("none", "None: the pip is bought at once"), ("re", "R&E's times")),
    ),
    Setting(
        "training_floor",
        "Shortest a training may be cut to where the rules give no minimum",
        "one_unit",
        f"002:43, 002:798 and 003:1762 give a minimum only where points shorten the "
        f"training; for the rest (attributes, advanced skills, Move) it is {NOT_IN_SEEDS}",
        help="The GM may always mark a training done.",
        choices=(
            ("one_unit", "One day or one week, as the rule counts it"),
            ("full", "Its full length: only the GM's 'done' ends it early"),
        ),
    ),
    Setting(
        "training_counts",
        "A raise that needs training counts",
        "when_trained",
        "002:43-55: a character must train to improve attributes, advanced skills and Move, "
        "and 002:53 has the new attribute rolled; that the raise (and that roll) waits for "
        "the training's end is what these lines imply, not a sentence they print",
        help="Either way it is paid at once. A raise with no training time (a skill used in "
        "the last adventure, Force-sensitivity) counts at once.",
        choices=(
            ("when_trained", "When its training ends: the sheet keeps the old value until then"),
            ("at_once", "At once: the training is only a record"),
        ),
    ),
    Setting(
        "teacher_limit_1e",
        "1E: a teacher trains a pupil whose Force skill code is",
        "not_above",
        "003:1766 says below the teacher's; the example of 003:1774 has a master teach a pupil "
        "at the master's own 7D+1, at double cost (003:1772)",
        choices=(
            ("not_above", "Up to the teacher's code: the raise past it costs double"),
            ("below", "Only below the teacher's code"),
        ),
    ),
    Setting(
        "dark_side_calls_counted",
        "1E: calls on the Dark Side that raise the next call's difficulty by 3",
        "every",
        "003:1692 and 003:1702 raise it each time a character calls; whether a failed call "
        "counts is not said (the digest counts every earlier call)",
        choices=(("every", "Every call, failed or not"), ("success", "Successful calls only")),
    ),
    Setting(
        "redemption_dark_side",
        "R&E redemption: the Dark Side Points left",
        "at_most_five",
        "002:827 says the total drops to five; for fewer than five the digest keeps them "
        "(§10 item 18)",
        choices=(
            ("at_most_five", "Five at most: fewer stay as they are"),
            ("five", "Five, whatever the total was"),
        ),
    ),
    *DICE_SETTINGS,
    *GEAR_SETTINGS,
    *STUN_SETTINGS,
)
