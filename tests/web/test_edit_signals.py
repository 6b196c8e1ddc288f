"""An edit reads and writes through the ORM's public API, so the models' signals are sent:
a receiver connected one day for Character or Revision sees every edit."""

from __future__ import annotations

import pytest
from django.db.models.signals import post_save, pre_save
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.history.models import Revision

pytestmark = pytest.mark.django_db


@pytest.fixture
def saved():
    """Every (signal, model, update_fields, created) sent while a test runs."""
    seen: list[tuple] = []

    def receiver(sender, instance, signal, **kwargs):
        fields = kwargs.get("update_fields")
        seen.append(
            (
                signal,
                sender,
                frozenset(fields) if fields else None,
                kwargs.get("created"),
            )
        )

    for signal in (pre_save, post_save):
        for model in (Character, Revision):
            signal.connect(receiver, sender=model, weak=False)
    yield seen
    for signal in (pre_save, post_save):
        for model in (Character, Revision):
            signal.disconnect(receiver, sender=model)


def test_an_htmx_edit_sends_the_save_signals_of_the_character_and_its_revision(
    player_client, player, saved
):
    character = character_create(
        owner=player, name="Demo", system="swd10", sheet=get_ruleset("swd10").demo_sheet()
    )
    saved.clear()
    stealth = character.sheet["abilities"]["stealth"]
    response = player_client.post(
        reverse("character_edit", args=[character.pk]),
        {"edit": f"abil.stealth={(stealth + 1) % 3}", "version": character.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and 'id="sheet-version"' in response.content.decode()
    written = {"name", "rule_settings", "sheet", "version", "updated_at"}
    assert (pre_save, Character, frozenset(written), None) in saved
    assert (post_save, Character, frozenset(written), False) in saved
    assert (post_save, Revision, None, True) in saved
    revision = Revision.objects.get(character=character, version=character.version + 1)
    assert revision.changes, "the revision names what changed"
