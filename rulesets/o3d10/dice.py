"""The 1o3d10 roll: three d10, keep one (the "target die"), explode on 10, with exact odds.

Source: seeds/004_8cbd6e5c00de6f21.txt L5-L17, L41; digest §2. Every roll takes an injected
random.Random. The readings the seed leaves open arrive as keyword arguments (the rules
module passes the campaign's settings), so this module stays free of sheet knowledge:

- `explode_mode`: "max_of_3d10" (roll 3d10 again once and add the highest; the literal
  reading of L9) or "open_d10" (add 1d10, again on every 10);
- `wounded_crit_fail`: "literal" (lowest die 1 and the middle die below 5), "distinct" (the
  next *different* value below 5) or "middle_only" (test the middle die as when unhurt);
- `force_keep`: "middle" (1a3d10 read as 1o3d10) or "highest".
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

from rulesets.core.dice import roll
from rulesets.o3d10 import data

LOWEST, MIDDLE, HIGHEST = 0, 1, 2
POSITION_LABELS = {LOWEST: "lowest", MIDDLE: "middle", HIGHEST: "highest"}

EXPLODE_MODES = ("max_of_3d10", "open_d10")
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
    rng: random.Random, explode_mode: str = "max_of_3d10"
) -> tuple[tuple[int, ...], int]:
    """Roll the extra dice of an explosion and say what they add (L9)."""
    if explode_mode == "open_d10":
        rolled: list[int] = []
        while True:
            (die,) = roll(1, data.DIE_SIDES, rng)
            rolled.append(die)
            if die < data.DIE_SIDES:
                return tuple(rolled), sum(rolled)
    if explode_mode != "max_of_3d10":
        raise ValueError(f"unknown explosion reading {explode_mode!r}")
    rolled = roll(3, data.DIE_SIDES, rng)
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
    natural = tuple(roll(3, data.DIE_SIDES, rng))
    read = read_dice(
        natural,
        wounded=wounded,
        force=force,
        force_keep=force_keep,
        wounded_crit_fail=wounded_crit_fail,
    )
    if read.kept == data.DIE_SIDES:
        explosion, bonus = roll_explosion(rng, explode_mode)
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
        explosion, bonus = roll_explosion(rng, explode_mode)
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
def explosion_at_least(needed: int, explode_mode: str = "max_of_3d10") -> Fraction:
    """Give the chance that an explosion adds at least `needed`."""
    if needed <= 0:
        return Fraction(1)
    sides = data.DIE_SIDES
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
    top = Fraction(counts[sides - 1], ROLL_COUNT) * explosion_at_least(target - sides, explode_mode)
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
