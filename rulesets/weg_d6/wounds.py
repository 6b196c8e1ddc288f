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

from rulesets.core import InvalidEdit, Setting
from rulesets.weg_d6 import traits
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


# --- 1E: the stuns a sheet keeps (003:438-448, 003:1840-1855) -------------------------------------

STUNS_SOURCE = "003:438-448"
MOST_STUN_ENTRIES = 20  # far more than a round and the next can hold; the list is pruned
MOST_STUNS_A_RESULT = 2  # "2 Stun" is the summary's most (003:435)
MOST_SCENE_ROUND = 10**9
REMAIN_CONSCIOUS_SOURCE = "003:1855"
CONTROL_PAIN_SOURCE = "003:1842"
# Where a scene round is: (the scene's id, its round), or None outside a running scene.
Now = tuple[int, int] | None

# 1E says how long stuns last (003:440), not how long a stun knockout lasts (003:436, 003:448).
KNOCKOUT_READING = "stun_knockout_1e"
UNTIL_OVER = "until_over"
STUN_SETTINGS: tuple[Setting, ...] = (
    Setting(
        KNOCKOUT_READING,
        "1E: how long a stun knockout lasts",
        UNTIL_OVER,
        "003:436 and 003:448 give no time (R&E's 2D minutes, 002:561, is its own chart's)",
        help="A knockout by stun, in a scene: the sheet keeps it, or it passes with its stuns.",
        choices=(
            (UNTIL_OVER, "Until the stun is marked over or pain is controlled (003:1842)"),
            ("with_stuns", "Until the stuns that knocked out pass: the round after next"),
        ),
    ),
)


def _until_over(settings: Mapping[str, Any] | None) -> bool:
    return (settings or {}).get(KNOCKOUT_READING, UNTIL_OVER) == UNTIL_OVER


def dexterity_dice(sheet: Mapping[str, Any]) -> int:
    """Dexterity's basic dice, pips not counted (003:442-444: 3D+2 counts 3)."""
    return sheet["attributes"]["dexterity"] // 3


def stamina_dice(sheet: Mapping[str, Any]) -> int:
    """The dice of stamina (003:448), a Strength skill in 1E (003:2487): its own code when
    trained, else Strength's, pips not counted."""
    return sheet["skills"].get("stamina", sheet["attributes"]["strength"]) // 3


def in_effect(entry: Mapping[str, Any], now: Now, until_over: bool = True) -> bool:
    """Whether a kept stun result still counts: for the rest of the round it was taken in
    and the next (003:440). A result that knocked the character out counts until the stun
    is over (1E gives no time: the reading KNOCKOUT_READING). Outside a scene (no round
    known) every kept result counts until the player or GM marks the stun over; a result of
    another scene is over."""
    if (entry["unconscious"] and until_over) or now is None or entry["round"] is None:
        return True
    scene, round_now = now
    if entry["scene"] != scene:
        return False
    return round_now - 1 <= entry["round"] <= round_now


@dataclass(frozen=True)
class Stuns:
    """What the kept stun results do now: derived, never stored."""

    count: int  # results' stuns still counting (each −1D to every code but Strength)
    immobile: bool  # stuns taken in one round ≥ Dexterity's dice (003:442-446)
    unconscious: bool  # stuns ≥ stamina's dice (003:448), or a result that knocked out
    kept: int  # results the sheet keeps, counting or not
    woke: bool  # back for one round at "1 Stun" by remain conscious (003:1855)

    @property
    def words(self) -> str:
        if self.unconscious:
            return "unconscious from stun"
        if not self.count:
            return ""
        said = f"{self.count} stun{'s' if self.count > 1 else ''}: −{self.count}D but Strength"
        return said + (", immobile" if self.immobile else "")


def stuns_now(
    sheet: Mapping[str, Any], now: Now = None, settings: Mapping[str, Any] | None = None
) -> Stuns:
    """The kept results (sheet["stuns"]) read at `now`: they add up (003:440); the stuns of
    one round against Dexterity's dice, all of them against stamina's (003:442-448)."""
    kept = sheet.get("stuns") or []
    live = [entry for entry in kept if in_effect(entry, now, _until_over(settings))]
    count = sum(entry["stuns"] for entry in live)
    by_round: dict[tuple, int] = {}
    for entry in live:
        when = (entry["scene"], entry["round"])
        by_round[when] = by_round.get(when, 0) + entry["stuns"]
    most_in_a_round = max(by_round.values(), default=0)
    # Remain conscious gives one round (003:1855); after it the character is out again.
    relapsed = any(
        entry.get("woke", False) and now is not None and entry["round"] is not None
        and entry["scene"] == now[0] and now[1] > entry["round"]
        for entry in kept
    )  # fmt: skip
    out = relapsed or any(entry["unconscious"] for entry in live)
    out = out or (count > 0 and count >= stamina_dice(sheet))
    return Stuns(
        count=0 if out else count,
        immobile=not out and most_in_a_round > 0 and most_in_a_round >= dexterity_dice(sheet),
        unconscious=out,
        kept=len(kept),
        woke=any(entry.get("woke", False) for entry in live) and not out,
    )


def stuns_shown(
    sheet: Mapping[str, Any], now: Now = None, settings: Mapping[str, Any] | None = None
) -> dict | None:
    """What the sheet and the PDF print beside the wound level, or None with none kept."""
    if not sheet.get("stuns"):
        return None
    state = stuns_now(sheet, now, settings)
    return {
        "count": state.count,
        "immobile": state.immobile,
        "unconscious": state.unconscious,
        "woke": state.woke,
        "words": state.words or "stun passed",
        "source": STUNS_SOURCE,
    }


def stun_entry(stuns: int, unconscious: bool, now: Now, *, woke: bool = False) -> dict:
    scene, round_ = now if now is not None else (None, None)
    return {
        "stuns": stuns,
        "unconscious": unconscious,
        "scene": scene,
        "round": round_,
        "woke": woke,
    }


def add_stun(
    sheet: dict, stuns: int, unconscious: bool, now: Now, settings: Mapping[str, Any] | None = None
) -> None:
    """Keep a stun result (a hit's, 003:433-436): results no longer counting at `now` fall
    away; the result that brings the stuns to stamina's dice keeps the character out."""
    until_over = _until_over(settings)
    kept = [entry for entry in sheet.get("stuns") or [] if in_effect(entry, now, until_over)]
    entry = stun_entry(stuns, unconscious, now)
    kept.append(entry)
    sheet["stuns"] = kept[-MOST_STUN_ENTRIES:]
    if stuns_now(sheet, now, settings).unconscious:
        entry["unconscious"] = True


def stun_over(sheet: dict) -> None:
    """The stun ends: its time passed (outside a scene the player or GM says so), or the
    character controlled pain (003:1842). The Stunned level goes with it."""
    sheet["stuns"] = []
    if sheet["wound"] == "stunned":
        sheet["wound"] = "healthy"


def settle(sheet: dict, now: Now, settings: Mapping[str, Any] | None = None) -> None:
    """The scene's round moved on to `now`: the results no longer counting fall away
    (003:440), so every code read from the sheet alone, a roll's among them, is as the wound
    section says. A character still out stays out: after its one round awake (003:1855), or
    knocked out until the stun is over."""
    if now is None or not sheet.get("stuns"):
        return
    out = stuns_now(sheet, now, settings).unconscious
    kept = [entry for entry in sheet["stuns"] if in_effect(entry, now, _until_over(settings))]
    if out and not any(entry["unconscious"] for entry in kept):
        kept.append(stun_entry(0, True, now))
    sheet["stuns"] = kept
    if not kept and sheet["wound"] == "stunned":
        sheet["wound"] = "healthy"  # every stun passed: as when it is marked over


def woke(sheet: dict, now: Now, settings: Mapping[str, Any] | None = None) -> None:
    """Remain conscious after a stun knocked the character out: one round of action as at
    "1 Stun" (003:1855), once."""
    if not stuns_now(sheet, now, settings).unconscious:
        raise InvalidEdit("wound.woke", "Only a character knocked out by stun wakes this way.")
    sheet["stuns"] = [stun_entry(1, False, now, woke=True)]


def parse_now(trait: str, raw: str) -> Now:
    """ "@<scene>.<round>" (what the hit page and the sheet write in a running scene), or
    nothing outside one."""
    raw = raw.strip()
    if not raw:
        return None
    scene, dot, round_ = raw.removeprefix("@").partition(".")
    if not (raw.startswith("@") and dot and scene.isdigit() and round_.isdigit()):
        raise InvalidEdit(trait, "A scene round is written @scene.round.")
    if not (0 < int(scene) <= MOST_SCENE_ROUND and 0 < int(round_) <= MOST_SCENE_ROUND):
        raise InvalidEdit(trait, "A scene round is written @scene.round.")
    return int(scene), int(round_)


def stunned_level_counts(sheet: Mapping[str, Any]) -> bool:
    """Whether the Stunned level's own −1D applies: not on a 1E sheet that keeps its stun
    results, whose count gives the penalty instead (so a stun is not taken off twice)."""
    return not (sheet["edition"] == EDITION_1E and sheet.get("stuns"))


def stun_dice(sheet: Mapping[str, Any], key: str) -> int | None:
    """The whole dice a 1E stun takes off the code `key` (an attribute, skill, specialization
    or Force skill), or None when the stun forbids the roll: unconscious, or immobile and a
    Dexterity action (003:446). Strength is spared (003:438)."""
    if sheet["edition"] != EDITION_1E or not sheet.get("stuns"):
        return 0
    state = stuns_now(sheet)
    if state.unconscious:
        return None
    if state.immobile and _dexterity_code(sheet, key):
        return None
    return 0 if key == "attr.strength" else state.count


def _dexterity_code(sheet: Mapping[str, Any], key: str) -> bool:
    head, _, slug = key.partition(".")
    if head == "attr":
        return slug == "dexterity"
    if head == "spec":
        slug = sheet["specializations"].get(slug, {}).get("skill", "")
    if head in ("skill", "spec"):
        info = traits.skill_info(sheet, slug)
        return info is not None and info.attribute == "dexterity"
    return False


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
