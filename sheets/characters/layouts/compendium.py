"""The sheet's compendium section, the same for every system: what the sheet picked (each
entry with the version it took) and the picker offering the book's entries beside the
rulebook's, each marked by its source (listed on asking, `views.character_pick`, so the
page itself stays light).

A layout gains it through `with_picker`, so no system's layout restates it. Picking posts
the sheet form like any "add" row (`compendium.add=<ref>`, services.PICK_TRAIT).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.db.models import QuerySet

from rulesets.registry import get_ruleset
from sheets.characters.layouts.base import Layout, Section
from sheets.characters.models import Character
from sheets.characters.services import UNPICKED_KINDS
from sheets.characters.state import SheetState
from sheets.compendium.models import Book, CompendiumEntry

PICKER = Section(
    "compendium",
    "From the compendium",
    body="characters/_compendium_picked.html",
    adds="characters/_compendium_pick.html",
    prefixes=("compendium.",),
    side=True,
    # Everything the body prints, so an edit that moves any of them redraws the section.
    uses_extra=("compendium_picked", "compendium_own_book", "compendium_kinds"),
)


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    source: str
    seed: bool = False


@dataclass(frozen=True)
class Picked:
    """One entry the sheet uses: its name, the version it took, and what became of it."""

    kind: str
    name: str
    version: int
    source: str
    # The book's entry moved on (a GM's change the sheet did not follow), or is gone.
    current: int | None = None
    gone: bool = False
    # At a table, picked from its owner's own book: a GM may copy it into the table's.
    own_book: bool = False


def _kind_labels(system: str) -> dict[str, str]:
    return {kind.key: kind.label for kind in get_ruleset(system).COMPENDIUM_KINDS}


@lru_cache(maxsize=8)
def pickable_kinds(system: str) -> tuple[tuple[str, str], ...]:
    """(key, plural) of each kind a sheet of `system` picks."""
    kinds = get_ruleset(system).COMPENDIUM_KINDS
    return tuple((kind.key, kind.plural) for kind in kinds if kind.key not in UNPICKED_KINDS)


def picker_choices(
    character: Character, kind: str, entries: QuerySet[CompendiumEntry]
) -> tuple[Choice, ...]:
    """The entries of `kind` a sheet may pick: the book's (`entries`, those its viewer may
    read), each marked by its author and table, then the rulebook's, each by its seed line."""
    book = Book.of_sheet(character)
    stored = []
    for entry in entries.filter(kind=kind).select_related("author"):
        if book.is_personal:
            source = book.title
        else:
            source = f"{entry.author.username if entry.author else 'a GM'}, {book.title}"
        stored.append(Choice(entry.ref, entry.name, source))
    seeds = [
        Choice(f"seed:{found.kind}:{found.slug}", found.data["name"], found.source, seed=True)
        for found in get_ruleset(character.system).builtin_entries()
        if found.kind == kind
    ]
    return (*stored, *seeds)


def picked_entries(character: Character, state: SheetState) -> tuple[Picked, ...]:
    refs = state.ruleset.entry_refs(state.sheet)
    if not refs:
        return ()
    labels = _kind_labels(character.system)
    seeds = {f"seed:{b.kind}:{b.slug}": b for b in get_ruleset(character.system).builtin_entries()}
    ids = [int(ref[6:]) for _, ref, _ in refs if ref.startswith("entry:") and ref[6:].isdigit()]
    rows = CompendiumEntry.objects.filter(pk__in=ids).select_related("campaign", "owner")
    stored = {e.pk: e for e in rows} if ids else {}
    shown = []
    for kind, ref, version in refs:
        label = labels.get(kind, kind)
        if ref in seeds:
            shown.append(Picked(label, seeds[ref].data["name"], version, seeds[ref].source))
            continue
        entry = stored.get(int(ref[6:])) if ref[6:].isdigit() else None
        if entry is None:
            # The snapshot on the sheet keeps working; the entry's page is gone.
            shown.append(Picked(label, "", version, "", gone=True))
            continue
        moved = entry.version if entry.version != version else None
        book = _source(entry, character)
        own = entry.campaign_id is None and character.campaign_id is not None
        shown.append(Picked(label, entry.name, version, book, current=moved, own_book=own))
    return tuple(shown)


def _source(entry: CompendiumEntry, character: Character) -> str:
    """The book an entry the sheet uses is in. A sheet brought to a table keeps what it
    picked from its owner's own book (the table's GM cannot open that book): said as such,
    so the GM knows where it came from; the sheet's snapshot still holds what it took."""
    same_table = entry.campaign_id is not None and entry.campaign_id == character.campaign_id
    own_off_table = character.campaign_id is None and entry.owner_id == character.owner_id
    if same_table or own_off_table:
        return Book.of(entry).title
    if entry.campaign is None:
        return f"from {entry.owner.username}'s own book"
    return f"from {entry.campaign.name}"


def with_picker(layout: Layout) -> Layout:
    """The layout with the compendium section beside the sheet (and its context)."""
    base = type(layout)

    class Picking(base):  # type: ignore[valid-type, misc]
        sections = (*base.sections, PICKER)

        def extra(self, state: SheetState, character: Character) -> dict:
            picked = picked_entries(character, state)
            return super().extra(state, character) | {
                "compendium_picked": picked,
                "compendium_own_book": any(item.own_book for item in picked),
                "compendium_kinds": pickable_kinds(character.system),
            }

    Picking.__name__ = Picking.__qualname__ = base.__name__
    return Picking()
