"""Star O.R.E. catalogs read against the seed lines they cite (issue 27 item 16).

The seed prints its catalogs as "**Name (Stat):**" lines, price lines and tab-separated
tables; these tests parse the line each entry cites and set it against the entry, so a
catalog that drifts from its seed fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesets.ore import data

SEEDS = Path("/work/shared/seeds")
if not SEEDS.is_dir():  # pragma: no cover - the seeds live beside the project, not in it
    pytest.skip("the seed files are not on this machine", allow_module_level=True)

[_SEED] = SEEDS.glob("001_*.txt")
LINES = _SEED.read_text(encoding="utf-8").split("\n")


def line(source: str) -> str:
    number = int(re.match(r"L(\d+)", source).group(1))
    return LINES[number - 1].replace("*", "").strip()


PRINTED_SKILLS = [s for s in data.SKILLS if "proposal" not in s.source]


@pytest.mark.parametrize("skill", PRINTED_SKILLS, ids=lambda s: s.slug)
def test_every_skill_has_the_name_and_stat_its_line_prints(skill: data.Skill) -> None:
    found = re.match(r"([A-Za-z -]+?)(?: \[([a-z]+)\])? \(([A-Za-z]+)\):", line(skill.source))
    assert found, skill.source
    name, specialty, stat = found.groups()
    assert (name, stat.lower()) == (skill.label, skill.stat)
    assert skill.takes_specialty == (specialty is not None)


def test_every_skill_the_list_prints_is_in_the_catalog() -> None:
    listed = {
        n for n in range(664, 737) if re.match(r"\*\*[A-Z][^*]+\([A-Z][a-z]+\):\*\*", LINES[n - 1])
    }
    assert listed == {int(s.source[1:]) for s in PRINTED_SKILLS}


@pytest.mark.parametrize("stat", data.STATS, ids=lambda s: s.slug)
def test_every_stat_is_named_on_its_line(stat: data.Stat) -> None:
    assert line(stat.source).startswith(f"{stat.label}:")


@pytest.mark.parametrize(
    ("values", "source", "pattern"),
    [
        ((data.STAT_DIE_COST,), "L778", r"(\d+) points per die"),
        ((data.SKILL_DIE_COST,), "L780", r"(\d+) points per die"),
        ((data.WILLPOWER_POINT_COST,), "L782", r"(\d+) points each"),
        ((data.EXTRA_CURRENT_WILLPOWER_COST,), "L784", r"(\d+) point each"),
        (
            (data.POWER_DIE_COST, data.POWER_HARD_DIE_COST, data.POWER_WIGGLE_DIE_COST_PRINTED),
            "L786",
            r"(\d+) per die, (\d+) per hard die, (\d+) per wiggle die",
        ),
        ((data.STUNT_DIE_COST,), "L788", r"(\d+) points per die"),
        ((data.STARTING_LANGUAGE_DICE, data.STARTING_LANGUAGE_DICE), "L762", r"(\d)d.*?(\d)d"),
        ((data.HUMAN_STAT_MAXIMUM,), "L640", r"from 1d to (\d+)d in humans"),
        ((data.POWER_MAXIMUM_DICE,), "L876", r"from 1d to (\d+)d"),
    ],
)
def test_every_price_is_the_one_its_line_prints(values, source, pattern) -> None:
    found = re.search(pattern, line(source))
    assert found, f"{source} no longer says {pattern}"
    assert tuple(values) == tuple(int(n) for n in found.groups())


SPECIES_LINES = [s for s in data.SPECIES if "proposal" not in s.source]


@pytest.mark.parametrize("species", SPECIES_LINES, ids=lambda s: s.slug)
def test_every_species_costs_and_raises_what_its_line_prints(species: data.Species) -> None:
    text = line(species.source)
    # The seed spells it "Wookie" in the heading and "Wookiee" in the text (L814).
    assert text.replace("Wookie ", "Wookiee ").startswith(species.label)
    assert int(re.search(r"(\d+) pts\.$", text).group(1)) == species.cost
    printed = {
        stat.lower(): int(sign + dice)
        for sign, dice, stat in re.findall(r"([+-])(\d)d ([A-Z][a-z]+)", text)
    }
    assert printed == species.stat_max_bonus
    hard = re.findall(r"\+(\d)hd", text.split(";")[0] if "Wookiee" not in text else "")
    assert [str(h) for _s, h in species.skill_hard_dice.values()] == hard
    assert species.natural_ar == int((re.search(r"AR (\d)", text) or [0, 0])[1])


ABILITY_ROWS = {
    "L849": ("low_light_vision", "darkvision"),
    "L850": ("massive",),
    "L851": ("armor",),
    "L852": ("breathe_underwater", "poison_gas_filter"),
    "L855": ("stat_hard_die", "stat_wiggle_die"),
    "L856": ("skill_hard_die", "skill_wiggle_die"),
    "L857": ("unarmed_normal_damage",),
    "L858": ("higher_stat_maximum",),
}


@pytest.mark.parametrize(("source", "slugs"), ABILITY_ROWS.items())
def test_every_ability_costs_what_its_row_prints(source: str, slugs: tuple[str, ...]) -> None:
    prices = [int(n) for n in re.findall(r"\d+", line(source).split("\t")[-1])]
    if len(prices) == 1 and len(slugs) > 1:
        prices *= len(slugs)  # "Breathe underwater or poison gas filter 5"
    assert [data.ABILITY_BY_SLUG[slug].cost_per_level for slug in slugs] == prices
    assert all(data.ABILITY_BY_SLUG[slug].source == source for slug in slugs)


def test_every_ability_row_is_in_the_catalog() -> None:
    assert {a.slug for a in data.ABILITIES} == {s for row in ABILITY_ROWS.values() for s in row}


@pytest.mark.parametrize("power", data.POWERS, ids=lambda p: p.slug)
def test_every_power_is_named_on_its_line(power: data.Power) -> None:
    assert line(power.source).startswith(f"{power.label} ")


# The sections that list each power's core powers and stunts (L934-L1068).
def _technique_sections() -> dict[int, tuple[str, bool]]:
    sections: dict[int, tuple[str, bool]] = {}
    power, stunt = "", False
    for number in range(930, 1070):
        text = LINES[number - 1]
        heading = re.match(r"#+ (Core Powers|Force Stunts|Power Stunts) for (.+)", text)
        if heading:
            power = heading.group(2).strip().lower().replace(" ", "_")
            stunt = heading.group(1) != "Core Powers"
        elif re.match(r"\*\*[A-Z][^*]*:\*\*", text):
            sections[number] = (power, stunt)
    return sections


SECTIONS = _technique_sections()


@pytest.mark.parametrize("technique", data.FORCE_TECHNIQUES, ids=lambda t: t.slug)
def test_every_technique_has_the_name_power_kind_and_side_its_line_prints(technique) -> None:
    found = re.match(r"(.+?)(?: \((DS|LS)\))?:", line(technique.source))
    assert found, technique.source
    name, side = found.groups()
    assert name == technique.label
    assert (technique.side or None) == side
    assert SECTIONS[int(technique.source[1:])] == (technique.power, technique.stunt)


def test_every_technique_the_seed_lists_is_in_the_catalog() -> None:
    # L950 is Blaster Defense's second paragraph, not an entry of its own.
    listed = {n for n in SECTIONS if not line(f"L{n}").startswith("If you")}
    assert listed == {int(t.source[1:]) for t in data.FORCE_TECHNIQUES}


# Each Willpower price, the line that prints it and the words it prints it with.
WILLPOWER_PRICES = {
    "avoid_harm": ("L936", r"1 willpower per point of damage avoided"),
    "intuition": ("L938", r"1 willpower per regular die, 2 per hard die, and 4 per wiggle die"),
    "move_object": ("L972", r"double the mass for each point of willpower"),
    "dissipate_energy": ("L982", r"1 willpower, or a large cell .* 2 willpower"),
    "force_alchemy": ("L986", r"permanent willpower"),
    "force_light": ("L994", r"costs 1 willpower"),
    "force_lightning": ("L996", r"costs 1 willpower"),
    "whirlwind": ("L1006", r"1 willpower per round"),
    "battlemind": ("L1020", r"1 willpower per round"),
    "extra_actions": ("L1026", r"1 willpower per round"),
    "healing": ("L1028", r"1 willpower per point of damage healed or converted"),
    "prolong_life": ("L1032", r"1 round per point of willpower.*one year per permanent willpower"),
    "rage": ("L1034", r"1 willpower per round"),
    "battle_meditation": ("L1052", r"1 willpower point per round"),
    "control_mind": ("L1056", r"multiplies the number affected by 10.*1 willpower point per round"),
    "illusion": ("L1060", r"1 willpower point per round"),
    "sith_sorcery": ("L1066", r"1 willpower per round"),
}


def test_every_technique_with_a_willpower_price_is_in_the_table() -> None:
    assert {t.slug for t in data.FORCE_TECHNIQUES if t.willpower} == set(WILLPOWER_PRICES)


@pytest.mark.parametrize(("slug", "printed"), WILLPOWER_PRICES.items())
def test_every_willpower_price_is_printed_on_its_line(slug: str, printed) -> None:
    source, words = printed
    # The line itself, or its second paragraph (Dissipate Energy's, L982).
    assert int(source[1:]) - int(data.TECHNIQUE_BY_SLUG[slug].source[1:]) in (0, 2)
    assert re.search(words, line(source).lower())


def test_healing_charges_for_every_point_healed_or_converted() -> None:  # L1028
    assert "healed or converted" in line("L1028")
    assert data.TECHNIQUE_BY_SLUG["healing"].willpower == "1 per point healed or converted"


@pytest.mark.parametrize("form", data.LIGHTSABER_FORMS, ids=lambda f: f.slug)
def test_every_lightsaber_form_has_its_exemplars_and_favored_move(form) -> None:
    text = line(form.source)
    assert text.startswith(f"{form.label} ({form.exemplars}):")
    move = re.search(r"Favored move: (.+?)\.?$", text).group(1)
    assert move.replace(" (in the same round)", " in the same round") == form.favored_move


@pytest.mark.parametrize("location", data.HIT_LOCATIONS, ids=lambda loc: loc.slug)
def test_every_hit_location_has_the_heights_and_boxes_its_row_prints(location) -> None:
    heights, name, boxes = line(location.source).split("\t")
    low, _, high = heights.partition("-")
    assert name == location.label
    assert location.heights == tuple(range(int(low), int(high or low) + 1))
    assert location.boxes == int(boxes)


@pytest.mark.parametrize("armor", data.ARMORS, ids=lambda a: a.slug)
def test_every_armor_has_the_row_the_table_prints(armor: data.Armor) -> None:
    name, rating, penalty, move, *special = line(armor.source).split("\t")
    assert name == armor.label
    assert int(re.search(r"AR (\d+)", rating).group(1)) == armor.ar
    assert ("to torso" in rating) == (armor.covers == ("torso",))
    assert penalty == f"-{armor.coordination_penalty}d Coordination"
    assert move == f"{armor.move} m"
    assert (special[0] if special else "") == armor.special


@pytest.mark.parametrize("weapon", data.WEAPONS, ids=lambda w: w.slug)
def test_every_weapon_has_the_damage_and_numbers_its_row_prints(weapon) -> None:
    name, damage, *rest = line(weapon.source).split("\t")
    special = rest[0] if rest else ""
    assert name == weapon.label
    assert damage.replace(" rd.", " round") == weapon.damage
    penetration = re.search(r"Penetration (\d+)", special)
    assert weapon.penetration == (int(penetration.group(1)) if penetration else 0)
    initiative = re.search(r"\+(\d+) initiative", special)
    assert weapon.initiative == (int(initiative.group(1)) if initiative else 0)
    for word in ("Daze", "Spray", "Area", "Burn", "Dual", "Stun"):
        assert (word.lower() in special.lower()) == (word.lower() in weapon.special.lower())
