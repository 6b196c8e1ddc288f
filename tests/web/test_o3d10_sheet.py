"""Editing a 1o3d10 sheet: every part shown, htmx fragments, health states, bad input."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

import rulesets.o3d10 as o3d10
from sheets.characters.layouts.o3d10 import _health_bands, sections_for
from sheets.characters.models import Revision
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def blank(player):
    return character_create(owner=player, name="Tala Voss", system="o3d10")


@pytest.fixture
def demo(player):
    # Kira Vant's sheet: in play, Strength 6, HP 3 (Wounded), Luck already used on day 2.
    return character_create(
        owner=player, name="Rell Varo", system="o3d10", sheet=o3d10.demo_sheet()
    )


def edit(client, character, data, **headers):
    return client.post(reverse("character_edit", args=[character.pk]), data, **headers)


def sheet_page(client, character) -> str:
    response = client.get(reverse("character_sheet", args=[character.pk]))
    assert response.status_code == 200
    return response.content.decode()


def section(text: str, dom_id: str) -> str:
    """Cut one <section> (or element) with this id out of a page or fragment."""
    start = text.index(f'id="{dom_id}"')
    end = text.find("</section>", start)
    return text[start : end if end != -1 else None]


class _FormFields(HTMLParser):
    """Collect what a browser without JavaScript posts for one form: its own fields plus
    those pointing at it with form="...", minus those that point at another form."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.fields: dict[str, str] = {}
        self.select: str | None = None
        self.textarea: str | None = None

    def owner_is_ours(self, attrs: dict) -> bool:
        return attrs.get("form", self.form_id if self.inside else None) == self.form_id

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.inside = attrs.get("id") == self.form_id
        elif tag == "input" and "name" in attrs and self.owner_is_ours(attrs):
            if attrs.get("type") not in ("submit", "checkbox"):
                self.fields[attrs["name"]] = attrs.get("value", "")
        elif tag == "select" and self.owner_is_ours(attrs):
            self.select = attrs["name"]
        elif tag == "option" and self.select and "selected" in attrs:
            self.fields[self.select] = attrs["value"]
        elif tag == "textarea" and self.owner_is_ours(attrs):
            self.textarea = attrs["name"]
            self.fields[self.textarea] = ""

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None

    def handle_data(self, data):
        if self.textarea:
            self.fields[self.textarea] += data


def form_fields(page: str, form_id: str) -> dict[str, str]:
    parser = _FormFields(form_id)
    parser.feed(page)
    return parser.fields


def unescape(message: str) -> str:
    return message.replace("“", "&ldquo;").replace("”", "&rdquo;")


def test_the_sheet_shows_every_part_the_engine_keeps(player_client, demo):
    text = sheet_page(player_client, demo)
    for stat in ("Strength", "Dexterity", "Intelligence", "Perception"):
        assert f'id="trait-stat-{stat.lower()}"' in text
    for skill in o3d10.rules.data.SKILLS:
        assert f'id="trait-skill-{skill.slug}"' in text and skill.label in text
    assert 'id="trait-skill-pilot"' in text  # the custom skill, with its stat picker
    assert 'name="skill.pilot.stat"' in text and 'name="skill.add"' in text
    assert 'id="input-trait-hp-current" name="hp.current" value="3"' in text
    assert 'id="defense-value">17<' in text and 'id="absorption-value">1<' in text
    assert "Midichlorian Luck" in text and 'value="luck.use=1"' in text
    assert 'value="luck.new_day=1"' in text and 'name="luck.day"' in text
    assert 'value="Blaster pistol"' in text and 'value="1d6+1"' in text
    assert 'value="Light armor"' in text and 'name="armor.0.absorption"' in text
    for header in ("Player", "Species", "Notes", "Experience earned"):
        assert f">{header}</label>" in text
    assert 'name="info.notes"' in text and "Academy dropout" in text
    for table in (
        "Ranged difficulty by distance",
        "Hit location",
        "Reaction points",
        "Actions from initiative",
    ):
        assert table in text
    for setting in o3d10.SETTINGS:
        assert f'name="setting.{setting.key}"' in text


def test_the_attack_and_skill_pools_are_ready_to_read(player_client, demo):
    rolls = section(sheet_page(player_client, demo), "section-rolls")
    for key, formula, bonus in (
        ("melee", "Strength 6 + Melee Weapons 3 + 1o3d10", 9),
        ("ranged", "Dexterity 7 + Ranged Weapons 4 + 1o3d10", 11),
        ("dodge", "Dexterity 7 + Dodge 5 + 1o3d10", 12),
        ("deflect", "Perception 6 + Reflexes 3 + 1o3d10", 9),
        ("stabilise", "Intelligence 5 + Medicine 2 + 1o3d10", 7),
        ("force_jump", "Force Jump 1 + 1a3d10", 1),
        ("physical_school", "Physical School 3 + 1a3d10", 3),
        ("alteration_school", "Alteration School 0 + 1a3d10", 0),
        ("organic_school", "Organic School 0 + 1a3d10", 0),
        ("pilot", "Dexterity 7 + Pilot 2 + 1o3d10", 9),
    ):
        row = rolls[rolls.index(f'id="roll-{key}"') :].split("</tr>")[0]
        assert formula in row and f">+{bonus}<" in row, key
    # Wounded: the odds are read on the lowest die, and the sheet says so.
    assert "the lowest of the three dice is the target die" in rolls
    assert "<td>16 and more</td><td>24 m and more</td><td>35</td>" in rolls


def test_every_trait_shows_the_price_of_its_next_point(player_client, blank, demo):
    creation = sheet_page(player_client, blank)
    assert creation.count("next: 1 stat point<") == 4
    assert creation.count("next: 1 skill point<") == 5  # the Force skills stay locked
    assert creation.count("<span>locked</span>") == 4
    play = sheet_page(player_client, demo)
    strength = section(play, "trait-stat-strength").split("</tr>")[0]
    assert "next: 14 XP" in strength and "Strength 6 → 7: new value 7 × 2 = 14 XP" in strength
    dodge = section(play, "trait-skill-dodge").split("</tr>")[0]
    assert "next: 6 XP" in dodge


def test_the_budget_shows_every_pool_and_the_house_rules(player_client, blank):
    budget = section(sheet_page(player_client, blank), "budget")
    for key, allowed, spent, left in (("stats", 24, 4, 20), ("skills", 20, 0, 20), ("xp", 0, 0, 0)):
        row = budget[budget.index(f'id="pool-{key}"') :].split("</tr>")[0]
        assert f'class="allowed">{allowed}<' in row
        assert f'class="spent">{spent}<' in row and f'class="left">{left}<' in row
    assert "20 of 24 stat points are still to spend." in budget
    assert "20 of 20 skill points are still to spend." in budget
    assert "House rules a GM can change: 24 stat points and 20 skill points" in budget
    readings = section(sheet_page(player_client, blank), "readings")
    assert "House rules" in readings and "a GM can change them" in readings
    assert "Stat points at creation (house rule)" in readings
    assert "XP per point of the new stat value (house rule)" in readings


def test_raising_a_stat_with_htmx_swaps_every_section_it_feeds(player_client, blank):
    response = edit(player_client, blank, {"edit": "stat.strength=4", "version": 1}, **HTMX)
    text = response.content.decode()
    assert response.status_code == 200 and "<html" not in text
    for dom_id in (
        "section-stats",
        "section-skills",
        "section-health",
        "section-combat",
        "section-gear",
        "section-rolls",
        "budget",
        "status",
    ):
        assert f'id="{dom_id}" aria-label' in text or f'id="{dom_id}"' in text
        assert re.search(rf'id="{dom_id}"[^>]*hx-swap-oob="true"', text), dom_id
    assert 'id="sheet-version" value="2" hx-swap-oob="true"' in text
    assert 'id="actions-version" value="2" hx-swap-oob="true"' in text
    assert 'id="section-readings"' not in text and 'id="section-header"' not in text
    assert 'class="spent">7<' in section(text, "budget")
    # While building, HP follows Strength: 10 + 2 x 4.
    assert 'name="hp.current" value="18"' in text
    blank.refresh_from_db()
    assert blank.sheet["stats"]["strength"] == 4 and blank.sheet["hp"] == 18


def test_a_text_field_edit_swaps_the_header_and_a_rename_the_title(player_client, blank):
    response = edit(
        player_client,
        blank,
        {"only": "character.name", "character.name": "Tala Vos", "version": 1},
        **HTMX,
    )
    text = response.content.decode()
    assert re.search(r'id="sheet-title" hx-swap-oob="true">Tala Vos', text)
    assert re.search(r'id="section-header"[^>]*hx-swap-oob="true"', text)
    assert 'id="section-health"' not in text
    blank.refresh_from_db()
    assert blank.name == "Tala Vos"


@pytest.mark.parametrize(
    ("hp", "state"),
    [
        (6, "normal"),  # HP = STR is still Normal (L39)
        (5, "wounded"),
        (0, "wounded"),  # 0 is Wounded: Unconscious starts under 0 (L43)
        (-1, "unconscious"),
        (-18, "unconscious"),  # exactly -3 x STR is not yet Dead (L45)
        (-19, "dead"),
    ],
)
def test_changing_hp_shows_the_health_state_at_each_boundary(player_client, demo, hp, state):
    response = edit(
        player_client, demo, {"only": "hp.current", "hp.current": str(hp), "version": 1}, **HTMX
    )
    health = section(response.content.decode(), "section-health")
    assert f'data-state="{state}"' in health
    assert re.search(r'class="band band-' + state + r' current"', health)
    status = section(response.content.decode(), "status")
    assert f'id="status-state">{state.capitalize()}<' in status


def test_each_state_explains_what_it_does(player_client, demo):
    wounded = section(sheet_page(player_client, demo), "section-health")
    assert "Wounded: the lowest of the three dice is the target die." in wounded
    response = edit(player_client, demo, {"edit": "hp.current=-2", "version": 1}, **HTMX)
    unconscious = section(response.content.decode(), "section-health")
    assert (
        "Bleeding: roll 1d10 each turn; on 1-5 lose that many HP, on 6-10 nothing." in unconscious
    )
    assert "Intelligence + Medicine + 1o3d10 against 18" in unconscious
    assert "for others: Intelligence 5 + Medicine 2 + 1o3d10, +7." in unconscious
    assert 'name="hp.bleed"' in unconscious and "Mark stabilised" in unconscious
    response = edit(
        player_client, demo, {"only": "hp.bleed", "hp.bleed": "4", "version": 2}, **HTMX
    )
    assert 'name="hp.current" value="-6"' in response.content.decode()
    demo.refresh_from_db()
    assert demo.sheet["hp"] == -6


def test_the_one_step_buttons_and_the_damage_and_heal_verbs_move_hp(player_client, demo):
    text = sheet_page(player_client, demo)
    assert 'name="edit" value="hp.current=2"' in text and 'value="hp.current=4"' in text
    edit(player_client, demo, {"edit": "hp.current=2", "version": 1}, **HTMX)
    edit(player_client, demo, {"only": "hp.damage", "hp.damage": "5", "version": 2}, **HTMX)
    demo.refresh_from_db()
    assert demo.sheet["hp"] == -3
    response = edit(player_client, demo, {"only": "hp.heal", "hp.heal": "40", "version": 3}, **HTMX)
    assert 'data-state="normal"' in response.content.decode()
    demo.refresh_from_db()
    assert demo.sheet["hp"] == 22  # healing stops at the maximum


def test_luck_is_used_once_a_day_and_the_new_day_button_resets_it(player_client, blank):
    response = edit(player_client, blank, {"edit": "luck.use=1", "version": 1}, **HTMX)
    combat = section(response.content.decode(), "section-combat")
    assert 'id="luck-left">0<' in combat
    response = edit(player_client, blank, {"edit": "luck.new_day=1", "version": 2}, **HTMX)
    combat = section(response.content.decode(), "section-combat")
    assert "Day 2:" in combat and 'id="luck-left">1<' in combat


def test_custom_skills_weapons_and_armor_rows_come_and_go(player_client, blank):
    version = 1
    for data in (
        {"only": "skill.add", "skill.add": "Pilot|dexterity"},
        {"edit": "weapon.add=lightsaber"},
        {"only": "weapon.add", "weapon.add": "Vibroblade|melee|1d8+1"},
        {"edit": "armor.add=medium"},
        {"edit": "armor.0.worn=no"},
    ):
        response = edit(player_client, blank, data | {"version": version}, **HTMX)
        assert 'role="alert"' not in response.content.decode(), data
        version += 1
    text = response.content.decode()
    assert 'id="absorption-value">0<' in text  # the only armor is not worn
    gear = section(text, "section-gear")
    assert 'value="Lightsaber"' in gear and 'value="1d8+1"' in gear
    assert 'name="armor.0.worn"' not in gear and 'value="armor.0.worn=yes"' in gear
    response = edit(
        player_client, blank, {"edit": "skill.remove=pilot", "version": version}, **HTMX
    )
    assert 'id="trait-skill-pilot"' not in section(response.content.decode(), "section-skills")
    response = edit(
        player_client, blank, {"edit": "weapon.remove=0", "version": version + 1}, **HTMX
    )
    gear = section(response.content.decode(), "section-gear")
    assert 'value="Lightsaber"' not in gear and 'name="weapon.0.name" value="Vibroblade"' in gear
    blank.refresh_from_db()
    assert [w["name"] for w in blank.sheet["weapons"]] == ["Vibroblade"]


def test_changing_a_house_rule_moves_the_budget_and_is_stored(player_client, blank):
    response = edit(
        player_client,
        blank,
        {
            "only": "setting.creation_stat_points",
            "setting.creation_stat_points": "30",
            "version": 1,
        },
        **HTMX,
    )
    text = response.content.decode()
    assert re.search(r'id="readings"[^>]*hx-swap-oob="true"', text)
    assert 'class="allowed">30<' in section(text, "budget")
    blank.refresh_from_db()
    assert blank.rule_settings == {"creation_stat_points": 30}


def test_without_javascript_a_button_posts_the_form_and_redirects(player_client, blank):
    response = edit(player_client, blank, {"edit": "skill.dodge=2", "version": 1})
    assert response.status_code == 302
    blank.refresh_from_db()
    assert blank.sheet["skills"]["dodge"] == 2


def test_save_all_keeps_every_typed_field_and_leaves_the_readings_alone(player_client, demo):
    fields = form_fields(sheet_page(player_client, demo), "sheet-form")
    fields["info.notes"] = "Back from Tatooine."
    assert not any(name.startswith("setting.") for name in fields)
    assert "hp.damage" not in fields and "skill.add" not in fields
    fields |= {"save": "all", "info.species": "Mirialan", "hp.current": "1", "defense.bonus": "2"}
    response = edit(player_client, demo, fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    demo.refresh_from_db()
    assert demo.sheet["info"]["species"] == "Mirialan"
    assert demo.sheet["info"]["notes"] == "Back from Tatooine."
    assert (demo.sheet["hp"], demo.sheet["defense_bonus"]) == (1, 2)
    assert demo.rule_settings == {}
    assert demo.version == 2


def test_without_javascript_the_readings_and_amounts_post_through_their_own_form(
    player_client, demo
):
    fields = form_fields(sheet_page(player_client, demo), "o3d10-actions")
    assert {"hp.damage", "hp.heal", "skill.add", "weapon.add", "armor.add"} <= fields.keys()
    assert {f"setting.{s.key}" for s in o3d10.SETTINGS} <= fields.keys()
    assert "stat.strength" not in fields and fields["version"] == "1"
    response = edit(player_client, demo, fields | {"only": "hp.damage", "hp.damage": "4"})
    assert response.status_code == 302
    demo.refresh_from_db()
    assert demo.sheet["hp"] == -1 and demo.version == 2
    fields = form_fields(sheet_page(player_client, demo), "o3d10-actions")
    response = edit(player_client, demo, fields | {"save": "readings", "setting.luck_per_day": "2"})
    assert response.status_code == 302
    demo.refresh_from_db()
    assert demo.rule_settings["luck_per_day"] == 2 and demo.sheet["hp"] == -1


@pytest.mark.parametrize(
    ("data", "message", "field_id"),
    [
        (
            {"only": "hp.current", "hp.current": "lots"},
            "HP must be a whole number; “lots” is not one.",
            "trait-hp-current",
        ),
        (
            {"only": "hp.damage", "hp.damage": "-3"},
            "Damage cannot be negative; use healing instead.",
            "trait-hp-damage",
        ),
        (
            {"edit": "stat.strength=11"},
            "Strength cannot be 11; the highest in this campaign is 10.",
            "trait-stat-strength",
        ),
        (
            {"only": "stat.dexterity", "stat.dexterity": "4"},
            "Dexterity cannot drop to 4, below its creation value 7.",
            "trait-stat-dexterity",
        ),
        (
            {"edit": "luck.use=1"},
            "No Midichlorian Luck left today: it was already used on day 2; "
            "it comes back on day 3.",
            "trait-luck-use",
        ),
        (
            {"only": "weapon.1.damage", "weapon.1.damage": "lots"},
            "“lots” is not a damage code; write it like 1d8 or 2d6+1.",
            "trait-weapon-1-damage",
        ),
        (
            {"only": "skill.add", "skill.add": "Dodge"},
            "The character already has a skill called “Dodge”.",
            "trait-skill-add",
        ),
        (
            {"only": "setting.stat_max", "setting.stat_max": "99"},
            "Highest stat (house rule): at most 20.",
            "setting-stat_max-field",
        ),
        (
            {"only": "character.name", "character.name": "  "},
            "A character needs a name.",
            "trait-character-name",
        ),
    ],
)
@pytest.mark.parametrize("htmx", [True, False])
def test_bad_input_gets_a_message_beside_its_field_and_changes_nothing(
    player_client, demo, data, message, field_id, htmx
):
    before = (demo.name, demo.sheet, demo.rule_settings)
    response = edit(player_client, demo, data | {"version": 1}, **(HTMX if htmx else {}))
    assert response.status_code == (200 if htmx else 400)
    text = response.content.decode()
    near = text[text.index(f'id="{field_id}"') :][:4000]
    assert unescape(message) in near or message in near
    assert 'role="alert"' in near
    demo.refresh_from_db()
    assert (demo.name, demo.sheet, demo.rule_settings) == before
    assert demo.version == 1
    assert Revision.objects.filter(character=demo).count() == 1


def test_a_stat_outside_the_creation_range_is_refused_while_building(player_client, blank):
    response = edit(
        player_client,
        blank,
        {"only": "stat.perception", "stat.perception": "9", "version": 1},
        **HTMX,
    )
    row = section(response.content.decode(), "section-stats")
    assert "Perception cannot be 9; the highest at creation is 8." in row
    assert 'name="stat.perception" value="9"' in row  # what was typed stays in the box
    blank.refresh_from_db()
    assert blank.sheet["stats"]["perception"] == 1 and blank.version == 1


def test_a_force_skill_stays_locked_until_the_gm_marks_the_character(player_client, blank):
    response = edit(player_client, blank, {"edit": "skill.force_jump=1", "version": 1}, **HTMX)
    assert "the GM must mark the character Force-sensitive first" in response.content.decode()
    edit(player_client, blank, {"edit": "force.sensitive=yes", "version": 1}, **HTMX)
    response = edit(player_client, blank, {"edit": "skill.force_jump=1", "version": 2}, **HTMX)
    assert 'id="trait-skill-force_jump" data-value="1"' in response.content.decode()


def test_an_unknown_trait_is_reported_above_the_sheet(player_client, blank):
    response = edit(player_client, blank, {"edit": "stat.charisma=3", "version": 1}, **HTMX)
    messages = section(response.content.decode(), "sheet-messages").split("</div>")[0]
    assert "is not a stat" in messages and 'role="alert"' in messages


def test_a_stale_edit_is_refused_and_the_current_sheet_shown(player_client, blank):
    edit(player_client, blank, {"edit": "stat.strength=3", "version": 1})
    response = edit(player_client, blank, {"edit": "stat.strength=5", "version": 1}, **HTMX)
    text = response.content.decode()
    assert response["HX-Retarget"] == "#sheet"
    assert "This sheet was changed elsewhere" in text
    assert 'id="trait-stat-strength" data-value="3"' in text
    blank.refresh_from_db()
    assert blank.sheet["stats"]["strength"] == 3


@pytest.mark.parametrize(
    ("traits", "sections"),
    [
        (["hp.damage"], {"health"}),
        (["luck.use"], {"combat"}),
        (["armor.0.worn"], {"gear", "combat"}),
        (["skill.add"], {"skills", "gear"}),
        (["stat.strength"], {"stats", "skills", "health", "combat", "gear"}),
        (
            ["setting.stat_max"],
            {"header", "stats", "skills", "health", "combat", "gear", "readings"},
        ),
        (["nonsense"], set()),
    ],
)
def test_an_edit_redraws_the_sections_its_trait_feeds(traits, sections):
    assert sections_for(traits) == sections


def _covers(span: str, hp: int) -> bool:
    """Read a band's printed HP span ("6 and more", "0 to 5", "-1 to -18", "below -18")."""
    if span == "none":
        return False
    if span.endswith(" and more"):
        return hp >= int(span.removesuffix(" and more"))
    if span.startswith("below "):
        return hp < int(span.removeprefix("below "))
    first, _, last = span.partition(" to ")
    low, high = sorted((int(first), int(last or first)))
    return low <= hp <= high


@given(hp=st.integers(-400, 400), strength=st.integers(0, 20))
def test_the_health_track_marks_the_engine_state_and_its_span_holds_the_hp(hp, strength):
    health = {
        "state": o3d10.health_state(hp, strength).slug,
        "wounded_below": strength,
        "dead_below": -3 * strength,
    }
    bands = _health_bands(health)
    assert [band["slug"] for band in bands if band["current"]] == [health["state"]]
    # The printed spans tile the HP line: exactly one covers this HP, the current one.
    assert [band["slug"] for band in bands if _covers(band["span"], hp)] == [health["state"]]
