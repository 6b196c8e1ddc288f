"""The SWd10 catalogs hold every merit, flaw, Force ability and technique the seed prints.

Rows cite seeds/000_0413f1179ca9c507.txt as L<n> and the digest rules/swd10.md §5.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rulesets.swd10.data import (
    FIREARMS_TECHNIQUES,
    FORCE_ABILITIES,
    FORCE_ABILITIES_BY_TREE,
    FORCE_ABILITY_BY_SLUG,
    FORCE_KNOWLEDGE_BY_SLUG,
    FORCE_KNOWLEDGES,
    MELEE_TECHNIQUES,
    MERIT_BY_SLUG,
    MERITS,
    Category,
    ChoiceKind,
    Kind,
    Need,
    Side,
    Tag,
)

ATTRIBUTES = {
    "strength", "dexterity", "stamina", "charisma", "manipulation", "appearance",
    "perception", "intelligence", "wits",
}  # fmt: skip
ABILITIES = {
    "alertness", "athletics", "acrobatics", "brawl", "dodge", "empathy", "expression",
    "intimidation", "leadership", "persuasion", "subterfuge", "animal_ken", "appraise",
    "astrogate", "crafts", "computer", "demolition", "diplomacy", "disguise", "enigmas",
    "firearms", "gamble", "investigation", "medicine", "meditation", "melee", "performance",
    "pilot", "repair", "ride", "security", "stealth", "survival", "business", "engineering",
    "history", "politics", "science", "streetwise", "tactics", "technology", "lore_jedi",
    "lore_planets", "lore_sith", "lore_species", "lore_wilderness",
}  # fmt: skip
LINE = re.compile(r"^L\d+(-\d+)?$")


# --- sanity: counts, slugs, sources -------------------------------------------------------


def test_it_lists_73_merits_and_28_flaws():
    kinds = Counter(m.kind for m in MERITS)
    assert kinds[Kind.MERIT] == 73
    assert kinds[Kind.FLAW] == 28


@pytest.mark.parametrize(
    ("category", "merits", "flaws"),
    [
        (Category.PHYSICAL, 9, 14),  # L326-420
        (Category.MENTAL, 5, 9),  # L422-489
        (Category.SOCIAL, 2, 4),  # L491-517
        (Category.FORCE, 23, 0),  # L519-639
        (Category.RACE, 3, 0),  # L641-653
        (Category.DROID, 10, 0),  # L655-717
        (Category.APTITUDES, 21, 1),  # L719-839
    ],
)
def test_each_category_holds_the_merits_and_flaws_the_seed_prints(category, merits, flaws):
    kinds = Counter(m.kind for m in MERITS if m.category is category)
    assert (kinds[Kind.MERIT], kinds[Kind.FLAW]) == (merits, flaws)


def test_it_lists_72_force_abilities_split_11_12_9_14_15_11_over_the_trees():
    assert len(FORCE_ABILITIES) == 72
    counts = {tree: len(abilities) for tree, abilities in FORCE_ABILITIES_BY_TREE.items()}
    assert counts == {
        "battle": 11,  # L865-931
        "mind": 12,  # L932-1015
        "nature": 9,  # L1016-1083
        "telekinetic": 14,  # L1084-1171
        "transform": 15,  # L1172-1244
        "swordplay": 11,  # L1245-1310
    }


def test_every_slug_is_unique_within_its_catalog():
    assert len(MERIT_BY_SLUG) == len(MERITS)
    assert len(FORCE_ABILITY_BY_SLUG) == len(FORCE_ABILITIES)
    assert len(FORCE_KNOWLEDGE_BY_SLUG) == len(FORCE_KNOWLEDGES) == 6


def test_every_slug_is_lower_snake_case_and_fits_an_html_id():
    slugs = [*MERIT_BY_SLUG, *FORCE_ABILITY_BY_SLUG, *FORCE_KNOWLEDGE_BY_SLUG]
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", slug) for slug in slugs)


def test_every_entry_carries_a_source_line():
    sources = [m.source for m in MERITS] + [a.source for a in FORCE_ABILITIES]
    sources += [k.source for k in FORCE_KNOWLEDGES]
    sources += [t.source for t in (*FIREARMS_TECHNIQUES, *MELEE_TECHNIQUES)]
    assert all(LINE.match(source) for source in sources)
    requirement_sources = [r.source for m in MERITS for r in m.requirements]
    requirement_sources += [m.choice.source for m in MERITS if m.choice]
    assert all(LINE.match(source) for source in requirement_sources)


def test_merit_source_lines_run_in_seed_order_within_each_category():
    for category in Category:
        lines = [int(m.source[1:]) for m in MERITS if m.category is category]
        assert lines == sorted(lines), category


def test_every_requirement_names_a_known_trait():
    for merit in MERITS:
        for need in merit.requirements:
            if need.need is Need.ATTRIBUTE:
                assert need.key in ATTRIBUTES, merit.slug
            elif need.need is Need.ABILITY:
                assert need.key in ABILITIES, merit.slug
            elif need.need is Need.MERIT:
                assert need.key in MERIT_BY_SLUG, merit.slug
    for ability in FORCE_ABILITIES:
        for other in ability.requires:
            assert FORCE_ABILITY_BY_SLUG[other].tree == ability.tree


# --- merit costs (allowed values) ---------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "allowed"),
    [
        ("acute_senses", (1, 2, 3)),  # L328
        ("addiction", (1, 2, 3)),  # L364
        ("blind", (6,)),  # L368
        ("paraplegic", (6,)),  # L404
        ("compulsion", (1, 2, 3, 4, 5, 6)),  # L448, +2 at L450
        ("debt", (1, 2, 3)),  # L493
        ("enemy", (1, 2, 3, 4, 5)),  # L507
        ("pain_resistance", (5,)),  # L352
        ("vaapad", (5,)),  # L631
        ("juyo", (4,)),  # L575
        ("giant", (4,)),  # L344
        ("sure_shot", (1,)),  # L817, printed "1 points"
        ("kel_dor", (3,)),  # L643
        ("droid", (1,)),  # L657
        ("ability_deficit", (1,)),  # L837
    ],
)
def test_merit_takes_exactly_the_values_the_seed_prints(slug, allowed):
    assert MERIT_BY_SLUG[slug].allowed_values == allowed


def test_compulsion_explains_its_bonus_for_a_physiological_or_supernatural_compulsion():
    compulsion = MERIT_BY_SLUG["compulsion"]
    assert compulsion.values == (1, 2, 3, 4)
    assert compulsion.cost_label == "1-4 points, +2 if physiological or supernatural"


def test_cost_labels_read_as_the_seed_prints_them():
    assert MERIT_BY_SLUG["ambidextrous"].cost_label == "1 point"
    assert MERIT_BY_SLUG["giant"].cost_label == "4 points"
    assert MERIT_BY_SLUG["enemy"].cost_label == "1-5 points"


# --- merit prerequisites, one table row per merit with printed requirements ----------------

PRINTED_REQUIREMENTS = [
    ("ataru", {("attribute", "dexterity", 3), ("ability", "acrobatics", 3)}, "L527"),
    ("attuned_to_the_force", {("attribute", "charisma", 3), ("ability", "meditation", 3)}, "L533"),
    ("djem_so", {("attribute", "strength", 3), ("ability", "melee", 3)}, "L547"),
    ("fearless", {("power", "", 7)}, "L553"),
    ("force_intuition", {("ability", "meditation", 2)}, "L559"),
    ("force_perception", {("power", "", 4), ("force_sensitivity", "", 0)}, "L565"),
    ("juyo", {("attribute", "strength", 3), ("attribute", "dexterity", 4),
              ("ability", "melee", 4)}, "L577"),
    ("makashi", {("attribute", "dexterity", 3), ("ability", "melee", 4)}, "L587"),
    ("master_negotiator", {("merit", "adept_negotiator", 0)}, "L601"),
    ("power_recovery", {("power", "", 4)}, "L607"),
    ("serenity", {("attribute", "charisma", 3), ("ability", "meditation", 4),
                  ("power", "", 6)}, "L623"),
    ("vaapad", {("attribute", "strength", 4), ("attribute", "dexterity", 4),
                ("ability", "melee", 5), ("merit", "juyo", 0)}, "L633"),
    ("humanity", {("power", "", 2)}, "L663"),
    ("independent_spirit", {("power", "", 3)}, "L669"),
    ("intellectual_fight", {("power", "", 5), ("ability", "computer", 3)}, "L675"),
    ("master_of_heuristics", {("ability", "computer", 4)}, "L687"),
    ("personal_shield_mastery", {("ability", "repair", 2)}, "L693"),
    ("protection_from_reprogramming", {("willpower", "", 4)}, "L699"),
    ("routine_scripts", {("ability", "computer", 3)}, "L705"),
    ("self_improvement_specialist", {("attribute", "intelligence", 3)}, "L715"),
    ("ace", {("ability", "pilot", 4)}, "L729"),
    ("agile_pilot", {("attribute", "dexterity", 3)}, "L735"),
    ("armored_protection", {("merit", "armor_master", 0)}, "L745"),
    ("armor_master", {("merit", "armor_proficiency", 0)}, "L751"),
    ("brothers_in_arms", {("power", "", 4)}, "L761"),
    ("brothers_in_arms_forever", {("power", "", 6), ("merit", "brothers_in_arms", 0)}, "L767"),
    ("computer_professional", {("attribute", "wits", 3)}, "L773"),
    ("harms_way", {("power", "", 4), ("attribute", "stamina", 3)}, "L779"),
    ("hold_on", {("power", "", 5)}, "L785"),
    ("improved_armored_protection", {("merit", "armored_protection", 0)}, "L791"),
    ("master_hacker", {("ability", "computer", 3), ("attribute", "intelligence", 3)}, "L797"),
    ("master_of_evasion", {("attribute", "dexterity", 3)}, "L803"),
    ("rifles_professional", {("ability", "firearms", 3)}, "L813"),
    ("tracking", {("ability", "computer", 2), ("attribute", "intelligence", 3)}, "L823"),
    ("sniper", {("attribute", "perception", 3), ("ability", "firearms", 3)}, "L833"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("slug", "printed", "line"), PRINTED_REQUIREMENTS, ids=[r[0] for r in PRINTED_REQUIREMENTS]
)
def test_merit_carries_the_requirements_printed_on_its_requirement_line(slug, printed, line):
    merit = MERIT_BY_SLUG[slug]
    found = {
        (need.need.value, need.key, need.minimum)
        for need in merit.requirements
        if not need.interpreted and need.need not in (Need.DROID, Need.NOT_DROID)
    }
    assert found == printed
    assert {need.source for need in merit.requirements if not need.interpreted} - {"L659"} == {line}


def test_merits_without_a_requirement_line_carry_no_printed_requirement():
    printed = {row[0] for row in PRINTED_REQUIREMENTS}
    for merit in MERITS:
        if merit.slug in printed:
            continue
        assert all(
            need.interpreted or need.need in (Need.DROID, Need.NOT_DROID)
            for need in merit.requirements
        ), merit.slug


def test_every_force_merit_but_force_sensitivity_needs_force_sensitivity_and_bars_droids():
    for merit in MERITS:
        if merit.category is not Category.FORCE:
            continue
        needs = {need.need for need in merit.requirements}
        assert Need.NOT_DROID in needs, merit.slug  # L659
        if merit.slug == "force_sensitivity":
            assert Need.FORCE_SENSITIVITY not in needs
        else:
            assert Need.FORCE_SENSITIVITY in needs, merit.slug  # L571, L565


def test_every_droid_merit_but_droid_itself_needs_the_droid_merit():
    for merit in MERITS:
        if merit.category is Category.DROID and merit.slug != "droid":
            assert Need.DROID in {need.need for need in merit.requirements}, merit.slug


@pytest.mark.parametrize(
    ("slug", "species", "grants"),
    [
        ("kel_dor", "Kel Dor", {"twilight_vision": 1, "attuned_to_the_force": 2}),  # L645
        ("twi_lek", "Twi'lek", {"twilight_vision": 1, "deceptive": 2}),  # L649
        ("zabrak", "Zabrak", {"attentive": 2, "toughness": 1}),  # L653
    ],
)
def test_race_merit_grants_two_merits_worth_its_three_points(slug, species, grants):
    merit = MERIT_BY_SLUG[slug]
    assert dict(merit.grants) == grants
    assert sum(grants.values()) == merit.values[0] == 3
    assert all(MERIT_BY_SLUG[g].values == (v,) for g, v in grants.items())
    assert [n.key for n in merit.requirements if n.need is Need.SPECIES] == [species]


@pytest.mark.parametrize(
    ("slug", "kind", "must_have"),
    [
        ("acute_senses", ChoiceKind.SENSE, False),  # L330
        ("weak_sense", ChoiceKind.SENSE, False),  # L420
        ("master_force_ability", ChoiceKind.FORCE_ABILITY, True),  # L593
        ("master_force_knowledge", ChoiceKind.FORCE_KNOWLEDGE, True),  # L597
        ("ability_aptitude", ChoiceKind.ABILITY, False),  # L723
        ("armor_proficiency", ChoiceKind.ARMOR_CLASS, False),  # L739
        ("ability_deficit", ChoiceKind.ABILITY, True),  # L839
    ],
)
def test_parameterised_merit_says_what_must_be_chosen(slug, kind, must_have):
    choice = MERIT_BY_SLUG[slug].choice
    assert choice is not None
    assert (choice.kind, choice.must_have) == (kind, must_have)


def test_only_the_seven_parameterised_merits_need_a_choice():
    assert sum(1 for m in MERITS if m.choice) == 7


def test_weak_sense_conflicts_with_acute_senses_read_for_heightened_sense():
    assert MERIT_BY_SLUG["weak_sense"].conflicts_with == "acute_senses"  # L420


# --- Force knowledges and abilities -------------------------------------------------------


@pytest.mark.parametrize(
    ("slug", "attributes", "line"),
    [
        ("battle", ("strength", "dexterity"), "L866"),
        ("mind", ("charisma", "manipulation"), "L933"),
        ("nature", ("charisma", "intelligence"), "L1017"),
        ("telekinetic", ("strength", "wits"), "L1085"),
        ("transform", ("manipulation", "intelligence"), "L1174"),
        ("swordplay", ("dexterity", "wits"), "L1246"),
    ],
)
def test_force_knowledge_rolls_with_the_attribute_pair_its_roll_line_prints(slug, attributes, line):
    knowledge = FORCE_KNOWLEDGE_BY_SLUG[slug]
    assert (knowledge.attributes, knowledge.source) == (attributes, line)


# (slug, tree, min pool, side grade, roll line) from the seed's Roll lines.
ABILITY_ROWS = [
    ("battle_strike", "battle", 5, None, "L868"),
    ("corruption", "battle", 7, ("dark", 6), "L872"),
    ("inertia", "battle", 5, None, "L890"),
    ("rend", "battle", 3, ("dark", 6), "L905"),
    ("wound", "battle", 5, ("dark", 4), "L927"),
    ("enlighten", "mind", 5, ("light", 4), "L941"),
    ("memory_walk", "mind", 9, ("dark", 8), "L979"),
    ("valor", "mind", 9, ("light", 8), "L1010"),
    ("force_storm", "nature", 9, ("dark", 8), "L1049"),
    ("vital_transfer", "nature", 5, ("light", 4), "L1076"),
    ("force_blast", "telekinetic", 4, None, "L1097"),
    ("force_grip", "telekinetic", 6, None, "L1107"),
    ("breach_force", "transform", 6, ("light", 5), "L1180"),
    ("lightning_burst", "transform", 8, ("dark", 7), "L1218"),
    ("sever_force", "transform", 9, ("light", 8), "L1239"),
    ("kinetic_combat", "swordplay", 8, None, "L1272"),
    ("redirect_shot", "swordplay", 4, None, "L1289"),
    ("vornskrs_ferocity", "swordplay", 7, None, "L1305"),
]


@pytest.mark.parametrize(
    ("slug", "tree", "pool", "side", "line"), ABILITY_ROWS, ids=[r[0] for r in ABILITY_ROWS]
)
def test_force_ability_carries_its_roll_line(slug, tree, pool, side, line):
    ability = FORCE_ABILITY_BY_SLUG[slug]
    found_side = (ability.side.value, ability.side_minimum) if ability.side else None
    assert (ability.tree, ability.min_pool, found_side, ability.requirement_source) == (
        tree,
        pool,
        side,
        line,
    )


def test_the_ten_abilities_without_a_roll_line_have_no_minimum_pool_and_are_flagged():
    missing = {a.slug for a in FORCE_ABILITIES if a.min_pool is None}
    assert missing == {
        "resist_force", "surge", "force_track", "mind_trick", "ionize", "detonate",
        "force_disarm", "force_thrust", "move_object", "deflect",
    }  # fmt: skip
    assert all(a.ocr_uncertain == (a.min_pool is None) for a in FORCE_ABILITIES)


def test_every_side_requirement_matches_the_abilitys_light_or_dark_tag():
    for ability in FORCE_ABILITIES:
        if ability.side is Side.DARK:
            assert Tag.DARK in ability.tags, ability.slug
        if ability.side is Side.LIGHT:
            assert Tag.LIGHT in ability.tags, ability.slug


def test_only_tempered_aggression_and_vornskrs_ferocity_are_dark_without_a_grade():
    ungraded_dark = {a.slug for a in FORCE_ABILITIES if a.is_dark and a.side is None}
    assert ungraded_dark == {"tempered_aggression", "vornskrs_ferocity"}  # L1296, L1303


@pytest.mark.parametrize(
    ("slug", "requires"),
    [("inertia", ("surge",)), ("redirect_shot", ("deflect",))],  # L890, L1289
)
def test_ability_names_the_abilities_it_builds_on(slug, requires):
    assert FORCE_ABILITY_BY_SLUG[slug].requires == requires
    assert sum(1 for a in FORCE_ABILITIES if a.requires) == 2


@pytest.mark.parametrize(
    ("slug", "tags"),
    [
        ("wound", {"D", "Aiming"}),  # L926-928
        ("fear", {"D", "A", "UFA"}),  # L953
        ("breach_force", {"L", "UES"}),  # L1179
        ("ionize", {"Aiming"}),  # L1063
        ("force_grip", {"Aiming"}),  # L1108
        ("farseeing", set()),  # L945
    ],
)
def test_ability_carries_its_descriptor_tags(slug, tags):
    assert {tag.value for tag in FORCE_ABILITY_BY_SLUG[slug].tags} == tags


def test_force_storm_and_the_ues_abilities_work_once_per_scene():
    once = {a.slug for a in FORCE_ABILITIES if a.once_per_scene}
    assert once == {"shatterpoint", "breach_force", "force_light", "force_storm"}


def test_vaapad_and_juyo_lift_the_dark_tag_of_their_swordplay_abilities():
    assert FORCE_ABILITY_BY_SLUG["tempered_aggression"].not_dark_with_merit == "vaapad"  # L1300
    assert FORCE_ABILITY_BY_SLUG["vornskrs_ferocity"].not_dark_with_merit == "juyo"  # L1307


# --- weapon techniques --------------------------------------------------------------------


def test_firearms_techniques_follow_the_list_at_l238():
    assert [t.slug for t in FIREARMS_TECHNIQUES] == [
        "blaster_pistols", "blaster_rifles", "heavy_weapons", "archaic_weapons", "gunnery",
        "special_weapons",
    ]  # fmt: skip
    assert all(t.skill == "firearms" for t in FIREARMS_TECHNIQUES)


def test_melee_techniques_follow_the_list_at_l240_with_lightsabers_at_the_storytellers_word():
    assert [t.slug for t in MELEE_TECHNIQUES] == [
        "simple_weapons", "vibroblades", "swords", "pole_arms", "axes", "missile_weapons",
        "special_weapons", "lightsabers",
    ]  # fmt: skip
    assert [t.slug for t in MELEE_TECHNIQUES if t.storyteller_grants] == ["lightsabers"]


def test_special_weapons_count_one_technique_per_kind():
    specials = [t for t in (*FIREARMS_TECHNIQUES, *MELEE_TECHNIQUES) if t.one_per_kind]
    assert [t.skill for t in specials] == ["firearms", "melee"]
