"""Editing a 1o3d10 sheet in the shell: every part shown, swaps, health states, bad input."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

import rulesets.o3d10 as o3d10
from rulesets.core import resolve_settings
from rulesets.o3d10.data import SKILLS
from rulesets.o3d10.rules import health_state
from sheets.characters.layouts.o3d10 import _health_bands
from sheets.characters.services import character_create
from sheets.history.models import Revision
from tests.swaps import after_swaps, markup_of

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
OOB = 'hx-swap-oob="true"'


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


def edit_page(client, character, data) -> str:
    """Edit through htmx and read the page as the browser shows it once the response is in."""
    before = sheet_page(client, character)
    response = edit(client, character, data, **HTMX)
    assert response.status_code == 200
    return markup_of(after_swaps(before, response.content.decode()))


def client_readings(client, character) -> str:
    """The readings panel's body, as the sheet fetches it when the panel is opened."""
    response = client.get(reverse("character_readings", args=[character.pk]), **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def part(text: str, dom_id: str) -> str:
    """Cut what follows the element with this id, up to the next swapped element or section."""
    start = text.index(f'id="{dom_id}"')
    after_tag = text.index(">", start)
    ends = [text.find(marker, after_tag) for marker in (OOB, "</section>")]
    ends = [end for end in ends if end != -1]
    return text[start : min(ends) if ends else None]


def swapped(text: str) -> set[str]:
    """Name every element an htmx edit response swaps out of band."""
    return set(re.findall(r'id="([^"]+)"[^>]*' + OOB, text))


class _FormFields(HTMLParser):
    """Collect what a browser without JavaScript posts for the sheet form."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "disabled" in attrs:
            return
        if tag == "input" and "name" in attrs:
            kind = attrs.get("type")
            if kind in ("checkbox", "radio"):
                if "checked" in attrs:
                    self.fields[attrs["name"]] = attrs.get("value", "on")
            elif kind != "submit":
                self.fields[attrs["name"]] = attrs.get("value", "")
        elif tag == "select" and "name" in attrs:
            self.select = attrs["name"]
        elif tag == "option" and self.select:
            # The first option stands when none is marked selected.
            if "selected" in attrs or self.select not in self.fields:
                self.fields[self.select] = attrs["value"]
        elif tag == "textarea":
            self.textarea = attrs["name"]
            self.fields[self.textarea] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None

    def handle_data(self, data):
        if self.textarea:
            self.fields[self.textarea] += data


def form_fields(page: str) -> dict[str, str]:
    start = page.index('<form id="sheet-form"')
    form = page[start : page.index("</form>", start)]
    parser = _FormFields()
    parser.feed(form)
    return parser.fields


def unescape(message: str) -> str:
    return message.replace("“", "&ldquo;").replace("”", "&rdquo;")


def test_the_sheet_shows_every_part_the_engine_keeps(player_client, demo):
    text = sheet_page(player_client, demo)
    for stat in ("Strength", "Dexterity", "Intelligence", "Perception"):
        assert f'id="trait-stat-{stat.lower()}"' in text
    for skill in SKILLS:
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
    # Every reading is in the panel, fetched when it is opened.
    readings = client_readings(player_client, demo)
    for setting in o3d10.SETTINGS:
        assert f'name="setting.{setting.key}"' in readings


def test_the_name_and_header_come_before_the_budget_and_the_stage_is_drawn_once(
    player_client, demo
):
    text = sheet_page(player_client, demo)
    assert text.index('id="trait-info-player"') < text.index('id="budget"')
    assert text.index('id="section-header"') < text.index('id="section-health"')
    # The shell draws the stage control; the header does not repeat it as a choice.
    assert 'name="stage"' not in text and 'value="stage=creation"' in text


def test_the_attack_and_skill_pools_are_ready_to_read(player_client, demo):
    rolls = part(sheet_page(player_client, demo), "section-rolls")
    derived = o3d10.derived(demo.sheet, resolve_settings(o3d10.SETTINGS, {}))
    pools = derived["pools"] | derived["force_pools"] | derived["custom_pools"]
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
        assert pools[key]["against"] in row.replace("&#x27;", "'"), key
    # Wounded: the odds are read on the lowest die, and the sheet says so.
    assert "the target die is the lowest of the three dice" in rolls
    assert "<td>16 and more</td><td>24 m and more</td><td>35</td>" in rolls


def test_every_trait_shows_the_price_of_its_next_point(player_client, blank, demo):
    creation = sheet_page(player_client, blank)
    assert len(re.findall(r">next: 1 stat point", creation)) == 4
    assert len(re.findall(r">next: 1 skill point", creation)) == 5  # Force skills locked
    skills = creation[creation.index('id="section-skills-body"') :]
    assert skills.count('class="locked-why"') == 4
    assert "Only a character the GM marks Force-sensitive may learn Force skills." in skills
    play = sheet_page(player_client, demo)
    strength = part(play, "trait-stat-strength").split('class="trait ')[0]
    assert "next: 14 XP" in strength and "Strength 6 → 7: new value 7 × 2 = 14 XP" in strength
    assert "next: 6 XP" in part(play, "trait-skill-dodge")


def test_the_budget_shows_every_pool_and_what_is_left_to_spend(player_client, blank):
    budget = part(sheet_page(player_client, blank), "budget")
    for key, allowed, spent, left in (("stats", 24, 4, 20), ("skills", 20, 0, 20), ("xp", 0, 0, 0)):
        row = budget[budget.index(f'id="pool-{key}"') :].split("</tr>")[0]
        assert f"<td>{allowed}</td>" in row
        assert f'class="spent">{spent}<' in row and f'class="left">{left}<' in row
    assert "20 of 24 stat points are still to spend." in budget
    assert "20 of 20 skill points are still to spend." in budget
    readings = client_readings(player_client, blank)
    assert "Stat points at creation (house rule)" in readings
    assert "XP per point of the new stat value (house rule)" in readings


def test_raising_strength_swaps_its_row_and_the_panels_it_feeds_only(player_client, blank):
    response = edit(player_client, blank, {"edit": "stat.strength=4", "version": 1}, **HTMX)
    text = response.content.decode()
    assert response.status_code == 200 and "<html" not in text
    assert swapped(text) == {
        "sheet-version",
        "sheet-notices",
        "sheet-messages",
        "budget",
        "trait-stat-strength",
        # Strength moves the health thresholds and maximum HP, and the melee pool, whose
        # label in the roll panel prints Strength's value.
        "section-health-body",
        "status",
        "roll-melee",
        "roll-menu",
    }
    assert "Melee attack (Strength 4 + Melee Weapons 0 + 1o3d10)" in part(text, "roll-menu")
    assert 'id="sheet-version" value="2" hx-swap-oob="true"' in text
    assert 'class="spent">7<' in part(text, "budget")
    # While building, HP follows Strength: 10 + 2 x 4.
    assert 'name="hp.current" value="18"' in text
    blank.refresh_from_db()
    assert blank.sheet["stats"]["strength"] == 4 and blank.sheet["hp"] == 18


@pytest.mark.parametrize(
    ("data", "swaps", "offered"),
    [
        ({"only": "info.species", "info.species": "Zabrak"}, {"trait-info-species"}, ()),
        (
            {"only": "info.notes", "info.notes": "Owes Jabba.\nTwice."},
            {"trait-info-notes"},
            (),
        ),
        ({"only": "xp.earned", "xp.earned": "5"}, {"trait-xp-earned"}, ()),
        (
            {"only": "defense.bonus", "defense.bonus": "2"},
            # The whole panel, the bonus row in it, and the status line's Defense.
            {"section-combat-body", "status"},
            (),
        ),
        (
            {"edit": "weapon.add=knife"},
            # A new weapon is a new card, a new line of attacks among the rolls, and a new
            # choice in the roll panel.
            {"section-gear-body", "section-rolls-body", "roll-menu"},
            ("Knife (Strength 1 + Melee Weapons 0 + 1o3d10, 1d6)",),
        ),
        (
            {"edit": "force.sensitive=yes"},
            # The Force skills' rows and their rolls, no longer locked, and the roll panel
            # now offering them.
            {"trait-force-sensitive", "roll-menu"}
            | {f"trait-skill-{skill.slug}" for skill in SKILLS if skill.force}
            | {f"roll-{skill.slug}" for skill in SKILLS if skill.force}
            | {"roll-force_healing"},
            ("Force Jump (Force Jump 0 + 1a3d10)", "Force healing (Organic School 0 + 1a3d10)"),
        ),
    ],
)
def test_an_edit_swaps_only_the_rows_and_panels_it_moved(
    player_client, blank, data, swaps, offered
):
    response = edit(player_client, blank, data | {"version": 1}, **HTMX)
    text = response.content.decode()
    # The title and the budget go only when they change (the name, a pool).
    shell = {"sheet-version", "sheet-notices", "sheet-messages"}
    assert swapped(text) == shell | swaps
    for label in offered:
        assert label in part(text, "roll-menu")
    assert len(response.content) < 9000


def test_notes_keep_their_line_breaks_in_a_box(player_client, blank):
    page = edit_page(
        player_client,
        blank,
        {"only": "info.notes", "info.notes": "Owes Jabba.\nTwice.", "version": 1},
    )
    assert "<textarea" in part(page, "section-notes-body")
    blank.refresh_from_db()
    assert blank.sheet["info"]["notes"] == "Owes Jabba.\nTwice."


def test_a_rename_swaps_the_title(player_client, blank):
    response = edit(
        player_client,
        blank,
        {"only": "character.name", "character.name": "Tala Vos", "version": 1},
        **HTMX,
    )
    text = response.content.decode()
    assert re.search(r'id="sheet-title"[^>]*hx-swap-oob="true">Tala Vos', text)
    assert "section-health-body" not in text
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
    text = edit_page(
        player_client, demo, {"only": "hp.current", "hp.current": str(hp), "version": 1}
    )
    health = part(text, "section-health-body")
    assert f'data-state="{state}"' in health
    assert re.search(r'class="band band-' + state + r' current"', health)
    assert f'id="status-state">{state.capitalize()}<' in part(text, "section-status-body")


def test_each_state_explains_what_it_does(player_client, demo):
    settings = resolve_settings(o3d10.SETTINGS, {})
    wounded = part(sheet_page(player_client, demo), "section-health-body")
    for note in o3d10.derived(demo.sheet, settings)["health"]["notes"]:
        assert note in wounded
    unconscious = part(
        edit_page(player_client, demo, {"edit": "hp.current=-2", "version": 1}),
        "section-health-body",
    )
    knocked_out = o3d10.apply_edit(demo.sheet, "hp.current", "-2", settings)
    for note in o3d10.derived(knocked_out, settings)["health"]["notes"]:
        assert unescape(note).replace("'", "&#x27;") in unconscious or note in unconscious
    assert 'name="hp.bleed"' in unconscious and 'name="hp.stabilised"' in unconscious
    response = edit(
        player_client, demo, {"only": "hp.bleed", "hp.bleed": "4", "version": 2}, **HTMX
    )
    assert 'name="hp.current" value="-6"' in response.content.decode()
    page = edit_page(
        player_client, demo, {"only": "hp.stabilised", "hp.stabilised": "yes", "version": 3}
    )
    assert 'name="hp.bleed"' not in part(page, "section-health-body")
    demo.refresh_from_db()
    assert (demo.sheet["hp"], demo.sheet["stabilised"]) == (-6, True)


def test_the_one_step_buttons_and_the_damage_and_heal_verbs_move_hp(player_client, demo):
    text = sheet_page(player_client, demo)
    assert 'name="edit" value="hp.current=2"' in text and 'value="hp.current=4"' in text
    edit(player_client, demo, {"edit": "hp.current=2", "version": 1}, **HTMX)
    edit(player_client, demo, {"only": "hp.damage", "hp.damage": "5", "version": 2}, **HTMX)
    demo.refresh_from_db()
    assert demo.sheet["hp"] == -3
    health = part(
        edit_page(player_client, demo, {"only": "hp.heal", "hp.heal": "40", "version": 3}),
        "section-health-body",
    )
    assert 'data-state="normal"' in health
    # The amount boxes come back empty, ready for the next hit.
    assert 'name="hp.heal" type="number" inputmode="numeric" size="3" value=""' in health
    demo.refresh_from_db()
    assert demo.sheet["hp"] == 22  # healing stops at the maximum


def test_luck_is_used_once_a_day_and_the_new_day_button_resets_it(player_client, blank):
    page = edit_page(player_client, blank, {"edit": "luck.use=1", "version": 1})
    combat = part(page, "section-combat-body")
    assert 'id="luck-left">0<' in combat
    page = edit_page(player_client, blank, {"edit": "luck.new_day=1", "version": 2})
    combat = part(page, "section-combat-body")
    assert "Day 2:" in combat and 'id="luck-left">1<' in combat


def test_custom_skills_weapons_and_armor_rows_come_and_go(player_client, blank):
    version = 1
    for data in (
        {"only": "skill.add", "skill.add": "Pilot", "skill.add.1": "dexterity"},
        {"edit": "weapon.add=lightsaber"},
        {
            "only": "weapon.add",
            "weapon.add": "Vibroblade",
            "weapon.add.1": "melee",
            "weapon.add.2": "1d8+1",
        },
        {"edit": "armor.add=medium"},
        {"only": "armor.add", "armor.add": "Flight suit", "armor.add.1": "1"},
        {"only": "armor.0.worn", "armor.0.worn": "no"},
    ):
        before = sheet_page(player_client, blank)
        response = edit(player_client, blank, data | {"version": version}, **HTMX)
        assert 'role="alert"' not in response.content.decode(), data
        version += 1
    text = markup_of(after_swaps(before, response.content.decode()))
    assert 'id="absorption-value">1<' in text  # only the flight suit is worn
    blank.refresh_from_db()
    assert blank.sheet["custom_skills"][0] | {"rank": 0} == {
        "slug": "pilot",
        "name": "Pilot",
        "stat": "dexterity",
        "rank": 0,
    }
    assert [a["name"] for a in blank.sheet["armor"]] == ["Medium armor", "Flight suit"]
    gear = part(sheet_page(player_client, blank), "section-gear-body")
    assert 'value="Lightsaber"' in gear and 'value="1d8+1"' in gear
    assert 'value="weapon.remove=1"' in gear and 'value="armor.remove=1"' in gear
    page = edit_page(player_client, blank, {"edit": "skill.remove=pilot", "version": version})
    assert 'id="trait-skill-pilot"' not in part(page, "section-skills-body")
    page = edit_page(player_client, blank, {"edit": "weapon.remove=0", "version": version + 1})
    gear = part(page, "section-gear-body")
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
    assert re.search(r'id="section-readings"[^>]*hx-swap-oob="true"', text)
    assert "<td>30</td>" in part(text, "budget")
    blank.refresh_from_db()
    assert blank.rule_settings == {"creation_stat_points": 30}


def test_without_javascript_a_button_posts_the_form_and_returns_to_its_row(player_client, blank):
    response = edit(player_client, blank, {"edit": "skill.dodge=2", "version": 1})
    assert response.status_code == 302 and response["Location"].endswith("#trait-skill-dodge")
    blank.refresh_from_db()
    assert blank.sheet["skills"]["dodge"] == 2


def test_save_all_keeps_every_typed_field_and_skips_empty_amounts(player_client, demo):
    fields = form_fields(sheet_page(player_client, demo))
    # The damage and heal boxes go with the rest, empty; the add rows never do.
    assert fields["hp.damage"] == "" and fields["hp.heal"] == ""
    assert fields["info.notes"] == "Academy dropout who still practises the Physical School."
    fields |= {
        "save": "all",
        "info.species": "Mirialan",
        "info.notes": "Back from Tatooine.",
        "hp.current": "1",
        "defense.bonus": "2",
    }
    response = edit(player_client, demo, fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    demo.refresh_from_db()
    assert demo.sheet["info"]["species"] == "Mirialan"
    assert demo.sheet["info"]["notes"] == "Back from Tatooine."
    assert (demo.sheet["hp"], demo.sheet["defense_bonus"]) == (1, 2)
    assert demo.sheet["force_sensitive"] is True and demo.sheet["armor"][0]["worn"] is True
    assert demo.rule_settings == {}
    assert demo.version == 2


def test_without_javascript_an_amount_and_the_readings_post_with_their_own_buttons(
    player_client, demo
):
    fields = form_fields(sheet_page(player_client, demo))
    response = edit(player_client, demo, fields | {"only": "hp.damage", "hp.damage": "4"})
    assert response.status_code == 302
    demo.refresh_from_db()
    assert demo.sheet["hp"] == -1 and demo.version == 2
    fields = form_fields(sheet_page(player_client, demo))
    response = edit(player_client, demo, fields | {"save": "readings", "setting.luck_per_day": "2"})
    assert response.status_code == 302
    demo.refresh_from_db()
    assert demo.rule_settings["luck_per_day"] == 2 and demo.sheet["hp"] == -1


@pytest.mark.parametrize(
    ("data", "message", "field_id"),
    [
        (
            {"only": "hp.current", "hp.current": "lots"},
            "HP: “lots” is not a whole number.",
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
            "section-skills-body",
        ),
        (
            {"only": "setting.stat_max", "setting.stat_max": "99"},
            "Highest stat (house rule): at most 20.",
            "setting-stat_max",
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
    near = part(text, field_id)
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
    row = part(response.content.decode(), "trait-stat-perception")
    assert "Perception cannot be 9; the highest at creation is 8." in row
    assert 'name="stat.perception" value="9"' in row  # what was typed stays in the box
    blank.refresh_from_db()
    assert blank.sheet["stats"]["perception"] == 1 and blank.version == 1


def test_a_force_skill_stays_locked_until_the_gm_marks_the_character(player_client, blank):
    response = edit(player_client, blank, {"edit": "skill.force_jump=1", "version": 1}, **HTMX)
    assert "the GM must mark the character Force-sensitive first" in response.content.decode()
    response = edit(player_client, blank, {"edit": "force.sensitive=yes", "version": 1}, **HTMX)
    assert "Only a character the GM marks" not in response.content.decode()
    response = edit(player_client, blank, {"edit": "skill.force_jump=1", "version": 2}, **HTMX)
    assert 'name="skill.force_jump" value="1"' in response.content.decode()


def test_an_unknown_trait_is_reported_above_the_sheet(player_client, blank):
    response = edit(player_client, blank, {"edit": "stat.charisma=3", "version": 1}, **HTMX)
    messages = part(response.content.decode(), "sheet-messages").split("</div>")[0]
    assert "is not a stat" in messages and 'role="alert"' in messages


def test_a_stale_edit_is_refused_and_the_current_sheet_shown(player_client, blank):
    edit(player_client, blank, {"edit": "stat.strength=3", "version": 1})
    response = edit(player_client, blank, {"edit": "stat.strength=5", "version": 1}, **HTMX)
    text = response.content.decode()
    assert response["HX-Retarget"] == "#sheet"
    assert "This sheet was changed elsewhere" in text
    assert 'name="stat.strength" value="3"' in text
    blank.refresh_from_db()
    assert blank.sheet["stats"]["strength"] == 3


def test_player_sentences_carry_no_source_references(player_client, blank, demo):
    for character in (blank, demo):
        html = sheet_page(player_client, character)
        text = re.sub(r"<[^>]+>", " ", re.sub(r'title="[^"]*"', "", html))
        assert not re.search(r"\(L\d+|\bL\d{2,4}\b|§|digest|004:", text)


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
    sheet = o3d10.blank_sheet(None) | {"hp": hp}
    sheet["stats"] = sheet["stats"] | {"strength": strength}
    health = o3d10.derived(sheet, None)["health"]
    assert health["state"] == health_state(hp, strength).slug
    bands = _health_bands(health)
    assert [band["slug"] for band in bands if band["current"]] == [health["state"]]
    # The printed spans tile the HP line: exactly one covers this HP, the current one.
    assert [band["slug"] for band in bands if _covers(band["span"], hp)] == [health["state"]]
