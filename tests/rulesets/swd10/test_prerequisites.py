"""Prerequisites of merits and Force abilities, light/dark classification and the Force pool.

Rows cite seeds/000_0413f1179ca9c507.txt as L<n>; "case N" is the digest's §8 test case.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.swd10.data import (
    FORCE_ABILITIES,
    FORCE_KNOWLEDGES,
    MERIT_BY_SLUG,
    MERITS,
)
from rulesets.swd10.prerequisites import (
    Alignment,
    TraitView,
    abilities_per_tree,
    activation_difficulty,
    classification,
    counts_as_dark,
    force_pool,
    lost_side_warning,
    merits_granted_by_race,
    sides_above_power,
    trait_label,
    unmet_force_ability_prerequisites,
    unmet_merit_prerequisites,
)

# The digest's base character B (§8): a Human with Force Sensitivity and Battle strike.
BASE = TraitView(
    attributes={
        "strength": 2, "dexterity": 4, "stamina": 3,
        "charisma": 3, "manipulation": 2, "appearance": 2,
        "perception": 2, "intelligence": 2, "wits": 2,
    },
    abilities={
        "alertness": 2, "athletics": 2, "acrobatics": 3, "brawl": 1, "dodge": 3,
        "firearms": 2, "melee": 2, "pilot": 2, "meditation": 1,
        "lore_jedi": 2, "technology": 1,
    },
    force_knowledges={"battle": 1},
    power=1,
    willpower=3,
    light_side=1,
    dark_side=0,
    merits={"force_sensitivity": 1, "ambidextrous": 1, "cat_like_balance": 1},
    force_abilities=frozenset({"battle_strike"}),
    species="Human",
)  # fmt: skip


def with_(view: TraitView = BASE, **changes) -> TraitView:
    """Return the view with some mappings updated key by key, others replaced."""
    merged = {}
    for name, value in changes.items():
        current = getattr(view, name)
        merged[name] = {**current, **value} if isinstance(current, dict) else value
    return replace(view, **merged)


def owning(*merits: str, view: TraitView = BASE) -> TraitView:
    return with_(view, merits={slug: MERIT_BY_SLUG[slug].values[0] for slug in merits})


# --- §8 case 1: the base character buys legally -------------------------------------------


def test_the_base_character_meets_the_prerequisites_of_everything_it_owns():
    for slug in BASE.merits:
        assert unmet_merit_prerequisites(slug, BASE) == [], slug
    assert unmet_force_ability_prerequisites("battle_strike", BASE) == []
    assert force_pool("battle", BASE) == 5  # max(2, 4) + 1, L845


# --- §8 cases 10-14 -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("merit", "view", "expected"),
    [
        pytest.param(
            "master_negotiator", BASE,
            ["Master Negotiator needs the Adept Negotiator merit"],
            id="case 10: Master Negotiator without Adept Negotiator",
        ),
        pytest.param(
            "master_negotiator", owning("adept_negotiator"), [],
            id="case 10: Master Negotiator with Adept Negotiator",
        ),
        pytest.param(
            "force_intuition", BASE,
            ["Force Intuition needs Meditation 2; you have 1"],
            id="case 10: Force Intuition with Meditation 1",
        ),
        pytest.param(
            "power_recovery", BASE,
            ["Power Recovery needs Power 4; you have 1"],
            id="case 11: Power Recovery at creation, Power 1",
        ),
    ],
)  # fmt: skip
def test_merit_prerequisites_of_the_digest_cases(merit, view, expected):
    assert unmet_merit_prerequisites(merit, view) == expected


AFTER_CREATION = with_(power=6, dark_side=4, force_knowledges={"battle": 3})


@pytest.mark.parametrize(
    ("ability", "view", "expected"),
    [
        pytest.param(
            "corruption", AFTER_CREATION,
            ["Corruption needs Dark side 6; you have 4"],
            id="case 12: Corruption at DS 4",
        ),
        pytest.param(
            "corruption", with_(AFTER_CREATION, dark_side=6), [],
            id="case 12: Corruption at DS 6, pool 7",
        ),
        pytest.param(
            "battle_strike",
            with_(attributes={"dexterity": 2}, force_knowledges={"battle": 2}),
            ["Battle strike needs a Battle pool of 5; yours is 4 "
             "(Strength 2 + Battle 2)"],
            id="case 13: Battle strike with pool 4",
        ),
        pytest.param(
            "battle_strike",
            with_(attributes={"dexterity": 3}, force_knowledges={"battle": 2}), [],
            id="case 13: Battle strike with pool 5",
        ),
        pytest.param(
            "inertia", with_(force_knowledges={"battle": 2}),
            ["Inertia needs the Surge ability"],
            id="case 14: Inertia without Surge",
        ),
        pytest.param(
            "inertia",
            with_(force_knowledges={"battle": 2},
                  force_abilities=frozenset({"battle_strike", "surge"})),
            [],
            id="case 14: Inertia with Surge",
        ),
        pytest.param(
            "redirect_shot", with_(force_knowledges={"swordplay": 1}),
            ["Redirect shot needs the Deflect ability"],
            id="case 14: Redirect shot without Deflect",
        ),
    ],
)  # fmt: skip
def test_force_ability_prerequisites_of_the_digest_cases(ability, view, expected):
    assert unmet_force_ability_prerequisites(ability, view) == expected


def test_case_12_dark_side_above_power_is_named():
    view = with_(AFTER_CREATION, dark_side=7)
    assert sides_above_power(view) == [
        "Dark side 7 is above Power 6; neither side may exceed Power"
    ]
    assert sides_above_power(with_(AFTER_CREATION, dark_side=6)) == []


def test_light_side_above_power_is_named_too():
    assert sides_above_power(with_(light_side=2)) == [
        "Light side 2 is above Power 1; neither side may exceed Power"
    ]


# --- §8 extra cases -----------------------------------------------------------------------


def test_extra_case_force_abilities_need_force_sensitivity():
    view = replace(BASE, merits={"ambidextrous": 1})
    assert unmet_force_ability_prerequisites("battle_strike", view) == [
        "Battle strike needs the Force Sensitivity merit"
    ]


def test_extra_case_a_droid_cannot_take_force_sensitivity():
    droid = replace(BASE, merits={"droid": 1, "force_sensitivity": 1})
    assert unmet_merit_prerequisites("force_sensitivity", droid) == [
        "Droids cannot take Force merits such as Force Sensitivity"
    ]
    assert "Droids cannot use Force abilities such as Battle strike" in (
        unmet_force_ability_prerequisites("battle_strike", droid)
    )


def test_extra_case_two_battle_abilities_outnumber_one_battle_dot():
    view = with_(force_abilities=frozenset({"battle_strike", "crucitorn"}))
    counts = abilities_per_tree(view)
    assert counts["battle"] == 2 > view.force_knowledges["battle"]
    assert sum(counts.values()) == 2


@pytest.mark.parametrize(
    ("light", "dark", "expected"),
    [
        pytest.param(3, 5, Alignment.DARK, id="LS 3 / DS 5 is dark"),
        pytest.param(5, 3, Alignment.NEUTRAL, id="LS 5 / DS 3 is neutral"),
        pytest.param(6, 3, Alignment.LIGHT, id="LS 6 / DS 3 is light"),
        pytest.param(4, 5, Alignment.NEUTRAL, id="LS 4 / DS 5 is neutral"),
        pytest.param(0, 0, Alignment.NEUTRAL, id="LS 0 / DS 0 is neutral"),
        pytest.param(0, 2, Alignment.DARK, id="LS 0 / DS 2 is dark"),
        pytest.param(3, 0, Alignment.LIGHT, id="LS 3 / DS 0 is light"),
    ],
)
def test_classification_uses_the_asymmetric_thresholds(light, dark, expected):
    assert classification(light, dark) == expected
    assert classification(light, dark) == expected.value  # plain strings compare too


@given(st.integers(0, 10), st.integers(0, 10), st.integers(-10, 10))
def test_classification_depends_only_on_the_lead(light, dark, shift):
    if min(light, dark) + shift >= 0:
        assert classification(light, dark) == classification(light + shift, dark + shift)


# --- one test per merit prerequisite kind -------------------------------------------------


def test_an_attribute_prerequisite_names_the_attribute_and_both_numbers():
    view = with_(attributes={"strength": 3}, abilities={"melee": 3})
    assert unmet_merit_prerequisites("juyo", view) == ["Juyo needs Melee 4; you have 3"]
    weak = with_(attributes={"strength": 2, "dexterity": 3}, abilities={"melee": 4})
    assert unmet_merit_prerequisites("juyo", weak) == [
        "Juyo needs Strength 3; you have 2",
        "Juyo needs Dexterity 4; you have 3",
    ]


def test_an_ability_prerequisite_reads_computers_as_the_sheets_computer():
    droid = with_(owning("droid"), power=5, abilities={"computer": 2})
    assert unmet_merit_prerequisites("intellectual_fight", droid) == [
        "Intellectual Fight needs Computer 3; you have 2"
    ]


def test_a_power_prerequisite_lists_every_shortfall_at_once():
    assert unmet_merit_prerequisites("serenity", BASE) == [
        "Serenity needs Meditation 4; you have 1",
        "Serenity needs Power 6; you have 1",
    ]


def test_a_willpower_prerequisite_compares_permanent_willpower():
    droid = owning("droid")
    assert unmet_merit_prerequisites("protection_from_reprogramming", droid) == [
        "Protection from Reprogramming needs Willpower 4; you have 3"
    ]
    assert (
        unmet_merit_prerequisites("protection_from_reprogramming", with_(droid, willpower=4)) == []
    )


def test_a_merit_prerequisite_follows_the_armor_chain():
    assert unmet_merit_prerequisites("armor_master", BASE) == [
        "Armor Master needs the Armor Proficiency merit"
    ]
    view = owning("armor_proficiency", "armor_master")
    assert unmet_merit_prerequisites("armored_protection", view) == []
    assert unmet_merit_prerequisites("improved_armored_protection", view) == [
        "Improved Armored Protection needs the Armored Protection merit"
    ]


def test_a_force_merit_needs_force_sensitivity_even_where_only_l571_implies_it():
    view = with_(attributes={"dexterity": 3}, abilities={"acrobatics": 3})
    view = replace(view, merits={})
    assert unmet_merit_prerequisites("ataru", view) == ["Ataru needs the Force Sensitivity merit"]
    assert unmet_merit_prerequisites("ataru", owning("force_sensitivity", view=view)) == []


def test_force_perception_cites_its_own_requirement_line_for_force_sensitivity():
    view = replace(with_(power=4), merits={})
    assert unmet_merit_prerequisites("force_perception", view) == [
        "Force Perception needs the Force Sensitivity merit"
    ]


def test_a_droid_merit_needs_the_droid_merit_or_flag():
    view = with_(power=2)
    assert unmet_merit_prerequisites("humanity", view) == [
        "Humanity is for droids only: it needs the Droid merit"
    ]
    assert unmet_merit_prerequisites("humanity", owning("droid", view=view)) == []
    assert unmet_merit_prerequisites("humanity", replace(view, is_droid=True)) == []


def test_a_droid_cannot_take_a_force_merit():
    droid = owning("droid")
    assert "Droids cannot take Force merits such as Link" in unmet_merit_prerequisites(
        "link", droid
    )


@pytest.mark.parametrize(
    ("species", "met"),
    [("Kel Dor", True), ("kel dor", True), ("Kel-Dor", True), ("Human", False), ("", False)],
)
def test_a_race_merit_fits_only_its_own_species(species, met):
    messages = unmet_merit_prerequisites("kel_dor", replace(BASE, species=species))
    assert (messages == []) is met
    if species == "Human":
        assert messages == ["Kel Dor is only for Kel Dor characters; the species is Human"]
    if species == "":
        assert messages == ["Kel Dor is only for Kel Dor characters; no species is set"]


def test_twi_lek_matches_however_the_apostrophe_is_typed():
    assert unmet_merit_prerequisites("twi_lek", replace(BASE, species="Twilek")) == []


def test_race_merits_grant_their_merits_for_free():
    assert merits_granted_by_race({"kel_dor": 3, "ambidextrous": 1}) == {
        "twilight_vision": 1,
        "attuned_to_the_force": 2,
    }
    assert merits_granted_by_race({"ambidextrous": 1}) == {}


# --- chosen parameters --------------------------------------------------------------------


def test_ability_deficit_needs_a_dot_in_the_chosen_ability():
    assert unmet_merit_prerequisites("ability_deficit", BASE, choice="stealth") == [
        "Ability Deficit needs at least 1 dot in Stealth; you have 0"
    ]
    assert unmet_merit_prerequisites("ability_deficit", BASE, choice="pilot") == []


def test_a_parameterised_merit_without_a_choice_asks_for_one():
    assert unmet_merit_prerequisites("ability_deficit", BASE) == [
        "Ability Deficit needs an ability chosen"
    ]


def test_choices_recorded_on_the_view_are_checked_when_none_is_passed():
    view = with_(merit_choices={"ability_aptitude": ("pilot", "computer")})
    assert unmet_merit_prerequisites("ability_aptitude", view) == []
    deficit = with_(merit_choices={"ability_deficit": ("lore_sith",)})
    assert unmet_merit_prerequisites("ability_deficit", deficit) == [
        "Ability Deficit needs at least 1 dot in Lore: Sith; you have 0"
    ]


def test_master_force_knowledge_needs_a_dot_in_the_chosen_tree():
    assert unmet_merit_prerequisites("master_force_knowledge", BASE, choice="battle") == []
    assert unmet_merit_prerequisites("master_force_knowledge", BASE, choice="mind") == [
        'Master "Force Knowledge" needs at least 1 dot in Mind; you have 0'
    ]
    assert unmet_merit_prerequisites("master_force_knowledge", BASE, choice="cooking") == [
        'Master "Force Knowledge": “cooking” is not a Force knowledge'
    ]


def test_master_force_ability_needs_the_chosen_ability_owned():
    assert unmet_merit_prerequisites("master_force_ability", BASE, choice="battle_strike") == []
    assert unmet_merit_prerequisites("master_force_ability", BASE, choice="surge") == [
        "Master Force Ability needs Surge among your Force abilities"
    ]


@pytest.mark.parametrize(
    ("merit", "choice", "expected"),
    [
        ("acute_senses", "sight", []),
        ("acute_senses", "sixth", ["Acute Senses: “sixth” is not a sense "
                                   "(sight, hearing, smell, taste, touch)"]),
        ("armor_proficiency", "medium", []),
        ("armor_proficiency", "power", ["Armor Proficiency: “power” is not an armor class "
                                        "(light, medium, heavy)"]),
    ],
)  # fmt: skip
def test_a_sense_or_armor_class_must_be_one_the_seed_names(merit, choice, expected):
    assert unmet_merit_prerequisites(merit, BASE, choice=choice) == expected


def test_acute_senses_at_three_points_covers_every_sense_without_a_choice():
    assert unmet_merit_prerequisites("acute_senses", with_(merits={"acute_senses": 3})) == []
    assert unmet_merit_prerequisites("acute_senses", with_(merits={"acute_senses": 1})) == [
        "Acute Senses needs a sense chosen"
    ]


def test_weak_sense_cannot_share_a_sense_with_acute_senses():
    view = with_(merits={"acute_senses": 1}, merit_choices={"acute_senses": ("sight",)})
    assert unmet_merit_prerequisites("weak_sense", view, choice="sight") == [
        "Weak Sense cannot name the same sight as Acute Senses"
    ]
    assert unmet_merit_prerequisites("weak_sense", view, choice="smell") == []
    every_sense = with_(merits={"acute_senses": 3})
    assert unmet_merit_prerequisites("weak_sense", every_sense, choice="smell") == [
        "Weak Sense cannot be taken beside Acute Senses for every sense"
    ]


# --- one test per Force ability prerequisite kind ------------------------------------------


def test_a_force_ability_needs_a_dot_in_its_tree_even_when_the_pool_is_met():
    view = with_(attributes={"dexterity": 5}, force_knowledges={"battle": 0})
    assert force_pool("battle", view) == 5
    assert unmet_force_ability_prerequisites("battle_strike", view) == [
        "Battle strike needs at least 1 dot in Battle"
    ]


def test_a_light_side_grade_is_compared_with_the_light_side():
    view = with_(power=4, light_side=3, attributes={"charisma": 3}, force_knowledges={"mind": 2})
    assert unmet_force_ability_prerequisites("enlighten", view) == [
        "Enlighten needs Light side 4; you have 3"
    ]
    assert unmet_force_ability_prerequisites("enlighten", with_(view, light_side=4)) == []


def test_an_ability_without_a_roll_line_checks_only_the_tree_and_the_force():
    assert unmet_force_ability_prerequisites("surge", BASE) == []
    assert unmet_force_ability_prerequisites("deflect", BASE) == [
        "Deflect needs at least 1 dot in Swordplay"
    ]


def test_every_failing_force_prerequisite_is_listed_at_once():
    nobody = TraitView()
    assert unmet_force_ability_prerequisites("memory_walk", nobody) == [
        "Memory walk needs the Force Sensitivity merit",
        "Memory walk needs at least 1 dot in Mind",
        "Memory walk needs a Mind pool of 9; yours is 1 (Charisma 1 + Mind 0)",
        "Memory walk needs Dark side 8; you have 0",
    ]


@pytest.mark.parametrize("knowledge", FORCE_KNOWLEDGES, ids=lambda k: f"{k.slug} {k.source}")
def test_the_force_pool_takes_the_better_of_the_two_attributes(knowledge):
    first, second = knowledge.attributes
    low_first = TraitView(attributes={first: 2, second: 4}, force_knowledges={knowledge.slug: 3})
    low_second = TraitView(attributes={first: 5, second: 1}, force_knowledges={knowledge.slug: 1})
    assert force_pool(knowledge.slug, low_first) == 7
    assert force_pool(knowledge, low_second) == 6


def test_the_mind_pool_reads_charisma_and_manipulation_as_the_better_of_the_two():
    view = TraitView(attributes={"charisma": 1, "manipulation": 4}, force_knowledges={"mind": 1})
    assert force_pool("mind", view) == 5  # not 1 + 4 + 1 (L933 read through L845)


# --- losing a side grade after purchase (L132) and light/dark difficulty (L130) ------------

DARK_LORD = with_(
    power=8, dark_side=6, light_side=0, force_knowledges={"battle": 3},
    force_abilities=frozenset({"battle_strike", "corruption"}),
)  # fmt: skip


def test_losing_the_dark_side_grade_warns_of_plus_three_difficulty():
    assert lost_side_warning("corruption", DARK_LORD) is None
    assert lost_side_warning("corruption", with_(DARK_LORD, dark_side=5)) == (
        "Corruption needs Dark side 6 and you now have 5: it activates at +3 difficulty and "
        "without the Dark side bonus"
    )
    assert lost_side_warning("battle_strike", with_(DARK_LORD, dark_side=0)) is None


@pytest.mark.parametrize(
    ("ability", "view", "difficulty"),
    [
        pytest.param("battle_strike", BASE, 6, id="neutral, untagged: 6"),
        pytest.param("corruption", DARK_LORD, 4, id="dark character, (D) ability: -2"),
        pytest.param(
            "corruption", with_(DARK_LORD, dark_side=5, light_side=0), 9,
            id="grade lost: +3 and no bonus",
        ),
        pytest.param(
            "enlighten", with_(power=6, light_side=6, dark_side=0), 5,
            id="light character, (L) ability: -1",
        ),
        pytest.param(
            "enlighten", with_(power=6, light_side=4, dark_side=6), 10,
            id="dark character, (L) ability: +4",
        ),
        pytest.param(
            "vornskrs_ferocity", DARK_LORD, 4, id="Vornskr's ferocity counts as Dark",
        ),
        pytest.param(
            "vornskrs_ferocity", owning("juyo", view=DARK_LORD), 6,
            id="with Juyo it is not Dark",
        ),
    ],
)  # fmt: skip
def test_activation_difficulty_follows_the_light_and_dark_modifiers(ability, view, difficulty):
    assert activation_difficulty(ability, view) == difficulty


def test_tempered_aggression_is_not_dark_for_a_vaapad_user():
    assert counts_as_dark("tempered_aggression", BASE)
    assert not counts_as_dark("tempered_aggression", owning("vaapad"))  # L1300
    assert not counts_as_dark("battle_strike", BASE)


def test_trait_labels_use_the_sheets_names():
    assert trait_label("lore_jedi") == "Lore: Jedi"
    assert trait_label("animal_ken") == "Animal ken"
    assert trait_label("computer") == "Computer"


# --- invariants ---------------------------------------------------------------------------

ATTRIBUTE_SLUGS = [
    "strength", "dexterity", "stamina", "charisma", "manipulation", "appearance",
    "perception", "intelligence", "wits",
]  # fmt: skip
CHECKED_ABILITIES = ["acrobatics", "meditation", "melee", "computer", "repair", "pilot", "firearms"]

views = st.builds(
    TraitView,
    attributes=st.fixed_dictionaries({a: st.integers(1, 5) for a in ATTRIBUTE_SLUGS}),
    abilities=st.fixed_dictionaries({a: st.integers(0, 5) for a in CHECKED_ABILITIES}),
    force_knowledges=st.fixed_dictionaries({k.slug: st.integers(0, 5) for k in FORCE_KNOWLEDGES}),
    power=st.integers(0, 10),
    willpower=st.integers(1, 10),
    light_side=st.integers(0, 10),
    dark_side=st.integers(0, 10),
    merits=st.sampled_from([{}, {"force_sensitivity": 1}, {"droid": 1}]),
)


def _raised(view: TraitView) -> TraitView:
    return replace(
        view,
        attributes={k: v + 1 for k, v in view.attributes.items()},
        abilities={k: v + 1 for k, v in view.abilities.items()},
        force_knowledges={k: v + 1 for k, v in view.force_knowledges.items()},
        power=view.power + 1,
        willpower=view.willpower + 1,
        light_side=view.light_side + 1,
        dark_side=view.dark_side + 1,
    )


@given(views, st.sampled_from([m for m in MERITS if m.choice is None]))
def test_raising_traits_never_adds_an_unmet_merit_prerequisite(view, merit):
    before = len(unmet_merit_prerequisites(merit, view))
    assert len(unmet_merit_prerequisites(merit, _raised(view))) <= before


@given(views, st.sampled_from(FORCE_ABILITIES))
def test_raising_traits_never_adds_an_unmet_force_ability_prerequisite(view, ability):
    before = len(unmet_force_ability_prerequisites(ability, view))
    assert len(unmet_force_ability_prerequisites(ability, _raised(view))) <= before


@given(views)
def test_a_merit_without_requirements_is_always_allowed(view):
    free = [m for m in MERITS if not m.requirements and m.choice is None]
    assert free
    assert all(unmet_merit_prerequisites(m, view) == [] for m in free)
