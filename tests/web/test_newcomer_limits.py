"""Limits a newcomer meets while typing: told before and when they are crossed, never cut."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from rulesets.core import resolve_settings
from rulesets.core.edits import InvalidEdit
from rulesets.core.parsing import parse_whole
from rulesets.core.rows import RowKind
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


def accepted_length(ruleset, sheet, key: str) -> int | None:
    """The most characters apply_edit takes for a text trait (None: it reads a code)."""
    settings = resolve_settings(ruleset.SETTINGS, {})

    def takes(count: int) -> bool:
        try:
            ruleset.apply_edit(sheet, key, "x" * count, settings)
        except InvalidEdit:
            return False
        return True

    if not takes(1):
        return None
    low, high = 1, 20_000
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if takes(middle) else (low, middle - 1)
    return low


@pytest.mark.parametrize("system", ["o3d10", "ore", "swd10", "weg_d6"])
def test_every_text_field_on_a_sheet_allows_exactly_what_is_kept(player_client, player, system):
    character = make(player, system)
    ruleset = get_ruleset(system)
    page = player_client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    settings = resolve_settings(ruleset.SETTINGS, {})
    checked = 0
    for row in ruleset.trait_rows(character.sheet, settings):
        if row.kind not in (RowKind.TEXT, RowKind.NOTES) or row.locked:
            continue
        accepted = accepted_length(ruleset, character.sheet, row.key)
        if accepted is None:
            continue
        control = re.search(rf'<(?:input|textarea)\b[^>]*\bname="{re.escape(row.key)}"[^>]*>', page)
        assert control, row.key
        limit = re.search(r'\bmaxlength="(\d+)"', control.group(0))
        # The browser stops typing where the sheet stops keeping: no more, no less.
        assert limit and int(limit.group(1)) == accepted, (row.key, control.group(0), accepted)
        if control.group(0).startswith("<textarea"):
            assert f"Up to {accepted} characters" in page, row.key
        checked += 1
    assert checked >= 5


def test_the_weg_background_physical_description_and_equipment_show_their_limits(
    player_client, player
):
    page = player_client.get(
        reverse("character_sheet", args=[make(player, "weg_d6").pk])
    ).content.decode()
    for name, most in (
        ("info.description", 4000),
        ("info.physical", 1000),
        ("gear.equipment", 2000),
    ):
        control = re.search(rf'<textarea\b[^>]*\bname="{re.escape(name)}"[^>]*>', page).group(0)
        assert f'maxlength="{most}"' in control, control
        hint = re.search(r'aria-describedby="([^" ]+)', control).group(1)
        assert re.search(rf'id="{hint}">Up to {most} characters<', page), name
