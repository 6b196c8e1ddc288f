"""WEG training on the ledger (002:43-59, 002:798; 1E 003:1762): a purchase records the
training it needs, extra points shorten it where the seed allows and never below its
minimum, the ledger and the sheet show what is in training, and the GM lets in-game days
pass, marks a training done or cuts it short."""

from __future__ import annotations

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.weg_d6 import demo_sheet
from sheets.advancement import services as ledger
from sheets.advancement.figures import figures
from sheets.advancement.models import LedgerEntry, Training
from sheets.advancement.services import LedgerRefused
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create

pytestmark = pytest.mark.django_db


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _balance(character: Character) -> int:
    character = _fresh(character)
    total = sum(LedgerEntry.objects.filter(character=character).values_list("amount", flat=True))
    assert figures(character).balance == total
    return total


def _in_play(owner, gm=None, *, award=60) -> Character:
    character = character_create(owner=owner, name="Dash", system="weg_d6", sheet=demo_sheet())
    if gm is not None:
        campaign = campaign_create(user=gm, name="Ord Mantell", system="weg_d6")
        link = invitation_create(user=gm, campaign_id=campaign.pk)
        campaign_join(user=owner, token=link.token)
        character_bring(user=owner, campaign_id=campaign.pk, character_id=character.pk)
    character = character_apply_edits(
        user=owner,
        character_id=character.pk,
        edits={"stage": "play"},
        expected_version=_fresh(character).version,
    )
    ledger.award(user=gm or owner, character_id=character.pk, amount=str(award), reason="Run")
    return _fresh(character)


def _blaster(character: Character) -> int:
    return _fresh(character).sheet["skills"].get("blaster", 0)


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


def test_a_skill_bought_with_a_teacher_trains_a_day_per_point(player):
    dash = _in_play(player)
    blaster = _blaster(dash)
    entry = _buy(player, dash, teacher="Old Tobbo")
    points = -entry.amount
    found = Training.objects.get(entry=entry)
    assert (found.days, found.taught, found.minimum_days) == (points, True, 1)  # 002:43
    assert "(002:43)" in found.explanation
    # The raise counts when the training ends (the reading `training_counts`).
    assert _blaster(dash) == blaster
    _train(player, dash, "pass", days=str(found.days))
    assert _blaster(dash) == blaster + 1


def test_alone_it_takes_twice_as_long_and_a_skill_used_last_adventure_trains_not_at_all(player):
    dash = _in_play(player)
    alone = _buy(player, dash)
    assert Training.objects.get(entry=alone).days == -alone.amount * 2
    used = _buy(player, dash, trait="skill.dodge", used="yes")
    assert not Training.objects.filter(entry=used).exists()


def test_extra_points_shorten_the_training_and_are_paid_with_the_raise(player):
    dash = _in_play(player)
    start = _balance(dash)
    entry = _buy(player, dash, extra="2")  # alone: 2 days a point, 2 days off
    found = Training.objects.get(entry=entry)
    assert found.extra == 2 and found.days == found.full_days - 2
    price = -entry.amount - 2
    assert _balance(dash) == start - price - 2
    ledger.undo(
        user=player, character_id=dash.pk, entry_id=entry.pk, expected_version=_fresh(dash).version
    )
    assert _balance(dash) == start
    assert not ledger.in_training(_fresh(dash)).exists()


@pytest.mark.parametrize(
    ("trait", "fields", "message"),
    [
        ("skill.blaster", {"teacher": "Tobbo", "extra": "99"}, "below its minimum"),
        ("attr.strength", {"extra": "1"}, "no way to shorten"),
        ("skill.blaster", {"extra": "two"}, "whole number"),
        ("skill.blaster", {"used": "yes", "extra": "1"}, "nothing to shorten"),
    ],
)
def test_extra_points_the_seed_refuses_change_nothing(player, trait, fields, message):
    dash = _in_play(player)
    before = _fresh(dash)
    with pytest.raises(LedgerRefused, match=message) as refused:
        _buy(player, dash, trait=trait, **fields)
    assert refused.value.field == "extra"
    after = _fresh(dash)
    assert (after.sheet, after.version) == (before.sheet, before.version)
    assert not LedgerEntry.objects.filter(character=dash, kind="purchase").exists()


def test_the_gm_lets_days_pass_cuts_a_training_short_and_marks_one_done(player, gm):
    dash = _in_play(player, gm)
    skill = Training.objects.get(entry=_buy(player, dash))  # alone: 2 days a point
    attribute = Training.objects.get(entry=_buy(player, dash, trait="skill.dodge"))
    with pytest.raises(LedgerRefused, match="only the GM"):
        _train(player, dash, "pass", days="1")
    _train(gm, dash, "pass", days="1")
    skill.refresh_from_db()
    assert skill.days_done == 1 and not skill.finished
    with pytest.raises(LedgerRefused, match="never shorter than 1 day"):
        _train(gm, dash, "cut", training_id=skill.pk, days="0")
    _train(gm, dash, "cut", training_id=skill.pk, days="1", reason="A quick study")
    skill.refresh_from_db()
    assert skill.finished and skill.days == 1 and skill.note == "A quick study"
    _train(gm, dash, "done", training_id=attribute.pk)
    assert not ledger.in_training(_fresh(dash)).exists()
    with pytest.raises(LedgerRefused, match="Nothing is in training"):
        _train(gm, dash, "pass", days="3")


@pytest.mark.parametrize(
    ("action", "fields", "message"),
    [
        ("dance", {}, "Let days pass"),
        ("pass", {"days": "0"}, "In-game days runs from 1 to 3650"),
        ("cut", {"training_id": "999999", "days": "1"}, "No training under way"),
        ("cut", {"days": "x"}, "No training under way"),
    ],
)
def test_a_bad_training_decision_changes_nothing(player, action, fields, message):
    dash = _in_play(player)
    _buy(player, dash)
    before = _fresh(dash)
    with pytest.raises(LedgerRefused, match=message):
        _train(player, dash, action, **fields)
    assert _fresh(dash).version == before.version
    assert Training.objects.get(character=dash).days_done == 0


def test_1e_learning_a_force_skill_takes_ten_weeks_less_a_week_per_skill_point(player):
    # The demo smuggler in 1st edition, which has no specializations.
    sheet = demo_sheet() | {"edition": "1e", "specializations": {}}
    sheet["teacher"] = {"present": True, "control": 21, "sense": 21, "alter": 21}
    dash = character_create(owner=player, name="Kell", system="weg_d6", sheet=sheet)
    dash = character_apply_edits(
        user=player, character_id=dash.pk, edits={"stage": "play"}, expected_version=dash.version
    )
    ledger.award(user=player, character_id=dash.pk, amount="20", reason="Run")
    start = _balance(dash)
    entry = _buy(player, dash, trait="force.sense", teacher="Master Ood", extra="4")
    found = Training.objects.get(entry=entry)
    assert (found.full_days, found.days, found.minimum_days) == (70, 42, 7)  # 003:1762
    assert _balance(dash) == start - 4
    assert _fresh(dash).sheet["force"]["sense"] == 0  # learned when the six weeks end
    _train(player, dash, "pass", days="42")
    assert _fresh(dash).sheet["force"]["sense"] == 3  # 1D once learned (003:1764)


def test_the_ledger_page_offers_training_and_shows_what_is_in_training(client, player, gm):
    dash = _in_play(player, gm)
    client.force_login(player)
    page = client.get(reverse("character_ledger", args=[dash.pk])).content.decode()
    assert 'name="extra"' in page and 'name="used"' in page
    row = page.split('id="quote-skillblaster"')[1].split("</tr>")[0]
    assert "taught" in row and "(002:43)" in row
    response = client.post(
        reverse("ledger_buy", args=[dash.pk]),
        {"trait": "skill.blaster", "teacher": "Tobbo", "version": _fresh(dash).version},
    )
    assert response.status_code == 302
    page = client.get(reverse("character_ledger", args=[dash.pk])).content.decode()
    assert 'id="ledger-training"' in page and "with Tobbo" in page
    assert 'name="action" value="cut"' not in page  # the player does not decide
    refused = client.post(
        reverse("ledger_buy", args=[dash.pk]),
        {"trait": "skill.dodge", "extra": "99", "version": _fresh(dash).version},
    )
    assert refused.status_code == 400 and "below its minimum" in refused.content.decode()
    client.force_login(gm)
    found = Training.objects.get(character=dash)
    page = client.get(reverse("character_ledger", args=[dash.pk])).content.decode()
    assert 'name="action" value="cut"' in page
    response = client.post(
        reverse("ledger_training", args=[dash.pk]),
        {"action": "cut", "training": found.pk, "days": "0", "version": _fresh(dash).version},
    )
    assert response.status_code == 400 and "never shorter" in response.content.decode()
    response = client.post(
        reverse("ledger_training", args=[dash.pk]),
        {"action": "done", "training": found.pk, "version": _fresh(dash).version},
    )
    assert response.status_code == 302
    assert not ledger.in_training(_fresh(dash)).exists()


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(extra=st.integers(min_value=0, max_value=12), taught=st.booleans())
def test_a_purchase_with_its_training_and_its_undo_leave_the_balance_where_it_was(
    player, extra, taught
):
    dash = _in_play(player)
    start = _balance(dash)
    try:
        entry = _buy(player, dash, extra=str(extra), teacher="Tobbo" if taught else "")
    except LedgerRefused:
        assert _balance(dash) == start
        return
    found = Training.objects.get(entry=entry)
    assert found.days >= found.minimum_days >= 1
    ledger.undo(
        user=player, character_id=dash.pk, entry_id=entry.pk, expected_version=_fresh(dash).version
    )
    assert _balance(dash) == start


def test_the_sheet_shows_what_is_in_training(client, player):
    dash = _in_play(player)
    entry = _buy(player, dash, teacher="Tobbo")
    client.force_login(player)
    page = client.get(reverse("character_sheet", args=[dash.pk])).content.decode()
    listed = page.split('id="weg-training"')[1].split("</ul>")[0]
    days = Training.objects.get(entry=entry).days
    assert f"Blaster {entry.from_value} → {entry.to_value}: 0 of {days} in-game day" in listed
    ledger.undo(
        user=player, character_id=dash.pk, entry_id=entry.pk, expected_version=_fresh(dash).version
    )
    page = client.get(reverse("character_sheet", args=[dash.pk])).content.decode()
    assert 'id="weg-training"' not in page
