"""WEG d6 wounds beyond the track itself: stabilising the mortally wounded, rest before
healing, stun, the 1E mortal wound roll and the 1E damage summary. Pure rules with their
seed lines; the sheet shows `advice` beside the wound track, and the rolls among these go
through the roll panel (rulesets/weg_d6/dice.py, the "Wounds" rollables).

R&E (002:553-565) amends a core chart the seeds do not print; 1E's Companion (003) gives
its own damage summary, stun rules, medpac scale and the mortal wound roll.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulesets.core import InvalidEdit
from rulesets.weg_d6.data import EDITION_1E, EDITION_RE, WOUND_LADDER

# --- R&E (002:559-565) -------------------------------------------------------------------------

# 002:559: a Moderate first aid total stabilises; the patient is still mortally wounded and
# lives only if a medpac or bacta tank treats them within the hour (a Moderate total again).
STABILISE_DIFFICULTY = 11  # the low end of Moderate (003:2675): the GM may ask up to 15
STABILISE_SOURCE = "002:559"
TREATMENT_WITHIN_HOURS = 1
# 002:561: a weapon on stun rolls damage as usual; worse than stunned is unconscious 2D minutes.
STUN_UNCONSCIOUS_DICE = 2
STUN_SOURCE = "002:561"
# 002:565: wounded twice rests three days before the first healing roll, on the wounded chart.
REST_DAYS_WOUNDED_TWICE = 3
REST_SOURCE = "002:565"


def stun_result_re(chart_result: str) -> str:
    """What a hit from a weapon on stun does in R&E (002:561): the chart's result as it is up
    to "stunned"; anything more serious knocks the target out for 2D minutes, no wound."""
    ladder = ("healthy", "stunned", *WOUND_LADDER[EDITION_RE][1:], "killed")
    if chart_result not in ladder:
        raise InvalidEdit("wound", "Give the damage chart's result: a wound level.")
    if ladder.index(chart_result) <= 1:
        return chart_result
    return "unconscious"


# --- 1E: the damage summary (003:466-472), stun (003:426-452) ----------------------------------

DAMAGE_SUMMARY_SOURCE = "003:472"


@dataclass(frozen=True)
class Hit:
    """A 1E hit read on the damage summary: a wound level to set (or none), stun results."""

    wound: str | None  # "wounded", "incapacitated", "mortally_wounded", or None
    stuns: int  # stun results (each −1D to every code but Strength for this round and next)
    unconscious: bool
    source: str


def hit_1e(damage: int, strength: int, *, stun: bool) -> Hit:
    """A damage roll against the target's Strength roll on 1E's damage summary (003:472):
    twice the damage below Strength does nothing at all (003:452); damage below Strength
    stuns only a normal hit (1 stun); at or above it, a stun weapon stuns once, other damage
    wounds; twice it, 2 stuns or incapacitated; three times, unconscious or mortally wounded.
    """
    for value, name in ((damage, "damage"), (strength, "strength")):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidEdit(name, "A roll's total is a whole number, 0 or more.")
    if 2 * damage < strength:
        return Hit(None, 0, False, "003:452")
    if damage < strength:
        return Hit(None, 0 if stun else 1, False, DAMAGE_SUMMARY_SOURCE)
    if damage >= 3 * strength:
        if stun:
            return Hit(None, 0, True, "003:436")
        return Hit("mortally_wounded", 0, False, DAMAGE_SUMMARY_SOURCE)
    if damage >= 2 * strength:
        if stun:
            return Hit(None, 2, False, "003:435")
        return Hit("incapacitated", 0, False, DAMAGE_SUMMARY_SOURCE)
    if stun:
        return Hit(None, 1, False, "003:434")
    return Hit("wounded", 0, False, DAMAGE_SUMMARY_SOURCE)


def worse_wound(current: str, hit: str | None, edition: str) -> str:
    """The wound after a hit: the chart's level when it is worse; otherwise a wound on a
    character already wounded moves one level down the edition's ladder (1E: wounded again
    incapacitates, 003:1840; R&E: wounded twice, then incapacitated, 002:555-557; the seeds
    say no more, so a hurt character hurt again always moves one level)."""
    ladder = WOUND_LADDER[edition]
    if hit is None:
        return current
    now = ladder.index(current) if current in ladder else 0
    new = ladder.index(hit)
    if new <= now and now:
        return ladder[min(now + 1, len(ladder) - 1)]
    return ladder[max(now, new)]


def wound_after_hit(sheet: Mapping[str, Any], trait: str, raw: str) -> str:
    """The 1E wound level after a hit: "damage|strength", the two rolls' totals (the sheet's
    add-row form joins them), and "|stun" for a weapon set on stun or made to stun (its own
    column of the summary, 003:426-436). A stun result marks a healthy character stunned
    (the sheet's only stun state; how many stuns lasts a round and the next, 003:438); a
    wound moves down the ladder (a second wound incapacitates)."""
    if sheet["edition"] != EDITION_1E:
        raise InvalidEdit(trait, "R&E reads hits on the core book's chart: set the level.")
    parts = [part.strip() for part in raw.replace(",", "|").split("|")]
    stun = len(parts) == 3 and parts[2] == "stun"
    if stun:
        parts = parts[:2]
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) < 5 for p in parts):
        raise InvalidEdit(trait, "Give the damage roll and the Strength roll, whole numbers.")
    hit = hit_1e(int(parts[0]), int(parts[1]), stun=stun)
    current = sheet["wound"]
    if stun:
        # A stun weapon never wounds (003:430); knocked out, the character is still unhurt.
        stunned = hit.stuns or hit.unconscious
        return "stunned" if stunned and current == "healthy" else current
    if hit.stuns and current == "healthy":
        return "stunned"
    base = "healthy" if current == "stunned" else current
    return worse_wound(base, hit.wound, EDITION_1E) if hit.wound else current


@dataclass(frozen=True)
class StunState:
    penalty_dice: int  # off every code but Strength (003:438)
    immobile: bool  # stuns this round ≥ Dexterity's dice: no Dexterity actions (003:442-446)
    unconscious: bool  # stuns ≥ stamina's dice (003:448)


def hit_words_1e(hit: Hit) -> str:
    """What a 1E hit does, in the summary's words."""
    if hit.unconscious:
        return "unconscious"
    if hit.wound:
        return hit.wound.replace("_", " ")
    if hit.stuns:
        return f"{hit.stuns} stun{'s' if hit.stuns > 1 else ''} (−{hit.stuns}D)"
    return "no effect"


def stun_state_1e(stuns: int, dexterity_dice: int, stamina_dice: int) -> StunState:
    """Stun results taken this round and last (cumulative, 003:440) against the character's
    basic dice of Dexterity and stamina, pips not counted."""
    if stuns < 0:
        raise InvalidEdit("stuns", "Stun results are 0 or more.")
    return StunState(
        penalty_dice=stuns,
        immobile=stuns > 0 and stuns >= dexterity_dice,
        unconscious=stuns > 0 and stuns >= stamina_dice,
    )


# --- 1E: medpacs (003:2695-2698, 003:464) ---------------------------------------------------------

MEDPAC_SCALE = {  # the medpac use difficulty scale, low and high (003:2695-2698)
    "wounded": (6, 10),
    "incapacitated": (11, 15),
    "mortally_wounded": (16, 20),
}
MEDPAC_EXTRA_PER_USE = 3  # each medpac beyond the first in a day (003:464)


def medpac_difficulty(wound: str, used_today: int, scale_point: int | None = None) -> int:
    """The difficulty of a medpac on this wound: a number the GM picks in the wound's range
    (the low end when not given; 003:119-121 ask for consistency), +3 for each medpac already
    used on the patient today (003:464)."""
    if wound not in MEDPAC_SCALE:
        raise InvalidEdit("wound", "A medpac treats a wound: wounded, incapacitated or mortal.")
    low, high = MEDPAC_SCALE[wound]
    point = low if scale_point is None else scale_point
    if not low <= point <= high:
        raise InvalidEdit("difficulty", f"Within the wound's range, {low}–{high}.")
    if used_today < 0:
        raise InvalidEdit("used_today", "Medpacs used today: 0 or more.")
    return point + MEDPAC_EXTRA_PER_USE * used_today


# --- 1E: the mortal wound roll (003:2125) --------------------------------------------------------

MORTAL_ROLL_DICE = 2
MORTAL_ROLL_SOURCE = "003:2125"
MOST_MORTAL_ROUNDS = 100


def mortal_survival(rounds: int) -> Fraction:
    """The chance the round's 2D roll is not below the combat rounds since the mortal wound
    (003:2125: below, the character dies), over the 36 throws of two dice."""
    throws = list(itertools.product(range(1, 7), repeat=MORTAL_ROLL_DICE))
    return Fraction(sum(1 for throw in throws if sum(throw) >= rounds), len(throws))


# --- beside the wound track ---------------------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    text: str
    source: str
    roll: str = ""  # a rollable key on this sheet that makes the roll


def advice(sheet: Mapping[str, Any]) -> tuple[Advice, ...]:
    """What the rules offer at the sheet's wound level, in the sheet's edition."""
    wound, edition = sheet["wound"], sheet["edition"]
    found: list[Advice] = []
    if edition == EDITION_RE:
        if wound == "mortally_wounded":
            found.append(Advice(
                f"Stabilise: a Moderate first aid total ({STABILISE_DIFFICULTY}+). Still "
                f"mortally wounded; a medpac or bacta tank within {TREATMENT_WITHIN_HOURS} "
                "hour (Moderate first aid again) or death.",
                STABILISE_SOURCE,
                "skill.first_aid" if "first_aid" in sheet["skills"] else "attr.technical",
            ))  # fmt: skip
        if wound == "wounded_twice":
            found.append(Advice(
                f"Rest {REST_DAYS_WOUNDED_TWICE} days before the first healing roll, which "
                "uses the wounded chart.",
                REST_SOURCE,
            ))  # fmt: skip
        found.append(Advice(
            "A weapon set for stun: anything worse than stunned on the damage chart is "
            f"unconscious for {STUN_UNCONSCIOUS_DICE}D minutes instead.",
            STUN_SOURCE,
            STUN_MINUTES_KEY,
        ))  # fmt: skip
    else:
        if wound == "mortally_wounded":
            found.append(Advice(
                f"Each combat round roll {MORTAL_ROLL_DICE}D: below the rounds since the "
                "wound, the character dies.",
                MORTAL_ROLL_SOURCE,
                MORTAL_KEY,
            ))  # fmt: skip
        if wound in MEDPAC_SCALE:
            low, high = MEDPAC_SCALE[wound]
            found.append(Advice(
                f"A medpac: difficulty {low}–{high}, +{MEDPAC_EXTRA_PER_USE} for each "
                "medpac already used today.",
                "003:2695-2698, 003:464",
            ))  # fmt: skip
        found.append(Advice(
            "Stun (damage at least Strength, twice, three times): 1, 2 stuns or "
            "unconscious; each stun −1D to every code but Strength this round and next; "
            "stuns this round reaching Dexterity's dice immobilise, stamina's knock out.",
            "003:433-448",
        ))  # fmt: skip
    return tuple(found)


# Rollable keys of the rolls above (rulesets/weg_d6/dice.py makes them).
MORTAL_KEY = "wound.mortal"
STUN_MINUTES_KEY = "wound.stun_minutes"
