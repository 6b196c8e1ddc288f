"""Character pages: thin views that load through the selector, call a service, render."""

from __future__ import annotations

import json
from collections.abc import Mapping

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import reswap, retarget

from rulesets.core import InvalidEdit
from rulesets.registry import SYSTEMS
from sheets.characters.layouts import SHELL, Snapshot, edit_context, sheet_context
from sheets.characters.layouts.base import trait_dom_id
from sheets.characters.models import Character
from sheets.characters.pdf import render_character_pdf
from sheets.characters.schema import character_file_schema
from sheets.characters.services import (
    EditRefused,
    StaleVersion,
    character_apply_edits,
    character_create,
    character_delete,
    character_duplicate,
)
from sheets.characters.transfer import ImportRefused, export_character, import_character
from sheets.permissions import Need, character_for, own_characters


@require_GET
@login_required
def character_list(request: HttpRequest) -> HttpResponse:
    characters = own_characters(request.user)
    return render(request, "characters/list.html", {"characters": characters})


@require_http_methods(["GET", "POST"])
@login_required
def character_new(request: HttpRequest) -> HttpResponse:
    errors: dict[str, str] = {}
    if request.method == "POST":
        system = request.POST.get("system", "")
        if system not in SYSTEMS:
            errors["system"] = "Pick one of the rule systems below."
        else:
            try:
                character = character_create(
                    owner=request.user, name=request.POST.get("name", ""), system=system
                )
            except InvalidEdit as error:
                errors["name" if error.trait == "character.name" else "system"] = error.message
            else:
                return redirect("character_sheet", pk=character.pk)
    return render(
        request,
        "characters/new.html",
        {"systems": SYSTEMS.values(), "errors": errors, "posted": request.POST},
        status=400 if errors else 200,
    )


@require_GET
@login_required
@vary_on_headers("HX-Request")
def character_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    character = character_for(request.user, pk)[0]
    return render(request, SHELL, sheet_context(character))


# Form fields that steer the request rather than name a trait.
_CONTROL_FIELDS = {"csrfmiddlewaretoken", "version", "save", "edit", "only"}
_SAVE_SECTIONS = {"details": ("info.", "character.name"), "readings": ("setting.",)}


def _edits_from(post: Mapping[str, str]) -> dict[str, str]:
    """Read which traits a sheet form submitted.

    - "edit=<trait>=<raw>": one clicked button;
    - "only=<trait>": one changed field or one "add" row, whose extra inputs
      "<trait>.1", "<trait>.2"... are joined to it with "|" ("slug|value|choice");
    - "save=all", "save=details", "save=readings": the no-JavaScript submit buttons, taking
      every field (or a section's), but never the "add" rows, which have their own button.
    """
    if "edit" in post:
        trait, _, value = post["edit"].partition("=")
        return {trait: value}
    if "only" in post:
        trait = post["only"]
        parts = [post.get(trait, "")]
        index = 1
        while f"{trait}.{index}" in post:
            parts.append(post[f"{trait}.{index}"])
            index += 1
        return {trait: "|".join(parts)}
    save = post.get("save", "")
    fields = {k: v for k, v in post.items() if k not in _CONTROL_FIELDS and ".add" not in k}
    if save == "all":
        return fields
    wanted = _SAVE_SECTIONS.get(save)
    return {k: v for k, v in fields.items() if wanted and k.startswith(wanted)}


@require_POST
@login_required
@vary_on_headers("HX-Request")
def character_edit(request: HttpRequest, pk: int) -> HttpResponse:
    edits = _edits_from(request.POST)
    version = request.POST.get("version", "")
    # ASCII digits only: "²" passes isdigit() but int() refuses it.
    expected = int(version) if version.isascii() and version.isdigit() else -1
    before: list[Snapshot] = []
    try:
        character = character_apply_edits(
            user=request.user,
            character_id=pk,
            edits=edits,
            expected_version=expected,
            on_locked=lambda locked: before.append(Snapshot.of(locked)),
        )
    except EditRefused as refused:
        return _refused(request, character_for(request.user, pk)[0], refused.errors, edits)
    except StaleVersion as stale:
        return _conflict(request, character_for(request.user, pk)[0], str(stale))
    if request.htmx:
        context = edit_context(character, before=before[0])
        return render(request, f"{SHELL}#edit-response", context)
    # Without JavaScript, land back on the row that was edited, not the top of the page.
    anchor = f"#{trait_dom_id(next(iter(edits)))}" if len(edits) == 1 else ""
    return redirect(reverse("character_sheet", kwargs={"pk": character.pk}) + anchor)


def _refused(
    request: HttpRequest, character: Character, errors: dict[str, str], edits: dict[str, str]
) -> HttpResponse:
    """Show each refusal beside its field; htmx 2 swaps only a 200, so a fragment is 200."""
    if request.htmx:
        context = edit_context(
            character, before=Snapshot.of(character), errors=errors, submitted=edits
        )
        return render(request, f"{SHELL}#edit-response", context)
    context = sheet_context(character, errors=errors, submitted=edits)
    return render(request, SHELL, context, status=400)


def _conflict(request: HttpRequest, character: Character, message: str) -> HttpResponse:
    """Redraw the whole sheet with the current values and say why nothing was saved."""
    context = sheet_context(character) | {"conflict": message}
    if request.htmx:
        response = render(request, f"{SHELL}#sheet", context)
        return reswap(retarget(response, "#sheet"), "outerHTML")
    return render(request, SHELL, context, status=409)


@require_POST
@login_required
def character_copy(request: HttpRequest, pk: int) -> HttpResponse:
    copy = character_duplicate(user=request.user, character_id=pk)
    messages.success(request, f"Made a copy: “{copy.name}”.")
    return redirect("character_sheet", pk=copy.pk)


@require_http_methods(["GET", "POST"])
@login_required
def character_remove(request: HttpRequest, pk: int) -> HttpResponse:
    character = character_for(request.user, pk, Need.OWNER)[0]
    if request.method == "POST":
        try:
            name = character_delete(
                user=request.user,
                character_id=pk,
                expected_version=int(request.POST.get("version", "-1") or -1),
            )
        except (StaleVersion, ValueError):
            messages.error(
                request,
                "The character changed since you opened this page; look again before deleting it.",
            )
            return redirect("character_remove", pk=pk)
        messages.success(request, f"Deleted “{name}”.")
        return redirect("character_list")
    return render(request, "characters/confirm_delete.html", {"character": character})


@require_GET
@login_required
def character_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    character = character_for(request.user, pk)[0]
    response = HttpResponse(render_character_pdf(character), content_type="application/pdf")
    filename = slugify(character.name) or "character"
    response["Content-Disposition"] = f'attachment; filename="{filename}.pdf"'
    return response


@require_GET
@login_required
def character_export(request: HttpRequest, pk: int) -> HttpResponse:
    character = character_for(request.user, pk)[0]
    body = json.dumps(export_character(character), indent=2, ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
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
        else:
            try:
                # Read one byte past the limit, so an oversized file is refused unparsed.
                raw = upload.read(settings.CHARACTER_IMPORT_MAX_BYTES + 1)
                character = import_character(owner=request.user, raw=raw)
            except ImportRefused as refused:
                error = str(refused)
            else:
                messages.success(request, f"Imported “{character.name}”.")
                return redirect("character_sheet", pk=character.pk)
    return render(request, "characters/import.html", {"error": error}, status=400 if error else 200)


@require_GET
def character_file_schema_view(request: HttpRequest) -> HttpResponse:
    body = json.dumps(character_file_schema(), indent=2, ensure_ascii=False)
    return HttpResponse(body, content_type="application/schema+json; charset=utf-8")


@require_GET
@login_required
def character_history(request: HttpRequest, pk: int) -> HttpResponse:
    character = character_for(request.user, pk)[0]
    revisions = character.revisions.select_related("author")[:200]
    return render(
        request, "characters/history.html", {"character": character, "revisions": revisions}
    )
