"""The one sheet shell, for every system: rows from the engine, edits that swap only what
changed, the title after a rename, conflicts, the no-JavaScript path and the admin."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
from django.urls import reverse

from rulesets.core import RowKind, resolve_settings
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.advancement.figures import ledger_trait
from sheets.characters.layouts.base import trait_dom_id
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.history.models import Revision
from sheets.transfer.datapad import export_character
from sheets.transfer.schema import character_file_schema
from tests.swaps import after_swaps, by_id, comparable, parse

pytestmark = pytest.mark.django_db
KEYS = sorted(SYSTEMS)
HTMX = {"HTTP_HX_REQUEST": "true"}
PUBLISHED_SCHEMA = Path(__file__).resolve().parents[2] / "static/schema/character-file.schema.json"


@pytest.fixture(params=KEYS)
def demo(request, player):
    ruleset = get_ruleset(request.param)
    return character_create(
        owner=player, name="Demo Hero", system=request.param, sheet=ruleset.demo_sheet()
    )


def _edit(client, character, data, **headers):
    character.refresh_from_db()
    return client.post(
        reverse("character_edit", args=[character.pk]),
        {"version": character.version, **data},
        **headers,
    )


def _number_row(character):
    """A raisable numeric row of the demo sheet and a value it accepts other than its own."""
    ruleset = get_ruleset(character.system)
    settings = resolve_settings(ruleset.SETTINGS, character.rule_settings)
    for row in ruleset.trait_rows(character.sheet, settings):
        if character.sheet.get("stage") == "play" and row.next_cost is not None:
            continue  # in play a priced raise is bought on the ledger page, not typed
        if ledger_trait(character.system, row.key, character.sheet.get("stage", "")):
            continue  # experience is the ledger's, drawn locked
        numeric = row.kind in {RowKind.DOTS, RowKind.NUMBER, RowKind.DICE}
        if numeric and not row.locked and row.maximum is not None and row.value != row.maximum:
            return row, str(row.maximum)
    raise AssertionError("the demo sheet has no raisable row")


def test_every_system_draws_its_sheet_in_the_shell_with_its_name_first(player_client, demo):
    response = player_client.get(reverse("character_sheet", args=[demo.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.index('id="sheet-title"') < html.index('id="budget"')
    assert html.index('id="input-character-name"') < html.index('id="budget"')
    assert 'class="skip-link" href="#budget"' in html
    # htmx is set once, on the form; no field carries its own hx-post.
    assert html.count("hx-post=") == 1
    assert '<details class="panel readings"' in html and 'readings" open' not in html


def test_renaming_through_htmx_updates_the_title_in_every_system(player_client, demo):
    response = _edit(
        player_client, demo, {"only": "character.name", "character.name": "Renamed Hero"}, **HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    title = re.search(r'<h1 id="sheet-title"[^>]*hx-swap-oob="true"[^>]*>(.*?)</h1>', html, re.S)
    assert title and "Renamed Hero" in title.group(1)
    assert 'data-document-title="Renamed Hero · Datapad"' in html
    demo.refresh_from_db()
    assert demo.name == "Renamed Hero"


def test_an_edit_swaps_the_changed_row_the_budget_and_the_version_only(player_client, demo):
    row, value = _number_row(demo)
    before = player_client.get(reverse("character_sheet", args=[demo.pk])).content.decode()
    response = _edit(player_client, demo, {"only": row.key, row.key: value}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    demo.refresh_from_db()
    # The row, or the one part of it that changed (its input), or its section.
    sent = set(re.findall(r'<\w+[^>]*\sid="([^"]+)"[^>]*hx-swap-oob="true"', html))
    dom_id = trait_dom_id(row.key)
    assert {dom_id, f"input-{dom_id}", f"section-{row.section}-body"} & sent
    assert f'id="sheet-version" value="{demo.version}" hx-swap-oob="true"' in html
    # The budget goes when a pool moved; either way the page's budget is the fresh one.
    fresh = player_client.get(reverse("character_sheet", args=[demo.pk])).content.decode()
    budget = comparable(by_id(after_swaps(before, html), "budget"))
    assert budget == comparable(by_id(parse(fresh), "budget"))
    assert ('id="budget"' in html) == (budget != comparable(by_id(parse(before), "budget")))
    # Not the whole sheet: far fewer rows than the page holds.
    page = player_client.get(reverse("character_sheet", args=[demo.pk])).content.decode()
    assert html.count('class="trait ') < page.count('class="trait ')
    assert len(response.content) < len(page) / 2


def test_a_refused_value_is_shown_beside_its_field_and_nothing_is_stored(player_client, demo):
    row, _value = _number_row(demo)
    before = Character.objects.get(pk=demo.pk)
    response = _edit(player_client, demo, {"only": row.key, row.key: str(row.maximum + 1)}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    fragment = html[html.index(f'id="{trait_dom_id(row.key)}"') :]
    assert 'class="error" role="alert"' in fragment.split("</div>")[0] or 'role="alert"' in html
    after = Character.objects.get(pk=demo.pk)
    assert (after.sheet, after.version) == (before.sheet, before.version)


def test_a_stale_version_is_refused_and_the_sheet_redrawn_with_the_current_values(
    player_client, demo
):
    row, value = _number_row(demo)
    response = player_client.post(
        reverse("character_edit", args=[demo.pk]),
        {"version": demo.version - 1 if demo.version > 1 else 999, "only": row.key, row.key: value},
        **HTMX,
    )
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#sheet"
    assert response["HX-Reswap"] == "outerHTML"
    assert "changed elsewhere" in response.content.decode()


def test_without_javascript_a_saved_edit_returns_to_its_row(player_client, demo):
    row, value = _number_row(demo)
    response = _edit(player_client, demo, {"only": row.key, row.key: value})
    assert response.status_code == 302
    assert response["Location"].endswith(f"#{trait_dom_id(row.key)}")


def test_player_sentences_on_the_page_carry_no_source_references(player_client, demo):
    html = player_client.get(reverse("character_sheet", args=[demo.pk])).content.decode()
    text = re.sub(r"<[^>]+>", " ", re.sub(r'title="[^"]*"', "", html))
    assert not re.search(r"\(L\d+|\bL\d{2,4}\b|§|digest", text), re.findall(
        r".{40}(?:L\d+|§).{20}", text
    )


def test_the_admin_shows_characters_and_revisions_read_only(admin_client, demo):
    assert admin_client.get(reverse("admin:characters_character_changelist")).status_code == 200
    change = reverse("admin:characters_character_change", args=[demo.pk])
    response = admin_client.get(change)
    assert response.status_code == 200
    assert b'name="_save"' not in response.content
    admin_client.post(change, {"name": "Hacked"})
    demo.refresh_from_db()
    assert demo.name == "Demo Hero"
    assert admin_client.get(reverse("admin:characters_character_add")).status_code == 403
    revision = Revision.objects.filter(character=demo).first()
    assert (
        admin_client.post(
            reverse("admin:history_revision_delete", args=[revision.pk]), {"post": "yes"}
        ).status_code
        == 403
    )


def test_the_published_schema_is_current_and_every_export_matches_it(client, demo):
    served = client.get(reverse("character_file_schema"))
    assert served.status_code == 200
    schema = json.loads(served.content)
    assert schema == character_file_schema()
    # Refresh it with: manage.py character_schema > static/schema/character-file.schema.json
    assert json.loads(PUBLISHED_SCHEMA.read_text()) == schema
    jsonschema.validate(json.loads(json.dumps(export_character(demo))), schema)
