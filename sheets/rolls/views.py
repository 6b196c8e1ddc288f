"""Roll pages: the modifiers and odds of one rollable, the roll, and the logs that poll.

A roll page answers GET (the form, the odds; its query string carries the modifiers so it
works without JavaScript) and POST (the roll). htmx asks `roll_odds` on every change and
swaps only the odds; the logs are polled every 2 s for entries the page does not show yet
(see RollLog: newer than the last shown, or written lately and not among those shown).
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods
from django.views.decorators.vary import vary_on_headers

from rulesets.core.parsing import YES, ascii_number
from sheets.characters.models import Character
from sheets.live.services import nothing_new_at_table
from sheets.permissions import CharacterAccess, Need, campaign_for, character_for
from sheets.rolls import context as roll_context
from sheets.rolls.hits import MARK, HitRefused, hit_mark
from sheets.rolls.services import (
    CAMPAIGN,
    POWER_SOAK,
    RollRefused,
    roll_make,
    roll_power_soak,
    sheet_log,
    sheet_recent_ids,
    spend_between,
    table_log,
    table_recent_ids,
)

PAGE = "rolls/roll.html"


def _page(
    request: HttpRequest,
    character: Character,
    access: CharacterAccess,
    key: str,
    raw: Mapping[str, str],
    *,
    errors: Mapping[str, str] | None = None,
    rolled: int | None = None,
    template: str = PAGE,
    unknown_is_404: bool = False,
    spent: int | None = None,
    between_raw: Mapping[str, str] | None = None,
) -> HttpResponse:
    context = roll_context.page_context(
        request.user,
        character,
        access,
        key,
        raw,
        errors=errors,
        rolled=rolled,
        spent=spent,
        between_raw=between_raw,
    )
    if unknown_is_404 and key and context["setup"] is None:
        raise Http404("This sheet has nothing of that name to roll.")
    status = 400 if context["errors"] and not request.htmx else 200
    return render(request, template, context, status=status)


@require_GET
@login_required
def roll_menu(request: HttpRequest, pk: int) -> HttpResponse:
    """What this sheet can roll, and its log."""
    character, access = character_for(request.user, pk, Need.EDIT)
    return _page(request, character, access, "", {})


@require_http_methods(["GET", "POST"])
@login_required
@vary_on_headers("HX-Request")
def character_roll(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    if request.method == "POST":
        return _roll(request, pk, key)
    character, access = character_for(request.user, pk, Need.EDIT)
    rolled = ascii_number(request.GET.get("rolled", ""))
    return _page(request, character, access, key, request.GET, rolled=rolled, unknown_is_404=True)


def _drawn_campaign(request: HttpRequest) -> int | None:
    """The table the posted page was drawn for (None: none), or a refusal when the form
    names something that is no table's number."""
    text = request.POST.get("campaign", "").strip()
    drawn = ascii_number(text) if text else None
    if text and drawn is None:
        raise RollRefused({CAMPAIGN: "This form names no table; reload the page."})
    return drawn


def _roll(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    if request.POST.get("step", "") == POWER_SOAK:
        return _power_soak(request, pk, key)
    try:
        drawn = _drawn_campaign(request)
        entry = roll_make(
            user=request.user,
            character_id=pk,
            rollable_key=key,
            raw=request.POST,
            secret=request.POST.get("secret", "").strip().lower() in YES,
            drawn_campaign=drawn,
        )
    except RollRefused as refused:
        character, access = character_for(request.user, pk, Need.EDIT)
        template = f"{PAGE}#panel" if request.htmx else PAGE
        return _page(
            request, character, access, key, request.POST, errors=refused.errors, template=template
        )
    if request.htmx:
        character, access = character_for(request.user, pk, Need.EDIT)
        response = _page(
            request, character, access, key, request.POST, rolled=entry.pk, template=f"{PAGE}#panel"
        )
        # The log polls every 2 s; this makes it fetch the new roll at once.
        response["HX-Trigger"] = "rolled"
        return response
    query = roll_context.kept_query(request.POST) | {"rolled": str(entry.pk)}
    url = reverse("character_roll", args=[pk, key])
    return redirect(f"{url}?{urlencode(query)}#roll-result")


def _power_soak(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    """The second step of a soak: current Power spent once its result is seen (SWd10,
    000:L106), posted from the soak's result with the soak's number."""
    soak_id = ascii_number(request.POST.get("roll", "").strip())
    try:
        drawn = _drawn_campaign(request)
        if soak_id is None:
            raise RollRefused({POWER_SOAK: "This form names no soak; roll it again."})
        entry = roll_power_soak(
            user=request.user,
            character_id=pk,
            roll_id=soak_id,
            raw=request.POST,
            drawn_campaign=drawn,
        )
    except RollRefused as refused:
        character, access = character_for(request.user, pk, Need.EDIT)
        template = f"{PAGE}#panel" if request.htmx else PAGE
        return _page(
            request, character, access, key, {}, errors=refused.errors, rolled=soak_id,
            template=template,
        )  # fmt: skip
    if request.htmx:
        character, access = character_for(request.user, pk, Need.EDIT)
        response = _page(
            request, character, access, key, {}, rolled=entry.pk, template=f"{PAGE}#panel"
        )
        response["HX-Trigger"] = "rolled"
        return response
    url = reverse("character_roll", args=[pk, key])
    return redirect(f"{url}?{urlencode({'rolled': entry.pk})}#roll-result")


@require_http_methods(["GET", "POST"])
@login_required
def character_spend(request: HttpRequest, pk: int) -> HttpResponse:
    """Spends between rolls (SWd10: a Destiny point once a scene or on a use no roll
    carries, current Power at a round's start, a full rest): GET draws the roll page with
    them (and the spend just made, `spent`); POST makes one, then back to that page. A
    refusal is drawn beside its form, nothing stored."""
    if request.method == "GET":
        character, access = character_for(request.user, pk, Need.EDIT)
        spent = ascii_number(request.GET.get("spent", ""))
        return _page(request, character, access, "", {}, spent=spent)
    action = request.POST.get("spend", "").strip()[:40]
    try:
        drawn = _drawn_campaign(request)
        entry = spend_between(
            user=request.user,
            character_id=pk,
            action=action,
            raw=request.POST,
            drawn_campaign=drawn,
        )
    except RollRefused as refused:
        character, access = character_for(request.user, pk, Need.EDIT)
        return _page(
            request, character, access, "", {}, errors=refused.errors, between_raw=request.POST
        )
    url = reverse("character_spend", args=[pk])
    return redirect(f"{url}?{urlencode({'spent': entry.pk})}#spends")


@require_GET
@login_required
def roll_odds(request: HttpRequest, pk: int, key: str) -> HttpResponse:
    """The odds fragment for the modifiers as they stand, and each field's message."""
    character, access = character_for(request.user, pk, Need.EDIT)
    return _page(
        request,
        character,
        access,
        key,
        request.GET,
        template=f"{PAGE}#odds-response",
        unknown_is_404=True,
    )


def _log_response(request: HttpRequest, log: roll_context.RollLog) -> HttpResponse:
    if request.htmx:
        if not log.entries:
            # Nothing new: htmx swaps nothing on a 204 and keeps polling.
            return HttpResponse(status=204)
        return render(request, "rolls/_log_update.html", {"log": log})
    return render(request, "rolls/log.html", {"log": log})


def _after(request: HttpRequest) -> int:
    return ascii_number(request.GET.get("after", "")) or 0


def _polled(request: HttpRequest) -> frozenset[int] | None:
    """The ids the polling page shows (None: a page drawn whole, not a poll)."""
    if not request.htmx or "seen" not in request.GET:
        return None
    return roll_context.parse_seen(request.GET.get("seen", ""))


def _still_seen(seen: frozenset[int], entries: list, recent: frozenset[int]) -> frozenset[int]:
    """What the page shows after this answer that a next poll could bring again."""
    return (seen | {entry.pk for entry in entries}) & recent


@require_GET
@login_required
@vary_on_headers("HX-Request")
def campaign_roll_log(request: HttpRequest, pk: int) -> HttpResponse:
    after, seen = _after(request), _polled(request)
    if seen is not None and nothing_new_at_table(request.user, pk, after, seen):
        return HttpResponse(status=204)  # a poll with nothing new: one indexed read
    campaign, role = campaign_for(request.user, pk)
    entries = list(table_log(request.user, campaign, after=after, seen=seen, role=role))
    if seen is not None:
        seen = _still_seen(seen, entries, table_recent_ids(request.user, campaign, role))
    log = roll_context.table_roll_log(campaign, role, entries, after=after, seen=seen)
    return _log_response(request, log)


@require_GET
@login_required
@vary_on_headers("HX-Request")
def character_roll_log(request: HttpRequest, pk: int) -> HttpResponse:
    character, access = character_for(request.user, pk, Need.RECORDS)
    after, seen = _after(request), _polled(request)
    entries = list(sheet_log(character, access, after=after, seen=seen))
    if seen is not None:
        seen = _still_seen(seen, entries, sheet_recent_ids(character, access))
    log = roll_context.sheet_roll_log(character, entries, after=after, seen=seen)
    return _log_response(request, log)


# Hits -------------------------------------------------------------------------------------

HIT_PAGE = "rolls/hit.html"


def _hit_page(
    request: HttpRequest,
    pk: int,
    raw: Mapping[str, str],
    *,
    errors: Mapping[str, str] | None = None,
    marked: int | None = None,
) -> HttpResponse:
    character, access = character_for(request.user, pk, Need.EDIT)
    context = roll_context.hit_context(
        request.user, character, access, raw, errors=errors, marked=marked
    )
    status = 400 if context["errors"] and request.method == "POST" else 200
    return render(request, HIT_PAGE, context, status=status)


@require_http_methods(["GET", "POST"])
@login_required
def character_hit(request: HttpRequest, pk: int) -> HttpResponse:
    """Mark a hit on this sheet: an attack roll's (`roll`), or one entered by hand. GET
    shows what it would mark; POST marks it (the target's version as the form saw it)."""
    if request.method == "GET":
        marked = ascii_number(request.GET.get("marked", ""))
        return _hit_page(request, pk, request.GET, marked=marked)
    roll_text = request.POST.get("roll", "").strip()
    roll_id = ascii_number(roll_text) if roll_text else None
    version = ascii_number(request.POST.get("version", "").strip())
    try:
        if roll_text and roll_id is None:
            raise HitRefused({MARK: "This form names no roll; start again from the roll."})
        if version is None:
            raise HitRefused({MARK: "This form names no version of the sheet; reload it."})
        entry = hit_mark(
            user=request.user,
            target_id=pk,
            raw=request.POST,
            expected_version=version,
            roll_id=roll_id,
        )
    except HitRefused as refused:
        return _hit_page(request, pk, request.POST, errors=refused.errors)
    url = reverse("character_hit", args=[pk])
    return redirect(f"{url}?{urlencode({'marked': entry.pk})}#hit-marked")
