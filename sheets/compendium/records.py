"""The lowest writes of a compendium: a new entry with its first version, under the book's
lock (services.py builds every other write on these; a character file's import adds the
entries it carries through `entry_create`, without the book-file import's modules).

Each runs under a lock on the book's anchor row and leaves an `EntryVersion`; a refusal is
`InvalidEntry`, a message per form field, and nothing is stored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction

from rulesets.core.compendium import EntryKind, InvalidEntry, find_kind, validate_entry
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.campaigns.models import Campaign
from sheets.compendium.models import Book, CompendiumEntry, EntryVersion
from sheets.permissions import book_access

# An entry is a few lines of a rulebook, not a chapter: its data as JSON at most this.
ENTRY_MAX_BYTES = 16 * 1024
# Entries of one book (one system); the benchmark's large book is 500.
BOOK_MAX_ENTRIES = 2000
# The whole-entry fault's key among the field errors (a size limit, a full book).
ENTRY_FIELD = "entry"


def kinds_of(system: str) -> tuple[EntryKind, ...]:
    return tuple(get_ruleset(system).COMPENDIUM_KINDS)


def kind_of(system: str, key: str) -> EntryKind | None:
    try:
        return find_kind(kinds_of(system), key)
    except InvalidEntry:
        return None


def _lock_book(user: AbstractBaseUser, book: Book) -> None:
    """Refuse a user who may not change `book`, then hold its anchor row until commit."""
    if not book_access(user, book).change:
        raise PermissionDenied("Only a GM of this campaign changes its compendium.")
    if book.campaign is not None:
        Campaign.objects.select_for_update().filter(pk=book.campaign.pk).first()
    else:
        get_user_model().objects.select_for_update().filter(pk=book.owner.pk).first()


def _validated(book: Book, kind_key: str, data: Mapping[str, Any]) -> tuple[EntryKind, dict]:
    kind = kind_of(book.system, kind_key)
    if kind is None:
        raise InvalidEntry({"kind": f"Pick one of the kinds {SYSTEMS[book.system].name} has."})
    clean = validate_entry(kind, dict(data))
    size = len(json.dumps(clean, ensure_ascii=False).encode("utf-8"))
    if size > ENTRY_MAX_BYTES:
        raise InvalidEntry(
            {
                ENTRY_FIELD: f"This entry takes {size // 1024} KB; an entry is at most "
                f"{ENTRY_MAX_BYTES // 1024} KB. Shorten its description."
            }
        )
    return kind, clean


def name_refusal(book: Book, kind: EntryKind, name: str, *, but: int | None = None) -> str:
    """Why `name` cannot be this kind's in `book` (another entry has it, whatever its case)."""
    names = book.entries().filter(kind=kind.key).exclude(pk=but).values_list("name", flat=True)
    wanted = name.casefold()
    if any(other.casefold() == wanted for other in names):
        return f"This book already has a {kind.label.lower()} named “{name}”."
    return ""


def _check_name(book: Book, kind: EntryKind, name: str, *, but: int | None = None) -> None:
    refusal = name_refusal(book, kind, name, but=but)
    if refusal:
        raise InvalidEntry({"name": refusal})


def _record(entry: CompendiumEntry, *, user: AbstractBaseUser | None, summary: str) -> None:
    EntryVersion.objects.create(
        entry=entry,
        version=entry.version,
        name=entry.name,
        data=entry.data,
        hidden=entry.hidden,
        summary=summary[:200],
        author=user,
    )


def _save_new(
    *,
    user: AbstractBaseUser,
    book: Book,
    kind: EntryKind,
    data: dict,
    hidden: bool = False,
    example: bool = False,
    summary: str,
) -> CompendiumEntry:
    if book.entries().count() >= BOOK_MAX_ENTRIES:
        raise InvalidEntry(
            {ENTRY_FIELD: f"This book is full: it holds at most {BOOK_MAX_ENTRIES} entries."}
        )
    _check_name(book, kind, data["name"])
    try:
        # A savepoint: a twin the name check could not see (another database's case rules)
        # is refused without breaking the caller's transaction.
        with transaction.atomic():
            entry = CompendiumEntry.objects.create(
                campaign=book.campaign,
                owner=None if book.campaign is not None else book.owner,
                system=book.system,
                kind=kind.key,
                name=data["name"],
                data=data,
                hidden=hidden,
                example=example,
                author=user,
            )
    except IntegrityError:
        raise InvalidEntry(
            {"name": f"This book already has an entry named “{data['name']}”."}
        ) from None
    _record(entry, user=user, summary=summary)
    return entry


def entry_create(
    *,
    user: AbstractBaseUser,
    book: Book,
    kind: str,
    data: Mapping[str, Any],
    hidden: bool = False,
    example: bool = False,
) -> CompendiumEntry:
    """Add an entry of `kind` to `book`; InvalidEntry (nothing stored) when it is refused."""
    with transaction.atomic():
        _lock_book(user, book)
        entry_kind, clean = _validated(book, kind, data)
        return _save_new(
            user=user,
            book=book,
            kind=entry_kind,
            data=clean,
            hidden=hidden,
            example=example,
            summary="Added",
        )
