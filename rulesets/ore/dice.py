"""Star O.R.E. rolls and their exact odds: matching sets read as width x height.

Source: seeds/001_2d19305c3127dd9e.txt (cited as L<n>); digest rules/ore.md §5. A pool is
normal dice (rolled), hard dice (always 10, L93) and wiggle dice (set after the roll, L95).
Bonus dice join before rolling (L111, L181-L182, L454); penalty dice leave in the seed's
order: hard, then normal, then wiggle (L109); no roll holds more than 10 dice (L70). A set
succeeds when its height meets the Difficulty (L99).

The odds count sequences of the normal dice exactly (integers over 10**n) with a dynamic
programme over faces, never the 10**10 sequences of a full pool: "no set of width w at a
height of at least h" bounds how many dice each high face may show, and the number of
sequences within such bounds is a sum of binomials. Wiggle dice are always assumed set
where they serve the question asked best, as a player would set them.

Readings the seed leaves open are DICE_SETTINGS (appended to the system's SETTINGS): which
dice go when a pool passes 10, whether penalty dice come off before that cap, and what a
bad failure is. The published "La Belle Curve" table (L74-L85) is data here, with the two
rows that disagree with the exact odds (7 and 8 dice) named in the odds' note.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, perm
from typing import Any

from rulesets.core.dice import roll as roll_dice
from rulesets.core.rolls import (
    Bar,
    InvalidRoll,
    Odds,
    Rollable,
    RollOption,
    RollResult,
    parse_roll_options,
)
from rulesets.core.settings import Setting, resolve_settings

FACES = 10
ROLL_CAP = 10  # L70: never roll more than 10 dice
# What a rollable may hold before bonuses: far above any sheet (5d stat + 5d skill, or a
# 10d power with stunt dice), low enough that a forged pool is refused, not computed.
MOST_SHEET_DICE = 30
MOST_BONUS_DICE = 5  # +1d/+2d (L111), aiming +2d (L302), a sporting rifle's +3d (L432)
MOST_BONUS_SPECIAL = 2  # +1hd surprise (L181), +1wd helpless target (L182), tools (L454)
MOST_PENALTY_DICE = 10
BAD_FAILURE_BELOW = 6  # L458: every die under 6

# Penalty dice leave hard dice first, then normal, then wiggle (L109).
PENALTY_ORDER = ("hard", "normal", "wiggle")

CAP_TRIM = "dice_cap_trim"
PENALTY_TIMING = "dice_penalty_timing"
BAD_FAILURE = "dice_bad_failure"

TRIM_ORDERS: dict[str, tuple[str, ...]] = {
    "hard_first": PENALTY_ORDER,
    "normal_first": ("normal", "hard", "wiggle"),
}

DICE_SETTINGS: tuple[Setting, ...] = (
    Setting(
        CAP_TRIM,
        "Dice dropped when a roll would pass 10 dice",
        "hard_first",
        "L70 caps every roll at 10 dice without saying which go; digest §5 proposal: the "
        "penalty order of L109",
        help="Bonus hard or wiggle dice can push a pool past 10.",
        choices=(
            ("hard_first", "hard dice, then normal dice, then wiggle dice (the penalty order)"),
            ("normal_first", "normal dice, then hard dice, then wiggle dice"),
        ),
    ),
    Setting(
        PENALTY_TIMING,
        "Penalty dice come off",
        "before_cap",
        "L70, L109; digest §5 proposal (as Wild Talents does)",
        choices=(
            ("before_cap", "before the 10-dice cap, from the whole pool"),
            ("after_cap", "after the pool is cut to 10 dice"),
        ),
    ),
    Setting(
        BAD_FAILURE,
        "A bad failure",
        "below_6",
        "L47 and L87 leave it to the GM; L458 (piloting) says all dice under 6, L509 "
        "(hazards) all dice below the Difficulty; digest §5 proposal: under 6",
        help="A failure worse than usual; what it does is the GM's call.",
        choices=(
            ("below_6", "no set, and every die under 6"),
            ("below_difficulty", "a failure with every die below the Difficulty"),
            ("off", "never flagged"),
        ),
    ),
)
DICE_READINGS: tuple[str, ...] = tuple(setting.key for setting in DICE_SETTINGS)

# "La Belle Curve" (L74-L85): (dice, printed chance, line). The seed rounds to whole percent
# (one decimal from 9 dice on); 10 dice print 99.9% for 99.96%, as no pool that can fail
# may show 100%.
LA_BELLE_CURVE: tuple[tuple[int, str, str], ...] = (
    (2, "10%", "L77"),
    (3, "28%", "L78"),
    (4, "50%", "L79"),
    (5, "70%", "L80"),
    (6, "85%", "L81"),
    (7, "93%", "L82"),
    (8, "96%", "L83"),
    (9, "99.6%", "L84"),
    (10, "99.9%", "L85"),
)
# The rows the exact odds disprove: 93.95% is 94%, and 98.19% is 98%, not 96%.
LA_BELLE_CURVE_WRONG = frozenset({7, 8})


# --- pools ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pool:
    """Dice as rolled: normal dice, hard dice (10s) and wiggle dice."""

    normal: int
    hard: int = 0
    wiggle: int = 0

    @property
    def total(self) -> int:
        return self.normal + self.hard + self.wiggle

    @property
    def text(self) -> str:
        return dice_text(self.normal, self.hard, self.wiggle)


def dice_text(normal: int, hard: int = 0, wiggle: int = 0) -> str:
    """Dice the way the seed writes them: 3d, 3d+1hd, 2d+1hd+1wd, 1wd."""
    parts = [f"{normal}d"] if normal or not (hard or wiggle) else []
    if hard:
        parts.append(f"{hard}hd")
    if wiggle:
        parts.append(f"{wiggle}wd")
    return "+".join(parts)


def _drop(pool: Pool, count: int, order: tuple[str, ...]) -> tuple[Pool, str]:
    """Take `count` dice away in `order`; say which went ("1hd+2d")."""
    left = {"normal": pool.normal, "hard": pool.hard, "wiggle": pool.wiggle}
    gone = {"normal": 0, "hard": 0, "wiggle": 0}
    for kind in order:
        taken = min(left[kind], count)
        left[kind] -= taken
        gone[kind] += taken
        count -= taken
    text = dice_text(gone["normal"], gone["hard"], gone["wiggle"]) if any(gone.values()) else ""
    return Pool(left["normal"], left["hard"], left["wiggle"]), text


def build_pool(
    dice: tuple[int, int, int],
    *,
    bonus: int = 0,
    bonus_hard: int = 0,
    bonus_wiggle: int = 0,
    penalty: int = 0,
    trim: str = "hard_first",
    timing: str = "before_cap",
) -> tuple[Pool, tuple[str, ...]]:
    """The dice actually rolled from a sheet pool and the modifiers, with a line for each
    die dropped (penalty dice, L109; the 10-dice cap, L70)."""
    normal, hard, wiggle = dice
    pool = Pool(normal + bonus, hard + bonus_hard, wiggle + bonus_wiggle)
    notes: list[str] = []

    def penalise(current: Pool) -> Pool:
        if not penalty:
            return current
        after, gone = _drop(current, penalty, PENALTY_ORDER)
        if gone:
            notes.append(f"−{penalty}d penalty: {gone} dropped (hard, then normal, then wiggle).")
        return after

    def cap(current: Pool) -> Pool:
        if current.total <= ROLL_CAP:
            return current
        after, gone = _drop(current, current.total - ROLL_CAP, TRIM_ORDERS[trim])
        notes.append(
            f"{current.total} dice cut to {ROLL_CAP} (never more than 10): {gone} dropped."
        )
        return after

    pool = cap(penalise(pool)) if timing == "before_cap" else penalise(cap(pool))
    return pool, tuple(notes)


# --- counting ---------------------------------------------------------------------------------


# Binomials C(n, k) for n, k <= 10: the dynamic programme below reads them millions of
# times over a session, so a table beats math.comb.
_COMB = tuple(tuple(comb(n, k) for k in range(ROLL_CAP + 1)) for n in range(ROLL_CAP + 1))


@lru_cache(maxsize=8192)
def _misses(normal: int, hard: int, wiggle: int, height: int, width: int) -> int:
    """How many of the 10**normal sequences of the normal dice leave no set of at least
    `width` dice at a height of at least `height`, however the wiggle dice are set."""
    height = max(height, 1)
    if height > FACES:
        return FACES**normal
    # Face f >= height may show at most this many normal dice (hard dice sit on 10, and
    # every wiggle die could join any face); a bound of `normal` or more bounds nothing.
    bounds = [width - 1 - wiggle - (hard if face == FACES else 0) for face in range(height, 11)]
    if min(bounds) < 0:
        return 0
    free = height - 1 + sum(1 for bound in bounds if bound >= normal)
    ways = [1] + [0] * normal  # ways[m]: sequences of m dice over the bounded faces so far
    for bound in (bound for bound in bounds if bound < normal):
        grown = [0] * (normal + 1)
        for placed, count in enumerate(ways):
            if count:
                row = _COMB
                for extra in range(min(bound, normal - placed) + 1):
                    grown[placed + extra] += count * row[placed + extra][extra]
        ways = grown
    return sum(_COMB[normal][k] * free**k * ways[normal - k] for k in range(normal + 1))


def chance_of_set(pool: Pool, *, height: int = 1, width: int = 2) -> Fraction:
    """The exact chance of a set at least `width` wide at a height of at least `height`."""
    width = max(width, 2)
    if pool.total < width:
        return Fraction(0)
    denominator = FACES**pool.normal
    return 1 - Fraction(_misses(pool.normal, pool.hard, pool.wiggle, height, width), denominator)


def any_set_chance(dice: int) -> Fraction:
    """At least one match among `dice` normal d10: 1 - 10!/((10-n)! 10**n)."""
    return 1 - Fraction(perm(FACES, dice), FACES**dice) if dice <= FACES else Fraction(1)


def bad_failure_chance(pool: Pool, rule: str, difficulty: int) -> Fraction:
    """The exact chance of a bad failure under the reading. Hard dice show 10 and a wiggle
    die is set high, so only pools of normal dice can fail badly."""
    if pool.hard or pool.wiggle or not pool.normal or rule == "off":
        return Fraction(0)
    if rule == "below_6":  # no set: every die a different face under 6
        return Fraction(perm(BAD_FAILURE_BELOW - 1, pool.normal), FACES**pool.normal)
    if difficulty <= 1:
        return Fraction(0)
    return Fraction(min(difficulty - 1, FACES) ** pool.normal, FACES**pool.normal)


# --- the options ------------------------------------------------------------------------------

QUESTIONS = (
    ("set", "At least one set"),
    ("height", "A set of height at least…"),
    ("width", "A set of width at least…"),
)


def roll_options(rollable: Rollable, settings: Mapping[str, Any] | None) -> tuple[RollOption, ...]:
    """The modifiers of an O.R.E. roll: the Difficulty, the question the odds answer, and
    bonus and penalty dice."""
    return (
        RollOption(
            "difficulty",
            "Difficulty",
            "number",
            rollable.fact("difficulty", 0),
            minimum=0,
            maximum=FACES,
            source="L99, L189",
            help="The lowest height that succeeds; 0 or 1: any set.",
        ),
        RollOption("question", "Odds of", "choice", "set", choices=QUESTIONS, source="L35-L43"),
        RollOption("height", "Height at least", "number", 5, minimum=1, maximum=FACES),
        RollOption("width", "Width at least", "number", 3, minimum=2, maximum=ROLL_CAP),
        RollOption(
            "bonus",
            "Bonus dice (+d)",
            "number",
            0,
            minimum=0,
            maximum=MOST_BONUS_DICE,
            source="L111, L302",
        ),
        RollOption(
            "bonus_hard",
            "Bonus hard dice (+hd)",
            "number",
            0,
            minimum=0,
            maximum=MOST_BONUS_SPECIAL,
            source="L181, L454",
        ),
        RollOption(
            "bonus_wiggle",
            "Bonus wiggle dice (+wd)",
            "number",
            0,
            minimum=0,
            maximum=MOST_BONUS_SPECIAL,
            source="L182, L454",
        ),
        RollOption(
            "penalty",
            "Penalty dice (−d)",
            "number",
            0,
            minimum=0,
            maximum=MOST_PENALTY_DICE,
            source="L101-L109, L169",
            help="Dropped hard dice first, then normal, then wiggle.",
        ),
    )


@dataclass(frozen=True)
class Spec:
    """Everything one roll depends on once the sheet, the options and the readings are read."""

    pool: Pool
    difficulty: int
    question: str
    height: int  # the lowest height that answers the question (at least the Difficulty)
    width: int  # the narrowest width that answers it
    bad_failure: str
    notes: tuple[str, ...] = ()


def _as_text(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def read_roll(rollable: Rollable, options: Mapping[str, Any]) -> Spec:
    """Check the options (InvalidRoll names the one at fault) and build the roll's Spec."""
    dice = rollable.dice
    if (
        not isinstance(dice, tuple)
        or len(dice) != 3
        or any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in dice)
    ):
        raise InvalidRoll("dice", "An O.R.E. pool is normal, hard and wiggle dice.")
    if sum(dice) > MOST_SHEET_DICE:
        raise InvalidRoll(
            "dice", f"A pool of {sum(dice)} dice is more than any sheet holds ({MOST_SHEET_DICE})."
        )
    definitions = roll_options(rollable, None)
    keys = {option.key for option in definitions}
    chosen = parse_roll_options(
        definitions, {key: _as_text(value) for key, value in options.items() if key in keys}
    )
    readings = resolve_settings(DICE_SETTINGS, options)
    limb_penalty = int(rollable.fact("limb_penalty", 0))
    pool, notes = build_pool(
        dice,
        bonus=chosen["bonus"],
        bonus_hard=chosen["bonus_hard"],
        bonus_wiggle=chosen["bonus_wiggle"],
        penalty=chosen["penalty"] + limb_penalty,
        trim=readings[CAP_TRIM],
        timing=readings[PENALTY_TIMING],
    )
    if limb_penalty:
        notes = (f"−{limb_penalty}d for each destroyed limb (L209).", *notes)
    question = chosen["question"]
    difficulty = chosen["difficulty"]
    height = max(difficulty, chosen["height"] if question == "height" else 1, 1)
    width = chosen["width"] if question == "width" else 2
    return Spec(pool, difficulty, question, height, width, readings[BAD_FAILURE], notes)


# --- odds -------------------------------------------------------------------------------------


def _question_text(spec: Spec) -> str:
    parts = []
    if spec.question == "width":
        parts.append(f"a set at least {spec.width} wide")
    elif spec.height > 1:
        parts.append(f"a set of height {spec.height} or more")
    else:
        parts.append("at least one set")
    if spec.question == "width" and spec.height > 1:
        parts.append(f"at height {spec.height} or more")
    return f"{spec.pool.text}: " + " ".join(parts)


def _belle_curve_note(spec: Spec) -> str:
    """Name the published row these odds correct, when they answer its question."""
    pool = spec.pool
    plain = spec.height <= 1 and spec.width == 2 and not pool.wiggle and pool.hard <= 1
    if not plain or pool.total not in LA_BELLE_CURVE_WRONG:
        return ""
    printed, line = next((text, line) for n, text, line in LA_BELLE_CURVE if n == pool.total)
    exact = any_set_chance(pool.total)
    return (
        f"Seed 001 ({line}, La Belle Curve) prints {printed} for {pool.total} dice; "
        f"the exact chance is {exact.numerator}/{exact.denominator} = {float(exact):.2%}."
    )


@lru_cache(maxsize=4096)
def _odds(spec: Spec) -> Odds:
    pool = spec.pool
    bars: list[Bar] = []
    if spec.question == "width":
        # The widest set at the height asked: no set, then 2 wide up to every die.
        at_least = [chance_of_set(pool, height=spec.height, width=w) for w in range(2, 12)]
        at_least.append(Fraction(0))
        label = "No set" if spec.height <= 1 else f"No set of {spec.height}+"
        bars.append(Bar(label, 1 - at_least[0]))
        for w in range(2, max(pool.total, 2) + 1):
            chance = at_least[w - 2] - at_least[w - 1]
            bars.append(Bar(f"{w} wide", chance, w >= spec.width, threshold=w == spec.width))
        success = at_least[spec.width - 2]
    else:
        # The highest set: no set, then heights 1 to 10.
        at_least = [chance_of_set(pool, height=h) for h in range(1, 11)] + [Fraction(0)]
        bars.append(Bar("No set", 1 - at_least[0]))
        for h in range(1, 11):
            chance = at_least[h - 1] - at_least[h]
            bars.append(
                Bar(f"Height {h}", chance, h >= spec.height, threshold=h == max(spec.height, 1))
            )
        success = at_least[min(spec.height, 11) - 1]
    notes = list(spec.notes)
    corrected = _belle_curve_note(spec)
    if corrected:
        notes.append(corrected)
    if pool.wiggle:
        notes.append("Wiggle dice are counted as set where they answer the question best.")
    bad = bad_failure_chance(pool, spec.bad_failure, spec.difficulty)
    if bad:
        notes.append(f"Bad failure: {float(bad):.2%} ({bad.numerator}/{bad.denominator}).")
    return Odds(success, tuple(bars), _question_text(spec), exact=True, note=" ".join(notes))


def odds(rollable: Rollable, options: Mapping[str, Any]) -> Odds:
    """The exact chance of answering the question asked, with one bar per height of the
    highest set (or per width of the widest), the Difficulty marked."""
    return _odds(read_roll(rollable, options))


# --- a roll -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """Rolled dice read as sets, with the wiggle dice set."""

    sets: tuple[tuple[int, int], ...]  # (width, height), widest first, then highest
    wiggle_face: int | None
    chosen: tuple[int, int] | None  # the set that answers the question, if any
    success: bool
    bar: str  # the odds bar this roll falls in


def read_dice(normal: tuple[int, ...], spec: Spec) -> Reading:
    """Read rolled normal dice with the pool's hard dice (10s) and wiggle dice, set where
    they serve the question best, exactly as `odds` counts them."""
    counts = Counter(normal)
    counts[FACES] += spec.pool.hard
    wiggle = spec.pool.wiggle
    face = None
    if wiggle:
        if spec.question == "width":
            # Join the biggest group at the height asked (ties: the higher face).
            tall = range(max(spec.height, 1), FACES + 1) or range(1, FACES + 1)
            face = max(tall, key=lambda f: (counts[f], f))
        else:
            # The highest face the wiggle dice can make a set with.
            face = max((f for f in range(1, FACES + 1) if counts[f] + wiggle >= 2), default=FACES)
        counts[face] += wiggle
    sets = tuple(sorted(((n, f) for f, n in counts.items() if n >= 2), reverse=True))
    answering = [(w, h) for w, h in sets if h >= spec.height and w >= spec.width]
    if spec.question == "width":
        chosen = max(answering, default=None)
        good = [w for w, h in sets if h >= spec.height]
        bar = (
            f"{max(good)} wide"
            if good
            else ("No set" if spec.height <= 1 else f"No set of {spec.height}+")
        )
    else:
        chosen = max(answering, key=lambda s: (s[1], s[0]), default=None)
        bar = f"Height {max(h for _w, h in sets)}" if sets else "No set"
    return Reading(sets, face, chosen, chosen is not None, bar)


def is_bad_failure(normal: tuple[int, ...], reading: Reading, spec: Spec) -> bool:
    if reading.success or spec.bad_failure == "off" or not normal:
        return False
    if spec.pool.hard or spec.pool.wiggle:
        return False
    if spec.bad_failure == "below_6":
        return not reading.sets and max(normal) < BAD_FAILURE_BELOW
    return max(normal) < spec.difficulty


def sets_text(sets: tuple[tuple[int, int], ...]) -> str:
    return ", ".join(f"{w}x{h}" for w, h in sets) or "no set"


def roll(rollable: Rollable, options: Mapping[str, Any], rng: random.Random) -> RollResult:
    """Roll the normal dice with the caller's generator and read the sets as `odds` does."""
    spec = read_roll(rollable, options)
    normal = tuple(roll_dice(spec.pool.normal, FACES, rng))
    reading = read_dice(normal, spec)
    if reading.success:
        outcome = "success"
    elif is_bad_failure(normal, reading, spec):
        outcome = "bad failure"
    else:
        outcome = "failure"
    details = list(spec.notes)
    if spec.pool.hard:
        details.append(f"{spec.pool.hard} hard {'die' if spec.pool.hard == 1 else 'dice'}: 10")
    if reading.wiggle_face is not None:
        details.append(
            f"Wiggle {'die' if spec.pool.wiggle == 1 else 'dice'} set to {reading.wiggle_face}"
        )
    if spec.difficulty > 1:
        details.append(f"Difficulty {spec.difficulty}")
    # "bar": the odds bar this roll falls in, so a page can mark it on the chart.
    facts: tuple[tuple[str, Any], ...] = (("bar", reading.bar),)
    if reading.chosen:
        width, height = reading.chosen
        facts += (("width", width), ("height", height))
        verdict = f"{width}x{height}: {outcome}"
    else:
        verdict = outcome
    summary = f"{rollable.label}: {spec.pool.text} → {sets_text(reading.sets)} ({verdict})"
    return RollResult(
        dice=normal,
        kept=sets_text(reading.sets),
        outcome=outcome,
        success=reading.success,
        summary=summary,
        total=reading.chosen[1] if reading.chosen else None,
        details=tuple(details),
        facts=facts,
    )


# --- the sheet's rollables ----------------------------------------------------------------------

# The skill an attack with a weapon of the table uses: L159 (Coordination for blasters and
# lightsabers, Body for raw power) and the skill list (L664-L736). Digest §1.6 proposal.
WEAPON_SKILLS: dict[str, str] = {
    "melee": "melee_weapons",
    "simple ranged": "throw_grenade",
    "pistol": "blaster",
    "rifle": "blaster",
    "heavy": "heavy_weapons",
    "grenade": "throw_grenade",
}
WEAPON_SKILL_BY_SLUG: dict[str, str] = {
    "unarmed": "brawling",
    "lightsaber": "lightsaber",
    "double_lightsaber": "lightsaber",
}


def _facts(**facts: Any) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, v) for k, v in facts.items() if v is not None))


def rollables(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> tuple[Rollable, ...]:
    """Every pool the sheet rolls: stats, skills (stat + skill), Force powers and stunts,
    and an attack with each weapon. A destroyed limb costs every roll 1d (L209)."""
    # Imported here: data imports this module for DICE_SETTINGS.
    from rulesets.ore import data, rules

    derived_locations = rules.hit_locations(sheet, resolve_settings(data.SETTINGS, settings))
    limbs = sum(1 for row in derived_locations if row["limb"] and row["status"] == "destroyed")
    common = {"limb_penalty": limbs}
    found: list[Rollable] = []
    for stat in data.STATS:
        hard, wiggle = rules.stat_extra_dice(sheet, stat.slug)
        found.append(
            Rollable(
                f"stat.{stat.slug}",
                stat.label,
                (sheet["stats"][stat.slug], hard, wiggle),
                _facts(**common),
                "Stats",
                stat.source,
            )
        )
    # A weapon's attack rolls the first skill row of its kind: (formula, dice) by skill.
    skill_pools: dict[str, tuple[str, tuple[int, int, int]]] = {}
    for row in sheet["skills"]:
        catalog = data.SKILL_BY_SLUG.get(row["skill"])
        if catalog and catalog.needs_dice_to_try and not row["dice"]:
            continue  # L660: no attempt without dice
        stat_hard, stat_wiggle = rules.stat_extra_dice(sheet, row["stat"])
        skill_hard, skill_wiggle = rules.skill_extra_dice(sheet, row)
        dice = (
            sheet["stats"][row["stat"]] + row["dice"],
            stat_hard + skill_hard,
            stat_wiggle + skill_wiggle,
        )
        formula = f"{data.STAT_BY_SLUG[row['stat']].label} + {row['name']}"
        skill_pools.setdefault(row["skill"] or row["id"], (formula, dice))
        found.append(
            Rollable(
                f"skill.{row['id']}",
                f"{row['name']} ({formula})",
                dice,
                _facts(**common),
                "Skills",
                catalog.source if catalog else "L662",
            )
        )
    for power in data.POWERS:
        row = sheet["powers"][power.slug]
        if not (row["dice"] or row["hard"] or row["wiggle"]):
            continue
        found.append(
            Rollable(
                f"power.{power.slug}",
                power.label,
                (row["dice"], row["hard"], row["wiggle"]),
                _facts(**common),
                "The Force",
                power.source,
            )
        )
        for slug, stunt_row in sorted(sheet["stunts"].items()):
            stunt = data.STUNT_BY_SLUG[slug]
            if stunt.power != power.slug:
                continue
            found.append(
                Rollable(
                    f"stunt.{slug}",
                    f"{stunt.label} ({power.label} + {stunt.label})",
                    (row["dice"] + stunt_row["dice"], row["hard"], row["wiggle"]),
                    _facts(**common),
                    "The Force",
                    f"L882, {stunt.source}",
                )
            )
    for n, weapon in enumerate(sheet["weapons"]):
        catalog = data.WEAPON_BY_SLUG.get(weapon["from"])
        skill = WEAPON_SKILL_BY_SLUG.get(weapon["from"]) or (
            WEAPON_SKILLS.get(catalog.category, "") if catalog else ""
        )
        if skill in skill_pools:
            how, dice = skill_pools[skill]
        elif skill:
            stat = data.SKILL_BY_SLUG[skill].stat
            if data.SKILL_BY_SLUG[skill].needs_dice_to_try:
                continue
            hard, wiggle = rules.stat_extra_dice(sheet, stat)
            dice = (sheet["stats"][stat], hard, wiggle)
            how = f"{data.STAT_BY_SLUG[stat].label}, untrained in {data.SKILL_BY_SLUG[skill].label}"
        else:
            hard, wiggle = rules.stat_extra_dice(sheet, "coordination")
            dice = (sheet["stats"]["coordination"], hard, wiggle)
            how = "Coordination: no skill named for this weapon"
        found.append(
            Rollable(
                f"weapon.{n}",
                f"{weapon['name']} attack ({how})",
                dice,
                _facts(
                    **common,
                    weapon=n,
                    damage=weapon["damage"],
                    penetration=weapon["penetration"],
                ),
                "Weapons",
                f"L157-L163, {catalog.source}" if catalog else "L157-L163",
            )
        )
    return tuple(found)
