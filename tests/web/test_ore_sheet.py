"""The Star O.R.E. sheet page: every part of the seed's sheet, htmx edits, bad input."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

import rulesets.ore as ore
from rulesets.ore.settings import resolved
from sheets.characters.models import Revision
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def jedi(player):
    return character_create(owner=player, name="Ahsa Venn", system="ore")


@pytest.fixture
def demo(player):
    return character_create(owner=player, name="Tavin Sol", system="ore", sheet=ore.demo_sheet())


def edited(sheet: dict, *edits: tuple[str, str]) -> dict:
    settings = resolved({})
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


def test_the_six_stats_show_dice_maximum_and_the_next_die_price(player_client, demo):
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
        assert f'data-value="{dice}"' in row and f">{label}<" in row
        assert len(re.findall(r'class="dot filled"', row)) == dice
        assert "max 5d" in row
        assert "next 5 XP" in row  # in play, the same price is paid in XP (L826)


def test_skills_show_their_stat_and_the_pool_of_stat_plus_skill(player_client, demo):
    html = page_of(player_client, demo)
    lightsaber = element(html, "trait-skill-lightsaber")
    assert '<option value="coordination" selected>Coordination</option>' in lightsaber
    assert "pool <strong>7d</strong>" in lightsaber  # Coordination 4d + Lightsaber 3d
    assert "next 2 XP" in lightsaber
    native = element(html, "trait-skill-language_native")
    assert 'value="Huttese"' in native and "free starting language" in native
    assert "never more than 10 dice (L70)" in html


def test_force_powers_and_stunts_show_normal_hard_and_wiggle_dice_with_next_prices(
    player_client, demo
):
    html = page_of(player_client, demo)
    sense = element(html, "trait-power-force_sense")
    assert 'Force Sense <span class="dice">2d+1hd</span>' in sense
    assert "3 of 10 dice" in sense and "No permission needed" in sense
    dice, hard, wiggle = (
        element(sense, f"step-power-force_sense{part}") for part in ("", "-hard", "-wiggle")
    )
    assert ">2d</output>" in dice and "next 5 XP" in dice
    assert ">1hd</output>" in hard and "next 10 XP" in hard
    assert ">0wd</output>" in wiggle and "next 5 XP" in wiggle
    stunt = element(sense, "trait-stunt-blaster_defense")
    assert ">2d</output>" in stunt and "rolls 4d+1hd" in stunt and "next 2 XP" in stunt
    healing = element(html, "trait-stunt-healing")
    assert 'class="side side-ls"' in healing and "Willpower: 1 per point healed" in healing


def test_willpower_and_dark_side_points_show_base_and_current(player_client, demo):
    html = page_of(player_client, demo)
    secondary = element(html, "section-secondary")
    # Command 2 + Cool 3 + 3 bought = 8 base; 4 extra current bought.
    assert '<span class="wp-base">8</span> / <span class="wp-current">12</span>' in secondary
    assert '<span class="dsp-base">0</span> / <span class="dsp-current">0</span>' in secondary
    assert "next 3 XP" in element(secondary, "step-willpower-bought")


def test_armor_weapons_maneuvers_species_and_forms_are_on_the_sheet(player_client, demo):
    html = page_of(player_client, demo)
    gear = element(html, "section-gear")
    assert 'value="Thick furs or leathers"' in gear and 'value="width+3"' in gear
    assert 'value="Hold-out or decorative blaster"' in gear
    maneuvers = element(html, "section-maneuvers")
    for name, penalty in (("Called Shot", "-1d, set 1d"), ("Suppressing Fire", "Roll 2d+Spray")):
        assert f"<td>{name}</td><td>{penalty}</td>" in maneuvers
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
    assert 'class="box box-shock"' in element(wounds, "location-left_arm")
    assert '<td class="ar">0</td>' in element(wounds, "location-torso")


def test_a_wookiee_has_an_extra_wound_box_on_every_location(player_client, jedi):
    jedi.sheet = edited(jedi.sheet, ("species", "wookiee"))
    jedi.save()
    wounds = element(page_of(player_client, jedi), "section-wounds")
    assert element(wounds, "location-torso").count('class="box ') == 7
    assert element(wounds, "location-head").count('class="box ') == 5


def test_the_budget_shows_allowed_spent_and_left_and_every_reading_is_listed(player_client, jedi):
    html = page_of(player_client, jedi)
    pool = element(html, "pool-points")
    assert '<td class="allowed">150</td><td class="spent">0</td><td class="left">150</td>' in pool
    assert "150 CP still to spend" in element(html, "budget")
    readings = element(html, "readings")
    for setting in ore.SETTINGS:
        assert f'name="setting.{setting.key}"' in readings
        assert setting.source in readings or setting.source.replace("'", "&#x27;") in readings


def test_powers_but_force_sense_and_every_stunt_say_they_need_the_gms_permission(
    player_client, jedi
):
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
    assert "Needs the GM's permission" in element(html, "trait-power-energy_manipulation")
    grip = element(html, "trait-stunt-force_grip")
    assert "Needs the GM's permission" in grip and 'class="side side-ds"' in grip
    # With a base Dark Side Point the DS stunt is usable and the LS one is not (L926-L928).
    assert "usable only with" not in grip
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
    assert "capped at 10" in blaster
    assert "adds up to 11 dice with Coordination; only 10 are ever rolled (L70)." in blaster


def test_every_id_on_the_page_is_unique(player_client, demo):
    ids = re.findall(r'\sid="([^"]+)"', page_of(player_client, demo))
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})


# --- htmx edits --------------------------------------------------------------------------------


def test_clicking_a_stat_die_swaps_the_sections_it_feeds_and_the_budget(player_client, jedi):
    response = edit(player_client, jedi, {"edit": "stat.cool=3", "version": 1}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert {"sheet-version", "budget", "section-stats", "section-skills", "section-secondary"} <= (
        oob_ids(html)
    )
    assert 'id="sheet-version" value="2"' in html
    assert '<td class="spent">10</td><td class="left">140</td>' in html
    assert 'id="trait-stat-cool" data-value="3"' in html
    assert '<span class="wp-base">4</span>' in html  # Command 1 + Cool 3
    assert "HX-Request" in response["Vary"]
    jedi.refresh_from_db()
    assert jedi.sheet["stats"]["cool"] == 3


def test_a_force_power_hard_die_and_a_stunt_are_bought_with_htmx(player_client, jedi):
    edit(player_client, jedi, {"edit": "power.energy_manipulation=1", "version": 1}, **HTMX)
    edit(player_client, jedi, {"edit": "power.energy_manipulation.hard=1", "version": 2}, **HTMX)
    response = edit(player_client, jedi, {"edit": "stunt.force_jump=1", "version": 3}, **HTMX)
    html = response.content.decode()
    assert "section-force" in oob_ids(html)
    power = element(html, "trait-power-energy_manipulation")
    assert "1d+1hd" in power and "2 of 10 dice" in power
    assert "rolls 2d+1hd" in element(power, "trait-stunt-force_jump")
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
            player_client, jedi, {"edit": "wound.torso.2=cycle", "version": version}, **HTMX
        )
        html = response.content.decode()
        assert "section-wounds" in oob_ids(html)
        jedi.refresh_from_db()
        marks.append(jedi.sheet["wounds"]["torso"][1])
        box = re.search(r'<button[^>]*value="wound\.torso\.2=cycle"[^>]*>([^<]*)</button>', html)
        assert box[1] == {"shock": "/", "killing": "X", "": ""}[marks[-1]]
    assert marks == ["shock", "killing", ""]


def test_a_location_full_of_shock_is_disabled_and_full_of_damage_destroyed(player_client, jedi):
    jedi.sheet = edited(
        jedi.sheet,
        *[(f"wound.head.{n}", "shock") for n in range(1, 5)],
        *[(f"wound.left_leg.{n}", "killing") for n in range(1, 5)],
    )
    jedi.save()
    response = edit(player_client, jedi, {"edit": "wound.left_leg.5=killing", "version": 1}, **HTMX)
    wounds = response.content.decode()
    head = element(wounds, "location-head")
    assert (
        'data-status="disabled"' in head and "Every box is filled with Shock: knocked out" in head
    )
    leg = element(wounds, "location-left_leg")
    assert 'data-status="destroyed"' in leg
    assert "unusable, -1d to all actions, roll Cool+Stability at once" in leg
    assert "Destroyed limbs: -1d to all actions (L209)." in wounds


def test_armor_picked_from_the_catalog_sets_the_rating_of_the_locations_it_covers(
    player_client, jedi
):
    response = edit(
        player_client, jedi, {"only": "armor.add", "armor.add": "Blast vest", "version": 1}, **HTMX
    )
    html = response.content.decode()
    assert {"section-gear", "section-wounds"} <= oob_ids(html)
    assert '<td class="ar">3</td>' in element(html, "location-torso")
    assert '<td class="ar">0</td>' in element(html, "location-head")
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
    assert oob_ids(html) == {
        "sheet-version",
        "sheet-messages",
        "experience",
        "budget",
        "trait-weapon-1-name",
    }
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
    assert "trait-info-career" in ids and "section-identity" not in ids
    jedi.refresh_from_db()
    assert jedi.sheet["info"]["career"] == "Smuggler"


def test_adding_a_skill_from_its_own_small_form_redraws_the_skills(player_client, jedi):
    response = edit(
        player_client,
        jedi,
        {"only": "skill.add", "skill.add": "Lore [Jedi lore]", "version": 1},
        **HTMX,
    )
    html = response.content.decode()
    assert "section-skills" in oob_ids(html)
    assert 'value="Jedi lore"' in element(html, "trait-skill-lore_jedi_lore")


def test_changing_species_redraws_every_section(player_client, jedi):
    response = edit(
        player_client, jedi, {"only": "species", "species": "droid", "version": 1}, **HTMX
    )
    html = response.content.decode()
    assert {f"section-{key}" for key in ("identity", "stats", "force", "wounds", "secondary")} <= (
        oob_ids(html)
    )
    assert "Droids have no Willpower" in element(html, "section-secondary")
    assert '<td class="ar">1</td>' in element(html, "location-head")  # natural AR 1


def test_a_rule_reading_changes_the_price_shown_beside_the_wiggle_die(player_client, jedi):
    response = edit(
        player_client,
        jedi,
        {"only": "setting.force_wiggle_cost", "setting.force_wiggle_cost": "20", "version": 1},
        **HTMX,
    )
    html = response.content.decode()
    assert {"readings", "section-force"} <= oob_ids(html)
    assert "next 20 CP" in element(html, "step-power-force_sense-wiggle")
    jedi.refresh_from_db()
    assert jedi.rule_settings == {"force_wiggle_cost": 20}


def test_finishing_creation_turns_prices_into_experience(player_client, jedi):
    response = edit(player_client, jedi, {"edit": "phase=play", "version": 1}, **HTMX)
    html = response.content.decode()
    assert "next 5 XP" in element(html, "trait-stat-body")
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
        if tag == "input" and name and attrs.get("type") != "submit":
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
        if tag == "select":
            self._select = None
        if tag == "textarea":
            self._textarea = None


def test_save_all_without_javascript_posts_every_field_and_redirects(player_client, demo):
    parser = _MainFormFields()
    parser.feed(page_of(player_client, demo))
    fields = parser.fields
    assert {"info.player", "species", "character_points", "armor.0.name", "setting.bacta_time"} <= (
        set(fields)
    )
    # Add boxes belong to their own forms, so an empty one never rides along with Save all.
    assert not any(name.endswith((".add", ".award")) for name in fields)
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
    edit(player_client, jedi, {"edit": "power.mental_influence=1", "version": 1}, **HTMX)
    response = edit(
        player_client, jedi, {"edit": "power.mental_influence.approved=yes", "version": 2}, **HTMX
    )
    power = element(response.content.decode(), "trait-power-mental_influence")
    assert "GM approved" in power and "withdraw approval" in power
    assert "needs the GM" not in power


def test_without_javascript_a_die_button_posts_and_redirects(player_client, jedi):
    response = edit(player_client, jedi, {"edit": "skill.language_basic=3", "version": 1})
    assert response.status_code == 302
    jedi.refresh_from_db()
    assert ore.rules.skill_row(jedi.sheet, "language_basic")["dice"] == 3


# --- bad input ---------------------------------------------------------------------------------


BAD_INPUT = [
    pytest.param(
        {"edit": "stunt.force_jump.hard=1"},
        "trait-stunt-force_jump",
        "Force Jump is a stunt: stunts take normal dice only, no hard dice (L884).",
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
        "trait-power-force_sense",
        "That makes a pool of 11 dice for Force Sense",
        id="hard-dice-past-the-cap",
    ),
    pytest.param(
        {"only": "character_points", "character_points": "-20"},
        "trait-character_points",
        "The character point budget cannot go below 0",
        id="negative-budget",
    ),
    pytest.param(
        {"only": "species", "species": "gungan"},
        "trait-species",
        "is not a known species; choose one of Human, Bothan",
        id="unknown-species",
    ),
    pytest.param(
        {"edit": "wound.torso.7=cycle"},
        "section-wounds",
        "The Torso has boxes 1 to 6.",
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
        "section-skills",
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
    assert 'id="trait-stat-body" data-value="2"' in html
    jedi.refresh_from_db()
    assert jedi.sheet["stats"]["body"] == 2
