"""O.R.E.: every Force power but Force Sense, and every stunt, needs the GM's permission
(001:L774). In play at a table such a purchase waits on the ledger, holding its price, until
the GM consents (which gives the permission) or refuses; off-table the owner is their own
GM and buys it at once; at creation the sheet marks the power as waiting for the GM."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.core import resolve_settings
from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.figures import engine_sheet, figures
from sheets.advancement.models import LedgerEntry
from sheets.advancement.services import LedgerRefused
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import EditRefused, character_apply_edits, character_create
from sheets.characters.state import sheet_state

pytestmark = pytest.mark.django_db


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _balance(character: Character) -> int:
    character = _fresh(character)
    total = sum(LedgerEntry.objects.filter(character=character).values_list("amount", flat=True))
    assert figures(character).balance == total
    return total


def _unspent(character: Character) -> int:
    character = _fresh(character)
    ruleset = get_ruleset("ore")
    settings = resolve_settings(ruleset.SETTINGS, character.readings_in_force)
    return ruleset.status(engine_sheet(character), settings).unspent


@pytest.fixture
def jedi(player):
    return character_create(owner=player, name="Ahsa Venn", system="ore")


@pytest.fixture
def at_table(player, gm, jedi):
    campaign = campaign_create(user=gm, name="Dantooine", system="ore")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    character_bring(user=player, campaign_id=campaign.pk, character_id=jedi.pk)
    return _fresh(jedi)


def _play(player, character: Character) -> Character:
    return character_apply_edits(
        user=player,
        character_id=character.pk,
        edits={"stage": "play"},
        expected_version=_fresh(character).version,
    )


def _buy(user, character, trait):
    return ledger.purchase(
        user=user,
        character_id=character.pk,
        trait=trait,
        expected_version=_fresh(character).version,
        reason="Trained with the old hermit",
    )


def _decide(user, character, entry, approve, reason=""):
    return ledger.consent(
        user=user,
        character_id=character.pk,
        entry_id=entry.pk,
        approve=approve,
        expected_version=_fresh(character).version,
        reason=reason,
    )


def _power(character, slug):
    return _fresh(character).sheet["powers"][slug]


def test_at_a_table_a_force_power_waits_for_the_gm_and_approval_gives_the_permission(
    player, gm, at_table
):
    jedi = _play(player, at_table)
    ledger.award(user=gm, character_id=jedi.pk, amount="20", reason="Session 1")
    start = _balance(jedi)  # the award, and what creation left unspent
    asked = _buy(player, jedi, "power.energy_manipulation")
    assert asked.pending and asked.amount == -5  # 5 XP a normal die (L786)
    assert _power(jedi, "energy_manipulation") == {
        "dice": 0,
        "hard": 0,
        "wiggle": 0,
        "approved": False,
    }
    assert figures(_fresh(jedi)).held == 5 and _balance(jedi) == start - 5
    with pytest.raises(LedgerRefused, match="Only the GM"):
        _decide(player, jedi, asked, True)
    approved = _decide(gm, jedi, asked, True)
    assert not approved.pending and approved.amount == -5
    assert approved.trait == "power.energy_manipulation"
    assert _power(jedi, "energy_manipulation")["dice"] == 1
    assert _power(jedi, "energy_manipulation")["approved"] is True
    assert _balance(jedi) == start - 5 == _unspent(jedi)
    # The permission once given, the next die is bought at once.
    again = _buy(player, jedi, "power.energy_manipulation")
    assert not again.pending and _power(jedi, "energy_manipulation")["dice"] == 2
    # Both purchases undo like any other, and the balance comes back where it was.
    for entry in (again, approved):
        ledger.undo(
            user=player,
            character_id=jedi.pk,
            entry_id=entry.pk,
            expected_version=_fresh(jedi).version,
        )
    assert _power(jedi, "energy_manipulation")["dice"] == 0
    assert _balance(jedi) == start == _unspent(jedi)


def test_a_stunt_waits_too_and_a_refusal_frees_what_it_held(player, gm, at_table):
    jedi = _play(player, at_table)
    ledger.award(user=gm, character_id=jedi.pk, amount="10", reason="Session 1")
    start = _balance(jedi)
    asked = _buy(player, jedi, "stunt.blaster_defense")
    assert asked.pending and asked.amount == -2
    assert "blaster_defense" not in _fresh(jedi).sheet["stunts"]
    with pytest.raises(LedgerRefused, match="already waits"):
        _buy(player, jedi, "stunt.blaster_defense")
    with pytest.raises(LedgerRefused, match="Say why"):
        _decide(gm, jedi, asked, False)
    _decide(gm, jedi, asked, False, reason="Not yet")
    assert "blaster_defense" not in _fresh(jedi).sheet["stunts"]
    assert figures(_fresh(jedi)).held == 0 and _balance(jedi) == start


def test_force_sense_needs_no_permission_at_a_table(player, gm, at_table):
    jedi = _play(player, at_table)
    ledger.award(user=gm, character_id=jedi.pk, amount="10", reason="Session 1")
    bought = _buy(player, jedi, "power.force_sense")
    assert not bought.pending and _power(jedi, "force_sense")["dice"] == 2


def test_off_table_the_owner_is_their_own_gm_and_buys_with_the_permission(player, jedi):
    jedi = _play(player, jedi)
    ledger.award(user=player, character_id=jedi.pk, amount="10", reason="Session 1")
    start = _balance(jedi)
    bought = _buy(player, jedi, "power.physical_control")
    assert not bought.pending
    assert _power(jedi, "physical_control")["dice"] == 1
    assert _power(jedi, "physical_control")["approved"] is True
    assert _balance(jedi) == start - 5 == _unspent(jedi)


def test_at_creation_an_unapproved_power_is_marked_as_waiting_for_the_gm(player, gm, at_table):
    jedi = character_apply_edits(
        user=player,
        character_id=at_table.pk,
        edits={"power.energy_manipulation": "2"},
        expected_version=at_table.version,
    )
    ruleset = get_ruleset("ore")
    state = sheet_state(ruleset, _fresh(jedi).sheet, _fresh(jedi).readings_in_force)
    flagged = state.report.for_trait("power.energy_manipulation")
    assert [v.code for v in flagged] == ["gm_permission"]
    # The player cannot give it to themselves at a table.
    with pytest.raises(EditRefused):
        character_apply_edits(
            user=player,
            character_id=jedi.pk,
            edits={"power.energy_manipulation.approved": "yes"},
            expected_version=_fresh(jedi).version,
        )


def test_the_ledger_page_asks_the_gm_for_a_power_and_the_gm_approves_there(
    client, player, gm, at_table
):
    jedi = _play(player, at_table)
    ledger.award(user=gm, character_id=jedi.pk, amount="20", reason="Session 1")
    client.force_login(player)
    page = client.get(reverse("character_ledger", args=[jedi.pk])).content.decode()
    row = page.split('id="quote-powerenergy_manipulation"')[1].split("</tr>")[0]
    assert "GM's consent" in row and "Ask the GM" in row
    sense = page.split('id="quote-powerforce_sense"')[1].split("</tr>")[0]
    assert "Ask the GM" not in sense
    response = client.post(
        reverse("ledger_buy", args=[jedi.pk]),
        {
            "trait": "power.energy_manipulation",
            "reason": "A vision",
            "version": _fresh(jedi).version,
        },
    )
    assert response.status_code == 302
    asked = LedgerEntry.objects.get(character=jedi, pending=True)
    client.force_login(gm)
    page = client.get(reverse("character_ledger", args=[jedi.pk])).content.decode()
    assert "awaits the GM's consent" in page
    response = client.post(
        reverse("ledger_consent", args=[jedi.pk]),
        {"entry": asked.pk, "decision": "approve", "version": _fresh(jedi).version},
    )
    assert response.status_code == 302
    assert _power(jedi, "energy_manipulation") == {
        "dice": 1,
        "hard": 0,
        "wiggle": 0,
        "approved": True,
    }
