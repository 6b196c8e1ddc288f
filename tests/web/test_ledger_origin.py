"""Points have a visible origin (issue 25, item 3), through the requests a browser sends.

Points given anywhere but at the table (awarded off-table or at another table, carried over
when creation ended elsewhere, read from an imported file) show as such to the table's GM
when the sheet joins or rejoins it, and count there only once that GM accepts them. The
player sees them waiting, not gone; a refusal takes them off the ledger for good; off-table
the owner is their own GM and every entry counts.
"""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from rulesets.core.ledger import CARRIED_TRAIT
from sheets.advancement import services as ledger
from sheets.advancement.figures import figures
from sheets.advancement.models import LedgerEntry
from sheets.campaigns.services import campaign_create, campaign_join, invitation_create
from sheets.characters.models import Character
from sheets.transfer.datapad import export_character
from tests.web.test_ledger import _finished

pytestmark = pytest.mark.django_db


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _ledger_page(client: Client, character: Character) -> str:
    response = client.get(reverse("character_ledger", args=[character.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _balance_panel(page: str) -> str:
    return re.search(r'<section id="ledger-balance".*?</section>', page, re.S).group(0)


def _origins_panel(page: str) -> str:
    found = re.search(r'<section id="ledger-origins".*?</section>', page, re.S)
    return found.group(0) if found else ""


def _stored(character: Character) -> tuple:
    """What a refused decision must leave as it was."""
    character = _fresh(character)
    return (
        character.version,
        character.sheet,
        list(
            LedgerEntry.objects.filter(character=character)
            .order_by("pk")
            .values_list("pk", "amount", "needs_acceptance", "accepted_in")
        ),
    )


@pytest.fixture
def outer_rim(gm, player):
    """A SWd10 table run by `gm`, which `player` has joined (no sheet at it yet)."""
    campaign = campaign_create(user=gm, name="Outer Rim", system="swd10")
    campaign_join(user=player, token=invitation_create(user=gm, campaign_id=campaign.pk).token)
    return campaign


def _bring(client: Client, campaign, character: Character) -> None:
    response = client.post(
        reverse("campaign_bring", args=[campaign.pk]), {"character": str(character.pk)}
    )
    assert response.status_code == 302, response.content.decode()[:2000]


def _leave(client: Client, character: Character) -> None:
    response = client.post(reverse("character_leave_campaign", args=[character.pk]))
    assert response.status_code == 302
    assert _fresh(character).campaign_id is None


def _award(client: Client, character: Character, amount: int, reason: str):
    return client.post(
        reverse("ledger_award", args=[character.pk]),
        {"version": str(_fresh(character).version), "amount": str(amount), "reason": reason},
    )


def _decide(client: Client, character: Character, entry, decision: str, reason: str = ""):
    return client.post(
        reverse("ledger_origin", args=[character.pk]),
        {
            "version": str(_fresh(character).version),
            "entry": str(entry),
            "decision": decision,
            "reason": reason,
        },
    )


def _off_table_award(player, amount: int = 40) -> tuple[Character, LedgerEntry]:
    """A finished SWd10 sheet whose owner awarded it `amount` XP off-table, by the form."""
    character = _finished(player, "swd10")
    assert _award(_as(player), character, amount, "Solo session").status_code == 302
    return _fresh(character), LedgerEntry.objects.filter(character=character).latest("pk")


# Off-table awards ------------------------------------------------------------------------


def test_an_award_made_off_table_waits_for_the_gm_when_the_sheet_joins_the_table(
    player, gm, outer_rim
):
    character, award = _off_table_award(player, 40)
    before = figures(character).balance
    _bring(_as(player), outer_rim, character)

    # The GM sees where the points came from, with Accept and Refuse, and the dashboard
    # counts them.
    gm_page = _ledger_page(_as(gm), character)
    panel = _origins_panel(gm_page)
    assert "40 XP from elsewhere" in panel and "awarded off-table" in panel
    assert "Solo session" in panel and f'value="{award.pk}"' in panel
    assert 'value="accept"' in panel and 'value="refuse"' in panel
    dashboard = _as(gm).get(reverse("campaign_detail", args=[outer_rim.pk])).content.decode()
    assert "40 XP from elsewhere await your acceptance" in dashboard

    # The player sees them waiting, not gone: out of the balance, shown beside it.
    player_page = _ledger_page(_as(player), character)
    balance = _balance_panel(player_page)
    assert f"<strong>{before - 40} XP</strong>" in balance
    assert "Waiting for the GM's acceptance" in balance and "<b>40 XP</b>" in balance
    assert "once its GM accepts them" in _origins_panel(player_page)
    assert 'value="accept"' not in player_page
    row = re.search(rf'<tr id="entry-{award.pk}".*?</tr>', player_page, re.S).group(0)
    assert "awaits the GM's acceptance" in row
    assert figures(_fresh(character)).balance == before - 40


def test_the_gm_accepts_the_points_and_they_count_at_the_table_from_then_on(player, gm, outer_rim):
    character, award = _off_table_award(player, 40)
    before = figures(character).balance
    _bring(_as(player), outer_rim, character)
    version = _fresh(character).version

    response = _decide(_as(gm), character, award.pk, "accept")

    assert response.status_code == 302
    character = _fresh(character)
    assert figures(character).balance == before and figures(character).waiting == 0
    assert character.version == version + 1
    assert "GM accepted 40 XP from elsewhere" in character.revisions.latest("version").summary
    assert _origins_panel(_ledger_page(_as(player), character)) == ""
    dashboard = _as(gm).get(reverse("campaign_detail", args=[outer_rim.pk])).content.decode()
    assert "await your acceptance" not in dashboard

    # Leaving and coming back to the same table asks no more.
    _leave(_as(player), character)
    _bring(_as(player), outer_rim, character)
    assert figures(_fresh(character)).balance == before
    assert _origins_panel(_ledger_page(_as(gm), character)) == ""


def test_an_award_made_off_table_after_leaving_waits_when_the_sheet_rejoins(player, gm, outer_rim):
    character = _finished(player, "swd10")
    _bring(_as(player), outer_rim, character)
    assert _award(_as(gm), character, 10, "Session 1").status_code == 302
    at_table = figures(_fresh(character)).balance
    _leave(_as(player), character)
    assert _award(_as(player), character, 500, "Found a holocron").status_code == 302
    assert figures(_fresh(character)).balance == at_table + 500  # off-table it counts

    _bring(_as(player), outer_rim, character)

    # The table's own award is not asked about; the one made away from it is.
    character = _fresh(character)
    assert figures(character).balance == at_table and figures(character).waiting == 500
    panel = _origins_panel(_ledger_page(_as(gm), character))
    assert "Found a holocron" in panel and "Session 1" not in panel


def test_the_gm_accepts_every_waiting_entry_at_once(player, gm, outer_rim):
    character, _award_entry = _off_table_award(player, 40)
    assert _award(_as(player), character, 7, "Another solo session").status_code == 302
    before = figures(_fresh(character)).balance
    _bring(_as(player), outer_rim, character)
    assert "Accept all 47 XP" in _ledger_page(_as(gm), character)

    assert _decide(_as(gm), character, "all", "accept").status_code == 302

    assert figures(_fresh(character)).balance == before


def test_points_accepted_at_one_table_are_asked_again_at_another(player, gm, other_gm, outer_rim):
    character, award = _off_table_award(player, 40)
    _bring(_as(player), outer_rim, character)
    assert _decide(_as(gm), character, award.pk, "accept").status_code == 302
    _leave(_as(player), character)
    core = campaign_create(user=other_gm, name="Core Worlds", system="swd10")
    campaign_join(user=player, token=invitation_create(user=other_gm, campaign_id=core.pk).token)

    _bring(_as(player), core, character)

    # Another table's GM accepted for their own table only.
    assert figures(_fresh(character)).waiting == 40
    assert "awarded off-table" in _origins_panel(_ledger_page(_as(other_gm), character))


def test_points_awarded_at_another_table_wait_at_the_next_one(player, gm, other_gm, outer_rim):
    """A player who runs a table of their own cannot award their sheet there and bring it."""
    character = _finished(player, "swd10")
    own = campaign_create(user=player, name="My Own Table", system="swd10")
    _bring(_as(player), own, character)
    assert _award(_as(player), character, 900, "Generous GM").status_code == 302
    _leave(_as(player), character)

    _bring(_as(player), outer_rim, character)

    assert figures(_fresh(character)).waiting == 900
    assert "from another table" in _origins_panel(_ledger_page(_as(gm), character))


# Refusal ---------------------------------------------------------------------------------


def test_the_gm_refuses_points_with_a_reason_and_they_stay_gone_after_the_sheet_leaves(
    player, gm, outer_rim
):
    character, award = _off_table_award(player, 40)
    before = figures(character).balance
    _bring(_as(player), outer_rim, character)

    response = _decide(_as(gm), character, award.pk, "refuse", "Not at my table")

    assert response.status_code == 302
    character = _fresh(character)
    # At the table the balance does not move: the points never counted there.
    assert figures(character).balance == before - 40 and figures(character).waiting == 0
    refusal = LedgerEntry.objects.get(undoes=award)
    assert refusal.amount == -40 and refusal.author == gm
    assert "Not at my table" in refusal.reason
    page = _ledger_page(_as(player), character)
    assert "Not at my table" in page and _origins_panel(page) == ""

    # Taking the sheet off the table does not bring them back.
    _leave(_as(player), character)
    assert figures(_fresh(character)).balance == before - 40


def test_a_refusal_without_a_reason_is_refused_beside_the_form_and_changes_nothing(
    player, gm, outer_rim
):
    character, award = _off_table_award(player, 40)
    _bring(_as(player), outer_rim, character)
    before = _stored(character)

    response = _decide(_as(gm), character, award.pk, "refuse", "  ")

    assert response.status_code == 400
    panel = _origins_panel(response.content.decode())
    assert 'id="origin-error"' in panel and "Say why" in panel
    assert _stored(character) == before


@pytest.mark.parametrize(
    ("entry", "decision", "message"),
    [
        ("999999", "accept", "No points of this character wait for your acceptance"),
        ("abc", "accept", "No such entry"),
        ("{entry}", "maybe", "Accept the points or refuse them"),
        ("all", "refuse", "Refuse one entry at a time"),
    ],
)
def test_a_decision_on_nothing_waiting_is_refused_with_a_message_and_changes_nothing(
    player, gm, outer_rim, entry, decision, message
):
    character, award = _off_table_award(player, 40)
    _bring(_as(player), outer_rim, character)
    before = _stored(character)

    response = _decide(_as(gm), character, entry.format(entry=award.pk), decision, reason="Because")

    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())
    assert _stored(character) == before


def test_a_decision_on_a_version_the_gm_did_not_see_changes_nothing(player, gm, outer_rim):
    character, award = _off_table_award(player, 40)
    _bring(_as(player), outer_rim, character)
    before = _stored(character)

    response = _as(gm).post(
        reverse("ledger_origin", args=[character.pk]),
        {"version": "1", "entry": str(award.pk), "decision": "accept"},
    )

    assert response.status_code == 400
    assert "This sheet changed since you opened it" in response.content.decode()
    assert _stored(character) == before


def test_only_a_gm_of_the_table_accepts_not_the_player_who_brought_the_points(
    player, gm, outer_rim
):
    character, award = _off_table_award(player, 40)
    _bring(_as(player), outer_rim, character)
    before = _stored(character)

    assert _decide(_as(player), character, award.pk, "accept").status_code == 403
    assert _decide(_as(player), character, "all", "accept").status_code == 403
    assert _stored(character) == before


def test_a_waiting_award_is_not_undone_at_the_table(player, gm, outer_rim):
    character, award = _off_table_award(player, 40)
    _bring(_as(player), outer_rim, character)
    page = _ledger_page(_as(gm), character)
    row = re.search(rf'<tr id="entry-{award.pk}".*?</tr>', page, re.S).group(0)
    assert "Undo</button>" not in row
    before = _stored(character)

    response = _as(gm).post(
        reverse("ledger_undo", args=[character.pk]),
        {"version": str(_fresh(character).version), "entry": str(award.pk), "reason": "No"},
    )

    # Undone as well as left out, the points would be taken off twice.
    assert response.status_code == 400
    assert "wait for the GM's acceptance" in html.unescape(response.content.decode())
    assert _stored(character) == before


def test_off_table_the_owner_counts_every_entry_again(player, gm, outer_rim):
    character, _award_entry = _off_table_award(player, 40)
    before = figures(character).balance
    _bring(_as(player), outer_rim, character)
    assert figures(_fresh(character)).balance == before - 40

    _leave(_as(player), character)

    assert figures(_fresh(character)).balance == before
    assert _origins_panel(_ledger_page(_as(player), character)) == ""


# Imports ---------------------------------------------------------------------------------


def _import(client: Client, data: dict) -> Character:
    upload = SimpleUploadedFile("hero.datapad.json", json.dumps(data).encode(), "application/json")
    response = client.post(reverse("character_import"), {"file": upload})
    assert response.status_code == 302, response.content.decode()[:3000]
    return Character.objects.latest("pk")


def test_an_imported_carried_over_award_of_100000_xp_waits_for_the_gm_with_its_origin(
    player, gm, outer_rim
):
    source = _finished(player, "swd10")
    data = export_character(source)
    last = max(revision["version"] for revision in data["history"])
    data["ledger"].append(
        {
            "id": len(data["ledger"]) + 1,
            "kind": "award",
            "amount": 100_000,
            "unit": "XP",
            "trait": CARRIED_TRAIT,
            "trait_label": "Creation",
            "reason": "Carried over",
            "author": "",
            "created_at": datetime(2020, 1, 1, tzinfo=UTC).isoformat(),
            "version": last,
            "undoes": None,
            "carried": True,
        }
    )
    player_client = _as(player)
    imported = _import(player_client, data)
    honest = figures(source).balance
    assert figures(imported).balance == honest + 100_000  # off-table: its owner's to use

    _bring(player_client, outer_rim, imported)

    imported = _fresh(imported)
    assert figures(imported).balance == honest and figures(imported).waiting >= 100_000
    page = _ledger_page(_as(gm), imported)
    panel = _origins_panel(page)
    assert "+100000 XP" in panel and "from an imported file" in panel
    carried = LedgerEntry.objects.get(character=imported, amount=100_000)
    row = re.search(rf'<tr id="entry-{carried.pk}".*?</tr>', page, re.S).group(0)
    assert "an imported file" in row  # the file's author is named as such, not left blank
    # Nothing the sheet buys at the table can spend them.
    assert all(quote.balance == honest for quote in ledger.quotes(imported))

    assert _decide(_as(gm), imported, carried.pk, "refuse", "No such campaign").status_code == 302
    assert figures(_fresh(imported)).balance == honest
