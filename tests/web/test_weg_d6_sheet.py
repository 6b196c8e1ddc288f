"""Editing a WEG d6 sheet in the sheet shell: die codes typed or stepped, htmx fragments,
droids, the Force, paid advances in play, and bad input that changes nothing."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

import rulesets.weg_d6 as weg
from rulesets.weg_d6 import demo
from rulesets.weg_d6.data import ATTRIBUTES
from sheets.advancement.models import Training
from sheets.characters.models import Character
from sheets.history.models import Revision

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
        owner=player, name="R2", system="weg_d6", sheet=demo.demo_droid_sheet()
    )


def edit(client, character, data, **headers):
    return client.post(reverse("character_edit", args=[character.pk]), data, **headers)


def page(client, character) -> str:
    return client.get(reverse("character_sheet", args=[character.pk])).content.decode()


def dom(trait: str) -> str:
    return "trait-" + trait.replace(".", "-")


def row(text: str, trait: str) -> str:
    """The HTML of one row and its buttons, up to the next row."""
    start = text.index(f'id="{dom(trait)}"')
    # The row's own buttons and inputs carry ids under its own ("trait-x-up").
    after = re.compile(rf'id="(?!(?:input-)?{dom(trait)}[-"])(?:input-)?trait-')
    end = after.search(text, start + 1)
    return text[start : end.start() if end else None]


def code_in(text: str, trait: str) -> str:
    """The code a row's field shows (blank for an untrained skill)."""
    found = re.search(rf'id="input-{dom(trait)}" name="{re.escape(trait)}" value="([^"]*)"', text)
    assert found, trait
    return found.group(1)


def section(text: str, key: str) -> str:
    """The HTML of one section's body, up to the next section's body."""
    start = text.index(f'id="section-{key}-body"')
    end = text.find('class="section-body"', start + 1)
    return text[start : end if end != -1 else None]


def swapped(text: str, key: str) -> bool:
    """Whether an edit response swaps a whole section's body out of band."""
    return f'id="section-{key}-body" hx-swap-oob="true"' in text


def sent(text: str) -> set[str]:
    """The ids of the elements an edit response swaps out of band."""
    return set(re.findall(r'<\w+[^>]*\sid="([^"]+)"[^>]*hx-swap-oob="true"', text))


def test_the_sheet_shows_the_six_attributes_with_their_skills_beneath(player_client, smuggler):
    text = page(player_client, smuggler)
    order = [text.index(f'id="section-attr-{a.slug}"') for a in ATTRIBUTES]
    assert order == sorted(order)
    dexterity = section(text, "attr-dexterity")
    assert code_in(dexterity, "skill.blaster") == "5D+1"
    assert 'id="trait-skill-dodge"' in dexterity and "Starship gunnery" not in dexterity
    assert code_in(text, "spec.space_transports_yt_1300") == "6D+2"
    # An untrained skill is blank and says it rolls at its attribute.
    assert code_in(text, "skill.alien_races") == ""
    assert "untrained: rolls 2D+1 (Knowledge)" in row(text, "skill.alien_races")
    for part in (
        'id="section-force"',
        'id="section-points"',
        'id="section-wounds"',
        'id="section-species"',
        'id="budget"',
        'id="section-derived"',
        'id="section-readings"',
        "Force-sensitive",
        "Dark Side Points",
        "Character points",
        "Wounded twice",
        "Background and description",
    ):
        assert part in text, part
    # The character's name and header come before the attributes and the budget.
    assert text.index('id="section-details"') < text.index('id="budget"')


def test_every_code_shows_the_cost_of_its_next_pip(player_client, smuggler):
    text = page(player_client, smuggler)
    assert "next: 5 CP" in row(text, "skill.blaster")  # 5D+1: 5 per pip (002:43)
    assert "next: 30 CP" in row(text, "attr.dexterity")  # 3D+1: 10 x 3 (002:51)
    assert "next: 3 CP" in row(text, "spec.space_transports_yt_1300")  # half of 6, rounded up
    assert "Blaster 5D+1 → 5D+2: 5 CP per pip" in row(text, "skill.blaster")


def test_every_step_button_sets_the_code_its_row_names(player_client, smuggler):
    text = page(player_client, smuggler)
    rows = {r.key: r for r in weg.trait_rows(smuggler.sheet, {})}
    blaster = row(text, "skill.blaster")
    assert f'value="skill.blaster={rows["skill.blaster"].up}"' in blaster
    assert f'value="skill.blaster={rows["skill.blaster"].down}"' in blaster
    assert 'aria-label="Blaster up to 5D+2"' in blaster
    assert 'value="skill.blaster="' in blaster and ">untrain<" in blaster
    assert 'value="spec.remove=space_transports_yt_1300"' in text
    # An untrained skill steps up from its attribute and never down.
    assert 'aria-label="Grenade up to 3D+2"' in row(text, "skill.grenade")
    assert "Grenade down" not in text
    # Paid advances wait for play.
    assert 'value="advance.' not in text


def test_the_budget_panel_lists_every_pool_and_the_verdict(player_client, smuggler):
    text = page(player_client, smuggler)
    assert re.search(r'id="pool-attributes".*?<td>18D</td><td class="spent">18D</td>', text, re.S)
    assert re.search(r'id="pool-skill_dice".*?<td>7D</td><td class="spent">7D</td>', text, re.S)
    assert "Legal: every budget spent, no rule broken." in text


def test_the_readings_panel_shows_the_edition_and_every_setting(player_client, smuggler):
    text = page(player_client, smuggler)
    assert 'name="info.edition"' in text
    # Every reading is in the panel, fetched when it is opened.
    url = reverse("character_readings", args=[smuggler.pk])
    panel = player_client.get(url, **HTMX).content.decode()
    for setting in weg.SETTINGS:
        assert f'name="setting.{setting.key}"' in panel
    # Where a default comes from is a tooltip, not part of the sentence.
    assert text.count('title="Source: GM setting; not in either seed') >= 1
    assert len(re.findall(r'title="Source: [^"]*not in either seed', panel)) >= 5


@pytest.mark.parametrize("typed", ["4D+2", "4d+2", " 4D + 2 ", "+1D+1", "+ 1D + 1"])
def test_a_code_is_typed_in_any_of_the_book_forms(player_client, smuggler, typed):
    response = edit(
        player_client,
        smuggler,
        {"only": "skill.dodge", "skill.dodge": typed, "version": 1},
        **HTMX,
    )
    text = response.content.decode()
    # Only the skill's row moved in the Dexterity block: the row goes, not the block.
    assert "trait-skill-dodge" in sent(text) and not swapped(text, "attr-dexterity")
    assert code_in(text, "skill.dodge") == "4D+2"
    smuggler.refresh_from_db()
    assert smuggler.sheet["skills"]["dodge"] == 14


def test_an_htmx_pip_step_swaps_the_attribute_block_budget_and_version(player_client, smuggler):
    response = edit(player_client, smuggler, {"edit": "attr.technical=2D+2", "version": 1}, **HTMX)
    text = response.content.decode()
    assert response.status_code == 200 and "<html" not in text
    # The attribute's row, its steps and the skills under it (whose codes follow it).
    assert {"trait-attr-technical", "trait-attr-technical-up", "trait-skill-demolition"} <= sent(
        text
    )
    assert 'aria-label="Technical up to 3D"' in text
    assert "trait-skill-dodge" not in sent(text) and "section-attr-dexterity" not in text
    assert re.search(r'id="budget"[^>]*hx-swap-oob="true"', text)
    assert 'id="sheet-version" value="2" hx-swap-oob="true"' in text
    assert "The attributes add up to 18D+1; a player character has 18D." in text
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
    fields = dict(re.findall(r'<input id="input-trait-[^"]*" name="([^"]+)" value="([^"]*)"', text))
    assert fields["skill.blaster"] == "5D+1" and fields["skill.grenade"] == ""
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
    # The wound track's choice, and every row whose roll it lowers.
    assert {"trait-wound", "wound-state", "trait-skill-blaster"} <= sent(text)
    assert 'id="trait-wound-wounded_twice" name="wound" value="wounded_twice" checked' in text
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
    assert "Skill points" in row(text, "points.character")
    assert "next: 5 SP" in row(text, "skill.blaster")
    # The wound section is drawn again whole: 1E adds the hit form beside the track.
    assert swapped(text, "wounds") and 'value="wounded_twice"' not in row(text, "wound")
    assert 'id="trait-wound-hit"' in section(text, "wounds")
    assert "1st edition has no specializations." in text
    assert swapped(text, "skills") and 'name="spec.add"' not in section(text, "skills")


def test_a_custom_skill_lands_under_its_attribute(player_client, smuggler):
    response = edit(
        player_client,
        smuggler,
        {"only": "skill.add", "skill.add": "Sabacc|PER", "version": 1},
        **HTMX,
    )
    text = response.content.decode()
    assert swapped(text, "attr-perception")
    assert 'id="trait-skill-sabacc"' in section(text, "attr-perception")
    assert 'value="skill.remove=sabacc"' in row(text, "skill.sabacc")
    smuggler.refresh_from_db()
    assert smuggler.sheet["custom_skills"]["sabacc"]["attribute"] == "perception"


def test_the_add_skill_row_posts_its_attribute_and_kind_as_separate_choices(
    player_client, smuggler
):
    text = page(player_client, smuggler)
    assert 'name="skill.add.1"' in text and 'name="skill.add.2"' in text
    edit(
        player_client,
        smuggler,
        {
            "only": "skill.add",
            "skill.add": "Sabacc",
            "skill.add.1": "perception",
            "skill.add.2": "",
            "version": 1,
        },
    )
    edit(
        player_client,
        smuggler,
        {
            "only": "skill.add",
            "skill.add": "Surgery",
            "skill.add.1": "technical",
            "skill.add.2": "advanced:First aid",
            "version": 2,
        },
    )
    smuggler.refresh_from_db()
    assert smuggler.sheet["custom_skills"]["sabacc"]["advanced"] is False
    assert smuggler.sheet["custom_skills"]["surgery"]["prerequisite"] == "first_aid"


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
    assert "weg-not-shown" not in section(text, "droid")
    assert "weg-not-shown" in section(text, "species")
    assert re.search(
        r'id="pool-building_dice".*?<td>35D</td><td class="spent">34D</td>', text, re.S
    )
    assert code_in(text, "droid.speed") == "2D"
    assert "Video screen with holographic projection" in text
    assert "Building dice: attributes 5D, speed 3D, armor 3D, equipment 11D, skills 12D" in text


def test_a_character_hides_the_droid_block(player_client, smuggler):
    assert "weg-not-shown" in section(page(player_client, smuggler), "droid")


def test_a_droid_item_is_added_and_removed_by_its_own_buttons(player_client, droid):
    count = len(droid.sheet["droid"]["equipment"])
    edit(
        player_client,
        droid,
        {
            "only": "equipment.add",
            "equipment.add": "Arc welder",
            "equipment.add.1": "2",
            "version": 1,
        },
    )
    droid.refresh_from_db()
    assert droid.sheet["droid"]["equipment"][-1] == {"name": "Arc welder", "features": 2}
    text = page(player_client, droid)
    assert "this item takes 3D of building dice" in row(text, f"equipment.{count}.features")
    assert f'value="equipment.remove={count}"' in text
    edit(player_client, droid, {"edit": f"equipment.remove={count}", "version": 2})
    droid.refresh_from_db()
    assert len(droid.sheet["droid"]["equipment"]) == count


def test_the_force_block_adds_a_power_with_its_skills(player_client, smuggler):
    for data in (
        {"only": "force.sensitive", "force.sensitive": "yes"},
        {"only": "force.control", "force.control": "1D"},
        {"only": "power.add", "power.add": "control_pain"},
    ):
        version = Character.objects.get(pk=smuggler.pk).version
        response = edit(player_client, smuggler, data | {"version": version}, **HTMX)
    text = response.content.decode()
    assert "powers-list" in sent(text)
    assert "Control pain <small>(Control)</small>" in text
    assert 'value="power.remove=control_pain"' in text
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
    assert "2 Dark Side Points: when the next one comes the GM rolls 1D and 1-3 consumes" in row(
        text, "points.dark_side"
    )


def award(client, character, amount: str) -> None:
    """Outside a campaign the owner awards Character Points, on the Advancement page."""
    character.refresh_from_db()
    response = client.post(
        reverse("ledger_award", args=[character.pk]),
        {"amount": amount, "reason": "Adventure 1", "version": character.version},
    )
    assert response.status_code == 302


def balance(character) -> int:
    return sum(character.ledger.values_list("amount", flat=True))


def test_an_advance_in_play_spends_character_points(player_client, smuggler):
    edit(player_client, smuggler, {"only": "stage", "stage": "play", "version": 1})
    # In play the points are the ledger's: typed on the sheet they are refused.
    response = edit(
        player_client,
        smuggler,
        {"only": "points.character", "points.character": "20", "version": 2},
        **HTMX,
    )
    text = response.content.decode()
    assert "In play, experience is awarded and spent on the Advancement page." in text
    # The 5 starting points reached the ledger when creation ended; the GM (here the
    # owner) awards 15 more.
    award(player_client, smuggler, "15")
    assert balance(smuggler) == 20
    text = page(player_client, smuggler)
    assert 'value="advance.skill.blaster=5D+2"' in text
    assert "Advance to 5D+2 (5 CP)" in row(text, "skill.blaster")
    assert "Advance Move to 11 (10 CP)" in row(text, "move")
    # The sheet's paid advance is a purchase on the ledger.
    response = edit(
        player_client, smuggler, {"edit": "advance.skill.blaster=5D+2", "version": 3}, **HTMX
    )
    text = response.content.decode()
    assert 'id="trait-points-character" hx-swap-oob="true"' in text
    assert swapped(text, "interval") and "Blaster: 5D+1 → 5D+2, 5 CP" in text
    # Paid now; the raise counts when its training ends (the reading `training_counts`,
    # 002:43-55): the sheet keeps 5D+1 and says so.
    assert "Blaster 5D+1 → 5D+2: 0 of" in text and "5D+1 until it ends" in text
    smuggler.refresh_from_db()
    assert smuggler.sheet["skills"]["blaster"] == 16
    _end_training(player_client, smuggler, 4)
    assert "Advance to 6D (5 CP)" in row(page(player_client, smuggler), "skill.blaster")
    smuggler.refresh_from_db()
    assert smuggler.sheet["skills"]["blaster"] == 17
    assert smuggler.sheet["points"]["character"] == 0  # the ledger keeps the balance
    assert balance(smuggler) == 15
    bought = smuggler.ledger.get(kind="purchase")
    assert (bought.trait, bought.from_value, bought.to_value, bought.amount) == (
        "skill.blaster",
        "5D+1",
        "5D+2",
        -5,
    )


def test_a_rule_reading_is_stored_and_rerenders_the_sheet(player_client, smuggler):
    response = edit(
        player_client,
        smuggler,
        {"only": "setting.skill_dice", "setting.skill_dice": "8", "version": 1},
        **HTMX,
    )
    assert re.search(r'id="section-readings"[^>]*hx-swap-oob="true"', response.content.decode())
    smuggler.refresh_from_db()
    assert smuggler.rule_settings == {"skill_dice": 8}


def _play_with_a_raise(client, character) -> int:
    edit(client, character, {"only": "stage", "stage": "play", "version": 1})
    award(client, character, "25")
    edit(client, character, {"edit": "advance.skill.dodge=4D+2", "version": 3})
    _end_training(client, character, 4)
    return 5


def _end_training(client, character, version: int) -> None:
    """The owner (their own GM off-table) marks the raise's training done: it reaches the
    sheet then (the reading `training_counts`, 002:43-55)."""
    found = Training.objects.get(character=character, finished=False)
    response = client.post(
        reverse("ledger_training", args=[character.pk]),
        {"action": "done", "training": found.pk, "version": version},
    )
    assert response.status_code == 302


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
        "Dodge is at least 0D; “-1D” is too low.",
    ),
    (
        "blank",
        {"edit": "attr.strength=0D+2"},
        "attr-strength",
        "Strength is at least 1D; “0D+2” is too low.",
    ),
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
        "Droids may never have Force skills.",
    ),
    (
        "droid",
        {"only": "force.sensitive", "force.sensitive": "yes"},
        "force-sensitive",
        "Droids may never have Force skills.",
    ),
    (
        "blank",
        {"only": "points.force", "points.force": "-2"},
        "points-force",
        "Force Points runs from 0 to 9999; -2 is outside it.",
    ),
    (
        "blank",
        {"only": "info.kind", "info.kind": "robot"},
        "info-kind",
        "Kind: choose one of Character, Droid; “robot” is not one.",
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
    # A refused paid raise is told in its attribute's box.
    assert (
        "Dodge can rise only one pip between adventures; it already rose 1 this time."
        in section(text, "attr-dexterity")
    )
    smuggler.refresh_from_db()
    assert (smuggler.sheet, smuggler.version) == (before, version)
    # Closing the window on the sheet is refused in play: the adventure's end is marked on
    # the ledger page (the GM's step at a table, the owner's here), and opens it again.
    response = edit(player_client, smuggler, {"edit": "interval.close=1", "version": version})
    assert response.status_code == 400
    player_client.post(reverse("ledger_end_adventure", args=[smuggler.pk]), {"version": version})
    edit(player_client, smuggler, {"edit": "advance.skill.dodge=5D", "version": version + 1})
    _end_training(player_client, smuggler, version + 2)
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
    assert swapped(text, "species")
    assert 'name="template.strength"' in text
    assert re.search(r'id="pool-alien_template".*?<td>6D</td>', text, re.S)
    blank.refresh_from_db()
    assert blank.sheet["custom_species"]["maximum"]["strength"] == 15
    assert blank.sheet["alien_template"]["dexterity"] == 6


def test_an_equipment_key_with_a_strange_row_number_is_refused_not_a_server_error(
    player_client, droid
):
    response = edit(player_client, droid, {"edit": "equipment.².name=x", "version": 1}, **HTMX)
    assert response.status_code == 200
    text = response.content.decode().replace("&ldquo;", "“").replace("&rdquo;", "”")
    assert "“²” does not name a droid item row." in text
    droid.refresh_from_db()
    assert droid.version == 1


def test_in_play_a_power_is_learned_for_its_price_through_its_add_row(player_client, smuggler):
    sheet = dict(smuggler.sheet, stage="play")
    sheet["force"] = dict(sheet["force"], sensitive=True, control=3)
    sheet["points"] = dict(sheet["points"], character=0)
    smuggler.sheet = sheet
    smuggler.save()
    award(player_client, smuggler, "10")
    text = page(player_client, smuggler)
    assert 'name="advance.power.add"' in text and 'value="advance.power.add"' in text
    assert "Control pain · Control · 5 CP" in text
    edit(
        player_client,
        smuggler,
        {"only": "advance.power.add", "advance.power.add": "Control pain", "version": 2},
    )
    smuggler.refresh_from_db()
    assert smuggler.sheet["force"]["powers"] == ["control_pain"]
    # Learning the power is a purchase on the ledger, which can be undone.
    bought = smuggler.ledger.get(kind="purchase")
    assert (bought.trait_label, bought.to_value, bought.amount) == ("Control pain", "learned", -5)
    assert balance(smuggler) == 5
    player_client.post(
        reverse("ledger_undo", args=[smuggler.pk]), {"entry": bought.pk, "version": 3}
    )
    smuggler.refresh_from_db()
    assert smuggler.sheet["force"]["powers"] == [] and balance(smuggler) == 10


def test_the_background_stays_a_box_after_an_edit(player_client, smuggler):
    response = edit(
        player_client,
        smuggler,
        {"only": "info.description", "info.description": "Line one\nLine two", "version": 1},
        **HTMX,
    )
    text = response.content.decode()
    assert sent(text) & {"trait-info-description", "section-background-body"}
    assert '<textarea id="input-trait-info-description"' in text
    assert "Line one\nLine two</textarea>" in text


def test_the_stage_is_the_shells_buttons_not_a_second_field(player_client, smuggler):
    text = page(player_client, smuggler)
    assert 'name="stage"' not in text
    assert 'value="stage=play"' in text


def test_a_force_skill_steps_between_0d_and_its_first_die(player_client, smuggler):
    edit(
        player_client, smuggler, {"only": "force.sensitive", "force.sensitive": "yes", "version": 1}
    )
    text = page(player_client, smuggler)
    assert 'value="force.control=1D"' in row(text, "force.control")
    assert "Control down" not in text
    edit(player_client, smuggler, {"edit": "force.control=1D", "version": 2})
    text = page(player_client, smuggler)
    assert 'value="force.control=0D"' in row(text, "force.control")
    assert 'value="force.control=1D+1"' in row(text, "force.control")
    edit(player_client, smuggler, {"edit": "force.control=0D", "version": 3})
    smuggler.refresh_from_db()
    assert smuggler.sheet["force"]["control"] == 0


def test_a_locked_code_has_no_step_buttons(player_client, droid):
    text = page(player_client, droid)
    force = row(text, "force.control")
    assert "disabled" in force and "force.control=" not in force
