"""WEG d6 rolls and their exact odds: a die code totalled against a difficulty number.

Sources: 003:91-99 (dice and pips, a Force Point doubles dice and pips, pips never carry in
play), 003:133-139 (−1D per extra action), 003:2671-2677 (the difficulty bands), 002:420-428
(the Wild Die's 1, Heroic), 002:480-489 (Character Points in play: how many depends on what
the roll is for, so the roller says it), 003:1802-1804 (a 1E power not yet mastered: +5
difficulty); digest rules/weg_d6.md §1.5, §1.6, §6.3, §6.4. The older Dark Side chance
(`consumption_odds`) and the attribute roll (`roll_code`) stay where the rules that use
them are (rules.py, costs.py).

R&E rolls one die of the code as the Wild Die: a 6 is added and rolled again, without end;
a 1 follows the GM's reading. 1st edition (seed 003) has no Wild Die.

The odds are exact. An open-ended die V (the Wild Die, or a Character Point die) is
6·J + R with J the number of 6s before the first other face (P(J = j) = (1/6)^j · 5/6) and
R uniform on 1-5, independent. For a target y, P(X + 6·(J1 + ... + Jk) ≥ y) is a finite
sum over the j below the point where X alone must reach y, plus the rest of the
negative binomial's mass, 1 − (that finite sum): every longer run of 6s succeeds. Nothing
is cut off, so `Odds.exact` is True and a test checks a closed form.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rulesets.core.diecode import DieCode, DieCodeError
from rulesets.core.rolls import (
    Bar,
    Beside,
    InvalidRoll,
    Odds,
    Rollable,
    RollOption,
    RollResult,
)
from rulesets.core.settings import Setting, resolve_settings
from rulesets.weg_d6 import darkside, wounds
from rulesets.weg_d6.data import (
    ATTRIBUTE_SLUGS,
    EDITION_1E,
    EDITION_RE,
    FORCE_SKILL_SLUGS,
    WOUND_BY_SLUG,
)

SIDES = 6
MAX_ROLL_DICE = 130  # a 60D code doubled by a Force Point, and 10 bonus dice
MAX_BONUS_DICE = 10
MAX_BONUS_PIPS = 12
MAX_ACTIONS = 10
MAX_DIFFICULTY = 200
MAX_CP_ASKED = 5  # the most any purpose allows (002:485)
DEFAULT_DIFFICULTY = 10  # the top of Easy (003:2674)
UNMASTERED_DIFFICULTY = 5  # 003:1804: a power not yet mastered, every difficulty +5
# The combat difficulty scale by range (003:2680-2684); under 3 m is point-blank (003:2706).
RANGE_BANDS: dict[str, tuple[str, int, int]] = {
    "point_blank": ("Point-blank (under 3 m)", 3, 5),
    "short": ("Short", 6, 10),
    "medium": ("Medium", 11, 15),
    "long": ("Long", 16, 20),
}
RANGE_SOURCE = "003:2680-2684, 003:2706"
# The skills a ranged weapon is fired with, and their specializations (keys start alike).
RANGED_SKILLS = ("blaster", "grenade", "heavy_weapons")
# A wielder with Control adds its code to a lightsaber's damage (003:2706).
LIGHTSABER_SOURCE = "003:2706"
OUTSIDE = "outside the seeds"

WILD_ONE = "dice_wild_one"
CP_DIE = "dice_character_point_die"

DICE_SETTINGS: tuple[Setting, ...] = (
    Setting(
        WILD_ONE,
        "A 1 on the Wild Die (R&E)",
        "complication",
        "002:422 names all three; the base rule it amends is outside the seeds (digest §1.5)",
        help="1st edition rolls no Wild Die.",
        choices=(
            ("complication", "a complication; the dice count as rolled"),
            ("subtract", "remove the 1 and the highest other die"),
            ("count", "count it like any die"),
        ),
    ),
    Setting(
        CP_DIE,
        "A Character Point spent on a roll (R&E)",
        "wild",
        f"002:483-489 set how many; what each adds is {OUTSIDE} (digest §6.4)",
        choices=(
            ("wild", "one die that is rolled again on a 6"),
            ("plain", "one plain die"),
        ),
    ),
)
DICE_READINGS: tuple[str, ...] = tuple(setting.key for setting in DICE_SETTINGS)


@dataclass(frozen=True)
class Band:
    label: str
    low: int
    high: int | None
    source: str


# The seeds' ladder (003:2671-2677; Heroic from 002:428). Below 3 the 1E ladder has no
# name; the R&E core's "Very Easy 1-5" is not in the seeds and says so.
BANDS: tuple[Band, ...] = (
    Band("Very Easy", 1, 2, f"{OUTSIDE}: the R&E core's Very Easy 1–5 (digest §1.6)"),
    Band("Very Easy", 3, 5, "003:2673"),
    Band("Easy", 6, 10, "003:2674"),
    Band("Moderate", 11, 15, "003:2675"),
    Band("Difficult", 16, 20, "003:2676"),
    Band("Very Difficult", 21, 30, "003:2677"),
    Band("Heroic", 31, 40, "002:428 (R&E)"),
)


def band_for(difficulty: int) -> Band:
    """The named band a difficulty number falls in; Heroic+N above 40 (002:428)."""
    for band in BANDS:
        if band.high is not None and band.low <= difficulty <= band.high:
            return band
    step = (difficulty - 31) // 10 * 10
    return Band(f"Heroic+{step}", 31 + step, 40 + step, "002:428 (R&E)")


# --- what a roll is for: the Character Points it takes (R&E) --------------------------------


@dataclass(frozen=True)
class Purpose:
    key: str
    label: str  # what the roller picks, and the log prints
    cp_limit: int  # the most Character Points one roll for this takes
    source: str


USE = Purpose("use", "A skill or attribute use (an attack too)", 2, "002:483")
DODGE = Purpose("dodge", "A dodge (a vehicle's or starship's too)", 5, "002:485")
PARRY = Purpose("parry", "A parry (a lightsaber's too)", 5, "002:485")
RESIST = Purpose("resist_force", "Resisting another's Force power", 5, "002:485")
PURPOSES: tuple[Purpose, ...] = (USE, DODGE, PARRY, RESIST)
PURPOSE_BY_KEY = {purpose.key: purpose for purpose in PURPOSES}
SPECIALIZATION_CP_LIMIT = 5  # 002:485: a specialization, whatever it is rolled for

# The traits a purpose other than a plain use fits. A dodge: the dodge skill, the vehicle
# and starship skills that dodge (002:485), Dexterity and Mechanical rolled untrained. A
# parry: the parry skills, a lightsaber, Dexterity untrained. Resisting a Force power:
# Perception or control, as 002:485 names them. The dodge and parry skills are only ever
# rolled for that, so their roller has nothing to choose.
_PURPOSES_BY_TRAIT: dict[str, tuple[str, ...]] = {
    "attr.dexterity": ("use", "dodge", "parry"),
    "attr.mechanical": ("use", "dodge"),
    "attr.perception": ("use", "resist_force"),
    "skill.dodge": ("dodge",),
    "skill.brawling_parry": ("parry",),
    "skill.melee_parry": ("parry",),
    "skill.lightsaber": ("use", "parry"),
    "force.control": ("use", "resist_force"),
    **{
        f"skill.{slug}": ("use", "dodge")
        for slug in (
            "repulsorlift_operation",
            "starship_piloting",
            "capital_ship_piloting",
            "space_transports",
            "starfighter_piloting",
        )
    },
}
# A skill the GM or player named: the sheet cannot tell what it does, so the roller says
# and the log shows it.
_CUSTOM_SKILL_PURPOSES = ("use", "dodge", "parry")


def purposes_for(key: str, *, custom: bool = False) -> tuple[str, ...]:
    """What a roll of this trait may be for, the usual first."""
    if custom:
        return _CUSTOM_SKILL_PURPOSES
    return _PURPOSES_BY_TRAIT.get(key, ("use",))


def cp_limit(purposes: tuple[str, ...], purpose: str, *, specialization: bool) -> int:
    """The most Character Points one roll takes (002:483-485)."""
    if specialization:
        return SPECIALIZATION_CP_LIMIT
    return PURPOSE_BY_KEY[purpose].cp_limit if purpose in purposes else 0


def _read_purpose(rollable: Rollable, options: Mapping[str, Any]) -> Purpose:
    """The purpose the roller chose, or the trait's only one; InvalidRoll for a purpose the
    rule does not know or this trait is not rolled for."""
    offered = rollable.fact("purposes", ("use",))
    chosen = options.get("purpose", offered[0])
    purpose = PURPOSE_BY_KEY.get(chosen) if isinstance(chosen, str) else None
    if purpose is None:
        names = ", ".join(PURPOSE_BY_KEY[key].label.lower() for key in offered)
        raise InvalidRoll("purpose", f"What the roll is for: choose one of {names}.")
    if purpose.key not in offered:
        names = " or ".join(PURPOSE_BY_KEY[key].label.lower() for key in offered)
        raise InvalidRoll(
            "purpose",
            f"{rollable.label} is not rolled for {purpose.label.lower()}; it is for {names}.",
        )
    return purpose


# --- the sheet's rollables -----------------------------------------------------------------


def rollables(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> tuple[Rollable, ...]:
    """Attributes, trained skills, specializations and Force skills, each as whole pips,
    with the sheet's wound, edition and spendable points as facts."""
    from rulesets.weg_d6 import traits

    edition = sheet["edition"]
    wound = WOUND_BY_SLUG[sheet["wound"]]
    custom_skills = sheet.get("custom_skills", {})
    common = {
        "edition": edition,
        "can_act": wound.can_act,
        "wound": wound.label,
        # In play the ledger's balance (the web layer lays it over the sheet); during
        # creation the sheet's points are the starting budget, not points to spend.
        "character_points": sheet["points"]["character"] if sheet.get("stage") == "play" else 0,
        "force_points": sheet["points"]["force"],
    }

    level_counts = wounds.stunned_level_counts(sheet)

    def make(key: str, pips: int, group: str, source: str) -> Rollable:
        # 1E stun spares Strength (003:440); a penalty is in whole dice (−1D, −2D).
        spared = wound.spares_strength_in_1e and edition == EDITION_1E and key == "attr.strength"
        spared = spared or (wound.slug == "stunned" and not level_counts)
        # The stun results the sheet keeps (1E, 003:438-446): dice off, or no roll at all.
        stun = wounds.stun_dice(sheet, key)
        stun_facts = {} if stun is not None else {"can_act": False, "wound": stun_word}
        facts = (
            common
            | stun_facts
            | {
                "wound_dice": (0 if spared or not wound.can_act else -wound.penalty // 3)
                + (stun or 0),
                "purposes": purposes_for(key, custom=key.removeprefix("skill.") in custom_skills),
                "specialization": key.startswith("spec."),
            }
        )
        label = traits.trait_name(sheet, key)
        return Rollable(key, label, pips, tuple(sorted(facts.items())), group, source)

    stuns = wounds.stuns_now(sheet) if edition == EDITION_1E else None
    stun_word = "unconscious from stun" if stuns and stuns.unconscious else "immobile from stun"
    found = [
        make(f"attr.{slug}", sheet["attributes"][slug], "Attributes", "")
        for slug in ATTRIBUTE_SLUGS
    ]
    for slug, pips in sheet["skills"].items():
        found.append(make(f"skill.{slug}", pips, "Skills", ""))
    for slug, entry in sheet["specializations"].items():
        found.append(make(f"spec.{slug}", entry["pips"], "Specializations", "002:37"))
    for slug in FORCE_SKILL_SLUGS:
        if sheet["force"][slug]:
            found.append(make(f"force.{slug}", sheet["force"][slug], "The Force", ""))
    found.extend(_damage_rollables(sheet, common))
    found.extend(_wound_rollables(sheet, common))
    if darkside.may_call(sheet):
        found.append(_dark_side_call(sheet, make("attr.perception", 0, "", "")))
    return tuple(found)


def _dark_side_call(sheet: Mapping[str, Any], base: Rollable) -> Rollable:
    """Calling on the Dark Side (1E, 003:1692): Perception or Control, the player's choice,
    at 6 + 3 for each call this adventure (+10 when no action aims to harm). A free action:
    no other action lowers it (003:1694); a wound still does."""
    facts = dict(base.facts) | {
        "perception": sheet["attributes"]["perception"],
        "control": sheet["force"]["control"],
        "calls": darkside.calls_this_adventure(sheet),
        "dark_side_points": sheet["points"]["dark_side"],
        "purposes": ("use",),
    }
    label = "Call on the Dark Side"
    return Rollable(
        DARK_SIDE_CALL, label, 0, tuple(sorted(facts.items())), "The Force", darkside.CALL_SOURCE
    )


def _wound_rollables(sheet: Mapping[str, Any], common: Mapping[str, Any]) -> list[Rollable]:
    """The wound rolls (rulesets/weg_d6/wounds.py): 1E's mortal wound roll while mortally
    wounded (003:2125), R&E's 2D minutes out from a stun hit (002:561). Plain dice: neither
    is a skill or attribute total, and the mortally wounded roll though they cannot act."""
    facts = tuple(sorted((common | {"wound_dice": 0, "character_points": 0}).items()))
    if sheet["edition"] == EDITION_1E and sheet["wound"] == "mortally_wounded":
        label = "Mortally wounded: the round's 2D"
        return [Rollable(wounds.MORTAL_KEY, label, 6, facts, "Wounds", wounds.MORTAL_ROLL_SOURCE)]
    if sheet["edition"] == EDITION_RE:
        label = "Knocked out by stun: 2D minutes"
        return [Rollable(wounds.STUN_MINUTES_KEY, label, 6, facts, "Wounds", wounds.STUN_SOURCE)]
    return []


def weapon_damage_pips(sheet: Mapping[str, Any], damage: str) -> int | None:
    """A weapon row's damage in pips: its code, or Strength plus it ("STR+1D", 003:2350);
    None for a row whose damage is blank or not a code."""
    text = damage.strip().upper()
    base = 0
    if text.startswith("STR"):
        base, text = sheet["attributes"]["strength"], text[3:]
    try:
        pips = base + DieCode.parse(text).total_pips
    except DieCodeError:
        return None
    return pips if pips > 0 else None


def _damage_rollables(sheet: Mapping[str, Any], common: Mapping[str, Any]) -> list[Rollable]:
    """Each weapon row's damage (issue 26: a compendium weapon's code rolls). The Wild Die
    rolls with damage too (002:424). A wound takes dice off an action, not off the weapon's
    damage, and no Character Points are spent on it (002:483 prices a skill or attribute
    use); one who cannot act makes no attack to roll damage for."""
    facts = common | {
        "wound_dice": 0,
        "character_points": 0,
        "purposes": ("use",),
        "specialization": False,
    }
    found = []
    control = sheet["force"]["control"]
    for index, weapon in enumerate(sheet.get("weapons", [])):
        pips = weapon_damage_pips(sheet, weapon["damage"])
        if pips is None:
            continue
        label, source = f"{weapon['name']}: damage", "003:2350"
        if control and "lightsaber" in weapon["name"].casefold():
            pips += control  # 003:2706: the wielder's Control adds to the blade
            label, source = f"{label} + Control", LIGHTSABER_SOURCE
        found.append(
            Rollable(
                f"weapon.{index}.damage",
                label,
                pips,
                tuple(sorted(facts.items())),
                "Weapons",
                source,
            )
        )
    return found


# --- the options a player sets --------------------------------------------------------------


def roll_options(rollable: Rollable, settings: Mapping[str, Any]) -> tuple[RollOption, ...]:
    if rollable.key == wounds.MORTAL_KEY:
        return (
            RollOption(
                "rounds",
                "Combat rounds since the mortal wound",
                "number",
                1,
                minimum=1,
                maximum=wounds.MOST_MORTAL_ROUNDS,
                source=wounds.MORTAL_ROLL_SOURCE,
                help="A roll below this number: the character dies.",
            ),
        )
    if rollable.key == wounds.STUN_MINUTES_KEY:
        return ()
    if rollable.key == DARK_SIDE_CALL:
        choices = darkside.CALL_WITH if rollable.fact("control", 0) else darkside.CALL_WITH[:1]
        calls = rollable.fact("calls", 0)
        return (
            RollOption(
                "with",
                "Roll",
                "choice",
                "perception",
                choices=choices,
                source="003:1692",
                help="Perception or Control, the player's choice.",
            ),
            RollOption(
                "harmful",
                "One of this round's actions aims to harm a living being",
                "flag",
                True,
                source="003:1692",
                help=f"Without, the difficulty is {darkside.NOT_HARMFUL} higher. "
                f"Calls this adventure so far: {calls}.",
            ),
        )
    edition = rollable.fact("edition", EDITION_RE)
    options = [
        RollOption(
            "difficulty",
            "Difficulty number",
            "number",
            DEFAULT_DIFFICULTY,
            minimum=1,
            maximum=MAX_DIFFICULTY,
            source="003:2671-2677",
            help="Very Easy 3–5, Easy 6–10, Moderate 11–15, Difficult 16–20, "
            "Very Difficult 21–30" + (", Heroic 31+" if edition == EDITION_RE else "") + ".",
        ),
        RollOption(
            "actions",
            "Actions this round",
            "number",
            1,
            minimum=1,
            maximum=MAX_ACTIONS,
            source="003:133-139",
            help="Each action after the first takes 1D off every roll this round.",
        ),
        RollOption(
            "dice",
            "Bonus or penalty dice",
            "number",
            0,
            minimum=-MAX_BONUS_DICE,
            maximum=MAX_BONUS_DICE,
        ),
        RollOption(
            "pips",
            "Bonus or penalty pips",
            "number",
            0,
            minimum=-MAX_BONUS_PIPS,
            maximum=MAX_BONUS_PIPS,
            source="003:99",
            help="Pips never turn into dice during play.",
        ),
    ]
    if _ranged(rollable.key):
        options.append(
            RollOption(
                "range",
                "Range to the target",
                "choice",
                "",
                choices=(
                    ("", "Not said: the difficulty as given"),
                    *(
                        (key, f"{label}: {low}–{high}")
                        for key, (label, low, high) in RANGE_BANDS.items()
                    ),
                ),
                source=RANGE_SOURCE,
                help="A difficulty outside the range's band becomes its lowest number.",
            )
        )
    if rollable.fact("force_points", 0) > 0:
        options.append(
            RollOption(
                "force_point",
                "Spend a Force Point: double the code",
                "flag",
                False,
                source="003:95",
            )
        )
    if edition == EDITION_1E and rollable.key.startswith("force."):
        options.append(
            RollOption(
                "unmastered",
                f"A power not yet mastered (+{UNMASTERED_DIFFICULTY} difficulty)",
                "flag",
                False,
                source="003:1802-1804",
                help="Against an opposed roll the 5 goes on the opponent's total: "
                "give that total as the difficulty.",
            )
        )
    points = rollable.fact("character_points", 0)
    if edition == EDITION_RE and points > 0:
        offered = rollable.fact("purposes", ("use",))
        special = rollable.fact("specialization", False)
        if len(offered) > 1 and not special:
            options.append(
                RollOption(
                    "purpose",
                    "What the roll is for",
                    "choice",
                    offered[0],
                    choices=tuple((key, PURPOSE_BY_KEY[key].label) for key in offered),
                    source="002:483-485",
                    help="It sets how many Character Points the roll takes.",
                )
            )
        limits = {cp_limit(offered, key, specialization=special) for key in offered}
        if special:
            why = f"Up to {SPECIALIZATION_CP_LIMIT} on a specialization."
        elif len(limits) > 1:
            why = f"Up to {USE.cp_limit} on a use, {DODGE.cp_limit} on the others."
        else:
            why = f"Up to {max(limits)} on {PURPOSE_BY_KEY[offered[0]].label.lower()}."
        options.append(
            RollOption(
                "character_points",
                "Character Points spent",
                "number",
                0,
                minimum=0,
                # The most any purpose here allows; the chosen purpose's limit and what
                # the ledger holds are checked on their own, so a player reads why.
                maximum=max(limits),
                source="002:483-489",
                help=f"{points} left. {why} Not in a round with a Force Point.",
            )
        )
    return tuple(options)


# --- reading a roll -------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    dice: int  # every die of the code as rolled, the Wild Die included
    pips: int
    wild: bool
    wild_one: str
    cp_dice: int
    cp_wild: bool
    difficulty: int  # as rolled against: +5 for a power not yet mastered (003:1804)
    unmastered: bool = False
    # What the Character Points were spent for ("" when none were).
    purpose: str = ""


def _number(options: Mapping[str, Any], key: str, default: int, low: int, high: int, label: str):
    value = options.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRoll(key, f"{label}: expected a whole number.")
    if not low <= value <= high:
        word = f"at least {low}" if value < low else f"at most {high}"
        raise InvalidRoll(key, f"{label}: {word}, not {value}.")
    return value


def _ranged(key: str) -> bool:
    head, _, slug = key.partition(".")
    return head in ("skill", "spec") and any(slug.startswith(skill) for skill in RANGED_SKILLS)


def _at_range(rollable: Rollable, options: Mapping[str, Any], difficulty: int) -> int:
    """The difficulty at the range chosen (003:2680-2684): as given when inside the range's
    band, else the band's lowest number."""
    chosen = options.get("range", "")
    if not chosen:
        return difficulty
    if chosen not in RANGE_BANDS or not _ranged(rollable.key):
        raise InvalidRoll("range", "Choose point-blank, short, medium or long range.")
    _label, low, high = RANGE_BANDS[chosen]
    return difficulty if low <= difficulty <= high else low


def read_roll(rollable: Rollable, options: Mapping[str, Any]) -> Spec:
    """The code as rolled, in the order the issue gives: wounds and extra actions take
    whole dice off, a Force Point doubles dice and pips (no carry, 003:95), bonuses join,
    Character Points add their dice. InvalidRoll names the option at fault."""
    readings = resolve_settings(DICE_SETTINGS, options)
    edition = rollable.fact("edition", EDITION_RE)
    if not rollable.fact("can_act", True):
        raise InvalidRoll("dice", f"A character {rollable.fact('wound', '').lower()} cannot act.")
    difficulty = _number(
        options, "difficulty", DEFAULT_DIFFICULTY, 1, MAX_DIFFICULTY, "Difficulty number"
    )
    difficulty = _at_range(rollable, options, difficulty)
    actions = _number(options, "actions", 1, 1, MAX_ACTIONS, "Actions this round")
    bonus_dice = _number(
        options, "dice", 0, -MAX_BONUS_DICE, MAX_BONUS_DICE, "Bonus or penalty dice"
    )
    bonus_pips = _number(
        options, "pips", 0, -MAX_BONUS_PIPS, MAX_BONUS_PIPS, "Bonus or penalty pips"
    )
    force_point = bool(options.get("force_point", False))
    if force_point and rollable.fact("force_points", 0) < 1:
        raise InvalidRoll("force_point", "No Force Point left to spend.")
    purpose = _read_purpose(rollable, options)
    cp = _number(options, "character_points", 0, 0, MAX_CP_ASKED, "Character Points spent")
    if cp and edition != EDITION_RE:
        raise InvalidRoll("character_points", "1st edition spends no Character Points on a roll.")
    special = rollable.fact("specialization", False)
    limit = cp_limit(rollable.fact("purposes", ("use",)), purpose.key, specialization=special)
    if cp > limit:
        what = "a specialization" if special else purpose.label.lower()
        raise InvalidRoll(
            "character_points",
            f"At most {limit} Character Points on {what} "
            f"({'002:485' if special else purpose.source}), not {cp}.",
        )
    balance = rollable.fact("character_points", 0)
    if cp > balance:
        raise InvalidRoll(
            "character_points",
            f"Only {balance} Character Point{'' if balance == 1 else 's'} left to spend.",
        )
    if cp and force_point:  # 002:487
        raise InvalidRoll(
            "character_points", "Character Points or a Force Point in a round, not both."
        )
    unmastered = bool(options.get("unmastered", False))
    if unmastered and not (edition == EDITION_1E and rollable.key.startswith("force.")):
        raise InvalidRoll(
            "unmastered", "Only a 1st-edition Force skill roll uses a power not yet mastered."
        )
    code = DieCode.from_pips(rollable.dice)
    dice = code.dice - rollable.fact("wound_dice", 0) - (actions - 1)
    pips = code.pips
    if force_point:
        dice, pips = dice * 2, pips * 2
    dice += bonus_dice
    pips += bonus_pips
    if dice < 1:
        at_fault = "actions" if actions > 1 else "dice"
        raise InvalidRoll(at_fault, f"No dice left to roll: the code drops to {dice}D.")
    if dice + cp > MAX_ROLL_DICE:
        raise InvalidRoll("dice", f"A roll holds at most {MAX_ROLL_DICE} dice, not {dice + cp}.")
    return Spec(
        dice=dice,
        pips=pips,
        wild=edition == EDITION_RE,
        wild_one=readings[WILD_ONE],
        cp_dice=cp,
        cp_wild=readings[CP_DIE] == "wild",
        difficulty=difficulty + (UNMASTERED_DIFFICULTY if unmastered else 0),
        unmastered=unmastered,
        purpose=purpose.key if cp else "",
    )


# --- exact distributions ----------------------------------------------------------------------


def _pack(coeffs: list[int], width: int) -> int:
    return int.from_bytes(b"".join(c.to_bytes(width, "little") for c in coeffs), "little")


def _unpack(value: int, width: int, count: int) -> list[int]:
    data = value.to_bytes(width * count, "little")
    return [int.from_bytes(data[i * width : (i + 1) * width], "little") for i in range(count)]


def _width(total: int) -> int:
    return total.bit_length() // 8 + 1


def _mul(a: list[int], b: list[int]) -> list[int]:
    """Polynomial product by packing each into one big integer (every coefficient fits
    in `width` bytes, as none can exceed the product of the two totals). A short factor
    (the Wild Die's five faces) is cheaper as shifted sums than as packing."""
    if len(a) < len(b):
        a, b = b, a
    if len(b) <= 8:
        out = [0] * (len(a) + len(b) - 1)
        for j, weight in enumerate(b):
            if weight:
                for i, value in enumerate(a):
                    out[i + j] += value * weight
        return out
    width = _width(sum(a) * sum(b))
    return _unpack(_pack(a, width) * _pack(b, width), width, len(a) + len(b) - 1)


@lru_cache(maxsize=1024)
def _power(faces: int, count: int) -> tuple[int, ...]:
    """Ways for `count` dice of faces 1..`faces` to total count + i (index i).

    The coefficients of (1 + x + ... + x^(faces-1))^count by J. C. P. Miller's recurrence
    for the power of a polynomial: q_0 = 1 and k·q_k = Σ_{i=1..faces-1} ((count+1)·i − k)·
    q_(k−i), an exact division. The polynomial is a palindrome, so only the first half is
    computed. About faces·count·faces/2 small products: a 130-dice code in a fraction of a
    millisecond, where raising a packed integer to the power took several.
    """
    if count == 0 or faces <= 1:
        return (1,) if count == 0 or faces == 1 else ()
    top = (faces - 1) * count
    half = top // 2
    q = [1] + [0] * half
    step = count + 1
    for k in range(1, half + 1):
        total = 0
        for i in range(1, min(k, faces - 1) + 1):
            total += (step * i - k) * q[k - i]
        q[k] = total // k
    return tuple(q + q[: top - half][::-1])


@dataclass(frozen=True)
class Dist:
    """A finite distribution: `weights[i]` ways to total `low + i`, over `denominator`;
    `at_least[i]` the ways to total `low + i` or more."""

    low: int
    weights: tuple[int, ...]
    denominator: int
    at_least: tuple[int, ...]

    @classmethod
    def of(cls, low: int, weights: list[int] | tuple[int, ...], denominator: int) -> Dist:
        running, at_least = 0, []
        for weight in reversed(weights):
            running += weight
            at_least.append(running)
        return cls(low, tuple(weights), denominator, tuple(reversed(at_least)))

    def ways_at_least(self, target: int) -> int:
        if target <= self.low:
            return self.denominator
        index = target - self.low
        return self.at_least[index] if index < len(self.at_least) else 0

    def plus(self, other: Dist) -> Dist:
        return Dist.of(
            self.low + other.low,
            _mul(list(self.weights), list(other.weights)),
            self.denominator * other.denominator,
        )


def _dice(faces: int, count: int) -> Dist:
    return Dist.of(count, _power(faces, count), faces**count)


@lru_cache(maxsize=256)
def _without_highest(count: int) -> Dist:
    """`count` d6 totalled without their highest die: for each highest face k, the ways
    with every die ≤ k less those with every die ≤ k − 1, shifted down by k."""
    if count == 0:
        return Dist.of(0, [1], 1)
    # Totals run from count − 1 (every die a 1, one removed) to 5·count (every die a 6).
    low = count - 1
    totals = [0] * (SIDES * count - SIDES - low + 1)
    for k in range(1, SIDES + 1):
        upto = _power(k, count)
        below = _power(k - 1, count) if k > 1 else ()
        # (x + ... + x^k)^count starts at count; (x + ... + x^(k-1))^count likewise.
        offset = count - k - low
        for i, ways in enumerate(upto):
            if i < len(below):
                ways -= below[i]
            if ways:
                totals[offset + i] += ways
    return Dist.of(low, totals, SIDES**count)


def _ways_at_least(base: Dist, open_dice: int, target: int) -> tuple[int, int]:
    """P(base + 6·(J1 + ... + Jk) ≥ target), k = `open_dice`, each J the run of 6s of an
    open-ended die. The 6s runs sum to a negative binomial: P(j) = C(j+k−1, j)·5^k/6^(j+k).
    Once 6·j covers the gap, success is certain, so that rest is 1 − the finite sum."""
    if open_dice == 0:
        return base.ways_at_least(target), base.denominator
    certain_from = max(0, -(-(target - base.low) // SIDES))
    at_least, size = base.at_least, len(base.at_least)
    # Both sums are over 6^certain_from: Σ_j C(j+k−1, j)·6^(certain_from−j)·(...), summed
    # by Horner's rule (a multiplication by 6 a step) instead of a power of 6 per term.
    ways = runs = 0
    choose = 1  # C(j+k−1, j)
    index = target - base.low  # target − 6j is above base.low for every j < certain_from
    for j in range(certain_from):
        if j:
            choose = choose * (j + open_dice - 1) // j
        runs = runs * SIDES + choose
        ways = ways * SIDES + (choose * at_least[index] if index < size else 0)
        index -= SIDES
    ways, runs = ways * SIDES, runs * SIDES
    scale = SIDES**certain_from
    five = 5**open_dice
    rest = scale * SIDES**open_dice - five * runs  # the runs that make success certain
    denominator = scale * SIDES**open_dice * base.denominator
    return five * ways + rest * base.denominator, denominator


def _parts(spec: Spec) -> tuple[tuple[Fraction, Dist, int, int], ...]:
    return _mixture(spec.dice, spec.pips, spec.wild, spec.wild_one, spec.cp_dice, spec.cp_wild)


@lru_cache(maxsize=512)
def _mixture(
    dice: int, pips: int, wild: bool, wild_one: str, cp_dice: int, cp_wild: bool
) -> tuple[tuple[Fraction, Dist, int, int], ...]:
    """The total as a mixture: (weight, finite part, open-ended dice, extra) with
    total = finite part + 6·(runs of 6s of the open-ended dice) + extra."""
    normal = dice - 1 if wild else dice
    plain_cp = 0 if cp_wild else cp_dice
    open_cp = cp_dice if cp_wild else 0
    fixed = _dice(SIDES, normal).plus(_dice(SIDES, plain_cp))
    if not wild:
        return ((Fraction(1), fixed.plus(_dice(5, open_cp)), open_cp, pips),)
    # The Wild Die is 6·J + R; its first face shows 1 exactly when J = 0 and R = 1.
    main = (Fraction(1), fixed.plus(_dice(5, open_cp + 1)), open_cp + 1, pips)
    if wild_one != "subtract":
        return (main,)
    as_one = fixed.plus(_dice(5, open_cp))
    removed = _without_highest(normal).plus(_dice(SIDES, plain_cp)).plus(_dice(5, open_cp))
    sixth = Fraction(1, SIDES)
    return (main, (-sixth, as_one, open_cp, pips + 1), (sixth, removed, open_cp, pips))


def chance_at_least(spec: Spec, target: int) -> Fraction:
    """The exact chance that the roll totals `target` or more."""
    # Summed as plain integers and reduced once: Fraction sums of big denominators are slow.
    numerator, denominator = 0, 1
    for weight, dist, open_dice, extra in _parts(spec):
        ways, over = _ways_at_least(dist, open_dice, target - extra)
        over *= weight.denominator
        numerator = numerator * over + weight.numerator * ways * denominator
        denominator *= over
    return Fraction(numerator, denominator)


# --- one roll against another: the R&E attribute improvement roll (002:53) -------------------

# A first face of 6 rolled again: two open-ended dice both run on with chance 1/36 a step,
# so their difference of runs J - K is (5/7)·(1/6)^|d| at d; P(J - K ≥ m) = (6/7)·(1/6)^m.
_BOTH_RUN = Fraction(6, 7)
_SIXTH = Fraction(1, SIDES)


def _runs_at_most(mine_open: int, theirs_open: int, gap: int) -> Fraction:
    """P(6·J − 6·K ≤ gap): J the runs of 6s of the first roll's open-ended die (none when
    `mine_open` is 0), K the second's. Runs of one die: P(J ≥ n) = (1/6)^n."""
    n = gap // SIDES  # 6·(J − K) ≤ gap exactly when J − K ≤ ⌊gap/6⌋
    if not mine_open and not theirs_open:
        return Fraction(int(n >= 0))
    if mine_open and not theirs_open:
        return 1 - _SIXTH ** (n + 1) if n >= 0 else Fraction(0)
    if theirs_open and not mine_open:
        return Fraction(1) if n >= 0 else _SIXTH ** (-n)
    return 1 - _BOTH_RUN * _SIXTH ** (n + 1) if n >= 0 else _BOTH_RUN * _SIXTH ** (-n)


def _code_parts(pips: int, wild: bool, wild_one: str):
    code = DieCode.from_pips(pips)
    return _mixture(code.dice, code.pips, wild, wild_one, 0, False)


@lru_cache(maxsize=256)
def chance_at_most(mine: int, theirs: int, wild_one: str | None) -> Fraction:
    """The exact chance that a roll of the code `mine` (in pips) totals no more than a roll
    of `theirs`: the R&E attribute improvement roll, the new code against the GM's roll of
    the species maximum, a tie to the character (002:53). `wild_one` is the table's reading
    of a 1 on the Wild Die, which both rolls have (002:424); None rolls plain dice.

    Each roll is a mixture of a finite part plus 6 per run of 6s of its open-ended die; the
    finite parts are summed over every pair of totals, the runs in closed form."""
    wild = wild_one is not None
    reading = wild_one or "count"
    numerator, denominator = 0, 1
    for weight_a, dist_a, open_a, extra_a in _code_parts(mine, wild, reading):
        for weight_b, dist_b, open_b, extra_b in _code_parts(theirs, wild, reading):
            # Ways for each gap (their finite total − mine), then the runs' chance for it.
            gaps: dict[int, int] = {}
            for i, ways_a in enumerate(dist_a.weights):
                if not ways_a:
                    continue
                x = dist_a.low + i + extra_a
                for j, ways_b in enumerate(dist_b.weights):
                    if ways_b:
                        gap = dist_b.low + j + extra_b - x
                        gaps[gap] = gaps.get(gap, 0) + ways_a * ways_b
            part = sum(
                (ways * _runs_at_most(open_a, open_b, gap) for gap, ways in gaps.items()),
                Fraction(0),
            )
            chance = weight_a * weight_b * part / (dist_a.denominator * dist_b.denominator)
            numerator = numerator * chance.denominator + chance.numerator * denominator
            denominator *= chance.denominator
    return Fraction(numerator, denominator)


def complication_chances(spec: Spec) -> tuple[Fraction, Fraction]:
    """The exact chance of a 1 on the Wild Die's first face (1/6; 0 without a Wild Die), and
    of that 1 with a total that still reaches the difficulty, the 1 counted as rolled.

    A first face of 1 stops the Wild Die (no 6 to roll again), so the rest is the normal
    dice, the Character Point dice and the pips, plus 1."""
    if not spec.wild:
        return Fraction(0), Fraction(0)
    normal = spec.dice - 1
    plain_cp = 0 if spec.cp_wild else spec.cp_dice
    open_cp = spec.cp_dice if spec.cp_wild else 0
    rest = _dice(SIDES, normal).plus(_dice(SIDES, plain_cp)).plus(_dice(5, open_cp))
    ways, over = _ways_at_least(rest, open_cp, spec.difficulty - spec.pips - 1)
    sixth = Fraction(1, SIDES)
    return sixth, sixth * Fraction(ways, over)


def wild_one_beside(spec: Spec) -> tuple[Beside, ...]:
    """What a 1 on the Wild Die brings, exactly, under the GM's reading (002:420-424)."""
    if not spec.wild:
        return ()
    one, succeeds = complication_chances(spec)
    if spec.wild_one == "complication":
        return (
            Beside("A complication (a 1 on the Wild Die)", one, "002:422"),
            Beside("Success with a complication", succeeds, "002:422"),
        )
    if spec.wild_one == "subtract":
        return (
            Beside("A complication: none under this reading", Fraction(0), "002:422"),
            Beside("A 1 on the Wild Die, taken off with the highest die", one, "002:422"),
        )
    return (Beside("A complication: none under this reading (a 1 counts)", Fraction(0), "002:422"),)


def _range(spec: Spec) -> tuple[int, int]:
    """A window for the chart around the mean (with the difficulty always inside)."""
    fixed = spec.dice - 1 if spec.wild else spec.dice
    open_dice = int(spec.wild)
    if spec.cp_wild:
        open_dice += spec.cp_dice
    else:
        fixed += spec.cp_dice
    mean = 3.5 * fixed + 4.2 * open_dice + spec.pips
    spread = math.sqrt(35 / 12 * fixed + 10.64 * open_dice)
    lowest = (
        (0 if spec.wild and spec.wild_one == "subtract" else spec.dice) + spec.cp_dice + spec.pips
    )
    low = max(lowest, math.floor(mean - 3 * spread))
    high = math.ceil(mean + 3.5 * spread) + 1
    return min(low, spec.difficulty), max(high, spec.difficulty + 1)


@lru_cache(maxsize=4096)
def _odds(spec: Spec) -> Odds:
    low, high = _range(spec)
    step = max(1, math.ceil((high - low) / 24))
    target = spec.difficulty
    # Edges at the difficulty plus whole steps, so the difficulty starts a bar.
    first = target - ((target - low) // step) * step
    edges = list(range(first, high + 1, step))
    at_least = {edge: chance_at_least(spec, edge) for edge in edges}
    bars = []
    below = 1 - at_least[edges[0]]
    if below:
        bars.append(Bar(f"{edges[0] - 1} or less", below))
    for index, edge in enumerate(edges):
        last = index == len(edges) - 1
        chance = at_least[edge] - (0 if last else at_least[edges[index + 1]])
        if last:
            label = f"{edge} or more"
        elif step == 1:
            label = str(edge)
        else:
            label = f"{edge}–{edge + step - 1}"
        bars.append(Bar(label, chance, edge >= target, threshold=edge == target))
    band = band_for(target)
    code = DieCode(spec.dice, spec.pips).format()
    question = f"{code} against {target} ({band.label}): {target} or more"
    notes = []
    if spec.unmastered:
        notes.append(
            f"{target - UNMASTERED_DIFFICULTY} +{UNMASTERED_DIFFICULTY} for a power "
            "not yet mastered."
        )
    if spec.cp_dice:
        die = "die" if spec.cp_dice == 1 else "dice"
        purpose = PURPOSE_BY_KEY[spec.purpose].label.lower() if spec.purpose else ""
        notes.append(
            f"With {spec.cp_dice} Character Point {die}" + (f" ({purpose})." if purpose else ".")
        )
    if spec.wild and spec.wild_one == "complication":
        notes.append("A 1 on the Wild Die (1 roll in 6) brings a complication.")
    if band.source.startswith(OUTSIDE):
        notes.append(f"{band.label} {band.low}–{band.high} is the core book's range.")
    return Odds(
        at_least[target],
        tuple(bars),
        question,
        exact=True,
        note=" ".join(notes),
        beside=wild_one_beside(spec),
    )


def odds(rollable: Rollable, options: Mapping[str, Any]) -> Odds:
    """The exact chance of reaching the difficulty number, with the totals as bars."""
    if rollable.key in (wounds.MORTAL_KEY, wounds.STUN_MINUTES_KEY):
        return _wound_odds(rollable, options)
    if rollable.key == DARK_SIDE_CALL:
        code, chosen = _call_as_rolled(rollable, options)
        return _odds(read_roll(code, chosen))
    return _odds(read_roll(rollable, options))


# --- calling on the Dark Side (1E, 003:1690-1708) ---------------------------------------------

DARK_SIDE_CALL = "darkside.call"


def _call_as_rolled(rollable: Rollable, options: Mapping[str, Any]) -> tuple[Rollable, dict]:
    """The chosen code as a plain 1E roll at the call's difficulty (003:1692)."""
    chosen = options.get("with", "perception")
    if chosen not in dict(darkside.CALL_WITH) or not rollable.fact(chosen, 0):
        raise InvalidRoll("with", "Roll Perception, or Control if the character has it.")
    harmful = options.get("harmful", True)
    if not isinstance(harmful, bool):
        raise InvalidRoll("harmful", "Say whether an action aims to harm: yes or no.")
    difficulty = darkside.call_difficulty(rollable.fact("calls", 0), harmful=harmful)
    code = Rollable(
        f"{'attr.perception' if chosen == 'perception' else 'force.control'}",
        dict(darkside.CALL_WITH)[chosen],
        rollable.fact(chosen, 0),
        rollable.facts,
    )
    return code, {"difficulty": difficulty, WILD_ONE: "count", CP_DIE: "wild"}


def _call_roll(rollable: Rollable, options: Mapping[str, Any], rng: random.Random) -> RollResult:
    """The call, and on success the GM's consumption die against the points then held
    (003:1708), rolled on the server with the call."""
    code, chosen = _call_as_rolled(rollable, options)
    result = roll(code, chosen, rng)
    summary = f"{rollable.label} ({code.label}): {result.summary.partition(': ')[2]}"
    if not result.success:
        return replace(result, summary=summary[:300], facts=(("dark_side_call", "failure"),))
    held = rollable.fact("dark_side_points", 0) + 1
    die = rng.randint(1, SIDES)
    lost = darkside.consumed(die, held)
    verdict = "consumed by the Dark Side" if lost else "not consumed"
    details = (
        *result.details,
        "A Force Point (spent this round) and a Dark Side Point (003:1698)",
        f"The GM's die: {die} against {held} Dark Side Points: {verdict} (003:1708)",
    )
    return replace(
        result,
        dice=(*result.dice, die),
        summary=f"{summary}; {verdict}"[:300],
        details=details,
        facts=(("dark_side_call", "success"), ("consumed", lost)),
    )


# --- the wound rolls (rulesets/weg_d6/wounds.py) ----------------------------------------------


def _two_dice() -> dict[int, Fraction]:
    chances: dict[int, Fraction] = {}
    for a in range(1, SIDES + 1):
        for b in range(1, SIDES + 1):
            chances[a + b] = chances.get(a + b, Fraction(0)) + Fraction(1, SIDES * SIDES)
    return chances


def _mortal_rounds(rollable: Rollable, options: Mapping[str, Any]) -> int:
    if rollable.fact("wound", "") != WOUND_BY_SLUG["mortally_wounded"].label:
        raise InvalidRoll("roll", "Only a mortally wounded character makes this roll.")
    rounds = options.get("rounds", 1)
    label = "Combat rounds since the mortal wound"
    return _number({"rounds": rounds}, "rounds", 1, 1, wounds.MOST_MORTAL_ROUNDS, label)


def _wound_odds(rollable: Rollable, options: Mapping[str, Any]) -> Odds:
    chances = sorted(_two_dice().items())
    if rollable.key == wounds.STUN_MINUTES_KEY:
        bars = tuple(Bar(f"{total} minutes", chance, True) for total, chance in chances)
        return Odds(Fraction(1), bars, "Unconscious for 2D minutes: how long", exact=True)
    rounds = _mortal_rounds(rollable, options)
    bars = tuple(
        Bar(str(total), chance, total >= rounds, threshold=total == max(rounds, 2))
        for total, chance in chances
    )
    return Odds(
        wounds.mortal_survival(rounds),
        bars,
        f"2D against {rounds} round{'s' if rounds != 1 else ''}: {rounds} or more lives",
        exact=True,
    )


def _wound_roll(rollable: Rollable, options: Mapping[str, Any], rng: random.Random):
    dice = (rng.randint(1, SIDES), rng.randint(1, SIDES))
    total = sum(dice)
    if rollable.key == wounds.STUN_MINUTES_KEY:
        summary = f"{rollable.label}: out for {total} minutes"
        return RollResult(dice, f"{total} minutes", "unconscious", True, summary, total)
    rounds = _mortal_rounds(rollable, options)
    lives = total >= rounds
    outcome = "lives this round" if lives else "dies"
    summary = f"{rollable.label}: {total} against {rounds} rounds ({outcome})"
    return RollResult(dice, f"total {total}", outcome, lives, summary, total)


# --- a roll ---------------------------------------------------------------------------------


def _open_ended(rng: random.Random, faces: list[int]) -> int:
    total = 0
    while True:
        face = rng.randint(1, SIDES)
        faces.append(face)
        total += face
        if face != SIDES:
            return total


def roll(rollable: Rollable, options: Mapping[str, Any], rng: random.Random) -> RollResult:
    """Roll the code with the caller's generator and total it the way `odds` counts."""
    if rollable.key in (wounds.MORTAL_KEY, wounds.STUN_MINUTES_KEY):
        return _wound_roll(rollable, options, rng)
    if rollable.key == DARK_SIDE_CALL:
        return _call_roll(rollable, options, rng)
    spec = read_roll(rollable, options)
    normal_count = spec.dice - 1 if spec.wild else spec.dice
    normal = [rng.randint(1, SIDES) for _ in range(normal_count)]
    rolled = list(normal)
    details = []
    facts: list[tuple[str, Any]] = []
    if spec.unmastered:
        details.append(f"A power not yet mastered: +{UNMASTERED_DIFFICULTY} difficulty")
    if spec.purpose:
        details.append(f"Character Points for: {PURPOSE_BY_KEY[spec.purpose].label.lower()}")
    total = sum(normal) + spec.pips
    if spec.wild:
        chain: list[int] = []
        wild = _open_ended(rng, chain)
        rolled += chain
        details.append("Wild Die: " + ", ".join(map(str, chain)))
        if chain[0] == 1 and spec.wild_one == "subtract":
            highest = max(normal, default=0)
            total -= highest
            details.append(
                f"Wild Die 1: removed with the highest die ({highest})"
                if normal
                else "Wild Die 1: removed"
            )
        else:
            total += wild
            if chain[0] == 1 and spec.wild_one == "complication":
                details.append("Wild Die 1: a complication")
                facts.append(("complication", True))
    for _ in range(spec.cp_dice):
        if spec.cp_wild:
            chain = []
            total += _open_ended(rng, chain)
        else:
            chain = [rng.randint(1, SIDES)]
            total += chain[0]
        rolled += chain
        details.append("Character Point: " + ", ".join(map(str, chain)))
    won = total >= spec.difficulty
    outcome = "success" if won else "failure"
    code = DieCode(spec.dice, spec.pips).format()
    summary = f"{rollable.label}: {code} → {total} against {spec.difficulty} ({outcome})"
    return RollResult(
        dice=tuple(rolled),
        kept=f"total {total}",
        outcome=outcome,
        success=won,
        summary=summary,
        total=total,
        details=tuple(details),
        facts=tuple(facts),
    )


# --- what a roll spends -----------------------------------------------------------------------

# The options that spend, and what to say when a form asks for one the sheet no longer
# offers (the last Force Point or Character Point went since the page was drawn).
ROLL_SPENDS: dict[str, str] = {
    "force_point": "No Force Point left to spend.",
    "character_points": "No Character Points left to spend on this roll.",
}


def roll_edits(rollable: Rollable, options: Mapping[str, Any], result: RollResult) -> dict:
    """The sheet edits a roll calls for: a Force Point spent (003:95) comes off the sheet's
    Force Points. The web layer applies them through the edit service with the roll."""
    if rollable.key == DARK_SIDE_CALL:
        # 003:1698: a success gives a Force Point and a Dark Side Point; any call counts.
        return {"darkside.called": "success" if result.success else "failure"}
    if not options.get("force_point"):
        return {}
    return {"points.force": str(max(rollable.fact("force_points", 0) - 1, 0))}


def roll_ledger_spend(rollable: Rollable, options: Mapping[str, Any]) -> int:
    """The Character Points a roll spends (R&E, 002:480-489). In play the ledger holds
    them, so the web layer writes this as a ledger entry, not a sheet edit."""
    if rollable.fact("edition", EDITION_RE) != EDITION_RE:
        return 0
    value = options.get("character_points", 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
