"""A trait whose paid raise still trains offers no "Advance to" on the sheet (the purchase
would be refused until the training ends, 002:43-55): it says "in training" instead."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.test_ledger_training_waits import _buy, _in_play, _train

pytestmark = pytest.mark.django_db


def test_a_trait_in_training_shows_in_training_not_advance(client, player):
    dash = _in_play(player)
    client.force_login(player)
    url = reverse("character_sheet", args=[dash.pk])
    page = client.get(url).content.decode()
    assert 'value="advance.attr.dexterity=' in page
    _buy(player, dash, trait="attr.dexterity")
    page = client.get(url).content.decode()
    assert 'value="advance.attr.dexterity=' not in page
    assert 'id="trait-attr-dexterity"' in page and "in training" in page
    # Another trait is still offered.
    assert 'value="advance.attr.knowledge=' in page
    # Once the training is marked done, the next raise is offered again.
    _train(player, dash, "pass", days="400")  # 60 weeks alone (002:43-55)
    _train(player, dash, "pass", days="20")
    page = client.get(url).content.decode()
    assert 'value="advance.attr.dexterity=' in page


def test_the_advance_click_answers_with_in_training_in_place_of_the_button(client, player):
    dash = _in_play(player)
    client.force_login(player)
    response = client.post(
        reverse("character_edit", args=[dash.pk]),
        {"version": dash.version, "edit": "advance.attr.dexterity=3D+2"},
        HTTP_HX_REQUEST="true",
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "in training" in text and 'value="advance.attr.dexterity=' not in text
