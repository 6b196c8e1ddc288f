"""Importing another tool's character: the upload, its preview, and the confirmed write.

An upload is read at once (a file Datapad cannot read is refused before anything is
kept); a readable one waits as a PendingImport while its owner reads the preview, which
reads the kept file again. Confirming reads it a last time and writes the character, the
original file beside it and the first revision "Imported from <format>" in one
transaction: a refusal at any step writes nothing.
"""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from rulesets.core import InvalidEdit, Violation, resolve_settings
from rulesets.core.compendium import compendium_ref
from rulesets.registry import SYSTEMS, get_ruleset
from rulesets.weg_d6.data import ATTRIBUTE_SLUGS, MAX_CODE_PIPS, SPECIES_BY_SLUG
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.compendium.services import builtins, seed_ref
from sheets.permissions import book_entries, books_of
from sheets.transfer import formats
from sheets.transfer.formats import swd6_builder
from sheets.transfer.formats.base import FormatRefused, NeedsMinimums, Reading, code_pips
from sheets.transfer.models import ImportedFile, PendingImport

PENDING_LIFETIME = timedelta(hours=1)
# Uploads a person may have waiting at once; an older one gives way to a new one.
PENDING_KEPT = 5
# Maximums a species the file does not describe gets: 2D above the minimums given.
MAXIMUM_ABOVE_MINIMUM = 6
DEFAULT_MOVE = 10


class PendingGone(Exception):
    """The upload was confirmed, cancelled or has expired."""


@dataclass
class Preview:
    pending: PendingImport
    label: str
    system_name: str = ""
    reading: Reading | None = None
    # The species whose minimums the person is asked for ("" when none is asked).
    needs_species: str = ""
    violations: list[Violation] = field(default_factory=list)
    # A refusal found when the kept file is read again (answers changed, rules changed).
    refusal: str = ""


def _fresh() -> Any:
    return PendingImport.objects.filter(created_at__gte=timezone.now() - PENDING_LIFETIME)


def _tidy(owner: AbstractBaseUser) -> None:
    PendingImport.objects.filter(created_at__lt=timezone.now() - PENDING_LIFETIME).delete()
    kept = PendingImport.objects.filter(owner=owner).order_by("-created_at", "-pk")
    old = list(kept.values_list("pk", flat=True)[PENDING_KEPT - 1 :])
    if old:
        PendingImport.objects.filter(pk__in=old).delete()


def pending_for(owner: AbstractBaseUser, token: str) -> PendingImport:
    """The owner's waiting upload of that token; PendingGone for anyone else's or none."""
    found = _fresh().filter(owner=owner, token=str(token)[:64]).first()
    if found is None:
        raise PendingGone
    return found


def species_limits(owner: AbstractBaseUser, name: str) -> dict | None:
    """The WEG species called `name` in a compendium `owner` reads: built-in first, then
    the books of the tables they play at and their own book; None when none has it."""
    wanted = name.strip().casefold()
    if not wanted:
        return None
    for entry in builtins("weg_d6"):
        if entry.kind == "species" and entry.data["name"].casefold() == wanted:
            limits = _limits(entry.data, "the built-in species")
            if entry.slug in SPECIES_BY_SLUG:
                limits["catalog_slug"] = entry.slug
            limits["compendium"] = compendium_ref("species", seed_ref(entry), 1)
            return limits
    for book in books_of(owner):
        if book.system != "weg_d6":
            continue
        entry = book_entries(owner, book).filter(kind="species", name__iexact=name.strip()).first()
        if entry is not None:
            limits = _limits(entry.data, f"species of {book.title}")
            limits["compendium"] = compendium_ref("species", entry.ref, entry.version)
            return limits
    return None


def _limits(data: dict, origin: str) -> dict:
    return {
        "minimum": dict(data["minimum"]),
        "maximum": dict(data["maximum"]),
        "move": data.get("move", DEFAULT_MOVE),
        "move_max": data.get("move_max", DEFAULT_MOVE + 2),
        "origin": origin,
    }


def _answers(owner: AbstractBaseUser, reader: Any, raw: bytes, given: dict) -> dict:
    """What the reader is told besides the file: a species' limits, found or given."""
    if reader is not swd6_builder:
        return {}
    if given.get("species_limits"):
        return {"species_limits": given["species_limits"]}
    data = formats.parse(raw)
    found = species_limits(owner, swd6_builder.species_name(data))
    return {"species_limits": found} if found else {}


def _read(owner: AbstractBaseUser, raw: bytes, given: dict) -> Reading:
    reader = formats.recognise(formats.parse(raw))
    return formats.read(raw, _answers(owner, reader, raw, given))


def start_import(*, owner: AbstractBaseUser, raw: bytes, filename: str) -> PendingImport:
    """Keep an upload of a known foreign format for its preview, or raise FormatRefused.

    The file is read now, so a file that cannot become a character is refused before it
    is kept; one that needs an answer (a species' minimums) is kept to ask it.
    """
    # A file that needs an answer (NeedsMinimums) is kept: the preview asks it.
    with contextlib.suppress(NeedsMinimums):
        _read(owner, raw, {})
    # Read above, so known and within the size limit.
    reader = formats.recognise(formats.parse(raw))
    with transaction.atomic():
        _tidy(owner)
        return PendingImport.objects.create(
            token=secrets.token_urlsafe(32),
            owner=owner,
            format=reader.KEY,
            filename=str(filename)[:200],
            raw=raw,
        )


def preview(pending: PendingImport) -> Preview:
    """What the kept file becomes: every value placed, every one dropped, every rule broken."""
    reader = formats.BY_KEY[pending.format]
    shown = Preview(pending=pending, label=reader.LABEL, system_name=SYSTEMS[reader.SYSTEM].name)
    try:
        reading = _read(pending.owner, bytes(pending.raw), pending.answers)
    except NeedsMinimums as asked:
        shown.needs_species = asked.species
        return shown
    except FormatRefused as refused:
        shown.refusal = str(refused)
        return shown
    ruleset = get_ruleset(reading.system)
    # The character joins no table when imported: it is judged by the default readings,
    # the ones its own sheet then starts with.
    report = ruleset.check(reading.sheet, resolve_settings(ruleset.SETTINGS, {}))
    shown.reading, shown.violations = reading, list(report.violations)
    return shown


def give_minimums(*, owner: AbstractBaseUser, token: str, fields: dict[str, Any]) -> dict[str, str]:
    """Keep the species minimums the person typed; return the refusals by field (none kept)."""
    pending = pending_for(owner, token)
    minimum, errors = {}, {}
    for slug in ATTRIBUTE_SLUGS:
        raw = str(fields.get(f"min_{slug}", "")).strip()
        try:
            pips = code_pips(raw, slug.capitalize()) if raw else None
        except FormatRefused as refused:
            errors[slug] = str(refused)
            continue
        if pips is None:
            errors[slug] = f"Give the species' minimum {slug.capitalize()}, like 2D."
        elif not 0 <= pips <= MAX_CODE_PIPS - MAXIMUM_ABOVE_MINIMUM:
            errors[slug] = f"{slug.capitalize()}: a species minimum runs from 0D to 58D."
        else:
            minimum[slug] = pips
    if errors:
        return errors
    limits = {
        "minimum": minimum,
        "maximum": {slug: pips + MAXIMUM_ABOVE_MINIMUM for slug, pips in minimum.items()},
        "move": DEFAULT_MOVE,
        "move_max": DEFAULT_MOVE + 2,
        "origin": "the minimums you gave; maximums 2D above them",
    }
    with transaction.atomic():
        locked = PendingImport.objects.select_for_update().get(pk=pending.pk)
        locked.answers = {"species_limits": limits}
        locked.save(update_fields=["answers"])
    return {}


def confirm_import(*, owner: AbstractBaseUser, token: str) -> Character:
    """Write the character the preview showed, with the original file; or raise
    FormatRefused / NeedsMinimums / PendingGone and write nothing."""
    with transaction.atomic():
        pending = _fresh().select_for_update().filter(owner=owner, token=str(token)[:64]).first()
        if pending is None:
            raise PendingGone
        raw = bytes(pending.raw)
        reading = _read(owner, raw, pending.answers)
        label = formats.BY_KEY[pending.format].LABEL
        try:
            character = character_create(
                owner=owner,
                name=reading.name,
                system=reading.system,
                sheet=reading.sheet,
                summary=f"Imported from {label}"[:200],
            )
        except InvalidEdit as refused:
            raise FormatRefused(refused.message) from None
        ImportedFile.objects.create(
            character=character,
            format=pending.format,
            filename=pending.filename,
            raw=raw,
            size=len(raw),
        )
        pending.delete()
    return character


def cancel_import(*, owner: AbstractBaseUser, token: str) -> None:
    PendingImport.objects.filter(owner=owner, token=str(token)[:64]).delete()


def foreign_reader(raw: bytes) -> Any:
    """The reader of an upload of another tool's format; None for what Datapad's own file
    reader answers (its files, whatever claims a "format", text that is no JSON); or
    FormatRefused naming what the file is instead (another game's, no known one)."""
    try:
        data = formats.parse(raw)
    except FormatRefused:
        return None
    if not isinstance(data, dict) or "format" in data:
        return None
    return formats.recognise(data)
