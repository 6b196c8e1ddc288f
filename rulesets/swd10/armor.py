"""SWd10 armor and shields: ratings, the armor's class and Dexterity penalty, soak dice and
wear (seed 000, L183-230, with the armor merits at L739-793).

A sheet lists armor and shields in one list (`sheet["armor"]`), each row with its rating as
bought, the points it has lost to hits (L220, L224) and whether it is worn. Everything else
is computed here from those rows and the merits: the class (L741), the penalty on
Dexterity-based rolls (L741, L747, L793), the soak dice (L185, L753). Nothing derived is
stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass
from typing import Any

from rulesets.core.settings import Setting

ARMOR = "armor"
SHIELD = "shield"
KINDS: tuple[tuple[str, str], ...] = ((ARMOR, "Armor"), (SHIELD, "Shield"))  # L185
SOAK_DIFFICULTY = 6  # L185 (armor and shields), L187 (Stamina)
MAX_ARMOR_ROWS = 8
ARMOR_NAME_LIMIT = 60
# L741 names armor classes for ratings 1 to 6 only; a rating past 6 has no class, no penalty.
ARMOR_RATING_RANGE = (1, 6)
# Shields: L1380 converts SR / 5; SWSE personal shields stop at SR 20 (rating 4), and the
# Force shield ability gives up to 4 dice (L1113). 10 leaves room for a Storyteller's own.
SHIELD_RATING_RANGE = (1, 10)
RATING_RANGE = {ARMOR: ARMOR_RATING_RANGE, SHIELD: SHIELD_RATING_RANGE}


@dataclass(frozen=True)
class ArmorClass:
    key: str  # the Armor Proficiency merit's choice (data.ARMOR_CLASSES)
    name: str
    lowest: int
    highest: int
    penalty: int  # dice off every Dexterity-based roll
    source: str


ARMOR_CLASS_TABLE: tuple[ArmorClass, ...] = (
    ArmorClass("light", "Light", 1, 2, 1, "L741"),
    ArmorClass("medium", "Medium", 3, 4, 2, "L741"),
    ArmorClass("heavy", "Heavy", 5, 6, 3, "L741"),
)
# Merits that lower the penalty of worn armor, each by one die.
PENALTY_MERITS: tuple[tuple[str, str], ...] = (
    ("armored_protection", "L747"),  # any armor
    ("improved_armored_protection", "L793"),  # any armor, one more
)
PROFICIENCY_MERIT = "armor_proficiency"  # L741: one class, its penalty less 1
ARMOR_MASTER_MERIT = "armor_master"  # L753: +1 rating to armor of a class one is proficient at

# What an attack's weapon ignores when soaked (L230).
PIERCING: dict[str, frozenset[str]] = {
    "other": frozenset(),
    "lightsaber": frozenset({ARMOR}),
    "disruptor": frozenset({ARMOR, SHIELD}),
}
PIERCING_CHOICES: tuple[tuple[str, str], ...] = (
    ("other", "any other weapon"),
    ("lightsaber", "a lightsaber (armor does not soak)"),
    ("disruptor", "a disruptor (neither armor nor shield soaks)"),
)

# Which rolls "Dexterity-based" (L741) covers is not said: a reading.
ARMOR_PENALTY_ROLLS = "armor_penalty_rolls"
SETTINGS: tuple[Setting, ...] = (
    Setting(
        key=ARMOR_PENALTY_ROLLS,
        label="Armor penalty",
        default="dexterity_pools",
        source="L741 takes it off Dexterity-based rolls without saying which; proposal: "
        "every pool Dexterity adds dice to",
        help="Which rolls lose the worn armor's penalty dice.",
        choices=(
            ("dexterity_pools", "every pool with Dexterity in it (initiative, Force too)"),
            ("dexterity_actions", "attribute and ability rolls made with Dexterity only"),
            ("none", "none: the Storyteller applies it by hand"),
        ),
    ),
)


# L1374: armor converted from Saga Edition takes its Dexterity penalty from its maximum
# Dexterity bonus instead of its class: 5 less that bonus, never below 1.
SWSE_PENALTY_BASE = 5
SWSE_LEAST_PENALTY = 1
SWSE_MAX_DEX_BONUS = 5  # a bonus of 4 or more leaves the least penalty
CLASS_PENALTY = "class"


def swse_penalty(max_dex_bonus: int) -> int:
    """L1374: a converted armor's penalty on Dexterity-based actions, 5 − its maximum
    Dexterity bonus, at least 1."""
    return max(SWSE_PENALTY_BASE - max_dex_bonus, SWSE_LEAST_PENALTY)


def penalty_relief(rating: int, merits: Set[str], proficient: Set[str]) -> int:
    """The dice the armor merits take off the worn armor's penalty (L741, L747, L793)."""
    entry = armor_class(rating)
    if entry is None:
        return 0
    return (entry.key in proficient) + sum(1 for merit, _s in PENALTY_MERITS if merit in merits)


def penalty_choices(class_penalty: int, relief: int) -> tuple[tuple[str, str], ...]:
    """The roll option's choices for the worn armor's penalty: by its class (L741), or
    converted from Saga Edition by its maximum Dexterity bonus (L1374), merits applied."""
    found = [(CLASS_PENALTY, f"by its class: −{class_penalty} dice")]
    for bonus in range(SWSE_MAX_DEX_BONUS):
        dice = max(swse_penalty(bonus) - relief, 0)
        found.append((str(bonus), f"converted from SWSE, max Dex bonus +{bonus}: −{dice} dice"))
    return tuple(found)


def armor_class(rating: int) -> ArmorClass | None:
    """The class of armor with this rating (L741), or None outside the table."""
    for entry in ARMOR_CLASS_TABLE:
        if entry.lowest <= rating <= entry.highest:
            return entry
    return None


def armor_penalty(rating: int, merits: Set[str], proficient: Set[str]) -> int:
    """Dice off Dexterity-based rolls for wearing armor of `rating`: its class's penalty
    (L741), one less with a proficiency in the class (L741), one less with Armored
    Protection (L747) and one more less with Improved Armored Protection (L793), never
    below 0."""
    entry = armor_class(rating)
    if entry is None:
        return 0
    return max(entry.penalty - penalty_relief(rating, merits, proficient), 0)


def armor_soak(rating: int, lost: int, merits: Set[str], proficient: Set[str]) -> int:
    """Soak dice of armor (L185): its rating less what hits took from it (L224), plus one
    with Armor Master for a class one is proficient at (L753)."""
    entry = armor_class(rating)
    bonus = ARMOR_MASTER_MERIT in merits and entry is not None and entry.key in proficient
    return max(rating - lost, 0) + bonus


def shield_soak(rating: int, lost: int) -> int:
    """Soak dice of a shield (L185): its rating less what hits took from it (L220)."""
    return max(rating - lost, 0)


def armor_wears_down(damage: int, armor_soaked: int, armor_rating: int) -> bool:
    """L224: armor loses one point when the damage left after its soak (before Stamina's)
    is more than its rating."""
    return damage - armor_soaked > armor_rating


def shield_wears_down(damage: int, shield_soaked: int) -> bool:
    """L220: a shield loses one point when it did not soak every success of the damage."""
    return shield_soaked < damage


@dataclass(frozen=True)
class Protection:
    """What one armor or shield row gives, computed from the row and the merits."""

    index: int
    name: str
    kind: str
    rating: int
    lost: int
    worn: bool
    soak: int
    penalty: int  # 0 for a shield
    class_name: str  # "" for a shield
    source: str


def proficiencies(merit_choices: Mapping[str, tuple[str, ...]]) -> frozenset[str]:
    """The armor classes an Armor Proficiency merit was taken for (L739)."""
    return frozenset(choice.strip().lower() for choice in merit_choices.get(PROFICIENCY_MERIT, ()))


def protections(
    rows: list[Mapping[str, Any]], merits: Set[str], merit_choices: Mapping[str, tuple[str, ...]]
) -> tuple[Protection, ...]:
    """Every armor and shield row with its soak dice and penalty."""
    proficient = proficiencies(merit_choices)
    found = []
    for index, row in enumerate(rows):
        rating, lost = row["rating"], row["lost"]
        if row["kind"] == ARMOR:
            entry = armor_class(rating)
            found.append(
                Protection(
                    index,
                    row["name"],
                    ARMOR,
                    rating,
                    lost,
                    row["worn"],
                    armor_soak(rating, lost, merits, proficient),
                    armor_penalty(rating, merits, proficient),
                    entry.name if entry else "",
                    "L185, L741",
                )
            )
        else:
            found.append(
                Protection(
                    index,
                    row["name"],
                    SHIELD,
                    rating,
                    lost,
                    row["worn"],
                    shield_soak(rating, lost),
                    0,
                    "",
                    "L185, L220",
                )
            )
    return tuple(found)


def worn(found: tuple[Protection, ...], kind: str) -> Protection | None:
    """The armor (or shield) worn, if any: a sheet wears at most one of each."""
    return next((p for p in found if p.worn and p.kind == kind), None)
