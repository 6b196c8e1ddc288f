"""A character's own gear: availability fees (003:1072-1080) and improving a weapon or armor
by one pip, in 1E with skill points and credits (003:1006-1070) and in R&E as a percentage of
its value (002:259-414). The pricing is the vehicles' (rulesets/weg_d6/vehicles.py, at the
character scale); this module says what a character's weapon row or armor improves.
Pure Python; nothing here writes a sheet yet (the ledger's purchase is still to come).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulesets.core import DieCode, InvalidEdit, Setting
from rulesets.weg_d6 import vehicles

# Readings of the gear rules a GM may change (the seed silent or unclear), gathered into the
# system's settings by rulesets/weg_d6/settings.py.
GEAR_SETTINGS: tuple[Setting, ...] = ()

# --- availability (003:1076-1078) ----------------------------------------------------------------


@dataclass(frozen=True)
class Fee:
    percent: int  # the usual fee or licence, of the purchase or use price
    low: int
    high: int
    credits: Fraction
    source: str


AVAILABILITY_FEES = {
    "F": (5, 1, 15, "003:1076"),  # a fee or permit
    "R": (10, 5, 100, "003:1078"),  # restricted: a licence, and a background check
}


def availability_fee(code: str, price: int, percent: int | None = None) -> Fee | None:
    """The fee an availability code asks on top of the price: none for a code without F or
    R; the usual percentage unless the GM names another inside the seed's range."""
    letters = {part.strip().upper() for part in str(code).replace(",", " ").split()}
    found = [key for key in ("R", "F") if key in letters]
    if not found:
        return None
    usual, low, high, source = AVAILABILITY_FEES[found[0]]
    chosen = usual if percent is None else percent
    if not low <= chosen <= high:
        raise InvalidEdit("percent", f"Between {low}% and {high}% ({source}).")
    if price < 0:
        raise InvalidEdit("price", "A price is 0 credits or more.")
    return Fee(chosen, low, high, Fraction(price * chosen, 100), source)


# --- 1E: skill points, credits, a day and a technology roll (003:1006-1070) ---------------------


def _own_code(damage: str) -> str:
    """The weapon's own code: a melee weapon's "STR+1D" improves its 1D, not Strength."""
    text = damage.strip().upper()
    if text.startswith("STR"):
        text = text[3:].lstrip("+") or "0D"
    try:
        return str(DieCode.parse(text).normalised())
    except ValueError:
        raise InvalidEdit("damage", f"“{damage}” is no damage code to improve.") from None


def weapon_improvement_1e(damage: str, stock: str, *, by_npc: bool = False):
    """The next pip on a weapon's damage: skill points as for a skill of that code, 10
    credits a point, a day, the technology roll set by the pips already added to the stock
    code (the 4th is Difficult: 003:1064-1066)."""
    now, base = DieCode.parse(_own_code(damage)), DieCode.parse(_own_code(stock))
    already = now.total_pips - base.total_pips
    if already < 0:
        raise InvalidEdit("damage", "The damage is below the weapon's stock code.")
    return vehicles.improvement(
        str(now), additive=False, scale="character", already=already, by_npc=by_npc
    )


def armor_improvement_1e(armor: str, *, already: int, cancel_dexterity: bool):
    """The next pip of armor, an additive code (+3 points, 003:1028), and the Dexterity pip it
    costs the wearer bought back too when asked (at the same additive price, 003:1034-1040)."""
    step = vehicles.improvement(armor, additive=True, scale="character", already=already)
    if not cancel_dexterity:
        return step, 0
    return step, step.skill_points


# --- R&E: a percentage of the item's value, one step at a time (002:259-414) -----------------


def weapon_modification_re(level: int, value: int, *, worker: str = "self"):
    """The R&E weapon modification `level` steps above stock (+1 up to +1D+2, 002:372-395),
    priced on its value; refused past the chart (002:264)."""
    try:
        return vehicles.modification("weapon", level, value, worker=worker)
    except ValueError as refused:
        raise InvalidEdit("level", str(refused)) from None


# --- 1E: a weapon's damage bought up a pip on the ledger (003:1008-1066) -------------------------

# The technology roll's named difficulty as a number: the low end of its band (003:2673-2677).
TECH_DIFFICULTY_NUMBER = {
    "Very Easy": 3,
    "Easy": 6,
    "Moderate": 11,
    "Difficult": 16,
    "Very Difficult": 21,
}
TECHNOLOGY_SKILL = "technology"  # a Knowledge skill (003:2990)
CREDITS_PER_POINT = vehicles.IMPROVEMENT_SCALE["character"][1]  # 003:1022


@dataclass(frozen=True)
class GearStep:
    index: int
    label: str
    from_damage: str
    to_damage: str
    skill_points: int
    credits: int
    technology: str
    difficulty: int
    time: str
    percent: int = 0  # R&E: the share of the weapon's original value


def _raised(damage: str) -> str:
    text = damage.strip().upper()
    strength = text.startswith("STR")
    code = DieCode.parse(_own_code(damage))
    raised = DieCode.from_pips(code.total_pips + 1)
    return f"STR{raised.format(signed=True)}" if strength else str(raised)


def weapon_step(sheet: dict, index: int) -> GearStep:
    """The next pip on the damage of the sheet's weapon row `index` (1E), priced from the
    weapon's stock code (kept on the row from its first improvement)."""
    if sheet.get("edition") != "1e":
        raise InvalidEdit("weapon", "1st edition improves gear with skill points (003:1006).")
    weapons = sheet["weapons"]
    if not 0 <= index < len(weapons):
        raise InvalidEdit("weapon", "Choose one of the sheet's weapons.")
    row = weapons[index]
    if not row["damage"]:
        raise InvalidEdit("weapon", f"{row['name']} has no damage code to improve.")
    step = weapon_improvement_1e(row["damage"], row.get("stock") or row["damage"])
    return GearStep(
        index,
        f"{row['name']} damage",
        row["damage"],
        _raised(row["damage"]),
        step.skill_points,
        step.credits,
        step.technology,
        TECH_DIFFICULTY_NUMBER[step.technology],
        step.time,
    )


def weapon_steps(sheet: dict) -> list[GearStep]:
    """Every weapon row that can be improved, with its next pip's price: 1E in full; R&E's
    credits depend on the weapon's value, asked when it is bought (shown here for 0)."""
    found = []
    for index in range(len(sheet.get("weapons", []))):
        try:
            if sheet.get("edition") == "1e":
                found.append(weapon_step(sheet, index))
            else:
                found.append(modification_step(sheet, index, 0))
        except InvalidEdit:
            continue
    return found


# R&E: the modification roll's named difficulty as a number, the low end of its band
# (003:2673-2677; Heroic 31, 002:428). The roll is the Technical attribute's, or a repair skill
# of the sheet's named for the weapon (a "blaster repair" the player added).
RE_DIFFICULTY_NUMBER = {**TECH_DIFFICULTY_NUMBER, "Heroic": 31}
MODIFICATION_TIME = "a month between rolls"  # 002:266


def modification_step(sheet: dict, index: int, value: int, worker: str = "self") -> GearStep:
    """The next R&E pip on a weapon row's damage: a share of the weapon's original value,
    doubled or tripled when someone else does the work (002:262-266, 002:372-395); never past
    +1D+2 above its stock code (002:264)."""
    if sheet.get("edition") == "1e":
        raise InvalidEdit("weapon", "1st edition pays skill points (003:1006).")
    weapons = sheet["weapons"]
    if not 0 <= index < len(weapons):
        raise InvalidEdit("weapon", "Choose one of the sheet's weapons.")
    row = weapons[index]
    if not row["damage"]:
        raise InvalidEdit("weapon", f"{row['name']} has no damage code to improve.")
    if worker not in vehicles.WORKER_FACTORS:
        raise InvalidEdit("worker", "Who does the work: the character, or someone hired.")
    now = DieCode.parse(_own_code(row["damage"])).total_pips
    stock = DieCode.parse(_own_code(row.get("stock") or row["damage"])).total_pips
    step = weapon_modification_re(now - stock + 1, value, worker=worker)
    return GearStep(
        index,
        f"{row['name']} damage",
        row["damage"],
        _raised(row["damage"]),
        0,
        -(-step.credits.numerator // step.credits.denominator),  # whole credits, rounded up
        step.difficulty,
        RE_DIFFICULTY_NUMBER[step.difficulty],
        MODIFICATION_TIME,
        step.percent * vehicles.WORKER_FACTORS[worker],
    )


def bought(sheet: dict, step: GearStep, *, works: bool) -> dict:
    """The sheet after paying for `step`: the credits go either way; the damage rises only
    when the technology roll worked (003:1060: else the points are wasted)."""
    if sheet["gear"]["credits"] < step.credits:
        raise InvalidEdit(
            "credits", f"It costs {step.credits} credits; {sheet['gear']['credits']} in hand."
        )
    new = {**sheet, "weapons": [dict(row) for row in sheet["weapons"]]}
    new["gear"] = dict(sheet["gear"], credits=sheet["gear"]["credits"] - step.credits)
    row = new["weapons"][step.index]
    row.setdefault("stock", None)
    row["stock"] = row["stock"] or step.from_damage
    if works:
        row["damage"] = step.to_damage
    return new


def unbought(sheet: dict, index: int, *, from_damage: str, to_damage: str, credits: int) -> dict:
    """The sheet with a weapon purchase undone: its credits back, its damage as before."""
    weapons = sheet["weapons"]
    if not 0 <= index < len(weapons) or weapons[index]["damage"] != to_damage:
        raise InvalidEdit("weapon", "The weapon changed since: undo the later purchases first.")
    new = {**sheet, "weapons": [dict(row) for row in weapons]}
    new["gear"] = dict(sheet["gear"], credits=sheet["gear"]["credits"] + credits)
    row = new["weapons"][index]
    row["damage"] = from_damage
    if row.get("stock") == from_damage:
        row.pop("stock")  # back at its stock code: nothing bought on it any more
    return new
