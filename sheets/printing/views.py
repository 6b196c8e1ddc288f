"""PDFs: a sheet's (its owner's and GMs', or a share link's), and the table's: start a
build, watch it (htmx polls the panel), download the result."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_POST

from sheets.characters.models import Character
from sheets.permissions import campaign_for, character_for, shared_character
from sheets.printing.models import TablePrint
from sheets.printing.pdf import render_character_pdf
from sheets.printing.services import (
    PrintRefused,
    table_print_context,
    table_print_for,
    table_print_request,
)

# The panel is included in the campaign page; without JavaScript it stands on its own page.
PANEL = "printing/_table_print.html"
PAGE = "printing/print.html"


def _pdf_response(character: Character) -> HttpResponse:
    response = HttpResponse(render_character_pdf(character), content_type="application/pdf")
    filename = slugify(character.name) or "character"
    response["Content-Disposition"] = f'attachment; filename="{filename}.pdf"'
    return response


@require_GET
@login_required
def character_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    return _pdf_response(character_for(request.user, pk)[0])


@require_GET
def shared_pdf(request: HttpRequest, token: str) -> HttpResponse:
    return _pdf_response(shared_character(token))


def _panel_or_page(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    # htmx swaps the panel in place; without JavaScript the panel stands on its own page.
    template = PANEL if request.htmx else PAGE
    return render(request, template, context, status=status)


@require_POST
@login_required
def table_print_start(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        table_print = table_print_request(user=request.user, campaign_id=pk)
    except PrintRefused as refusal:
        campaign = campaign_for(request.user, pk, gm=True)[0]
        context = table_print_context(campaign) | {
            "campaign": campaign,
            "refusal": refusal.message,
        }
        # htmx shows the refusal inside the panel (200 so it is swapped in); a plain form
        # post gets the panel's page with the message beside the button.
        return _panel_or_page(request, context, status=200 if request.htmx else 400)
    if request.htmx:
        return render(
            request,
            PANEL,
            {"campaign": table_print.campaign, "table_print": table_print},
        )
    return redirect("table_print_status", pk=pk, print_pk=table_print.pk)


@require_GET
@login_required
def table_print_status(request: HttpRequest, pk: int, print_pk: int) -> HttpResponse:
    campaign, table_print = table_print_for(request.user, pk, print_pk)
    return _panel_or_page(request, {"campaign": campaign, "table_print": table_print})


@require_GET
@login_required
def table_print_pdf(request: HttpRequest, pk: int, print_pk: int) -> HttpResponse:
    campaign, table_print = table_print_for(request.user, pk, print_pk, with_pdf=True)
    if table_print.state != TablePrint.State.DONE or table_print.pdf is None:
        # An old link to a build still under way (or failed): its status says what to do.
        return redirect("table_print_status", pk=pk, print_pk=print_pk)
    response = HttpResponse(bytes(table_print.pdf), content_type="application/pdf")
    filename = slugify(campaign.name) or "table"
    response["Content-Disposition"] = f'attachment; filename="{filename}-sheets.pdf"'
    return response
