"""Importing another tool's character: the upload, its preview, and the confirmed write.

An upload is read at once (a file Datapad cannot read is refused before anything is
kept); a readable one waits as a PendingImport while its owner reads the preview, which
reads the kept file again. Confirming reads it a last time and writes the character, the
original file beside it and the first revision "Imported from <format>" in one
transaction: a refusal at any step writes nothing.

The importer may choose a table they sit at (or none): the preview then judges the sheet
by that table's house rules, and the character joins it as a sheet its owner brings
(campaigns.services.character_bring, in the same transaction): a draft for the GM's
review, its points from elsewhere (the file's) waiting for the GM's acceptance.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import unicodedata
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.text import slugify

from rulesets.core import InvalidEdit, Violation, resolve_settings
from rulesets.core.compendium import compendium_ref
from rulesets.registry import SYSTEMS, get_ruleset
from rulesets.weg_d6.data import ATTRIBUTE_SLUGS, MAX_CODE_PIPS, SPECIES_BY_SLUG
from sheets.campaigns.models import Campaign
from sheets.campaigns.services import CampaignRefused, character_bring
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.compendium.services import builtins, seed_ref
from sheets.permissions import book_entries, books_of, campaign_role, visible_campaigns
from sheets.transfer import formats
from sheets.transfer.datapad import import_character
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


class TableRefused(Exception):
    """The table chosen for an import cannot take it; said beside the table's field."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


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
    # The table it joins (None: none), judged by its house rules; the tables offered.
    table: Campaign | None = None
    tables: list[Campaign] = field(default_factory=list)
    # The table chosen earlier, which the person no longer sits at ("" when none such).
    table_gone: str = ""


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


def tables_for(owner: AbstractBaseUser, system: str | None = None) -> QuerySet[Campaign]:
    """The tables `owner` sits at (as a player or a GM), of `system` when given: where an
    import of theirs may land."""
    tables = visible_campaigns(owner).order_by("name", "pk")
    return tables.filter(system=system) if system else tables


def table_choice(owner: AbstractBaseUser, raw: Any, system: str | None) -> Campaign | None:
    """The table the form's `raw` value names (a campaign's id), None for none; or
    TableRefused, for a table `owner` does not sit at or of another system than `system`."""
    text = str(raw or "").strip()
    if not text:
        return None
    found = None
    if text.isascii() and text.isdigit() and len(text) <= 18:
        found = tables_for(owner).filter(pk=int(text)).first()
    if found is None:
        raise TableRefused("Choose one of the tables you sit at, or no table.")
    if system and found.system != system:
        raise TableRefused(
            f"“{found.name}” plays {found.get_system_display()}; this file holds a "
            f"{SYSTEMS[system].name} character."
        )
    return found


def _bring(owner: AbstractBaseUser, campaign_id: int, character: Character) -> None:
    """Join the new character to the chosen table as its owner would bring it; a refusal
    (the table left since, another system) raises TableRefused inside the caller's
    transaction, so nothing of the import is kept."""
    try:
        character_bring(user=owner, campaign_id=campaign_id, character_id=character.pk)
    except CampaignRefused as refused:
        raise TableRefused(refused.message) from None
    except Http404:
        raise TableRefused(
            "You no longer sit at the table you chose: choose another, or no table."
        ) from None


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


def start_import(
    *, owner: AbstractBaseUser, raw: bytes, filename: str, table: Any = ""
) -> PendingImport:
    """Keep an upload of a known foreign format for its preview, or raise FormatRefused
    (the file) or TableRefused (the table chosen, `table` a campaign's id or "").

    The file is read now, so a file that cannot become a character is refused before it
    is kept; one that needs an answer (a species' minimums) is kept to ask it.
    """
    # A file that needs an answer (NeedsMinimums) is kept: the preview asks it.
    with contextlib.suppress(NeedsMinimums):
        _read(owner, raw, {})
    # Read above, so known and within the size limit.
    reader = formats.recognise(formats.parse(raw))
    campaign = table_choice(owner, table, reader.SYSTEM)
    with transaction.atomic():
        _tidy(owner)
        return PendingImport.objects.create(
            token=secrets.token_urlsafe(32),
            owner=owner,
            format=reader.KEY,
            filename=str(filename)[:200],
            raw=raw,
            campaign=campaign,
        )


def choose_table(*, owner: AbstractBaseUser, token: str, table: Any) -> dict[str, str]:
    """Keep the table the upload is to join (`table` a campaign's id, "" for none); return
    the refusal by field (nothing kept)."""
    pending = pending_for(owner, token)
    try:
        campaign = table_choice(owner, table, formats.BY_KEY[pending.format].SYSTEM)
    except TableRefused as refused:
        return {"campaign": refused.message}
    with transaction.atomic():
        locked = PendingImport.objects.select_for_update().get(pk=pending.pk)
        locked.campaign = campaign
        locked.save(update_fields=["campaign"])
    return {}


def _sitting_at(pending: PendingImport) -> Campaign | None:
    """The table chosen for the upload, while its owner still sits at it."""
    campaign = pending.campaign
    if campaign is None or campaign_role(pending.owner, campaign) is None:
        return None
    return campaign


def preview(pending: PendingImport) -> Preview:
    """What the kept file becomes: every value placed, every one dropped, every rule broken."""
    reader = formats.BY_KEY[pending.format]
    shown = Preview(pending=pending, label=reader.LABEL, system_name=SYSTEMS[reader.SYSTEM].name)
    shown.tables = list(tables_for(pending.owner, reader.SYSTEM))
    shown.table = _sitting_at(pending)
    if pending.campaign is not None and shown.table is None:
        shown.table_gone = pending.campaign.name
    try:
        reading = _read(pending.owner, bytes(pending.raw), pending.answers)
    except NeedsMinimums as asked:
        shown.needs_species = asked.species
        return shown
    except FormatRefused as refused:
        shown.refusal = str(refused)
        return shown
    ruleset = get_ruleset(reading.system)
    # At a table, by its house rules (what its page will judge it by); at none, by the
    # default readings, the ones its own sheet then starts with.
    chosen = shown.table.rule_settings if shown.table is not None else {}
    report = ruleset.check(reading.sheet, resolve_settings(ruleset.SETTINGS, chosen))
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
        locked.answers = {**locked.answers, "species_limits": limits}
        locked.save(update_fields=["answers"])
    return {}


def confirm_import(*, owner: AbstractBaseUser, token: str) -> Character:
    """Write the character the preview showed, with the original file, at the table chosen
    (if any); or raise FormatRefused / NeedsMinimums / TableRefused / PendingGone and write
    nothing."""
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
        if pending.campaign_id is not None:
            _bring(owner, pending.campaign_id, character)
            character.refresh_from_db()
        pending.delete()
    return character


def import_datapad_file(*, owner: AbstractBaseUser, raw: bytes, table: Any = "") -> Character:
    """Import Datapad's own file (datapad.import_character) and join the table chosen, in
    one transaction; or raise ImportRefused / TableRefused and write nothing."""
    campaign = table_choice(owner, table, None)
    with transaction.atomic():
        character = import_character(owner=owner, raw=raw)
        if campaign is not None:
            _bring(owner, campaign.pk, character)
            character.refresh_from_db()
    return character


# The original file, downloaded -----------------------------------------------------------

# Characters a file's name keeps out of a download's name: controls, format marks (a
# right-to-left override would show "gpj.exe" as "exe.jpg"), line and paragraph breaks,
# surrogates, private and unassigned code points.
_UNSAFE_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}
# And what a file system or a header reads as syntax.
_UNSAFE_MARKS = re.compile(r'["\\/:*?<>|;]')
LONGEST_NAME = 120


def download_name(stored: str, fallback: str) -> str:
    """The name a kept file is offered under: the uploaded one's last part, without what a
    header or a file system would read as more than a name; the character's when nothing
    of it is left. Always ends ".json" (every format Datapad reads is JSON)."""
    last = re.split(r"[\\/]", str(stored))[-1]
    kept = "".join(ch for ch in last if unicodedata.category(ch) not in _UNSAFE_CATEGORIES)
    kept = _UNSAFE_MARKS.sub("", kept).strip(" .")
    stem = kept[:-5] if kept.lower().endswith(".json") else kept
    stem = stem.strip(" .")[:LONGEST_NAME].strip(" .")
    if not stem:
        stem = slugify(fallback)[:LONGEST_NAME] or "character"
    return f"{stem}.json"


def imported_file_of(character: Character) -> ImportedFile | None:
    return ImportedFile.objects.filter(character=character).first()


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
