"""Taking back a WEG Force power or a Force skill pip in play, through the web.

Character Points move on the ledger only. A power learned this adventure is taken back by
undoing its learning on the Advancement page, which gives back what it cost (points or a
pick); the sheet's "remove" says so instead of dropping it behind the ledger's back. An
R&E player never steps a Force skill down in play: a pip bought again owes a new power
(002:800), so a lowering and a second purchase would teach one for a pip's price. The GM
corrects either on the ledger: an undo, or a value corrected with a reason.
"""

from __future__ import annotations

import contextlib

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets.core import resolve_settings
from rulesets.registry import get_ruleset
from rulesets.weg_d6 import costs, force, traits
from sheets.advancement import services as ledger
from sheets.advancement.figures import figures
from sheets.advancement.models import LedgerEntry
from sheets.campaigns.services import (
    campaign_create,
    campaign_join,
    character_bring,
    invitation_create,
)
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
TEACHER = "Master Vos"


def _fresh(character: Character) -> Character:
    return Character.objects.get(pk=character.pk)


def _sheet(character: Character) -> dict:
    return _fresh(character).sheet


def _balance(character: Character) -> int:
    return figures(_fresh(character)).balance


def _stored(character: Character) -> tuple[dict, int, int]:
    """What a refusal must leave as it was: the sheet, its version and the balance."""
    fresh = _fresh(character)
    return fresh.sheet, fresh.version, figures(fresh).balance


def _train_to_the_end(user, character: Character) -> None:
    """End the training of what was bought: a raise reaches the sheet (and Control its
    pick) when its training ends (the reading `training_counts`, 002:43-55)."""
    for found in ledger.in_training(_fresh(character)):
        ledger.train(
            user=user,
            character_id=character.pk,
            action="done",
            training_id=found.pk,
            expected_version=_fresh(character).version,
        )


def _buy(user, character: Character, trait: str, **extra: str) -> LedgerEntry:
    return ledger.purchase(
        user=user,
        character_id=character.pk,
        trait=trait,
        expected_version=_fresh(character).version,
        **extra,
    )


def _in_play(owner, campaign=None) -> Character:
    """An R&E character in play with 100 Character Points, Force-sensitive and taught
    Control 0D → 1D by a teacher: Control owes one power (002:796)."""
    demo = get_ruleset("weg_d6").demo_sheet()
    assert demo["edition"] == "2e_re"
    character = character_create(owner=owner, name="Padawan", system="weg_d6", sheet=demo)
    character = character_apply_edits(
        user=owner,
        character_id=character.pk,
        edits={"stage": "play"},
        expected_version=character.version,
    )
    awarder = owner
    if campaign is not None:
        character_bring(user=owner, campaign_id=campaign.pk, character_id=character.pk)
        awarder = campaign.memberships.get(role="gm").user
    ledger.award(user=awarder, character_id=character.pk, amount="100", reason="Session 1")
    _buy(owner, character, "force.sensitive")
    _buy(owner, character, "force.control", teacher=TEACHER)
    _train_to_the_end(awarder, character)
    assert _sheet(character)["force"]["power_picks"] == ["control"]
    return character


@pytest.fixture
def padawan(player) -> Character:
    return _in_play(player)


@pytest.fixture
def weg_table(gm, player):
    campaign = campaign_create(user=gm, name="Jedi Academy", system="weg_d6")
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    return campaign


@pytest.fixture
def seated_padawan(player, weg_table) -> Character:
    return _in_play(player, weg_table)


def _edit(client, character: Character, edit: str, **headers):
    """A button of the sheet ("edit=<trait>=<raw>"), as the page sends it."""
    return client.post(
        reverse("character_edit", args=[character.pk]),
        {"edit": edit, "version": _fresh(character).version},
        **headers,
    )


def _learn(client, character: Character, power: str) -> LedgerEntry:
    """Learn a power on the sheet in play (the "Learn" row: a purchase on the ledger)."""
    response = client.post(
        reverse("character_edit", args=[character.pk]),
        {
            "only": "advance.power.add",
            "advance.power.add": power,
            "version": _fresh(character).version,
        },
    )
    assert response.status_code in (200, 302), response.content.decode()[:500]
    assert power in _sheet(character)["force"]["powers"]
    return LedgerEntry.objects.filter(character=character).latest("pk")


def _undo(client, character: Character, entry: LedgerEntry, reason: str = ""):
    return client.post(
        reverse("ledger_undo", args=[character.pk]),
        {"entry": entry.pk, "version": _fresh(character).version, "reason": reason},
    )


def _correct(client, character: Character, trait: str, value: str, reason: str):
    return client.post(
        reverse("ledger_correct_trait", args=[character.pk]),
        {
            "trait": trait,
            "value": value,
            "reason": reason,
            "version": _fresh(character).version,
        },
    )


def _end_adventure(client, character: Character):
    response = client.post(
        reverse("ledger_end_adventure", args=[character.pk]),
        {"version": _fresh(character).version},
    )
    assert response.status_code == 302, response.content.decode()[:500]


def _text(response) -> str:
    return response.content.decode().replace("&#x27;", "'")


# --- 1. a power paid with Character Points, removed on the sheet --------------------------


@pytest.fixture
def paid_power(player_client, padawan) -> tuple[Character, LedgerEntry]:
    """Control's pick taught control pain; remain conscious was then paid 5 CP (002:802)."""
    _learn(player_client, padawan, "control_pain")
    entry = _learn(player_client, padawan, "remain_conscious")
    assert entry.trait == "power.remain_conscious" and entry.amount == -5
    return padawan, entry


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_removing_a_power_paid_this_adventure_points_to_its_undo(
    player_client, paid_power, headers
):
    character, _entry = paid_power
    before = _stored(character)
    response = _edit(player_client, character, "power.remove=remain_conscious", **headers)
    assert response.status_code == (200 if headers else 400)
    text = _text(response)
    assert "Remain conscious was learned this adventure for 5 Character Points" in text
    assert "undo it on the Advancement page" in text
    # Drawn in the Force section, beside the powers list.
    assert text.index("undo it on the Advancement page") > text.index('id="section-force-body"')
    assert _stored(character) == before


def test_the_undo_of_a_paid_power_still_gives_its_points_back(player_client, paid_power):
    character, entry = paid_power
    _edit(player_client, character, "power.remove=remain_conscious")
    balance = _balance(character)
    response = _undo(player_client, character, entry)
    assert response.status_code == 302, _text(response)[:500]
    assert "remain_conscious" not in _sheet(character)["force"]["powers"]
    assert _balance(character) == balance + 5
    assert all(e["trait"] != "power.remain_conscious" for e in _sheet(character)["interval"])


def test_a_power_taught_free_this_adventure_is_undone_for_its_pick(player_client, padawan):
    entry = _learn(player_client, padawan, "control_pain")
    before = _stored(padawan)
    response = _edit(player_client, padawan, "power.remove=control_pain", **HTMX)
    assert response.status_code == 200
    assert "learned this adventure with a Control pick" in _text(response)
    assert _stored(padawan) == before
    assert _undo(player_client, padawan, entry).status_code == 302
    assert _sheet(padawan)["force"]["power_picks"] == ["control"]


def test_once_the_adventure_ended_the_sheet_forgets_a_power_and_refunds_nothing(
    player_client, paid_power
):
    character, _entry = paid_power
    _end_adventure(player_client, character)
    balance = _balance(character)
    response = _edit(player_client, character, "power.remove=remain_conscious")
    assert response.status_code == 302
    assert "remain_conscious" not in _sheet(character)["force"]["powers"]
    # The player's undo had closed with the adventure: forgetting is not a refund.
    assert _balance(character) == balance


def test_at_a_table_the_gm_undoes_a_paid_power_and_the_player_cannot_remove_it(
    client, gm, player, seated_padawan
):
    client.force_login(player)
    _learn(client, seated_padawan, "control_pain")
    entry = _learn(client, seated_padawan, "remain_conscious")
    assert _edit(client, seated_padawan, "power.remove=remain_conscious").status_code == 400
    client.force_login(gm)
    balance = _balance(seated_padawan)
    response = _undo(client, seated_padawan, entry, reason="Not taught at this temple")
    assert response.status_code == 302, _text(response)[:500]
    assert "remain_conscious" not in _sheet(seated_padawan)["force"]["powers"]
    assert _balance(seated_padawan) == balance + 5


# --- 2. a Force skill stepped down in play, then bought again ----------------------------


def test_stepping_control_down_after_its_pick_taught_a_power_is_refused(player_client, padawan):
    _learn(player_client, padawan, "control_pain")
    before = _stored(padawan)
    response = _edit(player_client, padawan, "force.control=0D", **HTMX)
    assert response.status_code == 200
    text = _text(response)
    assert "In play, Control goes down only by undoing its purchase" in text
    assert _stored(padawan) == before


def test_a_control_pip_never_goes_down_and_up_again_for_a_fresh_pick(player_client, padawan):
    """The pip need not have taught anything: lowered and bought again, it would owe a
    second power for the price of one pip."""
    _learn(player_client, padawan, "control_pain")
    _end_adventure(player_client, padawan)
    # A pip the GM granted (no pick owed), then the player's own "−" on it.
    owner = padawan.owner
    ledger.correct_trait(
        user=owner,
        character_id=padawan.pk,
        trait="force.control",
        value="1D+1",
        reason="Trained before the campaign",
        expected_version=_fresh(padawan).version,
    )
    assert _sheet(padawan)["force"]["power_picks"] == []
    before = _stored(padawan)
    response = _edit(player_client, padawan, "force.control=1D")
    assert response.status_code == 400
    assert "goes down only by undoing its purchase" in _text(response)
    assert _stored(padawan) == before


def test_the_gm_still_corrects_control_down_and_the_power_keeps_no_pick(
    client, gm, player, seated_padawan
):
    client.force_login(player)
    _learn(client, seated_padawan, "control_pain")
    client.force_login(gm)
    balance = _balance(seated_padawan)
    response = _correct(client, seated_padawan, "force.control", "0D", "Never found a teacher")
    assert response.status_code == 302, _text(response)[:500]
    sheet = _sheet(seated_padawan)
    assert sheet["force"]["control"] == 0
    # The power stays (the GM may drop it by undoing it); the pick it used went with the pip.
    assert "control_pain" in sheet["force"]["powers"]
    assert force.picks_spent(sheet) == {"control_pain": []}
    assert _balance(seated_padawan) == balance
    # Dropped later, it gives back no pick that no pip owes.
    entry = LedgerEntry.objects.get(character=seated_padawan, trait="power.control_pain")
    assert _undo(client, seated_padawan, entry, reason="Follows the correction").status_code == 302
    assert _sheet(seated_padawan)["force"]["power_picks"] == []


def test_the_ledger_still_refuses_the_raise_before_the_power_it_taught(player_client, padawan):
    raise_entry = LedgerEntry.objects.get(character=padawan, trait="force.control")
    _learn(player_client, padawan, "control_pain")
    before = _stored(padawan)
    response = _undo(player_client, padawan, raise_entry)
    assert response.status_code == 400
    assert "Control pain" in _text(response)
    assert _stored(padawan) == before


# --- powers learned before the picks were recorded ---------------------------------------


def _forget_the_record(character: Character, *, drop_key: bool) -> None:
    """Make the stored sheet look like one whose powers were learned before version 3
    kept which picks they used."""
    sheet = _sheet(character)
    if drop_key:
        del sheet["force"]["power_picks_spent"]
    else:
        sheet["force"]["power_picks_spent"] = {}
    Character.objects.filter(pk=character.pk).update(sheet=sheet)


@pytest.mark.parametrize("drop_key", [False, True], ids=["empty-record", "no-record"])
def test_a_power_learned_before_the_record_is_handled_without_a_crash(
    player_client, padawan, drop_key
):
    raise_entry = LedgerEntry.objects.get(character=padawan, trait="force.control")
    entry = _learn(player_client, padawan, "control_pain")
    _forget_the_record(padawan, drop_key=drop_key)
    assert player_client.get(reverse("character_sheet", args=[padawan.pk])).status_code == 200
    # This adventure the sheet still points to the undo, and Control stays where it is.
    assert _edit(player_client, padawan, "power.remove=control_pain").status_code == 400
    assert _edit(player_client, padawan, "force.control=0D").status_code == 400
    # Learned free this adventure, it took a Control pick nobody noted: the raise that
    # owed it still waits for it.
    refused = _undo(player_client, padawan, raise_entry)
    assert refused.status_code == 400 and "Control pain" in _text(refused)
    assert _undo(player_client, padawan, entry).status_code == 302
    # Which pick it took was not kept: none comes back, none is made up.
    assert _sheet(padawan)["force"]["power_picks"] == []
    assert _undo(player_client, padawan, raise_entry).status_code == 302
    sheet = _sheet(padawan)
    assert sheet["force"]["control"] == 0 and sheet["force"]["power_picks"] == []


@pytest.mark.parametrize("drop_key", [False, True], ids=["empty-record", "no-record"])
def test_after_the_adventure_a_power_of_before_the_record_is_forgotten_for_nothing(
    player_client, padawan, drop_key
):
    _learn(player_client, padawan, "control_pain")
    _end_adventure(player_client, padawan)
    _forget_the_record(padawan, drop_key=drop_key)
    balance = _balance(padawan)
    assert _edit(player_client, padawan, "power.remove=control_pain").status_code == 302
    sheet = _sheet(padawan)
    assert "control_pain" not in sheet["force"]["powers"]
    assert sheet["force"]["power_picks"] == [] and _balance(padawan) == balance


# --- invariant: what the player does on the sheet and the ledger never teaches a power for
# less than its price, and never takes points behind the ledger's back -------------------

ACTIONS = (
    "buy_control",
    "buy_sense",
    "learn",
    "remove",
    "step_down",
    "undo",
    "end_adventure",
)
POWERS = ("control_pain", "remain_conscious", "life_sense", "farseeing", "magnify_senses")


def _powers_owed(sheet: dict, start: dict) -> int:
    """Powers the Force skill pips bought since `start` owe (002:796-800), one a step, and
    those still owed at `start`."""
    return len(start["force"]["power_picks"]) + sum(
        force.force_skill_steps(start["force"][skill], sheet["force"][skill])
        for skill in ("control", "sense", "alter")
    )


def _player_step(client, player, character: Character, action: str, number: int) -> None:
    if action in ("buy_control", "buy_sense"):
        with contextlib.suppress(ledger.LedgerRefused):
            _buy(player, character, f"force.{action[4:]}", teacher=TEACHER)
        return
    sheet = _sheet(character)
    powers = sheet["force"]["powers"]
    if action == "learn":
        edit = {"only": "advance.power.add", "advance.power.add": POWERS[number % len(POWERS)]}
    elif action == "remove" and powers:
        edit = {"edit": f"power.remove={powers[number % len(powers)]}"}
    elif action == "step_down":
        skill = ("control", "sense")[number % 2]
        down = costs.step_down(f"force.{skill}", sheet["force"][skill])
        if down < 0:
            return
        edit = {"edit": f"force.{skill}={traits.code_text(down)}"}
    elif action == "undo":
        standing = list(
            LedgerEntry.objects.filter(
                character=character, kind="purchase", undone_by__isnull=True
            ).order_by("pk")
        )
        if standing:
            response = _undo(client, character, standing[number % len(standing)])
            assert response.status_code in (302, 400), _text(response)[:300]
        return
    elif action == "end_adventure":
        _end_adventure(client, character)
        return
    else:
        return
    before = _stored(character)
    response = client.post(
        reverse("character_edit", args=[character.pk]),
        {**edit, "version": _fresh(character).version},
    )
    assert response.status_code in (302, 400), _text(response)[:300]
    if response.status_code == 400:
        assert _stored(character) == before


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    plan=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 20)), max_size=12),
)
def test_no_sequence_of_player_steps_teaches_a_power_under_its_price(
    django_user_model, client, plan
):
    player, _ = django_user_model.objects.get_or_create(username="hypo_padawan")
    client.force_login(player)
    character = _in_play(player)
    start = _sheet(character)
    chosen = resolve_settings(get_ruleset("weg_d6").SETTINGS, {})
    for action, number in plan:
        _player_step(client, player, character, action, number)
        sheet = _sheet(character)
        learned = [p for p in sheet["force"]["powers"] if p not in start["force"]["powers"]]
        counted = sum(costs.power_count(sheet, p, chosen) for p in learned)
        paid = -sum(
            LedgerEntry.objects.filter(character=character, trait__startswith="power.").values_list(
                "amount", flat=True
            )
        )
        # Every power is owed by a pip still on the sheet, or paid 5 CP a count (002:802).
        assert counted <= _powers_owed(sheet, start) + paid // 5
        # Nothing bought this adventure is gone from the sheet while its purchase stands:
        # its undo still gives back what it cost.
        fresh = _fresh(character)
        for entry in LedgerEntry.objects.filter(
            character=character,
            kind="purchase",
            undone_by__isnull=True,
            adventure=fresh.adventure,
            carried=False,
        ):
            if entry.trait.startswith("power."):
                assert entry.trait.partition(".")[2] in sheet["force"]["powers"], entry.trait


def test_force_sensitivity_is_not_undone_while_force_skills_rest_on_it(player_client, padawan):
    """Undone, it left Control and its power on a sheet no longer Force-sensitive (and, the
    R&E Force skills then unpriced, free to lower and buy again)."""
    entry = LedgerEntry.objects.get(character=padawan, trait="force.sensitive", kind="purchase")
    before = _stored(padawan)
    response = _undo(player_client, padawan, entry)
    assert response.status_code == 400
    assert "Undo Control first: they rest on being Force-sensitive." in _text(response)
    assert _stored(padawan) == before


def test_the_edition_is_not_switched_in_play(player_client, padawan):
    """Switched to 1E in play, a player learned powers free with a teacher, then switched
    back to R&E with them."""
    before = _stored(padawan)
    response = player_client.post(
        reverse("character_edit", args=[padawan.pk]),
        {"edit": "info.edition=1e", "version": _fresh(padawan).version},
    )
    assert response.status_code == 400
    assert "In play the edition stays as the sheet was made" in _text(response)
    assert _stored(padawan) == before


def test_the_sheet_offers_the_undo_not_remove_for_a_power_learned_this_adventure(
    player_client, paid_power
):
    character, _entry = paid_power
    sheet_url = reverse("character_sheet", args=[character.pk])
    page = player_client.get(sheet_url).content.decode()
    ledger_url = reverse("character_ledger", args=[character.pk])
    assert f'<a href="{ledger_url}" class="small" id="power-remain_conscious-undo">' in page
    assert 'id="power-remain_conscious-remove"' not in page
    _end_adventure(player_client, character)
    page = player_client.get(sheet_url).content.decode()
    assert 'id="power-remain_conscious-undo"' not in page
    assert 'id="power-remain_conscious-remove"' in page
