"""A character's own gear: availability fees (003:1072-1080) and improving a weapon or armor
by one pip, in 1E with skill points and credits (003:1006-1070) and in R&E as a percentage of
its value (002:259-414). The pricing is the vehicles' (rulesets/weg_d6/vehicles.py, at the
character scale); this module says what a character's weapon row or armor line improves
(the ledger's gear purchase, sheets/advancement/services.py, writes it). Pure Python.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulesets.core import DieCode, InvalidEdit, Setting
from rulesets.weg_d6 import vehicles

# Readings of the gear rules a GM may change (the seed silent or unclear), gathered into the
# system's settings by rulesets/weg_d6/settings.py.
VIBROAXE_READING = "vibroaxe_damage"
FAILURE_READING = "re_modification_failure"
MONTH_READING = "re_modification_month"
ARMOR_READING = "re_armor_modification"
# The vibroaxe's own code above Strength: the melee chart's STR+2D (003:2704) or Captain
# Dedelin's crude one, STR+1D+2 (003:2487).
VIBROAXE_DAMAGE = {"chart": 6, "dedelin": 5}
VIBROAXE_SOURCES = {"chart": "003:2704", "dedelin": "003:2487"}
FAILURE_SHARES = {"spent": Fraction(1), "half": Fraction(1, 2), "kept": Fraction(0)}
GEAR_SETTINGS: tuple[Setting, ...] = (
    Setting(
        VIBROAXE_READING,
        "Vibroaxe damage",
        "chart",
        "003:2704 (the melee chart); 003:2487 gives Dedelin's crude one STR+1D+2",
        help="The melee chart and one NPC's line disagree; the chart is the rule.",
        choices=(
            ("chart", "STR+2D, the melee chart (003:2704)"),
            ("dedelin", "STR+1D+2, as Dedelin's vibroaxe (003:2487)"),
        ),
    ),
    Setting(
        FAILURE_READING,
        "R&E modification: credits of a failed roll",
        "spent",
        "002:259-266 say nothing of a failure's cost; 1E wastes what was paid (003:1060)",
        help="What a failed modification roll leaves of the credits paid for it.",
        choices=(
            ("spent", "Spent: parts and labour are paid either way"),
            ("half", "Half spent, half back"),
            ("kept", "Nothing spent: a failed roll costs no credits"),
        ),
    ),
    Setting(
        MONTH_READING,
        "R&E modification: one roll a month",
        "adventure",
        "002:266 (a new roll every month of game time); Datapad keeps no game calendar",
        help="The GM's end of an adventure is the only passing of game time Datapad knows.",
        choices=(
            ("adventure", "One roll per item until the GM ends the adventure"),
            ("off", "Not counted: the GM keeps the calendar"),
        ),
    ),
    Setting(
        ARMOR_READING,
        "R&E modification of armor",
        "weapon",
        "002:259-414 chart no armor; priced as a weapon's damage (002:372-395)",
        choices=(
            ("weapon", "As a weapon's damage: 15% to 50% of its value"),
            ("off", "Not offered"),
        ),
    ),
)


def vibroaxe_pips(settings: Mapping[str, Any]) -> int:
    """The vibroaxe's pips above Strength under the table's reading (the compendium's built-in
    vibroaxe should read this instead of the chart's 6)."""
    return VIBROAXE_DAMAGE[settings.get(VIBROAXE_READING, "chart")]


def _up(amount: Fraction) -> int:
    return -(-amount.numerator // amount.denominator)


def failed_credits(credits: int, settings: Mapping[str, Any]) -> int:
    """What a failed R&E modification roll keeps spent of `credits` (whole, rounded up)."""
    return _up(FAILURE_SHARES[settings.get(FAILURE_READING, "spent")] * credits)


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
    kind: str = "weapon"  # or "armor": a line of the sheet's equipment
    part: str = ""  # armor: "physical" or "energy"
    dexterity: int = 0  # armor, 1E: the pip of Dexterity the wearer loses (003:1034)
    keeps_dexterity: bool = False  # 1E: the Dexterity pip bought back with it (003:1036)
    waiting: bool = False  # R&E: this item had its roll this month (002:266)

    @property
    def key(self) -> str:
        """The ledger's trait after "gear.": "weapon.0", "armor.2.physical"."""
        if self.kind == "armor":
            return f"armor.{self.index}.{self.part}{'.dex' if self.keeps_dexterity else ''}"
        return f"weapon.{self.index}"


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


def bought(sheet: dict, step: GearStep, *, works: bool, paid: int | None = None) -> dict:
    """The sheet after paying `paid` credits (the step's price unless told) for `step`; the
    damage rises only when the technology roll worked (003:1060: else the points are
    wasted; R&E's failed credits follow the table's reading, `failed_credits`)."""
    if sheet["gear"]["credits"] < step.credits:
        raise InvalidEdit(
            "credits", f"It costs {step.credits} credits; {sheet['gear']['credits']} in hand."
        )
    new = {**sheet, "weapons": [dict(row) for row in sheet["weapons"]]}
    spent = step.credits if paid is None else paid
    new["gear"] = dict(sheet["gear"], credits=sheet["gear"]["credits"] - spent)
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


# --- armor: a line of the sheet's equipment (the compendium writes "Name (armor: ...)") ----------

ARMOR_LINE = re.compile(r"^(?P<name>.+?)\s*\(armor:\s*(?P<body>[^)]*)\)\s*$")
ARMOR_PART = re.compile(
    r"^(?P<code>[+-]?\d+D(?:[+-]\d+)?|[+-]\d)\s+(?P<what>physical|energy|dexterity)$", re.I
)
ARMOR_PARTS = ("physical", "energy")


@dataclass(frozen=True)
class ArmorPiece:
    line: int  # its line in the equipment text
    name: str
    parts: tuple[str, ...]  # the bracket's parts as written
    codes: dict[str, int]  # physical / energy pips
    dexterity: int  # pips of Dexterity lost, 0 or more


def armor_pieces(sheet: Mapping[str, Any]) -> list[ArmorPiece]:
    """The armor lines of the sheet's equipment, as the compendium writes them."""
    found = []
    for number, line in enumerate(sheet.get("gear", {}).get("equipment", "").split("\n")):
        matched = ARMOR_LINE.match(line.strip())
        if matched is None:
            continue
        parts = tuple(p.strip() for p in matched["body"].split(",") if p.strip())
        codes, dexterity = {}, 0
        for part in parts:
            code = ARMOR_PART.match(part)
            if code is None:
                continue
            written = code["code"]
            pips = DieCode.parse(written).total_pips if "D" in written.upper() else int(written)
            if code["what"].lower() == "dexterity":
                dexterity = max(0, -pips)
            else:
                codes[code["what"].lower()] = pips
        found.append(ArmorPiece(number, matched["name"], parts, codes, dexterity))
    return found


def _armor_text(piece: ArmorPiece, part: str, pips: int, dexterity: int) -> str:
    """The piece's line with `part` at `pips` and the Dexterity penalty at `dexterity`."""
    out, dex_written = [], False
    for written in piece.parts:
        code = ARMOR_PART.match(written)
        what = code["what"].lower() if code else ""
        if what == part:
            out.append(f"{DieCode.from_pips(pips).format(signed=True)} {part}")
        elif what == "dexterity":
            dex_written = True
            if dexterity:
                out.append(f"{DieCode.from_pips(-dexterity)} Dexterity")
        else:
            out.append(written)
    if dexterity and not dex_written:
        codes = sum(1 for w in out if ARMOR_PART.match(w))
        out.insert(codes, f"{DieCode.from_pips(-dexterity)} Dexterity")
    return f"{piece.name} (armor: {', '.join(out) or 'no bonus'})"


def _armor_piece(sheet: Mapping[str, Any], line: int, part: str) -> ArmorPiece:
    for piece in armor_pieces(sheet):
        if piece.line == line and part in piece.codes:
            return piece
    raise InvalidEdit("armor", "Choose one of the sheet's armor codes.")


def armor_step(
    sheet: Mapping[str, Any],
    line: int,
    part: str,
    *,
    already: int = 0,
    bought_back: int = 0,
    keep_dexterity: bool = False,
    value: int = 0,
    worker: str = "self",
    settings: Mapping[str, Any] | None = None,
) -> GearStep:
    """The next pip on one code of an armor line. 1E (003:1026-1040): an additive code, its
    dice +3 skill points a pip, 10 credits a point, a day, the technology roll by the pips
    `already` added (003:1060-1064); each pip costs the wearer a pip of Dexterity unless it
    is bought back at the same additive price (its own code: `bought_back` pips so far).
    R&E (002:259-266): the weapons' chart on the armor's value, under the armor reading."""
    piece = _armor_piece(sheet, line, part)
    now = piece.codes[part]
    label = f"{piece.name} {part}"
    shown = DieCode.from_pips(now).format(signed=True)
    raised = DieCode.from_pips(now + 1).format(signed=True)
    if sheet.get("edition") == "1e":
        step = vehicles.improvement(shown, additive=True, scale="character", already=already)
        points, time = step.skill_points, step.time
        if keep_dexterity:
            back = vehicles.improvement(
                str(DieCode.from_pips(bought_back)), additive=True, scale="character"
            )
            points += back.skill_points
            time = f"{step.time} and {back.time}"
        return GearStep(
            line, label, shown, raised, points, points * CREDITS_PER_POINT, step.technology,
            TECH_DIFFICULTY_NUMBER[step.technology], time, kind="armor", part=part,
            dexterity=0 if keep_dexterity else 1, keeps_dexterity=keep_dexterity,
        )  # fmt: skip
    if (settings or {}).get(ARMOR_READING, "weapon") == "off":
        raise InvalidEdit("armor", "This table's reading offers no R&E armor modification.")
    if worker not in vehicles.WORKER_FACTORS:
        raise InvalidEdit("worker", "Who does the work: the character, or someone hired.")
    modified = weapon_modification_re(already + 1, value, worker=worker)
    return GearStep(
        line, label, shown, raised, 0, _up(modified.credits),
        modified.difficulty, RE_DIFFICULTY_NUMBER[modified.difficulty], MODIFICATION_TIME,
        modified.percent * vehicles.WORKER_FACTORS[worker], kind="armor", part=part,
    )  # fmt: skip


def armor_steps(
    sheet: Mapping[str, Any], already: Mapping[str, int], settings: Mapping[str, Any]
) -> list[GearStep]:
    """Every armor code's next pip (1E: with and without the Dexterity bought back), priced
    for a value of 0 in R&E (asked when bought)."""
    found = []
    for piece in armor_pieces(sheet):
        for part in ARMOR_PARTS:
            if part not in piece.codes:
                continue
            done = already.get(f"armor.{piece.line}.{part}", 0)
            back = already.get(f"armor.{piece.line}.{part}.dex", 0)
            keeps = (False, True) if sheet.get("edition") == "1e" else (False,)
            for keep in keeps:
                try:
                    found.append(
                        armor_step(
                            sheet, piece.line, part, already=done + back, bought_back=back,
                            keep_dexterity=keep, settings=settings,
                        )
                    )  # fmt: skip
                except InvalidEdit:
                    continue
    return found


def armor_bought(sheet: dict, step: GearStep, *, works: bool, paid: int) -> dict:
    """The sheet after paying `paid` credits for an armor step: the code (and the wearer's
    Dexterity penalty, 003:1034) change only when the roll worked."""
    if sheet["gear"]["credits"] < step.credits:
        raise InvalidEdit(
            "credits", f"It costs {step.credits} credits; {sheet['gear']['credits']} in hand."
        )
    piece = _armor_piece(sheet, step.index, step.part)
    new = {**sheet, "gear": dict(sheet["gear"], credits=sheet["gear"]["credits"] - paid)}
    if works:
        lines = new["gear"]["equipment"].split("\n")
        pips = DieCode.parse(step.to_damage).total_pips
        lines[piece.line] = _armor_text(piece, step.part, pips, piece.dexterity + step.dexterity)
        new["gear"]["equipment"] = "\n".join(lines)
    return new


def armor_unbought(
    sheet: dict, line: int, part: str, *, from_code: str, to_code: str, dexterity: int, credits: int
) -> dict:
    """The sheet with an armor purchase undone: the credits back, the code and the
    Dexterity penalty as before."""
    try:
        piece = _armor_piece(sheet, line, part)
    except InvalidEdit:
        piece = None
    if piece is None or piece.codes[part] != DieCode.parse(to_code).total_pips:
        raise InvalidEdit("armor", "The armor changed since: undo the later purchases first.")
    new = {**sheet, "gear": dict(sheet["gear"], credits=sheet["gear"]["credits"] + credits)}
    if from_code != to_code:
        lines = new["gear"]["equipment"].split("\n")
        pips = DieCode.parse(from_code).total_pips
        lines[line] = _armor_text(piece, part, pips, max(0, piece.dexterity - dexterity))
        new["gear"]["equipment"] = "\n".join(lines)
    return new
