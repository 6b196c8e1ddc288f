"""The printed 1o3d10 sheet: one A4 page holding the values, the health state and the tables."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from rulesets.o3d10 import apply_edit, blank_sheet, demo_sheet, derived
from rulesets.o3d10.data import HEALTH_STATES
from rulesets.o3d10.rules import health_state
from sheets.characters.layouts import print_context
from sheets.characters.services import character_create

pytestmark = pytest.mark.django_db

A4_POINTS = (595, 842)


def print_pdf(client, character) -> bytes:
    response = client.get(reverse("character_pdf", args=[character.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return response.content


@pytest.fixture
def printed(player_client, player):
    character = character_create(owner=player, name="Rell Varo", system="o3d10", sheet=demo_sheet())
    content = print_pdf(player_client, character)
    assert (
        player_client.get(reverse("character_pdf", args=[character.pk]))["Content-Disposition"]
        == 'attachment; filename="rell-varo.pdf"'
    )
    return content


def text_of(pdf: bytes) -> str:
    return PdfReader(io.BytesIO(pdf)).pages[0].extract_text()


def test_the_pdf_is_one_a4_page(printed):
    reader = PdfReader(io.BytesIO(printed))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == A4_POINTS


def test_the_pdf_holds_the_name_values_pools_and_rows(printed):
    text = text_of(printed)
    for expected in (
        "STAR WARS",
        "Rell Varo",
        "Demo player",
        "Human",
        "12 earned · 9 spent · 3 left",
        "Strength STR 6",
        "Dexterity DEX 7",
        "Defense 10 + Dexterity 7 + bonus 0 17",
        "WOUNDED",
        "HP 3 / 22",
        "HP 0 to 5",
        "Strength 6 + Melee Weapons 3 + 1o3d10 +9",
        "Dexterity 7 + Ranged Weapons 4 + 1o3d10 +11",
        "Dexterity 7 + Dodge 5 + 1o3d10 +12 DC 18 12.5%",
        "Intelligence 5 + Medicine 2 + 1o3d10",
        "Physical School 3 + 1a3d10",
        "Pilot Dexterity 2",
        "Blaster pistol ranged 1d8 +11",
        "Vibroknife melee 1d6+1 +9",
        "Light armor 1 yes",
        "Academy dropout",
    ):
        assert expected in text, expected


def test_the_pdf_prints_the_tables_and_the_house_rules(printed):
    text = text_of(printed)
    for expected in (
        "16 and more 35",  # ranged DC
        "10 Head +1d6",  # hit location
        "26 and more 4",  # reaction points
        "20-29 2",  # actions from initiative
        "Cells DC Chance",  # each reference row reads across, its columns set by tabs
        "3 Upper back +1\n",
        "4 Neck +2\n",
        "and so on +1 per 10\n",
        "2-cell move with another reaction 1\n",
        "Very short 10 · Short 15 · Normal 20 · Far 30",
        "Stat points (creation) 24 24 0",
        "Experience 12 9 3",
        "House rules in force (a GM can change them)",
        "Highest stat: 10",
        "Legal: every budget spent, no rule broken.",
    ):
        assert expected in text, expected


def test_the_pdf_prints_an_unconscious_character_with_the_bleed_and_stabilise_rules(
    player_client, player
):
    sheet = apply_edit(demo_sheet(), "hp.current", "-7", None)
    character = character_create(owner=player, name="Fallen Scout", system="o3d10", sheet=sheet)
    text = text_of(print_pdf(player_client, character))
    assert "UNCONSCIOUS" in text and "HP -7 / 22" in text
    assert "rolls 1d10 each turn" in text
    assert "An ally stabilises an unconscious character against 18" in text
    assert "Intelligence 5 + Medicine 2 + 1o3d10 +7 DC 18" in text


def test_a_blank_character_still_prints_on_one_page_with_its_warnings(player_client, player):
    character = character_create(owner=player, name="Tala Voss", system="o3d10")
    pdf = print_pdf(player_client, character)
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1
    text = text_of(pdf)
    assert "Tala Voss" in text and "NORMAL" in text and "HP 12 / 12" in text
    assert "20 of 24 stat points are still to spend." in text


def hp_track_of(text: str) -> str:
    """The printed health line: from the state now to the Dead box."""
    start = text.index("HEALTH") + len("HEALTH")
    return " ".join(text[start : text.index("\n", text.index("<-", start))].split())


def test_hp_prints_as_a_pencil_track_from_the_maximum_down_to_dead(player_client, player):
    rested = apply_edit(demo_sheet(), "hp.current", "22", None)
    character = character_create(owner=player, name="Rell Varo", system="o3d10", sheet=rested)
    # The player takes a hit at the table: 3 HP left of 22, Strength 6.
    response = player_client.post(
        reverse("character_edit", args=[character.pk]),
        {"version": character.version, "only": "hp.damage", "hp.damage": "19"},
    )
    assert response.status_code == 302
    track = hp_track_of(text_of(print_pdf(player_client, character)))
    normal = " ".join(str(n) for n in range(22, 5, -1))
    wounded = " ".join(str(n) for n in range(5, -1, -1))
    unconscious = " ".join(str(n) for n in range(-1, -19, -1))
    assert track.endswith(
        f"□ Normal {normal} ■ Wounded {wounded} □ Unconscious {unconscious} □ Dead <-18"
    ), track


def test_the_track_follows_the_engine_thresholds_and_crosses_the_damage_taken(player):
    sheet = apply_edit(blank_sheet({}), "stat.strength", "3", None)
    sheet = apply_edit(sheet, "hp.current", "10", None)
    character = character_create(owner=player, name="Slight Pilot", system="o3d10", sheet=sheet)
    health = derived(sheet, {})["health"]
    groups = print_context(character)["o3d10_print"]["hp_track"]
    assert [g["label"] for g in groups] == [state.label for state in HEALTH_STATES]
    boxes = [box for group in groups for box in group["boxes"]]
    numbers = [int(box["hp"]) for box in boxes[:-1]]
    assert numbers == list(range(health["hp_max"], health["dead_below"] - 1, -1))
    assert [int(b["hp"]) for b in boxes[:-1] if b["crossed"]] == list(
        range(health["hp_max"], 10, -1)
    )
    for group in groups[:-1]:
        for box in group["boxes"]:
            assert health_state(int(box["hp"]), 3).label == group["label"]
    assert [g["label"] for g in groups if g["current"]] == [health_state(10, 3).label]


def test_the_hp_boxes_are_inline_spans_not_inline_blocks(player):
    """An inline-block lays out a line box of its own: 41 HP boxes of them cost the print
    more than any other part of the page. Each box is a bordered inline span, still one
    box a number, crossed or not."""
    from weasyprint.formatting_structure.boxes import InlineBlockBox, InlineBox, TextBox

    from sheets.printing.pdf import character_document

    character = character_create(owner=player, name="Rell Varo", system="o3d10", sheet=demo_sheet())
    stack = [page._page_box for page in character_document(character).pages]
    hp_boxes = []
    while stack:
        box = stack.pop()
        classes = (box.element.get("class") or "").split() if box.element is not None else []
        if "hpbox" in classes and not isinstance(box, TextBox):
            hp_boxes.append(box)
        stack.extend(getattr(box, "children", ()))
    assert len(hp_boxes) == 42  # 22 down to -18, and the Dead box
    assert all(isinstance(box, InlineBox) for box in hp_boxes)
    assert not any(isinstance(box, InlineBlockBox) for box in hp_boxes)
