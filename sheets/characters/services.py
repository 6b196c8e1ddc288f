"""Every write to a character goes through here: one transaction, a row lock, a version
check and a revision, so no edit is lost and none silently overwrites another."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from rulesets.core import InvalidEdit, RowKind, Stage, TraitRow, resolve_settings
from rulesets.core.compendium import REF_LIMIT, InvalidEntry
from rulesets.core.parsing import clean_text
from rulesets.core.stage import STAGE_TRAIT
from rulesets.registry import get_ruleset, system_info
from sheets.accounts.services import notify_after_commit
from sheets.advancement import services as ledger
from sheets.advancement.figures import (
    advancement_for,
    engine_sheet,
    figures,
    ledger_trait,
    may_award,
    paid_trait,
)
from sheets.advancement.models import LedgerEntry
from sheets.campaigns.models import Campaign, Membership, Role
from sheets.characters.models import Character, GMNote, Review, ReviewState, ShareLink
from sheets.characters.state import sheet_state
from sheets.compendium.models import Book
from sheets.history.revisions import (
    changed_paths,
    changes_between,
    enforce_caps,
    record_revision,
    revision_state,
)
from sheets.permissions import (
    CharacterAccess,
    Need,
    book_entries,
    character_for,
    gm_rows,
    is_npc,
    trait_refusal,
)

NAME_TRAIT = "character.name"
SETTING_PREFIX = "setting."
NAME_MAX_LENGTH = 100
# What a sheet edit writes back to the character's row.
EDITED_FIELDS = ("name", "rule_settings", "sheet", "version", "updated_at")
# The sheet's compendium picker: its raw value is the entry's ref ("seed:<kind>:<slug>" or
# "entry:<id>"). Its name holds ".add", so a whole-form save skips it like any "add" row.
PICK_TRAIT = "compendium.add"
# The kinds a player's sheet does not pick: an NPC template fills an NPC (sheets/npcs).
UNPICKED_KINDS = frozenset({"npc_template"})


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


class ActionRefused(Exception):
    """A review, note or share action was refused; the message says why."""


def clean_name(raw: str) -> str:
    if len(" ".join(str(raw).split())) > NAME_MAX_LENGTH:
        raise InvalidEdit(NAME_TRAIT, f"A name is at most {NAME_MAX_LENGTH} characters.")
    name = clean_text(NAME_TRAIT, raw, label="The name", limit=NAME_MAX_LENGTH)
    if not name:
        raise InvalidEdit(NAME_TRAIT, "A character needs a name.")
    return name


def character_create(
    *,
    owner: AbstractBaseUser,
    name: str,
    system: str,
    sheet: dict | None = None,
    rule_settings: dict | None = None,
    campaign: Campaign | None = None,
    summary: str = "Created",
) -> Character:
    """Create a character of a ready system with a blank (or given, already valid) sheet.

    Inside a campaign (whose membership the caller has checked) the blank sheet follows
    the table's house rules.
    """
    info = system_info(system)
    if not info.ready:
        raise InvalidEdit("system", f"{info.name} is not available yet.")
    if campaign is not None and campaign.system != system:
        raise InvalidEdit("system", f"This campaign plays {campaign.get_system_display()}.")
    ruleset = get_ruleset(system)
    chosen = dict(rule_settings or {})
    in_force = campaign.rule_settings if campaign is not None else chosen
    with transaction.atomic():
        character = Character.objects.create(
            owner=owner,
            name=clean_name(name),
            system=system,
            sheet=sheet
            if sheet is not None
            else ruleset.blank_sheet(resolve_settings(ruleset.SETTINGS, in_force)),
            rule_settings=chosen,
            campaign=campaign,
        )
        if sheet is not None:
            ledger.adopt_sheet_figures(character, owner)
        record_revision(character, owner, summary, {})
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
    ruled: frozenset[str] = frozenset(),
) -> Character:
    """Apply several trait edits atomically, or none of them.

    The editor names the version they saw. When the sheet moved on since, the edit still
    applies if none of the stored values it changes was written in between (a GM and a
    player at one sheet touch different traits); otherwise StaleVersion. EditRefused
    carries a message per refused trait, including a trait this user may not set;
    Http404 or PermissionDenied come from the permission selector. `on_locked` sees the
    character as locked, before any change: the edit response compares against it.
    `ruled` are traits a rule sets as the outcome of a roll whoever may roll the sheet (a
    SWd10 Path roll's lost grade, 000:L124-126): no setter check, every other check made.
    """
    with transaction.atomic():
        character, access = character_for(user, character_id, Need.EDIT, for_update=True)
        moved_since: set[str] = set()
        if character.version != expected_version:
            known = changed_paths(character, expected_version)
            if known is None:
                raise StaleVersion(expected_version, character.version)
            moved_since = known
        if on_locked is not None:
            on_locked(character)
        if len(edits) == 1:
            ((trait, raw),) = edits.items()
            if paid_trait(character.system, character.sheet.get(STAGE_TRAIT), trait):
                # The engine's paid raise in play (a WEG "Advance to" button) is a purchase.
                try:
                    ledger.pay_edit(
                        character=character, access=access, user=user, trait=trait, raw=raw
                    )
                except ledger.LedgerRefused as refused:
                    raise EditRefused({trait: refused.message}) from None
                return character
        ruleset = get_ruleset(character.system)
        before = revision_state(character)
        name = character.name
        chosen = dict(character.rule_settings)
        sheet = character.sheet
        errors: dict[str, str] = {}
        reserved: set[str] = set()
        if character.campaign_id is not None:
            # The rows the page and the edit response ask for (who sets a row does not
            # depend on the ledger's figures), through the same kept answers.
            reserved = gm_rows(
                sheet_state(ruleset, engine_sheet(character), character.readings_in_force).rows
            )
        # Readings first, so trait edits in the same request are judged under them.
        ordered = sorted(edits.items(), key=lambda item: not item[0].startswith(SETTING_PREFIX))
        stage_before = character.sheet.get(STAGE_TRAIT)
        picks: list[str] = []
        spend_only = frozenset(getattr(ruleset, "SPEND_ONLY", ())) - ruled
        for trait, raw in ordered:
            refusal = "" if trait in ruled else trait_refusal(access, character, trait, reserved)
            if trait in spend_only:
                refusal = "Spend it on the roll page, where the table's count of it is kept."
            if trait == STAGE_TRAIT and may_award(access, character):
                # The GM's decision at a table: send a sheet back to creation (or on).
                refusal = ""
            ledgers = _ledger_refusal(access, character, trait, raw, stage_before)
            # A whole-form save re-sends the ledger's fields unchanged: only a change is
            # refused.
            if ledgers and not _unchanged(ruleset, character, sheet, trait, raw):
                refusal = refusal or ledgers
            if refusal:
                errors[trait] = refusal
                continue
            try:
                if trait == NAME_TRAIT:
                    name = clean_name(raw)
                elif trait == PICK_TRAIT:
                    readings = (
                        chosen if character.campaign_id is None else character.readings_in_force
                    )
                    entry = picked_entry(user, character, raw)
                    sheet = _picked_onto(ruleset, sheet, entry, readings)
                    picks.append(f"picked {entry.name} from {entry.book}")
                elif trait.startswith(SETTING_PREFIX):
                    _apply_setting(ruleset, chosen, trait, raw)
                else:
                    resolved = resolve_settings(
                        ruleset.SETTINGS,
                        chosen if character.campaign_id is None else character.readings_in_force,
                    )
                    edited = ruleset.apply_edit(sheet, trait, raw, resolved)
                    enforce_caps(character.system, sheet, edited, trait)
                    sheet = edited
            except InvalidEdit as error:
                errors[error.trait] = error.message
        if not errors:
            errors = _play_refusals(character, sheet, edits, chosen)
        if errors:
            raise EditRefused(errors)
        if (name, chosen, sheet) == (character.name, character.rule_settings, character.sheet):
            return character
        finished = stage_before != Stage.PLAY and sheet.get(STAGE_TRAIT) == Stage.PLAY
        if moved_since:
            mine = set(
                changes_between(before, {"name": name, "settings": chosen, "sheet": sheet})[1]
            )
            if mine & moved_since:
                raise StaleVersion(expected_version, character.version)
        # The ledger's sums before what finishing creation leaves writes to it: the
        # revision reads both sheets with the same figures (kept on the instance by the
        # edit view, so no query).
        known = figures(character)
        character.name, character.rule_settings, character.sheet = name, chosen, sheet
        character.version += 1
        if finished:
            character.sheet = ledger.creation_left_over(character, sheet, user)
        character.save(update_fields=EDITED_FIELDS)
        advancement = advancement_for(character.system)
        judged = (
            advancement.with_ledger(before["sheet"], known),
            advancement.with_ledger(character.sheet, known),
        )
        if picks:
            # Said as what was picked and from where, not as the ref the form sent.
            record_revision(character, user, "; ".join(picks), before)
        else:
            record_revision(character, user, _summarise(ruleset, edits), before, judged)
    return character


@dataclass(frozen=True)
class PickedEntry:
    """A compendium entry as a sheet picks it: the version it takes, and where it is from."""

    kind: str
    ref: str
    version: int
    name: str
    data: dict
    book: str  # "the rulebook" or the book's title


def picked_entry(user: AbstractBaseUser, character: Character, ref: str) -> PickedEntry:
    """The entry `ref` names, as `user` may see it in the book `character` picks from (its
    table's, or its owner's own): a built-in, or a stored entry they may read. An entry of
    another book, or hidden from them, is refused like an unknown one."""
    ruleset = get_ruleset(character.system)
    unknown = InvalidEdit(PICK_TRAIT, "Pick an entry of this sheet's compendium.")
    text = str(ref).strip()
    if len(text) > REF_LIMIT:
        raise unknown
    where, _, rest = text.partition(":")
    if where == "seed":
        kind, _, slug = rest.partition(":")
        for found in ruleset.builtin_entries():
            if (found.kind, found.slug) == (kind, slug) and kind not in UNPICKED_KINDS:
                return PickedEntry(
                    kind,
                    f"seed:{kind}:{slug}",
                    1,
                    found.data["name"],
                    dict(found.data),
                    "the rulebook",
                )
        raise unknown
    if where != "entry" or not rest.isdigit() or len(rest) > 18:
        raise unknown
    book = Book.of_sheet(character)
    stored = book_entries(user, book).filter(pk=int(rest)).first()
    if stored is None or stored.kind in UNPICKED_KINDS:
        raise unknown
    return PickedEntry(
        stored.kind, stored.ref, stored.version, stored.name, dict(stored.data), book.title
    )


def _picked_onto(ruleset: Any, sheet: dict, entry: PickedEntry, readings: Mapping) -> dict:
    settings = resolve_settings(ruleset.SETTINGS, readings)
    try:
        return ruleset.pick_entry(sheet, entry.kind, entry.ref, entry.version, entry.data, settings)
    except InvalidEntry as refused:
        raise InvalidEdit(PICK_TRAIT, " ".join(refused.errors.values())) from None


def character_follow_entry(
    *,
    user: AbstractBaseUser,
    character_id: int,
    kind: str,
    ref: str,
    version: int,
    name: str,
    data: Mapping[str, Any],
) -> Character:
    """Bring what the sheet picked from entry `ref` to its new `version` (the GM changed the
    entry and confirmed what it does to the sheets): one revision, "compendium: <entry> vN".
    A sheet that cannot take the version is refused (EditRefused) and left as it was."""
    with transaction.atomic():
        # The book's GM (or a personal book's owner) edits every sheet that picks from it.
        character, _ = character_for(user, character_id, Need.EDIT, for_update=True)
        ruleset = get_ruleset(character.system)
        settings = resolve_settings(ruleset.SETTINGS, character.readings_in_force)
        try:
            sheet = ruleset.refresh_entry(character.sheet, kind, ref, version, data, settings)
        except InvalidEntry as refused:
            raise EditRefused({PICK_TRAIT: " ".join(refused.errors.values())}) from None
        if sheet == character.sheet:
            return character
        before = revision_state(character)
        character.sheet = sheet
        character.version += 1
        character.save(update_fields=["sheet", "version", "updated_at"])
        record_revision(character, user, f"compendium: {name} v{version}", before)
    return character


def _unchanged(ruleset: Any, character: Character, sheet: dict, trait: str, raw: str) -> bool:
    settings = resolve_settings(ruleset.SETTINGS, character.readings_in_force)
    try:
        return ruleset.apply_edit(sheet, trait, raw, settings) == sheet
    except InvalidEdit:
        return False


def _ledger_refusal(
    access: CharacterAccess, character: Character, trait: str, raw: str, stage: str | None
) -> str:
    """Why a plain edit may not do this: the ledger's figures, paid raises and the stage
    have their own steps."""
    if trait == STAGE_TRAIT:
        going_back = str(raw).strip() == Stage.CREATION and stage == Stage.PLAY
        if going_back and not may_award(access, character):
            return "At a table, only the GM sends a sheet back to creation."
        return ""
    if ledger_trait(character.system, trait, stage or Stage.CREATION):
        if stage == Stage.PLAY:
            return "In play, experience is awarded and spent on the Advancement page."
        return "Experience is kept on the Advancement page, not on the sheet."
    return ""


def _raised(before: TraitRow, after: TraitRow) -> bool:
    if before.kind is RowKind.FLAG:
        return bool(after.value) and not bool(before.value)
    try:
        return int(after.value) > int(before.value)
    except (TypeError, ValueError):
        return False


def _play_refusals(
    character: Character, sheet: dict, edits: Mapping[str, str], chosen: dict
) -> dict[str, str]:
    """Refuse, in play, any plain edit that raises a value or spends: every raise is a
    purchase. Finishing creation is refused while the sheet breaks a rule."""
    ruleset = get_ruleset(character.system)
    readings = chosen if character.campaign_id is None else character.readings_in_force
    stage_before, stage_after = character.sheet.get(STAGE_TRAIT), sheet.get(STAGE_TRAIT)
    known = figures(character)
    advancement = advancement_for(character.system)
    if stage_before != Stage.PLAY and stage_after == Stage.PLAY:
        creating = dict(sheet, **{STAGE_TRAIT: Stage.CREATION.value})
        problems = ruleset.check(
            advancement.with_ledger(creating, known), resolve_settings(ruleset.SETTINGS, readings)
        ).errors
        if problems:
            reasons = " ".join(problem.message for problem in problems[:3])
            return {STAGE_TRAIT: f"Creation cannot finish while the sheet breaks a rule: {reasons}"}
        return {}
    if stage_before != Stage.PLAY or stage_after != Stage.PLAY:
        return {}
    # The same answers the edit response draws from, computed once for both.
    old = sheet_state(ruleset, advancement.with_ledger(character.sheet, known), readings)
    new = sheet_state(ruleset, advancement.with_ledger(sheet, known), readings)
    after = {row.key: row for row in new.rows}
    errors: dict[str, str] = {}
    for row in old.rows:
        now = after.get(row.key)
        if now is None:
            continue
        if row.next_cost is not None and _raised(row, now):
            errors[row.key] = (
                f"In play, {row.label} rises only by buying it on the Advancement page "
                f"({row.next_cost.amount} {row.next_cost.unit} a step)."
            )
        # Priced before or after: a value at its top, or a flag bought once (WEG Force
        # sensitivity), has no next price until it goes down.
        elif (row.next_cost is not None or now.next_cost is not None) and _raised(now, row):
            # Lowered on the sheet, a bought value gives nothing back and leaves its
            # purchase on the ledger, which then cannot be undone; where the engine prices
            # the sheet by its values, balance and sheet would disagree. (A WEG Force pip
            # lowered and bought again would also owe a second power.)
            errors[row.key] = (
                f"In play, {row.label} goes down only by undoing its purchase on the "
                "Advancement page, or by the GM's correction there."
            )
    if errors:
        return errors
    # What else a plain edit in play may not do (an R&E Force skill stepped down, even
    # where it has no price now): the GM corrects on the ledger (correct_trait), which
    # does not come through here.
    refusals = getattr(advancement, "plain_play_refusals", None)
    if refusals is not None:
        errors = refusals(character.sheet, sheet)
        if errors:
            return errors
    spent_before, spent_after = old.status.unspent, new.status.unspent
    if spent_before is not None and spent_after is not None and spent_after != spent_before:
        first = next(iter(edits))
        if spent_after < spent_before:
            return {
                first: f"This costs {spent_before - spent_after} "
                f"{advancement.unit(sheet)}: in play, what costs experience is bought on the "
                "Advancement page."
            }
        return {
            first: f"This would give back {spent_after - spent_before} "
            f"{advancement.unit(sheet)}: in play, experience comes back only by undoing a "
            "purchase on the Advancement page, or by the GM's correction there."
        }
    return {}


def character_duplicate(*, user: AbstractBaseUser, character_id: int) -> Character:
    """Copy a character of one's own; the copy sits at no table and awaits no review."""
    source, _ = character_for(user, character_id, Need.OWNER)
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
        character, _ = character_for(user, character_id, Need.OWNER, for_update=True)
        if character.version != expected_version:
            raise StaleVersion(expected_version, character.version)
        name = character.name
        # An undo points at the entry it undoes, and that link protects the undone entry
        # (LedgerEntry.undoes is PROTECT, so no single entry vanishes from under its
        # undo): cut the links within this ledger first, then the whole ledger goes with
        # the character, whatever chain of undos it holds.
        LedgerEntry.objects.filter(character=character, undoes__isnull=False).update(undoes=None)
        character.delete()
    return name


def _locked(user: AbstractBaseUser, character_id: int, need: Need, version: int) -> Character:
    character, _ = character_for(user, character_id, need, for_update=True)
    if character.version != version:
        raise ActionRefused(
            f"This sheet changed since you opened it (you saw version {version}, it is now "
            f"version {character.version}). Look at it again first."
        )
    return character


def _set_review(character: Character, author: AbstractBaseUser, kind: str, comment: str) -> Review:
    """Move the review to `kind` at the character's current version, and log the step."""
    # A review step and the state it leaves share their names (submitted, approved...).
    character.review_state = ReviewState(kind)
    character.review_version = character.version
    character.save(update_fields=["review_state", "review_version"])
    return Review.objects.create(
        character=character,
        campaign_id=character.campaign_id,
        author=author,
        kind=kind,
        version=character.version,
        comment=comment,
        name=character.name,
        sheet=character.sheet if kind == Review.Kind.APPROVED else {},
    )


def _notify_review(character: Character, review: Review) -> None:
    """Mail the step to whoever asked for such notices: a submission to the table's GMs, a
    decision to the player; nobody about their own act. The mail leaves once the step is
    committed (sheets/accounts/services.py), outside this row lock."""
    author_id = review.author_id
    if review.kind == Review.Kind.SUBMITTED:
        gms = Membership.objects.filter(campaign_id=character.campaign_id, role=Role.GM)
        recipients = [m.user for m in gms.select_related("user") if m.user_id != author_id]
        choice, template = "mail_on_submit", "accounts/notice_submitted.txt"
    else:
        recipients = [character.owner] if character.owner_id != author_id else []
        choice, template = "mail_on_decision", "accounts/notice_decided.txt"
    context = {"character": character, "campaign": character.campaign, "review": review}
    notify_after_commit(recipients, choice, template, context)


REVIEW_COMMENT_MAX = 4000


def _clean_comment(raw: str, *, required: bool) -> str:
    if len(str(raw).strip()) > REVIEW_COMMENT_MAX:
        raise ActionRefused(f"A comment is at most {REVIEW_COMMENT_MAX} characters.")
    try:
        comment = clean_text(
            "comment", raw, label="The comment", limit=REVIEW_COMMENT_MAX, lines=True
        )
    except InvalidEdit as refused:
        raise ActionRefused(refused.message) from None
    if required and not comment:
        raise ActionRefused("Say what should change: the comment is what the player reads.")
    return comment


def character_submit(*, user: AbstractBaseUser, character_id: int, version: int) -> Character:
    """The player hands the sheet, as it stands at `version`, to the table's GM."""
    with transaction.atomic():
        character = _locked(user, character_id, Need.OWNER, version)
        if character.campaign_id is None:
            raise ActionRefused("Bring this character to a campaign first: its GM reviews it.")
        if is_npc(character):
            raise ActionRefused("An NPC is the GMs' own: it is never sent for review.")
        if character.review_state == ReviewState.SUBMITTED and (
            character.review_version == character.version
        ):
            raise ActionRefused("This version is already with the GM.")
        review = _set_review(character, user, Review.Kind.SUBMITTED, "")
        _notify_review(character, review)
    return character


def character_approve(
    *, user: AbstractBaseUser, character_id: int, version: int, comment: str = ""
) -> Character:
    """The GM approves the sheet exactly as it stands at `version`; an older one is refused."""
    with transaction.atomic():
        character = _locked(user, character_id, Need.GM, version)
        comment = _clean_comment(comment, required=False)
        _notify_review(character, _set_review(character, user, Review.Kind.APPROVED, comment))
    return character


def character_request_changes(
    *, user: AbstractBaseUser, character_id: int, version: int, comment: str
) -> Character:
    with transaction.atomic():
        character = _locked(user, character_id, Need.GM, version)
        text = _clean_comment(comment, required=True)
        _notify_review(character, _set_review(character, user, Review.Kind.CHANGES_REQUESTED, text))
    return character


def last_approval(character: Character) -> Review | None:
    return character.reviews.filter(kind=Review.Kind.APPROVED).order_by("-pk").first()


GM_NOTE_MAX = 20000


def gm_note_save(*, user: AbstractBaseUser, character_id: int, text: str) -> GMNote:
    """Write the table's private note on a character (GMs of its table only)."""
    with transaction.atomic():
        character, _ = character_for(user, character_id, Need.GM, for_update=True)
        if len(str(text).replace("\r\n", "\n").strip()) > GM_NOTE_MAX:
            raise ActionRefused(f"GM notes are at most {GM_NOTE_MAX} characters.")
        try:
            clean = clean_text("text", text, label="The note", limit=GM_NOTE_MAX, lines=True)
        except InvalidEdit as refused:
            raise ActionRefused(refused.message) from None
        # The note is the table's: a sheet that moves on finds none at its next table.
        note, _ = GMNote.objects.update_or_create(
            campaign_id=character.campaign_id,
            character=character,
            defaults={"text": clean, "updated_by": user},
        )
    return note


def share_link_create(*, user: AbstractBaseUser, character_id: int) -> ShareLink:
    character, _ = character_for(user, character_id, Need.OWNER)
    return ShareLink.objects.create(character=character, created_by=user)


def share_link_revoke(*, user: AbstractBaseUser, character_id: int, link_id: int) -> ShareLink:
    with transaction.atomic():
        character, _ = character_for(user, character_id, Need.OWNER)
        link = character.shares.select_for_update().filter(pk=link_id).first()
        if link is None:
            raise ActionRefused("No such share link on this character.")
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])
    return link
