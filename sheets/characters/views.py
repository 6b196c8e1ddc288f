"""Character pages: thin views that load through the selector, call a service, render."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.db.models import F, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import reswap, retarget

from rulesets.core import InvalidEdit, Setting, Status, resolve_settings
from rulesets.core.parsing import ascii_number
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.advancement.figures import engine_sheet, figures, keep_figures, with_figures
from sheets.campaigns.models import Campaign
from sheets.campaigns.services import CampaignRefused, character_take_out
from sheets.characters.layouts import (
    SHELL,
    Snapshot,
    drawn_swaps,
    edit_context,
    review_status,
    sheet_context,
)
from sheets.characters.layouts.base import trait_dom_id
from sheets.characters.layouts.compendium import pickable_kinds, picker_choices
from sheets.characters.models import Character, GMNote, Review, ReviewState
from sheets.characters.services import (
    PICK_TRAIT,
    ActionRefused,
    EditRefused,
    StaleVersion,
    character_apply_edits,
    character_approve,
    character_delete,
    character_duplicate,
    character_request_changes,
    character_submit,
    gm_note_save,
    share_link_create,
    share_link_revoke,
)
from sheets.compendium.models import Book
from sheets.compendium.services import (
    TEMPLATE_FIELD,
    character_create_from_template,
    template_choices,
)
from sheets.history.revisions import HistoryBroken, as_changes, change_lines, state_at
from sheets.list_filters import Filters
from sheets.permissions import (
    CharacterAccess,
    Need,
    book_entries,
    campaign_for,
    character_access,
    character_for,
    own_characters,
    shared_character,
    trait_refusal,
)

# A shared page's viewer: sees the sheet, sets nothing.
NOBODY = CharacterAccess()


@dataclass(frozen=True)
class Listed:
    """One line of "My characters": the character and what its ruleset says of it."""

    character: Character
    status: Status
    # What purchases waiting for the GM's consent hold of the unspent figure.
    held: int


def _status(character: Character) -> Status:
    ruleset = get_ruleset(character.system)
    return ruleset.status(
        engine_sheet(character), resolve_settings(ruleset.SETTINGS, character.readings_in_force)
    )


@require_GET
@login_required
def character_list(request: HttpRequest) -> HttpResponse:
    characters, filters = _filtered(request.user, request.GET)
    listed = [
        Listed(character, _status(character), figures(character).held)
        for character in with_figures(characters)
    ]
    return render(
        request,
        "characters/list.html",
        {"characters": listed, "change_requests": _change_requests(listed), "filters": filters},
    )


# The review filter's choices: the labels the list shows ("changed" is an approval the
# sheet has moved on from since).
REVIEW_CHOICES = [
    (ReviewState.DRAFT.value, ReviewState.DRAFT.label),
    (ReviewState.SUBMITTED.value, ReviewState.SUBMITTED.label),
    (ReviewState.CHANGES_REQUESTED.value, ReviewState.CHANGES_REQUESTED.label),
    (ReviewState.APPROVED.value, ReviewState.APPROVED.label),
    ("changed", "Changed since approval"),
]
NO_TABLE = "none"


def _filtered(user: AbstractBaseUser, query: Mapping[str, str]) -> tuple[QuerySet, Filters]:
    """My characters narrowed in the database by the list's GET filters."""
    characters = own_characters(user)
    tables = Campaign.objects.filter(pk__in=characters.values("campaign"))
    filters = Filters()
    name = filters.search(query)
    system = filters.choice(query, "system", "System", [(k, i.name) for k, i in SYSTEMS.items()])
    table = filters.choice(
        query,
        "campaign",
        "Campaign",
        [(NO_TABLE, "No table"), *((str(c.pk), c.name) for c in tables)],
    )
    review = filters.choice(query, "review", "Review", REVIEW_CHOICES)
    if name:
        characters = characters.filter(name__icontains=name)
    if system:
        characters = characters.filter(system=system)
    if table == NO_TABLE:
        characters = characters.filter(campaign__isnull=True)
    elif table:
        characters = characters.filter(campaign_id=int(table))
    if review:
        # Only a sheet at a table has a review; the list shows none for the others.
        characters = characters.filter(campaign__isnull=False)
        if review in (ReviewState.APPROVED, "changed"):
            approved = characters.filter(review_state=ReviewState.APPROVED)
            unchanged = Q(version=F("review_version"))
            characters = (
                approved.filter(unchanged) if review == "approved" else approved.exclude(unchanged)
            )
        else:
            characters = characters.filter(review_state=review)
    return characters, filters


def _change_requests(listed: list[Listed]) -> list[tuple[Character, Review]]:
    """Each sheet a GM sent back, with the GM's latest request: the player's to-do list,
    read in one query."""
    waiting = {
        entry.character.pk: entry.character
        for entry in listed
        if entry.character.campaign_id is not None
        and entry.character.review_state == ReviewState.CHANGES_REQUESTED
    }
    if not waiting:
        return []
    latest: dict[int, Review] = {}
    requests = Review.objects.filter(
        character_id__in=list(waiting), kind=Review.Kind.CHANGES_REQUESTED
    ).select_related("author")
    for review in requests.order_by("-pk"):
        latest.setdefault(review.character_id, review)
    return [(character, latest[pk]) for pk, character in waiting.items() if pk in latest]


def _campaign_asked(request: HttpRequest) -> Campaign | None:
    """The campaign a new character is made inside (`?campaign=` or the hidden field):
    only a member of it may; anyone else gets 404, as for any campaign they cannot see."""
    raw = request.POST.get("campaign", "") or request.GET.get("campaign", "")
    if not raw:
        return None
    campaign_id = ascii_number(raw)
    if campaign_id is None:
        raise Http404("No such campaign.")
    return campaign_for(request.user, campaign_id)[0]


@require_http_methods(["GET", "POST"])
@login_required
def character_new(request: HttpRequest) -> HttpResponse:
    errors: dict[str, str] = {}
    campaign = _campaign_asked(request)
    if request.method == "POST":
        # Inside a campaign its system is the only choice, whatever was posted.
        system = campaign.system if campaign is not None else request.POST.get("system", "")
        if system not in SYSTEMS:
            errors["system"] = "Pick one of the rule systems below."
        else:
            try:
                # With a template (WEG d6), created and picked from in one transaction.
                character = character_create_from_template(
                    user=request.user,
                    name=request.POST.get("name", ""),
                    system=system,
                    sheet=_sheet_in_edition(system, campaign, request.POST.get("edition", "")),
                    campaign=campaign,
                    template=request.POST.get(f"template_{system}", "").strip(),
                )
            except InvalidEdit as error:
                key = {
                    "character.name": "name",
                    EDITION_SETTING: "edition",
                    TEMPLATE_FIELD: "template",
                }.get(error.trait)
                errors[key or "system"] = error.message
            else:
                return redirect("character_sheet", pk=character.pk)
    return render(
        request,
        "characters/new.html",
        {
            "systems": SYSTEMS.values(),
            "errors": errors,
            "posted": request.POST,
            "campaign": campaign,
            "editions": _editions(campaign),
            "templates": _templates(request, campaign),
        },
        status=400 if errors else 200,
    )


def _templates(request: HttpRequest, campaign: Campaign | None) -> dict[str, dict]:
    """Per system that starts sheets from templates: its choices, and the one posted."""
    systems = [campaign.system] if campaign is not None else [s.key for s in SYSTEMS.values()]
    offered = {}
    for key in systems:
        choices = template_choices(request.user, key, campaign)
        if choices:
            posted = request.POST.get(f"template_{key}", "")
            offered[key] = {"choices": choices, "posted": posted, "name": SYSTEMS[key].name}
    return offered


# A system whose sheets come in editions (WEG d6) declares this reading; a new character
# is offered its choices, with the table's (or the default) edition picked.
EDITION_SETTING = "default_edition"


def _edition_setting(system: str) -> Setting | None:
    return next((s for s in get_ruleset(system).SETTINGS if s.key == EDITION_SETTING), None)


def _editions(campaign: Campaign | None) -> dict[str, dict]:
    """Per system with editions: its choices and the one picked unless the player says."""
    offered = {}
    for key in SYSTEMS:
        if campaign is not None and campaign.system != key:
            continue
        setting = _edition_setting(key)
        if setting is not None:
            in_force = campaign.rule_settings if campaign is not None else {}
            picked = resolve_settings((setting,), in_force)[EDITION_SETTING]
            label = "Edition" if campaign is not None else f"Edition, for {SYSTEMS[key].name}"
            offered[key] = {"choices": setting.choices, "picked": picked, "label": label}
    return offered


def _sheet_in_edition(system: str, campaign: Campaign | None, posted: str) -> dict | None:
    """A blank sheet in the edition the player picked; None to start as the readings say."""
    setting = _edition_setting(system)
    if setting is None or not posted:
        return None
    try:
        edition = setting.coerce(posted)
    except ValueError as error:
        raise InvalidEdit(EDITION_SETTING, str(error)) from None
    ruleset = get_ruleset(system)
    in_force = dict(campaign.rule_settings) if campaign is not None else {}
    chosen = resolve_settings(ruleset.SETTINGS, in_force | {EDITION_SETTING: edition})
    return ruleset.blank_sheet(chosen)


def _between_submissions(character: Character, reviews: list[Review]) -> dict | None:
    """What changed between the last two versions the player submitted (`reviews` newest
    first): what the GM has to look at again after asking for changes, trait by trait.

    Shown while a submission waits for the GM, so the versions rebuilt are recent ones
    (an approved sheet shows what changed since its approval instead)."""
    if character.review_state != ReviewState.SUBMITTED:
        return None
    submitted: list[int] = []
    for review in reviews:
        if review.kind == Review.Kind.SUBMITTED and review.version not in submitted:
            submitted.append(review.version)
            if len(submitted) == 2:
                break
    if len(submitted) < 2:
        return None
    newer, older = submitted
    between = {"older": older, "newer": newer, "changes": [], "error": ""}
    try:
        lines = change_lines(
            character.system,
            state_at(character, older),
            state_at(character, newer),
            character.readings_in_force,
        )
    except HistoryBroken as broken:
        return between | {"error": f"The history cannot show this difference: {broken}"}
    return between | {"changes": as_changes(lines)}


def _page_context(character: Character, access: CharacterAccess, **extra: object) -> dict:
    """What the sheet page shows around the sheet itself: review, GM notes, sharing.

    GM notes are read only for a GM of the table: nothing else puts them in a context.
    """
    reviews = list(character.reviews.select_related("author")[:50])
    context: dict = review_status(character, access) | {
        "reviews": reviews,
        "between_submissions": _between_submissions(character, reviews),
        "gm_note": None,
        "share_links": [],
    }
    if access.gm:
        # Only this table's note: one another table wrote stays with that table.
        context["gm_note"] = GMNote.objects.filter(
            campaign_id=character.campaign_id, character=character
        ).first() or GMNote(campaign_id=character.campaign_id, character=character)
    if access.owner:
        context["share_links"] = list(character.shares.filter(revoked_at__isnull=True))
    return context | extra


def _sheet_page(
    request: HttpRequest,
    character: Character,
    access: CharacterAccess,
    *,
    status: int = 200,
    errors: Mapping[str, str] | None = None,
    submitted: Mapping[str, str] | None = None,
    **extra: object,
) -> HttpResponse:
    context = sheet_context(character, access=access, errors=errors, submitted=submitted)
    context |= _page_context(character, access, **extra)
    return render(request, SHELL, context, status=status)


@require_GET
@login_required
@vary_on_headers("HX-Request")
def character_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    character, access = character_for(request.user, pk)
    return _sheet_page(request, character, access)


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
    """Save a sheet form's edits, then answer with what they changed on the page.

    The write service finds the character under its row lock, checks who may set what,
    applies the edits and writes them with a revision; `before` is the sheet as it found it.
    """
    edits = _edits_from(request.POST)
    expected = _posted_version(request)
    try:
        character, before = _apply_edits(request.user, pk, edits, expected)
    except EditRefused as refused:
        return _refused(request, pk, refused.errors, edits)
    except StaleVersion as stale:
        return _conflict(request, *character_for(request.user, pk), str(stale))
    access = character_access(request.user, character)
    if not request.htmx:
        return _back_to_the_row(character, edits)
    if before.version != expected:
        # Someone else wrote since this page was drawn and the edit merged with it: the
        # page has to show their changes too, not only this one.
        return _merged(request, character, access, since=expected)
    return _edit_response(request, character, access, before)


def _apply_edits(
    user: AbstractBaseUser, pk: int, edits: dict[str, str], expected: int
) -> tuple[Character, Snapshot]:
    """Apply the edits through the write service; with the character written, the sheet as
    the service found it under the row lock, before any change."""
    found: list[Snapshot] = []
    character = character_apply_edits(
        user=user,
        character_id=pk,
        edits=edits,
        expected_version=expected,
        on_locked=lambda locked: found.append(Snapshot.of(keep_figures(locked))),
    )
    # An edit that wrote to the ledger (a paid raise, what finishing creation leaves) dropped
    # the sums kept on the instance: only then is the ledger summed again.
    return keep_figures(character), found[0]


def _back_to_the_row(character: Character, edits: dict[str, str]) -> HttpResponse:
    """Without JavaScript, land back on the row that was edited, not the top of the page."""
    anchor = f"#{trait_dom_id(next(iter(edits)))}" if len(edits) == 1 else ""
    return redirect(reverse("character_sheet", kwargs={"pk": character.pk}) + anchor)


def _refused(
    request: HttpRequest, pk: int, errors: dict[str, str], edits: dict[str, str]
) -> HttpResponse:
    """Show each refusal beside its field; htmx 2 swaps only a 200, so a fragment is 200."""
    character, access = character_for(request.user, pk)
    keep_figures(character)
    if request.htmx:
        return _edit_response(
            request, character, access, Snapshot.of(character), errors=errors, submitted=edits
        )
    return _sheet_page(request, character, access, status=400, errors=errors, submitted=edits)


# Whitespace between two tags that holds a line break, outside the elements that keep
# their whitespace as typed: the templates' indentation, which a browser draws as one space.
_INDENTATION = re.compile(r"(<(textarea|pre)\b.*?</\2>)|>\s*\n\s*(?=<)", re.S | re.I)


# The same, for a response with no such element (most): a simpler pattern, scanned in an
# eighth of the time (a 7.6 KB WEG response: 85 -> 11 us). Their tags come only from the
# templates, in lower case: typed text is escaped and holds no "<".
_INDENTATION_ONLY = re.compile(r">\s*\n\s*<")


def _edit_response(
    request: HttpRequest,
    character: Character,
    access: CharacterAccess,
    before: Snapshot,
    **refusals: Mapping[str, str],
) -> HttpResponse:
    """The fragments an htmx edit swaps, each by its id (the rows, sections and panels that
    changed since `before`, and always the version), without their templates' indentation."""
    context = edit_context(character, access=access, before=before, **refusals)
    context |= review_status(character, access)
    response = render(request, f"{SHELL}#edit-response", drawn_swaps(request, context))
    text = response.content.decode()
    if "<textarea" in text or "<pre" in text:
        response.content = _INDENTATION.sub(lambda kept: kept.group(1) or ">\n", text)
    else:
        response.content = _INDENTATION_ONLY.sub(">\n<", text)
    return response


def _whole_sheet(request: HttpRequest, character: Character, context: dict) -> HttpResponse:
    """An htmx answer that replaces the whole #sheet, whatever the request aimed at."""
    response = render(request, f"{SHELL}#sheet", context)
    return reswap(retarget(response, "#sheet"), "outerHTML")


def _conflict(
    request: HttpRequest, character: Character, access: CharacterAccess, message: str
) -> HttpResponse:
    """Redraw the whole sheet with the current values and say why nothing was saved."""
    context = sheet_context(character, access=access) | _page_context(
        character, access, conflict=message
    )
    if request.htmx:
        return _whole_sheet(request, character, context)
    return render(request, SHELL, context, status=409)


def _merged(
    request: HttpRequest, character: Character, access: CharacterAccess, *, since: int
) -> HttpResponse:
    """Redraw the whole sheet after an edit that merged with someone else's, naming them."""
    others = sorted(
        {
            revision.author.username
            for revision in character.revisions.filter(version__gt=since)
            .exclude(author=request.user)
            .select_related("author")
            if revision.author is not None
        }
    )
    note = f"Also shows changes by {', '.join(others)}." if others else ""
    context = sheet_context(character, access=access) | _page_context(
        character, access, merged=note or "Also shows changes made elsewhere."
    )
    return _whole_sheet(request, character, context)


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
                expected_version=_posted_version(request),
            )
        except StaleVersion:
            messages.error(
                request,
                "The character changed since you opened this page; look again before deleting it.",
            )
            return redirect("character_remove", pk=pk)
        messages.success(request, f"Deleted “{name}”.")
        return redirect("character_list")
    return render(request, "characters/confirm_delete.html", {"character": character})


# Review: the player submits, a GM approves or asks for changes, each at one version.


def _posted_version(request: HttpRequest) -> int:
    """The version a form was drawn at; -1, which no sheet has, when it is not a number."""
    version = ascii_number(request.POST.get("version", ""))
    return -1 if version is None else version


def _review_action(
    request: HttpRequest, pk: int, act: Callable[[int, str], Character], done: str
) -> HttpResponse:
    """Run one review step; a refusal re-draws the page with the reason beside the panel."""
    comment = request.POST.get("comment", "")
    try:
        act(_posted_version(request), comment)
    except ActionRefused as refused:
        character, access = character_for(request.user, pk)
        return _sheet_page(
            request,
            character,
            access,
            status=400,
            review_error=str(refused),
            review_comment=comment,
        )
    messages.success(request, done)
    return redirect(reverse("character_sheet", kwargs={"pk": pk}) + "#review")


@require_POST
@login_required
def character_submit_review(request: HttpRequest, pk: int) -> HttpResponse:
    return _review_action(
        request,
        pk,
        lambda version, _: character_submit(user=request.user, character_id=pk, version=version),
        "Submitted to the GM.",
    )


@require_POST
@login_required
def character_approve_review(request: HttpRequest, pk: int) -> HttpResponse:
    return _review_action(
        request,
        pk,
        lambda version, comment: character_approve(
            user=request.user, character_id=pk, version=version, comment=comment
        ),
        "Approved this version.",
    )


@require_POST
@login_required
def character_request_changes_review(request: HttpRequest, pk: int) -> HttpResponse:
    return _review_action(
        request,
        pk,
        lambda version, comment: character_request_changes(
            user=request.user, character_id=pk, version=version, comment=comment
        ),
        "Asked the player for changes.",
    )


@require_POST
@login_required
def character_gm_note(request: HttpRequest, pk: int) -> HttpResponse:
    text = request.POST.get("text", "")
    try:
        gm_note_save(user=request.user, character_id=pk, text=text)
    except ActionRefused as refused:
        character, access = character_for(request.user, pk, Need.GM)
        return _sheet_page(
            request, character, access, status=400, gm_note_error=str(refused), gm_note_text=text
        )
    messages.success(request, "GM notes saved.")
    return redirect(reverse("character_sheet", kwargs={"pk": pk}) + "#gm-notes")


@require_POST
@login_required
def character_leave_campaign(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        character = character_take_out(user=request.user, character_id=pk)
    except CampaignRefused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, f"“{character.name}” left its table; its readings are yours.")
    return redirect("character_sheet", pk=pk)


# Share links: a read-only sheet and its PDF for people outside the table.


@require_POST
@login_required
def character_share_create(request: HttpRequest, pk: int) -> HttpResponse:
    share_link_create(user=request.user, character_id=pk)
    messages.success(request, "Made a share link: anyone holding it sees this sheet.")
    return redirect(reverse("character_sheet", kwargs={"pk": pk}) + "#share")


@require_POST
@login_required
def character_share_revoke(request: HttpRequest, pk: int, link_id: int) -> HttpResponse:
    try:
        share_link_revoke(user=request.user, character_id=pk, link_id=link_id)
    except ActionRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, "Revoked the share link: it no longer opens the sheet.")
    return redirect(reverse("character_sheet", kwargs={"pk": pk}) + "#share")


@require_GET
def shared_sheet(request: HttpRequest, token: str) -> HttpResponse:
    """The sheet behind a share link, for anyone holding it: read-only, nothing private."""
    character = shared_character(token)
    context = sheet_context(character, access=NOBODY) | {"shared_token": token}
    return render(request, SHELL, context)


@require_GET
@login_required
@vary_on_headers("HX-Request")
def character_readings(request: HttpRequest, pk: int) -> HttpResponse:
    """The sheet's rule readings panel, fetched when it is opened (the sheet page carries
    only those changed from the book): for whoever may read the sheet, the owner's form at
    no table, else the list. For htmx the panel's body; without, a page of its own."""
    character, access = character_for(request.user, pk)
    return _readings(request, sheet_context(character, access=access))


@require_GET
@vary_on_headers("HX-Request")
def shared_readings(request: HttpRequest, token: str) -> HttpResponse:
    """The readings panel of a share link's sheet: what its page showed inline, read-only."""
    character = shared_character(token)
    return _readings(request, sheet_context(character, access=NOBODY) | {"shared_token": token})


def _readings(request: HttpRequest, context: dict) -> HttpResponse:
    if request.htmx:
        return render(request, "rulesets/_readings_body.html", context)
    return render(request, "characters/readings.html", context | {"readings_page": True})


@require_GET
@login_required
@vary_on_headers("HX-Request")
def character_pick(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    """One kind's entries the sheet may pick (its book's the viewer may read, then the
    rulebook's): under the sheet's compendium row for htmx, a page of its own without."""
    character, access = character_for(request.user, pk, Need.EDIT)
    refusal = trait_refusal(access, character, PICK_TRAIT, set())
    if refusal:
        raise PermissionDenied(refusal)
    plural = dict(pickable_kinds(character.system)).get(kind)
    if plural is None:
        raise Http404("This system's sheets pick no such kind.")
    book = Book.of_sheet(character)
    context = {
        "character": character,
        "kind_plural": plural,
        "choices": picker_choices(character, kind, book_entries(request.user, book)),
        "book_url": reverse("compendium_browse", args=[book.key]),
    }
    if request.htmx:
        return render(request, "characters/_compendium_choices.html", context)
    return render(request, "characters/pick.html", context)
