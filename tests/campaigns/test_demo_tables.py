"""`make demo` sets a table for each system: a GM, three players, sheets in every state."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.http import HttpRequest

from rulesets.registry import ready_systems
from sheets.campaigns.models import Campaign, Role
from sheets.characters.models import Character, GMNote, Review

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_gm_table_of_each_system_with_every_review_state():
    call_command("load_demo")
    call_command("load_demo")  # a second run adds nothing
    gm = get_user_model().objects.get(username="gm")
    campaigns = Campaign.objects.filter(created_by=gm)
    assert sorted(c.system for c in campaigns) == sorted(i.key for i in ready_systems())
    labels = set()
    for campaign in campaigns:
        players = campaign.memberships.filter(role=Role.PLAYER)
        assert sorted(m.user.username for m in players) == ["ana", "ben", "cara"]
        assert campaign.memberships.get(role=Role.GM).user == gm
        sheets = list(campaign.characters.all())
        assert len(sheets) == 4
        assert all(s.system == campaign.system for s in sheets)
        labels |= {s.review_label for s in sheets}
    assert labels == {
        "Draft",
        "Submitted",
        "Approved",
        "Changes requested",
        "Changed since approval",
    }
    changed = [c for c in Character.objects.all() if c.changed_since_approval]
    assert len(changed) == 1
    approval = Review.objects.get(character=changed[0], kind=Review.Kind.APPROVED)
    assert approval.version < changed[0].version
    assert GMNote.objects.count() == len(campaigns)


def test_every_demo_player_can_log_in(client):
    call_command("load_demo")
    for username in ("gm", "ana", "ben", "cara"):
        # The login throttle (django-axes) needs a request to count attempts against.
        assert client.login(request=HttpRequest(), username=username, password="demo-pass")
