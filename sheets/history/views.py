"""History pages: every revision in words, a diff between two versions, and restore."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from rulesets.core.parsing import ascii_number
from sheets.characters.models import Character
from sheets.characters.services import StaleVersion
from sheets.history.groups import history_page
from sheets.history.revisions import HistoryBroken, as_changes, change_lines, state_at
from sheets.history.services import (
    NothingToRestore,
    RestoreRefused,
    character_restore,
    restore_plan,
)
from sheets.permissions import CharacterAccess, Need, character_for


@require_GET
@login_required
def character_history(request: HttpRequest, pk: int) -> HttpResponse:
    character, access = character_for(request.user, pk, Need.RECORDS)
    page, groups = history_page(character, request.GET.get("page"))
    # One group opens to its versions (without JavaScript too): named by its first version.
    opened = ascii_number(request.GET.get("open", ""))
    entries = [
        {
            "group": group,
            "changes": as_changes(group.changes),
            "more": group.more,
            "open": group.single or group.first == opened,
            "versions": [
                {
                    "revision": revision,
                    "changes": as_changes(revision.changes),
                    "more": revision.changes_more,
                }
                for revision in group.revisions
            ],
        }
        for group in groups
    ]
    context = {"character": character, "page": page, "entries": entries, "may_edit": access.edit}
    return render(request, "history/history.html", context)


def _version(raw: str | None, default: int) -> int | None:
    if raw is None or raw == "":
        return default
    return ascii_number(raw)


@require_GET
@login_required
def character_history_diff(request: HttpRequest, pk: int) -> HttpResponse:
    character, _ = character_for(request.user, pk, Need.RECORDS)
    older = _version(request.GET.get("from"), max(1, character.version - 1))
    newer = _version(request.GET.get("to"), character.version)
    context = {"character": character, "older": older, "newer": newer, "changes": []}
    error = ""
    if older is None or newer is None:
        error = "Versions are whole numbers, such as 3."
    elif not (1 <= older <= character.version and 1 <= newer <= character.version):
        error = f"{character.name} has versions 1 to {character.version}."
    else:
        try:
            context["changes"] = as_changes(
                change_lines(
                    character.system,
                    state_at(character, older),
                    state_at(character, newer),
                    character.readings_in_force,
                )
            )
        except HistoryBroken as broken:
            error = str(broken)
    context["error"] = error
    return render(request, "history/history_diff.html", context, status=400 if error else 200)


@require_http_methods(["GET", "POST"])
@login_required
def character_history_restore(request: HttpRequest, pk: int, version: int) -> HttpResponse:
    """Show what restoring `version` changes; restore it once confirmed."""
    character, access = character_for(request.user, pk, Need.EDIT)
    if request.method == "POST":
        posted = ascii_number(request.POST.get("version", ""))
        pricing = str(request.POST.get("pricing", ""))[:20]
        try:
            character_restore(
                user=request.user,
                character_id=pk,
                version=version,
                expected_version=-1 if posted is None else posted,
                pricing=pricing,
                reason=request.POST.get("reason", ""),
            )
        except StaleVersion as stale:
            character.refresh_from_db()
            return _confirm(request, character, access, version, str(stale), status=409)
        except NothingToRestore as nothing:
            messages.info(request, nothing.message)
            return redirect("character_history", pk=pk)
        except RestoreRefused as refused:
            return _confirm(request, character, access, version, refused.message, status=400)
        messages.success(request, f"Restored version {version}.")
        return redirect("character_history", pk=pk)
    return _confirm(request, character, access, version, "")


def _confirm(
    request: HttpRequest,
    character: Character,
    access: CharacterAccess,
    version: int,
    error: str,
    status: int = 200,
) -> HttpResponse:
    """The confirmation page: what restoring changes, or why it is refused (a GET is 200)."""
    context = {"character": character, "version": version, "error": error, "plan": None}
    try:
        context["plan"] = restore_plan(character, access, version)
    except RestoreRefused as refused:
        context["refusal"] = refused.message
        context["purchases"] = refused.purchases
        # What the ledger would not pay for, the entries in the way and, for the GM, the
        # form that restores it with the lines that price it.
        context["check"] = refused.check
        context["may_price"] = refused.may_price
        context["submitted"] = request.POST if request.method == "POST" else {}
    return render(request, "history/history_restore.html", context, status=status)
