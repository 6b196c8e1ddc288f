"""WEG d6 catalogs read against the seed lines they cite (issue 27 item 16).

Each entry's source names a line of 002 or 003; these tests open that line and check the
name, and for Force powers the skills their section of the Companion requires, and the
numbers of the advancement and droid rules, so a catalog that drifts from its seed fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rulesets.weg_d6 as weg
from rulesets.core import resolve_settings
from rulesets.weg_d6 import data

SEEDS = Path("/work/shared/seeds")
if not SEEDS.is_dir():  # pragma: no cover - the seeds live beside the project, not in it
    pytest.skip("the seed files are not on this machine", allow_module_level=True)


def _lines(number: str) -> list[str]:
    [path] = SEEDS.glob(f"{number}_*.txt")
    return path.read_text(encoding="utf-8").split("\n")


LINES = {"002": _lines("002"), "003": _lines("003")}


def seed_line(source: str) -> str:
    number, line = source.split(":")
    return LINES[number][int(line) - 1]


def plain(text: str) -> str:
    return re.sub(r"[*#]", "", text).strip().lower()


# Names the seed breaks across a line or misspells: the line names what the entry is.
SEED_SPELLING = {
    "bargain": "bar-",  # 003:2354 hyphenates "bar-gain" at the line's end
    "droid_repair": "and repair",  # 003:2911 continues the index row "Droid programming"
    "repulsorlift_repair": "repulsorlit repair",  # 003:2997's own spelling
    "advanced_medicine": "advanced skills",  # 002:47 names the kind, not the skill
}


@pytest.mark.parametrize("skill", data.SKILLS, ids=lambda s: s.slug)
def test_every_skill_is_named_on_the_line_it_cites(skill: data.Skill) -> None:
    expected = SEED_SPELLING.get(skill.slug, skill.label.lower())
    assert expected in plain(seed_line(skill.source))


# Section headings of the Companion's power chapters (003:1834-2249): the skills each needs.
def _power_sections() -> dict[int, tuple[str, ...]]:
    sections: dict[int, tuple[str, ...]] = {}
    current: tuple[str, ...] = ()
    for number, line in enumerate(LINES["003"][1832:2260], start=1833):
        heading = re.fullmatch(r"#### \**([A-Za-z +]+) Powers\**", line.strip())
        if heading:
            current = tuple(part.strip().lower() for part in heading.group(1).split("+"))
        elif line.startswith("#### "):
            sections[number] = current
    return sections


SECTIONS = _power_sections()


@pytest.mark.parametrize("power", data.FORCE_POWERS, ids=lambda p: p.slug)
def test_every_power_needs_the_skills_its_section_heading_names(power: data.ForcePower) -> None:
    line = int(power.source.split(":")[1])
    assert plain(seed_line(power.source)) == power.label.lower()
    assert power.skills == SECTIONS[line]


def test_every_power_of_the_two_chapters_is_in_the_catalog() -> None:
    assert set(SECTIONS) == {int(p.source.split(":")[1]) for p in data.FORCE_POWERS}


@pytest.mark.parametrize("power", data.FORCE_POWERS, ids=lambda p: p.slug)
def test_a_power_hands_a_dark_side_point_exactly_when_its_section_warns_so(power) -> None:
    start = int(power.source.split(":")[1])
    body = []
    for line in LINES["003"][start : start + 8]:
        if line.startswith("#### "):
            break
        body.append(line.lower())
    warned = any("warning" in line and "dark side point" in line for line in body)
    assert power.dark_side == warned


@pytest.mark.parametrize(
    ("value", "source", "pattern"),
    [
        (data.FORCE_SENSITIVITY_COST, "002:59", r"costs (\d+) character points"),
        (data.ATTRIBUTE_COST_MULTIPLIER_RE, "002:51", r"(\d+) times the number"),
        (data.RE_FORCE_POWER_COST, "002:802", r"spend (five) character points"),
        (data.ADVANCED_SKILL_MULTIPLIER, "002:47", r"(two) times the number"),
        (data.LEARN_FORCE_SKILL_WEEKS, "003:1762", r"(ten) weeks"),
        (data.DROID_BUILDING_DICE["npc"], "003:931", r"receive (\d+)d of building"),
        (data.DROID_BUILDING_DICE["pc"], "003:931", r"droids receive (\d+)d of building dice\."),
        (data.DROID_ATTRIBUTE_RATE, "003:933", r"costs (\d+)d of building"),
        (data.DROID_SPEED_RATE, "003:935", r"increase costs (\d+)d"),
        (data.DROID_ARMOR_RATE, "003:935", r"armor costs (\d+)d"),
        (data.DROID_SKILL_CAP_PIPS // 3, "003:947", r"higher than (\d+)d"),
        (data.PC_ATTRIBUTE_PIPS // 3, "003:913", r"total of (\d+)d\."),
        (data.NPC_ATTRIBUTE_PIPS // 3, "003:913", r"total of (\d+)d distributed"),
        (data.ALIEN_TEMPLATE_BONUS_PIPS // 3, "003:911", r"add (\d+)d to the given"),
        (data.INITIAL_POWER_COUNT_1E, "003:1778", r"masters (three) force powers"),
        (data.MASTER_MINIMUM_PIPS // 3, "003:1760", r"(\d+)d"),
    ],
)
def test_every_rule_number_is_the_one_its_line_prints(value: int, source: str, pattern) -> None:
    words = {"two": 2, "three": 3, "five": 5, "ten": 10}
    found = re.search(pattern, seed_line(source).lower())
    assert found, f"{source} no longer says {pattern}"
    number = found.group(1)
    assert value == (int(number) if number.isdigit() else words[number])


def test_the_three_initial_sets_are_the_ones_the_companion_lists() -> None:
    listed = {
        "control": LINES["003"][1781],
        "sense": LINES["003"][1787],
        "alter": LINES["003"][1795],
    }
    for skill, slugs in data.INITIAL_POWERS_1E.items():
        for slug in slugs:
            # The Alter set spells it "Shift Senses" (003:1796).
            assert data.POWER_BY_SLUG[slug].label.lower() in listed[skill].lower()


SETTINGS = resolve_settings(weg.SETTINGS, {})


def _spec_above(dice_above: int, cap: int) -> set[str]:
    sheet = weg.demo_sheet()
    skill = sheet["skills"]["space_transports"]
    sheet["specializations"]["space_transports_yt_1300"]["pips"] = skill + 3 * dice_above
    settings = resolve_settings(weg.SETTINGS, {"creation_specialization_cap": cap})
    return {v.code for v in weg.check(sheet, settings).errors}


def test_the_seeds_set_no_ceiling_on_a_new_specialization_so_by_default_there_is_none() -> None:
    assert SETTINGS["creation_specialization_cap"] == 0
    assert "creation_specialization_cap" not in _spec_above(3, 0)


@pytest.mark.parametrize(("above", "cap", "refused"), [(1, 1, False), (2, 1, True), (2, 2, False)])
def test_a_gm_ceiling_on_a_new_specialization_refuses_one_above_it(above, cap, refused) -> None:
    assert ("creation_specialization_cap" in _spec_above(above, cap)) is refused


def test_the_ceiling_says_where_it_comes_from() -> None:
    [setting] = [s for s in weg.SETTINGS if s.key == "creation_specialization_cap"]
    assert "002:37" in setting.source
    assert "not in either seed" in setting.source
