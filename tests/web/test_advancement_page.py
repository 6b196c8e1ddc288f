"""The Advancement page and the table's award page speak the system's own language
(issue 24, items 4, 8, 19), through the requests a browser sends.

A WEG die code's next step prints as a code, never as pips; a raise the engine would
refuse (WEG's one pip per skill between adventures) gets no Buy button but says why; and a
Character Point system's pages say CP, never XP, with the points a sheet in creation still
holds shown beside the ledger's balance.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from rulesets.core import resolve_settings
from rulesets.registry import get_ruleset
from rulesets.weg_d6.data import EDITION_1E
from sheets.advancement import services as ledger
from sheets.advancement.figures import figures
from sheets.advancement.models import LedgerEntry
from sheets.campaigns.services import campaign_create, campaign_join, invitation_create
from sheets.characters.models import Character
from sheets.characters.services import character_create
from tests.web.test_ledger import _finished

pytestmark = pytest.mark.django_db


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _get(client: Client, name: str, *args) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def _quote_row(page: str, trait: str) -> str:
    found = re.search(rf'<tr id="quote-{re.escape(trait)}".*?</tr>', page, re.S)
    assert found, trait
    return found.group(0)


def _weg_in_play(player, points: int = 20) -> Character:
    """A finished WEG (R&E) demo character at no table, with `points` CP awarded."""
    character = _finished(player, "weg_d6")
    response = _as(player).post(
        reverse("ledger_award", args=[character.pk]),
        {"version": str(character.version), "amount": str(points), "reason": "Session"},
    )
    assert response.status_code == 302
    return _fresh(character)


@pytest.fixture
def weg_table(gm, player):
    campaign = campaign_create(user=gm, name="Mos Eisley", system="weg_d6")
    campaign_join(user=player, token=invitation_create(user=gm, campaign_id=campaign.pk).token)
    return campaign


# Item 4: a die code's next step --------------------------------------------------------


def test_a_weg_specializations_next_step_shows_as_a_die_code_not_as_pips(player):
    character = _weg_in_play(player)
    spec = next(q for q in ledger.quotes(character) if q.trait.startswith("spec."))

    row = _quote_row(
        _get(_as(player), "character_ledger", character.pk), spec.trait.replace(".", "")
    )

    step = re.search(r'<td class="step">(.*?)</td>', row).group(1)
    assert re.fullmatch(r"\d+D(\+\d)? → \d+D(\+\d)?", step), step
    assert f"→ {spec.to_value}<" not in row


# Item 8: no Buy button the rules refuse ------------------------------------------------


def test_a_second_pip_the_one_pip_rule_refuses_has_no_buy_button_and_says_why(player):
    character = _weg_in_play(player)
    client = _as(player)
    skill = next(
        q for q in ledger.quotes(character) if q.trait.startswith("skill.") and q.affordable
    )
    # Used last adventure: no training (002:43), so the pip is on the sheet at once and only
    # the one-pip rule stands in the way of a second.
    bought = client.post(
        reverse("ledger_buy", args=[character.pk]),
        {"version": str(character.version), "trait": skill.trait, "used": "yes"},
    )
    assert bought.status_code == 302
    character = _fresh(character)
    assert figures(character).balance >= next(
        q.cost.amount for q in ledger.quotes(character) if q.trait == skill.trait
    ), "the balance pays for a second pip: only the rule refuses it"

    row = _quote_row(_get(client, "character_ledger", character.pk), skill.trait.replace(".", ""))

    assert "Buy</button>" not in row
    assert "can rise only one pip between adventures" in row
    # Raises the rule allows keep their button.
    other = next(
        q
        for q in ledger.quotes(character)
        if q.trait.startswith("skill.") and q.trait != skill.trait and q.affordable
    )
    page = _get(client, "character_ledger", character.pk)
    assert "Buy</button>" in _quote_row(page, other.trait.replace(".", ""))


# Item 19: the system's own unit --------------------------------------------------------


def test_a_weg_table_is_awarded_character_points_not_xp(player, gm, weg_table):
    character = _weg_in_play(player)
    client = _as(player)
    client.post(reverse("campaign_bring", args=[weg_table.pk]), {"character": str(character.pk)})
    gm_client = _as(gm)

    detail = _get(gm_client, "campaign_detail", weg_table.pk)
    award = _get(gm_client, "campaign_award", weg_table.pk)
    sheet_ledger = _get(gm_client, "character_ledger", character.pk)

    assert "Award CP to the table" in detail and "Award XP" not in detail
    assert "Award CP to the table" in award and "Amount (CP)" in award
    assert "XP" not in re.sub(r"<(script|style).*?</\1>", "", award, flags=re.S)
    balance = re.search(rf'<tr id="balance-{character.pk}">.*?</tr>', award, re.S).group(0)
    assert f"{figures(_fresh(character)).balance} CP" in balance
    assert "Amount (CP)" in sheet_ledger and "Amount in CP" in sheet_ledger


def test_the_award_page_shows_what_a_sheet_in_creation_still_holds_as_the_sheet_does(
    player, gm, weg_table
):
    character = character_create(
        owner=player,
        name="Fresh Pilot",
        system="weg_d6",
        sheet=get_ruleset("weg_d6").demo_sheet(),
        campaign=weg_table,
    )
    assert character.sheet["stage"] == "creation"
    assert figures(character).balance == 0

    award = _get(_as(gm), "campaign_award", weg_table.pk)
    own = _get(_as(player), "character_ledger", character.pk)

    balance = re.search(rf'<tr id="balance-{character.pk}">.*?</tr>', award, re.S).group(0)
    assert "0 CP" in balance and "+ 5 CP on the sheet until creation ends" in balance
    on_sheet = re.search(r'<p class="figure" id="ledger-on-sheet">.*?</p>', own, re.S).group(0)
    assert "On the sheet until creation ends" in on_sheet and "5 CP" in on_sheet


def test_a_weg_table_with_sheets_of_both_editions_names_both_units(player, gm, weg_table):
    ruleset = get_ruleset("weg_d6")
    first = ruleset.blank_sheet(resolve_settings(ruleset.SETTINGS, {"default_edition": EDITION_1E}))
    character_create(
        owner=player, name="Old Hand", system="weg_d6", sheet=first, campaign=weg_table
    )
    character_create(
        owner=player,
        name="New Hand",
        system="weg_d6",
        sheet=ruleset.demo_sheet(),
        campaign=weg_table,
    )

    award = _get(_as(gm), "campaign_award", weg_table.pk)

    assert "Award CP or SP to the table" in award
    assert "Amount (CP or SP, each sheet in its own)" in award


def test_a_bad_award_amount_is_refused_beside_the_form_and_changes_nothing(gm, weg_table, player):
    character = _weg_in_play(player)
    _as(player).post(
        reverse("campaign_bring", args=[weg_table.pk]), {"character": str(character.pk)}
    )
    before = list(LedgerEntry.objects.order_by("pk").values_list("pk", "amount"))

    response = _as(gm).post(
        reverse("campaign_award", args=[weg_table.pk]), {"amount": "lots", "reason": "Session 2"}
    )

    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    error = re.search(r'<p class="error" role="alert" id="award-error">(.*?)</p>', page).group(1)
    assert "award" in error.lower() and "Amount (CP)" in page
    assert 'value="lots"' in page
    assert list(LedgerEntry.objects.order_by("pk").values_list("pk", "amount")) == before
