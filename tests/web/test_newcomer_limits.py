"""Limits a newcomer meets while typing: told before and when they are crossed, never cut."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse

from rulesets.core.edits import InvalidEdit
from rulesets.core.parsing import parse_whole
from rulesets.registry import get_ruleset
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def make(player, system: str):
    return character_create(
        owner=player, name="Limit Tester", system=system, sheet=get_ruleset(system).demo_sheet()
    )


def send_one(client, character, trait: str, raw: str, **headers):
    character.refresh_from_db()
    return client.post(
        reverse("character_edit", args=[character.pk]),
        {"only": trait, trait: raw, "version": character.version},
        **headers,
    )


@pytest.mark.parametrize("htmx", [True, False])
def test_credits_too_many_to_hold_are_told_out_of_range_with_the_range(player_client, player, htmx):
    character = make(player, "weg_d6")
    before = (character.sheet, character.version)
    response = send_one(
        player_client, character, "gear.credits", "99999999999", **(HTMX if htmx else {})
    )
    assert response.status_code == (200 if htmx else 400)
    text = html.unescape(response.content.decode())
    assert "Credits runs from 0 to 999999999; 99999999999 is outside it." in text
    assert "not a whole number" not in text
    character.refresh_from_db()
    assert (character.sheet, character.version) == before


def test_thousands_of_digits_are_out_of_range_not_a_crash():
    with pytest.raises(InvalidEdit, match=r"Strength runs from 1 to 5; 9{37}… is outside it\."):
        parse_whole("attr.x", "9" * 4400, label="Strength", minimum=1, maximum=5)
    with pytest.raises(InvalidEdit, match=r"Strength is at least 1; -9{36}… is too low\."):
        parse_whole("attr.x", "-" + "9" * 4400, label="Strength", minimum=1)
    with pytest.raises(InvalidEdit, match=r"out of range \(9 digits at most\)"):
        parse_whole("attr.x", "9" * 4400, label="Strength")


def test_leading_zeros_do_not_make_a_small_number_out_of_range():
    assert parse_whole("attr.x", "0000000000003", label="Strength", minimum=1, maximum=5) == 3
