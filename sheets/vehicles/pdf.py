"""A vehicle's PDF sheet: templates/vehicles/print.html over the print base stylesheet and
the vehicle's own, laid out by WeasyPrint through the printing app's fetcher (files under
static/ and nothing else, sheets/printing/pdf.py)."""

from __future__ import annotations

from functools import lru_cache

from django.template.loader import render_to_string
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration

from sheets.printing.pdf import FETCHER, STATIC_DIR
from sheets.vehicles import state
from sheets.vehicles.models import Vehicle


@lru_cache(maxsize=1)
def _style() -> tuple[list[CSS], FontConfiguration]:
    fonts = FontConfiguration()
    sheets = [
        CSS(filename=str(STATIC_DIR / "css" / name), font_config=fonts, url_fetcher=FETCHER)
        for name in ("print-base.css", "print-vehicle.css")
    ]
    return sheets, fonts


def render_vehicle_pdf(vehicle: Vehicle) -> bytes:
    data = vehicle.data
    context = {
        "vehicle": vehicle,
        "fields": state.fields(vehicle.system, data, {}),
        "damage_fields": state.damage_fields(vehicle.system, data, {}),
        "tables": state.tables(vehicle.system, data, {}),
        "derived": state.derived(vehicle.system, data),
    }
    html = render_to_string("vehicles/print.html", context)
    stylesheets, fonts = _style()
    page = HTML(string=html, base_url=str(STATIC_DIR) + "/", url_fetcher=FETCHER)
    return page.write_pdf(stylesheets=stylesheets, font_config=fonts)
