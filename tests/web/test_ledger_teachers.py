"""1st edition teachers and masters on the ledger (003:1756-1774): a Force skill raise
names its teacher with their codes, checked before anything is written; a character with
no Force template learns a Force skill only from a master with all three at 7D or better."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rulesets.weg_d6 import demo_sheet
from sheets.advancement import services as ledger
from sheets.advancement.models import LedgerEntry, Training
from sheets.advancement.services import LedgerRefused
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create

pytestmark = pytest.mark.django_db

MASTER = {"control": "7D", "sense": "7D+1", "alter": "7D"}


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _pupil(owner, *, template: bool = False, control: str = "0D") -> Character:
    """The demo smuggler in 1st edition (which has no specializations), in play with 30 SP;
    with a Force template (the sheet's Force-sensitive mark) and Control, when asked."""
    sheet = demo_sheet() | {"edition": "1e", "specializations": {}}
    character = character_create(owner=owner, name="Kell", system="weg_d6", sheet=sheet)
    character = character_apply_edits(
        user=owner,
        character_id=character.pk,
        edits={"stage": "play"},
        expected_version=character.version,
    )
    ledger.award(user=owner, character_id=character.pk, amount="30", reason="Run")
    if template:
        for trait, value in (("force.sensitive", "yes"), ("force.control", control)):
            ledger.correct_trait(
                user=owner,
                character_id=character.pk,
                trait=trait,
                value=value,
                reason="A Minor Jedi template",
                expected_version=_fresh(character).version,
            )
    return _fresh(character)


def _learn(user, character, codes, teacher="Master Ood", trait="force.control"):
    return ledger.purchase(
        user=user,
        character_id=character.pk,
        trait=trait,
        expected_version=_fresh(character).version,
        teacher=teacher,
        teacher_codes=codes,
    )


def test_a_master_with_three_codes_at_7d_teaches_a_character_without_a_template(player):
    kell = _pupil(player)
    entry = _learn(player, kell, MASTER)
    assert entry.teacher == "Master Ood (Control 7D)"
    found = Training.objects.get(entry=entry)
    assert found.days == 70  # ten weeks (003:1762)
    # Learned when the ten weeks end (the reading `training_counts`): 0D until then.
    assert _fresh(kell).sheet["force"]["control"] == 0
    _done(player, kell, found)
    assert _fresh(kell).sheet["force"]["control"] == 3  # 1D (003:1764)
    # The sheet keeps its own teacher: the codes were the purchase's.
    assert _fresh(kell).sheet["teacher"]["control"] == 0


def _done(user, character, found):
    ledger.train(
        user=user,
        character_id=character.pk,
        action="done",
        training_id=found.pk,
        expected_version=_fresh(character).version,
    )


@pytest.mark.parametrize(
    ("codes", "message"),
    [
        ({}, "only from a master"),  # a teacher without codes
        ({"control": "7D", "sense": "6D+2", "alter": "7D"}, "Sense below that"),
        ({"control": "seven"}, "Control"),
    ],
)
def test_a_teacher_who_is_no_master_is_refused_and_nothing_changes(player, codes, message):
    kell = _pupil(player)
    before = _fresh(kell)
    with pytest.raises(LedgerRefused, match=message) as refused:
        _learn(player, kell, codes)
    assert refused.value.field == "teacher_code"
    after = _fresh(kell)
    assert (after.sheet, after.version) == (before.sheet, before.version)
    assert not LedgerEntry.objects.filter(character=kell, kind="purchase").exists()


def test_with_a_template_a_teacher_needs_only_a_higher_code(player):
    kell = _pupil(player, template=True, control="3D+1")
    with pytest.raises(LedgerRefused, match="below theirs, and yours is 3D\\+1"):
        _learn(player, kell, {"control": "3D"}, teacher="Vima")
    entry = _learn(player, kell, {"control": "3D+2"}, teacher="Vima")
    assert entry.teacher == "Vima (Control 3D+2)" and entry.amount == -3


def test_the_ledger_page_asks_for_the_teachers_codes_and_refuses_beside_them(client, player):
    kell = _pupil(player)
    client.force_login(player)
    page = client.get(reverse("character_ledger", args=[kell.pk])).content.decode()
    assert 'name="teacher_code.control"' in page and 'name="teacher_code.alter"' in page
    response = client.post(
        reverse("ledger_buy", args=[kell.pk]),
        {
            "trait": "force.control",
            "teacher": "Master Ood",
            "teacher_code.control": "5D",
            "version": _fresh(kell).version,
        },
    )
    assert response.status_code == 400
    body = response.content.decode()
    beside = body.split('id="teacher-code-error"')[1].split("</p>")[0]
    assert "only from a master" in beside
    assert 'value="5D"' in body  # what was typed stays
    response = client.post(
        reverse("ledger_buy", args=[kell.pk]),
        {
            "trait": "force.control",
            "teacher": "Master Ood",
            **{f"teacher_code.{skill}": code for skill, code in MASTER.items()},
            "version": _fresh(kell).version,
        },
    )
    assert response.status_code == 302
    _done(player, kell, Training.objects.get(character=kell))
    assert _fresh(kell).sheet["force"]["control"] == 3


def test_an_r_and_e_sheet_asks_no_teacher_codes(client, player):
    character = character_create(owner=player, name="Dash", system="weg_d6", sheet=demo_sheet())
    character_apply_edits(
        user=player,
        character_id=character.pk,
        edits={"stage": "play"},
        expected_version=character.version,
    )
    client.force_login(player)
    page = client.get(reverse("character_ledger", args=[character.pk])).content.decode()
    assert "teacher_code." not in page
