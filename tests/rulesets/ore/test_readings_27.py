"""Readings the O.R.E. seed leaves open (issue 27, item 16): each choice changes the answer."""

from __future__ import annotations

import pytest

import rulesets.ore as ore


def _ithorian(settings: dict) -> dict:
    sheet = ore.blank_sheet(settings)
    return ore.apply_edit(sheet, "species", "ithorian", settings)


def _pools(sheet: dict, settings: dict) -> dict[str, str]:
    return {s["id"]: s["pool"]["text"] for s in ore.derived(sheet, settings)["skills"]}


def test_by_default_an_ithorians_die_goes_to_lore_nature_as_the_digest_proposes() -> None:
    [setting] = [s for s in ore.SETTINGS if s.key == "ithorian_skill_die"]
    assert setting.default == "lore_nature"
    assert "L802" in setting.source and "1.3" in setting.source


@pytest.mark.parametrize(
    ("reading", "with_the_die", "without_it"),
    [("lore_nature", "lore_nature", "survival"), ("survival", "survival", "lore_nature")],
)
def test_each_reading_gives_an_ithorian_the_hard_die_in_its_own_skill(
    reading: str, with_the_die: str, without_it: str
) -> None:
    settings = {"ithorian_skill_die": reading}
    sheet = _ithorian(settings)
    if without_it not in _pools(sheet, settings):
        name = "Survival" if without_it == "survival" else "Lore [nature]"
        sheet = ore.apply_edit(sheet, "skill.add", name, settings)
    pools = _pools(sheet, settings)
    assert pools[with_the_die] == "1d+1hd"
    assert pools[without_it] == "1d"


@pytest.mark.parametrize(
    ("reading", "line"), [("lore_nature", "Lore, nature +1hd"), ("survival", "Survival +1hd")]
)
def test_the_species_line_names_the_skill_the_reading_gives_the_die(
    reading: str, line: str
) -> None:
    settings = {"ithorian_skill_die": reading}
    assert ore.derived(_ithorian(settings), settings)["species"]["abilities"] == [line]
