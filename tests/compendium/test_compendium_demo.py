"""`make demo` gives each table's compendium a few entries written for the demo."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from rulesets.core.compendium import find_kind, form_fields
from rulesets.registry import get_ruleset
from sheets.campaigns.management.commands.load_demo import DEMO_ENTRIES
from sheets.campaigns.models import Campaign
from sheets.compendium.models import CompendiumEntry

pytestmark = pytest.mark.django_db


def test_each_demo_table_has_three_weapons_and_a_species_or_template_marked_as_examples():
    call_command("load_demo")
    call_command("load_demo")  # a second run adds nothing
    campaigns = Campaign.objects.filter(created_by__username="gm")
    assert campaigns.count() == 4
    for campaign in campaigns:
        entries = CompendiumEntry.objects.filter(campaign=campaign)
        kinds = sorted(entries.values_list("kind", flat=True))
        assert kinds.count("weapon") == 3, (campaign.system, kinds)
        assert {"species", "template", "npc_template"} & set(kinds), (campaign.system, kinds)
        assert all(entry.example and not entry.hidden for entry in entries)
        assert all(entry.author.username == "gm" for entry in entries)
    weg = CompendiumEntry.objects.filter(campaign__system="weg_d6")
    assert {"species", "template"} <= set(weg.values_list("kind", flat=True))


def test_a_demo_book_loaded_before_its_entries_existed_gets_them(client):
    call_command("load_demo")
    CompendiumEntry.objects.all().delete()
    call_command("load_demo")
    assert CompendiumEntry.objects.filter(example=True).count() == 19


def test_every_field_the_demo_fills_is_one_its_kind_has():
    # A form reader ignores inputs a kind does not have: a renamed field would leave the
    # demo's entry silently without it.
    for system, entries in DEMO_ENTRIES.items():
        for kind_key, form in entries:
            kind = find_kind(get_ruleset(system).COMPENDIUM_KINDS, kind_key)
            assert set(form) <= {field.name for field in form_fields(kind)}, (system, kind_key)
