"""The compendium's pages: browse beside the rulebook, add, edit, copy, hide and remove."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.core.compendium import find_kind, form_fields
from rulesets.registry import get_ruleset
from sheets.campaigns.models import Membership, Role
from sheets.compendium.models import CompendiumEntry
from sheets.compendium.services import entry_create, entry_set_hidden
from tests.compendium.conftest import mark_picked, weapon

pytestmark = pytest.mark.django_db


def _kind(key: str):
    return find_kind(get_ruleset("swd10").COMPENDIUM_KINDS, key)


def _browse(book, **query):
    return reverse("compendium_browse", args=[book.key]), query


def test_the_book_lists_its_entries_beside_the_rulebooks_each_with_its_source(
    client, gm, book, repeater
):
    client.force_login(gm)
    url, _ = _browse(book)
    page = client.get(url).content.decode()
    assert "Heavy repeater" in page
    assert "gm_yoda, Outer Rim" in page
    # A merit of the SWd10 rulebook, with its source line.
    assert "Acute Senses" in page and "000:L328" in page


def test_a_search_by_kind_and_name_narrows_both_sides(client, gm, book, repeater):
    client.force_login(gm)
    url, _ = _browse(book)
    page = client.get(url, {"kind": "merit", "q": "acute"}).content.decode()
    assert "Acute Senses" in page
    assert "Heavy repeater" not in page
    page = client.get(url, {"kind": "weapon"}).content.decode()
    assert "Heavy repeater" in page and "Acute Senses" not in page


def test_htmx_search_answers_the_results_alone(client, gm, book, repeater):
    client.force_login(gm)
    url, _ = _browse(book)
    response = client.get(url, {"q": "repeater"}, headers={"HX-Request": "true"})
    body = response.content.decode()
    assert 'id="compendium-results"' in body
    assert "<html" not in body and "Heavy repeater" in body


def test_an_unknown_kind_in_the_search_is_named_and_everything_shown(client, gm, book, repeater):
    client.force_login(gm)
    url, _ = _browse(book)
    response = client.get(url, {"kind": "starship"})
    assert response.status_code == 200
    assert "Heavy repeater" in response.content.decode()
    assert 'aria-invalid="true"' in response.content.decode()


def test_the_add_page_asks_for_a_kind_then_draws_its_form_with_limits(client, gm, book):
    client.force_login(gm)
    url = reverse("compendium_entry_new", args=[book.key])
    assert "?kind=weapon" in client.get(url).content.decode()
    form = client.get(url, {"kind": "weapon"}).content.decode()
    limits = {field.name: field.max_length for field in form_fields(_kind("weapon"))}
    assert 'name="name"' in form and f'maxlength="{limits["name"]}"' in form
    assert 'name="difficulty"' in form and 'min="' in form and 'max="' in form
    assert 'name="description"' in form and 'maxlength="2000"' in form


def _form(**fields) -> dict:
    return {
        "_kind": "weapon",
        "name": "Heavy repeater",
        "description": "Our own words.",
        "difficulty": "6",
        "rate": "2",
        "damage": "4",
        "clip": "30",
    } | fields


def test_a_gm_adds_an_entry_through_its_form(client, gm, book):
    client.force_login(gm)
    response = client.post(reverse("compendium_entry_new", args=[book.key]), _form())
    entry = CompendiumEntry.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("compendium_entry", args=[entry.pk])
    assert (entry.name, entry.data["damage"], entry.author) == ("Heavy repeater", 4, gm)


def test_bad_input_comes_back_beside_its_field_and_nothing_is_stored(client, gm, book, repeater):
    client.force_login(gm)
    url = reverse("compendium_entry_new", args=[book.key])
    response = client.post(url, _form(name="heavy REPEATER", damage="lots"))
    page = response.content.decode()
    assert response.status_code == 400
    assert 'id="field-name-error"' in page and "already has a weapon" in page
    assert 'id="field-damage-error"' in page
    assert 'value="lots"' in page
    assert CompendiumEntry.objects.count() == 1


def test_with_htmx_a_refusal_is_a_200_fragment_and_a_success_a_client_redirect(client, gm, book):
    client.force_login(gm)
    url = reverse("compendium_entry_new", args=[book.key])
    refused = client.post(url, _form(damage="lots"), headers={"HX-Request": "true"})
    assert refused.status_code == 200
    assert '<form method="post"' in refused.content.decode()
    assert "<html" not in refused.content.decode()
    saved = client.post(url, _form(), headers={"HX-Request": "true"})
    assert saved["HX-Redirect"] == reverse(
        "compendium_entry", args=[CompendiumEntry.objects.get().pk]
    )


def test_an_edit_of_an_old_version_keeps_what_was_typed_and_says_so(client, gm, book, repeater):
    client.force_login(gm)
    entry_set_hidden(user=gm, entry_id=repeater.pk, hidden=True, expected_version=1)
    url = reverse("compendium_entry_edit", args=[repeater.pk])
    response = client.post(url, _form(damage="7", _version="1"))
    page = response.content.decode()
    assert response.status_code == 409
    assert 'id="conflict"' in page and 'value="7"' in page
    assert 'name="_version" value="2"' in page
    repeater.refresh_from_db()
    assert repeater.data["damage"] == 4
    again = client.post(url, _form(damage="7", _version="2"))
    assert again.status_code == 302
    repeater.refresh_from_db()
    assert (repeater.data["damage"], repeater.version) == (7, 3)


def test_a_hidden_entry_is_not_shown_to_the_tables_players(client, gm, player, book, repeater):
    entry_set_hidden(user=gm, entry_id=repeater.pk, hidden=True, expected_version=1)
    client.force_login(player)
    url, _ = _browse(book)
    assert "Heavy repeater" not in client.get(url).content.decode()
    assert client.get(reverse("compendium_entry", args=[repeater.pk])).status_code == 404
    client.force_login(gm)
    assert "Hidden from players" in client.get(url).content.decode()


def test_a_player_reads_the_visible_entries_but_changes_nothing(client, player, book, repeater):
    client.force_login(player)
    page = client.get(reverse("compendium_entry", args=[repeater.pk])).content.decode()
    assert "Heavy repeater" in page
    assert reverse("compendium_entry_edit", args=[repeater.pk]) not in page
    assert client.get(reverse("compendium_entry_edit", args=[repeater.pk])).status_code == 403


def test_a_co_gm_gets_the_edit_page(client, make_user, book, repeater):
    co_gm = make_user("leia_co_gm")
    Membership.objects.create(campaign=book.campaign, user=co_gm, role=Role.GM)
    client.force_login(co_gm)
    assert client.get(reverse("compendium_entry_edit", args=[repeater.pk])).status_code == 200


def test_removal_asks_first_then_removes(client, gm, book, repeater):
    client.force_login(gm)
    url = reverse("compendium_entry_remove", args=[repeater.pk])
    assert "Yes, remove" in client.get(url).content.decode()
    response = client.post(url, {"version": "1"})
    assert response["Location"] == reverse("compendium_browse", args=[book.key])
    assert not CompendiumEntry.objects.exists()


def test_removal_of_an_entry_in_use_names_the_sheets_and_keeps_it(
    client, gm, book, repeater, swd10_character
):
    mark_picked(swd10_character, repeater)
    client.force_login(gm)
    url = reverse("compendium_entry_remove", args=[repeater.pk])
    assert "Kira Dane" in client.get(url).content.decode()
    response = client.post(url, {"version": "1"})
    assert response.status_code == 400
    assert "Kira Dane" in response.content.decode()
    assert CompendiumEntry.objects.filter(pk=repeater.pk).exists()


def test_hide_and_show_from_the_entry_page(client, gm, repeater):
    client.force_login(gm)
    url = reverse("compendium_entry_visibility", args=[repeater.pk])
    client.post(url, {"hidden": "1", "version": "1"})
    repeater.refresh_from_db()
    assert repeater.hidden
    client.post(url, {"hidden": "0", "version": "2"})
    repeater.refresh_from_db()
    assert not repeater.hidden and repeater.version == 3


def test_a_rulebook_entry_is_copied_into_the_book_from_its_page(client, gm, book):
    client.force_login(gm)
    page = client.get(reverse("compendium_builtin", args=[book.key, "merit", "acute_senses"]))
    assert "000:L328" in page.content.decode()
    response = client.post(
        reverse("compendium_copy", args=[book.key]), {"source": "seed:merit:acute_senses"}
    )
    entry = CompendiumEntry.objects.get()
    assert response["Location"] == reverse("compendium_entry", args=[entry.pk])
    assert entry.name == "Acute Senses"


def test_a_copy_under_a_taken_name_asks_for_another_beside_the_name(client, gm, book, repeater):
    client.force_login(gm)
    url = reverse("compendium_copy", args=[book.key])
    response = client.post(url, {"source": repeater.ref})
    assert response.status_code == 400
    assert 'id="error-name"' in response.content.decode()
    assert client.post(url, {"source": repeater.ref, "name": "Second"}).status_code == 302


def test_the_personal_book_is_reached_from_home_and_the_table_from_its_page(client, player, table):
    client.force_login(player)
    assert reverse("compendium_home") in client.get(reverse("home")).content.decode()
    home = client.get(reverse("compendium_home")).content.decode()
    assert reverse("compendium_browse", args=["mine-weg_d6"]) in home
    assert reverse("compendium_browse", args=[f"table-{table.pk}"]) in home
    detail = client.get(reverse("campaign_detail", args=[table.pk])).content.decode()
    assert reverse("compendium_browse", args=[f"table-{table.pk}"]) in detail


def test_someone_elses_personal_book_cannot_be_named(client, player, other_player, personal_book):
    entry = entry_create(user=player, book=personal_book, kind="weapon", data=weapon())
    client.force_login(other_player)
    assert client.get(reverse("compendium_entry", args=[entry.pk])).status_code == 404
    # "mine-swd10" is always the visitor's own book: theirs is empty.
    page = client.get(reverse("compendium_browse", args=["mine-swd10"])).content.decode()
    assert "Heavy repeater" not in page


def test_the_copy_page_offers_the_rulebook_name_to_change(client, gm, book):
    client.force_login(gm)
    url = reverse("compendium_copy", args=[book.key])
    page = client.get(url, {"source": "seed:merit:acute_senses"}).content.decode()
    assert 'value="Acute Senses"' in page and "000:L328" in page
    response = client.post(url, {"source": "seed:merit:acute_senses", "name": "Keen Senses"})
    assert response.status_code == 302
    assert CompendiumEntry.objects.get().data["lowest"] == 1


def test_an_entry_page_shows_its_fields_without_repeating_its_name(client, gm, repeater):
    client.force_login(gm)
    page = client.get(reverse("compendium_entry", args=[repeater.pk])).content.decode()
    assert "<dt>Damage</dt><dd>4</dd>" in page
    assert "<dt>Name</dt>" not in page


def test_a_rulebook_entry_no_seed_prints_says_it_is_datapads_default(client, gm, weg_book):
    client.force_login(gm)
    page = client.get(
        reverse("compendium_builtin", args=[weg_book.key, "species", "human"])
    ).content.decode()
    assert "Datapad&#x27;s default" in page and "OUTSIDE" not in page
    listing = client.get(reverse("compendium_browse", args=[weg_book.key]), {"q": "human"})
    assert "OUTSIDE" not in listing.content.decode()
