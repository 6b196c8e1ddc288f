"""The entry form as rows a template draws: each field of the kind with its value and fault.

The fields and their limits come from the kind's declaration (`form_fields`); nothing here
restates a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rulesets.core.compendium import EntryKind, FormField, entry_to_form, form_fields


@dataclass(frozen=True)
class FieldRow:
    field: FormField
    value: str
    error: str = ""

    @property
    def id(self) -> str:
        # Dotted names ("minimum.dexterity") are fine in a name but awkward in a CSS id.
        return "field-" + self.field.name.replace(".", "-")

    @property
    def rows(self) -> int:
        return 8 if self.field.widget == "textarea" else 4

    @property
    def checked(self) -> bool:
        return self.value not in ("", "off", "false", "0")


def field_rows(
    kind: EntryKind, values: Mapping[str, str], errors: Mapping[str, str] | None = None
) -> list[FieldRow]:
    errors = errors or {}
    return [
        FieldRow(field, str(values.get(field.name, "")), errors.get(field.name, ""))
        for field in form_fields(kind)
    ]


@dataclass(frozen=True)
class ShownField:
    label: str
    value: str
    widget: str


def shown_fields(kind: EntryKind, data: Mapping) -> list[ShownField]:
    """The entry read back field by field, as its form would show it (empty ones left out,
    and the name, which heads the page)."""
    values = entry_to_form(kind, data)
    shown = []
    for field in form_fields(kind):
        if field.name == "name":
            continue
        value = values.get(field.name, "")
        if field.widget == "checkbox":
            value = "Yes" if value else "No"
        elif field.widget == "choice":
            value = dict(field.choices).get(value, value)
        if value:
            shown.append(ShownField(field.label, value, field.widget))
    return shown


def leftover_errors(kind: EntryKind, errors: Mapping[str, str]) -> list[str]:
    """Faults that belong to no field of the form (the entry's size, a full book)."""
    names = {field.name for field in form_fields(kind)}
    return [message for name, message in errors.items() if name not in names]
