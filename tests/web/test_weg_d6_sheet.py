"""Editing a WEG d6 sheet: die codes typed or stepped, htmx fragments, droids, the Force,
paid advances in play, and bad input that changes nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

import rulesets.weg_d6 as weg
from sheets.characters.models import Character, Revision

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def smuggler(player):
    return Character.objects.create(
        owner=player, name="Jax Durran", system="weg_d6", sheet=weg.demo_sheet()
    )


@pytest.fixture
def blank(player):
    return Character.objects.create(
        owner=player, name="New Hand", system="weg_d6", sheet=weg.blank_sheet({})
    )


@pytest.fixture
def droid(player):
    return Character.objects.create(
        owner=player, name="R2", system="weg_d6", sheet=weg.demo_droid_sheet()
    )


def edit(client, character, data, **headers):
    return client.post(reverse("character_edit", args=[character.pk]), data, **headers)


def page(client, character) -> str:
    return client.get(reverse("character_sheet", args=[character.pk])).content.decode()


def row(text: str, trait: str) -> str:
    """The HTML of one code row, up to the next row."""
    start = text.index(f'id="trait-{trait.replace(".", "-")}"')
    end = text.find('<div class="code-row', start)
    return text[start : end if end != -1 else None]


def test_the_sheet_shows_the_six_attributes_with_their_skills_beneath(player_client, smuggler):
    text = page(player_client, smuggler)
    order = [text.index(f'id="attr-block-{a.slug}"') for a in weg.data.ATTRIBUTES]
    assert order == sorted(order)
    dexterity = text[order[0] : order[1]]
    assert 'id="trait-skill-blaster" data-code="5D+1" data-trained="yes"' in dexterity
    assert 'id="trait-skill-dodge"' in dexterity and "Starship gunnery" not in dexterity
    assert 'data-code="6D+2"' in row(text, "spec.space_transports_yt_1300")
    # An untrained skill rolls at its attribute and shows it as a placeholder.
    assert 'placeholder="2D+1"' in row(text, "skill.alien_races")
    for part in (
        'id="section-force"',
        'id="section-points"',
        'id="section-wounds"',
        'id="section-species"',
        'id="budget"',
        'id="derived"',
        'id="readings"',
        "Force-sensitive",
        "Dark Side Points",
        "Character points",
        "Wounded twice",
        "Background and description",
    ):
        assert part in text, part


def test_every_code_shows_the_cost_of_its_next_pip(player_client, smuggler):
    text = page(player_client, smuggler)
    assert "next pip 5 CP" in row(text, "skill.blaster")  # 5D+1: 5 per pip (002:43)
    assert "next pip 30 CP" in row(text, "attr.dexterity")  # 3D+1: 10 x 3 (002:51)
    assert "next pip 3 CP" in row(text, "spec.space_transports_yt_1300")  # half of 6, rounded up
    assert "Blaster 5D+1 → 5D+2: 5 CP per pip" in row(text, "skill.blaster")


def test_the_budget_panel_lists_every_pool_and_the_verdict(player_client, smuggler):
    text = page(player_client, smuggler)
    assert re.search(r'id="pool-attributes".*?<td>18D</td><td class="spent">18D</td>', text, re.S)
    assert re.search(r'id="pool-skill_dice".*?<td>7D</td><td class="spent">7D</td>', text, re.S)
    assert "Legal: every budget spent, no rule broken." in text


def test_the_readings_panel_shows_the_edition_and_every_setting(player_client, smuggler):
    text = page(player_client, smuggler)
    assert 'name="info.edition"' in text
    for setting in weg.SETTINGS:
        assert f'name="setting.{setting.key}"' in text
    assert text.count("setting: not in either seed") >= 5


@pytest.mark.parametrize("typed", ["4D+2", "4d+2", "+4D+2", " 4D + 2 "])
def test_a_code_is_typed_in_any_of_the_book_forms(player_client, smuggler, typed):
    response = edit(
        player_client,
        smuggler,
        {"only": "skill.dodge", "skill.dodge": typed, "version": 1},
        **HTMX,
    )
    text = response.content.decode()
    assert 'id="attr-block-dexterity" hx-swap-oob="true"' in text
    assert 'id="trait-skill-dodge" data-code="4D+2"' in text
    smuggler.refresh_from_db()
    assert smuggler.sheet["skills"]["dodge"] == 14


def test_an_htmx_pip_step_swaps_the_attribute_block_budget_and_version(player_client, smuggler):
    response = edit(player_client, smuggler, {"edit": "attr.technical=2D+2", "version": 1}, **HTMX)
    text = response.content.decode()
    assert response.status_code == 200 and "<html" not in text
    assert 'id="attr-block-technical" hx-swap-oob="true"' in text
    assert 'id="attr-block-dexterity"' not in text
    assert 'id="budget" aria-live="polite" hx-swap-oob="true"' in text
    assert 'id="sheet-version" value="2" hx-swap-oob="true"' in text
    assert 'id="version-add-skill" value="2" hx-swap-oob="true"' in text
    assert "The attributes add up to 18D+1; a player character has 18D (003:913)." in text
    smuggler.refresh_from_db()
    assert smuggler.sheet["attributes"]["technical"] == 8


def test_without_javascript_a_pip_button_posts_and_redirects(player_client, smuggler):
    response = edit(player_client, smuggler, {"edit": "skill.search=3D+1", "version": 1})
    assert response.status_code == 302
    smuggler.refresh_from_db()
    assert smuggler.sheet["skills"]["search"] == 10


def test_without_javascript_save_all_stores_typed_codes_and_leaves_blanks_untrained(
    player_client, smuggler
):
    text = page(player_client, smuggler)
    fields = dict(
        re.findall(
            r'<input id="input-[^"]*" class="code-input" name="([^"]+)" value="([^"]*)"', text
        )
    )
    fields |= {"skill.dodge": "4D+2", "save": "all", "version": "1"}
    response = edit(player_client, smuggler, fields)
    assert response.status_code == 302
    smuggler.refresh_from_db()
    assert smuggler.sheet["skills"]["dodge"] == 14
    assert set(smuggler.sheet["skills"]) == {
        "blaster",
        "dodge",
        "space_transports",
        "starship_gunnery",
        "streetwise",
    }


def test_a_wound_takes_its_penalty_off_every_shown_code(player_client, smuggler):
    response = edit(player_client, smuggler, {"edit": "wound=wounded_twice", "version": 1}, **HTMX)
    text = response.content.decode()
    assert 'id="section-attributes" hx-swap-oob="true"' in text
    assert "rolls 3D+1" in row(text, "skill.blaster")  # 5D+1 at -2D (002:557)
    assert "rolls 1D+1" in row(text, "attr.dexterity")
    assert "rolls 0D+1" in row(text, "skill.alien_races")  # untrained: Knowledge 2D+1
    assert "Wounded twice: -2D to every code shown." in text


def test_switching_to_first_edition_renames_points_and_drops_wounded_twice(player_client, smuggler):
    response = edit(
        player_client,
        smuggler,
        {"only": "info.edition", "info.edition": "1e", "version": 1},
        **HTMX,
    )
    text = response.content.decode()
    assert 'id="sheet" class="sheet-page weg_d6" hx-swap-oob="true"' in text
    assert "Skill points" in text and "next pip 5 SP" in row(text, "skill.blaster")
    assert "wound=wounded_twice" not in text
    assert "1st edition has no specializations (digest §2.2)." in text


def test_a_custom_skill_lands_under_its_attribute(player_client, smuggler):
    response = edit(
        player_client,
        smuggler,
        {"only": "skill.add", "skill.add": "Sabacc|PER", "version": 1},
        **HTMX,
    )
    text = response.content.decode()
    assert 'id="section-attributes" hx-swap-oob="true"' in text
    perception = text[text.index('id="attr-block-perception"') :]
    assert 'id="trait-skill-sabacc"' in perception[: perception.index('id="attr-block-strength"')]
    smuggler.refresh_from_db()
    assert smuggler.sheet["custom_skills"]["sabacc"]["attribute"] == "perception"


def test_a_specialization_is_added_by_the_skill_name(player_client, smuggler):
    edit(
        player_client,
        smuggler,
        {"only": "spec.add", "spec.add": "Heavy blaster pistol|Blaster", "version": 1},
    )
    smuggler.refresh_from_db()
    assert smuggler.sheet["specializations"]["blaster_heavy_blaster_pistol"]["pips"] == 16


def test_a_droid_shows_its_building_dice_and_equipment(player_client, droid):
    text = page(player_client, droid)
    assert 'id="section-droid" hidden' not in text
    assert re.search(
        r'id="pool-building_dice".*?<td>35D</td><td class="spent">34D</td>', text, re.S
    )
    assert 'data-code="2D"' in row(text, "droid.speed")
    assert "Video screen with holographic projection" in text
    assert "Building dice: attributes 5D, speed 3D, armor 3D, equipment 11D, skills 12D" in text


def test_a_character_hides_the_droid_block(player_client, smuggler):
    assert 'id="section-droid" hidden' in page(player_client, smuggler)


def test_the_force_block_adds_a_power_with_its_skills(player_client, smuggler):
    for data in (
        {"only": "force.sensitive", "force.sensitive": "yes"},
        {"only": "force.control", "force.control": "1D"},
        {"only": "power.add", "power.add": "control_pain"},
    ):
        version = Character.objects.get(pk=smuggler.pk).version
        response = edit(player_client, smuggler, data | {"version": version}, **HTMX)
    text = response.content.decode()
    assert 'id="section-force" hx-swap-oob="true"' in text
    assert "Control pain <small>(Control)</small>" in text
    smuggler.refresh_from_db()
    assert smuggler.sheet["force"]["powers"] == ["control_pain"]


def test_dark_side_points_warn_of_the_consumption_check(player_client, smuggler):
    response = edit(
        player_client,
        smuggler,
        {"only": "points.dark_side", "points.dark_side": "2", "version": 1},
        **HTMX,
    )
    text = response.content.decode()
    points = text[text.index('id="section-points"') :]
    assert "2 Dark Side Points: when the next one comes the GM rolls 1D and 1-3 consumes" in points


def test_an_advance_in_play_spends_character_points(player_client, smuggler):
    edit(player_client, smuggler, {"only": "info.stage", "info.stage": "play", "version": 1})
    edit(
        player_client,
        smuggler,
        {"only": "points.character", "points.character": "20", "version": 2},
    )
    text = page(player_client, smuggler)
    assert 'value="advance.skill.blaster=5D+2"' in text
    response = edit(
        player_client, smuggler, {"edit": "advance.skill.blaster=5D+2", "version": 3}, **HTMX
    )
    text = response.content.decode()
    assert 'id="section-points" hx-swap-oob="true"' in text
    assert 'id="section-interval" hx-swap-oob="true"' in text
    smuggler.refresh_from_db()
    assert smuggler.sheet["skills"]["blaster"] == 17
    assert smuggler.sheet["points"]["character"] == 15


def test_a_rule_reading_is_stored_and_rerenders_the_sheet(player_client, smuggler):
    response = edit(
        player_client,
        smuggler,
        {"only": "setting.skill_dice", "setting.skill_dice": "8", "version": 1},
        **HTMX,
    )
    assert 'id="sheet" class="sheet-page weg_d6" hx-swap-oob="true"' in response.content.decode()
    smuggler.refresh_from_db()
    assert smuggler.rule_settings == {"skill_dice": 8}


def _play_with_a_raise(client, character) -> int:
    edit(client, character, {"only": "info.stage", "info.stage": "play", "version": 1})
    edit(client, character, {"only": "points.character", "points.character": "30", "version": 2})
    edit(client, character, {"edit": "advance.skill.dodge=4D+2", "version": 3})
    return 4


BAD_INPUT = [
    (
        "blank",
        {"only": "attr.dexterity", "attr.dexterity": "4D+7"},
        "attr-dexterity",
        "has 7 pips; a code carries at most 2",
    ),
    (
        "blank",
        {"only": "skill.blaster", "skill.blaster": "D4"},
        "skill-blaster",
        "is not a die code; write it like 4D, 4D+2 or +1D+1.",
    ),
    (
        "blank",
        {"only": "skill.dodge", "skill.dodge": "-1D"},
        "skill-dodge",
        "is negative; a code on the sheet is 0D or more.",
    ),
    ("blank", {"edit": "attr.strength=0D+2"}, "attr-strength", "Strength is at least 1D."),
    (
        "blank",
        {"only": "skill.add", "skill.add": "Sabacc|LUCK"},
        "skill-add",
        "is not an attribute; use Dexterity, Knowledge",
    ),
    (
        "droid",
        {"only": "force.control", "force.control": "1D"},
        "force-control",
        "Droids may never have Force skills (003:1002).",
    ),
    (
        "droid",
        {"only": "force.sensitive", "force.sensitive": "yes"},
        "force-sensitive",
        "Droids may never have Force skills (003:1002).",
    ),
    (
        "blank",
        {"only": "points.force", "points.force": "-2"},
        "points-force",
        "Force Points must be between 0 and 9999.",
    ),
    (
        "blank",
        {"only": "info.kind", "info.kind": "robot"},
        "info-kind",
        "is not character or droid",
    ),
]


@pytest.mark.parametrize(("who", "data", "dom", "message"), BAD_INPUT)
@pytest.mark.parametrize("htmx", [True, False])
def test_bad_input_gets_a_message_beside_its_field_and_changes_nothing(
    request, player_client, who, data, dom, message, htmx
):
    character = request.getfixturevalue(who)
    before = (character.sheet, character.version)
    response = edit(player_client, character, data | {"version": 1}, **(HTMX if htmx else {}))
    assert response.status_code == (200 if htmx else 400)
    text = response.content.decode().replace("&ldquo;", "“").replace("&rdquo;", "”")
    field = text[text.index(f'id="trait-{dom}"') :]
    alert = field[field.index('role="alert"') :][:300]
    assert message in alert
    character.refresh_from_db()
    assert (character.sheet, character.version) == before
    assert Revision.objects.filter(character=character).count() == 0


def test_a_second_pip_between_adventures_is_refused_beside_the_skill(player_client, smuggler):
    version = _play_with_a_raise(player_client, smuggler)
    smuggler.refresh_from_db()
    before = smuggler.sheet
    response = edit(
        player_client, smuggler, {"edit": "advance.skill.dodge=5D", "version": version}, **HTMX
    )
    text = response.content.decode()
    assert (
        "Dodge can rise only one pip between adventures (002:39); it already rose 1 this time."
        in row(text, "skill.dodge")
    )
    smuggler.refresh_from_db()
    assert (smuggler.sheet, smuggler.version) == (before, version)
    # A new adventure opens the window again.
    edit(player_client, smuggler, {"edit": "interval.close=1", "version": version})
    edit(player_client, smuggler, {"edit": "advance.skill.dodge=5D", "version": version + 1})
    smuggler.refresh_from_db()
    assert smuggler.sheet["skills"]["dodge"] == 15


def test_a_refused_code_keeps_what_was_typed(player_client, blank):
    response = edit(
        player_client, blank, {"only": "skill.blaster", "skill.blaster": "D4", "version": 1}, **HTMX
    )
    assert 'value="D4"' in row(response.content.decode(), "skill.blaster")


def test_a_custom_species_shows_its_limits_and_the_alien_template(player_client, blank):
    response = edit(
        player_client,
        blank,
        {"only": "info.species", "info.species": "custom", "version": 1},
        **HTMX,
    )
    text = response.content.decode()
    assert 'name="species.min.strength"' in text and 'name="species.max.strength"' in text
    edit(
        player_client,
        blank,
        {"only": "species.max.strength", "species.max.strength": "5D", "version": 2},
    )
    response = edit(player_client, blank, {"edit": "template.dexterity=2D", "version": 3}, **HTMX)
    text = response.content.decode()
    assert 'id="section-species" hx-swap-oob="true"' in text
    assert 'name="template.strength"' in text
    assert re.search(r'id="pool-alien_template".*?<td>6D</td>', text, re.S)
    blank.refresh_from_db()
    assert blank.sheet["custom_species"]["maximum"]["strength"] == 15
    assert blank.sheet["alien_template"]["dexterity"] == 6
