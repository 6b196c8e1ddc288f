"""The sheet at a table: each viewer is offered only what they may set, for every system.

The GM of the table sets the rows the seeds reserve to the GM and reads the rest; the
player sets the rest and reads the GM's rows; the house rules are the campaign's. A forged
post of what a viewer was not offered is refused beside the trait and changes nothing.
"""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from rulesets.core import resolve_settings
from rulesets.core.stage import STAGE_TRAIT
from rulesets.registry import get_ruleset
from sheets.campaigns.services import campaign_create, campaign_join, invitation_create
from sheets.characters.models import Character
from sheets.characters.services import character_create
from sheets.permissions import gm_rows
from tests.swaps import after_swaps, by_id, comparable, parse

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SYSTEMS = ["swd10", "ore", "weg_d6", "o3d10"]
# Form fields that steer a post rather than name a trait.
CONTROL = {"csrfmiddlewaretoken", "version", "save", "only", "edit"}


class SheetControls(HTMLParser):
    """Collect what the sheet form offers: enabled named fields and their buttons' traits."""

    def __init__(self) -> None:
        super().__init__()
        self.in_form = False
        self.form_seen = False
        self.disabled_fieldsets = 0
        self.depth: list[str] = []
        self.fields: dict[str, str] = {}
        self.traits: set[str] = set()
        # The <select> being read: its name and whether an option was marked selected.
        self.select: tuple[str, bool] | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "form" and a.get("id") == "sheet-form":
            self.in_form = self.form_seen = True
            return
        if not self.in_form:
            return
        if tag == "fieldset":
            self.depth.append("disabled" if "disabled" in a else "")
            self.disabled_fieldsets += "disabled" in a
        if tag == "option" and self.select is not None:
            name, chosen = self.select
            if "selected" in a or (not chosen and name not in self.fields):
                self.fields[name] = a.get("value", "")
                self.select = (name, chosen or "selected" in a)
            return
        if tag not in ("input", "select", "textarea", "button"):
            return
        if "disabled" in a or self.disabled_fieldsets:
            return
        name, value = a.get("name"), a.get("value") or ""
        if not name:
            return
        if tag == "button":
            if name == "edit":
                self.traits.add(value.partition("=")[0])
            elif name == "only":
                self.traits.add(value)
            return
        if tag == "select":
            self.select = (name, False)
            self.fields.pop(name, None)
        elif tag == "textarea":
            self.textarea = name
            self.fields[name] = ""
        elif a.get("type") in ("radio", "checkbox") and "checked" not in a:
            pass
        else:
            self.fields[name] = value
        if name not in CONTROL:
            self.traits.add(name)

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.fields[self.textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        if tag == "textarea":
            self.textarea = None
        if tag == "form" and self.in_form:
            self.in_form = False
        if tag == "fieldset" and self.in_form and self.depth:
            self.disabled_fieldsets -= self.depth.pop() == "disabled"


def controls(response) -> SheetControls:
    parser = SheetControls()
    parser.feed(response.content.decode())
    return parser


def table_of(system: str, gm, player):
    campaign = campaign_create(user=gm, name=f"Table {system}", system=system)
    link = invitation_create(user=gm, campaign_id=campaign.pk)
    campaign_join(user=player, token=link.token)
    return campaign


def demo_at_table(system: str, gm, player) -> Character:
    """A full demo sheet (gear, powers, merits...) of `system` at a table run by `gm`."""
    campaign = table_of(system, gm, player)
    return character_create(
        owner=player,
        name=f"Demo {system}",
        system=system,
        sheet=get_ruleset(system).demo_sheet(),
        campaign=campaign,
    )


def reserved_rows(character: Character) -> set[str]:
    ruleset = get_ruleset(character.system)
    settings = resolve_settings(ruleset.SETTINGS, character.readings_in_force)
    return gm_rows(ruleset.trait_rows(character.sheet, settings))


def is_gm_edit(character: Character, trait: str) -> bool:
    """A GM action without a row ("xp.add", its extra input "xp.add.1", "xp.0.remove")."""
    ruleset = get_ruleset(character.system)
    # A table's marks (WEG's wound, SWd10's health) are the GM's on any sheet there too.
    patterns = ruleset.GM_EDITS + getattr(ruleset, "TABLE_EDITS", ())
    return any(fnmatchcase(trait, p) or fnmatchcase(trait, p + ".*") for p in patterns)


def sheet_url(character: Character) -> str:
    return reverse("character_sheet", args=[character.pk])


def edit(client, character, data, **headers):
    return client.post(reverse("character_edit", args=[character.pk]), data, **headers)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_gm_is_offered_only_the_gm_rows_of_a_players_sheet(client, gm, player, system):
    character = demo_at_table(system, gm, player)
    client.force_login(gm)
    response = client.get(sheet_url(character))
    assert response.status_code == 200
    offered = controls(response)
    reserved = reserved_rows(character)
    assert offered.traits, "the GM sets the GM's rows: the form stays"
    beyond = {t for t in offered.traits - reserved if not is_gm_edit(character, t)}
    # At a table the GM moves the sheet's stage too (sheets/permissions.py
    # stage_change_refusal): back to creation, or creation finished.
    assert not beyond - {STAGE_TRAIT}, beyond
    text = response.content.decode()
    assert "You are the GM of this table" in text
    assert 'id="budget"' in text
    # The owner's own acts are not offered to the GM.
    assert reverse("character_copy", args=[character.pk]) not in text
    assert reverse("character_remove", args=[character.pk]) not in text


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_player_at_a_table_is_offered_no_gm_row_and_no_house_rule(client, gm, player, system):
    character = demo_at_table(system, gm, player)
    client.force_login(player)
    response = client.get(sheet_url(character))
    offered = controls(response)
    assert offered.traits, "the player still edits their sheet"
    assert not offered.traits & reserved_rows(character)
    assert not any(trait.startswith("setting.") for trait in offered.traits)
    text = response.content.decode()
    assert "Set by the GM at this table" in text
    assert "House rules of" in text and f"Table {system}</a> (set by its GM)" in text


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("who", ["gm", "player"])
def test_saving_every_field_without_javascript_refuses_nothing(client, gm, player, system, who):
    """The no-JavaScript "Save every field" posts every enabled field: none may be one the
    viewer cannot set (a locked flag's hidden "no", a house rule...)."""
    character = demo_at_table(system, gm, player)
    client.force_login(gm if who == "gm" else player)
    fields = controls(client.get(sheet_url(character))).fields
    before = character.sheet
    response = edit(client, character, fields | {"save": "all"})
    refusals = re.findall(r'role="alert"[^>]*>([^<]+)<', response.content.decode())
    assert response.status_code == 302, refusals
    character.refresh_from_db()
    assert character.sheet == before


def test_outside_a_campaign_the_owner_sets_their_own_readings(player_client, swd10_character):
    response = player_client.get(sheet_url(swd10_character))
    text = response.content.decode()
    assert "Your readings" in text
    assert "House rules of" not in text
    # The form itself comes when the panel is opened, into the sheet's form.
    url = reverse("character_readings", args=[swd10_character.pk])
    assert f'hx-get="{url}"' in text
    panel = player_client.get(url, **HTMX).content.decode()
    assert re.search(r'<select id="setting-\w+" name="setting\.\w+"', panel)


# A GM-only trait of each system, a value to set it to, and where it is stored.
GM_TRAITS = [
    ("swd10", "power", "3", lambda sheet: sheet["power"]),
    (
        "ore",
        "power.energy_manipulation.approved",
        "yes",
        lambda sheet: sheet["powers"]["energy_manipulation"]["approved"],
    ),
    ("o3d10", "force.sensitive", "yes", lambda sheet: sheet["force_sensitive"]),
    ("weg_d6", "teacher.present", "yes", lambda sheet: sheet["teacher"]["present"]),
]


def _stored(character: Character, read) -> object:
    character.refresh_from_db()
    return read(character.sheet)


@pytest.mark.parametrize(("system", "trait", "value", "read"), GM_TRAITS)
def test_a_forged_gm_trait_from_the_player_is_refused_beside_it(
    client, gm, player, system, trait, value, read
):
    character = character_create(
        owner=player, name="Forger", system=system, campaign=table_of(system, gm, player)
    )
    before, version = _stored(character, read), character.version
    client.force_login(player)
    page = edit(client, character, {"edit": f"{trait}={value}", "version": version})
    assert page.status_code == 400
    assert "At a table, only the GM sets this." in page.content.decode()
    fragment = edit(client, character, {"only": trait, trait: value, "version": version}, **HTMX)
    assert fragment.status_code == 200
    text = fragment.content.decode()
    assert "At a table, only the GM sets this." in text and "<html" not in text
    assert _stored(character, read) == before
    assert character.version == version


@pytest.mark.parametrize(("system", "trait", "value", "read"), GM_TRAITS)
def test_the_gm_sets_the_gm_trait_and_the_budget_follows(
    client, gm, player, system, trait, value, read
):
    character = character_create(
        owner=player, name="Approved", system=system, campaign=table_of(system, gm, player)
    )
    client.force_login(gm)
    before = client.get(sheet_url(character)).content.decode()
    response = edit(
        client, character, {"only": trait, trait: value, "version": character.version}, **HTMX
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert 'role="alert"' not in text
    assert str(_stored(character, read)).lower() in {value, "true"}
    # The GM's page shows the budget as a fresh page does (sent again only if it moved).
    fresh = client.get(sheet_url(character)).content.decode()
    swapped = comparable(by_id(after_swaps(before, text), "budget"))
    assert swapped == comparable(by_id(parse(fresh), "budget"))


def test_a_gm_posting_a_players_trait_is_refused_and_nothing_changes(client, gm, table):
    character = table.characters.get()
    client.force_login(gm)
    response = edit(client, character, {"edit": "attr.strength=4", "version": character.version})
    assert response.status_code == 400
    assert "Only the player changes this" in response.content.decode()
    character.refresh_from_db()
    assert character.sheet["attributes"]["strength"] == 1


def test_the_player_cannot_change_the_house_rules_from_the_sheet(player_client, table):
    character = table.characters.get()
    response = edit(
        player_client,
        character,
        {
            "only": "setting.attribute_free_dot",
            "setting.attribute_free_dot": "yes",
            "version": character.version,
        },
        **HTMX,
    )
    assert "the GM sets the house rules" in response.content.decode()
    character.refresh_from_db()
    assert character.rule_settings == {}


def test_the_readings_link_to_the_campaign(player_client, table):
    text = player_client.get(sheet_url(table.characters.get())).content.decode()
    assert "House rules of" in text and "Outer Rim" in text
    try:
        url = reverse("campaign_detail", args=[table.pk])
    except Exception:  # the campaign pages come with another part of this work
        pytest.skip("campaign_detail is not routed yet")
    assert f'href="{url}"' in text


def test_the_player_takes_the_character_out_of_its_campaign(player_client, table):
    character = table.characters.get()
    response = player_client.post(reverse("character_leave_campaign", args=[character.pk]))
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.campaign_id is None
    text = player_client.get(sheet_url(character)).content.decode()
    assert "Your readings" in text
    again = player_client.post(reverse("character_leave_campaign", args=[character.pk]))
    assert "is not at any table" in player_client.get(again["Location"]).content.decode()


def test_only_the_owner_takes_a_character_out(client, gm, table):
    character = table.characters.get()
    client.force_login(gm)
    response = client.post(reverse("character_leave_campaign", args=[character.pk]))
    assert response.status_code == 403
    character.refresh_from_db()
    assert character.campaign_id == table.pk


def test_experience_awards_are_the_gms_at_an_ore_table(client, gm, player):
    character = demo_at_table("ore", gm, player)
    client.force_login(player)
    assert 'name="xp.add"' not in client.get(sheet_url(character)).content.decode()
    refused = edit(client, character, {"only": "xp.add", "xp.add": "50", "version": 1})
    assert refused.status_code == 400
    assert "only the GM sets this" in refused.content.decode()
    refused = client.post(
        reverse("ledger_award", args=[character.pk]), {"amount": "50", "reason": "Me", "version": 1}
    )
    assert refused.status_code == 400 and "only the GM awards" in refused.content.decode()
    # The GM awards on the ledger too: the sheet has no award row, a posted one is refused.
    client.force_login(gm)
    assert 'name="xp.add"' not in client.get(sheet_url(character)).content.decode()
    refused = edit(
        client, character, {"only": "xp.add", "xp.add": "5", "xp.add.1": "Session 3", "version": 1}
    )
    assert "experience is awarded and spent on the Advancement page" in refused.content.decode()
    earned = sum(character.ledger.values_list("amount", flat=True))
    done = client.post(
        reverse("ledger_award", args=[character.pk]),
        {"amount": "5", "reason": "Session 3", "version": 1},
    )
    assert done.status_code == 302
    character.refresh_from_db()
    assert character.sheet["xp_awards"] == []
    assert sum(character.ledger.values_list("amount", flat=True)) == earned + 5


def test_at_a_swd10_table_the_gm_awards_experience_on_the_ledger(client, gm, player):
    character = character_create(
        owner=player, name="Awarded", system="swd10", campaign=table_of("swd10", gm, player)
    )
    client.force_login(player)
    forged = edit(client, character, {"edit": "info.experience=12", "version": 1})
    assert "At a table, only the GM sets this." in forged.content.decode()
    client.force_login(gm)
    # The experience row shows the ledger's figure, locked, with the way to the ledger.
    page = client.get(sheet_url(character)).content.decode()
    row = page[page.index('id="trait-info-experience"') :].split("</div>")[0]
    assert "disabled" in row and "Awarded and spent on the ledger" in row
    refused = edit(client, character, {"edit": "info.experience=12", "version": 1})
    assert "Experience is kept on the Advancement page" in refused.content.decode()
    done = client.post(
        reverse("ledger_award", args=[character.pk]),
        {"amount": "12", "reason": "Session 1", "version": 1},
    )
    assert done.status_code == 302
    page = client.get(sheet_url(character)).content.decode()
    row = page[page.index('id="trait-info-experience"') :].split("</div>")[0]
    assert 'value="12"' in row
    character.refresh_from_db()
    assert character.sheet["info"]["experience"] == 0  # the ledger keeps it
