"""Restoring an old version: a new write that puts the sheet back as it stood.

It goes the way every write goes (one transaction, the row locked, the version checked,
one revision), and it is refused, saying why, when it would take back something that is
not a plain edit: a purchase still in the ledger, the end of creation, or a value someone
else sets.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from rulesets.core import InvalidEdit, InvalidSheet, Stage, resolve_settings
from rulesets.core.diff import Change
from rulesets.core.stage import stage_of
from rulesets.registry import get_ruleset
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from sheets.characters.services import NAME_TRAIT, StaleVersion
from sheets.history.revisions import (
    HistoryBroken,
    as_changes,
    change_lines,
    record_revision,
    revision_state,
    state_at,
)
from sheets.permissions import CharacterAccess, Need, character_for, gm_rows, trait_refusal


class RestoreRefused(Exception):
    """Restoring this version was refused; `purchases` are the ones to undo first."""

    def __init__(self, message: str, purchases: list[LedgerEntry] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.purchases = purchases or []


@dataclass
class RestorePlan:
    """What restoring `version` would write, and what it would change, in words."""

    version: int
    state: dict
    changes: list[Change] = field(default_factory=list)


def purchases_since(character: Character, version: int) -> list[LedgerEntry]:
    """Purchases made after `version` and not refunded: a restore would take them back."""
    return list(
        character.ledger.filter(
            kind=LedgerEntry.Kind.PURCHASE, version__gt=version, undone_by__isnull=True
        ).order_by("version", "pk")
    )


def restore_plan(character: Character, access: CharacterAccess, version: int) -> RestorePlan:
    """Check that `version` may be restored and rebuild it; RestoreRefused says why not."""
    if version == character.version:
        raise RestoreRefused("This is the current version: there is nothing to restore.")
    if not 1 <= version < character.version:
        raise RestoreRefused(f"{character.name} has no version {version}.")
    purchases = purchases_since(character, version)
    if purchases:
        raise RestoreRefused(
            f"Restoring version {version} would take back {len(purchases)} purchase(s) made "
            "since without a refund: undo them first.",
            purchases,
        )
    try:
        state = state_at(character, version)
    except HistoryBroken as broken:
        raise RestoreRefused(f"Version {version} cannot be rebuilt: {broken}") from None
    ruleset = get_ruleset(character.system)
    try:
        state["sheet"] = ruleset.validate_sheet(state["sheet"])
    except (InvalidSheet, InvalidEdit) as error:
        raise RestoreRefused(
            f"Version {version} does not fit today's sheet ({error}); change the values by hand."
        ) from None
    then, now = stage_of(state["sheet"]), stage_of(character.sheet)
    if then != now:
        step = "going back to creation" if then == Stage.CREATION else "finishing creation"
        raise RestoreRefused(
            f"Version {version} is from another stage of the sheet; {step} is its own step."
        )
    if character.campaign_id is not None:
        # At a table the campaign's readings are in force; the sheet's own stay as they are.
        state["settings"] = character.rule_settings
    _refuse_others_traits(character, access, state)
    lines = change_lines(
        character.system, revision_state(character), state, character.readings_in_force
    )
    return RestorePlan(version, state, as_changes(lines))


def _refuse_others_traits(character: Character, access: CharacterAccess, state: dict) -> None:
    """Restore sets every value back at once: each must be one this user may set."""
    ruleset = get_ruleset(character.system)
    settings = resolve_settings(ruleset.SETTINGS, character.readings_in_force)
    rows = ruleset.trait_rows(character.sheet, settings)
    then = {row.key: row for row in ruleset.trait_rows(state["sheet"], settings)}
    now = {row.key: row for row in rows}
    labels = {
        key: (now.get(key) or then[key]).label
        for key in now.keys() | then.keys()
        if key not in then or key not in now or then[key].shown != now[key].shown
    }
    if state["name"] != character.name:
        labels[NAME_TRAIT] = "Name"
    reserved = gm_rows(rows)
    refused = sorted(
        {label for key, label in labels.items() if trait_refusal(access, character, key, reserved)}
    )
    if refused:
        shown = ", ".join(refused[:5]) + (f" and {len(refused) - 5} more" if refused[5:] else "")
        raise RestoreRefused(f"Restoring would change values you do not set here: {shown}.")


def character_restore(
    *, user: AbstractBaseUser, character_id: int, version: int, expected_version: int
) -> Character:
    """Write version `version` back as a new version, after the user confirmed it."""
    with transaction.atomic():
        character, access = character_for(user, character_id, Need.EDIT, for_update=True)
        if character.version != expected_version:
            raise StaleVersion(expected_version, character.version)
        plan = restore_plan(character, access, version)
        before = revision_state(character)
        character.name = plan.state["name"]
        character.rule_settings = plan.state["settings"]
        character.sheet = plan.state["sheet"]
        character.version += 1
        character.save(update_fields=["name", "rule_settings", "sheet", "version", "updated_at"])
        record_revision(character, user, f"Restored version {version}", before)
    return character
