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
import re
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
    Beside,
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


@dataclass(frozen=True)
class AttackModifier:
    """One circumstance of the attack tables (L171-L185): what it adds, where it is printed.
    A choice's rows share a key; a flag's row has the choice value ""."""

    key: str
    value: str
    label: str
    kind: str  # "ranged" or "melee" (hand-to-hand)
    source: str
    dice: int = 0  # +d / -d
    hard: int = 0  # +hd
    wiggle: int = 0  # +wd
    difficulty: int = 0  # +Difficulty


# The attack tables (L171-L185), applied before rolling (L169); a Difficulty modifier raises
# the Difficulty, the lowest height that succeeds (L189).
ATTACK_MODIFIERS: tuple[AttackModifier, ...] = (
    AttackModifier("target_running", "", "Target running", "ranged", "L172", difficulty=2),
    AttackModifier("attacker_running", "", "Attacker running", "ranged", "L173", dice=-1),
    AttackModifier("cover", "partial", "Partial cover", "ranged", "L174", difficulty=4),
    AttackModifier("cover", "nearly_full", "Nearly full cover", "ranged", "L175", difficulty=6),
    AttackModifier("obscured", "", "Target obscured by smoke or fog", "ranged", "L176", dice=-1),
    AttackModifier(
        "hidden", "", "Target hidden by darkness or vegetation", "ranged", "L177", dice=-2
    ),
    AttackModifier("from_behind", "", "Attacking from behind", "melee", "L180", dice=1),
    AttackModifier("surprise", "", "Attacking from surprise", "melee", "L181", hard=1),
    AttackModifier("helpless", "", "Target helpless", "melee", "L182", wiggle=1),
    AttackModifier(
        "from_above", "", "Attacking from above, or target knocked down", "melee", "L183", dice=1
    ),
    AttackModifier("size", "bigger", "Much bigger target", "melee", "L184", dice=1),
    AttackModifier("size", "smaller", "Much smaller target", "melee", "L184", dice=-1),
    AttackModifier("attacker_prone", "", "Attacker prone", "melee", "L185", dice=-1),
)
_MODIFIER_ROWS: dict[tuple[str, str], AttackModifier] = {
    (row.key, row.value): row for row in ATTACK_MODIFIERS
}
ATTACK_KINDS = {"ranged": "Ranged attack", "melee": "Hand-to-hand attack"}
# The skills an attack rolls, by kind (the weapon table's categories, WEAPON_SKILLS below).
ATTACK_SKILLS: dict[str, str] = {
    "brawling": "melee",
    "melee_weapons": "melee",
    "lightsaber": "melee",
    "blaster": "ranged",
    "heavy_weapons": "ranged",
    "throw_grenade": "ranged",
    "gunnery": "ranged",
}


def effect_text(row: AttackModifier) -> str:
    parts = []
    if row.dice:
        parts.append(f"{row.dice:+d}d")
    if row.hard:
        parts.append(f"+{row.hard}hd")
    if row.wiggle:
        parts.append(f"+{row.wiggle}wd")
    if row.difficulty:
        parts.append(f"+{row.difficulty} Difficulty")
    return ", ".join(parts)


def attack_options(kind: str) -> tuple[RollOption, ...]:
    """The attack table's circumstances as roll options, each with its seed line: a flag per
    row, and a choice where rows exclude each other (cover; a much bigger or smaller target).
    `kind` "any" (a weapon the catalog does not name) offers both tables."""
    kinds = ("ranged", "melee") if kind == "any" else (kind,)
    options: list[RollOption] = []
    seen: set[str] = set()
    for row in ATTACK_MODIFIERS:
        if row.kind not in kinds or row.key in seen:
            continue
        seen.add(row.key)
        table = ATTACK_KINDS[row.kind]
        if row.value:
            rows = [other for other in ATTACK_MODIFIERS if other.key == row.key]
            options.append(
                RollOption(
                    row.key,
                    "Cover" if row.key == "cover" else "Target's size",
                    "choice",
                    "none",
                    choices=(
                        ("none", "None" if row.key == "cover" else "About the attacker's"),
                        *((o.value, f"{o.label} ({effect_text(o)})") for o in rows),
                    ),
                    source="-".join(dict.fromkeys(o.source for o in rows)),
                    help=f"{table} (L169-L189).",
                )
            )
        else:
            options.append(
                RollOption(
                    row.key,
                    f"{row.label} ({effect_text(row)})",
                    "flag",
                    False,
                    source=row.source,
                    help=f"{table} (L169-L189).",
                )
            )
    return tuple(options)


def chosen_attack_modifiers(
    rollable: Rollable, chosen: Mapping[str, Any]
) -> tuple[AttackModifier, ...]:
    """The rows of the attack tables this roll takes; InvalidRoll when it mixes a ranged
    circumstance with a hand-to-hand one."""
    offered = {option.key for option in attack_options(rollable.fact("attack", "") or "any")}
    rows = []
    for key in dict.fromkeys(row.key for row in ATTACK_MODIFIERS):
        if key not in offered:
            continue
        value = chosen.get(key)
        if value is True:
            rows.append(_MODIFIER_ROWS[(key, "")])
        elif isinstance(value, str) and (key, value) in _MODIFIER_ROWS:
            rows.append(_MODIFIER_ROWS[(key, value)])
    kinds = {row.kind for row in rows}
    if len(kinds) > 1:
        late = next(row for row in rows if row.kind == "melee")
        raise InvalidRoll(
            late.key, "An attack is ranged or hand-to-hand: its circumstances do not mix."
        )
    return tuple(rows)


def roll_options(rollable: Rollable, settings: Mapping[str, Any] | None) -> tuple[RollOption, ...]:
    """The modifiers of an O.R.E. roll: the Difficulty, the question the odds answer, bonus
    and penalty dice, and for an attack its circumstances (L171-L185). Suppressing fire is a
    flat roll (L344): only its own options."""
    if rollable.fact("kind") == SUPPRESS:
        return suppress_options(rollable)
    attack = rollable.fact("attack", "")
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
        *(attack_options(attack) if attack else ()),
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
    circumstances = chosen_attack_modifiers(rollable, chosen)
    more = sum(max(row.dice, 0) for row in circumstances)
    fewer = -sum(min(row.dice, 0) for row in circumstances)
    pool, notes = build_pool(
        dice,
        bonus=chosen["bonus"] + more,
        bonus_hard=chosen["bonus_hard"] + sum(row.hard for row in circumstances),
        bonus_wiggle=chosen["bonus_wiggle"] + sum(row.wiggle for row in circumstances),
        penalty=chosen["penalty"] + limb_penalty + fewer,
        trim=readings[CAP_TRIM],
        timing=readings[PENALTY_TIMING],
    )
    if circumstances:
        listed = ", ".join(f"{row.label.lower()} {effect_text(row)}" for row in circumstances)
        notes = (f"{ATTACK_KINDS[circumstances[0].kind]}: {listed} (L171-L185).", *notes)
    if limb_penalty:
        notes = (f"−{limb_penalty}d for each destroyed limb (L209).", *notes)
    question = chosen["question"]
    raised = sum(row.difficulty for row in circumstances)
    difficulty = chosen["difficulty"] + raised
    if difficulty > FACES:
        notes = (*notes, f"Difficulty {difficulty}: no height reaches it.")
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
    highest set (or per width of the widest), the Difficulty marked; for suppressing fire,
    the chance of a set and of a target hit (L344-L346)."""
    if rollable.fact("kind") == SUPPRESS:
        return _suppress_odds(read_suppress(rollable, options))
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
    if rollable.fact("kind") == SUPPRESS:
        return _suppress_roll(rollable, read_suppress(rollable, options), rng)
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


# --- suppressing fire (L340-L350) ----------------------------------------------------------------

SUPPRESS = "suppress"
SUPPRESS_DICE = 2  # L344: a flat 2d, whatever the attack pool
SUPPRESS_TWO_BLASTERS_DICE = 3  # L350: two blasters and Two-Weapon Fighting at least the skill
MOST_TARGETS = 10
_SPRAY = re.compile(r"\bspray\s*([0-9]{1,2})\b", re.IGNORECASE)
# The weapons that pour fire into an area: the blasters of the table (L424-L438); any other
# weapon whose special column gives a Spray rating (L346).
SUPPRESS_CATEGORIES = frozenset({"pistol", "rifle", "heavy"})


def spray_rating(special: str) -> int:
    """The Spray rating a weapon's special column names ("Spray 2"), or 0."""
    match = _SPRAY.search(str(special or ""))
    return int(match[1]) if match else 0


def suppress_options(rollable: Rollable) -> tuple[RollOption, ...]:
    return (
        RollOption(
            "two_blasters",
            "A blaster in each hand (3d)",
            "flag",
            False,
            source="L350",
            help="Needs Two-Weapon Fighting at least equal to the weapon skill.",
        ),
        RollOption(
            "targets",
            "Exposed targets",
            "number",
            1,
            minimum=1,
            maximum=MOST_TARGETS,
            source="L344-L346",
            help="Each rolls one die per set; a die equal to the set's height is a hit.",
        ),
    )


@dataclass(frozen=True)
class Suppress:
    dice: int
    spray: int
    targets: int
    two_blasters: bool
    limbs: int = 0


def read_suppress(rollable: Rollable, options: Mapping[str, Any]) -> Suppress:
    definitions = suppress_options(rollable)
    keys = {option.key for option in definitions}
    chosen = parse_roll_options(
        definitions, {key: _as_text(value) for key, value in options.items() if key in keys}
    )
    spray = int(rollable.fact("spray", 0))
    two = chosen["two_blasters"]
    if two and not rollable.fact("two_weapon_ok", False):
        twf, skill = rollable.fact("two_weapon_dice", 0), rollable.fact("skill_dice", 0)
        raise InvalidRoll(
            "two_blasters",
            f"Two-Weapon Fighting {twf}d is below the weapon skill's {skill}d: 2d (L350).",
        )
    base = SUPPRESS_TWO_BLASTERS_DICE if two else SUPPRESS_DICE
    # A destroyed limb costs every action 1d (L209), this flat pool too.
    limbs = int(rollable.fact("limb_penalty", 0))
    dice = max(min(base + spray, ROLL_CAP) - limbs, 0)
    return Suppress(dice, spray, chosen["targets"], two, limbs)


@lru_cache(maxsize=64)
def sets_distribution(dice: int) -> tuple[int, ...]:
    """Ways (of 10**dice) for `dice` d10 to show exactly s sets (faces rolled twice or more),
    index s: faces one at a time, each taking some of the dice still unplaced."""
    ways: dict[tuple[int, int], int] = {(0, 0): 1}  # (dice placed, sets) -> sequences
    for _face in range(FACES):
        grown: dict[tuple[int, int], int] = {}
        for (placed, sets), count in ways.items():
            for taken in range(dice - placed + 1):
                key = (placed + taken, sets + (taken >= 2))
                grown[key] = grown.get(key, 0) + count * comb(dice - placed, taken)
        ways = grown
    most = dice // 2
    return tuple(ways.get((dice, sets), 0) for sets in range(most + 1))


def suppress_hit_chance(dice: int, targets: int = 1) -> Fraction:
    """The exact chance that at least one of `targets` exposed targets is hit: with s sets,
    each target rolls s dice and each hits on its set's height, 1 in 10 (L344-L346)."""
    counts = sets_distribution(dice)
    miss = Fraction(FACES - 1, FACES)
    return sum(
        (Fraction(count, FACES**dice) * (1 - miss ** (sets * targets))
         for sets, count in enumerate(counts)),
        Fraction(0),
    )  # fmt: skip


@lru_cache(maxsize=256)
def _suppress_odds(spec: Suppress) -> Odds:
    counts = sets_distribution(spec.dice)
    total = FACES**spec.dice
    bars = [Bar("No set", Fraction(counts[0], total))]
    for sets, count in enumerate(counts[1:], start=1):
        label = "1 set" if sets == 1 else f"{sets} sets"
        bars.append(Bar(label, Fraction(count, total), True, threshold=sets == 1))
    success = 1 - Fraction(counts[0], total)
    beside = [Beside("An exposed target is hit", suppress_hit_chance(spec.dice), "L344-L346")]
    if spec.targets > 1:
        beside.append(
            Beside(
                f"At least one of the {spec.targets} targets is hit",
                suppress_hit_chance(spec.dice, spec.targets),
                "L344-L346",
            )
        )
    pool = dice_text(spec.dice)
    notes = [f"Suppressing fire rolls a flat {pool}"]
    if spec.spray:
        notes[0] += f" (Spray {spec.spray} included, L346)"
    if spec.two_blasters:
        notes[0] += ", with a blaster in each hand (L350)"
    notes[0] += "."
    if spec.limbs:
        notes.append(f"−{spec.limbs}d for each destroyed limb (L209).")
    notes.append("An NPC under fire rolls Cool+Stability or ducks for cover (L348).")
    question = f"{pool}: at least one set, so exposed targets roll to be hit"
    return Odds(
        success, tuple(bars), question, exact=True, note=" ".join(notes), beside=tuple(beside)
    )


def _suppress_roll(rollable: Rollable, spec: Suppress, rng: random.Random) -> RollResult:
    rolled = tuple(roll_dice(spec.dice, FACES, rng))
    counts = Counter(rolled)
    sets = tuple(sorted(((n, f) for f, n in counts.items() if n >= 2), reverse=True))
    details = []
    hit = 0
    dice = list(rolled)
    if sets:
        heights = [height for _width, height in sets]
        for target in range(1, spec.targets + 1):
            faces = roll_dice(len(sets), FACES, rng)
            dice += faces
            struck = [h for h, face in zip(heights, faces, strict=True) if face == h]
            hit += bool(struck)
            verdict = f"hit by the {struck[0]}s" if struck else "not hit"
            details.append(f"Target {target} rolls {faces} against {heights}: {verdict}")
    outcome = "success" if sets else "failure"
    label = "No set" if not sets else ("1 set" if len(sets) == 1 else f"{len(sets)} sets")
    who = (
        f"{hit} of {spec.targets} target{'s' if spec.targets > 1 else ''} hit"
        if sets
        else "no target rolls"
    )
    summary = f"{rollable.label}: {dice_text(spec.dice)} → {sets_text(sets)} ({who})"
    return RollResult(
        dice=tuple(dice),
        kept=sets_text(sets),
        outcome=outcome,
        success=bool(sets),
        summary=summary,
        total=len(sets),
        details=tuple(details),
        facts=(("bar", label), ("sets", len(sets)), ("targets_hit", hit)),
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
    # The skill's own dice, for Two-Weapon Fighting against the weapon skill (L350).
    skill_dice: dict[str, int] = {}
    for row in sheet["skills"]:
        if row["skill"]:
            skill_dice[row["skill"]] = max(skill_dice.get(row["skill"], 0), row["dice"])
        catalog = data.SKILL_BY_SLUG.get(row["skill"])
        if catalog and catalog.needs_dice_to_try and not row["dice"]:
            continue  # L660: no attempt without dice
        stat_hard, stat_wiggle = rules.stat_extra_dice(sheet, row["stat"])
        skill_hard, skill_wiggle = rules.skill_extra_dice(sheet, row, settings)
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
                _facts(**common, attack=ATTACK_SKILLS.get(row["skill"])),
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
        if catalog:
            attack = "melee" if catalog.category == "melee" else "ranged"
        else:
            attack = ATTACK_SKILLS.get(skill, "any")
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
                    attack=attack,
                ),
                "Weapons",
                f"L157-L163, {catalog.source}" if catalog else "L157-L163",
            )
        )
        spray = spray_rating(weapon["special"]) or spray_rating(catalog.special if catalog else "")
        if spray or (catalog and catalog.category in SUPPRESS_CATEGORIES):
            twf = skill_dice.get("two_weapon_fighting", 0)
            own = skill_dice.get(skill, 0)
            found.append(
                Rollable(
                    f"suppress.{n}",
                    f"{weapon['name']}: suppressing fire",
                    (SUPPRESS_DICE + spray, 0, 0),
                    _facts(
                        **common,
                        kind=SUPPRESS,
                        spray=spray,
                        weapon=n,
                        two_weapon_dice=twf,
                        skill_dice=own,
                        two_weapon_ok=twf >= 1 and twf >= own,
                    ),
                    "Weapons",
                    "L340-L350",
                )
            )
    return tuple(found)
