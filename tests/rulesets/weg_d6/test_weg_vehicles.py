"""WEG d6 vehicles: the stat block, damage states, 1E improvement and R&E modification costs
from the seeds' numbers, and a vehicle roll's exact odds against brute-force enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rulesets.core.edits import InvalidSheet
from rulesets.core.rolls import InvalidRoll, Rollable
from rulesets.weg_d6 import dice
from rulesets.weg_d6 import vehicles as v
from rulesets.weg_d6.data import EDITION_1E, EDITION_RE


def freighter(**changes) -> dict:
    data = {
        "edition": EDITION_RE,
        "scale": "starfighter",
        "maneuverability": "1D",
        "hull": "4D",
        "shields": "1D",
        "weapons": [{"name": "Laser cannon", "fire_control": "2D", "damage": "4D"}],
        "value": 100_000,
    } | changes
    return v.validate_vehicle(data)


# --- damage states (003:571-579, 003:1264-1380) ----------------------------------------------


@pytest.mark.parametrize(
    ("damage", "hull", "state", "ionization", "shield_die"),
    [
        (4, 10, "", 0, False),  # 2xDR < HR: escaping unscathed (003:452)
        (6, 10, "lightly", 1, True),  # DR < HR
        (10, 10, "heavily", 0, False),  # DR >= HR
        (20, 10, "severely", 0, False),  # DR >= 2xHR
        (30, 10, "destroyed", 0, False),  # DR >= 3xHR
    ],
)
def test_the_starship_damage_summary_reads_damage_against_hull(
    damage, hull, state, ionization, shield_die
):
    result = v.starship_damage(damage, hull)
    assert (result.state, result.ionization, result.shield_die) == (state, ionization, shield_die)


@pytest.mark.parametrize(
    ("damage", "hull", "ionization"),
    [(4, 10, 0), (10, 10, 1), (20, 10, 2), (30, 10, v.DEAD_CONTROLS)],
)
def test_an_ion_cannon_only_ionizes(damage, hull, ionization):
    result = v.starship_damage(damage, hull, ion=True)
    assert result.state == "" and result.ionization == ionization


def test_a_shield_die_takes_a_light_hit_while_shields_remain_then_the_hull_does():
    ship = freighter()
    light = v.starship_damage(6, 10)
    once = v.apply_hit(ship, light)
    assert once["damage"]["shield_dice_lost"] == 1 and once["damage"]["state"] == "intact"
    twice = v.apply_hit(once, light)
    assert twice["damage"]["state"] == "lightly" and twice["damage"]["ionization"] == 1


def test_states_only_get_worse():
    ship = v.apply_hit(freighter(shields="0D"), v.starship_damage(20, 10))
    assert v.apply_hit(ship, v.starship_damage(10, 10))["damage"]["state"] == "severely"


def test_ionization_takes_dice_off_every_code_but_hull():
    ship = freighter(damage={"ionization": 1})
    codes = {code.key: code.pips for code in v.codes(ship)}
    assert codes["maneuverability"] == 0
    assert codes["weapons.0.fire_control"] == 3
    assert codes["hull"] == 12
    assert codes["weapons.0.damage"] == 12


@pytest.mark.parametrize(
    ("damage", "hull", "pips"), [(5, 10, 0), (10, 10, 1), (25, 10, 2), (95, 10, 9), (200, 10, 9)]
)
def test_capital_ship_damage_counts_whole_multiples_of_the_hull_roll(damage, hull, pips):
    assert v.capital_damage_pips(damage, hull) == pips


@pytest.mark.parametrize(
    ("pips", "state"),
    [(0, "intact"), (2, "lightly"), (3, "heavily"), (6, "severely"), (9, "destroyed")],
)
def test_capital_ship_damage_in_pips_names_its_state(pips, state):
    assert v.capital_state(pips) == state


def test_a_capital_ships_damage_pips_come_off_its_codes():
    ship = freighter(scale="capital", maneuverability="2D", damage={"capital_pips": 2})
    assert v.code_named(ship, "maneuverability").pips == 4


def test_dead_controls_and_destruction_stop_every_roll_but_hull():
    for damage in ({"ionization": v.DEAD_CONTROLS}, {"state": "destroyed"}):
        ship = freighter(damage=damage)
        assert v.can_act(ship)
        with pytest.raises(InvalidRoll):
            v.vehicle_rollable(ship, "weapons.0.damage")
        assert v.vehicle_rollable(ship, "hull").dice == 12


# --- 1E improvement with skill points (003:1006-1070) -----------------------------------------


@pytest.mark.parametrize(
    ("code", "additive", "scale", "already", "sp", "credits", "time", "technology"),
    [
        # 003:1010: a blaster pistol's damage 4D -> 4D+1 costs four points.
        ("4D", False, "character", 0, 4, 40, "1 day", "Very Easy"),
        # 003:1066: 5D -> 5D+1 after three pips bought: 5 points, 50 credits, Difficult.
        ("5D", False, "character", 3, 5, 50, "1 day", "Difficult"),
        # 003:1028: +1D armor to +1D+1, an additive code: 1 + 3.
        ("1D", True, "character", 0, 4, 40, "1 day", "Very Easy"),
        # 003:1010: a 0D code costs one point a pip.
        ("0D", False, "speeder", 1, 1, 100, "3 days", "Easy"),
        ("2D+2", True, "starfighter", 2, 5, 2_500, "1 week", "Moderate"),
        ("6D", False, "capital", 7, 6, 6_000_000, "1 month", "Very Difficult"),
        ("3D", False, "walker", 4, 3, 1_500, "3 days", "Very Difficult"),
        ("1D", False, "death_star", 0, 1, 1_000_000_000, "2 months", "Very Easy"),
    ],
)
def test_improvement_costs_follow_the_seed(
    code, additive, scale, already, sp, credits, time, technology
):
    step = v.improvement(code, additive=additive, scale=scale, already=already)
    assert (step.skill_points, step.credits, step.time, step.technology) == (
        sp,
        credits,
        time,
        technology,
    )


def test_the_armor_example_costs_sixteen_points():
    # 003:1038-1040: +1D to +1D+2 with the Dexterity loss bought off, all additive.
    armor = sum(
        v.improvement(c, additive=True, scale="character").skill_points for c in ("1D", "1D+1")
    )
    dexterity = armor
    assert armor + dexterity == 16


@pytest.mark.parametrize(
    ("scale", "factor"), [("speeder", 2), ("starfighter", 2), ("capital", 1), ("death_star", 1)]
)
def test_work_by_npcs_doubles_credits_but_not_at_capital_scale(scale, factor):
    own = v.improvement("2D", additive=False, scale=scale)
    hired = v.improvement("2D", additive=False, scale=scale, by_npc=True)
    assert hired.credits == own.credits * factor


@pytest.mark.parametrize(
    ("old", "new", "sp"), [("x4", "x3", 5), ("x3", "x2", 10), ("x2", "x1", 20), ("x1", "x1/2", 40)]
)
def test_a_hyperdrive_step_costs_the_seeds_points(old, new, sp):
    assert v.hyperdrive_improvement(old, new) == sp


def test_no_hyperdrive_step_skips_a_level():
    with pytest.raises(ValueError):
        v.hyperdrive_improvement("x4", "x2")


def test_weapons_are_added_and_installed_at_the_seeds_prices():
    assert v.ADD_WEAPON_SP == 9
    installs = {scale: row[2] for scale, row in v.IMPROVEMENT_SCALE.items()}
    assert installs == {
        "character": 150,
        "speeder": 1_500,
        "walker": None,
        "starfighter": 6_000,
        "capital": 10_000_000,
        "death_star": None,
    }


def test_a_1e_vehicle_lists_the_next_pip_of_each_code():
    rows = {
        row["key"]: row
        for row in v.improvement_rows(freighter(edition=EDITION_1E, improved={"hull": 4}))
    }
    assert rows["maneuverability"]["sp"] == 4  # 1D additive: 1 + 3
    assert rows["hull"]["sp"] == 4 and rows["hull"]["technology"] == "Very Difficult"
    assert rows["weapons.0.damage"]["credits"] == 2_000


# --- R&E modifications and repairs (002:155-414) -----------------------------------------------


@pytest.mark.parametrize(
    ("system", "level", "increase", "difficulty", "percent"),
    [
        ("maneuverability", 1, "+1", "Easy", 5),
        ("maneuverability", 5, "+1D+2", "Heroic", 25),
        ("shields", 3, "+1D", "Difficult", 30),
        ("shields", 5, "+1D+2", "Heroic", 50),
        ("weapon", 2, "+2", "Moderate", 25),
        ("weapon", 4, "+1D+1", "Very Difficult", 35),
        ("move", 1, "+5", "Moderate", 10),
        ("move", 4, "+20", "Heroic", 25),
        ("space", 2, "+2", "Difficult", 15),
        ("range", 5, "+25%", "Heroic", 25),
        ("hyperdrive", 1, "x4/x3", "Easy", 10),
        ("hyperdrive", 3, "x2/x1", "Very Difficult", 25),
        ("hyperdrive", 4, "x1/x0.5", "Heroic", 35),
    ],
)
def test_modifications_are_priced_as_the_seeds_charts_say(
    system, level, increase, difficulty, percent
):
    step = v.modification(system, level, 80_000)
    assert (step.increase, step.difficulty, step.percent) == (increase, difficulty, percent)
    assert step.credits == Fraction(80_000 * percent, 100)


@pytest.mark.parametrize(("worker", "factor"), [("self", 1), ("hired", 2), ("hired_dear", 3)])
def test_someone_elses_work_doubles_or_triples_the_price(worker, factor):
    assert v.modification("shields", 1, 10_000, worker=worker).credits == 1_500 * factor


@pytest.mark.parametrize(("system", "level"), [("maneuverability", 6), ("move", 5), ("space", 0)])
def test_no_modification_goes_past_its_chart(system, level):
    with pytest.raises(ValueError, match="at most"):
        v.modification(system, level, 1_000)


@pytest.mark.parametrize(
    ("system", "level", "difficulty", "percent"),
    [
        ("maneuverability", 1, "Easy", 10),
        ("maneuverability", 5, "Difficult", 20),
        ("moves", 5, "Drive destroyed and must be replaced", 100),
        ("shields", 4, "Very Difficult", 10),
        ("weapon", 3, "Very Difficult", 35),
    ],
)
def test_repairs_are_priced_from_the_seeds_charts(system, level, difficulty, percent):
    step = v.repair(system, level, 1_000)
    assert (step.difficulty, step.percent) == (difficulty, percent)


def test_an_re_vehicle_lists_each_codes_next_step_until_the_limit():
    rows = {row["key"]: row for row in v.improvement_rows(freighter(improved={"shields": 5}))}
    assert rows["maneuverability"]["percent"] == 5 and rows["maneuverability"]["price"] == 5_000
    assert rows["shields"]["increase"] == "" and "002:264" in rows["shields"]["difficulty"]


# --- scale (003:618-647) --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chart", "rolled", "target", "cap"),
    [
        ("to_hit", "speeder", "character", 5),  # 003:628, the seed's own example
        ("to_hit", "character", "speeder", 6),
        ("damage", "character", "speeder", 3),  # 003:632
        ("maneuver", "death_star", "starfighter", 1),
        ("damage", "character", "capital", None),
    ],
)
def test_die_caps_come_from_the_scale_charts(chart, rolled, target, cap):
    assert v.die_cap(chart, rolled, target) == cap


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"weapons": [{"name": "Laser", "fire_control": "1D"}]}, "weapons.0.damage: is missing"),
        ({"weapons": [{"name": "Laser", "fire_control": "1D", "damage": ""}]}, "weapons.0.damage"),
        ({"hull": "4Q"}, "hull: “4Q” is not a die code"),
        ({"hull": "4D+3"}, "hull: “4D+3” has 3 pips"),
        ({"maneuverability": "31D"}, "maneuverability: expected a code from 0D to 30D"),
        ({"space": 31}, "space: expected a whole number from 0 to 30"),
        ({"crew": -1}, "crew: expected a whole number"),
        ({"scale": "planet"}, "scale: expected one of"),
    ],
)
def test_bad_stat_blocks_are_refused_naming_the_field(changes, message):
    with pytest.raises(InvalidSheet) as refused:
        freighter(**changes)
    assert message in str(refused.value)


# --- rolls and their exact odds --------------------------------------------------------------


def _pilot(pips: int, edition: str) -> Rollable:
    facts = {
        "edition": edition,
        "can_act": True,
        "wound_dice": 0,
        "force_points": 1,
        "character_points": 3,
    }
    return Rollable(
        "skill.starship_piloting", "Starship piloting", pips, tuple(sorted(facts.items()))
    )


def test_a_pilots_roll_adds_the_vehicles_maneuverability():
    rollable = v.vehicle_rollable(
        freighter(maneuverability="1D+2"), "maneuverability", _pilot(10, EDITION_RE)
    )
    assert rollable.dice == 15  # 3D+1 + 1D+2 = 5D
    assert rollable.fact("force_points") == 0 and rollable.fact("character_points") == 0


def test_a_gunners_roll_adds_fire_control_and_damage_rolls_alone():
    ship = freighter()
    assert v.vehicle_rollable(ship, "weapons.0.fire_control", _pilot(12, EDITION_RE)).dice == 18
    assert v.vehicle_rollable(ship, "weapons.0.damage").dice == 12


def test_a_crewed_code_needs_a_crew_member():
    with pytest.raises(InvalidRoll, match="crew member"):
        v.vehicle_rollable(freighter(), "maneuverability")


def _brute_force_1e(dice_count: int, pips: int, target: int) -> Fraction:
    hits = sum(
        1
        for faces in itertools.product(range(1, 7), repeat=dice_count)
        if sum(faces) + pips >= target
    )
    return Fraction(hits, 6**dice_count)


def _brute_force_wild(plain: int, pips: int, target: int) -> Fraction:
    """The R&E roll, Wild Die rerolled on a 6 without end: the plain dice enumerated, the
    Wild Die's run of sixes followed until the target is reached (then every longer run
    succeeds: their whole mass counts)."""
    total = Fraction(0)
    for faces in itertools.product(range(1, 7), repeat=plain):
        base = sum(faces) + pips
        sixes = 0
        while True:
            weight = Fraction(1, 6 ** (plain + sixes))
            if base + 6 * sixes >= target:
                total += weight  # from here every run succeeds
                break
            # the run stops at this die with a 1-5 (a 1 counts as rolled, the default reading)
            total += weight * Fraction(
                sum(1 for r in range(1, 6) if base + 6 * sixes + r >= target), 6
            )
            sixes += 1
    return total


@pytest.mark.parametrize("target", [3, 7, 10, 13, 16])
def test_a_1e_vehicle_rolls_odds_match_enumeration(target):
    ship = freighter(edition=EDITION_1E, maneuverability="1D")
    rollable = v.vehicle_rollable(ship, "maneuverability", _pilot(4, EDITION_1E))  # 1D+1 + 1D
    odds = dice.odds(rollable, {"difficulty": target})
    assert odds.success == _brute_force_1e(2, 1, target)


@pytest.mark.parametrize("target", [2, 8, 12, 15, 20, 27])
def test_an_re_vehicle_rolls_odds_match_enumeration_with_the_wild_die(target):
    ship = freighter(maneuverability="1D+1")
    rollable = v.vehicle_rollable(ship, "maneuverability", _pilot(3, EDITION_RE))  # 1D + 1D+1
    options = {"difficulty": target, "dice_wild_one": "count"}
    assert dice.odds(rollable, options).success == _brute_force_wild(1, 1, target)


def test_ionization_lowers_the_odds_by_whole_dice():
    ship = freighter(maneuverability="2D", edition=EDITION_1E)
    pilot = _pilot(3, EDITION_1E)
    clean = dice.odds(v.vehicle_rollable(ship, "maneuverability", pilot), {"difficulty": 10})
    ionized = freighter(maneuverability="2D", edition=EDITION_1E, damage={"ionization": 1})
    hurt = dice.odds(v.vehicle_rollable(ionized, "maneuverability", pilot), {"difficulty": 10})
    assert clean.success == _brute_force_1e(3, 0, 10) and hurt.success == _brute_force_1e(2, 0, 10)


# --- recording a pip bought -----------------------------------------------------------------


def test_a_1e_pip_bought_raises_the_code_and_counts_toward_the_technology_roll():
    ship = freighter(edition=EDITION_1E, improved={"weapons.0.damage": 3})
    improved, text = v.improve(ship, "weapons.0.damage")
    assert improved["weapons"][0]["damage"] == "4D+1"
    assert improved["improved"]["weapons.0.damage"] == 4
    assert "4 skill points, 2,000 credits, 1 week, Difficult technology roll" in text


def test_an_re_code_stops_at_one_d_two_above_stock():
    ship = freighter()
    for expected in ("1D+1", "1D+2", "2D", "2D+1", "2D+2"):
        ship, _ = v.improve(ship, "maneuverability")
        assert ship["maneuverability"] == expected
    with pytest.raises(InvalidSheet, match=r"at most \+1D\+2 above stock"):
        v.improve(ship, "maneuverability")


def test_an_re_weapon_is_priced_on_its_own_value():
    ship = freighter(
        weapons=[{"name": "Ion cannon", "fire_control": "1D", "damage": "3D", "value": 8_000}]
    )
    _, text = v.improve(ship, "weapons.0.fire_control")
    assert "15% = 1,200 credits" in text


def test_r_and_e_has_no_chart_for_hull():
    with pytest.raises(InvalidSheet, match="no modification chart"):
        v.improve(freighter(), "hull")


# --- die caps (1st edition, 003:618-647) -------------------------------------------------------


def _brute_force_capped(dice_count: int, pips: int, cap: int, target: int) -> Fraction:
    hits = sum(
        1
        for faces in itertools.product(range(1, 7), repeat=dice_count)
        if sum(f for f in faces if f <= cap) + pips >= target
    )
    return Fraction(hits, 6**dice_count)


@pytest.mark.parametrize(
    ("dice_count", "pips", "cap", "target"),
    [(3, 0, 3, 5), (4, 2, 5, 14), (2, 1, 1, 2), (1, 0, 4, 4), (3, 1, 6, 11), (4, 0, 2, 9)],
)
def test_capped_odds_match_enumeration(dice_count, pips, cap, target):
    assert v.capped_chance(dice_count, pips, cap, target) == _brute_force_capped(
        dice_count, pips, cap, target
    )


def test_the_seeds_die_cap_example_totals_five():
    # 003:626: 5, 2, 3 and 6 with a cap of 3 total 5.
    assert v.capped_total((5, 2, 3, 6), 0, 3) == 5


@pytest.mark.parametrize(
    ("scale", "code", "target", "cap"),
    [
        ("speeder", "weapons.0.fire_control", "character", 5),  # 003:628
        ("starfighter", "maneuverability", "walker", 6),
        ("walker", "maneuverability", "starfighter", 3),
        ("starfighter", "weapons.0.damage", "capital", 5),
        ("speeder", "shields", "character", 6),  # no chart for shields: no cap
    ],
)
def test_a_vehicle_rolls_cap_comes_from_its_codes_chart(scale, code, target, cap):
    assert v.cap_for(freighter(scale=scale), code, target) == cap
