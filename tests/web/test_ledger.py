"""The advancement ledger: finish creation, awards, purchases, undo, for every system.

At each step the ledger's balance (the sum of the entries) and what the engine says is
unspent on the sheet agree, and the sheet stores no balance of its own.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.core import resolve_settings
from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.figures import engine_sheet, figures
from sheets.advancement.models import LedgerEntry
from sheets.advancement.services import LedgerRefused
from sheets.characters.models import Character
from sheets.characters.services import EditRefused, character_apply_edits, character_create

pytestmark = pytest.mark.django_db
SYSTEMS = ("swd10", "ore", "weg_d6", "o3d10")


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _engine_unspent(character: Character) -> int:
    ruleset = get_ruleset(character.system)
    settings = resolve_settings(ruleset.SETTINGS, character.readings_in_force)
    return ruleset.status(engine_sheet(character), settings).unspent


def _balance(character: Character) -> int:
    return sum(LedgerEntry.objects.filter(character=character).values_list("amount", flat=True))


def _agree(character: Character) -> int:
    character = _fresh(character)
    balance = _balance(character)
    assert figures(character).balance == balance
    assert _engine_unspent(character) == balance
    return balance


def _finished(owner, system: str) -> Character:
    """A legal demo character, taken back to creation and finished again by its owner."""
    character = character_create(
        owner=owner, name="Hero", system=system, sheet=get_ruleset(system).demo_sheet()
    )
    if character.sheet["stage"] == "play":
        # The demo was finished and has raises since: its XP reached the ledger with it.
        return character
    return character_apply_edits(
        user=owner,
        character_id=character.pk,
        edits={"stage": "play"},
        expected_version=character.version,
    )


def _cheapest(character: Character, skip: set[str] = frozenset()) -> ledger.Quote:
    quotes = [q for q in ledger.quotes(_fresh(character)) if q.trait not in skip]
    return min(quotes, key=lambda q: (q.cost.amount, q.trait))


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_character_is_finished_awarded_buys_two_raises_and_undoes_one(player, system):
    character = _finished(player, system)
    assert _fresh(character).sheet["stage"] == "play"
    start = _agree(character)
    ledger.award(user=player, character_id=character.pk, amount="60", reason="Session 1")
    assert _agree(character) == start + 60
    reason = "Trained with the crew" if system == "ore" else ""
    first = _cheapest(character)
    bought = ledger.purchase(
        user=player,
        character_id=character.pk,
        trait=first.trait,
        expected_version=_fresh(character).version,
        reason=reason,
    )
    assert bought.amount == -first.cost.amount and bought.from_value == first.from_shown
    assert _agree(character) == start + 60 - first.cost.amount
    second = _cheapest(character, {first.trait})
    ledger.purchase(
        user=player,
        character_id=character.pk,
        trait=second.trait,
        expected_version=_fresh(character).version,
        reason=reason,
    )
    after_two = _agree(character)
    assert after_two == start + 60 - first.cost.amount - second.cost.amount
    refund = ledger.undo(
        user=player,
        character_id=character.pk,
        entry_id=bought.pk,
        expected_version=_fresh(character).version,
    )
    assert refund.kind == "refund" and refund.undoes_id == bought.pk
    assert _agree(character) == after_two + first.cost.amount
    rows = {q.trait: q for q in ledger.quotes(_fresh(character))}
    assert rows[first.trait].from_shown == first.from_shown
    # Nothing was deleted: the purchase is still there, marked undone by the refund.
    assert LedgerEntry.objects.filter(pk=bought.pk).exists()


@pytest.mark.parametrize("system", SYSTEMS)
def test_no_raise_in_play_is_free_in_any_system(player, system):
    character = _finished(player, system)
    ledger.award(user=player, character_id=character.pk, amount="100", reason="Session")
    quote = _cheapest(character)
    sheet_before = _fresh(character).sheet
    raw = str(quote.to_value)
    if system == "weg_d6":
        from rulesets.weg_d6.traits import code_text

        raw = "yes" if quote.trait == "force.sensitive" else code_text(quote.to_value)
    with pytest.raises(EditRefused) as refused:
        character_apply_edits(
            user=player,
            character_id=character.pk,
            edits={quote.trait: raw},
            expected_version=_fresh(character).version,
        )
    assert "buying it" in str(refused.value) or "ledger" in str(refused.value)
    assert _fresh(character).sheet == sheet_before


def test_the_quote_reads_like_the_issue_asks(player):
    character = _finished(player, "swd10")
    ledger.award(user=player, character_id=character.pk, amount="20", reason="Session")
    quote = next(q for q in ledger.quotes(_fresh(character)) if q.trait == "attr.intelligence")
    value = int(quote.from_shown)
    cost = (value + 1) * 4
    assert quote.line == f"Intelligence {value} → {value + 1}: {cost} XP; 20 → {20 - cost} left"


def test_a_purchase_the_balance_cannot_pay_is_refused_and_changes_nothing(player):
    character = _finished(player, "swd10")
    ledger.award(user=player, character_id=character.pk, amount="3", reason="Session")
    before = _fresh(character)
    with pytest.raises(LedgerRefused, match="only 3 XP are left"):
        ledger.purchase(
            user=player,
            character_id=character.pk,
            trait="attr.strength",
            expected_version=before.version,
        )
    after = _fresh(character)
    assert (after.sheet, after.version, _balance(after)) == (before.sheet, before.version, 3)


def test_a_trait_at_its_maximum_cannot_be_bought(player):
    character = _finished(player, "o3d10")
    ledger.award(user=player, character_id=character.pk, amount="500", reason="Session")
    for _ in range(10):
        try:
            ledger.purchase(
                user=player,
                character_id=character.pk,
                trait="skill.pilot",
                expected_version=_fresh(character).version,
            )
        except LedgerRefused as refused:
            assert "highest" in refused.message or "cannot" in refused.message
            break
    else:
        pytest.fail("Pilot never reached its maximum")


@pytest.mark.parametrize("amount", ["-5", "ten", "", "0", "1e3", "99999999"])
def test_a_bad_award_is_refused_with_a_message(player, amount):
    character = _finished(player, "swd10")
    with pytest.raises(LedgerRefused) as refused:
        ledger.award(user=player, character_id=character.pk, amount=amount, reason="x")
    assert refused.value.field == "amount" and refused.value.message
    assert _balance(character) == 0


def test_inside_a_campaign_only_the_gm_awards(player, gm, table, swd10_character):
    with pytest.raises(LedgerRefused, match="only the GM"):
        ledger.award(user=player, character_id=swd10_character.pk, amount="5", reason="me")
    ledger.award(user=gm, character_id=swd10_character.pk, amount="5", reason="Session")
    assert _balance(swd10_character) == 5


def test_the_gm_awards_the_whole_table_at_once(player, other_player, gm, table, swd10_character):
    second = character_create(owner=other_player, name="Rex", system="swd10", campaign=table)
    entries = ledger.award_table(user=gm, campaign_id=table.pk, amount="7", reason="Session 2")
    assert {e.character_id for e in entries} == {swd10_character.pk, second.pk}
    assert {(e.amount, e.reason) for e in entries} == {(7, "Session 2")}
    with pytest.raises(PermissionDenied):
        ledger.award_table(user=player, campaign_id=table.pk, amount="7", reason="me")


def test_going_back_to_creation_at_a_table_is_the_gms(player, gm, table, swd10_character):
    character = character_apply_edits(
        user=player,
        character_id=swd10_character.pk,
        edits={"stage": "play"},
        expected_version=swd10_character.version,
    )
    with pytest.raises(EditRefused, match="only the GM"):
        character_apply_edits(
            user=player,
            character_id=character.pk,
            edits={"stage": "creation"},
            expected_version=character.version,
        )
    character_apply_edits(
        user=gm,
        character_id=character.pk,
        edits={"stage": "creation"},
        expected_version=character.version,
    )
    assert _fresh(character).sheet["stage"] == "creation"
    assert _fresh(character).revisions.filter(summary__icontains="creation").exists()


def test_finishing_an_illegal_sheet_is_refused(player):
    demo = get_ruleset("o3d10").demo_sheet()
    character = character_create(owner=player, name="Over", system="o3d10", sheet=demo)
    # Back in creation, the raises bought in play overrun the creation budget.
    character = character_apply_edits(
        user=player,
        character_id=character.pk,
        edits={"stage": "creation"},
        expected_version=character.version,
    )
    with pytest.raises(EditRefused, match="cannot"):
        character_apply_edits(
            user=player,
            character_id=character.pk,
            edits={"stage": "play"},
            expected_version=character.version,
        )
    assert _fresh(character).sheet["stage"] == "creation"


def test_a_player_cannot_undo_someone_elses_entry_or_after_approval(
    player, gm, table, swd10_character
):
    character = character_apply_edits(
        user=player,
        character_id=swd10_character.pk,
        edits={"stage": "play"},
        expected_version=swd10_character.version,
    )
    award = ledger.award(user=gm, character_id=character.pk, amount="40", reason="Session")
    with pytest.raises(LedgerRefused, match="Only the GM"):
        ledger.undo(
            user=player,
            character_id=character.pk,
            entry_id=award.pk,
            expected_version=_fresh(character).version,
        )
    bought = ledger.purchase(
        user=player,
        character_id=character.pk,
        trait="willpower",
        expected_version=_fresh(character).version,
    )
    from sheets.characters.services import character_approve

    character_approve(user=gm, character_id=character.pk, version=_fresh(character).version)
    with pytest.raises(LedgerRefused, match="approved"):
        ledger.undo(
            user=player,
            character_id=character.pk,
            entry_id=bought.pk,
            expected_version=_fresh(character).version,
        )
    # The GM may, saying why.
    with pytest.raises(LedgerRefused, match="Say why"):
        ledger.undo(
            user=gm,
            character_id=character.pk,
            entry_id=bought.pk,
            expected_version=_fresh(character).version,
        )
    ledger.undo(
        user=gm,
        character_id=character.pk,
        entry_id=bought.pk,
        expected_version=_fresh(character).version,
        reason="Wrong trait",
    )
    assert _agree(character) == 40


def test_a_purchase_after_the_adventure_ended_is_the_gms_to_undo(player):
    character = _finished(player, "swd10")
    ledger.award(user=player, character_id=character.pk, amount="20", reason="S")
    bought = ledger.purchase(
        user=player,
        character_id=character.pk,
        trait="willpower",
        expected_version=_fresh(character).version,
    )
    # Outside a campaign the owner is their own GM: undo after the adventure still needs
    # a reason, since it is no longer the player's plain undo.
    ledger.end_adventure_alone(
        user=player, character_id=character.pk, expected_version=_fresh(character).version
    )
    assert _fresh(character).adventure == 2
    with pytest.raises(LedgerRefused):
        ledger.undo(
            user=player,
            character_id=character.pk,
            entry_id=bought.pk,
            expected_version=_fresh(character).version,
        )


def test_a_stale_version_is_refused(player):
    character = _finished(player, "swd10")
    ledger.award(user=player, character_id=character.pk, amount="20", reason="S")
    with pytest.raises(LedgerRefused, match="changed since"):
        ledger.purchase(
            user=player, character_id=character.pk, trait="willpower", expected_version=1
        )


def test_weg_force_skills_cost_double_without_a_teacher_and_the_teacher_is_recorded(player):
    character = _finished(player, "weg_d6")
    ledger.award(user=player, character_id=character.pk, amount="200", reason="S")
    ledger.purchase(
        user=player,
        character_id=character.pk,
        trait="force.sensitive",
        expected_version=_fresh(character).version,
    )
    alone = next(q for q in ledger.quotes(_fresh(character)) if q.trait == "force.control")
    entry = ledger.purchase(
        user=player,
        character_id=character.pk,
        trait="force.control",
        expected_version=_fresh(character).version,
        teacher="Master Vos",
    )
    assert entry.teacher == "Master Vos"
    assert -entry.amount * 2 == alone.cost.amount


def test_weg_one_pip_per_skill_between_adventures(player):
    character = _finished(player, "weg_d6")
    # Used in the last adventure, Dodge trains not at all (002:43): the raise counts at once
    # and the one-pip rule (002:39) is what refuses the second.
    ledger.award(user=player, character_id=character.pk, amount="100", reason="S")
    ledger.purchase(
        user=player,
        character_id=character.pk,
        trait="skill.dodge",
        expected_version=_fresh(character).version,
        used="yes",
    )
    with pytest.raises(LedgerRefused, match="one pip"):
        ledger.purchase(
            user=player,
            character_id=character.pk,
            trait="skill.dodge",
            expected_version=_fresh(character).version,
            used="yes",
        )
    ledger.end_adventure_alone(
        user=player, character_id=character.pk, expected_version=_fresh(character).version
    )
    ledger.purchase(
        user=player,
        character_id=character.pk,
        trait="skill.dodge",
        expected_version=_fresh(character).version,
        used="yes",
    )
    _agree(character)


def test_an_ore_purchase_carries_its_in_game_reason(player):
    character = _finished(player, "ore")
    ledger.award(user=player, character_id=character.pk, amount="20", reason="S")
    with pytest.raises(LedgerRefused, match="Say why"):
        ledger.purchase(
            user=player,
            character_id=character.pk,
            trait="stat.body",
            expected_version=_fresh(character).version,
        )
    entry = ledger.purchase(
        user=player,
        character_id=character.pk,
        trait="stat.body",
        expected_version=_fresh(character).version,
        reason="Lifting crates",
    )
    assert entry.reason == "Lifting crates"


def test_o3d10_prices_follow_the_house_rules_in_force(player):
    character = _finished(player, "o3d10")
    character.rule_settings = {"xp_per_stat_rank": 3}
    character.save()
    ledger.award(user=player, character_id=character.pk, amount="100", reason="S")
    quote = next(q for q in ledger.quotes(_fresh(character)) if q.trait == "stat.strength")
    assert quote.cost.amount == quote.to_value * 3


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    system=st.sampled_from(SYSTEMS),
    steps=st.lists(
        st.tuples(st.sampled_from(["award", "buy", "undo"]), st.integers(1, 30)), max_size=10
    ),
)
def test_any_sequence_keeps_the_balance_the_sum_of_entries_and_never_below_zero(
    django_user_model, system, steps
):
    owner, _ = django_user_model.objects.get_or_create(username="hypo")
    character = _finished(owner, system)
    # O.R.E. purchases say why in the story; the others may.
    reason = "Trained" if system == "ore" else ""
    for action, number in steps:
        try:
            if action == "award":
                ledger.award(user=owner, character_id=character.pk, amount=str(number), reason="x")
            elif action == "buy":
                quotes = ledger.quotes(_fresh(character))
                ledger.purchase(
                    user=owner,
                    character_id=character.pk,
                    trait=quotes[number % len(quotes)].trait,
                    expected_version=_fresh(character).version,
                    reason=reason,
                )
            else:
                purchases = list(
                    LedgerEntry.objects.filter(
                        character=character, kind="purchase", undone_by__isnull=True
                    )
                )
                if purchases:
                    ledger.undo(
                        user=owner,
                        character_id=character.pk,
                        entry_id=purchases[number % len(purchases)].pk,
                        expected_version=_fresh(character).version,
                    )
        except LedgerRefused:
            pass
        balance = _agree(character)
        assert balance >= 0


def test_the_ledger_page_shows_the_cost_before_buying(player_client, player):
    character = _finished(player, "swd10")
    ledger.award(user=player, character_id=character.pk, amount="20", reason="Session")
    page = player_client.get(reverse("character_ledger", args=[character.pk])).content.decode()
    assert "Intelligence" in page and "20 →" in page and "left" in page
    response = player_client.post(
        reverse("ledger_buy", args=[character.pk]),
        {"trait": "attr.strength", "version": _fresh(character).version},
    )
    assert response.status_code == 302
    response = player_client.post(
        reverse("ledger_award", args=[character.pk]), {"amount": "-3", "reason": "x"}
    )
    assert response.status_code == 400
