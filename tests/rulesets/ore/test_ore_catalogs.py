"""The catalogs hold what the seed prints, each entry with its source line."""

from __future__ import annotations

import re

import pytest

from rulesets.ore import data

LINE = re.compile(r"L\d+")


@pytest.mark.parametrize(
    "catalog",
    [
        data.STATS,
        data.SKILLS,
        data.SPECIES,
        data.ABILITIES,
        data.POWERS,
        data.FORCE_TECHNIQUES,
        data.LIGHTSABER_FORMS,
        data.HIT_LOCATIONS,
        data.ARMORS,
        data.WEAPONS,
        data.MANEUVERS,
    ],
    ids=lambda c: type(c[0]).__name__,
)
def test_every_catalog_entry_names_its_source_line(catalog):
    assert all(LINE.search(entry.source) for entry in catalog)
    assert len({entry.slug for entry in catalog}) == len(catalog)


def test_the_skill_list_has_the_seeds_37_skills_plus_three_proposed_ones():  # L664-L736
    proposed = [s.slug for s in data.SKILLS if "proposal" in s.source]
    assert len(data.SKILLS) - len(proposed) == 37
    assert proposed == ["resist", "endurance", "drive"]
    assert {s.slug for s in data.SKILLS if s.takes_specialty} == {
        "language",
        "lore",
        "pilot",
        "profession",
    }


def test_the_force_catalog_has_9_core_powers_40_stunts_12_dark_and_2_light():  # L930-L1070
    techniques = data.FORCE_TECHNIQUES
    assert len(techniques) == 49 and len(data.STUNTS) == 40
    assert sum(1 for t in techniques if t.side == "DS") == 12
    assert {t.slug for t in techniques if t.side == "LS"} == {"force_light", "healing"}


@pytest.mark.parametrize(
    ("slug", "cost"),
    [
        ("human", 0),
        ("bothan", 5),
        ("cerean", 5),
        ("droid", 5),
        ("ithorian", 4),
        ("mon_calamari", 5),
        ("rodian", 5),
        ("sullustan", 10),
        ("trandoshan", 5),
        ("twilek", 5),
        ("wookiee", 20),
    ],
)
def test_species_cost_what_the_list_prints(slug, cost):  # L796-L814
    assert data.SPECIES_BY_SLUG[slug].cost == cost


def test_the_wookiee_is_massive_with_body_plus_two_and_command_minus_one():  # L814
    wookiee = data.SPECIES_BY_SLUG["wookiee"]
    assert wookiee.stat_max_bonus == {"body": 2, "command": -1}
    assert wookiee.extra_wound_boxes == 1


@pytest.mark.parametrize(
    ("slug", "cost", "target"),
    [
        ("low_light_vision", 5, ""),
        ("darkvision", 10, ""),
        ("massive", 10, ""),
        ("armor", 10, ""),
        ("breathe_underwater", 5, ""),
        ("poison_gas_filter", 5, ""),
        ("stat_hard_die", 10, "stat"),
        ("stat_wiggle_die", 20, "stat"),
        ("skill_hard_die", 4, "skill"),
        ("skill_wiggle_die", 8, "skill"),
        ("unarmed_normal_damage", 10, ""),
        ("higher_stat_maximum", 5, "stat"),
    ],
)
def test_droid_alien_and_cyborg_abilities_cost_what_the_table_prints(slug, cost, target):
    ability = data.ABILITY_BY_SLUG[slug]  # L848-L858
    assert (ability.cost_per_level, ability.target) == (cost, target)


def test_hit_locations_cover_heights_one_to_ten_with_34_boxes():  # L221-L228
    assert sorted(data.LOCATION_BY_HEIGHT) == list(range(1, 11))
    assert sum(location.boxes for location in data.HIT_LOCATIONS) == 34


def test_the_blast_vest_covers_only_the_torso_and_the_lightsaber_has_pen_5():  # L389, L415
    assert data.ARMOR_BY_SLUG["blast_vest"].covers == ("torso",)
    saber = data.WEAPON_BY_SLUG["lightsaber"]
    assert (saber.damage, saber.penetration, saber.initiative) == ("width+3", 5, 1)


def test_the_sheet_prints_17_maneuvers_and_the_text_adds_charge_and_off_hand():
    on_sheet = [m for m in data.MANEUVERS if m.on_sheet]  # L1151-L1159
    assert len(on_sheet) == 17
    assert {m.slug for m in data.MANEUVERS if not m.on_sheet} == {"charge", "off_hand_attack"}
