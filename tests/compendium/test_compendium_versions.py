"""A GM's change to an entry sheets use: first what it would break on each, then, once
confirmed, every sheet follows the new version with a line in its history. An entry in use
stays; a sheet whose entry is gone keeps working on what it took."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.core.compendium import entry_to_form, find_kind
from rulesets.registry import get_ruleset
from sheets.compendium.models import CompendiumEntry
from sheets.compendium.services import entry_create, import_apply, import_plan
from sheets.transfer.compendium_file import export_book, file_bytes
from tests.compendium.conftest import PISTOL, TWILEK, pick
from tests.compendium.test_compendium_file import _Item

pytestmark = pytest.mark.django_db


def _form(entry: CompendiumEntry, **changes) -> dict:
    kind = find_kind(get_ruleset(entry.system).COMPENDIUM_KINDS, entry.kind)
    data = entry.data | changes
    return entry_to_form(kind, data) | {"_kind": entry.kind, "_version": entry.version}


@pytest.fixture
def picked_twilek(client, gm, player, weg_book, tessa):
    twilek = entry_create(user=gm, book=weg_book, kind="species", data=TWILEK)
    client.force_login(player)
    pick(client, tessa, twilek.ref)
    tessa.refresh_from_db()
    tessa.sheet["attributes"]["dexterity"] = 13  # 4D+1, the Twi'lek maximum
    tessa.save(update_fields=["sheet"])
    return twilek


def test_a_change_first_shows_what_it_breaks_on_each_sheet_and_writes_nothing(
    client, gm, tessa, picked_twilek
):
    client.force_login(gm)
    url = reverse("compendium_entry_edit", args=[picked_twilek.pk])
    lowered = TWILEK["maximum"] | {"dexterity": 12}
    response = client.post(url, _form(picked_twilek, maximum=lowered))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Sheets this change reaches" in page
    assert "Tessa: " in page and "4D+1" in page and "4D" in page
    assert "Save and update 1 sheet" in page
    picked_twilek.refresh_from_db()
    tessa.refresh_from_db()
    assert picked_twilek.version == 1
    assert tessa.sheet["custom_species"]["maximum"]["dexterity"] == 13


def test_once_confirmed_every_sheet_follows_the_new_version_with_a_revision(
    client, gm, tessa, picked_twilek
):
    client.force_login(gm)
    url = reverse("compendium_entry_edit", args=[picked_twilek.pk])
    form = _form(picked_twilek, maximum=TWILEK["maximum"] | {"dexterity": 12})
    preview = client.post(url, form).content.decode()
    digest = preview.split('name="_confirm" value="')[1].split('"')[0]
    response = client.post(url, form | {"_confirm": digest})
    assert response.status_code == 302
    picked_twilek.refresh_from_db()
    tessa.refresh_from_db()
    assert picked_twilek.version == 2
    species = tessa.sheet["custom_species"]
    assert species["maximum"]["dexterity"] == 12
    assert species["compendium"]["version"] == 2
    assert tessa.revisions.order_by("-pk").first().summary == "compendium: Twi'lek v2"
    # The sheet now breaks the species' maximum, as the preview said.
    sheet = client.get(reverse("character_sheet", args=[tessa.pk])).content.decode()
    assert "1 broken" in sheet


def test_a_confirm_of_another_preview_is_shown_the_current_one(
    client, gm, player, tessa, picked_twilek
):
    client.force_login(gm)
    url = reverse("compendium_entry_edit", args=[picked_twilek.pk])
    form = _form(picked_twilek, maximum=TWILEK["maximum"] | {"dexterity": 12})
    response = client.post(url, form | {"_confirm": "not-the-preview"})
    assert response.status_code == 200 and "Sheets this change reaches" in response.content.decode()
    picked_twilek.refresh_from_db()
    assert picked_twilek.version == 1


def test_an_entry_no_sheet_uses_saves_at_once(client, gm, weg_book):
    pistol = entry_create(user=gm, book=weg_book, kind="weapon", data=PISTOL)
    client.force_login(gm)
    url = reverse("compendium_entry_edit", args=[pistol.pk])
    assert client.post(url, _form(pistol, damage=15)).status_code == 302
    pistol.refresh_from_db()
    assert pistol.version == 2 and pistol.data["damage"] == 15


def test_removing_an_entry_a_sheet_uses_is_refused_with_the_sheets(
    client, gm, tessa, picked_twilek
):
    client.force_login(gm)
    url = reverse("compendium_entry_remove", args=[picked_twilek.pk])
    response = client.post(url, {"version": picked_twilek.version})
    assert response.status_code == 400
    assert "Tessa" in response.content.decode()
    assert CompendiumEntry.objects.filter(pk=picked_twilek.pk).exists()


def test_a_sheet_keeps_working_when_its_entry_is_gone(client, player, tessa, picked_twilek):
    # Gone as from a file the sheet was imported from: the snapshot stays.
    CompendiumEntry.objects.filter(pk=picked_twilek.pk).delete()
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[tessa.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Twi&#x27;lek 2D–4D+1" in text
    assert "gone from the book" in text


def test_a_book_file_replacing_an_entry_in_use_previews_what_it_breaks_then_the_sheets_follow(
    gm, weg_book, tessa, picked_twilek
):
    lowered = TWILEK | {"maximum": TWILEK["maximum"] | {"dexterity": 12}}
    raw = file_bytes(export_book(system="weg_d6", entries=[_Item("species", lowered)]))
    plan = import_plan(user=gm, book=weg_book, raw=raw)
    (replaced,) = plan.replaces
    assert replaced.used_by == ("Tessa",)
    assert any(line.startswith("Tessa: ") and "4D+1" in line for line in replaced.breaks)
    import_apply(user=gm, book=weg_book, raw=raw, expected_digest=plan.digest)
    tessa.refresh_from_db()
    assert tessa.sheet["custom_species"]["maximum"]["dexterity"] == 12
    assert tessa.sheet["custom_species"]["compendium"]["version"] == 2
    assert tessa.revisions.order_by("-pk").first().summary == "compendium: Twi'lek v2"
