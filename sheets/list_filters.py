"""The filters of My characters and My campaigns, read from the query string.

A filter is a GET parameter, so a filtered list is a link like any other and works without
JavaScript. A value that cannot be read (an unknown system, text that cannot be stored) is
never an error page: that one filter is left out and the form says why beside its field.
The form is drawn by templates/partials/list_filters.html from `Filters.fields`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rulesets.core import InvalidEdit
from rulesets.core.parsing import clean_text

# As long as a name may be, so the search box takes any name whole.
SEARCH_LIMIT = 100


@dataclass(frozen=True)
class FilterField:
    key: str
    label: str
    value: str
    error: str = ""
    # None for the search box; else the choices of a select, (value, label), "" first.
    options: Sequence[tuple[str, str]] | None = None


@dataclass
class Filters:
    """What the visitor asked for: the values applied, and a message per refused one."""

    fields: list[FilterField] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return any(f.value for f in self.fields)

    @property
    def refused(self) -> bool:
        return any(f.error for f in self.fields)

    def search(self, query: Mapping[str, str], *, key: str = "q", label: str = "Name") -> str:
        """Name text to look for, spaces collapsed; "" when absent or unreadable."""
        try:
            text = clean_text(key, query.get(key, ""), label="The search text", limit=SEARCH_LIMIT)
        except InvalidEdit as refused:
            self.fields.append(
                FilterField(key, label, "", f"{refused.message} Showing every name.")
            )
            return ""
        self.fields.append(FilterField(key, label, text))
        return text

    def choice(
        self,
        query: Mapping[str, str],
        key: str,
        label: str,
        options: Sequence[tuple[str, str]],
        *,
        anything: str = "Any",
    ) -> str:
        """One of the options' values; "" when absent, or when unknown (with a message)."""
        raw = query.get(key, "")
        known = {value for value, _ in options}
        choices = [("", anything), *options]
        if raw and raw not in known:
            self.fields.append(FilterField(key, label, "", _unknown(raw), choices))
            return ""
        self.fields.append(FilterField(key, label, raw, "", choices))
        return raw


def _unknown(raw: str) -> str:
    shown = "".join(char if char.isprintable() else "\ufffd" for char in " ".join(raw.split()))
    if len(shown) > 40:
        shown = shown[:39] + "…"
    return f"“{shown}” is not one of the choices: this filter is left out."
