"""Generated sheets through the Foundry exporters (issue 29, item 3): whatever text, codes,
names and rows a sheet holds, its file reads back as the same sheet less exactly what the
export lists as not held (nothing changes unlisted, nothing listed comes back unchanged),
and the file still fits the target system's data model."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rulesets.core import InvalidEdit, InvalidSheet
from rulesets.swd10.data import ABILITIES, ATTRIBUTES, CUSTOM_LORES
from rulesets.swd10.sheet import demo_sheet as swd10_demo
from rulesets.swd10.sheet import validate_sheet as validate_swd10
from rulesets.weg_d6 import demo as weg_demo
from rulesets.weg_d6.data import (
    ATTRIBUTE_SLUGS,
    EDITION_1E,
    EDITION_RE,
    FORCE_POWERS,
    SKILLS,
    WOUND_LEVELS,
)
from rulesets.weg_d6.sheet import validate_sheet as validate_weg
from sheets.transfer.formats import FormatRefused, foundry_od6s_export, foundry_wod20_export
from tests.transfer.test_export_foundry import model, model_faults, unexplained_and_unfounded

# Text as people type it: letters, digits, punctuation that looks like HTML, spaces, lines.
TEXT = st.text(alphabet=st.sampled_from("abcXYZ019 -&<>;'\"/.()+×é\n\t"), min_size=0, max_size=30)
LINE = st.text(alphabet=st.sampled_from("abcXYZ019 -&<>;'\"/.()+×é"), min_size=0, max_size=30)
NAMES = st.text(alphabet=st.sampled_from("abcXYZ019 -&()'/.é"), min_size=1, max_size=24)
DAMAGE = st.one_of(
    LINE,
    st.sampled_from(["5D", "4D+2", "STR+1D", "str + 2D", "Str+1D+1", "0D", "1D+3", "3D-1"]),
)
RANGE = st.one_of(
    LINE, st.sampled_from(["3/30/100", "3-7/25/50", "10", "0/5", "03/10/20", "1/2/3/4"])
)
AMMO = st.one_of(LINE, st.sampled_from(["25", "0", "100", "007", "1"]))
SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def valid(validate, sheet: dict) -> dict:
    try:
        return validate(sheet)
    except (InvalidSheet, InvalidEdit):
        assume(False)
        raise


@st.composite
def weg_sheets(draw) -> dict:
    sheet = draw(
        st.sampled_from(
            [weg_demo.demo_sheet, weg_demo.force_student_1e_sheet, weg_demo.demo_droid_sheet]
        )
    )()
    sheet["stage"] = draw(st.sampled_from(["creation", "play"]))
    sheet["edition"] = draw(st.sampled_from([EDITION_RE, EDITION_1E]))
    sheet["role"] = draw(st.sampled_from(["pc", "npc"]))
    for key in ("player", "template", "quote"):
        sheet["info"][key] = draw(LINE)
    for key in ("description", "physical"):
        sheet["info"][key] = draw(TEXT)
    for slug in ATTRIBUTE_SLUGS:
        sheet["attributes"][slug] = draw(st.integers(3, 15))
    sheet["wound"] = draw(st.sampled_from([w.slug for w in WOUND_LEVELS]))
    sheet["points"] = {k: draw(st.integers(0, 30)) for k in ("character", "force", "dark_side")}
    sheet["move"] = draw(st.integers(0, 15))
    catalog = draw(st.lists(st.sampled_from(SKILLS), max_size=6, unique_by=lambda s: s.slug))
    sheet["skills"] = {
        s.slug: sheet["attributes"][s.attribute] + draw(st.integers(0, 9)) for s in catalog
    }
    sheet["custom_skills"] = {}
    for name in draw(st.lists(NAMES, max_size=3)):
        key = draw(st.sampled_from(["", "own_"])) + "".join(
            ch if ch.isalnum() else "_" for ch in name.lower()
        ).strip("_")
        assume(key and key not in sheet["skills"])
        advanced = draw(st.booleans())
        attribute = draw(st.sampled_from(ATTRIBUTE_SLUGS))
        sheet["custom_skills"][key] = {"name": name, "attribute": attribute, "advanced": advanced}
        if draw(st.booleans()):
            sheet["skills"][key] = draw(st.integers(0, 20))
    sheet["specializations"] = {}
    for index, name in enumerate(draw(st.lists(NAMES, max_size=3))):
        parents = list(sheet["skills"])
        if parents:
            sheet["specializations"][draw(st.sampled_from([f"s{index}", name.lower()]))] = {
                "name": name,
                "skill": draw(st.sampled_from(parents)),
                "pips": draw(st.integers(0, 30)),
            }
    force = sheet["force"]
    force["sensitive"] = draw(st.booleans())
    for slug in ("control", "sense", "alter"):
        force[slug] = draw(st.integers(0, 12))
    force["powers"] = [
        p.slug for p in draw(st.lists(st.sampled_from(FORCE_POWERS), max_size=4, unique=True))
    ]
    for name in draw(
        st.lists(st.one_of(NAMES, st.sampled_from(["Telekinesis", "Control"])), max_size=2)
    ):
        key = draw(
            st.sampled_from(["own_power", "".join(ch for ch in name.lower() if ch.isalnum())])
        )
        assume(key and key not in force["powers"])
        skills = draw(
            st.lists(st.sampled_from(["control", "sense", "alter"]), min_size=1, unique=True)
        )
        force["custom_powers"][key] = {"name": name, "skills": skills}
        if draw(st.booleans()):
            force["powers"].append(key)
    if draw(st.booleans()):
        sheet["species"] = "custom"
        sheet["custom_species"]["name"] = draw(st.one_of(LINE, st.just("Human")))
        sheet["custom_species"]["move"] = draw(st.integers(8, 12))
    sheet["weapons"] = [
        {"name": draw(NAMES), "damage": draw(DAMAGE), "range": draw(RANGE), "ammo": draw(AMMO)}
        for _ in range(draw(st.integers(0, 3)))
    ]
    sheet["gear"] = {"credits": draw(st.integers(0, 10**6)), "equipment": draw(TEXT)}
    return valid(validate_weg, sheet)


@st.composite
def swd10_sheets(draw) -> dict:
    sheet = swd10_demo()
    sheet["info"]["nature"] = draw(LINE)
    sheet["info"]["demeanor"] = draw(LINE)
    for trait in ATTRIBUTES:
        sheet["attributes"][trait.slug] = draw(st.integers(1, 5))
    for trait in ABILITIES:
        sheet["abilities"][trait.slug] = draw(st.integers(0, 5))
    for slug in CUSTOM_LORES:
        sheet["lore_names"][slug] = draw(
            st.one_of(st.just(""), NAMES, st.sampled_from(["Athletics", "a.b"]))
        )
    sheet["willpower"] = draw(st.integers(1, 10))
    sheet["willpower_current"] = draw(st.integers(0, sheet["willpower"]))
    sheet["health_marked"] = draw(st.integers(0, 7))
    if draw(st.booleans()):
        sheet["stage"] = "play"
        sheet["baseline"] = {
            "attributes": dict(sheet["attributes"]),
            "abilities": dict(sheet["abilities"]),
            "force_knowledges": dict(sheet["force_knowledges"]),
            "willpower": sheet["willpower"],
            "merits": {"ambidextrous": 1},
            "languages": [],
        }
    return valid(validate_swd10, sheet)


def check(exporter, schema: str, sheet: dict) -> None:
    exported = exporter.export(sheet, "Generated")
    assert model_faults(exported.document, model(schema)) == []
    try:
        unexplained, unfounded = unexplained_and_unfounded(sheet, exported)
    except FormatRefused as refused:
        pytest.fail(f"the file is refused on the way back: {refused}")
    assert unexplained == set(), "changed on the way back, and not listed as lost"
    assert unfounded == set(), "listed as lost, yet came back unchanged"


@SETTINGS
@given(weg_sheets())
def test_a_generated_weg_sheet_comes_back_less_exactly_what_its_od6s_file_lists(sheet):
    check(foundry_od6s_export, "od6s_model.json", sheet)


@SETTINGS
@given(swd10_sheets())
def test_a_generated_swd10_sheet_comes_back_less_exactly_what_its_wod20_file_lists(sheet):
    check(foundry_wod20_export, "wod20_model.json", sheet)


def test_a_species_picked_from_the_compendium_goes_to_od6s_with_its_words_listed_as_lost():
    sheet = weg_demo.demo_sheet()
    sheet["species"] = "custom"
    sheet["custom_species"] |= {
        "name": "Dune folk",
        "compendium": {"kind": "species", "ref": "b1", "version": 2},
        "special_abilities": ["Sees in the dark"],
        "story_factors": ["Keeps to the clan"],
    }
    check(foundry_od6s_export, "od6s_model.json", validate_weg(sheet))
