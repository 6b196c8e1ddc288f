"""Readings the SWd10 seed leaves open (issue 27, item 16): each choice changes the answer."""

from __future__ import annotations

import copy

import pytest

from rulesets import swd10
from rulesets.core import resolve_settings
from rulesets.swd10 import xp
from rulesets.swd10.rules import owned_merits, xp_spent


def _setting(key: str):
    [setting] = [s for s in swd10.SETTINGS if s.key == key]
    return setting


def _acute_senses_raised_in_play(reading: str) -> int:
    """XP spent raising Acute Senses 1 → 3 after creation, under `reading`."""
    sheet = swd10.demo_sheet()
    sheet["merits"].append({"slug": "acute_senses", "value": 1, "choice": ""})
    sheet["stage"] = "play"
    sheet["baseline"] = copy.deepcopy(
        {
            "attributes": sheet["attributes"],
            "abilities": sheet["abilities"],
            "force_knowledges": sheet["force_knowledges"],
            "willpower": sheet["willpower"],
            "merits": owned_merits(sheet),
            "languages": sheet["languages"],
        }
    )
    sheet["merits"][-1]["value"] = 3
    settings = resolve_settings(swd10.SETTINGS, {xp.MERIT_RAISE.key: reading})
    return sum(c.amount for c in xp_spent(sheet, settings) if "Acute Senses" in c.explanation)


def test_by_default_raising_a_merit_costs_the_dots_added_as_the_digest_proposes() -> None:
    setting = _setting("merit_raise_xp")
    assert setting.default == "difference"
    assert "L320" in setting.source and "17" in setting.source


@pytest.mark.parametrize(("reading", "xp_spent_on_it"), [("difference", 6), ("new_value", 9)])
def test_each_merit_raise_reading_prices_acute_senses_1_to_3_differently(
    reading: str, xp_spent_on_it: int
) -> None:
    assert _acute_senses_raised_in_play(reading) == xp_spent_on_it


def _other_side_messages(reading: bool, ability: str, light: int, dark: int) -> list[str]:
    """What the check says of `ability` on a character with these sides, under `reading`."""
    sheet = swd10.demo_sheet()
    sheet["power"], sheet["light_side"], sheet["dark_side"] = 8, light, dark
    sheet["force_abilities"] = [ability]
    settings = resolve_settings(swd10.SETTINGS, {"side_tag_bars": reading})
    report = swd10.check(sheet, settings)
    return [
        v.message for v in report.errors + report.warnings if v.code == "force_ability_other_side"
    ]


def test_by_default_a_side_tag_bars_nobody_as_the_digest_proposes() -> None:
    setting = _setting("side_tag_bars")
    assert setting.default is False
    assert "L130" in setting.source and "11" in setting.source


@pytest.mark.parametrize(
    ("reading", "ability", "light", "dark", "said"),
    [
        (False, "tempered_aggression", 5, 0, []),
        (True, "tempered_aggression", 5, 0, ["a Light side character cannot take it"]),
        (True, "tempered_aggression", 0, 0, []),
        (False, "vital_transfer", 0, 4, []),
        (True, "vital_transfer", 0, 4, ["a Dark side character cannot take it"]),
        (True, "vital_transfer", 4, 0, []),
    ],
)
def test_each_side_tag_reading_bars_or_allows_an_ability_of_the_other_side(
    reading: bool, ability: str, light: int, dark: int, said: list[str]
) -> None:
    messages = _other_side_messages(reading, ability, light, dark)
    assert len(messages) == len(said)
    for message, words in zip(messages, said, strict=True):
        assert words in message


STARTING = ("starting_light_side", "starting_dark_side", "starting_destiny_points")


def test_by_default_a_new_hero_starts_with_no_sides_and_no_destiny_as_the_digest_proposes() -> None:
    for key in STARTING:
        setting = _setting(key)
        assert setting.default == 0
        assert "2.7" in setting.source and "8" in setting.source
    sheet = swd10.blank_sheet({})
    assert (sheet["light_side"], sheet["dark_side"], sheet["info"]["destiny_points"]) == (0, 0, 0)


@pytest.mark.parametrize(
    ("chosen", "sides_and_destiny"),
    [
        ({"starting_light_side": 1}, (1, 0, 0)),
        ({"starting_dark_side": 1}, (0, 1, 0)),
        ({"starting_destiny_points": 3}, (0, 0, 3)),
    ],
)
def test_each_starting_reading_sets_what_a_new_hero_starts_with(
    chosen: dict, sides_and_destiny: tuple[int, int, int]
) -> None:
    sheet = swd10.blank_sheet(chosen)
    got = (sheet["light_side"], sheet["dark_side"], sheet["info"]["destiny_points"])
    assert got == sides_and_destiny
    assert swd10.validate_sheet(sheet) == sheet
    report = swd10.check(sheet, resolve_settings(swd10.SETTINGS, chosen))
    assert not [v for v in report.errors if v.code == "side_above_power"]


def test_a_starting_side_above_a_new_heros_power_is_refused() -> None:
    with pytest.raises(ValueError, match="at most 1"):
        _setting("starting_light_side").coerce("2")


def _addiction_lost_in_play(reading: str, after: int) -> int:
    """XP spent taking Addiction from 2 to `after` points after creation, under `reading`."""
    sheet = swd10.demo_sheet()
    sheet["merits"].append({"slug": "addiction", "value": 2, "choice": ""})
    sheet["stage"] = "play"
    sheet["baseline"] = copy.deepcopy(
        {
            "attributes": sheet["attributes"],
            "abilities": sheet["abilities"],
            "force_knowledges": sheet["force_knowledges"],
            "willpower": sheet["willpower"],
            "merits": owned_merits(sheet),
            "languages": sheet["languages"],
        }
    )
    if after:
        sheet["merits"][-1]["value"] = after
    else:
        del sheet["merits"][-1]
    settings = resolve_settings(swd10.SETTINGS, {xp.FLAW_BUY_OFF.key: reading})
    return sum(c.amount for c in xp_spent(sheet, settings) if "Addiction" in c.explanation)


def test_by_default_losing_a_flaw_costs_no_xp_as_the_sheet_always_did() -> None:
    setting = _setting("flaw_buy_off_xp")
    assert setting.default == "free"
    assert "17" in setting.source


@pytest.mark.parametrize(
    ("reading", "after", "xp_spent_on_it"),
    [("free", 0, 0), ("merit_price", 0, 6), ("free", 1, 0), ("merit_price", 1, 3)],
)
def test_each_flaw_reading_prices_losing_addiction_differently(
    reading: str, after: int, xp_spent_on_it: int
) -> None:
    assert _addiction_lost_in_play(reading, after) == xp_spent_on_it
