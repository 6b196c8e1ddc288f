"""The Foundry downloads of the character page (issue 29, item 3): a WEG sheet's OD6S actor,
an SWd10 sheet's WoD20 actor, each for whoever may export the character, each behind a page
of what its file cannot hold; a format of another system is no page at all. And the file
downloaded, uploaded through the import page and confirmed, is the same sheet less exactly
that list."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from rulesets.registry import get_ruleset
from rulesets.weg_d6 import demo as weg_demo
from sheets.advancement.figures import advancement_for, figures
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.transfer.formats.foundry_exports import exporter_of_system
from tests.transfer.test_export_foundry import unexplained_and_unfounded

pytestmark = pytest.mark.django_db


def foundry_url(character: Character, key: str) -> str:
    return reverse("character_export_foundry", args=[character.pk, key])


@pytest.fixture
def jax(player, gm, other_player):
    """The demo's WEG smuggler at a WEG table run by `gm`, which `other_player` also joined."""
    character = character_create(
        owner=player, name="Jax Durran", system="weg_d6", sheet=weg_demo.demo_sheet()
    )
    campaign = campaign_create(user=gm, name="Run to Kessel", system="weg_d6")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    for user in (player, other_player):
        campaign_join(user=user, token=link.token)
    character_bring(user=player, campaign_id=campaign.pk, character_id=character.pk)
    character.refresh_from_db()
    return character


@pytest.fixture
def kira(player):
    ruleset = get_ruleset("swd10")
    return character_create(
        owner=player, name="Kira Dane", system="swd10", sheet=ruleset.demo_sheet()
    )


def test_the_owner_downloads_a_weg_character_as_an_od6s_actor_named_for_it(client, player, jax):
    client.force_login(player)
    response = client.get(foundry_url(jax, "foundry_od6s"))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="jax-durran.od6s.json"'
    actor = json.loads(response.content)
    assert (actor["name"], actor["type"], actor["_stats"]["systemId"]) == (
        "Jax Durran",
        "character",
        "nonex-ist-od6s",
    )


def test_the_tables_gm_downloads_it_and_another_player_finds_nothing(client, gm, other_player, jax):
    client.force_login(gm)
    assert client.get(foundry_url(jax, "foundry_od6s")).status_code == 200
    client.force_login(other_player)
    assert client.get(foundry_url(jax, "foundry_od6s")).status_code == 404


def test_an_swd10_character_downloads_as_wod20_and_has_no_od6s_file(client, player, kira):
    client.force_login(player)
    response = client.get(foundry_url(kira, "foundry_wod20"))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="kira-dane.wod20.json"'
    assert json.loads(response.content)["type"] == "PC"
    assert client.get(foundry_url(kira, "foundry_od6s")).status_code == 404
    assert client.get(foundry_url(kira, "roll20")).status_code == 404


def preview_url(character: Character, key: str) -> str:
    return reverse("character_export_foundry_preview", args=[character.pk, key])


def test_a_character_of_a_system_without_a_foundry_format_has_no_link_and_no_file(client, player):
    ore = character_create(owner=player, name="Kael Varrin", system="ore")
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[ore.pk])).content.decode()
    assert "Foundry" not in page
    for key in ("foundry_od6s", "foundry_wod20"):
        assert client.get(foundry_url(ore, key)).status_code == 404
        assert client.get(preview_url(ore, key)).status_code == 404


def test_the_sheet_page_links_its_systems_export_page_and_lists_nothing_itself(
    client, player, jax, kira
):
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[jax.pk])).content.decode()
    assert preview_url(jax, "foundry_od6s") in page and "Foundry OD6S actor" in page
    assert "Foundry WoD20 actor" not in page
    # The list follows the sheet's content, which an edit redraws only in part.
    assert "an OD6S actor has no field for it" not in page
    page = client.get(reverse("character_sheet", args=[kira.pk])).content.decode()
    assert preview_url(kira, "foundry_wod20") in page and "Foundry OD6S actor" not in page
    assert "written in the biography notes" not in page


def test_the_export_page_lists_what_the_file_cannot_hold_and_links_its_download(
    client, player, jax, kira
):
    client.force_login(player)
    page = client.get(preview_url(jax, "foundry_od6s")).content.decode()
    assert "What this file cannot hold (5)" in page
    assert "the quote: an OD6S actor has no field for it" in page
    assert f'href="{foundry_url(jax, "foundry_od6s")}" download' in page
    page = client.get(preview_url(kira, "foundry_wod20")).content.decode()
    assert "Languages (2): written in the biography notes" in page
    assert f'href="{foundry_url(kira, "foundry_wod20")}" download' in page


def test_the_export_page_follows_an_edit_of_the_sheet(client, player, jax):
    client.force_login(player)
    assert (
        "the quote: an OD6S actor has no field for it"
        in client.get(preview_url(jax, "foundry_od6s")).content.decode()
    )
    client.post(
        reverse("character_edit", args=[jax.pk]),
        {"edit": "info.quote=", "version": jax.version},
    )
    jax.refresh_from_db()
    assert jax.sheet["info"]["quote"] == ""
    page = client.get(preview_url(jax, "foundry_od6s")).content.decode()
    assert "What this file cannot hold (4)" in page
    assert "the quote" not in page


def test_the_tables_gm_reads_the_export_page_and_another_player_finds_nothing(
    client, gm, other_player, jax
):
    client.force_login(gm)
    assert client.get(preview_url(jax, "foundry_od6s")).status_code == 200
    client.force_login(other_player)
    assert client.get(preview_url(jax, "foundry_od6s")).status_code == 404


@pytest.mark.parametrize("fixture", ["jax", "kira"])
def test_a_downloaded_file_uploaded_and_confirmed_is_the_same_sheet_less_what_it_lists(
    client, player, fixture, request
):
    character = request.getfixturevalue(fixture)
    exporter = exporter_of_system(character.system)
    client.force_login(player)
    raw = client.get(foundry_url(character, exporter.KEY)).content
    upload = client.post(
        reverse("character_import"),
        {"file": SimpleUploadedFile(f"x{exporter.SUFFIX}", raw, "application/json")},
    )
    assert upload.status_code == 302
    confirmed = client.post(upload["Location"], {"action": "confirm"})
    assert confirmed.status_code == 302
    back = Character.objects.exclude(pk=character.pk).get(name=character.name)
    assert back.system == character.system
    # Points left to spend live in the ledger once in play: both sheets as the page reads them.
    advancement = advancement_for(character.system)
    before = advancement.with_ledger(character.sheet, figures(character))
    after = advancement.with_ledger(back.sheet, figures(back))
    exported = exporter.export(before, character.name)
    assert unexplained_and_unfounded(before, exported, after) == (set(), set())
