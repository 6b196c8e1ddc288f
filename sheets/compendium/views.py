"""Compendium pages: browse a book beside the rulebook's own entries, read, add, edit, copy,
hide and remove entries, and move a book in and out as a file.

Each view loads through the selector (`sheets/permissions.py`: 404 for what one may not
see, 403 for what one sees but may not change), calls one service and renders. Refused
input re-renders the form with each message beside its field: 400 for a plain post, a 200
fragment for htmx (which swaps only 2xx).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from rulesets.core.compendium import (
    BuiltinEntry,
    EntryKind,
    InvalidEntry,
    blank_form,
    entry_from_form,
    entry_to_form,
)
from rulesets.registry import SYSTEMS
from sheets.compendium import services
from sheets.compendium.forms import field_rows, leftover_errors, shown_fields
from sheets.compendium.models import Book, CompendiumEntry
from sheets.compendium.services import (
    CopyRefused,
    EntryConflict,
    EntryInUse,
    PlanChanged,
    builtins,
    kind_of,
    kinds_of,
    seed_ref,
)
from sheets.list_filters import Filters
from sheets.permissions import (
    Need,
    book_access,
    book_entries,
    book_for,
    books_of,
    character_for,
    compendium_entry_for,
)
from sheets.transfer.compendium_file import (
    FILE_MAX_BYTES,
    FileRefused,
    export_book,
    file_bytes,
    pack,
    too_large,
    unpack,
)

# What one browse page lists of each side; a search narrows a longer list.
LISTED_MOST = 200


@dataclass(frozen=True)
class Listed:
    """One line of the browse page, a built-in or a stored entry."""

    kind_label: str
    name: str
    url: str
    source: str
    hidden: bool = False
    example: bool = False


def source_of(entry: CompendiumEntry) -> str:
    """Who wrote a stored entry, and for which book: "yoda, Outer Rim"."""
    who = entry.author.get_username() if entry.author else "someone since gone"
    where = entry.campaign.name if entry.campaign else "own book"
    return f"{who}, {where}"


def _kind_or_404(system: str, key: str) -> EntryKind:
    kind = kind_of(system, key)
    if kind is None:
        raise Http404("No such kind of entry.")
    return kind


def _version(raw: str | None) -> int:
    text = str(raw or "")
    return int(text) if text.isdigit() and len(text) <= 9 else 0


def _changeable_books(request: HttpRequest, system: str) -> list[Book]:
    """Books of `system` the visitor may copy into."""
    return [
        book
        for book in books_of(request.user)
        if book.system == system and book_access(request.user, book).change
    ]


# Books and browsing ------------------------------------------------------------------------


@require_GET
@login_required
def compendium_home(request: HttpRequest) -> HttpResponse:
    books = books_of(request.user)
    return render(
        request,
        "compendium/home.html",
        {
            "tables": [book for book in books if not book.is_personal],
            "personal": [(book, SYSTEMS[book.system].name) for book in books if book.is_personal],
        },
    )


@require_GET
@login_required
@vary_on_headers("HX-Request")
def compendium_browse(request: HttpRequest, book: str) -> HttpResponse:
    the_book, access = book_for(request.user, book)
    kinds = kinds_of(the_book.system)
    labels = {kind.key: kind.label for kind in kinds}
    filters = Filters()
    name = filters.search(request.GET)
    kind = filters.choice(request.GET, "kind", "Kind", [(k.key, k.plural) for k in kinds])
    seeds = [
        entry
        for entry in builtins(the_book.system)
        if (not kind or entry.kind == kind)
        and (not name or name.casefold() in str(entry.data.get("name", "")).casefold())
    ]
    stored = book_entries(request.user, the_book).select_related("author", "campaign")
    if kind:
        stored = stored.filter(kind=kind)
    if name:
        stored = stored.filter(name__icontains=name)
    stored_count = stored.count()
    context = {
        "book": the_book,
        "system_name": SYSTEMS[the_book.system].name,
        "access": access,
        "filters": filters,
        "kinds": kinds,
        "seeds": [_listed_seed(the_book, entry, labels) for entry in seeds[:LISTED_MOST]],
        "seed_count": len(seeds),
        "stored": [_listed(entry, labels) for entry in stored[:LISTED_MOST]],
        "stored_count": stored_count,
        "listed_most": LISTED_MOST,
    }
    template = "compendium/browse.html"
    return render(request, f"{template}#results" if request.htmx else template, context)


def _listed_seed(book: Book, entry: BuiltinEntry, labels: dict[str, str]) -> Listed:
    url = reverse("compendium_builtin", args=[book.key, entry.kind, entry.slug])
    return Listed(labels.get(entry.kind, entry.kind), entry.data["name"], url, entry.source)


def _listed(entry: CompendiumEntry, labels: dict[str, str]) -> Listed:
    url = reverse("compendium_entry", args=[entry.pk])
    return Listed(
        labels.get(entry.kind, entry.kind),
        entry.name,
        url,
        source_of(entry),
        hidden=entry.hidden,
        example=entry.example,
    )


@require_GET
@login_required
def compendium_builtin(request: HttpRequest, book: str, kind: str, slug: str) -> HttpResponse:
    the_book, access = book_for(request.user, book)
    entry_kind = _kind_or_404(the_book.system, kind)
    entry = services.builtin(the_book.system, kind, slug)
    if entry is None:
        raise Http404("No such built-in entry.")
    return render(
        request,
        "compendium/builtin.html",
        {
            "book": the_book,
            "access": access,
            "kind": entry_kind,
            "entry": entry,
            "ref": seed_ref(entry),
            "fields": shown_fields(entry_kind, entry.data),
        },
    )


# One stored entry --------------------------------------------------------------------------


@require_GET
@login_required
def compendium_entry(request: HttpRequest, pk: int) -> HttpResponse:
    entry, book, access = compendium_entry_for(request.user, pk)
    kind = kind_of(entry.system, entry.kind)
    return render(
        request,
        "compendium/entry.html",
        {
            "entry": entry,
            "book": book,
            "access": access,
            "kind_label": kind.label if kind else entry.kind,
            "fields": shown_fields(kind, entry.data) if kind else [],
            "source": source_of(entry),
            "versions": entry.versions.select_related("author").order_by("-version"),
            "used_by": services.sheets_using(entry) if access.change else [],
            "copy_to": [b for b in _changeable_books(request, entry.system) if b != book],
        },
    )


def _form_page(
    request: HttpRequest, context: dict, *, errors: dict[str, str], status: int = 400
) -> HttpResponse:
    """The entry form again, each fault beside its field (a 200 fragment for htmx)."""
    kind = context["kind"]
    if "name" not in errors:
        # All faults at once: a taken name too, though the other fields stopped the save.
        entry = context.get("entry")
        name = " ".join(str(request.POST.get("name", "")).split())
        taken = services.name_refusal(context["book"], kind, name, but=entry.pk if entry else None)
        errors = errors | ({"name": taken} if name and taken else {})
    context |= {
        "rows": field_rows(kind, request.POST, errors),
        "other_errors": leftover_errors(kind, errors),
    }
    if request.htmx:
        return render(request, "compendium/entry_form.html#form", context)
    return render(request, "compendium/entry_form.html", context, status=status)


def _done(request: HttpRequest, url: str) -> HttpResponse:
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@require_http_methods(["GET", "POST"])
@login_required
@vary_on_headers("HX-Request")
def compendium_entry_new(request: HttpRequest, book: str) -> HttpResponse:
    the_book, _access = book_for(request.user, book, change=True)
    # The form's own inputs start with "_", which no field of an entry may (pydantic).
    kind = kind_of(the_book.system, request.POST.get("_kind") or request.GET.get("kind", ""))
    if kind is None:
        return render(
            request,
            "compendium/pick_kind.html",
            {"book": the_book, "kinds": kinds_of(the_book.system)},
            status=400 if request.method == "POST" else 200,
        )
    context = {"book": the_book, "kind": kind, "entry": None}
    if request.method == "POST":
        try:
            data = entry_from_form(kind, request.POST)
            entry = services.entry_create(
                user=request.user, book=the_book, kind=kind.key, data=data
            )
        except InvalidEntry as refused:
            return _form_page(request, context, errors=refused.errors)
        messages.success(request, f"“{entry.name}” is in the book.")
        return _done(request, reverse("compendium_entry", args=[entry.pk]))
    context |= {"rows": field_rows(kind, blank_form(kind)), "other_errors": []}
    return render(request, "compendium/entry_form.html", context)


@require_http_methods(["GET", "POST"])
@login_required
@vary_on_headers("HX-Request")
def compendium_entry_edit(request: HttpRequest, pk: int) -> HttpResponse:
    entry, book, _access = compendium_entry_for(request.user, pk, change=True)
    kind = _kind_or_404(entry.system, entry.kind)
    context = {"book": book, "kind": kind, "entry": entry, "version": entry.version}
    if request.method == "POST":
        version = _version(request.POST.get("_version"))
        try:
            data = entry_from_form(kind, request.POST)
            preview = services.update_preview(
                user=request.user, entry_id=entry.pk, data=data, expected_version=version
            )
            followed: list = []
            if not preview.needs_confirming:
                entry = services.entry_update(
                    user=request.user, entry_id=entry.pk, data=data, expected_version=version
                )
            elif request.POST.get("_confirm") == preview.digest:
                entry, followed = services.entry_update_following(
                    user=request.user,
                    entry_id=entry.pk,
                    data=data,
                    expected_version=version,
                    expected_digest=preview.digest,
                )
            else:
                # The sheets it reaches come first: what each would newly break, then the
                # GM confirms (a confirm of another preview is shown this one instead).
                context |= {"impacts": preview.impacts, "confirm": preview.digest}
                return _form_page(request, context, errors={}, status=200)
        except InvalidEntry as refused:
            return _form_page(request, context, errors=refused.errors)
        except (EntryConflict, services.ImpactChanged) as conflict:
            # The form keeps what was typed; its version is now the current one, so saving
            # again is a knowing overwrite (after a new preview, if sheets use it).
            entry.refresh_from_db()
            context |= {"conflict": str(conflict), "version": entry.version}
            return _form_page(request, context, errors={}, status=409)
        sheets = f"; {len(followed)} sheet(s) follow it" if followed else ""
        messages.success(request, f"“{entry.name}” is saved (version {entry.version}){sheets}.")
        return _done(request, reverse("compendium_entry", args=[entry.pk]))
    context |= {"rows": field_rows(kind, entry_to_form(kind, entry.data)), "other_errors": []}
    return render(request, "compendium/entry_form.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def compendium_entry_remove(request: HttpRequest, pk: int) -> HttpResponse:
    entry, book, _access = compendium_entry_for(request.user, pk, change=True)
    error = ""
    if request.method == "POST":
        try:
            name = services.entry_remove(
                user=request.user,
                entry_id=entry.pk,
                expected_version=_version(request.POST.get("version")),
            )
        except (EntryInUse, EntryConflict) as refused:
            error = str(refused)
            entry.refresh_from_db()
        else:
            messages.success(request, f"“{name}” is removed from the book.")
            return redirect("compendium_browse", book=book.key)
    return render(
        request,
        "compendium/confirm_remove.html",
        {"entry": entry, "book": book, "used_by": services.sheets_using(entry), "error": error},
        status=400 if error else 200,
    )


@require_POST
@login_required
def compendium_entry_visibility(request: HttpRequest, pk: int) -> HttpResponse:
    entry, _book, _access = compendium_entry_for(request.user, pk, change=True)
    hidden = request.POST.get("hidden") == "1"
    try:
        entry = services.entry_set_hidden(
            user=request.user,
            entry_id=entry.pk,
            hidden=hidden,
            expected_version=_version(request.POST.get("version")),
        )
    except EntryConflict as conflict:
        messages.error(request, str(conflict))
    else:
        messages.success(
            request,
            f"“{entry.name}” is hidden from the players."
            if entry.hidden
            else f"“{entry.name}” is shown to the players.",
        )
    return redirect("compendium_entry", pk=entry.pk)


@require_http_methods(["GET", "POST"])
@login_required
def compendium_copy(request: HttpRequest, book: str) -> HttpResponse:
    the_book, _access = book_for(request.user, book, change=True)
    source = request.POST.get("source") or request.GET.get("source", "")
    errors: dict[str, str] = {}
    try:
        kind_key, data, origin = services.copy_source(request.user, the_book, source)
    except CopyRefused as refused:
        return render(
            request, "compendium/copy.html", {"book": the_book, "refusal": str(refused)}, status=400
        )
    name = request.POST.get("name", data.get("name", ""))
    if request.method == "POST":
        try:
            entry = services.entry_copy(user=request.user, book=the_book, source=source, name=name)
        except InvalidEntry as refused:
            errors = refused.errors
        else:
            messages.success(request, f"“{entry.name}” is copied into the book.")
            return redirect("compendium_entry", pk=entry.pk)
    kind = kind_of(the_book.system, kind_key)
    return render(
        request,
        "compendium/copy.html",
        {
            "book": the_book,
            "source": source,
            "origin": origin,
            "kind_label": kind.label if kind else kind_key,
            "name": name,
            "errors": errors,
            "other_errors": [message for key, message in errors.items() if key != "name"],
        },
        status=400 if errors else 200,
    )


# The book as a file ------------------------------------------------------------------------


@require_GET
@login_required
def compendium_export(request: HttpRequest, book: str) -> HttpResponse:
    the_book, _access = book_for(request.user, book)
    # A player's copy holds what they may read: the hidden entries stay with the GMs.
    entries = book_entries(request.user, the_book).order_by("kind", "name", "pk")
    document = export_book(system=the_book.system, entries=entries)
    response = HttpResponse(file_bytes(document), content_type="application/json; charset=utf-8")
    filename = slugify(the_book.title) or "compendium"
    response["Content-Disposition"] = (
        f'attachment; filename="{filename}-{the_book.system}.compendium.json"'
    )
    return response


@require_http_methods(["GET", "POST"])
@login_required
def compendium_import(request: HttpRequest, book: str) -> HttpResponse:
    the_book, _access = book_for(request.user, book, change=True)
    context: dict = {"book": the_book, "system_name": SYSTEMS[the_book.system].name}
    if request.method == "GET":
        return render(request, "compendium/import.html", context)
    try:
        if "payload" in request.POST:
            raw = unpack(request.POST["payload"])
            plan = services.import_apply(
                user=request.user,
                book=the_book,
                raw=raw,
                expected_digest=request.POST.get("digest", ""),
            )
            messages.success(
                request,
                f"Imported: {len(plan.adds)} added, {len(plan.replaces)} replaced"
                + (f", {len(plan.refusals)} refused." if plan.refusals else "."),
            )
            return redirect("compendium_browse", book=the_book.key)
        raw = _upload(request)
        plan = services.import_plan(user=request.user, book=the_book, raw=raw)
    except FileRefused as refused:
        return render(
            request, "compendium/import.html", context | {"error": str(refused)}, status=400
        )
    except PlanChanged as changed:
        context["changed"] = str(changed)
        plan = changed.plan
    return render(
        request,
        "compendium/import.html",
        context | {"plan": plan, "payload": pack(raw), "digest": plan.digest},
    )


def _upload(request: HttpRequest) -> bytes:
    upload = request.FILES.get("file")
    if upload is None:
        raise FileRefused("Choose a compendium file (.json) to import.")
    if upload.size > FILE_MAX_BYTES:
        # An oversized file was never stored (sheets/transfer/uploads.py): only its size.
        raise too_large(upload.size)
    # One byte past the limit, so a file that lied about its size is refused unparsed.
    return upload.read(FILE_MAX_BYTES + 1)


@require_http_methods(["GET", "POST"])
@login_required
def compendium_adopt(request: HttpRequest, pk: int) -> HttpResponse:
    """A GM copies into the table's book what a sheet brought to the table picked from its
    owner's own book: the entries, each at the version the sheet took, then the confirm."""
    # Need.GM, the answer the sheet's link is drawn by (`access.gm`): the table's GMs are
    # those who change its book.
    character, _access = character_for(request.user, pk, Need.GM)
    book = Book.of_sheet(character)
    if book.is_personal or not book_access(request.user, book).change:
        raise PermissionDenied("Only a GM of the sheet's table copies entries into its book.")
    error = ""
    if request.method == "POST":
        try:
            names = services.entries_adopt(
                user=request.user,
                character_id=character.pk,
                expected_version=_version(request.POST.get("version")),
            )
        except (CopyRefused, InvalidEntry) as refused:
            error = (
                " ".join(refused.errors.values())
                if isinstance(refused, InvalidEntry)
                else str(refused)
            )
            character.refresh_from_db()
        else:
            messages.success(
                request,
                f"{', '.join(names)}: now in {book.title}, and {character.name} picks from there.",
            )
            return redirect("character_sheet", pk=character.pk)
    return render(
        request,
        "compendium/adopt.html",
        {
            "character": character,
            "book": book,
            "items": services.own_book_entries(character),
            "error": error,
        },
        status=400 if error else 200,
    )
