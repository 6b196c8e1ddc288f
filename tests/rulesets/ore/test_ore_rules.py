"""One test per O.R.E. rule: limits, species, Willpower, Dark Side, wounds, armor, pools."""

from __future__ import annotations

import pytest

import rulesets.ore as ore
from rulesets.core import InvalidEdit
from rulesets.ore.rules import capped_pool, dice_text


def build(*edits: tuple[str, str], settings: dict | None = None, budget: int = 150) -> dict:
    sheet = ore.blank_sheet({"creation_budget": budget, **(settings or {})})
    for trait, raw in edits:
        sheet = ore.apply_edit(sheet, trait, raw, settings or {})
    return sheet


def codes(sheet: dict, settings: dict | None = None) -> set[str]:
    return ore.check(sheet, settings or {}).codes()


# --- dice pools and the 10-dice cap (L70, L109) ---------------------------------------------


@pytest.mark.parametrize(
    ("dice", "expected", "capped"),
    [
        ((7, 0, 0), (7, 0, 0), False),
        ((12, 0, 0), (10, 0, 0), True),
        ((9, 1, 1), (9, 0, 1), True),  # hard dice go first (L109; digest §5 proposal)
        ((0, 0, 11), (0, 0, 10), True),
    ],
)
def test_a_pool_never_rolls_more_than_ten_dice(dice, expected, capped):
    pool = capped_pool(*dice)
    assert (pool.normal, pool.hard, pool.wiggle) == expected
    assert pool.capped is capped and pool.uncapped == sum(dice)


def test_dice_are_written_the_way_the_seed_writes_them():
    assert [dice_text(3), dice_text(2, 1), dice_text(2, 1, 1), dice_text(0, 0, 1)] == [
        "3d",
        "2d+1hd",
        "2d+1hd+1wd",
        "1wd",
    ]


def test_a_skill_pool_is_its_stat_plus_its_skill_and_shows_when_it_was_capped():  # L656
    sheet = build(
        ("species", "wookiee"),
        ("stat.body", "7"),
        ("skill.add", "Brawling"),
        ("skill.brawling", "5"),
    )
    brawling = next(s for s in ore.derived(sheet, {})["skills"] if s["id"] == "brawling")
    assert brawling["pool"]["uncapped"] == 12 and brawling["pool"]["total"] == 10
    assert brawling["pool"]["capped"] and "capped at 10" in brawling["pool"]["note"]
    assert "pool_capped" in codes(sheet)


# --- stats and species (L640, L792-L814, L858) ----------------------------------------------


@pytest.mark.parametrize(
    ("species", "stat", "maximum"),
    [
        ("human", "body", 5),
        ("bothan", "cool", 6),
        ("cerean", "brains", 6),
        ("rodian", "sense", 6),
        ("trandoshan", "body", 6),
        ("wookiee", "body", 7),
        ("wookiee", "command", 4),
    ],
)
def test_species_bonuses_move_the_stat_maximum(species, stat, maximum):
    sheet = build(("species", species))
    row = next(s for s in ore.derived(sheet, {})["stats"] if s["slug"] == stat)
    assert row["maximum"] == maximum
    ore.apply_edit(sheet, f"stat.{stat}", str(maximum), {})
    with pytest.raises(InvalidEdit, match=f"maximum of {maximum}d"):
        ore.apply_edit(sheet, f"stat.{stat}", str(maximum + 1), {})


def test_the_wookiee_penalty_can_be_read_as_no_effect():
    settings = {"species_stat_penalty": "ignored"}
    sheet = build(("species", "wookiee"), ("stat.command", "5"), settings=settings)
    assert ore.check(sheet, settings).ok


def test_a_house_cap_lowers_the_human_maximum_before_species_bonuses():  # L768
    settings = {"house_stat_cap": 4}
    with pytest.raises(InvalidEdit, match="maximum of 4d"):
        build(("stat.body", "5"), settings=settings)
    build(("species", "trandoshan"), ("stat.body", "5"), settings=settings)


def test_changing_species_reports_a_stat_left_above_its_new_maximum():
    sheet = build(("species", "wookiee"), ("stat.body", "7"), ("species", "human"))
    errors = ore.check(sheet, {}).for_trait("stat.body")
    assert [e.code for e in errors] == ["stat_above_maximum"]
    assert "Body is 7d; the maximum is 5d" in errors[0].message


def test_a_higher_maximum_ability_raises_the_cap_and_costs_five_per_die():  # L858
    sheet = build(("ability.add", "higher_stat_maximum|brains"), ("stat.brains", "6"))
    assert ore.check(sheet, {}).for_trait("stat.brains") == []
    assert ore.points_spent(sheet, {}) == 5 + 25


def test_a_stat_hard_die_joins_the_stat_pool_and_counts_toward_its_maximum():  # L855
    sheet = build(("ability.add", "stat_hard_die|body"), ("stat.body", "4"))
    body = ore.derived(sheet, {})["stats"][0]
    assert body["text"] == "4d+1hd"
    assert ore.points_spent(sheet, {}) == 10 + 15
    with pytest.raises(InvalidEdit, match="with 1 ability dice"):
        ore.apply_edit(sheet, "stat.body", "5", {})


def test_the_surcharge_reading_prices_an_ability_die_on_top_of_a_normal_die():
    settings = {"ability_die_price": "surcharge"}
    sheet = build(
        ("skill.add", "Tech"), ("ability.add", "skill_wiggle_die|tech"), settings=settings
    )
    assert ore.points_spent(sheet, settings) == 8 + 2


def test_an_ithorian_gets_a_hard_die_in_lore_nature():  # L802
    sheet = build(("species", "ithorian"))
    lore = next(s for s in ore.derived(sheet, {})["skills"] if s["id"] == "lore_nature")
    assert (lore["text"], lore["pool"]["text"]) == ("1hd", "1d+1hd")
    assert ore.points_spent(sheet, {}) == 4


@pytest.mark.parametrize(("setting", "cost"), [(5, 5), (15, 15)])
def test_the_droid_species_costs_what_the_setting_says(setting, cost):
    settings = {"droid_species_cost": setting}
    assert ore.points_spent(build(("species", "droid"), settings=settings), settings) == cost


def test_a_droid_with_force_dice_or_dark_side_points_is_illegal():  # L764-L766
    sheet = build(("species", "droid"))
    sheet["powers"]["force_sense"]["dice"] = 1
    sheet["dark_side"]["base"] = 1
    assert {"droid_force", "droid_dark_side"} <= codes(sheet)


def test_a_droid_turned_back_into_a_living_being_regains_force_sense():  # L740
    sheet = build(("species", "droid"), ("species", "rodian"))
    assert sheet["powers"]["force_sense"]["dice"] == 1


# --- Willpower and the Dark Side (L742-L750, L898-L928) -------------------------------------


def test_willpower_can_be_read_from_the_starting_stats_instead():
    settings = {"willpower_basis": "starting"}
    sheet = build(("stat.command", "4"), ("stat.cool", "4"), settings=settings)
    assert ore.derived(sheet, settings)["willpower"]["base"] == 2


def test_setting_current_willpower_keeps_the_base_and_moves_current():  # L744-L746
    sheet = build(("stat.cool", "3"), ("willpower.current", "1"))
    assert ore.derived(sheet, {})["willpower"] == {"applies": True, "base": 4, "current": 1}


def test_dark_side_points_cannot_exceed_base_willpower():  # L904
    sheet = build(("dsp.base", "3"), ("dsp.current", "2"))
    errors = ore.check(sheet, {}).for_trait("dsp.base")
    assert [e.code for e in errors] == ["dark_side_above_willpower"]
    assert "only to base Willpower, 2" in errors[0].message


def test_one_with_the_force_needs_no_dark_side_points():  # L958
    sheet = build(("stunt.one_with_the_force", "1"), ("dsp.base", "1"))
    flagged = ore.check(sheet, {}).for_trait("stunt.one_with_the_force")
    assert "side_unusable" in {v.code for v in flagged}


# --- Force powers and stunts (L774, L876-L884) ----------------------------------------------


def test_a_stunt_without_dice_in_its_power_is_flagged():  # L882
    sheet = build(("stunt.force_grip", "1"), ("stunt.force_grip.approved", "yes"))
    assert "stunt_without_power" in codes(sheet)


def test_an_approved_power_carries_no_permission_warning():
    sheet = build(("power.mental_influence", "2"), ("power.mental_influence.approved", "yes"))
    assert ore.check(sheet, {}).for_trait("power.mental_influence") == []


def test_core_powers_come_listed_with_their_power():  # L934-L1046
    powers = ore.derived(build(), {})["powers"]
    assert [len(p["core"]) for p in powers] == [2, 3, 2, 2]


def test_force_sense_cannot_drop_below_its_free_die():  # L766
    with pytest.raises(InvalidEdit, match="below 1d"):
        build(("power.force_sense", "0"))


# --- wounds and armor (L201-L232) -----------------------------------------------------------


def fill(sheet: dict, location: str, *states: str) -> dict:
    for n, state in enumerate(states):
        sheet = ore.apply_edit(sheet, f"wound.{location}.{n}", state, {})
    return sheet


def status_of(sheet: dict, location: str, settings: dict | None = None) -> dict:
    return next(
        row
        for row in ore.derived(sheet, settings or {})["hit_locations"]
        if row["slug"] == location
    )


def test_a_box_cycles_from_empty_to_shock_to_normal_damage_and_back():
    sheet = build()
    seen = []
    for _ in range(3):
        sheet = ore.apply_edit(sheet, "wound.head.1", "", {})
        seen.append(status_of(sheet, "head")["marks"][1])
    assert seen == ["/", "X", ""]


def test_a_limb_full_of_shock_is_disabled():  # L213-L217
    row = status_of(fill(build(), "left_arm", *["shock"] * 5), "left_arm")
    assert row["status"] == "disabled" and "cannot be used" in row["explanation"]


def test_a_limb_full_of_normal_damage_is_destroyed_and_costs_one_die():  # L207-L209
    sheet = fill(build(), "right_leg", *["killing"] * 5)
    row = status_of(sheet, "right_leg")
    assert row["status"] == "destroyed" and "Cool+Stability" in row["explanation"]
    assert ore.derived(sheet, {})["limb_penalty"] == -1


def test_a_head_full_of_shock_is_knocked_out_and_full_of_damage_is_dead():  # L211, L217
    assert "knocked out" in status_of(fill(build(), "head", *["shock"] * 4), "head")["explanation"]
    dead = status_of(fill(build(), "head", *["killing"] * 4), "head")
    assert dead["status"] == "destroyed" and "dead or mortally wounded" in dead["explanation"]


@pytest.mark.parametrize(
    ("reading", "status"), [("disabled", "disabled"), ("destroyed", "destroyed")]
)
def test_a_location_full_of_mixed_damage_follows_the_setting(reading, status):
    settings = {"full_mixed_location": reading}
    sheet = fill(build(), "vitals", "shock", "killing", "shock", "shock")
    assert status_of(sheet, "vitals", settings)["status"] == status


def test_a_wookiee_has_one_more_box_per_location():  # L814
    rows = ore.derived(build(("species", "wookiee")), {})["hit_locations"]
    assert [len(r["boxes"]) for r in rows] == [6, 6, 6, 6, 7, 5, 5]


def test_massive_levels_add_boxes_and_losing_them_trims_the_marks():  # L850
    sheet = build(("ability.add", "massive"), ("ability.0.level", "2"))
    sheet = fill(sheet, "head", *["shock"] * 6)
    assert len(sheet["wounds"]["head"]) == 6
    sheet = ore.apply_edit(sheet, "ability.0.remove", "", {})
    assert sheet["wounds"]["head"] == ["shock"] * 4


def test_armor_rating_is_given_per_location_with_natural_armor_added():  # L232, L389, L800
    sheet = build(("species", "droid"), ("armor.add", "Blast vest"))
    ratings = ore.derived(sheet, {})["armor_by_location"]
    assert ratings["torso"] == 4 and ratings["head"] == 1


def test_armor_never_takes_coordination_below_1d():  # L232
    sheet = build(("armor.add", "battleframe"))
    assert ore.derived(sheet, {})["armor"][0]["coordination_in_armor"] == 1


def test_bacta_time_follows_the_setting():  # L248
    assert ore.bacta_hours(2, {}) == 3
    assert ore.bacta_hours(7, {"bacta_time": "width_minus_5"}) == 2


def test_the_feint_penalty_follows_the_setting():  # L372, L1157
    def feint(settings):
        return next(m for m in ore.derived(build(), settings)["maneuvers"] if m["slug"] == "feint")

    assert feint({})["penalty"] == "-1d"
    assert feint({"feint_penalty": "-"})["penalty"] == "-"


def test_form_one_comes_with_the_lightsaber_and_a_specialty_is_added():  # L1074
    sheet = build(("skill.add", "Lightsaber"), ("skill.lightsaber", "1"), ("lightsaber_form", "v"))
    forms = ore.derived(sheet, {})["lightsaber_forms"]
    assert [(f["label"], f["specialty"]) for f in forms] == [("Form I", False), ("Form V", True)]


def test_a_form_without_lightsaber_dice_is_flagged():
    assert "form_without_lightsaber" in codes(build(("lightsaber_form", "Form II")))
