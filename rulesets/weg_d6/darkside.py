"""The Dark Side beyond its points: calling on it and atonement (1E, 003:1690-1730),
redemption (R&E, 002:823-827), and the GM's consumption die on every point gained
(003:1708). Pure rules with their seed lines.

Calling on the Dark Side is the player's roll (the roll panel's "darkside.call"); a Dark
Side Point for an evil act, atonement and redemption are the GM's calls (003:1716, 003:1726,
002:825), made on the ledger's GM panel. The sheet keeps, for this adventure only, how many
times the character called and whether a point was atoned (`dark_side`, absent until used).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rulesets.core import InvalidEdit
from rulesets.core.parsing import parse_choice
from rulesets.weg_d6.data import EDITION_1E, EDITION_RE, MAX_POINTS

CALL_DIFFICULTY = 6  # the first call (003:1692)
CALL_STEP = 3  # each further call this adventure (003:1692, 003:1702)
NOT_HARMFUL = 10  # none of the round's actions aims to harm a living being (003:1692)
CALL_SOURCE = "003:1692-1702"
CONSUMED_SOURCE = "003:1708"
ATONE_SOURCE = "003:1724-1730"
REDEEM_SOURCE = "002:823-827"
REDEEMED_DARK_SIDE = 5  # 002:827
CALL_WITH = (("perception", "Perception"), ("control", "Control"))  # the player's choice
MOST_CALLS = 60

# Readings (rulesets/weg_d6/settings.py): what the seed leaves open.
CALLS_COUNTED = "dark_side_calls_counted"
REDEMPTION_READING = "redemption_dark_side"


def _state(sheet: Mapping[str, Any]) -> dict:
    return dict(sheet.get("dark_side") or {"calls": 0, "atoned": False})


def calls_this_adventure(sheet: Mapping[str, Any]) -> int:
    return _state(sheet)["calls"]


def atoned_this_adventure(sheet: Mapping[str, Any]) -> bool:
    return _state(sheet)["atoned"]


def call_difficulty(calls_before: int, *, harmful: bool) -> int:
    """6 for the first call of an adventure, 3 more for each call before it this adventure,
    10 more when none of the round's actions aims to harm a living being (003:1692)."""
    return CALL_DIFFICULTY + CALL_STEP * calls_before + (0 if harmful else NOT_HARMFUL)


def may_call(sheet: Mapping[str, Any]) -> bool:
    """1E characters call on the Dark Side (003:1690); droids have no Force to call on."""
    return sheet["edition"] == EDITION_1E and sheet["kind"] != "droid"


def consumption_chance(dark_side_points: int) -> Fraction:
    """The chance the GM's 1D is at most the Dark Side Points now held (003:1708)."""
    return Fraction(min(max(dark_side_points, 0), 6), 6)


def consumed(die: int, dark_side_points: int) -> bool:
    return die <= dark_side_points


# --- the sheet edits (rulesets/weg_d6/edits.py hands "darkside.*" here) ---------------------


def _points(sheet: dict, key: str, change: int, trait: str) -> None:
    value = sheet["points"][key] + change
    if value > MAX_POINTS:
        raise InvalidEdit(trait, f"At most {MAX_POINTS} points.")
    sheet["points"][key] = value


def edit(sheet: dict, trait: str, rest: str, raw: str, settings: Mapping[str, Any]) -> None:
    """darkside.called success|failure (the roll's result); darkside.gain (the GM's point
    for an evil act); darkside.atone; darkside.redeem; darkside.adventure_end."""
    state = _state(sheet)
    if rest == "called":
        if not may_call(sheet):
            raise InvalidEdit(trait, "Only a 1st-edition character calls on the Dark Side.")
        choices = (("success", "success"), ("failure", "failure"))
        outcome = parse_choice(trait, raw, choices, label="The call's result")
        if state["calls"] >= MOST_CALLS:
            raise InvalidEdit(trait, f"At most {MOST_CALLS} calls in an adventure.")
        if outcome == "success":  # 003:1698: one Force Point (this round's) and one point
            _points(sheet, "force", 1, trait)
            _points(sheet, "dark_side", 1, trait)
        if outcome == "success" or settings[CALLS_COUNTED] == "every":
            state["calls"] += 1
        sheet["dark_side"] = state
    elif rest == "gain":
        _points(sheet, "dark_side", 1, trait)  # 003:1714, 003:1722
    elif rest == "atone":
        if sheet["points"]["dark_side"] < 1:
            raise InvalidEdit(trait, "No Dark Side Point to atone for.")
        if state["atoned"]:
            raise InvalidEdit(trait, "One Dark Side Point an adventure, at most (003:1730).")
        if sheet["points"]["force"] < 1:
            raise InvalidEdit(trait, "Atoning spends a Force Point, and none is left.")
        sheet["points"]["force"] -= 1
        sheet["points"]["dark_side"] -= 1
        state["atoned"] = True
        sheet["dark_side"] = state
    elif rest == "redeem":
        if sheet["edition"] != EDITION_RE:
            raise InvalidEdit(trait, "Redemption is an R&E rule (002:823).")
        if sheet["points"]["dark_side"] < 1:
            raise InvalidEdit(trait, "A character without Dark Side Points needs no redemption.")
        sheet["points"]["force"] = 0  # 002:827; the Character Points go in the ledger
        held = sheet["points"]["dark_side"]
        if settings[REDEMPTION_READING] == "at_most_five":
            sheet["points"]["dark_side"] = min(held, REDEEMED_DARK_SIDE)
        else:
            sheet["points"]["dark_side"] = REDEEMED_DARK_SIDE
    elif rest == "adventure_end":
        # 003:1702: the difficulty goes back to 6; 003:1730: the atoning point comes back.
        if state["atoned"]:
            _points(sheet, "force", 1, trait)
        sheet.pop("dark_side", None)
    else:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of this sheet.")


def apply(sheet: Mapping[str, Any], what: str, raw: str, settings: Mapping[str, Any]) -> dict:
    """A copy of `sheet` after one Dark Side edit (for callers without the edit service)."""
    new = copy.deepcopy(dict(sheet))
    edit(new, f"darkside.{what}", what, raw, settings)
    return new
