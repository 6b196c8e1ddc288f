"""Readings a GM may change: declared by each ruleset with the default the seed implies."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.core.parsing import NO, WHOLE_NUMBER, YES


@dataclass(frozen=True)
class Setting:
    """One changeable rule reading.

    `choices` lists (value, label) pairs for a choice; an empty tuple means a whole number
    between `minimum` and `maximum`. `source` names the seed line or the digest proposal
    the default comes from, so the sheet can say which reading is in force and why.
    """

    key: str
    label: str
    default: Any
    source: str
    help: str = ""
    choices: tuple[tuple[Any, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def label_for(self, value: Any) -> str:
        for choice, label in self.choices:
            if choice == value:
                return label
        return str(value)

    def coerce(self, raw: Any) -> Any:
        """Turn a submitted value into this setting's type, or raise ValueError."""
        if self.choices:
            for choice, _label in self.choices:
                if str(choice) == str(raw):
                    return choice
            allowed = ", ".join(label for _c, label in self.choices)
            raise ValueError(f"{self.label}: choose one of {allowed}.")
        if isinstance(self.default, bool):
            text = str(raw).strip().lower()
            if text in YES:
                return True
            if text in NO:
                return False
            raise ValueError(f"{self.label}: choose yes or no.")
        text = str(raw).strip()
        if isinstance(raw, bool) or not WHOLE_NUMBER.fullmatch(text):
            raise ValueError(f"{self.label}: “{text[:40]}” is not a whole number.")
        value = int(text)
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"{self.label}: at least {self.minimum}.")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"{self.label}: at most {self.maximum}.")
        return value


class ResolvedSettings(dict):
    """Settings `resolve_settings` merged and coerced against `declared`.

    The engines resolve the settings they are given at every entry point, and one call
    passes them on to the next (a WEG sheet's next costs price some sixty raises, each
    resolving again): resolving what is already resolved is then only a copy.
    """

    __slots__ = ("declared",)


def resolve_settings(
    declared: tuple[Setting, ...], chosen: Mapping[str, Any] | None
) -> ResolvedSettings:
    """Merge chosen values over the declared defaults, coerced to each setting's type.

    Keys nobody declared are ignored. A stored value that no longer fits its setting (a
    choice since withdrawn, a number now out of range) falls back to the default, so an
    old sheet always opens; the readings panel then shows the default in force.
    """
    if isinstance(chosen, ResolvedSettings) and chosen.declared is declared:
        # A copy, as a fresh resolution would be: a caller may change what it gets.
        again = ResolvedSettings(chosen)
        again.declared = declared
        return again
    chosen = chosen or {}
    resolved = ResolvedSettings()
    resolved.declared = declared
    for setting in declared:
        value = setting.default
        if setting.key in chosen:
            try:
                value = setting.coerce(chosen[setting.key])
            except ValueError:
                value = setting.default
        resolved[setting.key] = value
    return resolved
