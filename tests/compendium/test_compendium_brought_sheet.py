"""A sheet brought to a table keeps what it picked from its owner's own book: the table's GM
is told where those entries come from, and nothing of the table's pages breaks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.advancement.figures import engine_sheet, figures
from sheets.campaigns.services import character_bring
from sheets.characters.services import character_create
from sheets.compendium.models import Book
from sheets.compendium.services import entry_create
from tests.compendium.conftest import PISTOL, TWILEK, pick

pytestmark = pytest.mark.django_db


@pytest.fixture
def own_tessa(client, player):
    """Tessa built off-table from luke's own book: a Twi'lek with a Kessel pistol."""
    own = Book(system="weg_d6", owner=player)
    twilek = entry_create(user=player, book=own, kind="species", data=TWILEK)
    pistol = entry_create(user=player, book=own, kind="weapon", data=PISTOL)
    tessa = character_create(owner=player, name="Tessa", system="weg_d6")
    client.force_login(player)
    for entry in (twilek, pistol):
        assert pick(client, tessa, entry.ref).status_code == 200
    tessa.refresh_from_db()
    return tessa


def section(page: str) -> str:
    return page.split('id="section-compendium-body"')[1].split("</section>")[0]


def test_off_table_the_owner_reads_their_own_book_as_the_source(client, own_tessa):
    page = client.get(reverse("character_sheet", args=[own_tessa.pk])).content.decode()
    assert "Your own book" in section(page) and "own book" not in section(page).replace(
        "Your own book", ""
    )


def test_at_the_table_the_gm_sees_those_entries_marked_as_from_the_owners_own_book(
    client, gm, player, weg_table, own_tessa
):
    sheet_before = own_tessa.sheet
    ruleset = get_ruleset("weg_d6")
    off_table = ruleset.status(engine_sheet(own_tessa, figures(own_tessa)), {})
    character_bring(user=player, campaign_id=weg_table.pk, character_id=own_tessa.pk)
    client.force_login(gm)

    page = client.get(reverse("character_sheet", args=[own_tessa.pk])).content.decode()
    picked = section(page)
    assert picked.count("from luke&#x27;s own book") == 2
    assert "Twi&#x27;lek" in picked and "Kessel pistol" in picked
    # Nothing is said gone or moved on: the sheet keeps the versions it took.
    assert "gone from the book" not in picked and "the book has" not in picked
    # The species still bounds the attributes, from the snapshot on the sheet.
    assert "Twi&#x27;lek 2D–4D+1" in page

    # The GM's dashboard checks the sheet as it stands: the same faults as off-table.
    response = client.get(reverse("campaign_detail", args=[weg_table.pk]))
    assert response.status_code == 200
    row = response.content.decode().split('id="dashboard"')[1].split("Tessa")[1]
    row = row.split("</tr>")[0]
    assert f"{off_table.errors} error" in row
    own_tessa.refresh_from_db()
    assert own_tessa.sheet == sheet_before


def test_the_gm_copies_the_brought_entries_into_the_table_book_and_the_sheet_picks_from_there(
    client, gm, player, weg_table, weg_book, own_tessa
):
    character_bring(user=player, campaign_id=weg_table.pk, character_id=own_tessa.pk)
    # One of the two is already in the table's book under that name: it is used, not doubled.
    table_pistol = entry_create(user=gm, book=weg_book, kind="weapon", data=PISTOL)
    client.force_login(gm)
    sheet_page = client.get(reverse("character_sheet", args=[own_tessa.pk])).content.decode()
    adopt = reverse("compendium_adopt", args=[own_tessa.pk])
    assert f'href="{adopt}"' in sheet_page
    page = client.get(adopt).content.decode()
    assert "Twi&#x27;lek" in page and "Kessel pistol" in page

    own_tessa.refresh_from_db()
    response = client.post(adopt, {"version": own_tessa.version})

    assert response.status_code == 302
    twilek = weg_book.entries().get(kind="species")
    assert twilek.data["name"] == "Twi'lek" and twilek.author == gm
    assert weg_book.entries().filter(kind="weapon").count() == 1
    own_tessa.refresh_from_db()
    refs = {ref: version for _, ref, version in get_ruleset("weg_d6").entry_refs(own_tessa.sheet)}
    assert refs == {twilek.ref: 1, table_pistol.ref: 1}
    assert own_tessa.revisions.order_by("-pk").first().summary == (
        "compendium: copied into Kessel Run"
    )
    page = client.get(reverse("character_sheet", args=[own_tessa.pk])).content.decode()
    assert "own book" not in section(page) and "Kessel Run" in section(page)


def test_only_a_gm_of_the_table_copies_and_a_stale_look_copies_nothing(
    client, gm, player, weg_table, weg_book, own_tessa
):
    character_bring(user=player, campaign_id=weg_table.pk, character_id=own_tessa.pk)
    adopt = reverse("compendium_adopt", args=[own_tessa.pk])
    own_tessa.refresh_from_db()
    # The owner (a player at the table) may not write the table's book.
    assert client.post(adopt, {"version": own_tessa.version}).status_code == 403
    client.force_login(gm)
    stale = client.post(adopt, {"version": own_tessa.version - 1})
    assert stale.status_code == 400 and "changed meanwhile" in stale.content.decode()
    assert not weg_book.entries().exists()
    assert own_tessa.sheet == type(own_tessa).objects.get(pk=own_tessa.pk).sheet


def test_the_copy_link_is_drawn_only_for_whom_the_copy_is_allowed(
    client, gm, player, weg_table, own_tessa
):
    character_bring(user=player, campaign_id=weg_table.pk, character_id=own_tessa.pk)
    adopt = reverse("compendium_adopt", args=[own_tessa.pk])
    sheet = reverse("character_sheet", args=[own_tessa.pk])
    # The owner is told a GM may copy them, with no link that would answer 403.
    owners = section(client.get(sheet).content.decode())
    assert "copy these entries into the table" in owners and adopt not in owners
    assert client.get(adopt).status_code == 403
    client.force_login(gm)
    assert f'href="{adopt}"' in section(client.get(sheet).content.decode())
    assert client.get(adopt).status_code == 200
