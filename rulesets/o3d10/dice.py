"""The 1o3d10 roll: three d10, keep one (the "target die"), explode on 10, with exact odds.

Source: seeds/004_8cbd6e5c00de6f21.txt L5-L17, L41; digest §2. Every roll takes an injected
random.Random. The readings the seed leaves open arrive as keyword arguments (the rules
module passes the campaign's settings), so this module stays free of sheet knowledge:

- `explode_mode`: "max_of_3d10" (roll 3d10 again once and add the highest; the literal
  reading of L9), "open_d10" (add 1d10, again on every 10) or "new_1o3d10" (add a new
  1o3d10 read like the roll it extends, itself exploding on a kept 10);
- `wounded_crit_fail`: "literal" (lowest die 1 and the middle die below 5), "distinct" (the
  next *different* value below 5) or "middle_only" (test the middle die as when unhurt);
- `force_keep`: "middle" (1a3d10 read as 1o3d10) or "highest".
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
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
from rulesets.o3d10 import data

LOWEST, MIDDLE, HIGHEST = 0, 1, 2
POSITION_LABELS = {LOWEST: "lowest", MIDDLE: "middle", HIGHEST: "highest"}

EXPLODE_MODES = ("max_of_3d10", "open_d10", "new_1o3d10")
WOUNDED_CRIT_FAIL_RULES = ("literal", "distinct", "middle_only")
FORCE_KEEP_RULES = ("middle", "highest")

Dice = tuple[int, int, int]


class LuckRefused(ValueError):
    """Midichlorian Luck cannot be applied to this roll; the message says why."""


def keep_position(*, wounded: bool, force: bool = False, force_keep: str = "middle") -> int:
    """Say which sorted die is the target die: the middle one, unless a rule moves it."""
    if wounded:
        return LOWEST  # L41
    if force and force_keep == "highest":
        return HIGHEST  # digest §2.5, the other reading of 1a3d10
    return MIDDLE  # L5


def is_critical_fail(
    dice: Dice,
    *,
    wounded: bool,
    force: bool = False,
    force_keep: str = "middle",
    wounded_crit_fail: str = "literal",
) -> bool:
    """Tell whether natural dice fumble: target die 1 and the die above it below 5 (L13)."""
    if force and force_keep == "highest":
        return False  # L13 limits fumbles to the 1o3d10 roll; keep-highest is another roll
    low, mid, high = sorted(dice)
    below = data.CRIT_FAIL_NEXT_DIE_BELOW
    if not wounded or wounded_crit_fail == "middle_only":
        return mid == 1 and high < below
    if low != 1:
        return False
    if wounded_crit_fail == "literal":
        return mid < below
    higher = [die for die in (mid, high) if die > 1]
    # Three ones have no higher value at all; the digest's 145/1000 counts them as a fumble.
    return not higher or higher[0] < below


@dataclass(frozen=True)
class ThreeDiceRoll:
    """One 1o3d10 roll as rolled (`natural`) and as read after Luck (`dice`)."""

    natural: Dice
    dice: Dice
    position: int
    critical_fail: bool
    explosion: tuple[int, ...] = ()
    explosion_bonus: int = 0
    luck_die: int | None = None

    @property
    def kept(self) -> int:
        return sorted(self.dice)[self.position]

    @property
    def result(self) -> int:
        """The number added to stat and skill: the target die plus any explosion."""
        return self.kept + self.explosion_bonus

    @property
    def exploded(self) -> bool:
        return bool(self.explosion)


def read_dice(
    natural: Dice,
    *,
    wounded: bool = False,
    force: bool = False,
    force_keep: str = "middle",
    wounded_crit_fail: str = "literal",
) -> ThreeDiceRoll:
    """Read three given dice without rolling anything (explosions are left to the roller)."""
    _check_dice(natural)
    return ThreeDiceRoll(
        natural=tuple(natural),
        dice=tuple(natural),
        position=keep_position(wounded=wounded, force=force, force_keep=force_keep),
        critical_fail=is_critical_fail(
            natural,
            wounded=wounded,
            force=force,
            force_keep=force_keep,
            wounded_crit_fail=wounded_crit_fail,
        ),
    )


def roll_explosion(
    rng: random.Random, explode_mode: str = "max_of_3d10", position: int = MIDDLE
) -> tuple[tuple[int, ...], int]:
    """Roll the extra dice of an explosion and say what they add (L9)."""
    if explode_mode == "new_1o3d10":
        rolled = []
        added = 0
        while True:  # each new roll keeps the same die and explodes again on a 10
            dice = roll_dice(3, data.DIE_SIDES, rng)
            rolled.extend(dice)
            kept = sorted(dice)[position]
            added += kept
            if kept < data.DIE_SIDES:
                return tuple(rolled), added
    if explode_mode == "open_d10":
        rolled: list[int] = []
        while True:
            (die,) = roll_dice(1, data.DIE_SIDES, rng)
            rolled.append(die)
            if die < data.DIE_SIDES:
                return tuple(rolled), sum(rolled)
    if explode_mode != "max_of_3d10":
        raise ValueError(f"unknown explosion reading {explode_mode!r}")
    rolled = roll_dice(3, data.DIE_SIDES, rng)
    return tuple(rolled), max(rolled)


def roll_1o3d10(
    rng: random.Random,
    *,
    wounded: bool = False,
    force: bool = False,
    force_keep: str = "middle",
    wounded_crit_fail: str = "literal",
    explode_mode: str = "max_of_3d10",
) -> ThreeDiceRoll:
    """Roll 3d10, keep the target die, and explode when it shows 10."""
    natural = tuple(roll_dice(3, data.DIE_SIDES, rng))
    read = read_dice(
        natural,
        wounded=wounded,
        force=force,
        force_keep=force_keep,
        wounded_crit_fail=wounded_crit_fail,
    )
    if read.kept == data.DIE_SIDES:
        explosion, bonus = roll_explosion(rng, explode_mode, read.position)
        read = replace(read, explosion=explosion, explosion_bonus=bonus)
    return read


def use_luck(
    rolled: ThreeDiceRoll,
    die_index: int,
    rng: random.Random,
    *,
    explode_mode: str = "max_of_3d10",
    luck_ten_explodes: bool = False,
) -> ThreeDiceRoll:
    """Turn one die of a finished roll into a 10 (L17); a fumble stays a fumble.

    Spending the point (once per in-game day) is the sheet's business: see the `luck.use`
    edit in the rules module.
    """
    if rolled.critical_fail:
        raise LuckRefused("Midichlorian Luck cannot turn a critical fail into a success.")
    if rolled.luck_die is not None:
        raise LuckRefused("Midichlorian Luck was already used on this roll.")
    if die_index not in (0, 1, 2):
        raise LuckRefused(f"There is no die {die_index + 1}; choose die 1, 2 or 3.")
    dice = list(rolled.dice)
    dice[die_index] = data.LUCK_FACE
    lucky = replace(rolled, dice=tuple(dice), luck_die=die_index)
    newly_ten = rolled.kept < data.DIE_SIDES and lucky.kept == data.DIE_SIDES
    if newly_ten and luck_ten_explodes:
        explosion, bonus = roll_explosion(rng, explode_mode, lucky.position)
        lucky = replace(lucky, explosion=explosion, explosion_bonus=bonus)
    return lucky


@dataclass(frozen=True)
class CheckOutcome:
    total: int
    dc: int
    success: bool
    critical: bool
    critical_fail: bool

    @property
    def margin(self) -> int:
        return self.total - self.dc


def resolve_check(
    total: int, dc: int, *, critical_fail: bool = False, fumble_fails: bool = True
) -> CheckOutcome:
    """Compare a total with a difficulty: meeting it succeeds, 10 over is a critical (L11)."""
    fumbled = critical_fail and fumble_fails
    success = total >= dc and not fumbled
    critical = success and total - dc >= data.CRITICAL_MARGIN
    return CheckOutcome(total, dc, success, critical, critical_fail)


def melee_bonus_d6(total: int, defense: int) -> int:
    """Count the extra d6 of damage: one per full 10 the attack beats Defense by (L59)."""
    if total < defense:
        return 0
    return (total - defense) // data.MELEE_BONUS_D6_PER_MARGIN


def _check_dice(dice: Dice) -> None:
    if len(dice) != 3 or any(not 1 <= die <= data.DIE_SIDES for die in dice):
        raise ValueError(f"a 1o3d10 roll is three dice from 1 to 10, not {dice!r}")


# --- Exact odds --------------------------------------------------------------------------
_ALL_ROLLS: tuple[Dice, ...] = tuple(itertools.product(range(1, data.DIE_SIDES + 1), repeat=3))
ROLL_COUNT = len(_ALL_ROLLS)  # 1000 equally likely outcomes
# The 220 sorted rolls with how many of the 1000 show each: what every reading looks at.
_SORTED_ROLLS: tuple[tuple[Dice, int], ...] = tuple(
    sorted(Counter(tuple(sorted(dice)) for dice in _ALL_ROLLS).items())
)


@cache
def kept_counts(position: int) -> tuple[int, ...]:
    """Count, for each face 1-10, the outcomes of 3d10 whose die at `position` shows it."""
    counts = [0] * data.DIE_SIDES
    for dice in _ALL_ROLLS:
        counts[sorted(dice)[position] - 1] += 1
    return tuple(counts)


@cache
def critical_fail_count(
    *,
    wounded: bool,
    force: bool = False,
    force_keep: str = "middle",
    wounded_crit_fail: str = "literal",
) -> int:
    """Count the fumbling outcomes out of 1000 under the given readings."""
    return sum(
        is_critical_fail(
            dice,
            wounded=wounded,
            force=force,
            force_keep=force_keep,
            wounded_crit_fail=wounded_crit_fail,
        )
        for dice in _ALL_ROLLS
    )


@cache
def explosion_at_least(
    needed: int, explode_mode: str = "max_of_3d10", position: int = MIDDLE
) -> Fraction:
    """Give the chance that an explosion adds at least `needed`."""
    if needed <= 0:
        return Fraction(1)
    sides = data.DIE_SIDES
    if explode_mode == "new_1o3d10":
        counts = kept_counts(position)
        if needed <= sides:
            return Fraction(sum(counts[needed - 1 :]), ROLL_COUNT)
        # Past 10 the new roll must keep a 10 and explode in turn.
        top = Fraction(counts[sides - 1], ROLL_COUNT)
        return top * explosion_at_least(needed - sides, explode_mode, position)
    if explode_mode == "max_of_3d10":
        if needed > sides:
            return Fraction(0)
        return 1 - Fraction(needed - 1, sides) ** 3
    if explode_mode != "open_d10":
        raise ValueError(f"unknown explosion reading {explode_mode!r}")
    if needed <= sides:
        return Fraction(sides + 1 - needed, sides)
    # Reaching past 10 needs a 10 first, then the rest from the next die.
    return Fraction(1, sides) * explosion_at_least(needed - sides, explode_mode)


@cache
def chance_at_least(
    target: int, *, position: int = MIDDLE, explode_mode: str = "max_of_3d10"
) -> Fraction:
    """Give the exact chance that the target die plus explosion reaches `target`."""
    counts = kept_counts(position)
    sides = data.DIE_SIDES
    plain = sum(counts[face - 1] for face in range(max(target, 1), sides))
    top = Fraction(counts[sides - 1], ROLL_COUNT) * explosion_at_least(
        target - sides, explode_mode, position
    )
    return Fraction(plain, ROLL_COUNT) + top


@cache
def success_chance(
    bonus: int,
    dc: int,
    *,
    wounded: bool = False,
    force: bool = False,
    force_keep: str = "middle",
    wounded_crit_fail: str = "literal",
    explode_mode: str = "max_of_3d10",
    fumble_fails: bool = True,
) -> Fraction:
    """Give the exact chance that bonus + 1o3d10 meets `dc`, counting fumbles as failures."""
    position = keep_position(wounded=wounded, force=force, force_keep=force_keep)
    chance = chance_at_least(dc - bonus, position=position, explode_mode=explode_mode)
    # Every fumble has a target die of 1, so it only matters when a 1 would have succeeded.
    if fumble_fails and bonus + 1 >= dc:
        fumbles = critical_fail_count(
            wounded=wounded,
            force=force,
            force_keep=force_keep,
            wounded_crit_fail=wounded_crit_fail,
        )
        chance -= Fraction(fumbles, ROLL_COUNT)
    return chance


# --- The dice contract (rulesets/core/rolls.py) --------------------------------------------
# Readings the odds and rolls depend on; all are settings in data.SETTINGS.
DICE_READINGS: tuple[str, ...] = (
    "explode_mode",
    "crit_fail_when_wounded",
    "crit_fail_auto_fails",
    "luck_ten_explodes",
    "force_roll_keep",
    "ranged_damage_bonus",
    *(data.ranged_mod_key(slug) for slug, _label, _value in data.RANGED_TARGET_MODIFIERS),
)
DICE_SETTINGS: tuple[Setting, ...] = tuple(data.SETTING_BY_KEY[key] for key in DICE_READINGS)

MOST_DC = 100
MOST_MODIFIER = 20
MOST_CELLS = 200
MOST_BONUS = 60  # two stats or skills at their hard maximum, with room for custom skills
DEFAULT_DC = 15  # a middling difficulty when the sheet names none (L70, L159)
DEFAULT_DEFENSE = 15  # digest §3: 10 + Dexterity for an average Dexterity of 5
DEFAULT_CELLS = 4
COVER_CHOICES: tuple[tuple[str, str], ...] = (
    ("none", "No cover"),
    ("small_cover", "Small cover"),
    ("medium_cover", "Medium cover"),
    ("big_cover", "Big cover"),
    ("total_cover", "Total cover"),
)
TARGET_FLAGS = ("running", "prone", "moving_vehicle")
_MODIFIER_SOURCE = "L78; the value is a house rule"
_DAMAGE_CODE = re.compile(r"\s*([0-9]{1,2})\s*[dD]\s*([0-9]{1,3})\s*(?:([+-])\s*([0-9]{1,3}))?\s*")


def _facts(**facts: Any) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((key, value) for key, value in facts.items() if value is not None))


def rollables(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> tuple[Rollable, ...]:
    """Every 1o3d10 roll the sheet makes: the pools of `rules.derived` (attacks, dodge,
    deflect, stabilise, initiative, the Force, custom skills) and an attack per weapon.

    The dice of a Rollable are the number added to the roll (stat + skill); the facts carry
    the health state (wounded keeps the lowest die, L41), the Luck left today (L17) and the
    pool's fixed difficulty where the seed gives one.
    """
    # Imported here: rules imports this module.
    from rulesets.o3d10 import rules

    values = rules.derived(sheet, settings)
    health = values["health"]
    common = {
        "wounded": health["state"] != data.NORMAL.slug,
        "state": health["label"],
        "can_act": health["can_act"],
        "luck_left": values["luck"]["left_today"],
        "luck_day": values["luck"]["day"],
    }
    kinds = {"melee": "melee", "ranged": "ranged", "initiative": "initiative"}
    found: list[Rollable] = []

    def add(pool: Mapping[str, Any], group: str, force: bool = False) -> None:
        found.append(
            Rollable(
                f"pool.{pool['key']}",
                f"{pool['label']} ({pool['formula']})",
                pool["bonus"],
                _facts(**common, dc=pool["dc"], force=force, kind=kinds.get(pool["key"], "check")),
                group,
                pool["source"],
            )
        )

    for pool in values["pools"].values():
        add(pool, "Checks")
    if values["force_available"]:
        for pool in values["force_pools"].values():
            add(pool, "The Force", force=True)
    for pool in values["custom_pools"].values():
        add(pool, "Skills")
    if health["bleeding"]:
        found.append(
            Rollable(
                "bleed",
                "Bleeding (1d10 this turn)",
                0,
                _facts(
                    kind=BLEED,
                    hp=health["hp"],
                    dead_below=health["dead_below"],
                    state=health["label"],
                ),
                "Checks",
                "L47-L51",
            )
        )
    for weapon in values["weapons"]:
        kind = weapon["pool"]
        found.append(
            Rollable(
                f"weapon.{weapon['index']}",
                f"{weapon['name']} ({values['pools'][kind]['formula']}, {weapon['damage']})",
                weapon["attack_bonus"],
                _facts(**common, kind=kind, damage=weapon["damage"], weapon=weapon["index"]),
                "Weapons",
                "L55-L59" if kind == "melee" else "L61-L93",
            )
        )
    return tuple(found)


def ranged_target_modifiers(
    settings: Mapping[str, Any] | None,
) -> dict[str, tuple[str, int | None]]:
    """The target modifiers L78 names, by slug, with the values the GM's settings give
    (house rules; the digest's proposal by default): (label, value), None for total cover
    read as no line of fire."""
    readings = resolve_settings(DICE_SETTINGS, settings)
    found = {}
    for slug, label, _default in data.RANGED_TARGET_MODIFIERS:
        value = readings[data.ranged_mod_key(slug)]
        blocked = slug == "total_cover" and value == data.NO_LINE_OF_FIRE
        found[slug] = (label, None if blocked else value)
    return found


def _modifier_text(value: int | None) -> str:
    return "no line of fire" if value is None else f"+{value}"


def roll_options(rollable: Rollable, settings: Mapping[str, Any] | None) -> tuple[RollOption, ...]:
    """The modifiers of a 1o3d10 roll: what it is rolled against (a difficulty, the target's
    Defense, or the range and the target), a situational modifier, and Midichlorian Luck."""
    kind = rollable.fact("kind", "check")
    if kind == BLEED:
        return ()
    options: list[RollOption] = []
    mods = ranged_target_modifiers(settings)
    house = "The values are the GM's house rules: the rulebook names these without numbers."
    if kind == "melee":
        options += [
            RollOption(
                "defense",
                "Target's Defense",
                "number",
                DEFAULT_DEFENSE,
                minimum=0,
                maximum=MOST_DC,
                source="L57-L59",
            ),
            RollOption("from_behind", "Attacking from behind (+4)", "flag", False, source="L59"),
        ]
    elif kind == "ranged":
        options += [
            RollOption(
                "cells",
                "Distance in cells (1.5 m)",
                "number",
                DEFAULT_CELLS,
                minimum=1,
                maximum=MOST_CELLS,
                source="L65-L74",
            ),
            RollOption(
                "cover",
                "Target's cover",
                "choice",
                "none",
                choices=tuple(
                    (
                        slug,
                        label if slug == "none" else f"{label} ({_modifier_text(mods[slug][1])})",
                    )
                    for slug, label in COVER_CHOICES
                ),
                source=_MODIFIER_SOURCE,
                help=house,
            ),
            *(
                RollOption(
                    slug,
                    f"Target {mods[slug][0].lower()} ({_modifier_text(mods[slug][1])})",
                    "flag",
                    False,
                    source=_MODIFIER_SOURCE,
                    help=house,
                )
                for slug in TARGET_FLAGS
            ),
        ]
    else:
        default = rollable.fact("dc")
        if default is None:
            default = 20 if kind == "initiative" else DEFAULT_DC
        options.append(
            RollOption(
                "difficulty",
                "Difficulty",
                "number",
                default,
                minimum=0,
                maximum=MOST_DC,
                source="L11, L21" if kind == "initiative" else "L11",
                help="Initiative: 20 or more gives two actions (L21)."
                if kind == "initiative"
                else "",
            )
        )
    options.append(
        RollOption(
            "modifier",
            "Modifier",
            "number",
            0,
            minimum=-MOST_MODIFIER,
            maximum=MOST_MODIFIER,
            help="Added to the total: the GM's situational bonus or penalty.",
        )
    )
    if kind in ("melee", "ranged") and rollable.fact("damage"):
        options.append(
            RollOption(
                "absorption",
                "Target's absorption",
                "number",
                0,
                minimum=0,
                maximum=data.MAX_ABSORPTION,
                source="L59",
            )
        )
    left = rollable.fact("luck_left", 0)
    options.append(
        RollOption(
            "luck",
            "Use Midichlorian Luck if the roll fails",
            "flag",
            False,
            source="L15-L17",
            help=(
                "Turns one die into a 10 when that saves a failed roll; never against a "
                "critical fail. Once a day."
                if left
                else "Already used today: it comes back with the next in-game day."
            ),
        )
    )
    return tuple(options)


@dataclass(frozen=True)
class Spec:
    """One roll once the sheet, the options and the readings are read."""

    bonus: int  # everything added to the kept die: stat, skill, +4 from behind, modifier
    dc: int
    position: int
    wounded: bool
    force: bool
    force_keep: str
    wounded_crit_fail: str
    explode_mode: str
    fumble_fails: bool
    luck: bool
    luck_ten_explodes: bool
    kind: str
    # The d6 of damage each full 10 over the difficulty adds (0 when it adds none).
    bonus_dice_per_10: bool = False
    against: str = ""


def _as_text(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def ranged_dc(cells: int) -> int:
    """The difficulty of a shot at this many cells (L67-L74; 16 and more is the last row)."""
    dc = data.RANGED_DC_BY_CELLS[0][1]
    for lowest, row_dc in data.RANGED_DC_BY_CELLS:
        if cells >= lowest:
            dc = row_dc
    return dc


def read_roll(rollable: Rollable, options: Mapping[str, Any]) -> Spec:
    """Check the options (InvalidRoll names the one at fault) and build the roll's Spec."""
    bonus = rollable.dice
    if isinstance(bonus, bool) or not isinstance(bonus, int) or abs(bonus) > MOST_BONUS:
        raise InvalidRoll(
            "dice", f"A 1o3d10 roll adds a number from -{MOST_BONUS} to {MOST_BONUS}."
        )
    if not rollable.fact("can_act", True):
        raise InvalidRoll(
            "roll", f"{rollable.fact('state', 'This character')}: cannot act (L47-L49)."
        )
    definitions = roll_options(rollable, None)
    keys = {option.key for option in definitions}
    chosen = parse_roll_options(
        definitions, {key: _as_text(value) for key, value in options.items() if key in keys}
    )
    readings = resolve_settings(DICE_SETTINGS, options)
    if chosen["luck"] and not rollable.fact("luck_left", 0):
        day = rollable.fact("luck_day")
        when = f" (day {day}); it comes back on day {day + 1}" if day else ""
        raise InvalidRoll("luck", f"Midichlorian Luck was already used today{when}.")
    kind = rollable.fact("kind", "check")
    bonus += chosen["modifier"]
    per_10 = False
    if kind == "melee":
        dc = chosen["defense"]
        against = f"Defense {dc}"
        if chosen["from_behind"]:
            bonus += data.MELEE_FROM_BEHIND_BONUS  # L59
            against += ", from behind +4"
        per_10 = True  # L59
    elif kind == "ranged":
        mods = ranged_target_modifiers(options)
        if chosen["cover"] == "total_cover" and mods["total_cover"][1] is None:
            raise InvalidRoll("cover", "Total cover: there is no line of fire.")
        dc = ranged_dc(chosen["cells"])
        against = f"{chosen['cells']} cells, DC {dc}"
        applying = [chosen["cover"], *(flag for flag in TARGET_FLAGS if chosen[flag])]
        for slug in applying:
            if slug in mods:  # "none" adds nothing
                label, value = mods[slug]
                dc += value
                against += f", {label.lower()} +{value}"
        per_10 = readings["ranged_damage_bonus"]
    else:
        dc = chosen["difficulty"]
        against = f"DC {dc}"
    force = bool(rollable.fact("force", False))
    wounded = bool(rollable.fact("wounded", False))
    return Spec(
        bonus=bonus,
        dc=dc,
        position=keep_position(
            wounded=wounded, force=force, force_keep=readings["force_roll_keep"]
        ),
        wounded=wounded,
        force=force,
        force_keep=readings["force_roll_keep"],
        wounded_crit_fail=readings["crit_fail_when_wounded"],
        explode_mode=readings["explode_mode"],
        fumble_fails=readings["crit_fail_auto_fails"],
        luck=chosen["luck"],
        luck_ten_explodes=readings["luck_ten_explodes"],
        kind=kind,
        bonus_dice_per_10=per_10,
        against=against,
    )


def best_luck_die(dice: Dice, position: int) -> int:
    """The die Luck turns into a 10 for the highest kept die (the first such die)."""

    def kept_after(index: int) -> int:
        changed = list(dice)
        changed[index] = data.LUCK_FACE
        return sorted(changed)[position]

    return max(range(3), key=lambda index: (kept_after(index), -index))


@cache
def _outcomes(
    position: int,
    wounded: bool,
    force: bool,
    force_keep: str,
    wounded_crit_fail: str,
    luck: bool,
) -> tuple[tuple[tuple[bool, int, int], int], ...]:
    """The 1000 natural rolls grouped as (critical fail, kept die, kept die after Luck) with
    their counts; Luck (when chosen) may raise the kept die unless the roll fumbled."""
    grouped: Counter[tuple[bool, int, int]] = Counter()
    for ordered, ways in _SORTED_ROLLS:
        fumble = is_critical_fail(
            ordered,
            wounded=wounded,
            force=force,
            force_keep=force_keep,
            wounded_crit_fail=wounded_crit_fail,
        )
        kept = ordered[position]
        lucky = kept
        if luck and not fumble and kept < data.DIE_SIDES:
            # A 10 in place of the lowest die keeps the next die up (best_luck_die's pick).
            lucky = (*ordered[1:], data.LUCK_FACE)[position]
        grouped[(fumble, kept, lucky)] += ways
    return tuple(sorted(grouped.items()))


def _reach(spec: Spec, kept: int, natural: bool, target: int) -> Fraction:
    """The chance that the bonus plus a kept die (and its explosion) reaches `target`."""
    total = spec.bonus + kept
    if total >= target:
        return Fraction(1)
    explodes = kept == data.DIE_SIDES and (natural or spec.luck_ten_explodes)
    if not explodes:
        return Fraction(0)
    return explosion_at_least(target - total, spec.explode_mode, spec.position)


def _final_kept(spec: Spec, kept: int, lucky: int) -> tuple[int, bool]:
    """The kept die the roll ends with and whether it was rolled (not made by Luck)."""
    return (lucky, False) if luck_saves(spec, kept, lucky) else (kept, True)


def luck_saves(spec: Spec, kept: int, lucky: int) -> bool:
    """Whether Luck is spent: only on a roll that fails without it, and only when the raised
    die succeeds (or, where a Luck 10 explodes, may succeed)."""
    if lucky <= kept or spec.bonus + kept >= spec.dc:
        return False
    return spec.bonus + lucky >= spec.dc or (lucky == data.DIE_SIDES and spec.luck_ten_explodes)


@cache
def _odds(spec: Spec) -> Odds:
    outcomes = _outcomes(
        spec.position, spec.wounded, spec.force, spec.force_keep, spec.wounded_crit_fail, spec.luck
    )
    fumbles = Fraction(0)
    plain: Counter[int] = Counter()  # final total -> chance, no explosion involved
    exploding = Fraction(0)  # a kept 10 that explodes
    critical = Fraction(0)
    for (fumble, kept, lucky), count in outcomes:
        share = Fraction(count, ROLL_COUNT)
        if fumble:
            fumbles += share
            if not spec.fumble_fails:
                critical += share * _reach(spec, kept, True, spec.dc + data.CRITICAL_MARGIN)
            continue
        final, natural = _final_kept(spec, kept, lucky)
        if final == data.DIE_SIDES and (natural or spec.luck_ten_explodes):
            exploding += share
        else:
            plain[spec.bonus + final] += share
        critical += share * _reach(spec, final, natural, spec.dc + data.CRITICAL_MARGIN)
    fumble_wins = not spec.fumble_fails and spec.bonus + 1 >= spec.dc
    bars = [Bar("Critical fail", fumbles, fumble_wins)]
    for total in sorted(plain):
        bars.append(Bar(str(total), plain[total], total >= spec.dc))
    top = spec.bonus + data.DIE_SIDES
    if exploding:
        if spec.dc <= top:
            bars.append(Bar(f"{top}+ (explodes)", exploding, True))
        else:
            reach = explosion_at_least(spec.dc - top, spec.explode_mode, spec.position)
            bars.append(Bar(f"{top}–{spec.dc - 1} (explodes)", exploding * (1 - reach)))
            bars.append(Bar(f"{spec.dc}+ (explodes)", exploding * reach, True))
    first = next((i for i, bar in enumerate(bars) if i and bar.success), None)
    if first is not None:
        bars[first] = replace(bars[first], threshold=True)
    success = sum((bar.chance for bar in bars if bar.success), Fraction(0))
    keep = POSITION_LABELS[spec.position]
    notes = [f"Keeps the {keep} die" + (" (wounded, L41)." if spec.wounded else ".")]
    notes.append(f"Critical (beats the difficulty by 10 or more): {float(critical):.1%}.")
    if fumbles:
        notes.append(
            f"Critical fail: {float(fumbles):.1%}"
            + (", always a failure." if spec.fumble_fails else ", read by its total.")
        )
    if spec.luck:
        notes.append("Luck is spent only when it can save a failed roll.")
    roll_name = "1a3d10" if spec.force else "1o3d10"
    question = f"{spec.bonus:+d} + {roll_name} against {spec.against}"
    return Odds(success, tuple(bars), question, exact=True, note=" ".join(notes))


def odds(rollable: Rollable, options: Mapping[str, Any]) -> Odds:
    """The exact chance that the total meets the difficulty, one bar per total (explosions
    grouped; split at the difficulty when only an explosion reaches it), a critical fail
    bar, and the chance of a critical in the note. The bleeding roll: its own odds."""
    if rollable.fact("kind") == BLEED:
        hp, dead_below = _read_bleed(rollable)
        return bleed_odds(hp, dead_below)
    return _odds(read_roll(rollable, options))


# --- The bleeding roll (L47-L51) --------------------------------------------------------------
BLEED = "bleed"


def _read_bleed(rollable: Rollable) -> tuple[int, int]:
    hp, dead_below = rollable.fact("hp"), rollable.fact("dead_below")
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in (hp, dead_below)):
        raise InvalidRoll("roll", "Only an unconscious, unstabilised character rolls to bleed.")
    if not dead_below <= hp < 0:
        raise InvalidRoll("roll", "Only an unconscious, unstabilised character rolls to bleed.")
    return hp, dead_below


def bleed_bar(hp: int, dead_below: int, face: int) -> str:
    """The bar a bleeding d10 falls in: no loss on 6+, else the HP it leaves (L49)."""
    if face >= data.BLEED_SAFE_FROM:
        return f"{data.BLEED_SAFE_FROM}–{data.DIE_SIDES}: no loss"
    after = hp - face
    return f"{face}: HP {after}" + (" (dead)" if after < dead_below else "")


@cache
def bleed_odds(hp: int, dead_below: int) -> Odds:
    """The exact odds of one bleeding roll: a d10, 6 or more costs nothing, 5 or less costs
    its value in HP (L49), below -3 x STR is death (L45)."""
    tenth = Fraction(1, data.DIE_SIDES)
    safe = data.DIE_SIDES - data.BLEED_SAFE_FROM + 1
    bars = [Bar(bleed_bar(hp, dead_below, face), tenth) for face in range(1, data.BLEED_SAFE_FROM)]
    bars.append(Bar(bleed_bar(hp, dead_below, data.DIE_SIDES), safe * tenth, True, threshold=True))
    deadly = sum(1 for face in range(1, data.BLEED_SAFE_FROM) if hp - face < dead_below)
    beside = (
        Beside("Loses HP this turn", 1 - safe * tenth, "L49"),
        Beside("Dies this turn", deadly * tenth, "L45, L49"),
    )
    note = (
        f"At HP {hp}; death comes below {dead_below}. An ally beside them may stabilise them "
        f"with Intelligence + Medicine + 1o3d10 against {data.STABILISE_DC} (L51)."
    )
    question = f"1d10 at HP {hp}: {data.BLEED_SAFE_FROM} or more loses nothing"
    return Odds(safe * tenth, tuple(bars), question, exact=True, note=note, beside=beside)


def _bleed_roll(rollable: Rollable, rng: random.Random) -> RollResult:
    hp, dead_below = _read_bleed(rollable)
    (face,) = roll_dice(1, data.DIE_SIDES, rng)
    bar = bleed_bar(hp, dead_below, face)
    if face >= data.BLEED_SAFE_FROM:
        outcome, edits, said = "success", (), "no HP lost"
    else:
        after = hp - face
        outcome = "death" if after < dead_below else "failure"
        edits = (("hp.bleed", str(face)),)
        said = f"loses {face} HP, HP {hp} → {after}" + (": dead" if after < dead_below else "")
    return RollResult(
        dice=(face,),
        kept=str(face),
        outcome=outcome,
        success=outcome == "success",
        summary=f"{rollable.label}: d10 {face}, {said}",
        total=face,
        details=(),
        edits=edits,
        facts=(("bar", bar),),
    )


def damage_code(text: str) -> tuple[int, int, int]:
    """Read "2d6+1" as (dice, sides, modifier), or InvalidRoll."""
    match = _DAMAGE_CODE.fullmatch(str(text))
    if not match:
        raise InvalidRoll("damage", f"“{str(text)[:40]}” is not a damage code like 1d8 or 2d6+1.")
    modifier = int(match[4] or 0) * (-1 if match[3] == "-" else 1)
    return int(match[1]), int(match[2]), modifier


def _attack_details(
    spec: Spec, rollable: Rollable, options: Mapping[str, Any], total: int, rng: random.Random
) -> tuple[list[str], list[tuple[str, Any]]]:
    """A hit's location (an extra d10, L80-L93) and, with a weapon, its damage (L59)."""
    (where,) = roll_dice(1, data.DIE_SIDES, rng)
    location = data.HIT_LOCATIONS[where - 1]
    details = [f"Location d10 {where}: {location.label}"]
    facts: list[tuple[str, Any]] = [("location", location.label)]
    if not rollable.fact("damage"):
        return details, facts
    count, sides, modifier = damage_code(rollable.fact("damage"))
    rolled = roll_dice(count, sides, rng)
    parts = [f"{count}d{sides} {list(rolled)}"]
    points = sum(rolled) + modifier
    if modifier:
        parts.append(f"{modifier:+d}")
    extra = (total - spec.dc) // data.MELEE_BONUS_D6_PER_MARGIN if spec.bonus_dice_per_10 else 0
    if extra:
        more = roll_dice(extra, 6, rng)
        points += sum(more)
        parts.append(f"+{extra}d6 for {extra * 10} over {list(more)}")
    if location.extra_damage_dice:
        (head,) = roll_dice(1, 6, rng)
        points += head
        parts.append(f"+1d6 {location.label.lower()} [{head}]")
    elif location.damage_bonus:
        points += location.damage_bonus
        parts.append(f"+{location.damage_bonus} {location.label.lower()}")
    absorption = int(options.get("absorption", 0) or 0)
    if absorption:
        parts.append(f"−{absorption} absorption")
    damage = max(0, points - absorption)
    details.append("Damage " + " ".join(parts) + f" = {damage}")
    facts.append(("damage", damage))
    return details, facts


def roll(rollable: Rollable, options: Mapping[str, Any], rng: random.Random) -> RollResult:
    """Roll 1o3d10 with the caller's generator and read it exactly as `odds` counts it: the
    kept die, an explosion, Luck when chosen and needed (the result's edits then spend it),
    a critical or a critical fail; an attack that hits adds its location and damage. The
    bleeding roll calls for the HP it costs as an edit (`hp.bleed`)."""
    if rollable.fact("kind") == BLEED:
        return _bleed_roll(rollable, rng)
    spec = read_roll(rollable, options)
    rolled = roll_1o3d10(
        rng,
        wounded=spec.wounded,
        force=spec.force,
        force_keep=spec.force_keep,
        wounded_crit_fail=spec.wounded_crit_fail,
        explode_mode=spec.explode_mode,
    )
    edits: tuple[tuple[str, str], ...] = ()
    details: list[str] = []
    check = resolve_check(
        spec.bonus + rolled.result,
        spec.dc,
        critical_fail=rolled.critical_fail,
        fumble_fails=spec.fumble_fails,
    )
    if spec.luck and not check.success and not rolled.critical_fail:
        index = best_luck_die(rolled.dice, spec.position)
        lucky = use_luck(
            rolled,
            index,
            rng,
            explode_mode=spec.explode_mode,
            luck_ten_explodes=spec.luck_ten_explodes,
        )
        if luck_saves(spec, rolled.kept, lucky.kept):
            rolled = lucky
            edits = (("luck.use", ""),)
            details.append(f"Midichlorian Luck: die {index + 1} turned into a 10")
            check = resolve_check(
                spec.bonus + rolled.result,
                spec.dc,
                critical_fail=False,
                fumble_fails=spec.fumble_fails,
            )
    natural = rolled.luck_die is None
    if rolled.critical_fail:
        bar = "Critical fail"
    elif rolled.kept == data.DIE_SIDES and (natural or spec.luck_ten_explodes):
        top = spec.bonus + data.DIE_SIDES
        if spec.dc <= top:
            bar = f"{top}+ (explodes)"
        elif check.total >= spec.dc:
            bar = f"{spec.dc}+ (explodes)"
        else:
            bar = f"{top}–{spec.dc - 1} (explodes)"
    else:
        bar = str(check.total)
    if rolled.critical_fail:
        outcome = "critical fail"
    elif check.critical:
        outcome = "critical"
    else:
        outcome = "success" if check.success else "failure"
    if rolled.exploded:
        details.append(f"Explosion {list(rolled.explosion)}: +{rolled.explosion_bonus}")
    facts: list[tuple[str, Any]] = [("bar", bar), ("kept", rolled.kept), ("margin", check.margin)]
    if spec.kind == "initiative":
        details.append(f"{actions_for_initiative(check.total)} action(s) this round (L21)")
    if spec.kind in ("melee", "ranged") and check.success:
        more, extra_facts = _attack_details(spec, rollable, options, check.total, rng)
        details += more
        facts += extra_facts
    keep = POSITION_LABELS[rolled.position]
    kept = f"{keep} {rolled.kept}" + (f" +{rolled.explosion_bonus}" if rolled.exploded else "")
    summary = (
        f"{rollable.label}: {list(rolled.dice)} keeps {kept}, total {check.total} "
        f"against {spec.against} ({outcome})"
    )
    return RollResult(
        dice=(*rolled.natural, *rolled.explosion),
        kept=kept,
        outcome=outcome,
        success=check.success,
        summary=summary,
        total=check.total,
        details=tuple(details),
        edits=edits,
        facts=tuple(facts),
    )


def actions_for_initiative(total: int) -> int:
    """Actions an initiative total gives: one below 20, then one more per 10 (L21)."""
    return max(1, total // data.INITIATIVE_PER_EXTRA_ACTION)


# HP lost to a hit or to bleeding: the player marks their own, and the table's GM any sheet
# at the table (sheets/permissions.py reads this).
TABLE_EDITS: tuple[str, ...] = ("hp.damage", "hp.bleed")


def roll_edits(
    rollable: Rollable, options: Mapping[str, Any], result: RollResult
) -> dict[str, str]:
    """The sheet edits a roll calls for (a Luck point spent), for the web layer to apply."""
    return dict(result.edits)
