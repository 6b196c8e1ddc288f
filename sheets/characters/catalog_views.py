"""Suggestions from a system's catalogs while a player types into an "add" row.

The catalogs are the same for everyone, so no character is read and nothing is written:
the answer is a list of <option>s that htmx puts into the row's <datalist>.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from rulesets.core.parsing import printable
from rulesets.ore.data import ROW_TEXT_LENGTH
from rulesets.ore.edits import weapon_matches

# The field the O.R.E. weapon row sends (its name on the sheet form).
ORE_WEAPON_FIELD = "weapon.add"


@require_GET
@login_required
def ore_weapon_matches(request: HttpRequest) -> HttpResponse:
    # Only suggestions come back, so over-long or odd input is trimmed, never refused.
    typed = " ".join(printable(request.GET.get(ORE_WEAPON_FIELD, "")[:ROW_TEXT_LENGTH]).split())
    matches = weapon_matches(typed)
    # A browser shows only the options whose text holds what was typed; a suggestion for
    # "Blaster pistol" (Blaster) carries the typed words too, or it would stay hidden.
    options = [
        {
            "value": weapon.label,
            "text": f"{weapon.label} ({weapon.category}, {weapon.damage})"
            + ("" if typed.lower() in weapon.label.lower() else f" for “{typed}”"),
        }
        for weapon in matches
    ]
    return render(request, "rulesets/ore/_weapon_options.html", {"options": options})
