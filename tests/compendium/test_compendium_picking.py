"""Picking from the compendium on the sheet: the book's entries beside the rulebook's, each
through the one write service, redrawn like any edit; refused in words when not allowed."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from rulesets.registry import get_ruleset
from sheets.campaigns.services import (
    campaign_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.compendium.models import Book
from sheets.compendium.services import entry_create, entry_set_hidden
from tests.compendium.conftest import PISTOL, SMUGGLER, TWILEK, pick

pytestmark = pytest.mark.django_db


def test_the_sheet_offers_the_books_entries_beside_the_rulebooks_marked_by_source(
    client, gm, player, weg_book, tessa
):
    entry_create(user=gm, book=weg_book, kind="species", data=TWILEK)
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[tessa.pk])).content.decode()
    species = reverse("character_pick", args=[tessa.pk, "species"])
    assert f'href="{species}"' in page
    # The lists come on asking, so the page stays light.
    assert "Twi&#x27;lek" not in page
    fragment = client.get(species, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in fragment
    assert 'value="compendium.add=entry:' in fragment
    assert "Twi&#x27;lek" in fragment and "gm_yoda, Kessel Run" in fragment
    # The rulebook's entries, each with its seed line.
    seeds = get_ruleset("weg_d6").builtin_entries()
    skill = next(entry for entry in seeds if entry.kind == "skill")
    skills = client.get(reverse("character_pick", args=[tessa.pk, "skill"])).content.decode()
    assert skill.data["name"] in skills and f"rulebook {skill.source}" in skills
    # Without JavaScript the list is a page whose form posts the sheet's edit.
    assert 'name="version"' in skills and reverse("character_edit", args=[tessa.pk]) in skills


def test_a_kind_the_system_does_not_pick_is_not_found(client, player, tessa):
    client.force_login(player)
    for kind in ("starship", "npc_template"):
        assert client.get(reverse("character_pick", args=[tessa.pk, kind])).status_code == 404


def test_a_species_picked_bounds_the_attributes_and_shows_in_the_sheet(
    client, gm, player, weg_book, tessa
):
    twilek = entry_create(user=gm, book=weg_book, kind="species", data=TWILEK)
    client.force_login(player)
    response = pick(client, tessa, twilek.ref)
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="sheet-version"' in body
    tessa.refresh_from_db()
    assert tessa.sheet["custom_species"]["compendium"] == {
        "kind": "species",
        "ref": twilek.ref,
        "version": 1,
    }
    assert tessa.revisions.order_by("-pk").first().summary == "picked Twi'lek from Kessel Run"
    page = client.get(reverse("character_sheet", args=[tessa.pk])).content.decode()
    # Each attribute row names its range under the species.
    assert "Twi&#x27;lek 2D–4D+1" in page
    # Over the species' maximum, the budget panel counts the sheet broken.
    response = client.post(
        reverse("character_edit", args=[tessa.pk]),
        {"version": tessa.version, "only": "attr.dexterity", "attr.dexterity": "4D+2"},
        headers={"HX-Request": "true"},
    )
    body = response.content.decode()
    assert 'id="budget"' in body and "1 broken" in body
    assert "4D+1" in body


def test_a_template_fills_a_new_sheet_and_a_picked_weapon_rolls_its_damage(
    client, gm, player, weg_book, tessa
):
    template = entry_create(user=gm, book=weg_book, kind="template", data=SMUGGLER)
    pistol = entry_create(user=gm, book=weg_book, kind="weapon", data=PISTOL)
    client.force_login(player)
    assert pick(client, tessa, template.ref).status_code == 200
    assert pick(client, tessa, pistol.ref).status_code == 200
    tessa.refresh_from_db()
    assert tessa.sheet["attributes"]["dexterity"] == 10
    assert tessa.sheet["info"]["template"] == "Rim smuggler"
    assert tessa.sheet["gear"]["credits"] == 1200
    weapon = len(tessa.sheet["weapons"]) - 1
    key = f"weapon.{weapon}.damage"
    panel = client.get(reverse("character_roll", args=[tessa.pk, key])).content.decode()
    assert "Kessel pistol: damage" in panel and "4D+1" in panel
    odds = client.get(reverse("roll_odds", args=[tessa.pk, key]))
    assert odds.status_code == 200 and 'class="chance"' in odds.content.decode()
    rolled = client.post(
        reverse("character_roll", args=[tessa.pk, key]), {"campaign": tessa.campaign_id}
    )
    assert rolled.status_code in (200, 302)
    assert tessa.rolls.count() == 1


def test_a_pick_answers_like_any_edit_with_only_what_changed(client, gm, player, weg_book, tessa):
    pistol = entry_create(user=gm, book=weg_book, kind="weapon", data=PISTOL)
    client.force_login(player)
    body = pick(client, tessa, pistol.ref).content.decode()
    assert 'id="sheet-version"' in body and 'hx-swap-oob="true"' in body
    # The weapons and what the sheet picked are redrawn; the attributes are not.
    assert 'id="section-weapons-body"' in body and "Kessel pistol" in body
    assert 'id="section-compendium-body"' in body
    assert 'id="section-attr-dexterity-body"' not in body
    assert "<html" not in body


def test_without_javascript_a_pick_lands_back_on_the_sheet(client, gm, player, weg_book, tessa):
    pistol = entry_create(user=gm, book=weg_book, kind="weapon", data=PISTOL)
    client.force_login(player)
    response = pick(client, tessa, pistol.ref, htmx=False)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("character_sheet", args=[tessa.pk]))
    tessa.refresh_from_db()
    assert tessa.sheet["weapons"][-1]["compendium"]["ref"] == pistol.ref


def test_a_hidden_entry_is_refused_like_an_unknown_one_and_nothing_changes(
    client, gm, player, weg_book, tessa
):
    pistol = entry_create(user=gm, book=weg_book, kind="weapon", data=PISTOL)
    entry_set_hidden(user=gm, entry_id=pistol.pk, hidden=True, expected_version=1)
    client.force_login(player)
    weapons = client.get(reverse("character_pick", args=[tessa.pk, "weapon"])).content.decode()
    assert "Kessel pistol" not in weapons
    version = tessa.version
    for ref in (pistol.ref, "entry:999999", "seed:weapon:nothing", "nonsense"):
        response = pick(client, tessa, ref, htmx=False)
        assert response.status_code == 400
        assert "Pick an entry of this sheet&#x27;s compendium." in response.content.decode()
    tessa.refresh_from_db()
    assert tessa.version == version


def test_an_entry_of_another_tables_book_is_refused(client, gm, other_gm, player, tessa):
    elsewhere = campaign_create(user=other_gm, name="Core Worlds", system="weg_d6")
    pistol = entry_create(
        user=other_gm, book=Book(system="weg_d6", campaign=elsewhere), kind="weapon", data=PISTOL
    )
    client.force_login(player)
    assert pick(client, tessa, pistol.ref, htmx=False).status_code == 400


def test_only_who_edits_the_sheet_picks(client, gm, other_player, weg_book, tessa):
    pistol = entry_create(user=gm, book=weg_book, kind="weapon", data=PISTOL)
    # The table's GM sets the GM's rows, not the player's choices.
    client.force_login(gm)
    response = pick(client, tessa, pistol.ref, htmx=False)
    assert response.status_code == 400
    listing = reverse("character_pick", args=[tessa.pk, "weapon"])
    assert client.get(listing).status_code == 403
    client.force_login(other_player)
    assert pick(client, tessa, pistol.ref, htmx=False).status_code == 404
    assert client.get(listing).status_code == 404
    assert Character.objects.get(pk=tessa.pk).sheet["weapons"] == tessa.sheet["weapons"]


# A weapon and armor of each other system, picked from the owner's own book (a character
# outside a table), the kind's defaults filling what the GM left out.
OTHERS = {
    "swd10": ({"name": "Scatter gun", "damage": 4}, {"name": "Padded vest", "rating": 2}),
    "ore": ({"name": "Scatter gun", "penetration": 1}, {"name": "Padded vest", "ar": 1}),
    "o3d10": ({"name": "Scatter gun", "damage": "2d6"}, {"name": "Padded vest"}),
}


@pytest.mark.parametrize("system", sorted(OTHERS))
def test_outside_a_table_a_sheet_picks_from_its_owners_own_book(client, player, system):
    character = character_create(owner=player, name="Vel", system=system)
    book = Book(system=system, owner=player)
    gun_data, vest_data = OTHERS[system]
    gun = entry_create(user=player, book=book, kind="weapon", data=gun_data)
    vest = entry_create(user=player, book=book, kind="armor", data=vest_data)
    client.force_login(player)
    listed = client.get(reverse("character_pick", args=[character.pk, "weapon"])).content.decode()
    assert "Scatter gun" in listed and "Your own book" in listed
    for entry in (gun, vest):
        response = pick(client, character, entry.ref)
        assert response.status_code == 200 and 'id="sheet-version"' in response.content.decode()
    character.refresh_from_db()
    ruleset = get_ruleset(system)
    assert {ref for _, ref, _ in ruleset.entry_refs(character.sheet)} == {gun.ref, vest.ref}
    assert character.revisions.order_by("-pk").first().summary == (
        "picked Padded vest from Your own book"
    )
    page = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert "Scatter gun" in page and "Padded vest" in page


def test_a_swd10_sheet_at_a_table_picks_the_tables_weapon(
    client, player, swd10_character, repeater
):
    client.force_login(player)
    assert pick(client, swd10_character, repeater.ref).status_code == 200
    swd10_character.refresh_from_db()
    row = swd10_character.sheet["weapons"][-1]
    assert row["compendium"] == {"kind": "weapon", "ref": repeater.ref, "version": 1}


def _soak(system: str, derived: dict):
    """What each system's armor feeds, as its engine computes it."""
    if system == "swd10":
        return [protection.soak for protection in derived["protections"]]
    if system == "ore":
        return derived["armor_by_location"]["torso"]
    return derived["absorption"]


@pytest.mark.parametrize(
    ("system", "armor", "before", "after"),
    [
        ("swd10", {"name": "Padded vest", "rating": 3}, [], [3]),
        ("ore", {"name": "Padded vest", "ar": 2}, 0, 2),
        ("o3d10", {"name": "Padded vest", "absorption": 4}, 0, 4),
    ],
)
def test_a_picked_armors_rating_feeds_what_the_system_soaks_with(
    client, player, system, armor, before, after
):
    from rulesets.core import resolve_settings

    character = character_create(owner=player, name="Vel", system=system)
    vest = entry_create(
        user=player, book=Book(system=system, owner=player), kind="armor", data=armor
    )
    ruleset = get_ruleset(system)
    settings = resolve_settings(ruleset.SETTINGS, {})
    assert _soak(system, ruleset.derived(character.sheet, settings)) == before
    client.force_login(player)
    assert pick(client, character, vest.ref).status_code == 200
    character.refresh_from_db()
    assert _soak(system, ruleset.derived(character.sheet, settings)) == after


def test_a_pick_the_rules_refuse_is_said_beside_the_compendium_row_and_nothing_changes(
    client, gm, player, weg_book, tessa
):
    template = entry_create(user=gm, book=weg_book, kind="template", data=SMUGGLER)
    tessa.sheet = tessa.sheet | {"stage": "play"}
    tessa.save(update_fields=["sheet"])
    client.force_login(player)
    response = pick(client, tessa, template.ref, htmx=False)
    assert response.status_code == 400
    page = response.content.decode()
    section = page[page.index('id="section-compendium"') :]
    assert "A template fills a sheet in creation; this sheet is in play." in section
    stored = Character.objects.get(pk=tessa.pk)
    assert (stored.sheet, stored.version) == (tessa.sheet, tessa.version)


def test_a_picked_species_words_show_on_the_sheet_and_the_pdf(client, gm, player, weg_book, tessa):
    said = {
        "special_abilities": ["Head-tails: speak by their lekku", "Tough hide"],
        "story_factors": ["Often enslaved in the Outer Rim"],
    }
    twilek = entry_create(user=gm, book=weg_book, kind="species", data=TWILEK | said)
    client.force_login(player)
    assert pick(client, tessa, twilek.ref).status_code == 200
    tessa.refresh_from_db()
    species = tessa.sheet["custom_species"]
    assert {key: species[key] for key in said} == said
    page = client.get(reverse("character_sheet", args=[tessa.pk])).content.decode()
    notes = page.split('id="species-notes"')[1].split("</div>")[0]
    assert "Special abilities" in notes and "Story factors" in notes
    assert all(line in notes for line in ("Tough hide", "Often enslaved in the Outer Rim"))
    pdf = client.get(reverse("character_pdf", args=[tessa.pk])).content
    pages = PdfReader(io.BytesIO(pdf)).pages
    # Beside the wound track, where the page has room: still the one page.
    assert len(pages) == 1
    text = " ".join(pages[0].extract_text().split())
    assert "SPECIES NOTES" in text.upper() and "Tough hide" in text, text
    assert "Often enslaved in the Outer Rim" in text


def test_a_species_without_words_adds_nothing_to_the_stored_sheet(
    client, gm, player, weg_book, tessa
):
    twilek = entry_create(user=gm, book=weg_book, kind="species", data=TWILEK)
    client.force_login(player)
    assert pick(client, tessa, twilek.ref).status_code == 200
    tessa.refresh_from_db()
    assert not {"special_abilities", "story_factors"} & set(tessa.sheet["custom_species"])
    page = client.get(reverse("character_sheet", args=[tessa.pk])).content.decode()
    assert 'id="species-notes"' not in page
