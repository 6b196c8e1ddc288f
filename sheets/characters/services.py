"""Every write to a character goes through here: one transaction, a row lock, a version
check and a revision, so no edit is lost and none silently overwrites another."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.shortcuts import get_object_or_404

from rulesets.core import InvalidEdit, resolve_settings
from rulesets.registry import get_ruleset, system_info
from sheets.characters.models import Character, Revision
from sheets.characters.selectors import editable_characters

NAME_TRAIT = "character.name"
SETTING_PREFIX = "setting."
NAME_MAX_LENGTH = 100


class StaleVersion(Exception):
    """The edit was made on an older version of the sheet than the one stored."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            f"This sheet was changed elsewhere (you edited version {expected}, it is now "
            f"version {current}). Nothing was saved; the current values are shown."
        )
        self.expected = expected
        self.current = current


class EditRefused(Exception):
    """One or more submitted values were refused; nothing was saved."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = errors


def clean_name(raw: str) -> str:
    name = " ".join(str(raw).split())
    if not name:
        raise InvalidEdit(NAME_TRAIT, "A character needs a name.")
    if len(name) > NAME_MAX_LENGTH:
        raise InvalidEdit(NAME_TRAIT, f"A name is at most {NAME_MAX_LENGTH} characters.")
    return name


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, inner in value.items():
            flat |= _flatten(inner, f"{prefix}.{key}" if prefix else str(key))
        return flat
    return {prefix: value}


def _changes(before: dict, after: dict) -> tuple[dict, dict]:
    """Keep only the paths whose value differs, so a revision stays small."""
    old, new = _flatten(before), _flatten(after)
    changed = sorted(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
    return {k: old.get(k) for k in changed}, {k: new.get(k) for k in changed}


def _state(character: Character) -> dict:
    return {
        "name": character.name,
        "settings": character.rule_settings,
        "sheet": character.sheet,
    }


def _record(character: Character, author: AbstractBaseUser | None, summary: str, before: dict):
    old, new = _changes(before, _state(character))
    Revision.objects.create(
        character=character,
        author=author,
        version=character.version,
        summary=summary[:200],
        before=old,
        after=new,
    )


def character_create(
    *,
    owner: AbstractBaseUser,
    name: str,
    system: str,
    sheet: dict | None = None,
    rule_settings: dict | None = None,
    summary: str = "Created",
) -> Character:
    """Create a character of a ready system with a blank (or given, already valid) sheet."""
    info = system_info(system)
    if not info.ready:
        raise InvalidEdit("system", f"{info.name} is not available yet.")
    ruleset = get_ruleset(system)
    chosen = dict(rule_settings or {})
    with transaction.atomic():
        character = Character.objects.create(
            owner=owner,
            name=clean_name(name),
            system=system,
            sheet=sheet
            if sheet is not None
            else ruleset.blank_sheet(resolve_settings(ruleset.SETTINGS, chosen)),
            rule_settings=chosen,
        )
        _record(character, owner, summary, {})
    return character


def _apply_setting(ruleset: Any, chosen: dict, trait: str, raw: str) -> None:
    key = trait.removeprefix(SETTING_PREFIX)
    declared = {s.key: s for s in ruleset.SETTINGS}
    if key not in declared:
        raise InvalidEdit(trait, f"“{key}” is not a rule reading of this system.")
    try:
        value = declared[key].coerce(raw)
    except ValueError as error:
        raise InvalidEdit(trait, str(error)) from None
    # Re-submitting the reading already in force (a whole-form save) changes nothing.
    if key in chosen or value != declared[key].default:
        chosen[key] = value


def _summarise(ruleset: Any, edits: Mapping[str, str]) -> str:
    """Say what a write did in a line: "Strength → 3", "merit.add → short"."""
    parts = []
    for trait, raw in edits.items():
        if trait == NAME_TRAIT:
            name = "Name"
        elif trait.startswith(SETTING_PREFIX):
            name = "Rule reading " + trait.removeprefix(SETTING_PREFIX)
        else:
            name = ruleset.trait_label(trait)
        value = " ".join(str(raw).split())
        parts.append(f"{name} → {value[:40]}" if value else name)
    return "; ".join(parts)


def character_apply_edits(
    *,
    user: AbstractBaseUser,
    character_id: int,
    edits: Mapping[str, str],
    expected_version: int,
    on_locked: Callable[[Character], None] | None = None,
) -> Character:
    """Apply several trait edits atomically, or none of them.

    Raises StaleVersion when the sheet moved on since the editor loaded it, EditRefused
    with a message per refused trait, Http404 for a character the user may not edit.
    `on_locked` sees the character as locked, before any change: the edit response
    compares against it to swap only what the write changed.
    """
    with transaction.atomic():
        character = get_object_or_404(
            editable_characters(user).select_for_update(), pk=character_id
        )
        if character.version != expected_version:
            raise StaleVersion(expected_version, character.version)
        if on_locked is not None:
            on_locked(character)
        ruleset = get_ruleset(character.system)
        before = _state(character)
        name = character.name
        chosen = dict(character.rule_settings)
        sheet = character.sheet
        errors: dict[str, str] = {}
        # Readings first, so trait edits in the same request are judged under them.
        ordered = sorted(edits.items(), key=lambda item: not item[0].startswith(SETTING_PREFIX))
        for trait, raw in ordered:
            try:
                if trait == NAME_TRAIT:
                    name = clean_name(raw)
                elif trait.startswith(SETTING_PREFIX):
                    _apply_setting(ruleset, chosen, trait, raw)
                else:
                    resolved = resolve_settings(ruleset.SETTINGS, chosen)
                    sheet = ruleset.apply_edit(sheet, trait, raw, resolved)
            except InvalidEdit as error:
                errors[error.trait] = error.message
        if errors:
            raise EditRefused(errors)
        if (name, chosen, sheet) == (character.name, character.rule_settings, character.sheet):
            return character
        character.name, character.rule_settings, character.sheet = name, chosen, sheet
        character.version += 1
        character.save(update_fields=["name", "rule_settings", "sheet", "version", "updated_at"])
        _record(character, user, _summarise(ruleset, edits), before)
    return character


def character_duplicate(*, user: AbstractBaseUser, character_id: int) -> Character:
    source = get_object_or_404(editable_characters(user), pk=character_id)
    copy_name = clean_name(f"{source.name} (copy)"[:NAME_MAX_LENGTH])
    return character_create(
        owner=user,
        name=copy_name,
        system=source.system,
        sheet=source.sheet,
        rule_settings=source.rule_settings,
        summary=f"Duplicated from “{source.name}”",
    )


def character_delete(*, user: AbstractBaseUser, character_id: int, expected_version: int) -> str:
    """Delete a character the user owns; refuse if it changed since the confirmation page."""
    with transaction.atomic():
        character = get_object_or_404(
            editable_characters(user).select_for_update(), pk=character_id
        )
        if character.version != expected_version:
            raise StaleVersion(expected_version, character.version)
        name = character.name
        character.delete()
    return name
