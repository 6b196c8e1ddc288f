"""Character files in and out: export, import and the published schema of the file."""

from __future__ import annotations

import json
from types import ModuleType

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from rulesets.registry import get_ruleset
from rulesets.weg_d6.data import ATTRIBUTE_SLUGS
from sheets.advancement.figures import advancement_for, figures
from sheets.characters.models import Character
from sheets.permissions import Need, character_for
from sheets.transfer import imports
from sheets.transfer.compendium_file import compendium_file_schema
from sheets.transfer.datapad import (
    ImportRefused,
    export_character,
    file_bytes,
    too_large,
)
from sheets.transfer.formats import FormatRefused, NeedsMinimums, known
from sheets.transfer.formats.exporting import Export
from sheets.transfer.formats.foundry_exports import exporter_for
from sheets.transfer.schema import character_file_schema


@require_GET
@login_required
def character_export(request: HttpRequest, pk: int) -> HttpResponse:
    character = character_for(request.user, pk, Need.RECORDS)[0]
    response = HttpResponse(
        file_bytes(export_character(character)), content_type="application/json; charset=utf-8"
    )
    filename = slugify(character.name) or "character"
    response["Content-Disposition"] = f'attachment; filename="{filename}.datapad.json"'
    return response


def _foundry_export(
    user: AbstractBaseUser, pk: int, format_key: str
) -> tuple[Character, ModuleType, Export]:
    """The character as its Foundry file of `format_key` holds it, for whoever may export the
    character (404 for anyone else, and for a format of another system)."""
    character = character_for(user, pk, Need.RECORDS)[0]
    exporter = exporter_for(character.system, format_key)
    if exporter is None:
        raise Http404("This character's system has no such Foundry format.")
    # In play, the points left to spend are the ledger's balance, not the sheet's field.
    sheet = get_ruleset(character.system).validate_sheet(character.sheet)
    sheet = advancement_for(character.system).with_ledger(sheet, figures(character))
    return character, exporter, exporter.export(sheet, character.name)


@require_GET
@login_required
def character_export_foundry(request: HttpRequest, pk: int, format_key: str) -> HttpResponse:
    """The character as a Foundry VTT actor of its system's Foundry format (issue 29)."""
    character, _exporter, exported = _foundry_export(request.user, pk, format_key)
    response = HttpResponse(exported.file_bytes(), content_type="application/json; charset=utf-8")
    filename = slugify(character.name) or "character"
    response["Content-Disposition"] = f'attachment; filename="{filename}{exported.suffix}"'
    return response


@require_GET
@login_required
def character_export_foundry_preview(
    request: HttpRequest, pk: int, format_key: str
) -> HttpResponse:
    """What the character's Foundry file cannot hold, read before downloading it. Worked out
    here, when asked, not on the sheet page, where every edit would leave it stale."""
    character, exporter, exported = _foundry_export(request.user, pk, format_key)
    context = {"character": character, "exporter": exporter, "lost": exported.lost}
    return render(request, "transfer/export_preview.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def character_import(request: HttpRequest) -> HttpResponse:
    error = ""
    table_error = ""
    table = request.POST.get("campaign", "")
    if request.method == "POST":
        upload = request.FILES.get("file")
        if upload is None:
            error = "Choose a character file (.json) to import."
        elif upload.size > settings.CHARACTER_IMPORT_MAX_BYTES:
            # An oversized file was never stored (uploads.py): only its size.
            error = str(too_large(upload.size))
        else:
            try:
                # Read one byte past the limit, so a file that lied about its size is
                # refused unparsed.
                raw = upload.read(settings.CHARACTER_IMPORT_MAX_BYTES + 1)
                # Another tool's file waits for its preview; Datapad's own imports at once.
                if imports.foreign_reader(raw) is not None:
                    pending = imports.start_import(
                        owner=request.user, raw=raw, filename=upload.name or "", table=table
                    )
                    return redirect("character_import_preview", token=pending.token)
                character = imports.import_datapad_file(owner=request.user, raw=raw, table=table)
            except (ImportRefused, FormatRefused) as refused:
                error = str(refused)
            except imports.TableRefused as refused:
                table_error = refused.message
            else:
                messages.success(request, _imported(character))
                return redirect("character_sheet", pk=character.pk)
    context = {
        "error": error,
        "table_error": table_error,
        "known": known(),
        "tables": imports.tables_for(request.user).order_by("name", "pk"),
        "chosen": table,
    }
    bad = bool(error or table_error)
    return render(request, "transfer/import.html", context, status=400 if bad else 200)


def _imported(character: Character) -> str:
    if character.campaign is None:
        return f"Imported “{character.name}”."
    return (
        f"Imported “{character.name}” to “{character.campaign.name}”: submit it for the GM's "
        "review when it is ready."
    )


@require_http_methods(["GET", "POST"])
@login_required
def character_import_preview(request: HttpRequest, token: str) -> HttpResponse:
    """Another tool's file as it will land: confirm it, cancel it, or answer its question."""
    try:
        pending = imports.pending_for(request.user, token)
    except imports.PendingGone:
        raise Http404("No such import: it was confirmed, cancelled or has expired.") from None
    errors: dict[str, str] = {}
    error = ""
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "cancel":
            imports.cancel_import(owner=request.user, token=token)
            messages.info(request, "Import cancelled: nothing was stored.")
            return redirect("character_import")
        if action == "minimums":
            errors = imports.give_minimums(owner=request.user, token=token, fields=request.POST)
            if not errors:
                return redirect("character_import_preview", token=token)
        elif action == "table":
            table = request.POST.get("campaign", "")
            errors = imports.choose_table(owner=request.user, token=token, table=table)
            if not errors:
                return redirect("character_import_preview", token=token)
        elif action == "confirm":
            try:
                character = imports.confirm_import(owner=request.user, token=token)
            except imports.PendingGone:
                raise Http404("No such import: it was confirmed or cancelled.") from None
            except imports.TableRefused as refused:
                errors = {"campaign": refused.message}
            except (FormatRefused, NeedsMinimums) as refused:
                error = (
                    f"Give the minimums of the species “{refused.species}” first."
                    if isinstance(refused, NeedsMinimums)
                    else str(refused)
                )
            else:
                messages.success(request, _imported(character))
                return redirect("character_sheet", pk=character.pk)
        else:
            error = "Confirm or cancel the import."
    shown = imports.preview(pending)
    context = {
        "preview": shown,
        "error": error,
        "errors": errors,
        "values": request.POST if errors else {},
        "attributes": ATTRIBUTE_SLUGS,
    }
    bad = bool(error or errors or shown.refusal)
    return render(request, "transfer/import_preview.html", context, status=400 if bad else 200)


@require_GET
@login_required
def character_imported_file(request: HttpRequest, pk: int) -> HttpResponse:
    """The file the character was imported from, as it came: for whoever reads the sheet's
    history (its owner, its table's GMs), never a player reading a revealed NPC."""
    character = character_for(request.user, pk, Need.RECORDS)[0]
    kept = imports.imported_file_of(character)
    if kept is None:
        raise Http404("This character was not imported from another tool's file.")
    # Every format Datapad reads is UTF-8 JSON (formats.parse); sent as a download, never
    # shown in the page's origin.
    response = HttpResponse(bytes(kept.raw), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(
        True, imports.download_name(kept.filename, character.name)
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_GET
def character_file_schema_view(request: HttpRequest) -> HttpResponse:
    body = json.dumps(character_file_schema(), indent=2, ensure_ascii=False)
    return HttpResponse(body, content_type="application/schema+json; charset=utf-8")


@require_GET
def compendium_file_schema_view(request: HttpRequest) -> HttpResponse:
    body = json.dumps(compendium_file_schema(), indent=2, ensure_ascii=False)
    return HttpResponse(body, content_type="application/schema+json; charset=utf-8")
