"""Campaign pages: thin views that load through the selector, call a service, render.

Everyone at a table sees its page; a GM's page adds the dashboard of every sheet, the
invitations, the members and the house rules. Refused input re-renders the page with the
message beside its field and answers 400 (a 200 fragment for htmx, which swaps only 2xx).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, IntegerField, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from rulesets.core import Setting, Status, resolve_settings
from rulesets.core.parsing import ascii_number
from rulesets.registry import get_ruleset, ready_systems
from sheets.advancement.figures import figures, unit_of, units_of, with_figures
from sheets.campaigns import services, state
from sheets.campaigns.models import Campaign, Invitation, Membership, Role
from sheets.campaigns.services import CampaignRefused, SettingsRefused
from sheets.characters.models import Character, ReviewState
from sheets.history.models import Revision
from sheets.list_filters import Filters
from sheets.permissions import (
    campaign_for,
    dashboard_vehicles,
    notes_left_behind,
    own_characters,
    players_sheets,
    role_change_refusal,
    table_minion_groups,
    table_npcs,
    visible_campaigns,
)
from sheets.printing.services import table_print_context

DETAIL = "campaigns/detail.html"


# My campaigns and a new one ---------------------------------------------------------------


@require_GET
@login_required
def campaign_list(request: HttpRequest) -> HttpResponse:
    my_role = Membership.objects.filter(campaign=OuterRef("pk"), user=request.user).values("role")
    sheet_count = (
        Character.objects.filter(campaign=OuterRef("pk"))
        .order_by()
        .values("campaign")
        .annotate(count=Count("pk"))
        .values("count")
    )
    # Sheets submitted and not yet decided: what waits for the table's GM.
    awaiting = (
        Character.objects.filter(campaign=OuterRef("pk"), review_state=ReviewState.SUBMITTED)
        .order_by()
        .values("campaign")
        .annotate(count=Count("pk"))
        .values("count")
    )
    campaigns = visible_campaigns(request.user)
    # The list's GET filters, applied in the database.
    filters = Filters()
    name = filters.search(request.GET)
    system = filters.choice(
        request.GET, "system", "System", [(info.key, info.name) for info in ready_systems()]
    )
    if name:
        campaigns = campaigns.filter(name__icontains=name)
    if system:
        campaigns = campaigns.filter(system=system)
    campaigns = campaigns.annotate(
        my_role=Subquery(my_role[:1]),
        sheet_count=Coalesce(Subquery(sheet_count), Value(0), output_field=IntegerField()),
        awaiting_review=Coalesce(Subquery(awaiting), Value(0), output_field=IntegerField()),
    )
    return render(
        request,
        "campaigns/list.html",
        {"campaigns": campaigns, "gm_role": Role.GM, "filters": filters},
    )


@require_http_methods(["GET", "POST"])
@login_required
def campaign_new(request: HttpRequest) -> HttpResponse:
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            campaign = services.campaign_create(
                user=request.user,
                name=request.POST.get("name", ""),
                system=request.POST.get("system", ""),
                description=request.POST.get("description", ""),
            )
        except CampaignRefused as refused:
            errors[refused.field or "name"] = refused.message
        else:
            messages.success(request, f"“{campaign.name}” is open. Invite your players below.")
            return redirect("campaign_detail", pk=campaign.pk)
    return render(
        request,
        "campaigns/new.html",
        {"systems": ready_systems(), "errors": errors, "posted": request.POST},
        status=400 if errors else 200,
    )


# The campaign page -----------------------------------------------------------------------


@dataclass(frozen=True)
class ReadingInForce:
    """One house rule as the table plays it, beside what the book says."""

    setting: Setting
    value_label: str
    book_label: str
    differs: bool


@dataclass(frozen=True)
class SheetRow:
    """One line of the GM's dashboard."""

    character: Character
    status: Status
    last_change_at: datetime | None
    last_change_by: str | None
    # What purchases waiting for the GM's consent hold of the unspent figure.
    held: int = 0
    # Points from elsewhere that wait for the GM's acceptance, left out of the unspent.
    waiting: int = 0
    unit: str = ""


@dataclass(frozen=True)
class InvitationRow:
    invitation: Invitation
    link: str
    state: str


def _readings(campaign: Campaign) -> list[ReadingInForce]:
    ruleset = get_ruleset(campaign.system)
    in_force = resolve_settings(ruleset.SETTINGS, campaign.rule_settings)
    return [
        ReadingInForce(
            setting,
            setting.label_for(in_force[setting.key]),
            setting.label_for(setting.default),
            in_force[setting.key] != setting.default,
        )
        for setting in ruleset.SETTINGS
    ]


def dashboard_rows(campaign: Campaign) -> list[SheetRow]:
    """Every sheet of the table in one query, however many there are.

    The last change and its author come from subqueries on the revisions, and each
    status is the engine's answer kept by version (`state`): only a sheet changed since
    the page was last drawn is checked, so 50 sheets cost little more than 5.
    """
    latest = Revision.objects.filter(character=OuterRef("pk")).order_by("-version")
    characters = with_figures(players_sheets(campaign).select_related("owner")).annotate(
        last_change_at=Subquery(latest.values("created_at")[:1]),
        last_change_by=Subquery(latest.values("author__username")[:1]),
    )
    ruleset = get_ruleset(campaign.system)
    in_force = resolve_settings(ruleset.SETTINGS, campaign.rule_settings)
    ordered = list(characters.order_by("owner__username", "name", "pk"))
    status_of = state.statuses(ruleset, ordered, in_force)
    rows = []
    for character in ordered:
        known = figures(character)
        rows.append(
            SheetRow(
                character,
                status_of[character.pk],
                character.last_change_at,
                character.last_change_by,
                known.held,
                known.waiting,
                unit_of(character),
            )
        )
    return rows


def invitation_state(invitation: Invitation, now: datetime) -> str:
    if invitation.revoked_at is not None:
        return "revoked"
    if invitation.expires_at is not None and invitation.expires_at <= now:
        return "expired"
    if invitation.max_uses is not None and invitation.uses >= invitation.max_uses:
        return "used up"
    return "live"


def _invitations_context(
    request: HttpRequest,
    campaign: Campaign,
    errors: Mapping[str, str] | None = None,
    posted: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    now = timezone.now()
    rows = [
        InvitationRow(
            invitation,
            request.build_absolute_uri(reverse("campaign_join", args=[invitation.token])),
            invitation_state(invitation, now),
        )
        for invitation in campaign.invitations.all()
    ]
    return {
        "campaign": campaign,
        "invitations": rows,
        "invite_errors": errors or {},
        "invite_posted": posted or {},
        "timezone_name": timezone.get_current_timezone_name(),
    }


def _detail_context(
    request: HttpRequest,
    campaign: Campaign,
    role: Role,
    *,
    errors: Mapping[str, str] | None = None,
    posted: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    mine = own_characters(request.user)
    context: dict[str, Any] = {
        "campaign": campaign,
        "is_gm": role is Role.GM,
        # Each member with the refusal of an action on them, shown on their line.
        "members": [
            (member, errors.get(f"member-{member.pk}", "") if errors else "")
            for member in campaign.memberships.select_related("user")
        ],
        "readings": _readings(campaign),
        "my_sheets_here": list(mine.filter(campaign=campaign)),
        # The table's NPCs apart from the players' sheets: a player gets the revealed ones.
        "npcs": list(table_npcs(request.user, campaign)),
        # Vehicles apart too: the table's and its NPCs' for a GM, a player's own and the table's.
        "dashboard_vehicles": dashboard_vehicles(request.user, campaign),
        "eligible": list(mine.filter(system=campaign.system, campaign__isnull=True)),
        "errors": errors or {},
        "posted": posted or {},
        "gm_role": Role.GM,
        "player_role": Role.PLAYER,
    }
    if role is Role.GM:
        context["dashboard"] = rows = dashboard_rows(campaign)
        # Awards are counted in the system's own unit (WEG: Character Points), as is what
        # waits for this GM's acceptance (issue 24, item 19; issue 25, item 3).
        context["award_unit"] = units_of(
            campaign.system, [row.character.sheet for row in rows], campaign.rule_settings
        )
        waiting = [row for row in rows if row.waiting]
        context["waiting_total"] = sum(row.waiting for row in waiting)
        context["waiting_unit"] = " or ".join(sorted({row.unit for row in waiting}))
        context |= _invitations_context(request, campaign, errors, posted)
        context |= table_print_context(campaign)
        context["notes_left_behind"] = list(notes_left_behind(request.user, campaign))
        context["minion_groups"] = list(table_minion_groups(request.user, campaign))
        # Members whose role this GM may not change (the creator, for a co-GM): no button.
        context["roles_fixed"] = {
            member.pk
            for member, _ in context["members"]
            if role_change_refusal(request.user, campaign, member)
        }
    return context


def _detail(
    request: HttpRequest,
    campaign: Campaign,
    role: Role,
    *,
    errors: Mapping[str, str] | None = None,
    posted: Mapping[str, str] | None = None,
) -> HttpResponse:
    context = _detail_context(request, campaign, role, errors=errors, posted=posted)
    return render(request, DETAIL, context, status=400 if errors else 200)


@require_GET
@login_required
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, role = campaign_for(request.user, pk)
    return _detail(request, campaign, role)


@require_http_methods(["GET", "POST"])
@login_required
def campaign_edit(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request.user, pk, gm=True)
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            services.campaign_update(
                user=request.user,
                campaign_id=campaign.pk,
                name=request.POST.get("name", ""),
                description=request.POST.get("description", ""),
            )
        except CampaignRefused as refused:
            errors[refused.field or "name"] = refused.message
        else:
            messages.success(request, "Saved the campaign's name and description.")
            return redirect("campaign_detail", pk=campaign.pk)
    posted = (
        request.POST if errors else {"name": campaign.name, "description": campaign.description}
    )
    return render(
        request,
        "campaigns/edit.html",
        {"campaign": campaign, "errors": errors, "posted": posted},
        status=400 if errors else 200,
    )


# Invitations -------------------------------------------------------------------------------


def _expiry_from(raw: str) -> datetime | None:
    """Read a datetime-local value ("2025-05-01T20:00") in the site's time zone."""
    text = raw.strip()
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise CampaignRefused(
            "Give a date and a time, like 2030-05-01 20:00, or leave it empty.", "expires_at"
        ) from None
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment


def _max_uses_from(raw: str) -> int | None:
    text = raw.strip()
    if not text:
        return None
    uses = ascii_number(text)
    if uses is None:
        raise CampaignRefused("Give a whole number of uses, or leave it empty.", "max_uses")
    return uses


def _invitations_response(
    request: HttpRequest,
    campaign: Campaign,
    errors: Mapping[str, str] | None = None,
) -> HttpResponse:
    posted = request.POST if errors else None
    if request.htmx:
        context = _invitations_context(request, campaign, errors, posted)
        return render(request, f"{DETAIL}#invitations", context)
    if errors:
        return _detail(request, campaign, Role.GM, errors=errors, posted=posted)
    return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#invitations")


@require_POST
@login_required
@vary_on_headers("HX-Request")
def campaign_invite(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request.user, pk, gm=True)
    try:
        services.invitation_create(
            user=request.user,
            campaign_id=campaign.pk,
            expires_at=_expiry_from(request.POST.get("expires_at", "")),
            max_uses=_max_uses_from(request.POST.get("max_uses", "")),
        )
    except CampaignRefused as refused:
        return _invitations_response(request, campaign, {refused.field: refused.message})
    if not request.htmx:
        messages.success(request, "Made a new invitation link: copy it to your players.")
    return _invitations_response(request, campaign)


@require_POST
@login_required
@vary_on_headers("HX-Request")
def campaign_invite_revoke(request: HttpRequest, pk: int, invitation_pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request.user, pk, gm=True)
    try:
        services.invitation_revoke(
            user=request.user, campaign_id=campaign.pk, invitation_id=invitation_pk
        )
    except CampaignRefused as refused:
        return _invitations_response(
            request, campaign, {f"invitation-{invitation_pk}": str(refused)}
        )
    if not request.htmx:
        messages.success(request, "Revoked the invitation: its link no longer lets anyone in.")
    return _invitations_response(request, campaign)


@require_http_methods(["GET", "POST"])
@login_required
def campaign_join(request: HttpRequest, token: str) -> HttpResponse:
    invitation = services.invitation_by_token(token)
    # The look-up reads a token's first 64 characters; a longer one is no link we made.
    if invitation is None or invitation.token != token:
        return render(
            request,
            "campaigns/join.html",
            {"refusal": "This invitation link is not valid. Check it with your GM."},
            status=404,
        )
    campaign = invitation.campaign
    gms = [m.user for m in campaign.memberships.filter(role=Role.GM).select_related("user")]
    already = campaign.memberships.filter(user=request.user).exists()
    context = {"campaign": campaign, "gms": gms, "token": invitation.token, "member": already}
    refusal = (
        f"You are already at the table of “{campaign.name}”." if already else invitation.refusal()
    )
    if request.method == "POST" and not refusal:
        try:
            services.campaign_join(user=request.user, token=invitation.token)
        except CampaignRefused as refused:
            refusal = refused.message
        else:
            messages.success(request, f"Welcome to “{campaign.name}”.")
            return redirect("campaign_detail", pk=campaign.pk)
    return render(
        request,
        "campaigns/join.html",
        context | {"refusal": refusal},
        status=400 if refusal else 200,
    )


# Members -----------------------------------------------------------------------------------


def _member(campaign: Campaign, membership_pk: int) -> Membership:
    member = campaign.memberships.select_related("user").filter(pk=membership_pk).first()
    if member is None:
        raise Http404("No such member at this table.")
    return member


@require_http_methods(["GET", "POST"])
@login_required
def campaign_member_remove(request: HttpRequest, pk: int, membership_pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request.user, pk, gm=True)
    member = _member(campaign, membership_pk)
    error = ""
    if request.method == "POST":
        try:
            name = services.member_remove(
                user=request.user, campaign_id=campaign.pk, membership_id=member.pk
            )
        except CampaignRefused as refused:
            error = refused.message
        else:
            messages.success(
                request, f"Removed {name} from the table; their characters stay theirs."
            )
            return redirect("campaign_detail", pk=campaign.pk)
    sheets = campaign.characters.filter(owner=member.user)
    return render(
        request,
        "campaigns/confirm_remove.html",
        {"campaign": campaign, "member": member, "sheets": sheets, "error": error},
        status=400 if error else 200,
    )


@require_POST
@login_required
def campaign_member_role(request: HttpRequest, pk: int, membership_pk: int) -> HttpResponse:
    campaign, role = campaign_for(request.user, pk, gm=True)
    try:
        member = services.member_set_role(
            user=request.user,
            campaign_id=campaign.pk,
            membership_id=membership_pk,
            role=request.POST.get("role", ""),
        )
    except CampaignRefused as refused:
        return _detail(request, campaign, role, errors={f"member-{membership_pk}": refused.message})
    who = member.user.get_username()
    said = "a GM of the table" if member.role == Role.GM else "a player again"
    messages.success(request, f"{who} is now {said}.")
    if member.user_id == request.user.pk and member.role != Role.GM:
        # A GM who made themselves a player no longer sees the GM's page parts.
        return redirect("campaign_detail", pk=campaign.pk)
    return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#members")


@require_http_methods(["GET", "POST"])
@login_required
def campaign_leave(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request.user, pk)
    error = ""
    if request.method == "POST":
        try:
            services.campaign_leave(user=request.user, campaign_id=campaign.pk)
        except CampaignRefused as refused:
            error = refused.message
        else:
            messages.success(
                request, f"You left “{campaign.name}”. Your characters are still yours."
            )
            return redirect("campaign_list")
    sheets = own_characters(request.user).filter(campaign=campaign)
    return render(
        request,
        "campaigns/confirm_leave.html",
        {"campaign": campaign, "sheets": sheets, "error": error},
        status=400 if error else 200,
    )


# Characters at the table -------------------------------------------------------------------


@require_POST
@login_required
def campaign_bring(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, role = campaign_for(request.user, pk)
    raw = request.POST.get("character", "")
    try:
        character_id = ascii_number(raw)
        if character_id is None:
            raise CampaignRefused("Pick one of your characters.", "character")
        character = services.character_bring(
            user=request.user, campaign_id=campaign.pk, character_id=character_id
        )
    except CampaignRefused as refused:
        return _detail(
            request, campaign, role, errors={"character": refused.message}, posted=request.POST
        )
    messages.success(request, f"“{character.name}” joined the table.")
    return redirect("campaign_detail", pk=campaign.pk)


# House rules -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SettingField:
    """One house rule as a form field: a select for choices and yes/no, else a number."""

    setting: Setting
    kind: str  # "select" or "number"
    value: str
    options: tuple[tuple[str, str], ...]
    differs: bool
    book_label: str
    error: str


def _as_field_value(setting: Setting, value: Any) -> str:
    if isinstance(setting.default, bool) and not setting.choices:
        return "yes" if value else "no"
    return str(value)


def _setting_fields(
    campaign: Campaign,
    submitted: Mapping[str, str] | None = None,
    errors: Mapping[str, str] | None = None,
) -> list[SettingField]:
    ruleset = get_ruleset(campaign.system)
    in_force = resolve_settings(ruleset.SETTINGS, campaign.rule_settings)
    submitted = submitted or {}
    errors = errors or {}
    fields = []
    for setting in ruleset.SETTINGS:
        if setting.choices:
            kind = "select"
            options = tuple((str(value), label) for value, label in setting.choices)
        elif isinstance(setting.default, bool):
            kind = "select"
            options = (("yes", "yes"), ("no", "no"))
        else:
            kind = "number"
            options = ()
        current = _as_field_value(setting, in_force[setting.key])
        fields.append(
            SettingField(
                setting,
                kind,
                submitted.get(setting.key, current),
                options,
                in_force[setting.key] != setting.default,
                setting.label_for(setting.default)
                if setting.choices or not isinstance(setting.default, bool)
                else _as_field_value(setting, setting.default),
                errors.get(setting.key, ""),
            )
        )
    return fields


def _submitted_settings(campaign: Campaign, post: Mapping[str, str]) -> dict[str, str]:
    keys = {setting.key for setting in get_ruleset(campaign.system).SETTINGS}
    return {key: post[key] for key in keys if key in post}


@require_http_methods(["GET", "POST"])
@login_required
def campaign_settings(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, _ = campaign_for(request.user, pk, gm=True)
    if request.method == "GET":
        return _settings_page(request, campaign)
    submitted = _submitted_settings(campaign, request.POST)
    version = ascii_number(request.POST.get("version", ""))
    try:
        campaign, broken, saved = services.campaign_settings_save(
            user=request.user,
            campaign_id=campaign.pk,
            submitted=submitted,
            expected_version=-1 if version is None else version,
            confirmed=request.POST.get("confirmed") == "1",
        )
    except SettingsRefused as refused:
        return _settings_page(request, campaign, submitted, refused.errors, status=400)
    except CampaignRefused as refused:
        campaign.refresh_from_db()
        return _settings_page(request, campaign, conflict=refused.message, status=409)
    if saved:
        broke = f" {len(broken)} sheet(s) now need work." if broken else ""
        messages.success(request, f"Saved the house rules.{broke}")
        return redirect("campaign_detail", pk=campaign.pk)
    if broken:
        return render(
            request,
            "campaigns/confirm_settings.html",
            {"campaign": campaign, "broken": broken, "submitted": submitted},
        )
    messages.success(request, "Nothing to save: these are the house rules already in force.")
    return redirect("campaign_detail", pk=campaign.pk)


def _settings_page(
    request: HttpRequest,
    campaign: Campaign,
    submitted: Mapping[str, str] | None = None,
    errors: Mapping[str, str] | None = None,
    *,
    conflict: str = "",
    status: int = 200,
) -> HttpResponse:
    context = {
        "campaign": campaign,
        "fields": _setting_fields(campaign, submitted, errors),
        "errors": errors or {},
        "conflict": conflict,
    }
    return render(request, "campaigns/settings.html", context, status=status)
