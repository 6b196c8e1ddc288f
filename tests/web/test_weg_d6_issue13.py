"""Issue 13, WEG, through the web as a player meets it: Force skills counted at creation,
"+1D" typed into a skill, the weapons box, gear, credits, looks and quote on the sheet
and in the PDF, the edition picked on the new-character form, and the demo's 1E Force
student and droid."""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

import rulesets.weg_d6 as weg
from rulesets.core import resolve_settings
from rulesets.weg_d6 import demo
from sheets.campaigns.services import campaign_create, campaign_join, invitation_create
from sheets.characters.models import Character
from sheets.characters.services import character_approve, character_create, character_submit
from sheets.printing.models import TablePrint
from sheets.printing.tasks import build_table_pdf

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SETTINGS = resolve_settings(weg.SETTINGS, {})


def edit(client, character, data, **headers):
    character.refresh_from_db()
    return client.post(
        reverse("character_edit", args=[character.pk]),
        {**data, "version": character.version},
        **headers,
    )


def only(client, character, trait, raw, *extra, **headers):
    data = {"only": trait, trait: raw}
    data.update({f"{trait}.{index}": value for index, value in enumerate(extra, start=1)})
    return edit(client, character, data, **headers)


def page(client, character) -> str:
    text = client.get(reverse("character_sheet", args=[character.pk])).content.decode()
    return text.replace("&#x27;", "'").replace("&ldquo;", "“").replace("&rdquo;", "”")


def field_html(text: str, trait: str) -> str:
    dom = "trait-" + trait.replace(".", "-")
    start = text.index(f'id="{dom}"')
    return text[start : text.find('<div class="trait', start + 1)]


def pdf_text(client, character) -> str:
    response = client.get(reverse("character_pdf", args=[character.pk]))
    assert response.status_code == 200
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    return "\n".join(p.extract_text() for p in reader.pages)


@pytest.fixture
def new_hand(player):
    """A blank R&E sheet with its 18D of attributes placed, as a player starts."""
    sheet = weg.blank_sheet({})
    for attribute in sheet["attributes"]:
        sheet = weg.apply_edit(sheet, f"attr.{attribute}", "3D", SETTINGS)
    return Character.objects.create(owner=player, name="New Hand", system="weg_d6", sheet=sheet)


# --- 1 and 2, typed into the sheet --------------------------------------------------------


def test_plus_1d_typed_into_dodge_is_the_attribute_plus_1d(player_client, new_hand):
    response = only(player_client, new_hand, "skill.dodge", "+1D", **HTMX)
    assert response.status_code == 200
    new_hand.refresh_from_db()
    assert new_hand.sheet["skills"]["dodge"] == 12  # Dexterity 3D + 1D
    dodge = field_html(page(player_client, new_hand), "skill.dodge")
    assert 'value="4D"' in dodge and "+1D over it" in dodge
    assert "below its attribute" not in dodge


def test_force_skills_at_creation_count_against_the_skill_dice(player_client, new_hand):
    for trait, raw in (
        ("force.sensitive", "yes"),
        ("skill.blaster", "+2D"),
        ("skill.dodge", "+2D"),
        ("skill.search", "+2D"),
        ("skill.stamina", "+1D"),
        ("force.control", "5D"),
    ):
        assert only(player_client, new_hand, trait, raw, **HTMX).status_code == 200
    text = page(player_client, new_hand)
    # The play-test saw "Legal: every budget spent" here.
    assert "Legal:" not in text and "Legal so far" not in text
    control = field_html(text, "force.control")
    assert "at creation one skill takes at most 2D, Force skills too" in control
    assert "12D of skill dice spent; creation gives 7D" in text


def test_a_1e_force_skill_without_a_template_or_teacher_is_flagged(player_client, player):
    sheet = weg.blank_sheet({"default_edition": "1e"})
    character = Character.objects.create(owner=player, name="Kid", system="weg_d6", sheet=sheet)
    only(player_client, character, "force.control", "1D", **HTMX)
    control = field_html(page(player_client, character), "force.control")
    assert "only from a Force template" in control and "Minor Jedi" in control


# --- 5. the sheet's new parts, and bad input beside them ----------------------------------


def test_a_weapon_is_added_and_filled_in_from_the_sheet(player_client, new_hand):
    only(player_client, new_hand, "weapon.add", "Blaster pistol", "4D", **HTMX)
    only(player_client, new_hand, "weapon.0.range", "3-10/30/120", **HTMX)
    new_hand.refresh_from_db()
    assert new_hand.sheet["weapons"] == [
        {"name": "Blaster pistol", "damage": "4D", "range": "3-10/30/120", "ammo": ""}
    ]
    text = page(player_client, new_hand)
    assert 'name="weapon.0.damage" value="4D"' in text
    assert 'value="weapon.remove=0"' in text
    edit(player_client, new_hand, {"edit": "weapon.remove=0"}, **HTMX)
    new_hand.refresh_from_db()
    assert new_hand.sheet["weapons"] == []


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize(
    ("trait", "raw", "message"),
    [
        ("weapon.add", "Blaster|lots", "not a damage code; write it like 4D, 5D+2 or STR+1D"),
        ("info.quote", "q" * 301, "Quote is limited to 300 characters."),
        ("gear.credits", "a lot", "Credits: “a lot” is not a whole number."),
        ("gear.equipment", "e" * 2001, "Equipment is limited to 2000 characters."),
        ("info.physical", "p" * 1001, "Physical description is limited to 1000 characters."),
    ],
)
def test_bad_input_in_a_new_field_is_told_beside_it_and_changes_nothing(
    player_client, new_hand, trait, raw, message, htmx
):
    before = (new_hand.sheet, new_hand.version)
    response = only(player_client, new_hand, trait, raw, **(HTMX if htmx else {}))
    assert response.status_code == (200 if htmx else 400)
    text = response.content.decode().replace("&ldquo;", "“").replace("&rdquo;", "”")
    assert message in text
    new_hand.refresh_from_db()
    assert (new_hand.sheet, new_hand.version) == before


def test_gear_credits_and_looks_are_on_a_characters_sheet_not_a_droids(player_client, player):
    smuggler = Character.objects.create(
        owner=player, name="Jax", system="weg_d6", sheet=weg.demo_sheet()
    )
    droid = Character.objects.create(
        owner=player, name="R2", system="weg_d6", sheet=demo.demo_droid_sheet()
    )
    text = page(player_client, smuggler)
    for name in ("gear.credits", "gear.equipment", "info.physical", "info.quote"):
        assert f'name="{name}"' in text, name
    droid_text = page(player_client, droid)
    assert 'name="gear.credits"' not in droid_text and 'name="info.quote"' not in droid_text
    assert 'name="weapon.add"' in droid_text  # a security droid may carry weapons


# --- 5, the PDF ---------------------------------------------------------------------------


def test_the_pdf_prints_weapons_equipment_credits_looks_and_quote(player_client, player):
    character = Character.objects.create(
        owner=player, name="Jax Durran", system="weg_d6", sheet=weg.demo_sheet()
    )
    text = pdf_text(player_client, character)
    for expected in (
        "WEAPONS",
        "Heavy blaster pistol",
        "3-7/25/50",
        "STR+1D",
        "Vibroknife",
        "Credits: 1200",
        "Comlink, glow rod",
        "PHYSICAL DESCRIPTION",
        "Lean, sun-creased",
        "A QUOTE",
        "Never tell me the odds",
        "THE FORCE",
    ):
        assert expected in text, expected
    # Still in creation: the stage is said, small, beside the edition.
    assert "STAGE: CREATION" in text


def test_a_droids_pdf_has_no_force_block(player_client, player):
    droid = Character.objects.create(
        owner=player, name="R2", system="weg_d6", sheet=demo.demo_droid_sheet()
    )
    text = pdf_text(player_client, droid)
    assert "THE FORCE" not in text and "Force-sensitive" not in text and "Powers:" not in text
    assert "Force Points" in text  # droids may use Force Points (003:1002)
    assert "WEAPONS" in text


def test_a_sheet_in_play_prints_no_stage(player_client, player):
    sheet = weg.demo_sheet()
    sheet["stage"] = "play"
    character = Character.objects.create(owner=player, name="Jax", system="weg_d6", sheet=sheet)
    text = pdf_text(player_client, character)
    assert "STAGE" not in text.upper().replace("CHARACTER TEMPLATE", "")


def test_a_table_handout_never_prints_the_stage(gm, player):
    campaign = campaign_create(user=gm, name="Run to Kessel", system="weg_d6")
    campaign_join(user=player, token=invitation_create(user=gm, campaign_id=campaign.pk).token)
    character = character_create(
        owner=player, name="Jax", system="weg_d6", sheet=weg.demo_sheet(), campaign=campaign
    )
    assert character.sheet["stage"] == "creation"
    character_submit(user=player, character_id=character.pk, version=character.version)
    character_approve(user=gm, character_id=character.pk, version=character.version)
    build = TablePrint.objects.create(campaign=campaign, requested_by=gm, total=1)
    assert build_table_pdf.call(build.pk) == 1
    build.refresh_from_db()
    reader = PdfReader(io.BytesIO(bytes(build.pdf)))
    text = "\n".join(p.extract_text() for p in reader.pages)
    assert "Jax" in text and "Heavy blaster pistol" in text
    assert "STAGE" not in text


# --- 5, the edition on the new-character form ----------------------------------------------


def test_the_new_character_form_offers_the_edition(player_client, player):
    form = player_client.get(reverse("character_new")).content.decode()
    assert 'name="edition"' in form and "1st edition (Rules Companion)" in form
    response = player_client.post(
        reverse("character_new"), {"name": "Ven", "system": "weg_d6", "edition": "1e"}
    )
    assert response.status_code == 302
    assert Character.objects.get(name="Ven").sheet["edition"] == "1e"
    # Another system ignores the choice.
    response = player_client.post(
        reverse("character_new"), {"name": "Kira", "system": "swd10", "edition": "1e"}
    )
    assert response.status_code == 302


def test_a_bad_edition_is_refused_on_the_form_and_nothing_is_made(player_client):
    response = player_client.post(
        reverse("character_new"), {"name": "Ven", "system": "weg_d6", "edition": "3e"}
    )
    assert response.status_code == 400
    assert "Edition for new characters: choose one of" in response.content.decode()
    assert not Character.objects.exists()


def test_at_a_table_the_edition_starts_at_the_tables(gm, player, player_client):
    campaign = campaign_create(user=gm, name="Old school", system="weg_d6")
    campaign.rule_settings = {"default_edition": "1e"}
    campaign.save()
    campaign_join(user=player, token=invitation_create(user=gm, campaign_id=campaign.pk).token)
    url = reverse("character_new") + f"?campaign={campaign.pk}"
    form = player_client.get(url).content.decode()
    assert re.search(r'<option value="1e" selected>', form)
    response = player_client.post(
        reverse("character_new"), {"name": "Ven", "campaign": campaign.pk, "system": "weg_d6"}
    )
    assert response.status_code == 302
    assert Character.objects.get(name="Ven").sheet["edition"] == "1e"


# --- 9. the demo ----------------------------------------------------------------------------


def test_the_demo_adds_a_legal_1e_force_student_and_a_legal_droid():
    call_command("load_demo")
    call_command("load_demo")  # a second run adds nothing
    demo_user = Character.objects.filter(owner__username="demo", system="weg_d6")
    assert sorted(c.name for c in demo_user) == ["Jax Durran", "R2-K5", "Ven Aurel"]
    student = demo_user.get(name="Ven Aurel")
    droid = demo_user.get(name="R2-K5")
    assert student.sheet["edition"] == "1e" and student.sheet["force"]["alter"]
    assert droid.sheet["kind"] == "droid"
    for character in (student, droid):
        assert weg.status(character.sheet, character.rule_settings).legal, character.name
