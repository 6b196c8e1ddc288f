"""My characters: list, create, rename, duplicate, delete; revisions of every change."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from sheets.characters.models import Character
from sheets.history.models import Revision

pytestmark = pytest.mark.django_db


def test_the_home_page_names_the_four_systems_and_leads_to_sign_up(client):
    page = client.get("/").content.decode()
    for name in ("Star Wars Storytelling (d10)", "Star O.R.E.", "West End Games d6", "1o3d10"):
        assert name in page
    assert reverse("signup") in page and reverse("login") in page


def test_a_player_creates_a_swd10_character_and_lands_on_its_sheet(player_client, player):
    response = player_client.post(
        reverse("character_new"), {"name": "  Kira   Dane ", "system": "swd10"}
    )
    character = Character.objects.get(owner=player)
    assert response.status_code == 302
    assert response["Location"] == reverse("character_sheet", args=[character.pk])
    assert character.name == "Kira Dane"
    assert character.sheet["attributes"]["strength"] == 1
    assert character.revisions.get().summary == "Created"


def test_the_create_page_offers_every_system_and_says_which_are_not_built(player_client):
    from rulesets.registry import SYSTEMS

    page = player_client.get(reverse("character_new")).content.decode()
    assert page.count('type="radio"') == 4
    waiting = [info for info in SYSTEMS.values() if not info.ready]
    assert page.count("Not built yet: it cannot be picked.") == len(waiting)
    for info in SYSTEMS.values():
        assert escape(info.summary) in page


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"name": "Jax", "system": "d20"}, "Pick one of the rule systems below."),
        ({"name": "   ", "system": "swd10"}, "A character needs a name."),
    ],
)
def test_it_refuses_a_character_it_cannot_make_and_creates_nothing(player_client, form, message):
    response = player_client.post(reverse("character_new"), form)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Character.objects.count() == 0


def test_the_list_shows_only_my_characters(player_client, swd10_character, other_player):
    from sheets.characters.services import character_create

    character_create(owner=other_player, name="Mara's spy", system="swd10")
    page = player_client.get(reverse("character_list")).content.decode()
    assert "Kira Dane" in page
    assert "Mara&#x27;s spy" not in page and "Mara's spy" not in page


def test_renaming_goes_through_the_sheet_form_and_is_recorded(player_client, swd10_character):
    response = player_client.post(
        reverse("character_edit", args=[swd10_character.pk]),
        {"only": "character.name", "character.name": "Kira Vel", "version": 1},
    )
    assert response.status_code == 302
    swd10_character.refresh_from_db()
    assert (swd10_character.name, swd10_character.version) == ("Kira Vel", 2)
    revision = swd10_character.revisions.first()
    assert revision.ops == [
        {"op": "set", "path": ["name"], "before": "Kira Dane", "after": "Kira Vel"}
    ]


def test_duplicating_makes_an_independent_copy(player_client, swd10_character):
    response = player_client.post(reverse("character_copy", args=[swd10_character.pk]))
    copy = Character.objects.exclude(pk=swd10_character.pk).get()
    assert response["Location"] == reverse("character_sheet", args=[copy.pk])
    assert copy.name == "Kira Dane (copy)"
    assert copy.sheet == swd10_character.sheet
    player_client.post(
        reverse("character_edit", args=[copy.pk]), {"edit": "attr.wits=3", "version": 1}
    )
    swd10_character.refresh_from_db()
    assert swd10_character.sheet["attributes"]["wits"] == 1


def test_deleting_asks_first_then_deletes(player_client, swd10_character):
    url = reverse("character_remove", args=[swd10_character.pk])
    confirm = player_client.get(url)
    assert "Yes, delete “Kira Dane”" in confirm.content.decode()
    assert Character.objects.filter(pk=swd10_character.pk).exists()
    response = player_client.post(url, {"version": 1})
    assert response["Location"] == reverse("character_list")
    assert not Character.objects.filter(pk=swd10_character.pk).exists()


def test_deleting_a_sheet_that_changed_since_the_confirmation_is_refused(
    player_client, swd10_character
):
    player_client.post(
        reverse("character_edit", args=[swd10_character.pk]), {"edit": "attr.wits=2", "version": 1}
    )
    response = player_client.post(
        reverse("character_remove", args=[swd10_character.pk]), {"version": 1}
    )
    assert response.status_code == 302
    assert Character.objects.filter(pk=swd10_character.pk).exists()


def test_the_history_page_lists_who_changed_what(player_client, swd10_character):
    player_client.post(
        reverse("character_edit", args=[swd10_character.pk]), {"edit": "abil.dodge=2", "version": 1}
    )
    page = player_client.get(reverse("character_history", args=[swd10_character.pk]))
    text = page.content.decode()
    assert "Dodge: 0 → 2" in text and "luke" in text
    # The words a player reads, never the stored path.
    assert "sheet.abilities.dodge" not in text
    assert Revision.objects.filter(character=swd10_character).count() == 2


def test_a_system_not_built_yet_cannot_be_picked(player_client, monkeypatch):
    from dataclasses import replace

    from rulesets.registry import SYSTEMS

    monkeypatch.setitem(SYSTEMS, "ore", replace(SYSTEMS["ore"], ready=False))
    page = player_client.get(reverse("character_new")).content.decode()
    assert page.count("Not built yet: it cannot be picked.") >= 1
    response = player_client.post(reverse("character_new"), {"name": "Jax", "system": "ore"})
    assert response.status_code == 400
    assert "Star O.R.E. is not available yet." in response.content.decode()
    assert Character.objects.count() == 0


def test_my_characters_shows_each_ones_campaign_review_and_rules_status(
    player_client, player, table
):
    from rulesets.core import resolve_settings
    from rulesets.registry import get_ruleset
    from sheets.characters.services import character_create, character_submit

    SWD10_SETTINGS = get_ruleset("swd10").SETTINGS
    kira = table.characters.get()
    character_submit(user=player, character_id=kira.pk, version=kira.version)
    character_create(owner=player, name="Loner", system="ore")
    text = player_client.get(reverse("character_list")).content.decode()
    kira_row = text.split(f'id="character-{kira.pk}"')[1].split("</tr>")[0]
    assert "Outer Rim" in kira_row and "Submitted" in kira_row
    assert reverse("campaign_detail", args=[table.pk]) in kira_row
    # A blank SWd10 sheet breaks no rule yet; it still has its creation dots to place, so it
    # is incomplete rather than legal.
    status = get_ruleset("swd10").status(kira.sheet, resolve_settings(SWD10_SETTINGS, {}))
    assert status.legal and status.warnings == 7
    assert '<span class="status-incomplete">incomplete</span>' in kira_row
    assert "in creation, 7 left to finish" in kira_row
    loner = Character.objects.get(name="Loner")
    loner_row = text.split(f'id="character-{loner.pk}"')[1].split("</tr>")[0]
    assert "no table" in loner_row and "Submitted" not in loner_row


def test_the_rules_status_counts_the_broken_rules(player_client, player):
    from sheets.characters.services import character_apply_edits, character_create

    broken = character_create(owner=player, name="Overspent", system="swd10")
    character_apply_edits(
        user=player,
        character_id=broken.pk,
        edits={"abil.dodge": "4", "abil.brawl": "4"},
        expected_version=broken.version,
    )
    text = player_client.get(reverse("character_list")).content.decode()
    row = text.split(f'id="character-{broken.pk}"')[1].split("</tr>")[0]
    assert "2 rules broken" in row and "status-legal" not in row


def list_row(client, character) -> str:
    text = client.get(reverse("character_list")).content.decode()
    return text.split(f'id="character-{character.pk}"')[1].split("</tr>")[0]


@pytest.mark.parametrize("system", ["swd10", "ore", "weg_d6", "o3d10"])
def test_the_list_tells_a_finished_legal_sheet_from_an_incomplete_one(
    player_client, player, system
):
    from rulesets.registry import get_ruleset
    from sheets.characters.services import character_create

    blank = character_create(owner=player, name="Just started", system=system)
    row = list_row(player_client, blank)
    assert "{#" not in player_client.get(reverse("character_list")).content.decode()
    assert '<span class="status-incomplete">incomplete</span>' in row
    assert "status-legal" not in row and "in creation," in row and "left to finish" in row
    done = character_create(
        owner=player, name="Finished", system=system, sheet=get_ruleset(system).demo_sheet()
    )
    row = list_row(player_client, done)
    assert '<span class="status-legal">legal</span>' in row
    assert "status-incomplete" not in row


def test_a_member_creates_a_character_inside_the_campaign(client, other_player, table):
    client.force_login(other_player)
    url = reverse("character_new") + f"?campaign={table.pk}"
    page = client.get(url).content.decode()
    assert f'name="campaign" value="{table.pk}"' in page
    assert "Star Wars Storytelling (d10)" in page and 'type="radio"' not in page
    # The campaign's system wins whatever system is posted.
    response = client.post(
        reverse("character_new"), {"name": "Mara Vos", "system": "ore", "campaign": table.pk}
    )
    assert response.status_code == 302
    character = Character.objects.get(name="Mara Vos")
    assert (character.campaign_id, character.system) == (table.pk, "swd10")
    assert character.owner == other_player


def test_only_a_member_creates_inside_a_campaign(client, make_user, table):
    client.force_login(make_user("stranger"))
    assert client.get(reverse("character_new") + f"?campaign={table.pk}").status_code == 404
    response = client.post(
        reverse("character_new"), {"name": "Gatecrasher", "system": "swd10", "campaign": table.pk}
    )
    assert response.status_code == 404
    assert client.get(reverse("character_new") + "?campaign=abc").status_code == 404
    assert not Character.objects.filter(name="Gatecrasher").exists()
