"""Every write to a compendium goes through here: add, edit, copy, hide, remove, import.

Each write runs in one transaction under a lock on the book's anchor row (the campaign, or
the owner of a personal book), so two GMs adding the same name, or an import beside an
edit, are serialized; each checks the version the writer saw, and leaves an
`EntryVersion`. What an entry holds is its kind's to say (`rulesets/core/compendium.py`):
a refusal is `InvalidEntry`, a message per form field, and nothing is stored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction

from rulesets.core import InvalidEdit, resolve_settings
from rulesets.core.compendium import (
    BuiltinEntry,
    InvalidEntry,
)
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.advancement.figures import engine_sheet
from sheets.campaigns.models import Campaign
from sheets.characters.models import Character
from sheets.characters.services import (
    PICK_TRAIT,
    EditRefused,
    character_apply_edits,
    character_create,
    character_follow_entry,
)
from sheets.compendium.models import Book, CompendiumEntry
from sheets.compendium.records import (
    BOOK_MAX_ENTRIES,
    ENTRY_FIELD,
    _check_name,
    _lock_book,
    _record,
    _save_new,
    _validated,
    kind_of,
    kinds_of,
)

# The first writes (and their limits) live in records.py; named here too, for every caller.
from sheets.compendium.records import ENTRY_MAX_BYTES as ENTRY_MAX_BYTES
from sheets.compendium.records import entry_create as entry_create
from sheets.compendium.records import name_refusal as name_refusal
from sheets.history.revisions import record_revision, revision_state
from sheets.permissions import Need, book_access, book_entries, character_for, compendium_entry_for
from sheets.transfer.compendium_file import FileEntry, read_book_file


class EntryConflict(Exception):
    """The entry changed since the writer saw it; nothing was written."""

    def __init__(self, entry: CompendiumEntry) -> None:
        super().__init__(
            f"“{entry.name}” was changed by someone else meanwhile (now version "
            f"{entry.version}). Review it and try again."
        )
        self.entry = entry


class EntryInUse(Exception):
    """The entry is picked by sheets, so it stays; `sheets` names them."""

    def __init__(self, entry: CompendiumEntry, sheets: list[Character]) -> None:
        names = ", ".join(sheet.name for sheet in sheets)
        super().__init__(f"“{entry.name}” is used by {names}: it stays while a sheet uses it.")
        self.sheets = sheets


class CopyRefused(Exception):
    """The thing to copy is not one that can go into this book; the message says why."""


# Reading the rulesets ---------------------------------------------------------------------


def builtins(system: str) -> list[BuiltinEntry]:
    return list(get_ruleset(system).builtin_entries())


def builtin(system: str, kind: str, slug: str) -> BuiltinEntry | None:
    return next(
        (entry for entry in builtins(system) if entry.kind == kind and entry.slug == slug), None
    )


def seed_ref(entry: BuiltinEntry) -> str:
    return entry.ref


# Which sheets use an entry -----------------------------------------------------------------


def _refs(character: Character) -> set[str]:
    """Every compendium ref the sheet records, as its ruleset finds them (`entry_refs`)."""
    return {
        ref for _kind, ref, _version in get_ruleset(character.system).entry_refs(character.sheet)
    }


def book_sheets(book: Book):
    """The sheets that pick from `book`: the campaign's, or the owner's outside a table."""
    if book.campaign is not None:
        rows = Character.objects.filter(campaign=book.campaign)
    else:
        rows = Character.objects.filter(owner=book.owner, campaign__isnull=True)
    return rows.filter(system=book.system).select_related("owner").order_by("name", "pk")


def sheets_using(entry: CompendiumEntry) -> list[Character]:
    ref = entry.ref
    return [sheet for sheet in book_sheets(Book.of(entry)) if ref in _refs(sheet)]


# What a change does to the sheets using an entry ---------------------------------------------


@dataclass(frozen=True)
class SheetImpact:
    """One sheet an entry's new version reaches: the rules it would newly break, or why it
    cannot take the version (it then keeps the one it has)."""

    character: Character
    broken: tuple[str, ...] = ()
    refused: str = ""

    @property
    def lines(self) -> list[str]:
        name = self.character.name
        if self.refused:
            return [f"{name}: keeps the version it has ({self.refused})"]
        return [f"{name}: {message}" for message in self.broken]


def change_impact(entry: CompendiumEntry, data: Mapping[str, Any]) -> list[SheetImpact]:
    """Each sheet using `entry`, judged with the entry re-picked at its next version (the
    ruleset's `refresh_entry`), against the same sheet as it stands: the violations that
    are new. Writes nothing."""
    ruleset = get_ruleset(entry.system)
    impacts = []
    for character in sheets_using(entry):
        settings = resolve_settings(ruleset.SETTINGS, character.readings_in_force)
        before = engine_sheet(character)
        try:
            after = ruleset.refresh_entry(
                before, entry.kind, entry.ref, entry.version + 1, dict(data), settings
            )
        except InvalidEntry as refused:
            impacts.append(SheetImpact(character, refused=" ".join(refused.errors.values())))
            continue
        known = {v.message for v in ruleset.check(before, settings).errors}
        new = tuple(
            v.message for v in ruleset.check(after, settings).errors if v.message not in known
        )
        impacts.append(SheetImpact(character, broken=new))
    return impacts


def impact_digest(entry: CompendiumEntry, data: Mapping[str, Any]) -> str:
    """A fingerprint of what a confirmed change writes: the entry's version, the data, and
    each sheet it reaches at its version. A change confirmed on another is previewed again."""
    sheets = [(c.pk, c.version) for c in sheets_using(entry)]
    seen = [entry.pk, entry.version, sheets, dict(data)]
    return hashlib.sha256(json.dumps(seen, sort_keys=True).encode()).hexdigest()[:32]


@dataclass(frozen=True)
class UpdatePreview:
    """What saving an edit would do: the entry's data as validated, and each sheet using it
    (empty: nothing to confirm)."""

    data: dict
    impacts: list[SheetImpact]
    digest: str

    @property
    def needs_confirming(self) -> bool:
        return bool(self.impacts)


def update_preview(
    *, user: AbstractBaseUser, entry_id: int, data: Mapping[str, Any], expected_version: int
) -> UpdatePreview:
    """Validate an edit as `entry_update` would and say which sheets it reaches and how;
    writes nothing. InvalidEntry or EntryConflict as the write would raise them."""
    entry, book, _ = compendium_entry_for(user, entry_id, change=True)
    if entry.version != expected_version:
        raise EntryConflict(entry)
    kind, clean = _validated(book, entry.kind, data)
    _check_name(book, kind, clean["name"], but=entry.pk)
    if clean == entry.data:
        return UpdatePreview(clean, [], "")
    return UpdatePreview(clean, change_impact(entry, clean), impact_digest(entry, clean))


class ImpactChanged(Exception):
    """The entry or the sheets using it moved since the preview: preview again."""


def entry_update_following(
    *,
    user: AbstractBaseUser,
    entry_id: int,
    data: Mapping[str, Any],
    expected_version: int,
    expected_digest: str,
) -> tuple[CompendiumEntry, list[Character]]:
    """Write the entry's new version and bring every sheet using it along, each through the
    characters' write service (one revision each), all or nothing. A sheet that cannot take
    the version keeps its own (the preview said so). ImpactChanged when the entry or its
    sheets moved since the GM saw the preview."""
    with transaction.atomic():
        entry, _book = _locked_entry(user, entry_id, expected_version)
        _kind, clean = _validated(Book.of(entry), entry.kind, data)
        if impact_digest(entry, clean) != expected_digest:
            raise ImpactChanged("The entry or a sheet using it changed since the preview.")
        entry = entry_update(
            user=user, entry_id=entry_id, data=clean, expected_version=expected_version
        )
        return entry, _follow(user, entry)


# Writes ------------------------------------------------------------------------------------


def _locked_entry(
    user: AbstractBaseUser, entry_id: int, expected_version: int
) -> tuple[CompendiumEntry, Book]:
    entry, book, _ = compendium_entry_for(user, entry_id, change=True)
    _lock_book(user, book)
    entry = CompendiumEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.version != expected_version:
        raise EntryConflict(entry)
    return entry, book


def entry_update(
    *,
    user: AbstractBaseUser,
    entry_id: int,
    data: Mapping[str, Any],
    expected_version: int,
) -> CompendiumEntry:
    """Write a new version of the entry; EntryConflict when it moved on since it was read."""
    with transaction.atomic():
        entry, book = _locked_entry(user, entry_id, expected_version)
        kind, clean = _validated(book, entry.kind, data)
        _check_name(book, kind, clean["name"], but=entry.pk)
        if clean == entry.data:
            return entry
        entry.name, entry.data = clean["name"], clean
        entry.version += 1
        try:
            with transaction.atomic():
                entry.save(update_fields=["name", "data", "version", "updated_at"])
        except IntegrityError:
            raise InvalidEntry(
                {"name": f"This book already has an entry named “{entry.name}”."}
            ) from None
        _record(entry, user=user, summary="Edited")
        return entry


def entry_set_hidden(
    *, user: AbstractBaseUser, entry_id: int, hidden: bool, expected_version: int
) -> CompendiumEntry:
    """Hide an entry from the table's players, or show it to them again."""
    with transaction.atomic():
        entry, _book = _locked_entry(user, entry_id, expected_version)
        if entry.hidden == hidden:
            return entry
        entry.hidden = hidden
        entry.version += 1
        entry.save(update_fields=["hidden", "version", "updated_at"])
        _record(entry, user=user, summary="Hidden from players" if hidden else "Shown to players")
        return entry


def entry_remove(*, user: AbstractBaseUser, entry_id: int, expected_version: int) -> str:
    """Remove an entry no sheet uses; EntryInUse names the sheets that do. Returns its name."""
    with transaction.atomic():
        entry, _book = _locked_entry(user, entry_id, expected_version)
        using = sheets_using(entry)
        if using:
            raise EntryInUse(entry, using)
        name = entry.name
        entry.delete()
        return name


def copy_source(user: AbstractBaseUser, book: Book, source: str) -> tuple[str, dict, str]:
    """The kind, data and origin of what `source` names ("seed:kind:slug" or "entry:id")."""
    where, _, rest = str(source).partition(":")
    if where == "seed":
        kind, _, slug = rest.partition(":")
        found = builtin(book.system, kind, slug)
        if found is None:
            raise CopyRefused(f"{SYSTEMS[book.system].name} has no such built-in entry.")
        return found.kind, dict(found.data), f"Copied from the rulebook ({found.source})"
    if where == "entry" and rest.isdigit() and len(rest) <= 18:
        entry, other, _ = compendium_entry_for(user, int(rest))
        if entry.system != book.system:
            raise CopyRefused(
                f"“{entry.name}” is a {SYSTEMS[entry.system].name} entry; this book is "
                f"{SYSTEMS[book.system].name}."
            )
        return entry.kind, dict(entry.data), f"Copied from “{other.title}”"
    raise CopyRefused("Name a built-in entry or an entry to copy.")


def entry_copy(
    *, user: AbstractBaseUser, book: Book, source: str, name: str = ""
) -> CompendiumEntry:
    """Copy a built-in entry or a readable entry into `book`, under `name` if given."""
    with transaction.atomic():
        _lock_book(user, book)
        kind, data, origin = copy_source(user, book, source)
        if name.strip():
            data["name"] = name
        entry_kind, clean = _validated(book, kind, data)
        return _save_new(user=user, book=book, kind=entry_kind, data=clean, summary=origin)


# Import ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Planned:
    """What the import does with one entry of the file."""

    position: int
    kind: str
    kind_label: str
    name: str
    action: str  # "add", "replace", "same" or "refuse"
    data: dict = field(default_factory=dict)
    hidden: bool = False
    errors: dict[str, str] = field(default_factory=dict)
    replaces: CompendiumEntry | None = None
    used_by: tuple[str, ...] = ()
    # What the replacement would newly break on those sheets ("Tessa: ..."), and each
    # sheet's (pk, version) as previewed.
    breaks: tuple[str, ...] = ()
    sheets: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class ImportPlan:
    entries: list[Planned]

    def _of(self, action: str) -> list[Planned]:
        return [planned for planned in self.entries if planned.action == action]

    @property
    def adds(self) -> list[Planned]:
        return self._of("add")

    @property
    def replaces(self) -> list[Planned]:
        return self._of("replace")

    @property
    def refusals(self) -> list[Planned]:
        return self._of("refuse")

    @property
    def unchanged(self) -> list[Planned]:
        return self._of("same")

    @property
    def digest(self) -> str:
        """A fingerprint of what confirming would write: a plan that moved is asked again."""
        seen = [
            (p.position, p.action, p.replaces.pk if p.replaces else None)
            for p in self.entries
            if p.action in ("add", "replace")
        ]
        replaced = [(p.replaces.pk, p.replaces.version) for p in self.replaces if p.replaces]
        sheets = [p.sheets for p in self.replaces]
        return hashlib.sha256(json.dumps([seen, replaced, sheets]).encode()).hexdigest()[:32]


def _plan_one(book: Book, item: FileEntry, existing: dict, taken: set) -> Planned:
    kind = kind_of(book.system, item.kind)
    label = kind.label if kind else item.kind
    if item.fault:
        return Planned(
            item.position, item.kind, label, item.name, "refuse", errors={ENTRY_FIELD: item.fault}
        )
    try:
        kind, clean = _validated(book, item.kind, item.data)
    except InvalidEntry as refused:
        return Planned(
            item.position, item.kind, label, item.name, "refuse", errors=dict(refused.errors)
        )
    key = (kind.key, clean["name"].casefold())
    if key in taken:
        return Planned(
            item.position,
            kind.key,
            kind.label,
            clean["name"],
            "refuse",
            errors={"name": "The file names this entry twice; the first is kept."},
        )
    taken.add(key)
    current = existing.get(key)
    if current is None:
        return Planned(
            item.position,
            kind.key,
            kind.label,
            clean["name"],
            "add",
            data=clean,
            hidden=item.hidden,
        )
    if current.data == clean and current.hidden == item.hidden:
        return Planned(
            item.position,
            kind.key,
            kind.label,
            clean["name"],
            "same",
            data=clean,
            hidden=item.hidden,
            replaces=current,
        )
    impacts = change_impact(current, clean)
    used_by = tuple(impact.character.name for impact in impacts)
    breaks = tuple(line for impact in impacts for line in impact.lines)
    sheets = tuple((impact.character.pk, impact.character.version) for impact in impacts)
    return Planned(
        item.position,
        kind.key,
        kind.label,
        clean["name"],
        "replace",
        data=clean,
        hidden=item.hidden,
        replaces=current,
        used_by=used_by,
        breaks=breaks,
        sheets=sheets,
    )


def import_plan(*, user: AbstractBaseUser, book: Book, raw: bytes) -> ImportPlan:
    """What importing the file into `book` would add, replace and refuse; writes nothing.

    FileRefused when the file is not a compendium file of this book's system and version.
    """
    if not book_access(user, book).change:
        raise PermissionDenied("Only a GM of this campaign changes its compendium.")
    items = read_book_file(raw, system=book.system)
    existing = {(entry.kind, entry.name.casefold()): entry for entry in book.entries()}
    taken: set[tuple[str, str]] = set()
    plan = ImportPlan([_plan_one(book, item, existing, taken) for item in items])
    room = BOOK_MAX_ENTRIES - len(existing)
    if len(plan.adds) > room:
        over = {p.position for p in plan.adds[room:]}
        full = {ENTRY_FIELD: f"The book is full: it holds at most {BOOK_MAX_ENTRIES} entries."}
        plan = ImportPlan(
            [
                Planned(p.position, p.kind, p.kind_label, p.name, "refuse", errors=full)
                if p.position in over
                else p
                for p in plan.entries
            ]
        )
    return plan


class PlanChanged(Exception):
    """The book changed since the preview: the new plan is shown before anything is written."""

    def __init__(self, plan: ImportPlan) -> None:
        super().__init__("The book changed since the preview; here is what the import does now.")
        self.plan = plan


def import_apply(
    *, user: AbstractBaseUser, book: Book, raw: bytes, expected_digest: str
) -> ImportPlan:
    """Write what the previewed plan adds and replaces, all of it or nothing.

    PlanChanged when the plan is no longer the one previewed (the book moved meanwhile).
    """
    with transaction.atomic():
        _lock_book(user, book)
        plan = import_plan(user=user, book=book, raw=raw)
        if plan.digest != expected_digest:
            raise PlanChanged(plan)
        kinds = {kind.key: kind for kind in kinds_of(book.system)}
        for planned in plan.adds:
            _save_new(
                user=user,
                book=book,
                kind=kinds[planned.kind],
                data=planned.data,
                hidden=planned.hidden,
                summary="Imported from a file",
            )
        for planned in plan.replaces:
            entry = CompendiumEntry.objects.select_for_update().get(pk=planned.replaces.pk)
            entry.name, entry.data, entry.hidden = planned.name, planned.data, planned.hidden
            entry.version += 1
            entry.save(update_fields=["name", "data", "hidden", "version", "updated_at"])
            _record(entry, user=user, summary="Replaced from a file")
            _follow(user, entry)
        return plan


def _follow(user: AbstractBaseUser, entry: CompendiumEntry) -> list[Character]:
    """Bring every sheet using `entry` to its current version, each through the characters'
    write service with its own revision; a sheet that cannot take it keeps its own."""
    followed = []
    for character in sheets_using(entry):
        try:
            followed.append(
                character_follow_entry(
                    user=user,
                    character_id=character.pk,
                    kind=entry.kind,
                    ref=entry.ref,
                    version=entry.version,
                    name=entry.name,
                    data=entry.data,
                )
            )
        except EditRefused:
            continue
    return followed


# A new sheet from a template -----------------------------------------------------------------

# The kind a new sheet may start from (WEG d6's templates; a system without it offers none).
TEMPLATE_KIND = "template"
# The new-character form's field the template's refusal is said beside.
TEMPLATE_FIELD = "template"


@dataclass(frozen=True)
class TemplateChoice:
    ref: str
    name: str
    source: str  # the book's title, or the rulebook's seed line


def template_choices(
    user: AbstractBaseUser, system: str, campaign: Campaign | None
) -> list[TemplateChoice]:
    """The templates a new `system` sheet of `user` may start from: those of the book it will
    pick from (the table's entries they may read, or their own book outside a table), then
    the rulebook's."""
    if kind_of(system, TEMPLATE_KIND) is None:
        return []
    if campaign is not None:
        book = Book(system=system, campaign=campaign)
    else:
        book = Book(system=system, owner=user)
    stored = [
        TemplateChoice(entry.ref, entry.name, book.title)
        for entry in book_entries(user, book).filter(kind=TEMPLATE_KIND)
    ]
    seeds = [
        TemplateChoice(seed_ref(found), found.data["name"], f"rulebook {found.source}")
        for found in builtins(system)
        if found.kind == TEMPLATE_KIND
    ]
    return stored + seeds


def character_create_from_template(
    *,
    user: AbstractBaseUser,
    name: str,
    system: str,
    sheet: dict | None,
    campaign: Campaign | None,
    template: str,
) -> Character:
    """Create the character and pick `template` onto it as the sheet's own picker would (the
    characters' write service, edit `compendium.add=<ref>`), in one transaction: a template
    not offered, or one the new sheet cannot take, leaves no character behind (InvalidEdit
    on the form's template field). An empty `template` creates the sheet alone."""
    with transaction.atomic():
        character = character_create(
            owner=user, name=name, system=system, sheet=sheet, campaign=campaign
        )
        if not template:
            return character
        offered = {choice.ref for choice in template_choices(user, system, campaign)}
        if template not in offered:
            raise InvalidEdit(TEMPLATE_FIELD, "Pick one of the templates offered.")
        try:
            return character_apply_edits(
                user=user,
                character_id=character.pk,
                edits={PICK_TRAIT: template},
                expected_version=character.version,
            )
        except EditRefused as refused:
            raise InvalidEdit(TEMPLATE_FIELD, " ".join(refused.errors.values())) from None


# A sheet brought to a table with entries of its owner's own book ---------------------------


@dataclass(frozen=True)
class OwnBookEntry:
    """An entry a sheet at a table picked from its owner's own book, at the version taken."""

    entry: CompendiumEntry
    kind: str
    version: int
    data: dict  # that version's data: what the sheet holds (the GM cannot open that book)


def own_book_entries(character: Character) -> list[OwnBookEntry]:
    """The entries of its owner's own book a sheet at a table still points at."""
    if character.campaign_id is None:
        return []
    refs = get_ruleset(character.system).entry_refs(character.sheet)
    taken = {
        int(ref[6:]): (kind, version)
        for kind, ref, version in refs
        if ref.startswith("entry:") and ref[6:].isdigit() and len(ref) <= 24
    }
    rows = CompendiumEntry.objects.filter(
        pk__in=taken, owner=character.owner_id, campaign__isnull=True, system=character.system
    )
    found = []
    for entry in rows:
        kind, version = taken[entry.pk]
        at = entry.versions.filter(version=version).values_list("data", flat=True).first()
        found.append(OwnBookEntry(entry, kind, version, dict(at or entry.data)))
    return found


def _repointed(sheet: Any, moved: Mapping[str, tuple[str, int]]) -> Any:
    """`sheet` with each compendium mark whose ref is in `moved` pointing at its new entry."""
    if isinstance(sheet, dict):
        if set(sheet) == {"kind", "ref", "version"} and sheet["ref"] in moved:
            ref, version = moved[sheet["ref"]]
            return {"kind": sheet["kind"], "ref": ref, "version": version}
        return {key: _repointed(value, moved) for key, value in sheet.items()}
    if isinstance(sheet, list):
        return [_repointed(value, moved) for value in sheet]
    return sheet


def entries_adopt(*, user: AbstractBaseUser, character_id: int, expected_version: int) -> list[str]:
    """A GM copies into the table's book the entries a sheet at the table picked from its
    owner's own book, each at the version the sheet took (an entry of that kind and name
    already in the book is used instead), and the sheet then points at the table's entries:
    one revision, "compendium: copied into <book>". Returns the names copied or matched.
    Nothing is written on a refusal: CopyRefused when the sheet moved on since the GM
    looked or has nothing to copy, InvalidEntry when an entry cannot go into the book (the
    book full, say), PermissionDenied for anyone but the table's GMs."""
    with transaction.atomic():
        character, _ = character_for(user, character_id, Need.EDIT, for_update=True)
        book = Book.of_sheet(character)
        if book.is_personal:
            raise CopyRefused(f"“{character.name}” sits at no table.")
        _lock_book(user, book)  # only the table's GMs change its book
        if character.version != expected_version:
            raise CopyRefused(
                f"“{character.name}” changed meanwhile (now version {character.version}): "
                "look at it again."
            )
        owner = character.owner.username
        moved: dict[str, tuple[str, int]] = {}
        names = []
        for item in own_book_entries(character):
            kind, clean = _validated(book, item.kind, item.data)
            same = next(
                (
                    entry
                    for entry in book.entries().filter(kind=kind.key)
                    if entry.name.casefold() == clean["name"].casefold()
                ),
                None,
            )
            if same is None:
                same = _save_new(
                    user=user,
                    book=book,
                    kind=kind,
                    data=clean,
                    summary=f"Copied from {owner}'s own book ({character.name})",
                )
            # The sheet keeps the version it took when the data match; else 0, so it says
            # the book's entry differs from what it holds.
            moved[item.entry.ref] = (same.ref, same.version if same.data == clean else 0)
            names.append(same.name)
        if not moved:
            raise CopyRefused(f"“{character.name}” uses no entry of its owner's own book.")
        ruleset = get_ruleset(character.system)
        before = revision_state(character)
        character.sheet = ruleset.validate_sheet(_repointed(character.sheet, moved))
        character.version += 1
        character.save(update_fields=["sheet", "version", "updated_at"])
        record_revision(character, user, f"compendium: copied into {book.title}", before)
        return names
