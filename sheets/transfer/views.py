"""Character files in and out: export, import and the published schema of the file."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from sheets.permissions import character_for
from sheets.transfer.compendium_file import compendium_file_schema
from sheets.transfer.datapad import (
    ImportRefused,
    export_character,
    file_bytes,
    import_character,
    too_large,
)
from sheets.transfer.schema import character_file_schema


@require_GET
@login_required
def character_export(request: HttpRequest, pk: int) -> HttpResponse:
    character = character_for(request.user, pk)[0]
    response = HttpResponse(
        file_bytes(export_character(character)), content_type="application/json; charset=utf-8"
    )
    filename = slugify(character.name) or "character"
    response["Content-Disposition"] = f'attachment; filename="{filename}.datapad.json"'
    return response


@require_http_methods(["GET", "POST"])
@login_required
def character_import(request: HttpRequest) -> HttpResponse:
    error = ""
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
                character = import_character(owner=request.user, raw=raw)
            except ImportRefused as refused:
                error = str(refused)
            else:
                messages.success(request, f"Imported “{character.name}”.")
                return redirect("character_sheet", pk=character.pk)
    return render(request, "transfer/import.html", {"error": error}, status=400 if error else 200)


@require_GET
def character_file_schema_view(request: HttpRequest) -> HttpResponse:
    body = json.dumps(character_file_schema(), indent=2, ensure_ascii=False)
    return HttpResponse(body, content_type="application/schema+json; charset=utf-8")


@require_GET
def compendium_file_schema_view(request: HttpRequest) -> HttpResponse:
    body = json.dumps(compendium_file_schema(), indent=2, ensure_ascii=False)
    return HttpResponse(body, content_type="application/schema+json; charset=utf-8")
