"""The Star O.R.E. sheet page: every part of the seed's sheet, htmx edits, bad input."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

import rulesets.ore as ore
from rulesets.core import resolve_settings
from rulesets.ore.data import SETTINGS
from sheets.characters.services import character_create
from sheets.history.models import Revision

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def jedi(player):
    return character_create(owner=player, name="Ahsa Venn", system="ore")


@pytest.fixture
def demo(player):
    return character_create(owner=player, name="Tavin Sol", system="ore", sheet=ore.demo_sheet())


def edited(sheet: dict, *edits: tuple[str, str]) -> dict:
    settings = resolve_settings(SETTINGS, {})
    for trait, raw in edits:
        sheet = ore.apply_edit(sheet, trait, raw, settings)
    return sheet


def page_of(client, character) -> str:
    response = client.get(reverse("character_sheet", args=[character.pk]))
    assert response.status_code == 200
    return response.content.decode()


def edit(client, character, data, **headers):
    return client.post(reverse("character_edit", args=[character.pk]), data, **headers)


def element(html: str, dom_id: str) -> str:
    """Return the markup of the element with this id, up to its matching close tag."""
    start = html.index(f'id="{dom_id}"')
    opening = html.rindex("<", 0, start)
    tag = re.match(r"<(\w+)", html[opening:])[1]
    depth, position = 0, opening
    pattern = re.compile(rf"<(/?){tag}\b[^>]*>")
    for match in pattern.finditer(html, opening):
        depth += -1 if match[1] else 1
        position = match.end()
        if depth == 0:
            break
    return html[opening:position]


def oob_ids(html: str) -> set[str]:
    return set(re.findall(r'<\w+[^>]*\sid="([^"]+)"[^>]*hx-swap-oob="true"', html))


# --- the page shows every part ---------------------------------------------------------------


def test_the_sheet_shows_every_header_field_of_the_seed(player_client, demo):
    html = page_of(player_client, demo)
    for label in (
        "Name",
        "Player",
        "Species",
        "Gender",
        "Career",
        "Age",
        "Height",
        "Weight",
        "Eyes",
        "Hair",
        "Skin",
        "Appearance",
        "Motivations",
        "Character points",
    ):
        assert f">{label}</label>" in html, label
    experience = element(html, "experience")
    assert "Experience points (total / unspent)" in experience
    assert '<span class="xp-total">3</span> / <span class="xp-unspent">1</span>' in experience
    assert 'value="Demo player"' in html and "Find her lost Padawan" in html
    assert '<option value="human" selected>Human (0 CP)</option>' in html
    # The name and the header come before the budget.
    assert html.index('id="trait-info-player"') < html.index('id="budget"')


def checked_dot(row_html: str) -> str:
    return re.search(r'<input type="radio"[^>]*value="(\d+)" checked', row_html)[1]


def test_the_six_stats_are_dots_with_their_maximum_and_the_next_die_price(player_client, demo):
    html = page_of(player_client, demo)
    for slug, label, dice in (
        ("body", "Body", 2),
        ("coordination", "Coordination", 4),
        ("sense", "Sense", 3),
        ("brains", "Brains", 2),
        ("command", "Command", 2),
        ("cool", "Cool", 3),
    ):
        row = element(html, f"trait-stat-{slug}")
        assert checked_dot(row) == str(dice) and f">{label}</legend>" in row
        # The dots up to the checked one are drawn filled.
        assert row[: row.index(" checked")].count('type="radio"') == dice
        # One radio per die from 1d to the engine's maximum, 5d for a human, each named by
        # its value inside the stat's group.
        assert row.count('type="radio"') == 5 and 'value="5" aria-label="5"' in row
        assert "At most 5d" in row
        assert "next: 5 XP" in row  # in play, the same price is paid in XP


def test_skills_show_their_stat_and_the_pool_the_engine_rolls(player_client, demo):
    html = page_of(player_client, demo)
    lightsaber = element(html, "trait-skill-lightsaber")
    assert checked_dot(lightsaber) == "3"
    assert "Rolls 7d with Coordination." in lightsaber  # Coordination 4d + Lightsaber 3d
    assert "next: 2 XP" in lightsaber
    stat = element(html, "trait-skill-lightsaber-stat")
    assert '<option value="coordination" selected>Coordination</option>' in stat
    assert 'value="Huttese"' in element(html, "trait-skill-language_native-specialty")
    assert "The first 2d are free." in element(html, "trait-skill-language_native")
    # A free starting language stays; every other skill can be removed.
    assert 'value="skill.language_native.remove=yes"' not in html
    assert 'value="skill.lightsaber.remove=yes"' in html


def test_force_powers_and_stunts_show_normal_hard_and_wiggle_dice_with_next_prices(
    player_client, demo
):
    html = page_of(player_client, demo)
    sense = element(html, "trait-power-force_sense")
    assert 'value="2"' in sense and "Pool 2d+1hd: 3 of 10 dice." in sense
    assert "Comes with Avoid Harm" in sense and "next: 5 XP" in sense
    hard = element(html, "trait-power-force_sense-hard")
    assert 'value="1"' in hard and "next: 10 XP" in hard
    wiggle = element(html, "trait-power-force_sense-wiggle")
    assert 'value="0"' in wiggle and "next: 5 XP" in wiggle
    assert "power.force_sense.approved" not in html  # Force Sense needs no permission
    stunt = element(html, "trait-stunt-blaster_defense")
    assert 'value="2"' in stunt and "Rolls 4d+1hd." in stunt and "next: 2 XP" in stunt
    healing = element(html, "trait-stunt-healing")
    # L1028 charges for each point healed or converted.
    assert "Light Side stunt." in healing
    assert "Willpower 1 per point healed or converted." in healing
    assert "checked" in element(html, "trait-stunt-healing-approved")


def test_every_stunt_has_its_row_and_those_not_bought_wait_folded_away(player_client, demo):
    html = page_of(player_client, demo)
    force = "".join(element(html, f"section-{power.slug}-body") for power in ore.data.POWERS)
    stunts = re.findall(r'<div class="trait dice[^"]*" id="trait-stunt-([a-z_]+)"', force)
    assert sorted(stunts) == sorted(stunt.slug for stunt in ore.data.STUNTS)
    folded = "".join(re.findall(r'<details class="more-stunts">.*?</details>', force, re.S))
    assert 'id="trait-stunt-fear"' in folded and 'id="trait-stunt-healing"' not in folded


def test_willpower_and_dark_side_points_show_base_and_current(player_client, demo):
    html = page_of(player_client, demo)
    secondary = element(html, "section-secondary")
    # Command 2 + Cool 3 + 3 bought = 8 base; 4 extra current bought.
    assert '<span class="wp-base">8</span> / <span class="wp-current">12</span>' in secondary
    assert '<span class="dsp-base">0</span> / <span class="dsp-current">0</span>' in secondary
    assert "next: 3 XP" in element(secondary, "trait-willpower-bought")
    assert "Base Willpower is 8." in element(secondary, "trait-willpower-current")


def test_armor_weapons_maneuvers_species_and_forms_are_on_the_sheet(player_client, demo):
    html = page_of(player_client, demo)
    gear = element(html, "section-gear")
    assert 'value="Thick furs or leathers"' in gear and 'value="width+3"' in gear
    assert 'value="Hold-out or decorative blaster"' in gear
    assert 'value="all"' in element(gear, "trait-armor-0-covers")
    assert "checked" not in element(gear, "trait-armor-0-worn")
    maneuvers = element(html, "section-maneuvers")
    for name, penalty in (("Called Shot", "-1d, set 1d"), ("Suppressing Fire", "Roll 2d+Spray")):
        assert re.search(rf"<td[^>]*>{name}</td><td>{re.escape(penalty)}</td>", maneuvers)
    assert "Form III (Obi-Wan Kenobi) — favored move: Riposte <strong>specialty</strong>" in (
        maneuvers
    )
    assert "Human</strong> — 0 CP" in element(html, "section-species")


def test_hit_locations_one_to_ten_have_their_wound_boxes_and_armor(player_client, demo):
    html = page_of(player_client, demo)
    wounds = element(html, "section-wounds")
    for slug, heights, boxes in (
        ("right_leg", "1", 5),
        ("left_leg", "2", 5),
        ("right_arm", "3-4", 5),
        ("left_arm", "5-6", 5),
        ("torso", "7-8", 6),
        ("vitals", "9", 4),
        ("head", "10", 4),
    ):
        row = element(wounds, f"location-{slug}")
        assert f'<td class="heights">{heights}</td>' in row
        assert row.count('class="box ') == boxes
    # The demo took one Shock on the left arm; its thick furs are carried, not worn.
    arm = element(wounds, "location-left_arm")
    assert 'class="box box-shock"' in arm
    assert 'aria-label="Left Arm box 1: Shock (/); click for normal damage (X)"' in arm
    assert 'aria-label="Left Arm box 2: empty; click for Shock (/)"' in arm
    assert '<td class="ar">0</td>' in element(wounds, "location-torso")


def test_a_wound_box_button_names_the_mark_the_engine_gives_next(player_client, demo):
    html = page_of(player_client, demo)
    settings = resolve_settings(SETTINGS, {})
    sheet = demo.sheet
    for n in range(3):
        label = re.search(
            r'value="wound\.torso\.0=cycle"[^>]*aria-label="[^"]*; click for ([^"]*)"', html
        )[1]
        sheet = ore.apply_edit(sheet, "wound.torso.0", "cycle", settings)
        row = next(r for r in ore.trait_rows(sheet, settings) if r.key == "wound.torso.0")
        assert label == dict(row.choices)[row.value], n
        demo.sheet = sheet
        demo.save()
        html = page_of(player_client, demo)


def test_a_wookiee_has_an_extra_wound_box_on_every_location(player_client, jedi):
    jedi.sheet = edited(jedi.sheet, ("species", "wookiee"))
    jedi.save()
    wounds = element(page_of(player_client, jedi), "section-wounds")
    assert element(wounds, "location-torso").count('class="box ') == 7
    assert element(wounds, "location-head").count('class="box ') == 5


def test_the_budget_shows_allowed_spent_and_left_and_every_reading_is_listed(player_client, jedi):
    html = page_of(player_client, jedi)
    pool = element(html, "pool-points")
    assert '<td>150</td><td class="spent">0</td><td class="left">150</td>' in pool
    assert "150 CP still to spend" in element(html, "budget")
    # The sheet carries the panel's summary; every reading comes when it is opened.
    assert "as the book reads" in element(html, "section-readings")
    url = reverse("character_readings", args=[jedi.pk])
    readings = element(player_client.get(url, **HTMX).content.decode(), "readings-body")
    for setting in ore.SETTINGS:
        assert f'name="setting.{setting.key}"' in readings


def test_the_stage_is_changed_by_the_shells_buttons_only(player_client, jedi):
    html = page_of(player_client, jedi)
    assert 'value="stage=play"' in element(html, "stage")
    assert 'name="stage"' not in html


def test_powers_but_force_sense_and_every_stunt_carry_the_gms_permission(player_client, jedi):
    jedi.sheet = edited(
        jedi.sheet,
        ("power.energy_manipulation", "1"),
        ("stunt.force_grip", "1"),
        ("power.physical_control", "1"),
        ("stunt.healing", "1"),
        ("dsp.base", "1"),
    )
    jedi.save()
    html = page_of(player_client, jedi)
    approval = element(html, "trait-power-energy_manipulation-approved")
    assert 'type="checkbox"' in approval and "checked" not in approval
    assert 'class="badge gm"' in approval
    assert "Dark Side stunt." in element(html, "trait-stunt-force_grip")
    assert 'class="badge gm"' in element(html, "trait-stunt-force_grip-approved")
    # With a base Dark Side Point the DS stunt is usable and the LS one is not.
    assert "usable only with" not in element(html, "trait-stunt-force_grip")
    assert "cannot be used while you hold any base Dark Side Points" in element(
        html, "trait-stunt-healing"
    )


def test_a_pool_over_ten_dice_is_shown_capped(player_client, jedi):
    jedi.sheet = edited(
        jedi.sheet,
        ("ability.add", "higher_stat_maximum|coordination"),
        ("stat.coordination", "6"),
        ("skill.add", "Blaster"),
        ("skill.blaster", "5"),
    )
    jedi.save()
    blaster = element(page_of(player_client, jedi), "trait-skill-blaster")
    assert "Rolls 10d with Coordination." in blaster
    assert "adds up to 11 dice with Coordination; only 10 are ever rolled." in blaster


def test_a_droid_sees_why_it_has_no_force_once_and_locked_rows(player_client, jedi):
    jedi.sheet = edited(jedi.sheet, ("species", "droid"))
    jedi.save()
    html = page_of(player_client, jedi)
    # Said once, above the first power; every Force row is locked.
    assert html.count('<p class="muted">Droids have no Force Sense and cannot') == 1
    force = element(html, "section-force_sense-body")
    assert "Droids have no Force Sense and cannot learn the Force." in force
    assert "all-locked" in force
    assert "disabled" in element(force, "trait-power-force_sense")
    assert "disabled" in element(html, "trait-stunt-fear")
    assert "Droids have no Willpower." in element(html, "section-secondary")


def test_every_id_on_the_page_is_unique(player_client, demo):
    ids = re.findall(r'\sid="([^"]+)"', page_of(player_client, demo))
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


# --- htmx edits --------------------------------------------------------------------------------


def test_a_stat_dot_swaps_its_row_the_willpower_it_feeds_and_the_budget(player_client, jedi):
    response = edit(
        player_client, jedi, {"only": "stat.cool", "stat.cool": "3", "version": 1}, **HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    ids = oob_ids(html)
    # Willpower follows Cool: its figure in the secondary panel and its row.
    assert {
        "sheet-version",
        "budget",
        "trait-stat-cool",
        "willpower",
        "trait-willpower-current",
    } <= ids
    assert "section-stats-body" not in ids and "trait-stat-body" not in ids
    assert 'id="sheet-version" value="2"' in html
    assert '<td class="spent">10</td><td class="left">140</td>' in html
    assert checked_dot(element(html, "trait-stat-cool")) == "3"
    assert '<span class="wp-base">4</span>' in html  # Command 1 + Cool 3
    assert "HX-Request" in response["Vary"]
    jedi.refresh_from_db()
    assert jedi.sheet["stats"]["cool"] == 3


def test_a_stat_swaps_the_rows_of_the_skills_it_feeds(player_client, demo):
    # The demo is in play, where a raise is a purchase: the sheet's edit is refused.
    response = edit(
        player_client, demo, {"only": "stat.cool", "stat.cool": "4", "version": 1}, **HTMX
    )
    assert "Cool rises only by buying it on the Advancement page" in response.content.decode()
    demo.refresh_from_db()
    assert (demo.version, demo.sheet["stats"]["cool"]) == (1, 3)
    # Back in creation (the owner's step outside a campaign) the same edit goes through.
    edit(player_client, demo, {"edit": "stage=creation", "version": 1}, **HTMX)
    response = edit(
        player_client, demo, {"only": "stat.cool", "stat.cool": "4", "version": 2}, **HTMX
    )
    ids = oob_ids(response.content.decode())
    assert "trait-skill-meditation" in ids  # rolls Cool + Meditation
    assert "trait-skill-lightsaber" not in ids and "section-skills-body" not in ids


def test_a_force_power_hard_die_and_a_stunt_are_bought_with_htmx(player_client, jedi):
    for version, (trait, value) in enumerate(
        (
            ("power.energy_manipulation", "1"),
            ("power.energy_manipulation.hard", "1"),
            ("stunt.force_jump", "1"),
        ),
        start=1,
    ):
        response = edit(
            player_client, jedi, {"only": trait, trait: value, "version": version}, **HTMX
        )
    html = response.content.decode()
    # A stunt bought gains its permission row: its power's section is redrawn, and no other.
    ids = oob_ids(html)
    assert "section-energy_manipulation-body" in ids and "section-force_sense-body" not in ids
    assert "Pool 1d+1hd: 2 of 10 dice." in element(html, "trait-power-energy_manipulation")
    assert "Rolls 2d+1hd." in element(html, "trait-stunt-force_jump")
    assert '<td class="spent">17</td>' in html  # 5 + 10 + 2
    jedi.refresh_from_db()
    assert jedi.sheet["powers"]["energy_manipulation"] == {
        "dice": 1,
        "hard": 1,
        "wiggle": 0,
        "approved": False,
    }
    assert jedi.sheet["stunts"] == {"force_jump": {"dice": 1, "approved": False}}


def test_a_wound_box_cycles_from_empty_to_shock_to_damage_and_back(player_client, jedi):
    marks = []
    for version in (1, 2, 3):
        response = edit(
            player_client, jedi, {"edit": "wound.torso.1=cycle", "version": version}, **HTMX
        )
        html = response.content.decode()
        # The box's location row (its state may move too), not the whole table.
        assert "location-torso" in oob_ids(html) and "section-wounds-body" not in oob_ids(html)
        jedi.refresh_from_db()
        marks.append(jedi.sheet["wounds"]["torso"][1])
        box = re.search(r'<button[^>]*value="wound\.torso\.1=cycle"[^>]*>([^<]*)</button>', html)
        assert box[1] == {"shock": "/", "killing": "X", "": ""}[marks[-1]]
        assert 'id="trait-wound-torso-1"' in box[0]
    assert marks == ["shock", "killing", ""]


def test_a_location_full_of_shock_is_disabled_and_full_of_damage_destroyed(player_client, jedi):
    jedi.sheet = edited(
        jedi.sheet,
        *[(f"wound.head.{n}", "shock") for n in range(4)],
        *[(f"wound.left_leg.{n}", "killing") for n in range(4)],
    )
    jedi.save()
    response = edit(player_client, jedi, {"edit": "wound.left_leg.4=killing", "version": 1}, **HTMX)
    wounds = response.content.decode()
    head = element(wounds, "location-head")
    assert (
        'data-status="disabled"' in head and "Every box is filled with Shock: knocked out" in head
    )
    leg = element(wounds, "location-left_leg")
    assert 'data-status="destroyed"' in leg
    assert "unusable, -1d to all actions, roll Cool+Stability at once" in leg
    assert "Destroyed limbs: -1d to all actions." in wounds


def test_armor_picked_from_the_catalog_sets_the_rating_of_the_locations_it_covers(
    player_client, jedi
):
    response = edit(
        player_client, jedi, {"only": "armor.add", "armor.add": "Blast vest", "version": 1}, **HTMX
    )
    html = response.content.decode()
    # The armor covers the torso only: that location's rating changes, no other.
    assert {"section-gear-body", "location-torso"} <= oob_ids(html)
    assert "location-head" not in oob_ids(html)
    assert '<td class="ar">3</td>' in element(html, "location-torso")
    # The head keeps the rating the page shows: 0.
    assert '<td class="ar">0</td>' in element(page_of(player_client, jedi), "location-head")
    jedi.refresh_from_db()
    assert jedi.sheet["armor"][0]["from"] == "blast_vest"


def test_a_typed_weapon_name_swaps_only_its_own_field(player_client, demo):
    response = edit(
        player_client,
        demo,
        {"only": "weapon.1.name", "weapon.1.name": "Grandfather's blaster", "version": 1},
        **HTMX,
    )
    html = response.content.decode()
    # The fields beside it keep whatever the player is typing there; the title and the
    # budget did not change. The roll menu names the weapon, so it follows the new name.
    assert oob_ids(html) == {
        "sheet-version",
        "sheet-notices",
        "sheet-messages",
        "trait-weapon-1-name",
        "roll-menu",
    }
    assert "Grandfather&#x27;s blaster" in html.split('id="roll-menu"')[1]
    demo.refresh_from_db()
    assert demo.sheet["weapons"][1]["name"] == "Grandfather's blaster"


def test_a_header_field_swaps_only_itself(player_client, jedi):
    response = edit(
        player_client,
        jedi,
        {"only": "info.career", "info.career": "Smuggler", "version": 1},
        **HTMX,
    )
    ids = oob_ids(response.content.decode())
    assert "trait-info-career" in ids and "section-identity-body" not in ids
    jedi.refresh_from_db()
    assert jedi.sheet["info"]["career"] == "Smuggler"


def test_adding_a_skill_from_its_add_row_redraws_the_skills(player_client, jedi):
    response = edit(
        player_client,
        jedi,
        {"only": "skill.add", "skill.add": "Lore [Jedi lore]", "skill.add.1": "", "version": 1},
        **HTMX,
    )
    html = response.content.decode()
    assert "section-skills-body" in oob_ids(html)
    assert 'value="Jedi lore"' in element(html, "trait-skill-lore_jedi_lore-specialty")


def test_a_skill_of_ones_own_takes_its_stat_from_the_second_input(player_client, jedi):
    edit(
        player_client,
        jedi,
        {"only": "skill.add", "skill.add": "Sabacc", "skill.add.1": "cool", "version": 1},
        **HTMX,
    )
    jedi.refresh_from_db()
    assert ore.rules.skill_row(jedi.sheet, "sabacc")["stat"] == "cool"


def test_an_experience_award_is_made_on_the_ledger_and_shown_locked_on_the_sheet(
    player_client, jedi
):
    # The sheet no longer takes awards: its add row is gone and a posted one is refused.
    html = page_of(player_client, jedi)
    assert 'name="xp.add"' not in html and "xp.0.remove=yes" not in html
    response = edit(
        player_client,
        jedi,
        {"only": "xp.add", "xp.add": "3", "xp.add.1": "Held the gate", "version": 1},
        **HTMX,
    )
    assert "Experience is kept on the Advancement page" in response.content.decode()
    jedi.refresh_from_db()
    assert (jedi.version, jedi.sheet["xp_awards"]) == (1, [])
    # Outside a campaign the owner awards on the ledger; the sheet shows it, locked.
    response = player_client.post(
        reverse("ledger_award", args=[jedi.pk]),
        {"amount": "3", "reason": "Held the gate", "version": 1},
    )
    assert response.status_code == 302
    html = page_of(player_client, jedi)
    award = element(html, "trait-xp-0-amount")
    assert 'value="3"' in award and "disabled" in award
    assert "Awarded and spent on the ledger" in award
    assert reverse("character_ledger", args=[jedi.pk]) in award
    assert "xp.0.remove=yes" not in html
    jedi.refresh_from_db()
    assert jedi.sheet["xp_awards"] == []


def test_an_ability_is_added_raised_and_removed(player_client, jedi):
    edit(
        player_client,
        jedi,
        {"only": "ability.add", "ability.add": "low_light_vision|", "version": 1},
        **HTMX,
    )
    response = edit(
        player_client,
        jedi,
        {"only": "ability.0.level", "ability.0.level": "2", "version": 2},
        **HTMX,
    )
    assert 'value="2"' in element(response.content.decode(), "trait-ability-0-level")
    response = edit(player_client, jedi, {"edit": "ability.0.remove=yes", "version": 3}, **HTMX)
    assert "section-species-body" in oob_ids(response.content.decode())
    jedi.refresh_from_db()
    assert jedi.sheet["abilities"] == []


def test_changing_species_redraws_what_it_changes(player_client, jedi):
    response = edit(
        player_client, jedi, {"only": "species", "species": "droid", "version": 1}, **HTMX
    )
    html = response.content.decode()
    assert {f"section-{key}-body" for key in ("force_sense", "secondary", "species")} <= (
        oob_ids(html)
    )
    # A droid's wound boxes differ at every location.
    assert {"location-head", "location-torso", "location-vitals"} <= oob_ids(html)
    assert "trait-species" in oob_ids(html)
    assert "Droids have no Willpower" in element(html, "section-secondary-body")
    assert '<td class="ar">1</td>' in element(html, "location-head")  # natural AR 1


def test_a_rule_reading_changes_the_price_shown_beside_the_wiggle_die(player_client, jedi):
    response = edit(
        player_client,
        jedi,
        {"only": "setting.force_wiggle_cost", "setting.force_wiggle_cost": "20", "version": 1},
        **HTMX,
    )
    html = response.content.decode()
    assert {"section-readings", "section-force_sense-body"} <= oob_ids(html)
    assert "next: 20 CP" in element(html, "trait-power-force_sense-wiggle")
    jedi.refresh_from_db()
    assert jedi.rule_settings == {"force_wiggle_cost": 20}


def test_finishing_creation_turns_prices_into_experience(player_client, jedi):
    response = edit(player_client, jedi, {"edit": "stage=play", "version": 1}, **HTMX)
    html = response.content.decode()
    assert "next: 5 XP" in element(html, "trait-stat-body")
    assert '<span class="xp-total">150</span> / <span class="xp-unspent">150</span>' in html


# --- without JavaScript ------------------------------------------------------------------------


class _MainFormFields(HTMLParser):
    """Collect what a browser would post with the sheet form's "Save all" button."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.fields: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and attrs.get("id") == "sheet-form":
            self.inside = True
        if not self.inside or "form" in attrs:
            return
        name = attrs.get("name")
        kind = attrs.get("type")
        if tag == "fieldset" and "disabled" in attrs:
            self._disabled = True
        if "disabled" in attrs or getattr(self, "_disabled", False):
            return
        if tag == "input" and name and kind != "submit":
            # A radio or a checkbox posts only when checked; a checkbox's hidden "no" is first.
            if kind not in ("radio", "checkbox") or "checked" in attrs:
                self.fields[name] = attrs.get("value", "")
        elif tag == "select" and name:
            self._select = name
        elif tag == "option" and self._select and "selected" in attrs:
            self.fields[self._select] = attrs["value"]
        elif tag == "textarea" and name:
            self._textarea = name
            self.fields[name] = ""

    def handle_data(self, data):
        if self._textarea:
            self.fields[self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "form" and self.inside:
            self.inside = False
        if tag == "fieldset":
            self._disabled = False
        if tag == "select":
            self._select = None
        if tag == "textarea":
            self._textarea = None


def test_save_all_without_javascript_posts_every_field_and_redirects(player_client, demo):
    parser = _MainFormFields()
    parser.feed(page_of(player_client, demo))
    fields = parser.fields
    assert {"info.player", "species", "armor.0.name"} <= set(fields)
    # The readings come when their panel is opened (their own page without JavaScript).
    assert not any(name.startswith("setting.") for name in fields)
    assert {"stat.body", "skill.lightsaber", "stunt.fear"} <= set(fields)
    # The ledger keeps the creation budget (in play) and the awards: drawn locked, never sent.
    assert not {"character_points", "xp.add", "xp.add.1", "xp.0.amount"} & set(fields)
    # "Save all" skips the empty add rows, so they never ride along and get refused.
    assert all(not value for name, value in fields.items() if ".add" in name)
    before = demo.sheet
    unchanged = edit(player_client, demo, fields | {"save": "all"})
    assert unchanged.status_code == 302
    demo.refresh_from_db()
    assert demo.sheet == before  # every field posted as it was: every edit was accepted
    fields |= {"save": "all", "version": demo.version, "info.player": "Ana"}
    response = edit(player_client, demo, fields | {"weapon.0.special": "Blue"})
    assert response.status_code == 302
    demo.refresh_from_db()
    assert demo.sheet["info"]["player"] == "Ana"
    assert demo.sheet["weapons"][0]["special"] == "Blue"


def test_without_javascript_an_add_form_posts_and_redirects(player_client, jedi):
    response = edit(
        player_client, jedi, {"only": "weapon.add", "weapon.add": "Blaster", "version": 1}
    )
    assert response.status_code == 302
    jedi.refresh_from_db()
    assert jedi.sheet["weapons"][0]["damage"] == "width+1"


def test_the_gm_approval_of_a_power_toggles_with_htmx(player_client, jedi):
    key = "power.mental_influence.approved"
    edit(player_client, jedi, {"edit": "power.mental_influence=1", "version": 1}, **HTMX)
    response = edit(player_client, jedi, {"only": key, key: "yes", "version": 2}, **HTMX)
    approval = element(response.content.decode(), "trait-power-mental_influence-approved")
    assert re.search(r'type="checkbox"[^>]*checked', approval)
    response = edit(player_client, jedi, {"only": key, key: "no", "version": 3}, **HTMX)
    approval = element(response.content.decode(), "trait-power-mental_influence-approved")
    assert not re.search(r'type="checkbox"[^>]*checked', approval)
    jedi.refresh_from_db()
    assert jedi.sheet["powers"]["mental_influence"]["approved"] is False


def test_without_javascript_a_dot_posts_and_returns_to_its_row(player_client, jedi):
    response = edit(
        player_client,
        jedi,
        {"only": "skill.language_basic", "skill.language_basic": "3", "version": 1},
    )
    assert response.status_code == 302
    assert response["Location"].endswith("#trait-skill-language_basic")
    jedi.refresh_from_db()
    assert ore.rules.skill_row(jedi.sheet, "language_basic")["dice"] == 3


# --- bad input ---------------------------------------------------------------------------------


BAD_INPUT = [
    pytest.param(
        {"edit": "stunt.force_jump.hard=1"},
        "section-energy_manipulation-body",
        "Force Jump is a stunt: stunts take normal dice only, no hard dice.",
        id="hard-die-on-a-stunt",
    ),
    pytest.param(
        {"edit": "stat.body=6"},
        "trait-stat-body",
        "Body 6d is above the maximum of 5d (5d base).",
        id="stat-above-the-species-maximum",
    ),
    pytest.param(
        {"edit": "power.energy_manipulation=11"},
        "trait-power-energy_manipulation",
        "That makes a pool of 11 dice for Energy Manipulation; a power holds at most 10 dice",
        id="pool-of-eleven-dice",
    ),
    pytest.param(
        {"edit": "power.force_sense.hard=9"},
        "trait-power-force_sense-hard",
        "That makes a pool of 11 dice for Force Sense",
        id="hard-dice-past-the-cap",
    ),
    pytest.param(
        {"only": "character_points", "character_points": "-20"},
        "trait-character_points",
        "The character point budget runs from 0 to 100000",
        id="negative-budget",
    ),
    pytest.param(
        {"only": "species", "species": "gungan"},
        "trait-species",
        "is not a known species; choose one of Human, Bothan",
        id="unknown-species",
    ),
    pytest.param(
        {"edit": "wound.torso.6=cycle"},
        "section-wounds-body",
        "There is no torso wound box number 7 on this sheet.",
        id="wound-box-out-of-range",
    ),
    pytest.param(
        {"edit": "cosmic.power=1"},
        "sheet-messages",
        "“cosmic.power” is not a trait of a Star O.R.E. sheet.",
        id="unknown-trait",
    ),
    pytest.param(
        {"only": "skill.add", "skill.add": "Lore"},
        "section-skills-body",
        "Lore needs a specialty: write it like Lore [field].",
        id="skill-without-its-specialty",
    ),
]


@pytest.mark.parametrize(("data", "place", "message"), BAD_INPUT)
@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
def test_bad_input_gets_a_message_beside_its_field_and_changes_nothing(
    player_client, jedi, data, place, message, htmx
):
    jedi.sheet = edited(jedi.sheet, ("power.force_sense", "2"), ("stunt.force_jump", "1"))
    jedi.save()
    before = (jedi.name, jedi.sheet, jedi.rule_settings)
    response = edit(player_client, jedi, data | {"version": 1}, **(HTMX if htmx else {}))
    assert response.status_code == (200 if htmx else 400)
    html = response.content.decode().replace("&ldquo;", "“").replace("&rdquo;", "”")
    beside = element(html, place)
    assert message in beside
    assert 'role="alert"' in beside
    if htmx:
        assert place in oob_ids(html) or re.search(rf'id="{place}"', html)
    jedi.refresh_from_db()
    assert (jedi.name, jedi.sheet, jedi.rule_settings) == before
    assert jedi.version == 1
    assert Revision.objects.filter(character=jedi).count() == 1


def test_a_refused_number_keeps_what_was_typed(player_client, jedi):
    response = edit(
        player_client,
        jedi,
        {"only": "character_points", "character_points": "lots", "version": 1},
        **HTMX,
    )
    field = element(response.content.decode(), "trait-character_points")
    assert 'value="lots"' in field and "is not a whole number" in field


def test_a_stale_edit_is_refused_with_the_current_sheet(player_client, jedi):
    edit(player_client, jedi, {"edit": "stat.body=2", "version": 1})
    response = edit(player_client, jedi, {"edit": "stat.body=3", "version": 1}, **HTMX)
    html = response.content.decode()
    assert "This sheet was changed elsewhere" in html
    assert response["HX-Retarget"] == "#sheet"
    assert checked_dot(element(html, "trait-stat-body")) == "2"
    jedi.refresh_from_db()
    assert jedi.sheet["stats"]["body"] == 2


# --- adding a weapon the catalog lacks (issue 13 item 6) -------------------------------------


def test_blaster_pistol_is_not_quietly_added_as_a_blank_weapon(player_client, jedi):
    response = edit(
        player_client,
        jedi,
        {"only": "weapon.add", "weapon.add": "Blaster pistol", "version": 1},
        **HTMX,
    )
    assert response.status_code == 200
    gear = element(response.content.decode(), "section-gear-body")
    assert 'role="alert"' in gear
    assert "“Blaster pistol” is not in the weapon list. Did you mean Blaster," in gear
    jedi.refresh_from_db()
    assert jedi.version == 1 and jedi.sheet["weapons"] == []


def test_given_its_damage_a_weapon_of_ones_own_is_added(player_client, jedi):
    data = {"only": "weapon.add", "weapon.add": "Blaster pistol", "weapon.add.1": "width+1"}
    response = edit(player_client, jedi, data | {"version": 1})
    assert response.status_code == 302
    jedi.refresh_from_db()
    assert (jedi.sheet["weapons"][0]["name"], jedi.sheet["weapons"][0]["damage"]) == (
        "Blaster pistol",
        "width+1",
    )


def test_the_damage_of_ones_own_weapon_has_a_length_cap(player_client, jedi):
    data = {"only": "weapon.add", "weapon.add": "Spear gun", "weapon.add.1": "w" * 201}
    response = edit(player_client, jedi, data | {"version": 1}, **HTMX)
    assert "Damage is limited to 200 characters." in response.content.decode()
    jedi.refresh_from_db()
    assert jedi.version == 1


def test_the_weapon_row_asks_for_catalog_matches_as_one_types(player_client, jedi):
    row = page_of(player_client, jedi)
    add = row[row.index('id="input-weapon-add"') - 7 :]
    add = add[: add.index(">") + 1]
    assert f'hx-get="{reverse("ore_weapon_matches")}"' in add
    assert 'hx-target="#ore-weapon-catalog"' in add and 'list="ore-weapon-catalog"' in add
    damage = element(row, "input-weapon-add-damage")
    assert 'name="weapon.add.1"' in damage and 'maxlength="200"' in damage


def test_the_matches_name_the_catalog_weapons_a_typed_name_may_mean(player_client):
    response = player_client.get(
        reverse("ore_weapon_matches"), {"weapon.add": "Blaster pistol"}, **HTMX
    )
    options = re.findall(r'<option value="([^"]+)">([^<]+)</option>', response.content.decode())
    assert options[0] == ("Blaster", "Blaster (pistol, width+1) for “Blaster pistol”")
    assert [value for value, _ in options[:3]] == [
        "Blaster",
        "Heavy blaster",
        "Hold-out or decorative blaster",
    ]
    # A name already holding what was typed needs no "for": the browser shows it anyway.
    response = player_client.get(reverse("ore_weapon_matches"), {"weapon.add": "blast"})
    assert '<option value="Blaster">Blaster (pistol, width+1)</option>' in (
        response.content.decode()
    )


def test_the_matches_trim_long_or_odd_input_and_need_a_login(player_client):
    response = player_client.get(
        reverse("ore_weapon_matches"), {"weapon.add": "blaster\x00" + "x" * 5000}
    )
    assert response.status_code == 200 and len(response.content) < 5000
    assert "\x00" not in response.content.decode()
    assert Client().get(reverse("ore_weapon_matches")).status_code == 302
