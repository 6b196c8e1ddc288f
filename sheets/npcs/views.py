"""The GM's NPC and minion pages: thin views that load through the selector, call one
service and render. A player reaches only what a GM revealed; any other NPC or group
answers 404, its posts too."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rulesets.core.npcs import MAX_MEMBERS, MIN_MEMBERS, npc_rules
from rulesets.registry import get_ruleset
from sheets.npcs import services
from sheets.npcs.models import Visibility
from sheets.npcs.services import NpcRefused, StaleNpc
from sheets.permissions import campaign_for, minion_group_for, npc_for


def _version(request: HttpRequest) -> int:
    text = request.POST.get("version", "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 10 else 0


@require_http_methods(["GET", "POST"])
@login_required
def npc_new(request: HttpRequest, pk: int) -> HttpResponse:
    return _npc_form(request, pk, quick=False)


@require_http_methods(["GET", "POST"])
@login_required
def npc_quick(request: HttpRequest, pk: int) -> HttpResponse:
    return _npc_form(request, pk, quick=True)


def _npc_form(request: HttpRequest, pk: int, *, quick: bool) -> HttpResponse:
    campaign, _ = campaign_for(request.user, pk, gm=True)
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            character = services.npc_create(
                user=request.user,
                campaign_id=campaign.pk,
                name=request.POST.get("name", ""),
                quick=quick,
                traits={k: v for k, v in request.POST.items() if k not in ("name", "lines")},
                lines=request.POST.get("lines", ""),
                template=request.POST.get("template", ""),
            )
        except NpcRefused as refused:
            errors = refused.errors
        else:
            messages.success(request, f"Made {character.name}, hidden from the players.")
            return redirect("character_sheet", pk=character.pk)
    ruleset = get_ruleset(campaign.system)
    quick_rows = [
        (key, ruleset.trait_label(key), request.POST.get(key, ""))
        for key in npc_rules(campaign.system).QUICK_TRAITS
    ]
    context = {
        "campaign": campaign,
        "quick": quick,
        "quick_rows": quick_rows if quick else [],
        "templates": services.npc_templates(request.user, campaign),
        "errors": errors,
        "posted": request.POST,
    }
    return render(request, "npcs/new.html", context, status=400 if errors else 200)


@require_GET
@login_required
def npc_detail(request: HttpRequest, pk: int) -> HttpResponse:
    npc, runs = npc_for(request.user, pk)
    context = {
        "npc": npc,
        "character": npc.character,
        "runs": runs,
        "report": services.npc_report(npc.character, npc) if runs else None,
        "visibilities": Visibility.choices,
        "sheet_shown": runs or npc.visibility == Visibility.SHEET,
    }
    return render(request, "npcs/detail.html", context)


@require_POST
@login_required
def npc_reveal(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        npc = services.npc_reveal(
            user=request.user,
            character_id=pk,
            visibility=request.POST.get("visibility", ""),
            expected_version=_version(request),
        )
    except (NpcRefused, StaleNpc) as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, f"The players now see: {npc.get_visibility_display()}.")
    return redirect("npc_detail", pk=pk)


@require_GET
@login_required
def npc_portrait(request: HttpRequest, pk: int, digest: str) -> HttpResponse:
    """A revealed NPC's picture for its table's players (the sheet's own URL is the GMs')."""
    npc, _runs = npc_for(request.user, pk)
    portrait = getattr(npc.character, "portrait", None)
    if portrait is None or portrait.digest != digest:
        raise Http404("No such picture.")
    response = HttpResponse(bytes(portrait.image), content_type=portrait.content_type)
    patch_cache_control(response, private=True, max_age=3600)
    return response


@require_http_methods(["GET", "POST"])
@login_required
def npc_settings(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request.user, pk, gm=True)
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            services.npc_settings_save(
                user=request.user,
                campaign_id=campaign.pk,
                submitted=request.POST,
                expected_version=_version(request),
            )
        except NpcRefused as refused:
            errors = refused.errors
        except StaleNpc as stale:
            errors = {"version": str(stale)}
        else:
            messages.success(request, "Saved the table's NPC rules.")
            return redirect("npc_settings", pk=campaign.pk)
        campaign.refresh_from_db()
    context = {
        "campaign": campaign,
        "settings": services.npc_settings(campaign),
        "errors": errors,
        "posted": request.POST,
    }
    return render(request, "npcs/settings.html", context, status=400 if errors else 200)


# Minions ---------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def group_new(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request.user, pk, gm=True)
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            group = services.group_create(
                user=request.user,
                campaign_id=campaign.pk,
                block_id=request.POST.get("block", ""),
                name=request.POST.get("name", ""),
                count=request.POST.get("count", ""),
            )
        except NpcRefused as refused:
            errors = refused.errors
        else:
            messages.success(request, f"Made {group.name}: {group.members.count()} members.")
            return redirect("minion_group", pk=group.pk)
    context = {
        "campaign": campaign,
        "blocks": campaign.characters.filter(npc__isnull=False).order_by("name", "pk"),
        "errors": errors,
        "posted": request.POST,
        "least": MIN_MEMBERS,
        "most": MAX_MEMBERS,
    }
    return render(request, "npcs/group_new.html", context, status=400 if errors else 200)


def _group_page(request: HttpRequest, pk: int, errors: dict[str, str], status: int = 200):
    group = minion_group_for(request.user, pk)
    members, fields = services.group_state(group)
    context = {
        "group": group,
        "members": members,
        "fields": fields,
        "errors": errors,
        "posted": request.POST,
        "sheet_url": reverse("character_sheet", kwargs={"pk": group.block_id}),
        # The group rolls with its stat block's traits: the block's own roll menu.
        "rolls_url": reverse("roll_menu", kwargs={"pk": group.block_id}),
    }
    return render(request, "npcs/group.html", context, status=status)


@require_GET
@login_required
def minion_group(request: HttpRequest, pk: int) -> HttpResponse:
    return _group_page(request, pk, {})


@require_POST
@login_required
def minion_hit(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        member = services.member_hit(
            user=request.user,
            group_id=pk,
            member_id=request.POST.get("member", ""),
            raw=request.POST,
            expected_version=_version(request),
        )
    except NpcRefused as refused:
        return _group_page(request, pk, refused.errors, status=400)
    except StaleNpc as stale:
        return _group_page(request, pk, {"member": str(stale)}, status=409)
    messages.success(request, f"Marked the hit on {member.label}.")
    return redirect("minion_group", pk=pk)


@require_POST
@login_required
def minion_heal(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        member = services.member_heal(
            user=request.user,
            group_id=pk,
            member_id=request.POST.get("member", ""),
            expected_version=_version(request),
        )
    except NpcRefused as refused:
        return _group_page(request, pk, refused.errors, status=400)
    except StaleNpc as stale:
        return _group_page(request, pk, {"member": str(stale)}, status=409)
    messages.success(request, f"Cleared the wounds of {member.label}.")
    return redirect("minion_group", pk=pk)
