"""The rule readings panel, fetched when it is opened.

A sheet page carries the panel's summary (how many readings differ from the book, whose
rules they are) and only the readings changed from the book; the full list, or the form of
an owner at no table, comes from `character_readings` (a share link's: `shared_readings`)
when the panel is opened, and is a page of its own without JavaScript. A refused reading
and an edit's redraw still draw the panel open and whole.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils.html import escape

from rulesets.registry import get_ruleset, ready_systems
from sheets.accounts.services import SCOPES, token_create
from sheets.campaigns.models import Membership, Role
from sheets.characters.services import character_apply_edits, character_create, share_link_create
from sheets.history.models import Revision

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
SYSTEMS = [info.key for info in ready_systems()]


def element(html: str, dom_id: str) -> str:
    """The markup of the element with this id, up to its matching close tag."""
    start = html.index(f'id="{dom_id}"')
    opening = html.rindex("<", 0, start)
    tag = re.match(r"<(\w+)", html[opening:])[1]
    depth, position = 0, opening
    for found in re.finditer(rf"<(/?){tag}\b", html[opening:]):
        depth += -1 if found[1] else 1
        position = opening + found.end()
        if depth == 0:
            break
    return html[opening : html.index(">", position) + 1]


def opening_tag(html: str, dom_id: str) -> str:
    start = html.index(f'id="{dom_id}"')
    return html[html.rindex("<", 0, start) : html.index(">", start) + 1]


def panel_url(character) -> str:
    return reverse("character_readings", args=[character.pk])


def sheet_of(client, character) -> str:
    response = client.get(reverse("character_sheet", args=[character.pk]))
    assert response.status_code == 200
    return response.content.decode()


def edit(client, character, data, **headers):
    return client.post(reverse("character_edit", args=[character.pk]), data, **headers)


class FormFields(HTMLParser):
    """The fields a plain form would post: each input's value, each select's chosen option."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self.action = ""
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "form":
            self.action = a.get("action", "")
        elif tag == "input" and a.get("name"):
            self.fields[a["name"]] = a.get("value") or ""
        elif tag == "select":
            self.select = a["name"]
        elif (
            tag == "option"
            and self.select is not None
            and ("selected" in a or self.select not in self.fields)
        ):
            self.fields[self.select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_sheet_page_carries_the_summary_and_the_panel_brings_every_reading(
    player_client, player, system
):
    ruleset = get_ruleset(system)
    character = character_create(
        owner=player, name="Demo", system=system, sheet=ruleset.demo_sheet()
    )
    page = sheet_of(player_client, character)
    details = element(page, "section-readings")
    tag = opening_tag(page, "section-readings")
    url = panel_url(character)
    # Fetched once, when the panel is first opened, into its body.
    assert f'hx-get="{url}"' in tag and 'hx-trigger="toggle once"' in tag
    assert 'hx-target="#readings-body"' in tag and 'hx-swap="outerHTML"' in tag
    assert " open" not in tag
    assert "as the book reads; yours to set" in details
    assert "Your readings: this character is at no table" in details
    # Without JavaScript, a link to the same readings as a page.
    assert f'href="{url}"' in details
    assert 'name="setting.' not in page
    body = player_client.get(url, **HTMX)
    assert body.status_code == 200 and "HX-Request" in body["Vary"]
    text = body.content.decode()
    assert "<html" not in text and text.lstrip().startswith('<div class="readings-body"')
    for setting in ruleset.SETTINGS:
        assert f'name="setting.{setting.key}"' in text, setting.key
        assert escape(setting.label) in text, setting.label


def test_the_readings_changed_from_the_book_stay_on_the_page(player_client, player):
    character = character_create(owner=player, name="Kira", system="swd10")
    character_apply_edits(
        user=player,
        character_id=character.pk,
        edits={"setting.attribute_free_dot": "False"},
        expected_version=character.version,
    )
    details = element(sheet_of(player_client, character), "section-readings")
    assert "1 changed from the book; yours to set" in details
    changed = element(details, "reading-attribute_free_dot")
    assert "Attribute priority dots" in changed and "counting the first dot" in changed
    assert "(the book: on top of the free first dot)" in changed
    # A reading as the book has it waits for the panel to open.
    assert "Force knowledges at creation" not in details


def test_an_owner_at_no_table_sets_a_reading_on_the_page_without_javascript(
    player_client, swd10_character
):
    url = panel_url(swd10_character)
    response = player_client.get(url)
    assert response.status_code == 200
    text = response.content.decode()
    assert "<html" in text and "Back to the sheet" in text and "<noscript>" not in text
    form = FormFields()
    form.feed(text)
    assert form.action == reverse("character_edit", args=[swd10_character.pk])
    # As the sheet's form: a bad value gets the server's message beside it, not the
    # browser's bubble that never reaches it.
    assert re.search(r"<form [^>]*novalidate>", text)
    assert form.fields["version"] == "1"
    settings = {key for key in form.fields if key.startswith("setting.")}
    assert settings == {f"setting.{s.key}" for s in get_ruleset("swd10").SETTINGS}
    posted = {k: v for k, v in form.fields.items() if k != "csrfmiddlewaretoken"}
    posted |= {"setting.attribute_free_dot": "False", "save": "readings"}
    saved = edit(player_client, swd10_character, posted)
    assert saved.status_code == 302
    swd10_character.refresh_from_db()
    assert swd10_character.rule_settings == {"attribute_free_dot": False}
    assert swd10_character.version == 2
    assert "1 changed from the book" in sheet_of(player_client, swd10_character)


@pytest.mark.parametrize("htmx", [True, False])
def test_a_refused_reading_draws_the_panel_open_with_the_message_beside_it(
    player_client, swd10_character, htmx
):
    response = edit(
        player_client,
        swd10_character,
        {"save": "readings", "version": 1, "setting.attribute_free_dot": "maybe"},
        **(HTMX if htmx else {}),
    )
    assert response.status_code == (200 if htmx else 400)
    text = response.content.decode()
    tag = opening_tag(text, "section-readings")
    assert " open" in tag and "hx-get" not in tag
    assert ('hx-swap-oob="true"' in tag) is htmx
    field = element(text, "setting-attribute_free_dot")
    row = text[text.rindex('<p class="field', 0, text.index(field)) :]
    row = row[: row.index("</p>")]
    assert "has-problem" in row and 'role="alert"' in row and "choose one of" in row
    # Every reading is there to correct, the others as they were.
    assert 'name="setting.force_knowledges_at_creation"' in text
    swd10_character.refresh_from_db()
    assert (swd10_character.rule_settings, swd10_character.version) == ({}, 1)
    assert Revision.objects.filter(character=swd10_character).count() == 1


def test_an_edit_redraws_the_panel_open_and_the_live_stream_closed(
    client, player, password, swd10_character
):
    client.force_login(player)
    response = edit(
        client,
        swd10_character,
        {"only": "setting.attribute_free_dot", "setting.attribute_free_dot": "False", "version": 1},
        **HTMX,
    )
    text = response.content.decode()
    tag = opening_tag(text, "section-readings")
    assert 'hx-swap-oob="true"' in tag and " open" in tag
    assert re.search(r'<option value="False" selected>counting the first dot', text)
    assert "1 changed from the book" in text
    # Another page of the same sheet hears of it through the stream: the panel there is
    # redrawn, closed as a reader left it.
    live = client.get(reverse("live_sheet_changes", args=[swd10_character.pk]), {"since": 1})
    tag = opening_tag(live.content.decode(), "section-readings")
    assert 'hx-swap-oob="true"' in tag and " open" not in tag


@pytest.mark.parametrize("who", ["player", "gm", "co_gm"])
def test_a_table_member_reads_the_tables_readings_with_a_link_to_the_table(
    client, table, player, gm, make_user, who
):
    character = table.characters.get()
    co_gm = make_user("leia_co_gm")
    Membership.objects.create(campaign=table, user=co_gm, role=Role.GM)
    client.force_login({"player": player, "gm": gm, "co_gm": co_gm}[who])
    link = f'<a href="{reverse("campaign_detail", args=[table.pk])}">Outer Rim</a> (set by its GM)'
    details = element(sheet_of(client, character), "section-readings")
    assert "the table's house rules" in details and link in details
    body = client.get(panel_url(character), **HTMX).content.decode()
    assert '<dl class="readings-list">' in body and "<select" not in body
    for setting in get_ruleset("swd10").SETTINGS:
        assert f'id="reading-{setting.key}"' in body
    page = client.get(panel_url(character)).content.decode()
    assert link in page and '<form method="post" action="/characters/' not in page


def test_a_share_links_holder_reads_what_the_share_page_showed(client, table, player):
    character = table.characters.get()
    share = share_link_create(user=player, character_id=character.pk)
    page = client.get(reverse("shared_sheet", args=[share.token])).content.decode()
    url = reverse("shared_readings", args=[share.token])
    assert f'hx-get="{url}"' in opening_tag(page, "section-readings")
    assert "House rules of the character's table (set by its GM)." in page
    body = client.get(url, **HTMX)
    assert body.status_code == 200
    text = body.content.decode()
    for setting in get_ruleset("swd10").SETTINGS:
        assert f'id="reading-{setting.key}"' in text
    assert "<select" not in text and "Outer Rim" not in text
    full = client.get(url).content.decode()
    assert "House rules of the character's table" in full and "Outer Rim" not in full
    assert reverse("shared_sheet", args=[share.token]) in full
    assert reverse("character_edit", args=[character.pk]) not in full
    # The link opens this sheet's readings, not the sheet's own URL.
    answer = client.get(panel_url(character), **HTMX)
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    share.revoked_at = share.created_at
    share.save()
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(
    ("who", "status"), [("other_player", 404), ("other_gm", 404), ("anonymous", 302)]
)
def test_who_may_not_read_the_sheet_may_not_read_its_readings(
    client, table, other_player, other_gm, who, status
):
    character = table.characters.get()
    if who != "anonymous":
        client.force_login({"other_player": other_player, "other_gm": other_gm}[who])
    response = client.get(panel_url(character), **HTMX)
    assert response.status_code == status
    assert "Attribute priority dots" not in response.content.decode()


def test_an_api_token_is_no_credential_for_the_panel(client, player, swd10_character):
    _token, secret = token_create(user=player, name="bot", scopes=tuple(SCOPES), expiry="90")
    response = client.get(
        panel_url(swd10_character), headers={"Authorization": f"Bearer {secret}"}, **HTMX
    )
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
