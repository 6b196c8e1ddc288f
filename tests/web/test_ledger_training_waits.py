"""WEG: a raise that needs training counts when its training ends (the reading
`training_counts`, default as 002:43-55 implies). It is paid at once and the ledger says it
is in training; the sheet keeps the old value (and the rolls use it) until the days pass or
the GM marks it done; the end writes the raise as a new version, and an attribute makes its
improvement roll then (002:53). Under "at once" the training is only a record, as before."""

from __future__ import annotations

import random

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.core import DieCode, resolve_settings
from rulesets.weg_d6 import SETTINGS, costs, demo_sheet
from sheets.advancement import services as ledger
from sheets.advancement.figures import figures
from sheets.advancement.models import LedgerEntry, Training
from sheets.advancement.services import LedgerRefused
from sheets.campaigns.models import Campaign
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import EditRefused, character_apply_edits, character_create
from sheets.history.models import Revision
from sheets.history.services import RestoreRefused, character_restore
from sheets.rolls.models import RollEntry
from sheets.rolls.services import rollables_of
from sheets.transfer.datapad import export_character, file_bytes, import_character

pytestmark = pytest.mark.django_db

HUMAN_DEXTERITY_MAX = 12  # 4D, the demo's species maximum


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _balance(character: Character) -> int:
    character = _fresh(character)
    total = sum(LedgerEntry.objects.filter(character=character).values_list("amount", flat=True))
    assert figures(character).balance == total
    return total


def _table(gm, name="Ord Mantell") -> Campaign:
    return campaign_create(user=gm, name=name, system="weg_d6")


def _in_play(owner, campaign=None, *, gm=None, award=120, readings=None, name="Dash") -> Character:
    character = character_create(owner=owner, name=name, system="weg_d6", sheet=demo_sheet())
    if campaign is not None:
        link = invitation_create(user=gm, campaign_id=campaign.pk)
        campaign_join(user=owner, token=link.token)
        character_bring(user=owner, campaign_id=campaign.pk, character_id=character.pk)
        if readings:
            Campaign.objects.filter(pk=campaign.pk).update(rule_settings=readings)
    elif readings:
        Character.objects.filter(pk=character.pk).update(rule_settings=readings)
    character = character_apply_edits(
        user=owner,
        character_id=character.pk,
        edits={"stage": "play"},
        expected_version=_fresh(character).version,
    )
    giver = gm or owner
    ledger.award(user=giver, character_id=character.pk, amount=str(award), reason="Run")
    return _fresh(character)


def _buy(user, character, trait="skill.blaster", **fields):
    return ledger.purchase(
        user=user,
        character_id=character.pk,
        trait=trait,
        expected_version=_fresh(character).version,
        **fields,
    )


def _train(user, character, action, **fields):
    return ledger.train(
        user=user,
        character_id=character.pk,
        action=action,
        expected_version=_fresh(character).version,
        **fields,
    )


def _undo(user, character, entry):
    return ledger.undo(
        user=user,
        character_id=character.pk,
        entry_id=entry.pk,
        expected_version=_fresh(character).version,
    )


def _seed_for(improved: bool) -> int:
    """A seed whose dice give this outcome for Dexterity 3D+1 → 3D+2 against 4D."""
    readings = resolve_settings(SETTINGS, {})
    for seed in range(500):
        rolled = costs.roll_attribute_improvement(
            11, HUMAN_DEXTERITY_MAX, 30, random.Random(seed), readings
        )
        if rolled.improved is improved:
            return seed
    raise AssertionError("no seed gives that outcome")


def test_the_reading_defaults_to_the_end_of_training_and_names_its_source():
    setting = next(s for s in SETTINGS if s.key == "training_counts")
    assert setting.default == "when_trained"
    assert "002:43-55" in setting.source and "imply" in setting.source
    assert {value for value, _label in setting.choices} == {"when_trained", "at_once"}


def test_a_raise_is_paid_at_once_and_reaches_the_sheet_when_its_days_have_passed(player):
    dash = _in_play(player)
    start, before = _balance(dash), _fresh(dash)
    entry = _buy(player, dash)  # Blaster alone: 2 days a point
    found = Training.objects.get(entry=entry)
    assert found.waiting and found.days == -entry.amount * 2
    assert _balance(dash) == start + entry.amount
    after_purchase = _fresh(dash)
    assert after_purchase.sheet["skills"]["blaster"] == before.sheet["skills"]["blaster"]
    _train(player, dash, "pass", days=str(found.days - 1))
    assert _fresh(dash).sheet["skills"]["blaster"] == before.sheet["skills"]["blaster"]
    version = _fresh(dash).version
    _train(player, dash, "pass", days="1")
    ended = _fresh(dash)
    assert ended.sheet["skills"]["blaster"] == before.sheet["skills"]["blaster"] + 1
    assert ended.version == version + 1
    found.refresh_from_db()
    assert found.finished and found.ended_version == ended.version and not found.waiting
    revision = Revision.objects.filter(character=dash).latest("version")
    assert revision.version == ended.version and "Blaster" in revision.summary
    assert _balance(dash) == start + entry.amount  # nothing more is charged at the end


def test_at_once_the_raise_is_on_the_sheet_and_the_training_only_a_record(player):
    dash = _in_play(player, readings={"training_counts": "at_once"})
    blaster = _fresh(dash).sheet["skills"]["blaster"]
    entry = _buy(player, dash)
    assert _fresh(dash).sheet["skills"]["blaster"] == blaster + 1
    found = Training.objects.get(entry=entry)
    assert not found.waiting
    _train(player, dash, "done", training_id=found.pk)
    assert _fresh(dash).sheet["skills"]["blaster"] == blaster + 1


def test_a_raise_with_no_training_time_counts_at_once(player):
    dash = _in_play(player)
    dodge = _fresh(dash).sheet["skills"].get("dodge", 0)
    entry = _buy(player, dash, trait="skill.dodge", used="yes")
    assert not Training.objects.filter(entry=entry).exists()
    assert _fresh(dash).sheet["skills"]["dodge"] == dodge + 1


def test_a_second_raise_of_a_trait_in_training_is_refused_and_its_price_says_why(player):
    dash = _in_play(player)
    _buy(player, dash, trait="attr.dexterity")
    before = _fresh(dash)
    with pytest.raises(LedgerRefused, match="still in training") as refused:
        _buy(player, dash, trait="attr.dexterity")
    assert refused.value.field == "trait"
    assert "Dexterity 3D+1 → 3D+2" in refused.value.message
    assert (_fresh(dash).version, _fresh(dash).sheet) == (before.version, before.sheet)
    quote = next(q for q in ledger.quotes(_fresh(dash)) if q.trait == "attr.dexterity")
    assert not quote.buyable and "raise it again once that training ends" in quote.refusal
    # The sheet's own "Advance to" button is refused the same way.
    with pytest.raises(EditRefused, match="still in training"):
        character_apply_edits(
            user=player,
            character_id=dash.pk,
            edits={"advance.attr.dexterity": "3D+2"},
            expected_version=before.version,
        )


def test_undo_while_in_training_gives_every_point_back_and_leaves_the_sheet_as_it_was(player):
    dash = _in_play(player)
    start, before = _balance(dash), _fresh(dash)
    entry = _buy(player, dash, extra="2")
    found = Training.objects.get(entry=entry)
    _train(player, dash, "pass", days="1")
    _undo(player, dash, entry)
    after = _fresh(dash)
    assert _balance(dash) == start
    assert after.sheet == before.sheet
    found.refresh_from_db()
    assert found.finished and found.ended_version is None
    assert not ledger.in_training(after).exists()
    # The pip may be bought again, its window cleared.
    _buy(player, dash)


def test_undo_after_the_training_ended_lowers_the_value_as_before(player):
    dash = _in_play(player)
    start, before = _balance(dash), _fresh(dash)
    entry = _buy(player, dash, teacher="Tobbo")
    _train(player, dash, "done", training_id=Training.objects.get(entry=entry).pk)
    assert _fresh(dash).sheet["skills"]["blaster"] == before.sheet["skills"]["blaster"] + 1
    _undo(player, dash, entry)
    assert _balance(dash) == start
    assert _fresh(dash).sheet == before.sheet


def test_an_attribute_rolls_when_its_training_ends_and_a_loss_gives_half_back(player, gm):
    dash = _in_play(player, _table(gm), gm=gm)
    start = _balance(dash)
    entry = _buy(player, dash, trait="attr.dexterity", rng=random.Random(_seed_for(True)))
    assert entry.amount == -30 and entry.roll_id is None
    assert not RollEntry.objects.filter(character=dash).exists()
    assert _fresh(dash).sheet["attributes"]["dexterity"] == 10  # rolls use 3D+1 meanwhile
    found = Training.objects.get(entry=entry)
    _train(gm, dash, "done", training_id=found.pk, rng=random.Random(_seed_for(False)))
    entry.refresh_from_db()
    found.refresh_from_db()
    roll = RollEntry.objects.get(pk=entry.roll_id)
    assert not roll.success and roll.campaign_id == dash.campaign_id
    assert entry.unchanged and found.refunded == 15  # half of 30 CP (002:53)
    assert _fresh(dash).sheet["attributes"]["dexterity"] == 10
    assert _balance(dash) == start - 15
    refund = LedgerEntry.objects.get(character=dash, kind="refund")
    assert refund.amount == 15 and refund.roll_id == roll.pk and refund.undoes_id is None
    ledger.undo(
        user=gm,
        character_id=dash.pk,
        entry_id=entry.pk,
        expected_version=_fresh(dash).version,
        reason="Changed our mind",
    )
    assert _balance(dash) == start
    assert _fresh(dash).sheet["attributes"]["dexterity"] == 10


def test_a_won_roll_at_the_end_raises_the_attribute(player):
    dash = _in_play(player)
    entry = _buy(player, dash, trait="attr.dexterity")
    found = Training.objects.get(entry=entry)
    _train(player, dash, "pass", days=str(found.days), rng=random.Random(_seed_for(True)))
    entry.refresh_from_db()
    assert _fresh(dash).sheet["attributes"]["dexterity"] == 11
    assert RollEntry.objects.get(pk=entry.roll_id).success and not entry.unchanged


def test_at_once_the_attribute_rolls_at_purchase_as_before(player):
    dash = _in_play(player, readings={"training_counts": "at_once"})
    entry = _buy(player, dash, trait="attr.dexterity", rng=random.Random(_seed_for(True)))
    assert entry.roll_id is not None
    assert _fresh(dash).sheet["attributes"]["dexterity"] == 11


def test_restoring_a_version_before_the_training_ended_does_not_go_round_the_ledger(player):
    dash = _in_play(player)
    entry = _buy(player, dash)
    held = _fresh(dash).version
    _train(player, dash, "done", training_id=Training.objects.get(entry=entry).pk)
    raised = _fresh(dash)
    with pytest.raises(RestoreRefused) as refused:
        character_restore(
            user=player,
            character_id=dash.pk,
            version=held,
            expected_version=raised.version,
        )
    assert "ledger does not pay for" in refused.value.message
    assert entry.pk in {e.pk for e in refused.value.check.entries}
    assert _fresh(dash).sheet == raised.sheet


def test_the_gm_lets_days_pass_for_the_whole_table_in_one_action(
    player, other_player, make_user, gm
):
    table = _table(gm)
    dash = _in_play(player, table, gm=gm)
    kell = _in_play(other_player, table, gm=gm, name="Kell")
    idle = _in_play(make_user("han"), table, gm=gm, name="Idle")
    blaster = _buy(player, dash)
    dexterity = _buy(other_player, kell, trait="attr.dexterity")
    versions = {c.pk: _fresh(c).version for c in (dash, kell, idle)}
    with pytest.raises(PermissionDenied):
        ledger.train_table(user=player, campaign_id=table.pk, days="3")
    days = Training.objects.get(entry=blaster).days
    changed = ledger.train_table(
        user=gm, campaign_id=table.pk, days=str(days), rng=random.Random(_seed_for(True))
    )
    assert {t.entry_id for t in changed} == {blaster.pk, dexterity.pk}
    assert _fresh(dash).version == versions[dash.pk] + 1
    assert _fresh(kell).version == versions[kell.pk] + 1
    assert _fresh(idle).version == versions[idle.pk]
    assert Training.objects.get(entry=blaster).ended_version == _fresh(dash).version
    kept = Training.objects.get(entry=dexterity)
    assert kept.days_done == days and kept.waiting
    assert _fresh(kell).sheet["attributes"]["dexterity"] == 10


@pytest.mark.parametrize("days", ["-3", "0", "99999", "ten", "", "2.5"])
def test_bad_days_for_the_table_change_nothing(player, gm, days):
    table = _table(gm)
    dash = _in_play(player, table, gm=gm)
    entry = _buy(player, dash)
    before = _fresh(dash)
    with pytest.raises(LedgerRefused) as refused:
        ledger.train_table(user=gm, campaign_id=table.pk, days=days)
    assert refused.value.field == "days"
    assert _fresh(dash).version == before.version
    assert Training.objects.get(entry=entry).days_done == 0


@pytest.mark.parametrize(
    ("action", "fields", "field"),
    [
        ("pass", {"days": "-1"}, "days"),
        ("pass", {"days": "100000"}, "days"),
        ("pass", {"days": "lots"}, "days"),
        ("cut", {"days": "0"}, "days"),  # below the seed's minimum of a day (002:43)
        ("cut", {"days": "x"}, "days"),
    ],
)
def test_a_bad_decision_on_a_training_in_waiting_changes_nothing(player, action, fields, field):
    dash = _in_play(player)
    entry = _buy(player, dash)
    found = Training.objects.get(entry=entry)
    before = _fresh(dash)
    with pytest.raises(LedgerRefused) as refused:
        _train(player, dash, action, training_id=found.pk, **fields)
    assert refused.value.field == field
    after = _fresh(dash)
    assert (after.version, after.sheet) == (before.version, before.sheet)
    found.refresh_from_db()
    assert found.days_done == 0 and found.waiting and not found.finished


def test_a_training_of_another_character_is_not_touched(player, other_player):
    dash = _in_play(player)
    kell = _in_play(other_player, name="Kell")
    theirs = Training.objects.get(entry=_buy(other_player, kell))
    _buy(player, dash)
    with pytest.raises(LedgerRefused, match="No training under way"):
        _train(player, dash, "done", training_id=theirs.pk)
    theirs.refresh_from_db()
    assert not theirs.finished and theirs.waiting


def test_the_pages_show_what_is_in_training_and_the_table_form(client, player, gm):
    table = _table(gm)
    dash = _in_play(player, table, gm=gm)
    entry = _buy(player, dash)
    client.force_login(player)
    sheet = client.get(reverse("character_sheet", args=[dash.pk])).content.decode()
    listed = sheet.split('id="weg-training"')[1].split("</ul>")[0]
    days = Training.objects.get(entry=entry).days
    assert f"Blaster {entry.from_value} → {entry.to_value}: 0 of {days} in-game day" in listed
    assert "alone" in listed and f"{entry.from_value} until it ends" in listed
    page = client.get(reverse("character_ledger", args=[dash.pk])).content.decode()
    row = page.split(f'id="entry-{entry.pk}"')[1].split("</tr>")[0]
    assert "in training" in row and f"keeps {entry.from_value}" in row
    client.force_login(gm)
    url = reverse("campaign_award", args=[table.pk])
    page = client.get(url).content.decode()
    assert 'id="table-training-pass"' in page and "Blaster" in page
    refused = client.post(url, {"action": "training", "days": "-2"})
    body = refused.content.decode()
    assert refused.status_code == 400
    beside = body.split('id="table-training-days"')[1].split("</form>")[0]
    assert 'id="table-training-error"' in beside and "In-game days" in beside
    assert Training.objects.get(entry=entry).days_done == 0
    done = client.post(url, {"action": "training", "days": str(days)})
    assert done.status_code == 302
    assert Training.objects.get(entry=entry).ended_version == _fresh(dash).version
    page = client.get(reverse("character_ledger", args=[dash.pk])).content.decode()
    row = page.split(f'id="entry-{entry.pk}"')[1].split("</tr>")[0]
    assert "training ended" in row and f"{entry.to_value} on the sheet" in row


def test_a_bad_cut_on_the_ledger_page_is_told_beside_its_field(client, player):
    dash = _in_play(player)
    found = Training.objects.get(entry=_buy(player, dash))
    client.force_login(player)
    response = client.post(
        reverse("ledger_training", args=[dash.pk]),
        {"action": "cut", "training": found.pk, "days": "0", "version": _fresh(dash).version},
    )
    assert response.status_code == 400
    item = response.content.decode().split(f'id="training-{found.pk}"')[1].split("</li>")[0]
    assert 'id="training-error"' in item and "never shorter" in item


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    trait=st.sampled_from(["skill.blaster", "attr.dexterity", "move", "skill.dodge"]),
    taught=st.booleans(),
    days=st.integers(min_value=0, max_value=500),
    seed=st.integers(min_value=0, max_value=2**32),
    at_once=st.booleans(),
)
def test_a_purchase_then_its_undo_leave_balance_and_sheet_as_they_were(
    player, trait, taught, days, seed, at_once
):
    readings = {"training_counts": "at_once"} if at_once else None
    dash = _in_play(player, award=200, readings=readings)
    start, before = _balance(dash), _fresh(dash)
    entry = _buy(
        player, dash, trait=trait, teacher="Tobbo" if taught else "", rng=random.Random(seed)
    )
    # Read "at once", a failed improvement roll leaves nothing in training to pass days on.
    if days and Training.objects.filter(character=dash, finished=False).exists():
        _train(player, dash, "pass", days=str(days), rng=random.Random(seed + 1))
    _undo(player, dash, entry)
    assert _balance(dash) == start
    assert _fresh(dash).sheet == before.sheet


def test_a_raise_in_training_travels_with_the_character_file(player):
    dash = _in_play(player)
    entry = _buy(player, dash, teacher="Tobbo")
    _train(player, dash, "pass", days="1")
    copy = import_character(owner=player, raw=file_bytes(export_character(_fresh(dash))))
    found = Training.objects.get(character=copy)
    mine = Training.objects.get(entry=entry)
    assert (found.days, found.days_done, found.taught, found.new_value) == (
        mine.days,
        mine.days_done,
        True,
        mine.new_value,
    )
    assert found.waiting and found.entry.to_value == entry.to_value
    _train(player, copy, "pass", days=str(found.days))
    assert _fresh(copy).sheet["skills"]["blaster"] == _fresh(dash).sheet["skills"]["blaster"] + 1


def test_a_raise_the_gm_overtook_meanwhile_is_not_written_and_its_points_come_back(player, gm):
    dash = _in_play(player, _table(gm), gm=gm)
    start = _balance(dash)
    entry = _buy(player, dash)  # Blaster 5D+1 → 5D+2, in training
    ledger.correct_trait(
        user=gm,
        character_id=dash.pk,
        trait="skill.blaster",
        value="6D",
        reason="Noted wrong at creation",
        expected_version=_fresh(dash).version,
    )
    found = Training.objects.get(entry=entry)
    _train(gm, dash, "done", training_id=found.pk)
    assert _fresh(dash).sheet["skills"]["blaster"] == 18  # 6D, as the GM set it
    refund = LedgerEntry.objects.get(undoes=entry)
    assert refund.amount == -entry.amount and "no longer fits" in refund.reason
    # Its line leaves the value where the GM put it, not where the purchase started.
    assert (refund.from_value, refund.to_value) == ("6D", "6D")
    assert _balance(dash) == start
    found.refresh_from_db()
    assert found.finished and found.ended_version is None and "Not written" in found.note


def test_the_table_s_house_rules_page_shows_the_reading(client, gm):
    table = _table(gm)
    client.force_login(gm)
    page = client.get(reverse("campaign_settings", args=[table.pk])).content.decode()
    assert "A raise that needs training counts" in page and "002:43-55" in page


def test_the_sheet_s_advance_button_waits_for_the_training_too(player):
    dash = _in_play(player)
    start, before = _balance(dash), _fresh(dash)
    character_apply_edits(
        user=player,
        character_id=dash.pk,
        edits={"advance.attr.dexterity": "3D+2"},
        expected_version=before.version,
    )
    entry = LedgerEntry.objects.get(character=dash, kind="purchase")
    assert entry.amount == -30 and entry.roll_id is None
    assert _balance(dash) == start - 30
    assert _fresh(dash).sheet["attributes"]["dexterity"] == 10
    assert Training.objects.get(entry=entry).waiting


def test_the_campaign_dashboard_leads_the_gm_to_the_table_s_training(client, player, gm):
    table = _table(gm)
    client.force_login(gm)
    page = client.get(reverse("campaign_detail", args=[table.pk])).content.decode()
    assert 'id="table-training-link"' in page
    assert f"{reverse('campaign_award', args=[table.pk])}#table-training" in page
    _in_play(player, table, gm=gm)
    client.force_login(player)
    page = client.get(reverse("campaign_detail", args=[table.pk])).content.decode()
    assert 'id="table-training-link"' not in page  # the GM's step


def test_the_rolls_use_the_value_in_force_until_the_training_ends(player):
    dash = _in_play(player)
    _buy(player, dash, trait="attr.dexterity")

    def dexterity_pool() -> str:
        found = {r.key: r for r in rollables_of(_fresh(dash))}
        return str(DieCode.from_pips(found["attr.dexterity"].dice))

    assert dexterity_pool() == "3D+1"
    _train(
        player,
        dash,
        "done",
        training_id=Training.objects.get(character=dash).pk,
        rng=random.Random(_seed_for(True)),
    )
    assert dexterity_pool() == "3D+2"
