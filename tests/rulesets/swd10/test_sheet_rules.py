"""SWd10 sheet rules, table-driven from seed 000: creation (L288-304), XP (L306-322) and
the rules of the traits around them. Case numbers are the digest's §8."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulesets.swd10 as swd10
from rulesets.core import InvalidEdit, InvalidSheet
from rulesets.swd10.data import ABILITIES, ATTRIBUTES

DEFAULTS = {s.key: s.default for s in swd10.SETTINGS}


def edited(sheet: dict, *edits: tuple[str, str], settings=DEFAULTS) -> dict:
    for trait, value in edits:
        sheet = swd10.apply_edit(sheet, trait, value, settings)
    return sheet


def errors_of(sheet: dict, settings=DEFAULTS) -> set[tuple[str, str | None]]:
    return {(v.code, v.trait) for v in swd10.check(sheet, settings).errors}


def in_play(sheet: dict, experience: int = 100) -> dict:
    return edited(sheet, ("stage", "play"), ("info.experience", str(experience)))


def refusal(sheet: dict, trait: str, raw: str, settings=DEFAULTS) -> str:
    with pytest.raises(InvalidEdit) as refused:
        swd10.apply_edit(sheet, trait, raw, settings)
    assert refused.value.trait == trait
    return refused.value.message


# --- creation (L288-304) ----------------------------------------------------------------


def test_case_1_the_base_character_is_legal_with_every_budget_spent():
    report = swd10.check(swd10.demo_sheet(), DEFAULTS)
    assert report.violations == []
    assert [(p.key, p.allowed, p.spent) for p in report.pools] == [
        ("attributes.physical", 6, 6),
        ("attributes.social", 4, 4),
        ("attributes.mental", 3, 3),
        ("abilities.talents", 11, 11),
        ("abilities.skills", 7, 7),
        ("abilities.knowledges", 4, 4),  # Lore: Jedi 2 + Technology 1 + Battle 1
        ("merits", 3, 3),
        ("flaws", 6, 0),
    ]


@pytest.mark.parametrize(
    ("case", "edits", "expected"),
    [
        ("2", [("attr.dexterity", "5")], {("attributes_over_budget", "pool.attributes.physical")}),
        (
            "3",
            [("attr.strength", "1"), ("attr.dexterity", "5"), ("attr.stamina", "4")],
            {("attributes_over_budget", "pool.attributes.physical")},
        ),
        (
            "4",
            [("abil.acrobatics", "4"), ("abil.dodge", "2")],
            {("ability_above_creation_cap", "abil.acrobatics")},
        ),
        ("5", [("abil.melee", "3")], {("abilities_over_budget", "pool.abilities.skills")}),
        ("7", [("power", "2")], {("power_at_creation", "power")}),
    ],
)
def test_it_reports_the_digest_creation_errors(case, edits, expected):
    assert errors_of(edited(swd10.demo_sheet(), *edits)) == expected


def test_case_6_an_imported_willpower_off_wits_plus_one_is_an_error():
    # Edits keep Willpower on Wits + 1 at creation, so only a file can bring another value.
    sheet = swd10.validate_sheet(swd10.demo_sheet() | {"willpower": 4, "willpower_current": 4})
    assert errors_of(sheet) == {("willpower_at_creation", "willpower")}
    message = swd10.check(sheet, DEFAULTS).errors[0].message
    assert message == "Willpower is 4; at creation it equals Wits + 1 = 3."


def test_the_over_budget_message_names_the_numbers_and_the_source_line():
    report = swd10.check(edited(swd10.demo_sheet(), ("attr.dexterity", "5")), DEFAULTS)
    assert [v.message for v in report.errors] == [
        "Physical has 7 dots placed; as the primary group it allows 6. Remove 1."
    ]


def test_case_3_an_attribute_of_six_is_refused_at_the_edit():
    assert refusal(swd10.demo_sheet(), "attr.dexterity", "6") == (
        "Dexterity runs from 1 to 5; 6 is outside it."
    )


def test_a_blank_sheet_only_warns_about_dots_still_to_place():
    report = swd10.check(swd10.blank_sheet(DEFAULTS), DEFAULTS)
    assert report.ok
    assert {v.code for v in report.warnings} == {"attributes_left", "abilities_left", "no_language"}


def test_choosing_a_priority_swaps_it_with_the_group_that_had_it():
    sheet = edited(swd10.blank_sheet(DEFAULTS), ("prio.attributes.mental", "0"))
    assert sheet["priorities"]["attributes"] == ["mental", "social", "physical"]
    report = swd10.check(sheet, DEFAULTS)
    assert report.pool("attributes.mental").allowed == 6
    assert report.pool("attributes.physical").allowed == 3


def test_the_counting_first_dot_reading_charges_the_printed_dot_too():
    chosen = DEFAULTS | {"attribute_free_dot": False}
    assert swd10.check(swd10.blank_sheet(DEFAULTS), chosen).pool("attributes.physical").spent == 3


def test_case_8_merits_over_three_points_need_flaws_to_pay_for_them():
    sheet = edited(swd10.demo_sheet(), ("merit.add", "attentive"))
    assert errors_of(sheet) == {("merits_over_budget", "pool.merits")}
    sheet = edited(sheet, ("merit.add", "short"), ("merit.add", "speech_defect"))
    assert errors_of(sheet) == set()
    assert swd10.check(sheet, DEFAULTS).pool("merits").allowed == 5
    no_exchange = DEFAULTS | {"flaw_points_buy_merits": False}
    assert errors_of(sheet, no_exchange) == {("merits_over_budget", "pool.merits")}


def test_case_9_flaws_over_six_points_are_refused():
    sheet = edited(swd10.demo_sheet(), ("merit.add", "blind"))
    assert refusal(sheet, "merit.add", "shy") == (
        "Shy would bring flaws to 7 points; at most 6 are allowed."
    )


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        # Case 10: Master Negotiator without Adept Negotiator (L601).
        ("master_negotiator", "Master Negotiator needs the Adept Negotiator merit"),
        # Case 10: Force Intuition with Meditation 1 (L559).
        ("force_intuition", "Force Intuition needs Meditation 2; you have 1"),
        # Case 11: Power Recovery at Power 1 (L607).
        ("power_recovery", "Power Recovery needs Power 4; you have 1"),
        ("lightsaber_mastery", "“lightsaber_mastery” is not a merit or flaw of the SWd10"),
        ("acute_senses|4|sight", "Acute Senses costs 1-3 points, not 4."),
        ("acute_senses", "Acute Senses costs 1-3 points: choose how many."),
        ("ambidextrous", "The sheet already has Ambidextrous."),
        ("kel_dor", "Kel Dor"),
    ],
)
def test_a_merit_that_cannot_be_taken_is_refused_naming_why(raw, message):
    sheet = swd10.demo_sheet()
    assert message in refusal(sheet, "merit.add", raw)
    assert sheet == swd10.demo_sheet()


def test_a_droid_cannot_take_force_merits():
    sheet = edited(swd10.blank_sheet(DEFAULTS), ("merit.add", "droid"))
    assert "Droids cannot take Force merits such as Force Sensitivity" in refusal(
        sheet, "merit.add", "force_sensitivity"
    )


def test_a_race_merit_fits_its_species_and_brings_its_merits_free():
    sheet = edited(swd10.blank_sheet(DEFAULTS), ("info.species", "Zabrak"), ("merit.add", "zabrak"))
    assert swd10.owned_merits(sheet) == {"zabrak": 3, "attentive": 2, "toughness": 1}
    assert swd10.check(sheet, DEFAULTS).pool("merits").spent == 3


def test_force_abilities_need_force_sensitivity_and_the_pool():
    blank = edited(swd10.blank_sheet(DEFAULTS), ("fk.battle", "1"))
    message = refusal(blank, "fa.add", "battle_strike")
    assert "Battle strike needs the Force Sensitivity merit" in message
    assert "Battle strike needs a Battle pool of 5; yours is 2" in message


def test_case_14_inertia_needs_surge_first():
    sheet = edited(swd10.demo_sheet(), ("fk.battle", "2"))
    assert "Inertia needs the Surge ability" in refusal(sheet, "fa.add", "inertia")
    sheet = edited(sheet, ("fa.add", "surge"))
    assert "inertia" in edited(sheet, ("fa.add", "inertia"))["force_abilities"]
    assert "Remove Inertia first" in refusal(
        edited(sheet, ("fa.add", "inertia")), "fa.remove", "surge"
    )


def test_case_12_corruption_needs_dark_side_six_and_no_side_may_pass_power():
    sheet = in_play(swd10.demo_sheet())
    sheet = edited(sheet, ("power", "6"), ("side.dark", "4"), ("fk.battle", "3"))
    assert "Corruption needs Dark side 6; you have 4" in refusal(sheet, "fa.add", "corruption")
    sheet = edited(sheet, ("side.dark", "6"), ("fa.add", "corruption"))
    assert "corruption" in sheet["force_abilities"]
    sheet = edited(sheet, ("side.dark", "7"))
    assert ("side_above_power", "side.dark") in errors_of(sheet)


def test_more_force_abilities_than_dots_is_an_error_at_creation_only():
    sheet = edited(swd10.demo_sheet(), ("fa.add", "crucitorn"))
    assert errors_of(sheet) == {("force_abilities_over_dots", "fk.battle")}
    played = in_play(swd10.demo_sheet())
    played = edited(played, ("fa.add", "crucitorn"))
    assert errors_of(played) == set()
    assert "Extra Force ability (Battle extra): 3 XP" in [
        c.explanation for c in swd10.xp_spent(played, DEFAULTS)
    ]


def test_losing_force_sensitivity_breaks_owned_abilities():
    sheet = swd10.demo_sheet()
    index = [m["slug"] for m in sheet["merits"]].index("force_sensitivity")
    sheet = edited(sheet, (f"merit.{index}.remove", ""))
    codes = {(v.code, v.trait) for v in swd10.check(sheet, DEFAULTS).errors}
    assert ("force_ability_prerequisite", "fa.battle_strike") in codes
    assert ("force_knowledge_needs_sensitivity", "fk.battle") in codes


def test_a_lost_side_grade_is_a_warning_with_three_more_difficulty():
    sheet = in_play(swd10.demo_sheet())
    sheet = edited(sheet, ("power", "4"), ("side.light", "4"), ("fk.mind", "1"))
    sheet = edited(sheet, ("attr.charisma", "4"), ("fa.add", "enlighten"))
    sheet = edited(sheet, ("side.light", "2"))
    (warning,) = [v for v in swd10.check(sheet, DEFAULTS).warnings if v.trait == "fa.enlighten"]
    assert "+3 difficulty" in warning.message and warning.source == "L132"


def test_force_knowledges_come_from_the_knowledges_pool_or_only_from_xp():
    sheet = swd10.demo_sheet()
    assert errors_of(sheet) == set()
    xp_only = DEFAULTS | {"force_knowledges_at_creation": "xp_only"}
    assert ("force_knowledge_at_creation", "fk.battle") in errors_of(sheet, xp_only)


def test_techniques_beyond_the_dots_are_an_error_at_creation():
    sheet = edited(swd10.demo_sheet(), ("technique.add", "firearms|heavy_weapons"))
    assert errors_of(sheet) == {("techniques_over_dots", "abil.firearms")}
    assert "Name the kind of special weapons" in refusal(
        sheet, "technique.add", "melee|special_weapons"
    )
    assert "already has the Heavy weapons technique" in refusal(
        sheet, "technique.add", "firearms|heavy_weapons"
    )


def test_disfigured_and_monstrous_govern_appearance():
    sheet = edited(swd10.demo_sheet(), ("attr.appearance", "3"), ("merit.add", "disfigured"))
    assert ("disfigured_appearance", "attr.appearance") in errors_of(sheet)
    assert "Appearance runs from 1 to 2" in refusal(sheet, "attr.appearance", "3")
    monstrous = edited(swd10.demo_sheet(), ("merit.add", "monstrous"))
    assert ("monstrous_appearance", "attr.appearance") in errors_of(monstrous)
    monstrous = edited(monstrous, ("attr.appearance", "0"))
    assert not {c for c, _ in errors_of(monstrous)} & {"monstrous_appearance"}
    # The lost free dot is not charged to Social.
    assert swd10.check(monstrous, DEFAULTS).pool("attributes.social").spent == 3


def test_a_language_is_named_once_and_a_custom_lore_with_dots_needs_a_name():
    sheet = swd10.demo_sheet()
    assert refusal(sheet, "language.add", "basic") == "basic is already on the sheet."
    sheet = edited(sheet, ("abil.custom_lore_1", "1"), ("abil.technology", "0"))
    assert errors_of(sheet) == {("lore_needs_name", "abil.custom_lore_1")}
    sheet = edited(sheet, ("lorename.custom_lore_1", "Mandalorians"))
    assert errors_of(sheet) == set()
    rows = {row.key: row for row in swd10.trait_rows(sheet, DEFAULTS)}
    assert rows["abil.custom_lore_1"].label == "Lore: Mandalorians"
    assert swd10.trait_label("abil.custom_lore_1") == "Lore: (your own)"


@pytest.mark.parametrize(
    ("trait", "raw", "message"),
    [
        ("attr.wits", "three", "Wits: “three” is not a whole number."),
        ("attr.wits", "0", "Wits runs from 1 to 5; 0 is outside it."),
        ("abil.dodge", "-1", "Dodge runs from 0 to 5; -1 is outside it."),
        ("abil.lightsaber", "2", "“abil.lightsaber” is not a trait of a SWd10 sheet."),
        ("prio.attributes.cosmic", "0", "There is no attributes group called “cosmic”."),
        ("prio.abilities.skills", "3", "Skills priority: choose one of Primary, Secondary"),
        ("info.experience", "-5", "Experience runs from 0 to 100000; -5 is outside it."),
        ("info.player", "x" * 201, "Player is limited to 200 characters."),
        ("power", "11", "Power runs from 0 to 10; 11 is outside it."),
        ("power_current", "2", "Current Power runs from 0 to 1; 2 is outside it."),
        ("willpower_current", "2", "At creation current Willpower is full (3); it can be spent"),
        ("willpower", "4", "At creation Willpower is Wits + 1 (3); it follows Wits."),
        ("health", "8", "Health runs from 0 to 7; 8 is outside it."),
        ("language.9.read", "on", "There is no language number 10 on this sheet."),
        ("merit.0.value", "2", "Force Sensitivity costs 1 point, not 2."),
        ("weapon.0.difficulty", "11", "Heavy blaster pistol difficulty runs from 2 to 10"),
        ("fa.add", "sith_alchemy", "“sith_alchemy” is not a Force ability"),
        ("stage", "retired", "Stage: choose one of Creation, In play; “retired” is not one."),
    ],
)
def test_it_refuses_bad_edits_with_a_plain_message_and_leaves_the_sheet_alone(trait, raw, message):
    sheet = swd10.demo_sheet()
    assert message in refusal(sheet, trait, raw)
    assert sheet == swd10.demo_sheet()


# --- derived values ---------------------------------------------------------------------


def test_derived_values_follow_the_seed_formulas():
    derived = swd10.derived(swd10.demo_sheet(), DEFAULTS)
    assert derived["willpower_at_creation"] == 3  # Wits 2 + 1 (L296)
    assert (derived["walk_metres"], derived["run_metres"]) == (16.0, 32.0)  # Dex 4 (L212)
    assert derived["initiative_pool"] == 6  # Dex 4 + Wits 2 (L199)
    assert derived["force_pools"]["battle"] == 5  # max(Str 2, Dex 4) + 1 (L845)
    assert derived["alignment"] == "neutral"


@pytest.mark.parametrize(
    ("dexterity", "walk", "run"), [(1, 11.5, 23), (3, 14.5, 29), (5, 17.5, 35)]
)
def test_movement_is_twenty_plus_three_dexterity_halved(dexterity, walk, run):
    sheet = edited(swd10.blank_sheet(DEFAULTS), ("attr.dexterity", str(dexterity)))
    derived = swd10.derived(sheet, DEFAULTS)
    assert (derived["walk_metres"], derived["run_metres"]) == (walk, run)


@pytest.mark.parametrize(
    ("marked", "level", "penalty", "walk", "run"),
    [
        (0, None, 0, 16.0, 32.0),
        (2, "Hurt", -1, 16.0, 32.0),
        (4, "Wounded", -2, 16.0, None),  # can't run (L214)
        (6, "Crippled", -5, 1, None),  # 1 m per round (L214)
    ],
)
def test_health_sets_the_penalty_and_limits_movement(marked, level, penalty, walk, run):
    derived = swd10.derived(edited(swd10.demo_sheet(), ("health", str(marked))), DEFAULTS)
    assert (derived["health_level"] and derived["health_level"].name) == level or (
        level is None and derived["health_level"] is None
    )
    assert derived["wound_penalty"] == penalty
    assert (derived["walk_metres"], derived["run_metres"]) == (walk, run)


def test_the_health_track_depends_on_power_and_giant():
    hero = swd10.demo_sheet()
    assert len(swd10.health_track(hero, DEFAULTS)) == 7
    commoner = edited(hero, ("power", "0"))
    assert len(swd10.health_track(commoner, DEFAULTS)) == 4  # L98
    three = DEFAULTS | {"commoner_health_levels": 3}
    assert len(swd10.health_track(commoner, three)) == 3
    giant = edited(in_play(hero), ("merit.add", "giant"))
    assert [level.name for level in swd10.health_track(giant, DEFAULTS)][:2] == [
        "Bruised (Giant)",
        "Bruised",
    ]


def test_pain_resistance_ignores_wound_penalties():
    sheet = edited(in_play(swd10.demo_sheet()), ("merit.add", "pain_resistance"), ("health", "5"))
    assert swd10.derived(sheet, DEFAULTS)["wound_penalty"] == 0


@pytest.mark.parametrize(
    ("light", "dark", "standing"),
    [(3, 5, "dark"), (5, 3, "neutral"), (6, 3, "light"), (4, 5, "neutral")],
)
def test_the_light_and_dark_standing_uses_the_seeds_thresholds(light, dark, standing):
    sheet = edited(in_play(swd10.demo_sheet()), ("power", "10"))
    sheet = edited(sheet, ("side.light", str(light)), ("side.dark", str(dark)))
    assert swd10.derived(sheet, DEFAULTS)["alignment"] == standing


def test_force_intuition_makes_initiative_dexterity_plus_charisma():
    sheet = edited(in_play(swd10.demo_sheet()), ("abil.meditation", "2"))
    sheet = edited(sheet, ("merit.add", "force_intuition"))
    derived = swd10.derived(sheet, DEFAULTS)
    assert (derived["initiative_with"], derived["initiative_pool"]) == ("Charisma", 7)


# --- experience (L306-322) --------------------------------------------------------------


def test_case_15_the_digest_spend_costs_44_xp():
    sheet = in_play(swd10.demo_sheet(), experience=44)
    sheet = edited(
        sheet,
        ("attr.dexterity", "5"),  # 20
        ("abil.stealth", "2"),  # 3 + 4
        ("willpower", "4"),  # 4
        ("merit.add", "eidetic_memory"),  # 6
        ("fa.add", "crucitorn"),  # 3, beyond Battle's one dot
        ("language.add", "Bocce"),
        ("language.2.write", "on"),  # 2 + 2
    )
    assert sum(c.amount for c in swd10.xp_spent(sheet, DEFAULTS)) == 44
    report = swd10.check(sheet, DEFAULTS)
    assert report.ok
    assert (report.pool("xp").allowed, report.pool("xp").spent) == (44, 44)
    short = edited(sheet, ("info.experience", "40"))
    assert errors_of(short) == {("xp_over_budget", "pool.xp")}


def test_in_play_a_trait_cannot_drop_below_its_creation_value():
    sheet = in_play(swd10.demo_sheet())
    assert "was 4 when creation ended" in refusal(sheet, "attr.dexterity", "3")
    assert "Willpower was 3 when creation ended" in refusal(sheet, "willpower", "2")
    raised = edited(sheet, ("attr.dexterity", "5"))
    assert "XP has been spent since creation ended" in refusal(raised, "stage", "creation")
    assert edited(sheet, ("stage", "creation"))["baseline"] is None


def test_swse_transfer_adds_level_times_seventeen():
    sheet = edited(in_play(swd10.demo_sheet(), experience=0), ("swse_level", "8"))
    assert swd10.derived(sheet, DEFAULTS)["swse_transfer_xp"] == 136  # L1320
    assert swd10.check(sheet, DEFAULTS).pool("xp").allowed == 136


@pytest.mark.parametrize(
    ("trait", "start", "end", "amount", "explanation"),
    [
        ("attr.intelligence", 2, 4, 28, "Intelligence 2 → 4: 12 + 16 = 28 XP"),
        ("attr.strength", 1, 5, 56, "Strength 1 → 5: 8 + 12 + 16 + 20 = 56 XP"),
        ("abil.stealth", 0, 1, 3, "Stealth 0 → 1: new ability = 3 XP"),
        ("abil.stealth", 0, 5, 31, "Stealth 0 → 5: 3 + 4 + 6 + 8 + 10 = 31 XP"),
        ("fk.battle", 2, 4, 14, "Battle 2 → 4: 6 + 8 = 14 XP"),
        ("willpower", 3, 5, 9, "Willpower 3 → 5: 4 + 5 = 9 XP"),
    ],
)
def test_raises_cost_the_seed_xp_prices(trait, start, end, amount, explanation):
    # At creation Willpower follows Wits (L296): reach its start through Wits.
    setup = ("attr.wits", str(start - 1)) if trait == "willpower" else (trait, str(start))
    sheet = edited(swd10.blank_sheet(DEFAULTS), setup)
    cost = swd10.advance_cost(sheet, trait, end, DEFAULTS)
    assert (cost.amount, cost.explanation) == (amount, explanation)


def test_the_first_force_knowledge_dot_price_is_a_reading():
    sheet = swd10.blank_sheet(DEFAULTS)
    assert swd10.advance_cost(sheet, "fk.mind", 1, DEFAULTS).amount == 3
    two = DEFAULTS | {"force_knowledge_first_dot_xp": 2}
    assert swd10.advance_cost(sheet, "fk.mind", 1, two).amount == 2


def test_rows_price_one_more_dot_of_every_raisable_trait():
    rows = {row.key: row for row in swd10.trait_rows(swd10.demo_sheet(), DEFAULTS)}
    assert rows["attr.dexterity"].next_cost.amount == 20
    assert rows["abil.stealth"].next_cost.amount == 3
    assert rows["fk.battle"].next_cost.amount == 4
    assert rows["willpower"].next_cost.amount == 4
    priced = [row for row in rows.values() if row.next_cost is not None]
    assert len(priced) == len(ATTRIBUTES) + len(ABILITIES) + 6 + 1


# --- import -----------------------------------------------------------------------------


def test_validate_sheet_round_trips_sheets_in_both_stages():
    assert swd10.validate_sheet(swd10.demo_sheet()) == swd10.demo_sheet()
    played = edited(in_play(swd10.demo_sheet()), ("attr.dexterity", "5"))
    assert swd10.validate_sheet(played) == played


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"spells": {}}, "spells: is not part of this sheet"),
        ({"attributes": {"wits": 9}}, "attributes.wits: expected a whole number from 1 to 5"),
        ({"abilities": {"dodge": "2"}}, "abilities.dodge: expected a whole number from 0 to 5"),
        ({"merits": [{"slug": "blind", "value": 6}, {"slug": "shy", "value": 1}]}, "more than 6"),
        ({"merits": [{"slug": "jedi", "value": 1}]}, "merits.0.slug: expected one of"),
        ({"force_abilities": ["battle_strike", "battle_strike"]}, "listed twice"),
        ({"languages": [{"name": "Basic"}, {"name": "basic"}]}, "already on the sheet"),
        ({"stage": "play", "baseline": None}, "needs its creation baseline"),
        ({"priorities": {"attributes": ["social", "social", "mental"]}}, "once each"),
    ],
)
def test_validate_sheet_refuses_what_an_edit_would_refuse(change, message):
    with pytest.raises(InvalidSheet, match=message):
        swd10.validate_sheet(swd10.demo_sheet() | change)


def test_validate_sheet_refuses_what_is_not_a_sheet():
    with pytest.raises(InvalidSheet, match="JSON object"):
        swd10.validate_sheet([1, 2])


# --- invariants -------------------------------------------------------------------------

attribute_traits = st.sampled_from([f"attr.{t.slug}" for t in ATTRIBUTES])
ability_traits = st.sampled_from([f"abil.{t.slug}" for t in ABILITIES])


@given(st.one_of(attribute_traits, ability_traits), st.integers(0, 5))
def test_raising_then_lowering_a_trait_restores_every_budget(trait, value):
    sheet = swd10.demo_sheet()
    section = "attributes" if trait.startswith("attr.") else "abilities"
    original = sheet[section][trait.partition(".")[2]]
    value = max(value, 1) if section == "attributes" else value
    before = [(p.key, p.spent) for p in swd10.check(sheet, DEFAULTS).pools]
    restored = edited(sheet, (trait, str(value)), (trait, str(original)))
    assert [(p.key, p.spent) for p in swd10.check(restored, DEFAULTS).pools] == before


@given(st.one_of(attribute_traits, ability_traits), st.integers(0, 4), st.integers(0, 5))
def test_a_raise_never_costs_less_than_nothing_and_steps_add_up(trait, start, extra):
    section = "attributes" if trait.startswith("attr.") else "abilities"
    start = max(start, 1) if section == "attributes" else start
    end = min(start + extra, 5)
    sheet = edited(swd10.blank_sheet(DEFAULTS), (trait, str(start)))
    whole = swd10.advance_cost(sheet, trait, end, DEFAULTS)
    assert whole.amount >= 0
    by_steps, current = 0, sheet
    for value in range(start + 1, end + 1):
        by_steps += swd10.advance_cost(current, trait, value, DEFAULTS).amount
        current = edited(current, (trait, str(value)))
    assert by_steps == whole.amount


purchases = st.lists(
    st.sampled_from(
        [
            ("attr.strength", "3"),
            ("attr.wits", "4"),
            ("abil.stealth", "2"),
            ("abil.survival", "1"),
            ("fk.mind", "2"),
            ("willpower", "5"),
            ("merit.add", "eidetic_memory"),
            ("merit.add", "time_sense"),
            ("language.add", "Shyriiwook"),
        ]
    ),
    unique=True,
)


@settings(max_examples=60, deadline=None)
@given(purchases, st.randoms(use_true_random=False))
def test_the_order_of_purchases_does_not_change_the_xp_spent(chosen, rng):
    start = in_play(swd10.demo_sheet())
    in_order = edited(start, *chosen)
    shuffled = list(chosen)
    rng.shuffle(shuffled)
    reordered = edited(start, *shuffled)
    total = sum(c.amount for c in swd10.xp_spent(in_order, DEFAULTS))
    assert total == sum(c.amount for c in swd10.xp_spent(reordered, DEFAULTS))
    assert all(c.amount >= 0 for c in swd10.xp_spent(in_order, DEFAULTS))


@settings(max_examples=60, deadline=None)
@given(st.one_of(attribute_traits, ability_traits), st.integers(1, 3))
def test_in_play_raising_then_lowering_gives_the_xp_back(trait, steps):
    sheet = in_play(swd10.demo_sheet())
    section = "attributes" if trait.startswith("attr.") else "abilities"
    current = sheet[section][trait.partition(".")[2]]
    target = min(5, current + steps)
    raised = edited(sheet, (trait, str(target)))
    restored = edited(raised, (trait, str(current)))
    assert swd10.xp_spent(restored, DEFAULTS) == []
    assert swd10.check(restored, DEFAULTS).pool("xp").spent == 0
