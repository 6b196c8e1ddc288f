"""The SWd10 sheet laid out as the seed prints it (L1-69): header, attributes, abilities."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

import rulesets.swd10 as swd10
from rulesets.core import Cost, Report, Violation, resolve_settings
from rulesets.swd10.data import (
    ABILITIES,
    ABILITY_GROUPS,
    ABILITY_PRIORITIES,
    ATTRIBUTE_GROUPS,
    ATTRIBUTE_PRIORITIES,
    ATTRIBUTES,
    HEALTH_LEVELS,
    NUMBER_FIELDS,
    RANK_LABELS,
    TEXT_FIELDS,
    WILLPOWER_CIRCLES,
    Trait,
)
from sheets.characters.models import Character


@dataclass
class Dot:
    number: int
    filled: bool
    # What a click on this dot sets: its own number, or one less when it is the last
    # filled dot, so clicking the top dot takes it away again.
    sets: int
    free: bool = False


@dataclass
class DotRow:
    trait: str
    label: str
    value: int
    minimum: int
    maximum: int
    dots: list[Dot]
    violations: list[Violation]
    next_cost: Cost | None
    error: str = ""

    @property
    def dom_id(self) -> str:
        return "trait-" + self.trait.replace(".", "-")


@dataclass
class Field:
    trait: str
    label: str
    value: str | int
    kind: str  # "text" or "number"
    error: str = ""

    @property
    def dom_id(self) -> str:
        return "trait-" + self.trait.replace(".", "-")


@dataclass
class Group:
    key: str
    label: str
    kind: str  # "attributes" or "abilities"
    rank: int
    allowed: int
    rows: list[DotRow] = field(default_factory=list)

    @property
    def rank_label(self) -> str:
        return RANK_LABELS[self.rank]

    @property
    def trait(self) -> str:
        return f"prio.{self.kind}.{self.key}"


def _dot_row(
    trait: str,
    spec: Trait,
    value: int,
    report: Report,
    sheet: Mapping,
    settings: Mapping,
    errors: Mapping[str, str],
    *,
    free_dot: bool = False,
) -> DotRow:
    dots = []
    for number in range(1, spec.maximum + 1):
        sets = number - 1 if number == value else number
        dots.append(Dot(number, number <= value, max(sets, spec.minimum), free_dot and number == 1))
    return DotRow(
        trait=trait,
        label=spec.label,
        value=value,
        minimum=spec.minimum,
        maximum=spec.maximum,
        dots=dots,
        violations=report.for_trait(trait),
        next_cost=(
            swd10.advance_cost(sheet, trait, value + 1, settings) if value < spec.maximum else None
        ),
        error=errors.get(trait, ""),
    )


def sheet_context(
    character: Character,
    *,
    errors: Mapping[str, str],
    submitted: Mapping[str, str],
    only: Collection[str] | None = None,
) -> dict:
    """Lay out the sheet; with `only`, lay out just the rows an edit response swaps."""
    settings = resolve_settings(swd10.SETTINGS, character.rule_settings)
    sheet = character.sheet
    report = swd10.check(sheet, settings)
    whole_sections = {
        kind
        for kind in ("attributes", "abilities")
        if only is None or any(t.startswith((f"prio.{kind}.", "setting.")) for t in only)
    }

    fields = [
        Field(
            f"info.{key}",
            label,
            submitted.get(f"info.{key}", sheet["info"][key]),
            kind,
            errors.get(f"info.{key}", ""),
        )
        for fields_of_kind, kind in ((TEXT_FIELDS, "text"), (NUMBER_FIELDS, "number"))
        for key, label in fields_of_kind
    ]
    by_key = {f.trait.removeprefix("info."): f for f in fields}
    name = Field(
        "character.name",
        "Name",
        submitted.get("character.name", character.name),
        "text",
        errors.get("character.name", ""),
    )
    header_columns = [  # three columns of three, as at L3-5
        [name, by_key["player"], by_key["chronicle"]],
        [by_key["nature"], by_key["demeanor"], by_key["species"]],
        [by_key["experience"], by_key["destiny"], by_key["destiny_points"]],
    ]

    def groups(kind, group_specs, traits, values, priorities, prefix, free_dot):
        order = sheet["priorities"][kind]
        result = []
        for key, label in group_specs:
            rank = order.index(key)
            group = Group(key, label, kind, rank, priorities[rank])
            group.rows = [
                _dot_row(
                    f"{prefix}.{t.slug}",
                    t,
                    values[t.slug],
                    report,
                    sheet,
                    settings,
                    errors,
                    free_dot=free_dot,
                )
                for t in traits
                if t.group == key
                and (kind in whole_sections or f"{prefix}.{t.slug}" in (only or ()))
            ]
            result.append(group)
        return result

    free_dot = bool(settings["attribute_free_dot"])
    derived = swd10.derived(sheet, settings)
    pool_violations = {pool.key: report.for_trait(f"pool.{pool.key}") for pool in report.pools}
    known = {f.trait for column in header_columns for f in column}
    known |= {f"setting.{s.key}" for s in swd10.SETTINGS}
    known |= {
        f"{prefix}.{t.slug}"
        for prefix, traits in (("attr", ATTRIBUTES), ("abil", ABILITIES))
        for t in traits
    }
    return {
        "character": character,
        # Refusals with no field of their own (an unknown trait) are shown above the sheet.
        "stray_errors": [message for trait, message in errors.items() if trait not in known],
        "sheet": sheet,
        "report": report,
        "errors": errors,
        "header_columns": header_columns,
        "attribute_groups": groups(
            "attributes",
            ATTRIBUTE_GROUPS,
            ATTRIBUTES,
            sheet["attributes"],
            ATTRIBUTE_PRIORITIES,
            "attr",
            free_dot,
        ),
        "ability_groups": groups(
            "abilities",
            ABILITY_GROUPS,
            ABILITIES,
            sheet["abilities"],
            ABILITY_PRIORITIES,
            "abil",
            False,
        ),
        "pools": [(pool, pool_violations[pool.key]) for pool in report.pools],
        "rank_choices": list(enumerate(RANK_LABELS)),
        "derived": derived,
        "willpower_dots": [
            n <= derived["willpower_at_creation"] for n in range(1, WILLPOWER_CIRCLES + 1)
        ],
        "health_track": HEALTH_LEVELS,
        "readings": [
            (setting, settings[setting.key], setting.label_for(settings[setting.key]))
            for setting in swd10.SETTINGS
        ],
        "setting_errors": {
            k.removeprefix("setting."): v for k, v in errors.items() if k.startswith("setting.")
        },
    }


def edit_fragments(context: dict, edits: Mapping[str, str]) -> dict:
    """Pick the rows, fields and sections an edit touched, for out-of-band swaps."""
    traits = set(edits)
    rows = [
        row
        for group in context["attribute_groups"] + context["ability_groups"]
        for row in group.rows
        if row.trait in traits
    ]
    fields = [f for column in context["header_columns"] for f in column if f.trait in traits]
    sections = set()
    for trait in traits:
        if trait.startswith(("prio.attributes.", "setting.")):
            sections.add("attributes")
        if trait.startswith("prio.abilities."):
            sections.add("abilities")
        if trait.startswith("setting."):
            sections.add("readings")
    # A re-rendered section already carries its rows; swapping them twice would clash.
    section_of = {"attr": "attributes", "abil": "abilities"}
    rows = [row for row in rows if section_of[row.trait.partition(".")[0]] not in sections]
    return {"edited_rows": rows, "edited_fields": fields, "edited_sections": sections}
