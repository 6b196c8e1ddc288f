"""The ledger pages: a character's advancement (balance, what a raise costs, entries,
undo) and the table's award form. Thin views: a selector, one service, a page.

Every form also works without JavaScript: a write redirects back to the page; a refusal
draws the page again with the message next to the form that caused it (status 400).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from rulesets.core.ledger import LedgerFigures
from sheets.advancement import services as ledger
from sheets.advancement.figures import (
    advancement_for,
    carried_over,
    figures,
    may_award,
    on_the_sheet,
    unit_of,
    units_of,
    with_figures,
)
from sheets.advancement.models import LedgerEntry
from sheets.advancement.services import LedgerRefused, Quote
from sheets.characters.layouts import layout_for
from sheets.characters.models import Character
from sheets.permissions import CharacterAccess, Need, campaign_for, character_for

ENTRIES_PER_PAGE = 25


def _ledger_page(
    request: HttpRequest,
    character: Character,
    access: CharacterAccess,
    *,
    refused: LedgerRefused | None = None,
    form: str = "",
) -> HttpResponse:
    known = figures(character)
    at_table = character.campaign_id is not None
    # Paginated in the database, as the history is: the page reads its 25 entries, a count
    # and what they need, however long the ledger (the balances are sums, `figures`).
    page = Paginator(ledger.entries(character), ENTRIES_PER_PAGE).get_page(request.GET.get("page"))
    entries = list(page.object_list)
    waiting_entries = list(ledger.waiting_entries(character))
    for entry in (*waiting_entries, *entries):
        entry.origin = ledger.origin_of(entry)
    quotes = ledger.quotes(character, known) if access.owner else []
    search = request.GET.get("q", "").strip()[:60]
    context = {
        "character": character,
        "access": access,
        "figures": known,
        "unit": unit_of(character),
        "quote_sections": _sections(character, quotes, search),
        "quotes": quotes,
        "search": search,
        "needs_teacher": any(quote.needs_teacher for quote in quotes),
        "entries": entries,
        "page": page,
        # A value's correction is two entries, maybe on two pages: its twin is read too.
        "undoable": ledger.undoable(entries + _twins(character, entries), at_table=at_table)
        & {entry.pk for entry in entries},
        "carried_over": {entry.pk for entry in entries if carried_over(entry)},
        # Points from elsewhere that do not count at this table until its GM accepts them:
        # shown to the player as waiting (not gone), to the GM with Accept and Refuse.
        "waiting": {entry.pk for entry in entries if at_table and entry.needs_acceptance},
        "waiting_entries": waiting_entries,
        "may_accept": access.gm and at_table,
        "imported": {entry.pk for entry in entries if entry.imported},
        "on_the_sheet": on_the_sheet(character),
        "may_award": may_award(access, character),
        "in_play": character.sheet.get("stage") == "play",
        "reason_required": advancement_for(character.system).REASON_REQUIRED,
        "consent_choices": (
            advancement_for(character.system).consent_choices(character.sheet)
            if access.owner
            else []
        ),
        "correctable": ledger.correctable(character) if may_award(access, character) else [],
        # WEG 1E: each weapon's next damage pip, bought with skill points (003:1006-1066).
        "gear_steps": ledger.gear_steps(character) if access.owner else [],
        # WEG: the GM's Dark Side decisions (003:1708-1730, 002:823-827).
        "dark_side_actions": (
            ledger.dark_side_actions(character) if may_award(access, character) else []
        ),
        # O.R.E.: the award form also gives current Willpower (001:L836-L842).
        "willpower_awards": (
            ledger.willpower_choices()
            if may_award(access, character) and ledger.gives_willpower(character)
            else ()
        ),
        # What the character trains for now (WEG), and whether purchases here train at all.
        "trainings": list(ledger.in_training(character)),
        "trains": hasattr(advancement_for(character.system), "training_of"),
        "teacher_fields": _teacher_fields(character),
        "error": refused.message if refused else "",
        # The field a refusal names, for the message beside it (the teacher's codes, the
        # extra points of a training).
        "error_field": refused.field if refused else "",
        # A refusal of a form this viewer is not shown is told at the top of the page.
        "error_form": form if form in _forms_shown(access, character) else "",
        "submitted": request.POST if refused else {},
    }
    return render(
        request, "advancement/ledger.html", context, status=400 if refused is not None else 200
    )


def _twins(character: Character, entries: list[LedgerEntry]) -> list[LedgerEntry]:
    """The corrections written at the versions of `entries`: what `undoable` needs to see
    the other line of a value's correction when it sits on another page (one query)."""
    versions = {entry.version for entry in entries if entry.trait}
    if not versions:
        return []
    return list(
        LedgerEntry.objects.filter(
            character=character, kind=LedgerEntry.Kind.CORRECTION, version__in=versions
        )
    )


def _teacher_fields(character: Character) -> list[tuple[str, str]]:
    # Only WEG 1E asks for the teacher's codes (who may teach a Force skill, 003:1758).
    fields = getattr(advancement_for(character.system), "teacher_fields", None)
    return fields(character.sheet) if fields is not None else []


@dataclass
class QuoteGroup:
    title: str
    quotes: list[Quote] = field(default_factory=list)

    @property
    def heading(self) -> str:
        """The sub-heading worth printing: not a skill's own name over its one row."""
        if len(self.quotes) == 1 and self.quotes[0].label == self.title:
            return ""
        return self.title


@dataclass
class QuoteSection:
    title: str
    groups: list[QuoteGroup] = field(default_factory=list)


def _sections(character: Character, quotes: list[Quote], search: str) -> list[QuoteSection]:
    """Group the raises the way the sheet groups its rows: section, then sub-heading.

    `search` keeps the rows whose trait or group names it (case-insensitive)."""
    titles = {section.key: section.title for section in layout_for(character.system).sections}
    needle = search.casefold()
    found: dict[str, QuoteSection] = {}
    for quote in quotes:
        if needle and needle not in f"{quote.label} {quote.group}".casefold():
            continue
        title = titles.get(quote.section) or quote.section.replace("_", " ").capitalize()
        section = found.setdefault(quote.section, QuoteSection(title))
        if not section.groups or section.groups[-1].title != quote.group:
            section.groups.append(QuoteGroup(quote.group))
        section.groups[-1].quotes.append(quote)
    return list(found.values())


def _forms_shown(access: CharacterAccess, character: Character) -> set[str]:
    shown = {"undo"}
    if access.owner:
        shown |= {"buy", "ask", "gear"}
    if may_award(access, character):
        shown |= {"award", "correct", "correct_trait", "consent", "training", "dark_side"}
    if access.gm and character.campaign_id is not None:
        shown.add("origin")
    return shown


@require_GET
@login_required
def character_ledger(request: HttpRequest, pk: int) -> HttpResponse:
    # The ledger is the sheet's past, as its history is: a player reading an NPC the GM
    # revealed gets neither.
    character, access = character_for(request.user, pk, Need.RECORDS)
    return _ledger_page(request, character, access)


def _version(request: HttpRequest) -> int:
    raw = request.POST.get("version", "")
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else 0


def _posted(request: HttpRequest, *names: str) -> dict[str, str]:
    """The posted text of each named field, "" when it was not sent."""
    return {name: request.POST.get(name, "") for name in names}


def _act(
    request: HttpRequest,
    pk: int,
    form: str,
    service: Callable[..., object],
    /,
    *fields: str,
    **values: Any,
) -> HttpResponse:
    """Run one ledger service for the character `pk` as this user at the version the form
    saw, with the posted `fields` under their own names and any other `values`: a write
    goes back to the page, a refusal draws it with its message beside `form`."""
    try:
        service(
            user=request.user,
            character_id=pk,
            expected_version=_version(request),
            **_posted(request, *fields),
            **values,
        )
    except LedgerRefused as refused:
        character, access = character_for(request.user, pk, Need.RECORDS)
        return _ledger_page(request, character, access, refused=refused, form=form)
    return redirect("character_ledger", pk=pk)


@require_POST
@login_required
def ledger_award(request: HttpRequest, pk: int) -> HttpResponse:
    if request.POST.get("what") == ledger.WILLPOWER:
        return _act(
            request, pk, "award", ledger.award_willpower, "award", "cool", "command", "reason"
        )
    return _act(request, pk, "award", ledger.award, "amount", "reason")


@require_POST
@login_required
def ledger_gear(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request,
        pk,
        "gear",
        ledger.improve_gear,
        "weapon",
        "value",
        worker=request.POST.get("worker", "self"),
    )


@require_POST
@login_required
def ledger_dark_side(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, "dark_side", ledger.dark_side, "action", "reason")


@require_POST
@login_required
def ledger_correct(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, "correct", ledger.correct, "amount", "reason")


@require_POST
@login_required
def ledger_buy(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(
        request,
        pk,
        "buy",
        ledger.purchase,
        "trait",
        "teacher",
        "reason",
        "used",
        "extra",
        teacher_codes={
            key.removeprefix("teacher_code."): value
            for key, value in request.POST.items()
            if key.startswith("teacher_code.")
        },
    )


@require_POST
@login_required
def ledger_training(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM lets in-game days of training pass, marks a training done or cuts it short."""
    return _act(
        request,
        pk,
        "training",
        ledger.train,
        "action",
        "days",
        "reason",
        training_id=request.POST.get("training", ""),
    )


@require_POST
@login_required
def ledger_undo(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, "undo", ledger.undo, "reason", entry_id=request.POST.get("entry", ""))


@require_POST
@login_required
def ledger_ask(request: HttpRequest, pk: int) -> HttpResponse:
    """Buy a merit in play: at a table it waits for the GM's consent."""
    return _act(
        request,
        pk,
        "ask",
        ledger.ask,
        "value",
        "reason",
        # The form's merit is the service's choice, and the form's choice its detail.
        choice=request.POST.get("merit", ""),
        detail=request.POST.get("choice", ""),
    )


@require_POST
@login_required
def ledger_consent(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM approves or refuses a purchase that waits for consent."""
    return _act(
        request,
        pk,
        "consent",
        ledger.consent,
        "reason",
        entry_id=request.POST.get("entry", ""),
        approve=request.POST.get("decision") == "approve",
    )


@require_POST
@login_required
def ledger_origin(request: HttpRequest, pk: int) -> HttpResponse:
    """The table's GM accepts points from elsewhere (one entry or all) or refuses one."""
    decision = request.POST.get("decision", "")

    def decide(**common: Any) -> None:
        if decision == "accept":
            ledger.accept_origins(**common)
        elif decision == "refuse":
            ledger.refuse_origin(**common)
        else:
            raise LedgerRefused("Accept the points or refuse them.", "origin")

    return _act(request, pk, "origin", decide, "reason", entry_id=request.POST.get("entry", ""))


@require_POST
@login_required
def ledger_correct_trait(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM corrects a value in play, saying why."""
    return _act(
        request, pk, "correct_trait", ledger.correct_trait, "trait", "value", "amount", "reason"
    )


@require_POST
@login_required
def ledger_end_adventure(request: HttpRequest, pk: int) -> HttpResponse:
    return _act(request, pk, "adventure", ledger.end_adventure_alone)


@dataclass(frozen=True)
class TableRow:
    """One sheet on the table's award page: its ledger, in its unit, and what its sheet
    still holds while in creation (the sheet counts it as unspent, the ledger not yet)."""

    character: Character
    figures: LedgerFigures
    unit: str
    on_the_sheet: int
    # What it trains for now (WEG): the table's "let days pass" moves them all.
    trainings: list = field(default_factory=list)


def _table_page(
    request, campaign, *, error: str = "", done: str = "", form: str = ""
) -> HttpResponse:
    characters = with_figures(campaign.characters.select_related("owner")).order_by(
        "owner__username", "name", "pk"
    )
    rows = [
        TableRow(
            character,
            figures(character),
            unit_of(character),
            on_the_sheet(character),
            list(ledger.in_training(character)),
        )
        for character in characters
    ]
    return render(
        request,
        "advancement/ledger_table.html",
        {
            "campaign": campaign,
            "rows": rows,
            # Each sheet is awarded in its own unit (a WEG table's CP, or SP for 1E sheets).
            "unit": units_of(
                campaign.system, [row.character.sheet for row in rows], campaign.rule_settings
            ),
            "error": error,
            # Which form the refusal belongs to, so its message sits beside that form.
            "error_form": form if error else "",
            "done": done,
            "submitted": request.POST if error else {},
            "trains": hasattr(advancement_for(campaign.system), "training_of"),
            "training_count": sum(len(row.trainings) for row in rows),
        },
        status=400 if error else 200,
    )


@login_required
def campaign_award(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The GM awards every character of the table at once, with one reason, ends the
    adventure for all, or lets in-game days of training pass for all (WEG)."""
    campaign, _role = campaign_for(request.user, campaign_id, gm=True)
    if request.method != "POST":
        return _table_page(request, campaign, done=request.GET.get("done", "")[:20])
    action = request.POST.get("action")
    table = {"user": request.user, "campaign_id": campaign.pk}
    try:
        if action == "end_adventure":
            ledger.end_adventure(**table)
            done = "adventure"
        elif action == "training":
            ledger.train_table(**table, **_posted(request, "days", "reason"))
            done = "training"
        else:
            ledger.award_table(**table, **_posted(request, "amount", "reason"))
            done = "award"
    except LedgerRefused as refused:
        form = "training" if action == "training" else "award"
        return _table_page(request, campaign, error=refused.message, form=form)
    return redirect(f"{request.path}?done={done}")
