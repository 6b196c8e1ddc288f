"""The SWd10 sheet page, its sections in the order the seed's sheet prints them.

Rows come from the engine; this module only adds what has no row: the lists a player adds
to and removes from (Force abilities, weapon techniques), the choices of the "add" rows,
the health track and the derived values the page prints, and what the one-page print
needs to keep the seed's layout.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from rulesets.core import RowKind, TraitRow
from rulesets.swd10 import xp_spent
from rulesets.swd10.data import (
    ABILITY_GROUPS,
    ABILITY_PRIORITIES,
    ATTRIBUTE_GROUPS,
    ATTRIBUTE_PRIORITIES,
    CUSTOM_LORES,
    FORCE_ABILITIES_BY_TREE,
    FORCE_ABILITY_BY_SLUG,
    FORCE_KNOWLEDGES,
    MERIT_BY_SLUG,
    MERITS,
    WEAPON_TECHNIQUES_BY_SKILL,
    Category,
    HealthLevel,
    Kind,
)
from sheets.characters.layouts.base import Layout, Section
from sheets.characters.models import Character
from sheets.characters.state import SheetState

_BODIES = "rulesets/swd10/"


@dataclass(frozen=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True)
class ChoiceGroup:
    label: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class OwnedAbility:
    slug: str
    name: str
    tree: str
    tags: str
    source: str


@dataclass(frozen=True)
class Technique:
    index: int
    skill: str
    name: str
    kind: str


@dataclass(frozen=True)
class HealthBox:
    number: int
    level: HealthLevel
    marked: bool
    # What a click on this box sets: its own number, or one less when it is the last
    # marked box, so clicking it again heals that level.
    sets: int


@dataclass(frozen=True)
class Health:
    boxes: tuple[HealthBox, ...]
    level: HealthLevel | None
    penalty: int
    incapacitated: bool
    hero: bool


@dataclass(frozen=True)
class Experience:
    available: int
    spent: int
    items: tuple[str, ...]
    swse_transfer: int


def _force_ability_choices() -> tuple[ChoiceGroup, ...]:
    """The add-a-Force-ability list by tree, with what each needs (the same for everyone)."""
    groups = []
    for knowledge in FORCE_KNOWLEDGES:
        choices = []
        for ability in FORCE_ABILITIES_BY_TREE[knowledge.slug]:
            needs = []
            if ability.min_pool:
                needs.append(f"pool {ability.min_pool}+")
            if ability.side is not None:
                needs.append(f"{ability.side.value[0].upper()}S {ability.side_minimum}+")
            needs += [FORCE_ABILITY_BY_SLUG[r].name for r in ability.requires]
            label = ability.name + (f" ({', '.join(needs)})" if needs else "")
            choices.append(Choice(ability.slug, label))
        groups.append(ChoiceGroup(knowledge.name, tuple(choices)))
    return tuple(groups)


def _merit_choices() -> tuple[ChoiceGroup, ...]:
    """The add-a-merit-or-flaw list by kind and category (the same for everyone)."""
    groups = []
    for kind in (Kind.MERIT, Kind.FLAW):
        for category in Category:
            entries = [m for m in MERITS if m.kind is kind and m.category is category]
            if entries:
                groups.append(
                    ChoiceGroup(
                        f"{category.value} {kind.value}s",
                        tuple(Choice(m.slug, f"{m.name} ({m.cost_label})") for m in entries),
                    )
                )
    return tuple(groups)


def _technique_choices() -> tuple[ChoiceGroup, ...]:
    return tuple(
        ChoiceGroup(
            skill.capitalize(),
            tuple(
                Choice(f"{skill}|{t.slug}", t.name + (" (name the kind)" if t.one_per_kind else ""))
                for t in techniques.values()
            ),
        )
        for skill, techniques in WEAPON_TECHNIQUES_BY_SKILL.items()
    )


FORCE_ABILITY_CHOICES = _force_ability_choices()
MERIT_CHOICES = _merit_choices()
TECHNIQUE_CHOICES = _technique_choices()


def _owned_abilities(sheet: Mapping[str, Any]) -> tuple[OwnedAbility, ...]:
    owned = []
    for slug in sheet["force_abilities"]:
        ability = FORCE_ABILITY_BY_SLUG[slug]
        tags = " ".join(sorted(t.value for t in ability.tags))
        owned.append(
            OwnedAbility(slug, ability.name, ability.tree.capitalize(), tags, ability.source)
        )
    return tuple(owned)


def _techniques(sheet: Mapping[str, Any]) -> tuple[Technique, ...]:
    return tuple(
        Technique(
            index,
            row["skill"].capitalize(),
            WEAPON_TECHNIQUES_BY_SKILL[row["skill"]][row["slug"]].name,
            row["kind"],
        )
        for index, row in enumerate(sheet["techniques"])
    )


def _health(sheet: Mapping[str, Any], derived: Mapping[str, Any]) -> Health:
    marked = sheet["health_marked"]
    boxes = tuple(
        HealthBox(n, level, n <= marked, n - 1 if n == marked else n)
        for n, level in enumerate(derived["health_track"], start=1)
    )
    return Health(
        boxes,
        derived["health_level"],
        derived["wound_penalty"],
        derived["incapacitated"],
        derived["hero"],
    )


# --- the one-page print -------------------------------------------------------------------


# Lines the seed's sheet prints for merits (L48-63) and flaws (L65-69), kept when a list is short.
PRINT_MERIT_LINES = 16
PRINT_FLAW_LINES = 5
# Lines for armor and shields: the seed's sheet has none (digest §1.7 proposes the rows).
PRINT_ARMOR_LINES = 2


@dataclass(frozen=True)
class PrintRow:
    """A dotted trait as the seed's sheet prints it: circles, filled up to the value."""

    label: str
    value: int
    circles: tuple[bool, ...]
    # A lore of the player's own prints its name on a line ("" leaves the line blank).
    lore: bool = False
    lore_name: str = ""
    # What the value is, in small print, and where the rule is (current Power, L100).
    note: str = ""
    source: str = ""


@dataclass(frozen=True)
class PrintGroup:
    label: str
    allowed: int
    rows: tuple[PrintRow, ...]


@dataclass(frozen=True)
class PrintMerit:
    name: str
    choice: str
    value: int
    circles: tuple[bool, ...]


def _circles(value: int, count: int) -> tuple[bool, ...]:
    return tuple(n <= value for n in range(1, max(count, value) + 1))


def _print_row(row: TraitRow, sheet: Mapping[str, Any]) -> PrintRow:
    slug = row.key.partition(".")[2]
    circles = _circles(row.value, row.maximum or 0)
    if slug in CUSTOM_LORES:
        return PrintRow(row.label, row.value, circles, True, sheet["lore_names"][slug])
    return PrintRow(row.label, row.value, circles)


@dataclass(frozen=True)
class Printed:
    """What the print template needs beyond the page context (print order, L1-69)."""

    attributes: tuple[PrintGroup, ...]
    abilities: dict[str, PrintGroup]
    force: tuple[PrintRow, ...]
    power: PrintRow
    willpower: PrintRow
    # The current pools as boxes up to their maximum, marked up to what is left.
    power_pool: PrintRow
    willpower_pool: PrintRow
    light: PrintRow
    dark: PrintRow
    merits: tuple[PrintMerit, ...]
    flaws: tuple[PrintMerit, ...]
    force_abilities: tuple[OwnedAbility, ...]
    techniques: tuple[Technique, ...]
    health: Health
    # Blank lines that keep the seed's layout when a list is short.
    merit_blanks: range
    flaw_blanks: range
    language_blanks: range
    weapon_blanks: range
    armor_blanks: range


def _printed(state: SheetState) -> Printed:
    sheet = state.sheet
    dots = {row.key: _print_row(row, sheet) for row in state.rows if row.kind is RowKind.DOTS}

    def group(section: str, prefix: str, key: str, label: str) -> PrintGroup:
        rows = tuple(
            dots[row.key]
            for row in state.rows
            if row.section == section and row.group == label and row.key.startswith(prefix)
        )
        # The dots the group's priority gives, printed in play too (where no pool is).
        priorities = ATTRIBUTE_PRIORITIES if section == "attributes" else ABILITY_PRIORITIES
        rank = sheet["priorities"][section].index(key)
        return PrintGroup(label, priorities[rank], rows)

    merits = [(MERIT_BY_SLUG[row["slug"]], row) for row in sheet["merits"]]

    def printed(kind: Kind) -> tuple[PrintMerit, ...]:
        return tuple(
            PrintMerit(merit.name, row["choice"], row["value"], _circles(row["value"], 5))
            for merit, row in merits
            if merit.kind is kind
        )

    merit_rows, flaw_rows = printed(Kind.MERIT), printed(Kind.FLAW)
    rows = {row.key: row for row in state.rows}

    def pool(key: str, maximum: str) -> PrintRow:
        row = rows[key]
        circles = _circles(row.value, sheet[maximum])
        return PrintRow(row.label, row.value, circles, note=row.note, source=row.source)

    return Printed(
        attributes=tuple(group("attributes", "attr.", k, label) for k, label in ATTRIBUTE_GROUPS),
        abilities={k: group("abilities", "abil.", k, label) for k, label in ABILITY_GROUPS},
        force=tuple(dots[f"fk.{k.slug}"] for k in FORCE_KNOWLEDGES),
        power=dots["power"],
        willpower=dots["willpower"],
        power_pool=pool("power_current", "power"),
        willpower_pool=pool("willpower_current", "willpower"),
        light=dots["side.light"],
        dark=dots["side.dark"],
        merits=merit_rows,
        flaws=flaw_rows,
        force_abilities=_owned_abilities(sheet),
        techniques=_techniques(sheet),
        health=_health(sheet, state.derived),
        merit_blanks=range(max(0, PRINT_MERIT_LINES - len(merit_rows))),
        flaw_blanks=range(max(0, PRINT_FLAW_LINES - len(flaw_rows))),
        language_blanks=range(max(0, 8 - len(sheet["languages"]))),
        weapon_blanks=range(max(0, 5 - len(sheet["weapons"]))),
        armor_blanks=range(max(0, PRINT_ARMOR_LINES - len(sheet["armor"]))),
    )


class Swd10Layout(Layout):
    sections = (
        Section("header", "Star Wars"),
        Section("attributes", "Attributes"),
        Section("abilities", "Abilities"),
        Section("force", "Force knowledges"),
        Section(
            "force_abilities",
            "Force abilities",
            body=_BODIES + "_force_abilities.html",
            adds=_BODIES + "_force_abilities_add.html",
            prefixes=("fa.",),
            uses_extra=("force_abilities",),
        ),
        Section(
            "merits",
            "Merits and flaws",
            body=_BODIES + "_merits.html",
            adds=_BODIES + "_merits_add.html",
            prefixes=("merit.",),
        ),
        Section(
            "languages",
            "Languages",
            body=_BODIES + "_languages.html",
            adds=_BODIES + "_languages_add.html",
            prefixes=("language.",),
        ),
        Section(
            "weapons",
            "Weapons",
            body=_BODIES + "_weapons.html",
            adds=_BODIES + "_weapons_add.html",
            prefixes=("weapon.",),
        ),
        Section(
            "armor",
            "Armor and shields",
            body=_BODIES + "_armor.html",
            adds=_BODIES + "_armor_add.html",
            prefixes=("armor.",),
        ),
        Section(
            "techniques",
            "Weapon techniques",
            body=_BODIES + "_techniques.html",
            adds=_BODIES + "_techniques_add.html",
            prefixes=("technique.",),
            uses_extra=("techniques",),
        ),
        Section("other", "Other", body=_BODIES + "_other.html", uses_extra=("standing", "refill")),
        Section("health", "Health", body=_BODIES + "_health.html", uses_extra=("health",)),
        Section(
            "experience",
            "Experience and transfer",
            body=_BODIES + "_experience.html",
            uses_extra=("experience",),
        ),
        Section(
            "derived", "Derived", body=_BODIES + "_derived.html", side=True, shows_derived=True
        ),
    )

    def section_for(self, row: TraitRow) -> str:
        # The shell draws the stage switch itself: its row sits in the experience
        # section, whose body leaves it out. Health has a section of its own, so that
        # marking a level redraws only the track.
        if row.section == "stage":
            return "experience"
        return "health" if row.key == "health" else row.section

    def extra(self, state: SheetState, character: Character) -> dict:
        sheet, derived = state.sheet, state.derived
        return {
            "force_abilities": _owned_abilities(sheet),
            "force_ability_choices": FORCE_ABILITY_CHOICES,
            "merit_choices": MERIT_CHOICES,
            "techniques": _techniques(sheet),
            "technique_choices": TECHNIQUE_CHOICES,
            "health": _health(sheet, derived),
            "standing": (derived["alignment"], derived["alignment_effects"]),
            # L93: a Destiny point refills current Willpower, offered when it has room.
            "refill": sheet["stage"] == "play"
            and sheet["info"]["destiny_points"] > 0
            and sheet["willpower_current"] < sheet["willpower"],
            "experience": Experience(
                derived["xp_available"],
                derived["xp_spent"],
                tuple(cost.explanation for cost in xp_spent(sheet, state.settings)),
                derived["swse_transfer_xp"],
            ),
            # The PDF view renders print.html from the page context: built only when
            # the print template asks for it (a template calls a callable it is given).
            "printed": partial(_printed, state),
        }

    def print_extra(self, state: SheetState, character: Character) -> dict:
        return {"printed": _printed(state)}


LAYOUT = Swd10Layout()
