"""Vehicle pages: thin views that load through the permission selector, call one service
and draw. Refusals are shown beside their field, the stored vehicle unchanged."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rulesets.ore.vehicles import SAMPLE_LABELS
from rulesets.weg_d6.data import EDITION_1E, EDITIONS
from rulesets.weg_d6.vehicles import SCALES
from sheets.campaigns.models import Campaign, Role
from sheets.characters.models import Character
from sheets.permissions import (
    campaign_for,
    character_for,
    crew_characters,
    table_vehicles,
    vehicle_for,
)
from sheets.rolls.services import rollables_of
from sheets.vehicles import services, state
from sheets.vehicles.models import OwnerKind, Vehicle
from sheets.vehicles.pdf import render_vehicle_pdf
from sheets.vehicles.services import VehicleRefused


def _version(request: HttpRequest) -> int:
    text = request.POST.get("version", "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else 0


def _new_context(system: str) -> dict:
    return {
        "has_vehicles": services.has_vehicles(system),
        "why_none": "" if services.has_vehicles(system) else services.why_none(system),
        "samples": SAMPLE_LABELS if system == "ore" else {},
        "editions": EDITIONS if system == "weg_d6" else (),
    }


def _list_page(
    request: HttpRequest,
    holder: Campaign | Character,
    gm: bool,
    vehicles: Callable[[], list[Vehicle]],
) -> HttpResponse:
    """The vehicles of a table or of a character: a POST makes a new one for it and goes
    to its sheet; a refusal draws the list with it beside its field."""
    at_table = isinstance(holder, Campaign)
    owner = (
        {"owner": OwnerKind.CAMPAIGN, "campaign_id": holder.pk}
        if at_table
        else {"owner": OwnerKind.CHARACTER, "character_id": holder.pk}
    )
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            vehicle = services.vehicle_create(
                user=request.user,
                name=request.POST.get("name", ""),
                sample=request.POST.get("sample", ""),
                edition=request.POST.get("edition", ""),
                **owner,
            )
        except VehicleRefused as refused:
            errors = refused.errors
        else:
            messages.success(request, f"Made {vehicle.name}.")
            return redirect("vehicle_sheet", pk=vehicle.pk)
    context = {
        "campaign" if at_table else "character": holder,
        "gm": gm,
        "vehicles": vehicles(),
        "errors": errors,
        "posted": request.POST,
        "action": request.path,
    } | _new_context(holder.system)
    return render(request, "vehicles/list.html", context, status=400 if errors else 200)


@require_http_methods(["GET", "POST"])
@login_required
def vehicle_list(request: HttpRequest, pk: int) -> HttpResponse:
    """A table's vehicles; its GMs make the table's own here."""
    campaign, role = campaign_for(request.user, pk)
    return _list_page(
        request, campaign, role is Role.GM, lambda: table_vehicles(request.user, campaign)
    )


@require_http_methods(["GET", "POST"])
@login_required
def character_vehicles(request: HttpRequest, pk: int) -> HttpResponse:
    """A character's (or an NPC's) vehicles, and a new one for who may edit it."""
    character, access = character_for(request.user, pk)
    return _list_page(
        request, character, access.edit, lambda: list(Vehicle.objects.filter(character=character))
    )


def _sheet_context(request: HttpRequest, vehicle: Vehicle, can_edit: bool, errors: dict) -> dict:
    data = vehicle.data
    fields = state.fields(vehicle.system, data, errors)
    damage_fields = state.damage_fields(vehicle.system, data, errors)
    tables = state.tables(vehicle.system, data, errors)
    drawn = {f.path for f in fields + damage_fields} | {"name"}
    drawn |= {f.path for table in tables for row in table.rows for f in row}
    # A refusal with no field on the page to stand beside (a row gone, a field unknown)
    # is shown above the stat block.
    whole = [message for key, message in errors.items() if key not in drawn]
    return {
        "vehicle": vehicle,
        "can_edit": can_edit,
        "errors": errors,
        "whole_error": " ".join(whole),
        "fields": fields,
        "damage_fields": damage_fields,
        "tables": tables,
        "derived": state.derived(vehicle.system, data),
        "range_chart": state.range_chart(vehicle.system),
        "ranges_list": state.RANGES_LIST,
    }


@require_GET
@login_required
def vehicle_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    vehicle, access = vehicle_for(request.user, pk)
    return render(request, "vehicles/sheet.html", _page_context(request, vehicle, access.edit, {}))


def _page_context(request: HttpRequest, vehicle: Vehicle, can_edit: bool, errors: dict) -> dict:
    """The whole sheet page: the stat block with `errors` beside their fields, and the
    roll panel as a GET draws it."""
    return _sheet_context(request, vehicle, can_edit, errors) | _roll_context(
        request, vehicle, {}, None, None
    )


@require_POST
@login_required
def vehicle_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """Live edits: each changed field posts here; htmx gets the sheet part back, a plain
    form a redirect (or the page with the refusal beside its field)."""
    vehicle, _ = vehicle_for(request.user, pk, edit=True)
    edits = {
        key: value
        for key, value in request.POST.items()
        if key not in ("csrfmiddlewaretoken", "version", "name")
    }
    name = request.POST.get("name")
    try:
        vehicle = services.vehicle_apply_edits(
            user=request.user,
            vehicle_id=vehicle.pk,
            edits=edits,
            expected_version=_version(request),
            name=name,
        )
        errors: dict[str, str] = {}
    except VehicleRefused as refused:
        errors = refused.errors
        vehicle.refresh_from_db()
    if not request.htmx:
        if not errors:
            return redirect("vehicle_sheet", pk=vehicle.pk)
        context = _page_context(request, vehicle, True, errors)
        return render(request, "vehicles/sheet.html", context, status=400)
    # htmx swaps 200s only: a refusal drawn beside its field still comes back as 200 there.
    context = _sheet_context(request, vehicle, True, errors)
    return render(request, "vehicles/sheet.html#stat-block", context)


def _act(
    request: HttpRequest,
    pk: int,
    service: Callable[..., tuple[Vehicle, str]],
    /,
    *,
    said: str = "",
    errors_as: str = "",
    **values: Any,
) -> HttpResponse:
    """Run one vehicle service on the vehicle `pk` at the version the form saw: done, back
    to the sheet with what it did (after `said`); refused, the sheet with the refusal beside
    its field (and, under `errors_as`, beside the form that sent it), the vehicle unchanged."""
    vehicle, _ = vehicle_for(request.user, pk, edit=True)
    try:
        vehicle, text = service(
            user=request.user,
            vehicle_id=vehicle.pk,
            expected_version=_version(request),
            **values,
        )
    except VehicleRefused as refused:
        vehicle.refresh_from_db()
        context = _page_context(request, vehicle, True, refused.errors)
        if errors_as:
            context[errors_as] = refused.errors
        return render(request, "vehicles/sheet.html", context, status=400)
    messages.success(request, f"{said}{text}")
    return redirect("vehicle_sheet", pk=vehicle.pk)


@require_POST
@login_required
def vehicle_hit(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request,
        pk,
        services.vehicle_hit,
        errors_as="hit_errors",
        damage_roll=request.POST.get("damage_roll", ""),
        hull_roll=request.POST.get("hull_roll", ""),
        ion=request.POST.get("ion") in ("on", "1", "true"),
    )


@require_POST
@login_required
def vehicle_improve(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request,
        pk,
        services.vehicle_improve,
        said="Recorded: ",
        code=request.POST.get("code", ""),
    )


def _roll_context(request, vehicle: Vehicle, errors: dict, odds, entry) -> dict:
    crew = crew_characters(request.user, vehicle)
    source = request.POST if request.method == "POST" else request.GET
    chosen_crew = next((c for c in crew if str(c.pk) == source.get("crew", "")), None)
    if chosen_crew is None and crew:
        chosen_crew = crew[0]
    traits = []
    if chosen_crew is not None and services.has_vehicles(vehicle.system):
        traits = [(r.key, r.label) for r in rollables_of(chosen_crew)]
    return {
        "crew": crew,
        "chosen_crew": chosen_crew,
        "traits": traits,
        "codes": services.vehicle_codes(vehicle) if services.has_vehicles(vehicle.system) else [],
        "roll_errors": errors,
        "odds": odds,
        "entry": entry,
        "roll_posted": source,
        # 1st edition caps dice against a target of another scale (003:618-647).
        "scales": SCALES
        if vehicle.system == "weg_d6" and vehicle.data.get("edition") == EDITION_1E
        else (),
    }


@require_http_methods(["GET", "POST"])
@login_required
def vehicle_roll(request: HttpRequest, pk: int) -> HttpResponse:
    """The roll panel: GET with a code, crew and trait shows the exact odds; POST rolls
    into the table's log."""
    vehicle, _ = vehicle_for(request.user, pk)
    errors: dict[str, str] = {}
    odds = entry = None
    raw = request.POST if request.method == "POST" else request.GET
    if request.method == "POST":
        try:
            entry = services.vehicle_roll(user=request.user, vehicle_id=vehicle.pk, raw=raw)
        except VehicleRefused as refused:
            errors = refused.errors
    elif raw.get("code"):
        try:
            setup = services.roll_setup(request.user, vehicle, raw)
            _, odds = services.roll_odds(setup, raw)
        except VehicleRefused as refused:
            errors = refused.errors
    context = _roll_context(request, vehicle, errors, odds, entry) | {"vehicle": vehicle}
    template = "vehicles/sheet.html#roll-panel" if request.htmx else "vehicles/roll.html"
    return render(request, template, context, status=400 if errors and not request.htmx else 200)


@require_GET
@login_required
def vehicle_print(request: HttpRequest, pk: int) -> HttpResponse:
    vehicle, _ = vehicle_for(request.user, pk)
    response = HttpResponse(render_vehicle_pdf(vehicle), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="vehicle-{vehicle.pk}.pdf"'
    return response


@require_http_methods(["GET", "POST"])
@login_required
def vehicle_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Asks first (GET), deletes on POST: whoever may change the vehicle; refused, nothing
    deleted, while it is in a scene (services.vehicle_delete says why)."""
    vehicle, _ = vehicle_for(request.user, pk, edit=True)
    errors: dict[str, str] = {}
    if request.method == "POST":
        table, character = vehicle.table_id, vehicle.character_id
        try:
            name = services.vehicle_delete(
                user=request.user, vehicle_id=vehicle.pk, expected_version=_version(request)
            )
        except VehicleRefused as refused:
            errors = refused.errors
            vehicle.refresh_from_db()
        else:
            messages.success(request, f"{name} deleted.")
            if table is not None:
                return redirect("vehicle_list", pk=table)
            return redirect("character_vehicles", pk=character)
    context = {"vehicle": vehicle, "errors": errors, "message": " ".join(errors.values())}
    return render(request, "vehicles/delete.html", context, status=400 if errors else 200)
