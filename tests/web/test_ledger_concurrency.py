"""Two purchases sent at the same moment never spend more than the balance (PostgreSQL:
SQLite serialises writers, so the race only exists on a real server database)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from rulesets.registry import get_ruleset
from sheets.advancement import services as ledger
from sheets.advancement.models import LedgerEntry
from sheets.characters.models import Character
from sheets.characters.services import character_apply_edits, character_create


@pytest.mark.django_db(transaction=True)
def test_concurrent_purchases_never_overspend(player):
    if connection.vendor != "postgresql":
        pytest.skip("set DATABASE_URL=postgres://… to run the concurrency test on PostgreSQL")
    character = character_create(
        owner=player, name="Racer", system="swd10", sheet=get_ruleset("swd10").demo_sheet()
    )
    character = character_apply_edits(
        user=player, character_id=character.pk, edits={"stage": "play"}, expected_version=1
    )
    ledger.award(user=player, character_id=character.pk, amount="20", reason="Session")
    seen = Character.objects.get(pk=character.pk).version
    # Each raise costs at least 12 XP: the 20 XP balance pays for one of them at most.
    traits = ["attr.strength", "attr.charisma", "attr.manipulation", "attr.stamina"]
    start = threading.Barrier(len(traits))
    statuses: list[int] = []
    failures: list[BaseException] = []
    lock = threading.Lock()

    def buy(trait: str) -> None:
        client = Client()
        client.force_login(player)
        try:
            start.wait()
            response = client.post(
                reverse("ledger_buy", args=[character.pk]), {"trait": trait, "version": seen}
            )
            with lock:
                statuses.append(response.status_code)
        except BaseException as error:  # reported by the assertion below
            with lock:
                failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=buy, args=(trait,)) for trait in traits]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures, failures
    # One purchase redirects (done); every other one is refused with a message (400).
    assert sorted(statuses) == [302] + [400] * (len(traits) - 1)
    amounts = list(LedgerEntry.objects.filter(character=character).values_list("amount", flat=True))
    assert sum(amounts) >= 0
    assert len([a for a in amounts if a < 0]) == 1
