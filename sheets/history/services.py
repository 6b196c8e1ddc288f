"""Restoring an old version: a new write that puts the sheet back as it stood.

It goes the way every write goes (one transaction, the row locked, the version checked,
one revision), and it is refused, saying why, when it would take back something that is
not a plain edit: a purchase still in the ledger, the end of creation, or a value someone
else sets.

In play it goes through the ledger like every other write of a priced value: a restore
that would set a value the ledger does not pay for (a raise whose purchase was undone, a
value the GM corrected) is refused with the entries in the way, or, when the GM (the
owner, off-table) decides so, written together with the ledger lines that price it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from rulesets.core import InvalidEdit, InvalidSheet, Stage, resolve_settings
from rulesets.core.diff import Change
from rulesets.core.stage import stage_of
from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.figures import may_award
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character, ReviewState
from sheets.characters.services import NAME_TRAIT, StaleVersion, last_approval
from sheets.history.revisions import (
    HistoryBroken,
    as_changes,
    change_lines,
    record_revision,
    revision_state,
    state_at,
)
from sheets.permissions import CharacterAccess, Need, character_for, gm_rows, trait_refusal

# How a GM prices a restore the ledger does not pay for: charged to the balance, or free
# (the correction gives what the values are worth, the balance stays as it was).
PRICINGS = ("balance", "free")


class RestoreRefused(Exception):
    """Restoring this version was refused: `purchases` are the ones to undo first;
    `check` is what the ledger would not pay for, and `may_price` whether this user may
    restore it anyway with the entries that price it."""

    def __init__(
        self,
        message: str,
        purchases: list[LedgerEntry] | None = None,
        *,
        check: ledger.LedgerCheck | None = None,
        may_price: bool = False,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.purchases = purchases or []
        self.check = check
        self.may_price = may_price


class NothingToRestore(RestoreRefused):
    """The sheet already stands as the version would put it: a restore writes nothing."""


@dataclass
class RestorePlan:
    """What restoring `version` would write, and what it would change, in words; with
    `pricing`, the ledger lines the GM chose to write with it (`check`)."""

    version: int
    state: dict
    changes: list[Change] = field(default_factory=list)
    check: ledger.LedgerCheck = field(default_factory=ledger.LedgerCheck)
    pricing: str = ""
    # The sheet already stands as the version would put it (name, readings and sheet).
    unchanged: bool = False


def purchases_since(character: Character, version: int) -> list[LedgerEntry]:
    """Purchases made after `version` and not refunded: a restore would take them back."""
    return list(
        character.ledger.filter(
            kind=LedgerEntry.Kind.PURCHASE, version__gt=version, undone_by__isnull=True
        ).order_by("version", "pk")
    )


def restore_plan(
    character: Character, access: CharacterAccess, version: int, pricing: str = ""
) -> RestorePlan:
    """Check that `version` may be restored and rebuild it; RestoreRefused says why not.

    `pricing` ("balance" or "free") is the GM's decision to restore values the ledger does
    not pay for, with the lines that price them."""
    if pricing and pricing not in PRICINGS:
        raise RestoreRefused("Choose how the ledger pays for the restored values.")
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
    state["sheet"] = ledger.keep_ledger_parts(character, state["sheet"])
    check = ledger.ledger_check(character, state["sheet"], version)
    # A priced value is the ledger's business, judged below: a GM may correct one.
    _refuse_others_traits(character, access, state, {c.trait for c in check.changes})
    if check and not pricing:
        raise RestoreRefused(
            _not_paid_for(character, version, check),
            check=check,
            may_price=may_award(access, character),
        )
    if check and not may_award(access, character):
        raise RestoreRefused(
            "Only the GM restores values the ledger does not pay for: undo or buy them on "
            "the Advancement page, or ask the GM.",
            check=check,
        )
    now = revision_state(character)
    if state == now:
        return RestorePlan(version, state, unchanged=True)
    lines = change_lines(character.system, now, state, character.readings_in_force)
    return RestorePlan(version, state, as_changes(lines), check, pricing if check else "")


def _not_paid_for(character: Character, version: int, check: ledger.LedgerCheck) -> str:
    shown = [f"{c.label} {c.from_value} → {c.to_value}" for c in check.changes[:5]]
    more = f" and {len(check.changes) - 5} more" if check.changes[5:] else ""
    corrected = any(
        e.kind == LedgerEntry.Kind.CORRECTION and e.author_id != character.owner_id
        for e in check.entries
    )
    why = " and would undo the GM's correction" if corrected else ""
    return (
        f"Restoring version {version} would set {', '.join(shown)}{more}, which the ledger "
        f"does not pay for{why}. Buy raises on the Advancement page; the GM corrects the "
        "rest."
    )


def _refuse_others_traits(
    character: Character, access: CharacterAccess, state: dict, priced: set[str]
) -> None:
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
    for key in priced:
        labels.pop(key, None)
    reserved = gm_rows(rows)
    refused = sorted(
        {label for key, label in labels.items() if trait_refusal(access, character, key, reserved)}
    )
    if refused:
        shown = ", ".join(refused[:5]) + (f" and {len(refused) - 5} more" if refused[5:] else "")
        raise RestoreRefused(f"Restoring would change values you do not set here: {shown}.")


def character_restore(
    *,
    user: AbstractBaseUser,
    character_id: int,
    version: int,
    expected_version: int,
    pricing: str = "",
    reason: str = "",
) -> Character:
    """Write version `version` back as a new version, after the user confirmed it; with
    `pricing`, the GM's ledger lines that price what it moves, in the same write."""
    with transaction.atomic():
        character, access = character_for(user, character_id, Need.EDIT, for_update=True)
        stale = character.version != expected_version
        try:
            plan = restore_plan(character, access, version, pricing)
        except RestoreRefused:
            if stale:
                raise StaleVersion(expected_version, character.version) from None
            raise
        if plan.unchanged:
            # A second confirmation (after Back, from a page now stale) or an old version
            # the sheet came back to: the sheet is already as asked, and a revision that
            # changes nothing would only be noise in the history.
            raise NothingToRestore(
                f"The sheet already stands as version {version} left it: nothing was written."
            )
        if stale:
            raise StaleVersion(expected_version, character.version)
        why = ""
        if plan.pricing:
            try:
                why = ledger.restore_reason(reason)
            except ledger.LedgerRefused as refused:
                raise RestoreRefused(refused.message, check=plan.check, may_price=True) from None
        before = revision_state(character)
        character.name = plan.state["name"]
        character.rule_settings = plan.state["settings"]
        character.sheet = plan.state["sheet"]
        character.version += 1
        character.save(update_fields=["name", "rule_settings", "sheet", "version", "updated_at"])
        summary = f"Restored version {version}"
        if plan.pricing:
            summary += f", priced on the ledger: {why}"
        record_revision(character, user, summary, before)
        _keep_approval(character)
        try:
            ledger.book_restore(
                character, user, plan.check, charge=plan.pricing == "balance", reason=why
            )
        except ledger.LedgerRefused as refused:
            # Raised inside the transaction: the sheet written above is rolled back too.
            raise RestoreRefused(refused.message, check=plan.check, may_price=True) from None
    return character


def _keep_approval(character: Character) -> None:
    """A restore that puts back exactly what the GM approved leaves the sheet approved:
    the approval now speaks of this version, whose content is the one approved."""
    if character.review_state != ReviewState.APPROVED:
        return
    approval = last_approval(character)
    if approval and (approval.name, approval.sheet) == (character.name, character.sheet):
        character.review_version = character.version
        character.save(update_fields=["review_version"])
