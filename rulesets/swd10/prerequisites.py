"""Prerequisites of SWd10 merits, flaws and Force abilities, as pure functions over a view.

The functions read a `TraitView`: the handful of values prerequisites look at, built by the
sheet code from whatever the sheet stores. Each check returns every failing prerequisite as a
plain message naming the numbers, e.g. "Juyo needs Melee 4; you have 3"; an empty list
means the entry may be bought. The seed line of each requirement is in the catalog.

Source: seeds/000_0413f1179ca9c507.txt (cited as L<n>); digest: rules/swd10.md §4.5, §5.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from rulesets.swd10.data import (
    ARMOR_CLASSES,
    FORCE_ABILITY_BY_SLUG,
    FORCE_KNOWLEDGE_BY_SLUG,
    MERIT_BY_SLUG,
    SENSES,
    Category,
    Choice,
    ChoiceKind,
    ForceAbility,
    ForceKnowledge,
    Merit,
    Need,
    Requirement,
    Side,
)

DEFAULT_DIFFICULTY = 6  # L847
LOST_GRADE_PENALTY = 3  # L132


@dataclass(frozen=True)
class TraitView:
    """The traits prerequisites look at, read from a sheet.

    `merits` holds every merit and flaw owned (slug -> points); `merit_choices` what a
    parameterised one was taken for (slug -> chosen slugs: the ability for Ability Aptitude,
    the sense for Acute Senses). An attribute missing from `attributes` counts as its free
    first dot; any other missing trait counts as 0.
    """

    attributes: Mapping[str, int] = field(default_factory=dict)
    abilities: Mapping[str, int] = field(default_factory=dict)
    force_knowledges: Mapping[str, int] = field(default_factory=dict)
    power: int = 1
    willpower: int = 2
    light_side: int = 0
    dark_side: int = 0
    merits: Mapping[str, int] = field(default_factory=dict)
    merit_choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    force_abilities: frozenset[str] = frozenset()
    species: str = ""
    is_droid: bool = False

    def attribute(self, slug: str) -> int:
        return self.attributes.get(slug, 1)

    def ability(self, slug: str) -> int:
        return self.abilities.get(slug, 0)

    def knowledge(self, slug: str) -> int:
        return self.force_knowledges.get(slug, 0)

    @property
    def droid(self) -> bool:
        # The Droid merit is what makes a character a droid (L657-659); accept either flag.
        return self.is_droid or "droid" in self.merits

    @property
    def force_sensitive(self) -> bool:
        return "force_sensitivity" in self.merits


def trait_label(slug: str) -> str:
    """Return the sheet's name for an attribute or ability slug ("lore_jedi" -> "Lore: Jedi")."""
    if slug.startswith("lore_"):
        return "Lore: " + slug.removeprefix("lore_").replace("_", " ").title()
    return slug.replace("_", " ").capitalize()


# ---------------------------------------------------------------------------------------
# Light, dark and the Force pool


class Alignment(StrEnum):
    LIGHT = "light"
    NEUTRAL = "neutral"
    DARK = "dark"


def classification(light: int, dark: int) -> Alignment:
    """Classify a character by its sides: dark on a 2-point lead, light only on 3 (L128)."""
    if dark - light >= 2:
        return Alignment.DARK
    if light - dark >= 3:
        return Alignment.LIGHT
    return Alignment.NEUTRAL


def _knowledge(tree: str | ForceKnowledge) -> ForceKnowledge:
    return tree if isinstance(tree, ForceKnowledge) else FORCE_KNOWLEDGE_BY_SLUG[tree]


def force_pool(tree: str | ForceKnowledge, view: TraitView) -> int:
    """Return the tree's activation pool: the better of its two attributes plus its dots (L845)."""
    knowledge = _knowledge(tree)
    return max(view.attribute(a) for a in knowledge.attributes) + view.knowledge(knowledge.slug)


def _pool_breakdown(knowledge: ForceKnowledge, view: TraitView) -> str:
    best = max(knowledge.attributes, key=view.attribute)
    return (
        f"{trait_label(best)} {view.attribute(best)} + "
        f"{knowledge.name} {view.knowledge(knowledge.slug)}"
    )


def _side_value(side: Side, view: TraitView) -> int:
    return view.light_side if side is Side.LIGHT else view.dark_side


def _side_label(side: Side) -> str:
    return "Light side" if side is Side.LIGHT else "Dark side"


def sides_above_power(view: TraitView) -> list[str]:
    """Name each side that exceeds Power, which neither may ever do (L114)."""
    return [
        f"{label} {value} is above Power {view.power}; neither side may exceed Power"
        for label, value in (("Light side", view.light_side), ("Dark side", view.dark_side))
        if value > view.power
    ]


# ---------------------------------------------------------------------------------------
# Merits and flaws


def _check_attribute(merit: Merit, need: Requirement, view: TraitView) -> str | None:
    have = view.attribute(need.key)
    if have >= need.minimum:
        return None
    label = trait_label(need.key)
    return f"{merit.name} needs {label} {need.minimum}; you have {have}"


def _check_ability(merit: Merit, need: Requirement, view: TraitView) -> str | None:
    have = view.ability(need.key)
    if have >= need.minimum:
        return None
    label = trait_label(need.key)
    return f"{merit.name} needs {label} {need.minimum}; you have {have}"


def _check_power(merit: Merit, need: Requirement, view: TraitView) -> str | None:
    if view.power >= need.minimum:
        return None
    return f"{merit.name} needs Power {need.minimum}; you have {view.power}"


def _check_willpower(merit: Merit, need: Requirement, view: TraitView) -> str | None:
    if view.willpower >= need.minimum:
        return None
    return f"{merit.name} needs Willpower {need.minimum}; you have {view.willpower}"


def _check_merit(merit: Merit, need: Requirement, view: TraitView) -> str | None:
    if need.key in view.merits:
        return None
    return f"{merit.name} needs the {MERIT_BY_SLUG[need.key].name} merit"


def _check_force_sensitivity(merit: Merit, need: Requirement, view: TraitView) -> str | None:
    if view.force_sensitive:
        return None
    return f"{merit.name} needs the Force Sensitivity merit"


def _check_droid(merit: Merit, need: Requirement, view: TraitView) -> str | None:
    if view.droid:
        return None
    return f"{merit.name} is for droids only: it needs the Droid merit"


def _check_not_droid(merit: Merit, need: Requirement, view: TraitView) -> str | None:
    if not view.droid:
        return None
    return f"Droids cannot take Force merits such as {merit.name}"


def _species_key(name: str) -> str:
    # "Twi'lek", "twilek" and "Twi-lek" are the same species to a player.
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _check_species(merit: Merit, need: Requirement, view: TraitView) -> str | None:
    if _species_key(view.species) == _species_key(need.key):
        return None
    species = f"the species is {view.species}" if view.species.strip() else "no species is set"
    return f"{merit.name} is only for {need.key} characters; {species}"


_CHECKS: dict[Need, Callable[[Merit, Requirement, TraitView], str | None]] = {
    Need.ATTRIBUTE: _check_attribute,
    Need.ABILITY: _check_ability,
    Need.POWER: _check_power,
    Need.WILLPOWER: _check_willpower,
    Need.MERIT: _check_merit,
    Need.FORCE_SENSITIVITY: _check_force_sensitivity,
    Need.DROID: _check_droid,
    Need.NOT_DROID: _check_not_droid,
    Need.SPECIES: _check_species,
}

_CHOICE_NOUNS = {
    ChoiceKind.ABILITY: "an ability",
    ChoiceKind.FORCE_KNOWLEDGE: "a Force knowledge",
    ChoiceKind.FORCE_ABILITY: "one of your Force abilities",
    ChoiceKind.SENSE: "a sense",
    ChoiceKind.ARMOR_CLASS: "an armor class",
}


def _check_choice(merit: Merit, choice: Choice, chosen: str, view: TraitView) -> str | None:
    """Check one chosen parameter of a merit: that it exists, and what it must have."""
    kind = choice.kind
    if kind is ChoiceKind.SENSE and chosen not in SENSES:
        return f"{merit.name}: “{chosen}” is not a sense ({', '.join(SENSES)})"
    if kind is ChoiceKind.ARMOR_CLASS and chosen not in ARMOR_CLASSES:
        classes = ", ".join(ARMOR_CLASSES)
        return f"{merit.name}: “{chosen}” is not an armor class ({classes})"
    if kind is ChoiceKind.FORCE_KNOWLEDGE:
        knowledge = FORCE_KNOWLEDGE_BY_SLUG.get(chosen)
        if knowledge is None:
            return f"{merit.name}: “{chosen}” is not a Force knowledge"
        have = view.knowledge(chosen)
        if choice.must_have and have < 1:
            return f"{merit.name} needs at least 1 dot in {knowledge.name}; you have 0"
    if kind is ChoiceKind.FORCE_ABILITY:
        ability = FORCE_ABILITY_BY_SLUG.get(chosen)
        if ability is None:
            return f"{merit.name}: “{chosen}” is not a Force ability"
        if choice.must_have and chosen not in view.force_abilities:
            return f"{merit.name} needs {ability.name} among your Force abilities"
    if kind is ChoiceKind.ABILITY and choice.must_have and view.ability(chosen) < 1:
        return (
            f"{merit.name} needs at least 1 dot in {trait_label(chosen)}; "
            f"you have {view.ability(chosen)}"
        )
    return None


def _conflict(merit: Merit, chosen: tuple[str, ...], view: TraitView) -> str | None:
    """Name a clash with a merit that may not share this one's choice (Weak Sense, L420)."""
    other_slug = merit.conflicts_with
    if not other_slug or other_slug not in view.merits:
        return None
    other = MERIT_BY_SLUG[other_slug]
    if other.all_choices_at is not None and view.merits[other_slug] >= other.all_choices_at:
        return f"{merit.name} cannot be taken beside {other.name} for every sense"
    shared = sorted(set(chosen) & set(view.merit_choices.get(other_slug, ())))
    if shared:
        return f"{merit.name} cannot name the same {shared[0]} as {other.name}"
    return None


def unmet_merit_prerequisites(
    merit: Merit | str,
    view: TraitView,
    *,
    choice: str | None = None,
    species_bound: bool = True,
) -> list[str]:
    """List every prerequisite of a merit or flaw the view fails, as plain messages.

    `choice` is the parameter being bought (the ability for Ability Deficit); without it the
    choices recorded in `view.merit_choices` are checked. A race merit's grants are not
    checked here: they come free and skip their own prerequisites (digest §5.5).
    `species_bound` False is the GM's reading that a race merit fits any character.
    """
    if isinstance(merit, str):
        merit = MERIT_BY_SLUG[merit]
    messages = [
        message
        for need in merit.requirements
        if species_bound or need.need is not Need.SPECIES
        if (message := _CHECKS[need.need](merit, need, view)) is not None
    ]
    spec = merit.choice
    if spec is None:
        return messages
    chosen = (choice,) if choice is not None else view.merit_choices.get(merit.slug, ())
    covers_everything = (
        merit.all_choices_at is not None and view.merits.get(merit.slug, 0) >= merit.all_choices_at
    )
    if not chosen and not covers_everything:
        noun = _CHOICE_NOUNS[spec.kind]
        messages.append(f"{merit.name} needs {noun} chosen")
    messages.extend(
        message
        for item in chosen
        if (message := _check_choice(merit, spec, item, view)) is not None
    )
    if (clash := _conflict(merit, chosen, view)) is not None:
        messages.append(clash)
    return messages


def merits_granted_by_race(merits: Mapping[str, int]) -> dict[str, int]:
    """Return the merits (slug -> points) that the race merits owned bring for free (L643-653)."""
    granted: dict[str, int] = {}
    for slug in merits:
        merit = MERIT_BY_SLUG.get(slug)
        if merit is not None and merit.category is Category.RACE:
            granted.update(merit.grants)
    return granted


# ---------------------------------------------------------------------------------------
# Force abilities


def _ability_of(ability: ForceAbility | str) -> ForceAbility:
    return ability if isinstance(ability, ForceAbility) else FORCE_ABILITY_BY_SLUG[ability]


def unmet_force_ability_prerequisites(ability: ForceAbility | str, view: TraitView) -> list[str]:
    """List every prerequisite of a Force ability the view fails, as plain messages.

    Printed ones: the activation pool, the Light or Dark side grade, another ability owned
    (L843). Read in from elsewhere: Force Sensitivity (L571), not a droid (L659), and at
    least 1 dot in the tree (L193, L242).
    """
    ability = _ability_of(ability)
    knowledge = FORCE_KNOWLEDGE_BY_SLUG[ability.tree]
    messages: list[str] = []
    if view.droid:
        messages.append(f"Droids cannot use Force abilities such as {ability.name}")
    if not view.force_sensitive:
        messages.append(f"{ability.name} needs the Force Sensitivity merit")
    if view.knowledge(knowledge.slug) < 1:
        messages.append(f"{ability.name} needs at least 1 dot in {knowledge.name}")
    if ability.min_pool is not None:
        pool = force_pool(knowledge, view)
        if pool < ability.min_pool:
            messages.append(
                f"{ability.name} needs a {knowledge.name} pool of {ability.min_pool}; yours is "
                f"{pool} ({_pool_breakdown(knowledge, view)})"
            )
    if ability.side is not None:
        have = _side_value(ability.side, view)
        if have < ability.side_minimum:
            messages.append(
                f"{ability.name} needs {_side_label(ability.side)} {ability.side_minimum}; "
                f"you have {have}"
            )
    for other in ability.requires:
        if other not in view.force_abilities:
            name = FORCE_ABILITY_BY_SLUG[other].name
            messages.append(f"{ability.name} needs the {name} ability")
    return messages


def lost_side_grade(ability: ForceAbility | str, view: TraitView) -> bool:
    """Tell whether the character now lacks the Light or Dark side grade the ability needs."""
    ability = _ability_of(ability)
    return ability.side is not None and _side_value(ability.side, view) < ability.side_minimum


def lost_side_warning(ability: ForceAbility | str, view: TraitView) -> str | None:
    """Warn that an owned ability's side grade is lost: +3 difficulty, no side bonus (L132)."""
    ability = _ability_of(ability)
    if ability.side is None or not lost_side_grade(ability, view):
        return None
    side = _side_label(ability.side)
    return (
        f"{ability.name} needs {side} {ability.side_minimum} and you now have "
        f"{_side_value(ability.side, view)}: it activates at +{LOST_GRADE_PENALTY} difficulty "
        f"and without the {side} bonus"
    )


def counts_as_dark(ability: ForceAbility | str, view: TraitView) -> bool:
    """Tell whether a (D) ability counts as Dark, which Vaapad or Juyo can lift (L1300, L1307)."""
    ability = _ability_of(ability)
    if not ability.is_dark:
        return False
    return not (ability.not_dark_with_merit and ability.not_dark_with_merit in view.merits)


def opposite_side_message(ability: ForceAbility | str, view: TraitView) -> str | None:
    """Name the side a character stands on when it is the other side from the ability's tag.

    Used only under the SIDE_TAG_BARS reading: the seed gives the tags difficulty
    modifiers (L130) but does not say whether they also forbid the purchase.
    """
    ability = _ability_of(ability)
    alignment = classification(view.light_side, view.dark_side)
    if alignment is Alignment.LIGHT and counts_as_dark(ability, view):
        return f"{ability.name} is a Dark side ability; a Light side character cannot take it"
    if alignment is Alignment.DARK and ability.is_light:
        return f"{ability.name} is a Light side ability; a Dark side character cannot take it"
    return None


def activation_difficulty(ability: ForceAbility | str, view: TraitView) -> int:
    """Return the activation difficulty after the light/dark modifiers (L130, L132, L847).

    A light character gets -1 on (L) abilities, a dark one -2 on (D) and +4 on (L). A lost
    side grade adds 3 and drops the bonus; the +4 is a penalty, not a bonus, so it stays
    (a reading: L132 names only the bonus). The roller clamps the result.
    """
    ability = _ability_of(ability)
    alignment = classification(view.light_side, view.dark_side)
    lost = lost_side_grade(ability, view)
    difficulty = DEFAULT_DIFFICULTY + (LOST_GRADE_PENALTY if lost else 0)
    if alignment is Alignment.LIGHT and ability.is_light and not lost:
        difficulty -= 1
    if alignment is Alignment.DARK and counts_as_dark(ability, view) and not lost:
        difficulty -= 2
    if alignment is Alignment.DARK and ability.is_light:
        difficulty += 4
    return difficulty


def abilities_per_tree(view: TraitView) -> dict[str, int]:
    """Count the Force abilities owned in each tree, to set against its dots (L242, L318)."""
    counts = dict.fromkeys(FORCE_KNOWLEDGE_BY_SLUG, 0)
    for slug in view.force_abilities:
        ability = FORCE_ABILITY_BY_SLUG.get(slug)
        if ability is not None:
            counts[ability.tree] += 1
    return counts
