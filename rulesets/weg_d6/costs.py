"""Advancement prices in Character Points (R&E) or skill points (1E), each with its reason.

Every raise is priced one pip at a time from the number before the D of the code before
that pip (002:43, 003:97, 003:1010), so a multi-pip raise is the sum of its single steps.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rulesets.core import Cost, DieCode, InvalidEdit, resolve_settings, roll
from rulesets.core.rolls import Rollable
from rulesets.weg_d6 import traits
from rulesets.weg_d6.data import (
    ADVANCED_SKILL_MULTIPLIER,
    ATTRIBUTE_COST_MULTIPLIER_RE,
    ATTRIBUTE_SLUGS,
    CURRENCY,
    EDITION_1E,
    EDITION_RE,
    FORCE_SENSITIVITY_COST,
    FORCE_SKILL_SLUGS,
    LEARN_FORCE_SKILL_WEEKS,
    LEARNED_FORCE_SKILL_PIPS,
    MAX_CODE_PIPS,
    MAX_MOVE,
    RE_FORCE_POWER_COST,
    SKILLS,
)
from rulesets.weg_d6.dice import WILD_ONE, chance_at_most
from rulesets.weg_d6.dice import roll as wild_roll
from rulesets.weg_d6.settings import SETTINGS
from rulesets.weg_d6.traits import code_text as code

# The sign players read in "10 x 3 = 30 CP", spelled as an escape because lint flags it.
TIMES = "\N{MULTIPLICATION SIGN}"


def unit_of(sheet: Mapping[str, Any]) -> str:
    return CURRENCY[sheet["edition"]][0]


def _number_before_d(pips: int) -> int:
    # A 0D code is still priced at 1 per pip (003:1010), so nothing is ever free.
    return max(1, pips // 3)


def _before_d_words(pips: int, unit: str) -> str:
    if pips < 3:
        return f"a 0D code costs 1 {unit} per pip"
    return f"{pips // 3} {unit} per pip (the number before the D)"


def _skill_step(label: str, start: int, unit: str) -> Cost:
    amount = _number_before_d(start)
    text = f"{label} {code(start)} → {code(start + 1)}: {_before_d_words(start, unit)}"
    return Cost(amount, unit, f"{text} = {amount} {unit}")


def _advanced_step(label: str, start: int, unit: str) -> Cost:
    base = _number_before_d(start)
    amount = base * ADVANCED_SKILL_MULTIPLIER
    return Cost(
        amount,
        unit,
        f"{label} {code(start)} → {code(start + 1)}: an advanced skill costs double, "
        f"2 {TIMES} {base} = {amount} {unit}",
    )


def _specialization_step(label: str, start: int, unit: str, settings: Mapping) -> Cost:
    base = _number_before_d(start)
    rounding = settings["specialization_rounding"]
    amount = math.ceil(base / 2) if rounding == "up" else base // 2
    return Cost(
        amount,
        unit,
        f"{label} {code(start)} → {code(start + 1)}: half of {base}, rounded {rounding}, "
        f"= {amount} {unit}",
    )


def _attribute_step(sheet: Mapping, label: str, slug: str, start: int, settings: Mapping) -> Cost:
    unit = unit_of(sheet)
    base = _number_before_d(start)
    if sheet["edition"] == EDITION_1E:
        multiplier = settings["attribute_cost_multiplier_1e"]
        amount = base * multiplier
        return Cost(
            amount,
            unit,
            f"{label} {code(start)} → {code(start + 1)}: {multiplier} {TIMES} {base} = {amount} "
            f"{unit} (a reading the GM may change)",
        )
    amount = base * ATTRIBUTE_COST_MULTIPLIER_RE
    species_max = traits.species_of(sheet).maximum[slug]
    return Cost(
        amount,
        unit,
        f"{label} {code(start)} → {code(start + 1)}: 10 {TIMES} {base} = {amount} {unit}, "
        f"{amount} weeks of training with a teacher ({2 * amount} alone); then you roll "
        f"{code(start + 1)} against the GM's roll of the species maximum "
        f"{code(species_max)}: roll higher and the attribute stays, with {amount // 2} "
        f"{unit} back",
    )


def _move_cost(sheet: Mapping, start: int, new_value: int) -> list[Cost]:
    if sheet["edition"] == EDITION_1E:
        raise InvalidEdit(
            "move",
            "1st edition has no Move to raise: land speed is the Dexterity code.",
        )
    move_max = traits.species_of(sheet).move_max
    if new_value > move_max:
        raise InvalidEdit("move", f"Move cannot go above the species maximum of {move_max}.")
    return [
        Cost(m, "CP", f"Move {m} → {m + 1}: the current Move, {m} CP")
        for m in range(start, new_value)
    ]


def _teacher_doubles_1e(sheet: Mapping, skill: str, new_code: int) -> str:
    """Why a 1E Force raise costs double, or "" when it does not (003:1772)."""
    teacher = sheet["teacher"]
    if not teacher["present"]:
        return "doubled without a teacher"
    if new_code > teacher[skill]:
        return f"doubled: it goes above your teacher's {code(teacher[skill])}"
    return ""


def _force_skill_costs(
    sheet: Mapping, skill: str, label: str, start: int, new_value: int, settings: Mapping
) -> list[Cost]:
    trait = f"force.{skill}"
    unit = unit_of(sheet)
    if sheet["kind"] == "droid":
        raise InvalidEdit(trait, "Droids may never have Force skills.")
    edition = sheet["edition"]
    if edition == EDITION_RE and not sheet["force"]["sensitive"]:
        raise InvalidEdit(
            trait, f"Only a Force-sensitive character learns {label}; that costs 20 CP."
        )
    if start == 0 and new_value < LEARNED_FORCE_SKILL_PIPS:
        raise InvalidEdit(trait, "A Force skill starts at 1D when learned.")
    steps: list[Cost] = []
    position = start
    if start == 0:
        if edition == EDITION_1E:
            if not sheet["teacher"]["present"]:
                raise InvalidEdit(
                    trait,
                    f"{label} is 0D: it can never be learned without a teacher or master.",
                )
            steps.append(
                Cost(
                    0,
                    unit,
                    f"Learn {label} at 1D: {LEARN_FORCE_SKILL_WEEKS} weeks with your teacher, "
                    "each skill point you choose to spend takes a week off, never under one "
                    "week = 0 SP",
                )
            )
        else:
            base = settings["re_first_force_die_cost"]
            doubled = not sheet["teacher"]["present"]
            amount = base * (2 if doubled else 1)
            why = ", doubled without a teacher" if doubled else ""
            steps.append(
                Cost(
                    amount,
                    unit,
                    f"{label} 0D → 1D: {base} CP for the first die (a GM setting, not in "
                    f"either seed){why} = {amount} CP; it brings one Force power",
                )
            )
        position = LEARNED_FORCE_SKILL_PIPS
    for pips in range(position, new_value):
        base = _number_before_d(pips)
        if edition == EDITION_1E:
            why = _teacher_doubles_1e(sheet, skill, pips + 1)
        else:
            why = "" if sheet["teacher"]["present"] else "doubled without a teacher"
        amount = base * (2 if why else 1)
        text = f"{label} {code(pips)} → {code(pips + 1)}: {base} {unit} per pip"
        text += f", {why}" if why else ""
        steps.append(Cost(amount, unit, f"{text} = {amount} {unit}"))
    return steps


def power_count(sheet: Mapping, slug: str, settings: Mapping) -> int:
    """How many powers one power counts as when taught in R&E (002:804)."""
    if settings["multi_skill_power_count"] == "one":
        return 1
    return len(traits.power_skills(sheet, slug, settings))


def free_picks_for(sheet: Mapping, slug: str, settings: Mapping) -> list[str]:
    """The pip-raise picks (skill names) an R&E power would use up, at most its count."""
    needs = traits.power_skills(sheet, slug, settings)
    usable = [skill for skill in sheet["force"]["power_picks"] if skill in needs]
    return usable[: power_count(sheet, slug, settings)]


def power_cost(sheet: Mapping, slug: str, settings: Mapping) -> Cost:
    """The price of learning one Force power, in either edition."""
    label = traits.power_label(sheet, slug)
    unit = unit_of(sheet)
    if sheet["edition"] == EDITION_1E:
        if sheet["teacher"]["present"]:
            return Cost(0, unit, f"{label}: taught by your teacher, 1 week, 0 SP")
        return Cost(1, unit, f"{label}: learned by experiment, 1 week and 1 SP")
    count = power_count(sheet, slug, settings)
    free = len(free_picks_for(sheet, slug, settings))
    paid = count - free
    amount = paid * RE_FORCE_POWER_COST
    counted = f" (it uses {count} Force skills, so it counts as {count})" if count > 1 else ""
    parts = []
    if free:
        parts.append(f"{free} taught free with a Force skill pip")
    if paid:
        parts.append(f"{paid} {TIMES} 5 CP without a pip raise")
    return Cost(amount, unit, f"{label}{counted}: {'; '.join(parts)} = {amount} CP")


def advance_steps(
    sheet: Mapping[str, Any], trait: str, new_value: int, settings: Mapping[str, Any]
) -> list[Cost]:
    """Price each single step of a raise; refuse a lowering or an impossible raise."""
    settings = resolve_settings(SETTINGS, settings)
    kind = traits.trait_kind(sheet, trait)
    label = traits.trait_name(sheet, trait)
    start = traits.trait_value(sheet, trait)
    rest = trait.partition(".")[2]
    unit = unit_of(sheet)
    if new_value < start:
        shown = str(start) if kind in (traits.MOVE,) else code(start)
        raise InvalidEdit(trait, f"Advancement only raises; {label} is {shown} now.")
    ceiling = MAX_MOVE if kind == traits.MOVE else MAX_CODE_PIPS
    if new_value > ceiling:
        raise InvalidEdit(trait, f"{label} cannot go that high.")
    if kind in (traits.FORCE_SENSITIVE, traits.POWER):
        if new_value > 1:
            raise InvalidEdit(trait, f"{label} is either had or not: use 1.")
        if new_value == start:
            return []
        if kind == traits.POWER:
            return [power_cost(sheet, rest, settings)]
        if sheet["edition"] == EDITION_1E or sheet["kind"] == "droid":
            raise InvalidEdit(
                trait,
                "In 1st edition the Force comes with a Force template or a master's training; "
                "droids never have it.",
            )
        return [
            Cost(
                FORCE_SENSITIVITY_COST,
                "CP",
                "Become Force-sensitive: 20 CP, no training time, never lost",
            )
        ]
    if kind == traits.MOVE:
        return _move_cost(sheet, start, new_value)
    if kind == traits.FORCE_SKILL:
        return _force_skill_costs(sheet, rest, label, start, new_value, settings)
    if kind in (traits.SPECIALIZATION, traits.ADVANCED) and sheet["edition"] == EDITION_1E:
        raise InvalidEdit(trait, f"1st edition has no {kind}s.")
    steps = []
    for pips in range(start, new_value):
        if kind == traits.ATTRIBUTE:
            steps.append(_attribute_step(sheet, label, rest, pips, settings))
        elif kind == traits.ADVANCED:
            steps.append(_advanced_step(label, pips, unit))
        elif kind == traits.SPECIALIZATION:
            steps.append(_specialization_step(label, pips, unit, settings))
        else:
            steps.append(_skill_step(label, pips, unit))
    return steps


def advance_cost(
    sheet: Mapping[str, Any], trait: str, new_value: int, settings: Mapping[str, Any]
) -> Cost:
    """Price raising `trait` to `new_value` (pips, Move, or 1 for a flag or power)."""
    steps = advance_steps(sheet, trait, new_value, settings)
    label = traits.trait_name(sheet, trait)
    cost = Cost.total(steps, unit=unit_of(sheet), label=label)
    if (
        sheet["kind"] == "droid"
        and trait.startswith("skill.")
        and trait.partition(".")[2] not in sheet["skills"]
        and steps
    ):
        # A droid's new skill also needs chip-burns and software (003:998).
        return Cost(cost.amount, cost.unit, f"{cost.explanation}; plus 1,000 credits", cost.steps)
    return cost


def raisable_traits(sheet: Mapping[str, Any]) -> list[str]:
    """Every trait a player could raise on this sheet, in sheet order."""
    keys = [f"attr.{slug}" for slug in ATTRIBUTE_SLUGS]
    keys += [f"skill.{skill.slug}" for skill in SKILLS]
    keys += [f"skill.{slug}" for slug in sheet["custom_skills"]]
    keys += [f"spec.{slug}" for slug in sheet["specializations"]]
    keys += [f"force.{slug}" for slug in FORCE_SKILL_SLUGS]
    keys += ["move", "force.sensitive"]
    return keys


FORCE_SKILL_TRAITS = frozenset(f"force.{slug}" for slug in FORCE_SKILL_SLUGS)


def step_up(trait: str, current: int) -> int:
    """The value one step above `current`: the next pip, or 1D for an unlearned Force skill."""
    if trait in FORCE_SKILL_TRAITS and current == 0:
        return LEARNED_FORCE_SKILL_PIPS
    return current + 1


def step_down(trait: str, current: int) -> int:
    """The value one step below `current`: the pip below, or 0D for a Force skill at 1D."""
    # A Force skill is learned at 1D and unlearned back to 0D, never a pip of it.
    if trait in FORCE_SKILL_TRAITS and current == LEARNED_FORCE_SKILL_PIPS:
        return 0
    return current - 1


def next_step_value(sheet: Mapping[str, Any], trait: str) -> int:
    """The value one step up: the next pip, 1D for an unlearned Force skill, Move + 1."""
    return step_up(trait, traits.trait_value(sheet, trait))


def next_costs(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict[str, Cost]:
    """The price of one more step for every trait that can be raised now."""
    settings = resolve_settings(SETTINGS, settings)
    costs: dict[str, Cost] = {}
    for trait in raisable_traits(sheet):
        if trait == "force.sensitive" and sheet["force"]["sensitive"]:
            continue
        try:
            costs[trait] = advance_cost(sheet, trait, next_step_value(sheet, trait), settings)
        except InvalidEdit:
            continue
    return costs


PIP_LIMITED_KINDS = (traits.SKILL, traits.ADVANCED, traits.SPECIALIZATION, traits.FORCE_SKILL)


def pip_limited(kind: str, settings: Mapping[str, Any]) -> bool:
    """Whether the one-pip-between-adventures rule covers this kind of trait (002:39)."""
    if kind in PIP_LIMITED_KINDS:
        return True
    return kind == traits.ATTRIBUTE and settings["pip_limit_scope"] == "skills_and_attributes"


def _recorded_steps(entry: Mapping[str, Any]) -> int:
    # Learning a Force skill (0D to 1D) or a flag is one step, whatever its pip span.
    if entry["from"] == 0 and entry["trait"].startswith("force."):
        return 1
    return entry["to"] - entry["from"]


def interval_pips(sheet: Mapping[str, Any], target: str) -> int:
    """Pips a trait has already gained in the current between-adventures window."""
    return sum(_recorded_steps(e) for e in sheet["interval"] if e["trait"] == target)


@dataclass(frozen=True)
class AttributeRoll:
    """The outcome of the R&E attribute-improvement roll (002:53)."""

    character_total: int
    gm_total: int
    improved: bool
    refund: int
    # The dice as rolled, the character's then the GM's, with what the Wild Die did.
    character_dice: tuple[int, ...] = ()
    gm_dice: tuple[int, ...] = ()
    details: tuple[str, ...] = ()
    # The exact chance, before the dice, that the new code rolls no more than the maximum.
    chance: Fraction | None = None


def resolve_attribute_roll(character_total: int, gm_total: int, cost: int) -> AttributeRoll:
    """A tie goes to the character; a higher roll keeps the attribute and refunds half."""
    improved = character_total <= gm_total
    return AttributeRoll(character_total, gm_total, improved, 0 if improved else cost // 2)


def roll_code(pips: int, rng: random.Random) -> int:
    """Roll a stored code (no Wild Die): the dice plus the pips."""
    die = DieCode.from_pips(pips)
    return sum(roll(die.dice, 6, rng)) + die.pips


def attribute_roll_applies(sheet: Mapping[str, Any], trait: str, settings: Mapping) -> bool:
    """Whether buying `trait` makes the improvement roll: an attribute in R&E (002:53), and
    in 1E only under the reading that carries the R&E rule over (003 has none)."""
    if not trait.startswith("attr.") or sheet.get("kind") == "droid":
        return False
    settings = resolve_settings(SETTINGS, settings)
    return sheet["edition"] == EDITION_RE or settings["attribute_roll_1e"] == "roll"


def roll_attribute_improvement(
    new_code: int,
    species_max: int,
    cost: int,
    rng: random.Random,
    readings: Mapping[str, Any] | None = None,
) -> AttributeRoll:
    """Roll the new attribute against the species maximum, as the GM does (002:53).

    Without `readings` both are plain dice. With the table's readings (an R&E sheet) each
    roll has its Wild Die, which 002:424 applies to every roll, a 1 read as the table reads
    it; the character's roll is made first, then the GM's, from the one generator."""
    if readings is None:
        outcome = resolve_attribute_roll(
            roll_code(new_code, rng), roll_code(species_max, rng), cost
        )
        return replace(outcome, chance=chance_at_most(new_code, species_max, None))
    facts = (("edition", EDITION_RE),)
    mine = wild_roll(Rollable("improvement", "New code", new_code, facts), readings, rng)
    theirs = wild_roll(Rollable("maximum", "Species maximum", species_max, facts), readings, rng)
    outcome = resolve_attribute_roll(mine.total or 0, theirs.total or 0, cost)
    details = tuple(f"Character: {d}" for d in mine.details)
    details += tuple(f"GM: {d}" for d in theirs.details)
    chance = chance_at_most(new_code, species_max, readings[WILD_ONE])
    return replace(
        outcome, character_dice=mine.dice, gm_dice=theirs.dice, details=details, chance=chance
    )
