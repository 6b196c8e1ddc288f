"""SWd10 rolls and their exact odds: a pool of d10 against a difficulty, counting successes.

Seed 000 leaves the core dice rules to the Storytelling rulebook (L73), so each of them is a
reading in DICE_SETTINGS, with the digest's proposal (Revised Storytelling, digest §6.2) as
the default: whether 1s cancel successes, what a botch is, what a specialty does, and how a
difficulty above 10 is rolled (L1450). Stated in the seed: the Path roll after a mistake
(L120-126), Willpower's automatic success and where it may not be used (L181), untrained
rolls (L193), initiative (L199-200) and wound penalties on dice pools (sheet L48-54, L1454);
soak rolls for Stamina, armor and shields (L185-187, L220-230) and the armor's penalty on
Dexterity-based rolls (L741, armor.py); aiming (L246-286, aiming.py); the Path roll's
grades (L134-168, paths.py); Destiny points (L81-85) and current Power (L102-110) spent
with a roll (spends.py) and multiple actions (L204).

The odds are exact Fractions. A die either shows a 1, a blank or one or more successes;
with "10s roll again" a die's successes have no upper bound, but their chances form a
geometric series, so every count below a cap is exact and the cap's bar holds the exact
rest (1 minus the others). The cap is set high enough that 1s can never pull a capped
count below the number asked for, so the chance of success never depends on it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any

from rulesets.core.rolls import Bar, InvalidRoll, Odds, Rollable, RollOption, RollResult
from rulesets.core.settings import Setting, resolve_settings
from rulesets.swd10 import aiming, armor, paths, spends
from rulesets.swd10.data import (
    ABILITIES,
    ATTRIBUTE_BY_SLUG,
    ATTRIBUTES,
    FORCE_KNOWLEDGES,
)

SIDES = 10
DEFAULT_DIFFICULTY = 6  # L185, L847 and Storytelling practice
LOWEST_DIFFICULTY = 2  # a 1 never succeeds, so difficulty 1 would be difficulty 2
HIGHEST_DIFFICULTY = 20
MAX_POOL = 20  # 5 attribute + 5 ability + 10 bonus dice
MAX_BONUS_DICE = 10
MAX_NEEDED = 10
MAX_GRADE = 10  # both Path tables run 1-10 (L134-168)
UNTRAINED_SKILL_DIFFICULTY = 8  # L193
INITIATIVE_DIFFICULTY = 4  # L199-200

ONES_CANCEL = "dice_ones_cancel"
WOUNDS_ON_SOAK = "dice_wounds_on_soak"
BOTCH = "dice_botch"
SPECIALTY = "dice_specialty"
ABOVE_TEN = "dice_difficulty_above_ten"
DESTINY_DICE = "dice_destiny_successes"

DICE_SETTINGS: tuple[Setting, ...] = (
    Setting(
        key=ONES_CANCEL,
        label="A 1 on the dice",
        default=True,
        source="L73 leaves the dice to the Storytelling rules; digest §6.2 proposes "
        "the Revised rule",
        help="Whether each 1 rolled takes away one success.",
        choices=((True, "cancels one success"), (False, "cancels nothing")),
    ),
    Setting(
        key=BOTCH,
        label="A botch",
        default="revised",
        source="used at L126 and L218 but never defined; digest §6.2 proposes the Revised rule",
        help="A roll spending Willpower on a success never botches.",
        choices=(
            ("revised", "no die succeeded and at least one 1 (Revised)"),
            ("old", "more 1s than successes (older editions)"),
        ),
    ),
    Setting(
        key=SPECIALTY,
        label="A specialty",
        default="none",
        source="specialties are not in the seed (digest §6.2)",
        help="What a roll made with a specialty gains. A re-rolled die only adds: its 1s "
        "cancel nothing.",
        choices=(
            ("none", "no specialties"),
            ("tens_twice", "each 10 counts twice"),
            ("tens_again", "each 10 is rolled again"),
        ),
    ),
    Setting(
        key=ABOVE_TEN,
        label="A difficulty above 10",
        default="threshold",
        source="L1450 for vehicles, read with a lost minus sign (digest §6.1)",
        help="The rulebook's threshold: difficulty 11 needs 3 successes at difficulty 9.",
        choices=(
            ("threshold", "difficulty 9, needing difficulty − 8 successes"),
            ("extra_successes", "difficulty 10, one more success per point above 10"),
            ("ten", "difficulty 10"),
        ),
    ),
)
DICE_SETTINGS += (
    Setting(
        key=WOUNDS_ON_SOAK,
        label="Wound penalties on soak and damage rolls",
        default=False,
        source="the seed is silent for characters; L1454 takes them off a vehicle's armor "
        "dice but not its shields or damage; proposal: Storytelling practice, none",
        help="Whether the wound penalty also comes off soak and damage pools.",
        choices=((False, "no"), (True, "yes, like any other pool")),
    ),
)
DICE_SETTINGS += (
    Setting(
        key=DESTINY_DICE,
        label="A Destiny point's successes and the dice",
        default="after_roll",
        source="L83 adds them after the combat roll, so no 1 cancels them; whether a botch "
        "still stands is not said (digest §10, 18)",
        help="How the three successes a Destiny point buys meet the 1s rolled.",
        choices=(
            ("after_roll", "added after the dice: no 1 cancels them, and the roll cannot botch"),
            ("botch_stands", "added after the dice, but a botch stays a botch"),
            ("with_dice", "counted with the dice: each 1 cancels one of them as well"),
        ),
    ),
)
DICE_READINGS: tuple[str, ...] = tuple(setting.key for setting in DICE_SETTINGS)

# The attribute an ability rolls with when the player does not choose: the pairs the seed
# prints, else the usual Storytelling pair. Only a starting point; the player picks.
DEFAULT_ATTRIBUTE: dict[str, str] = {
    "alertness": "perception",  # L432
    "athletics": "dexterity",  # L342, L851
    "acrobatics": "dexterity",  # L529
    "melee": "dexterity",  # L579
    "firearms": "dexterity",  # L1436
    "pilot": "dexterity",  # L1433
    "ride": "dexterity",  # L1433
    "brawl": "dexterity",
    "dodge": "dexterity",
    "stealth": "dexterity",
    "empathy": "perception",
    "investigation": "perception",
    "expression": "charisma",
    "leadership": "charisma",
    "persuasion": "charisma",
    "performance": "charisma",
    "animal_ken": "charisma",
    "diplomacy": "manipulation",
    "intimidation": "manipulation",
    "subterfuge": "manipulation",
    "disguise": "manipulation",
    "gamble": "wits",
    "survival": "wits",
    "meditation": "wits",
    "security": "wits",
}
# Rolls where Willpower's automatic success may not be bought (L181: not on damage, soak,
# Willpower, Dark side or Light side rolls).
NO_WILLPOWER_SUCCESS = frozenset({"willpower", "path", "soak", "damage"})
# Rolls that are no action, so an incapacitated character still makes them (a soak: L89
# lets a Destiny point keep one alive while taking damage incapacitated).
NOT_ACTIONS = frozenset({"willpower", "path", "soak"})
# Pools the wound penalty does not reduce unless the reading says so (WOUNDS_ON_SOAK).
SOAK_AND_DAMAGE = frozenset({"soak", "damage"})


# --- the sheet's rollables -----------------------------------------------------------------


def _sheet_facts(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict[str, Any]:
    # Imported here: rules imports this module's settings for SETTINGS.
    from rulesets.swd10.rules import derived, owned_merits

    values = derived(sheet, settings)
    merits = owned_merits(sheet)
    return {
        "wound_penalty": -values["wound_penalty"],
        "incapacitated": values["incapacitated"],
        "willpower_current": sheet["willpower_current"],
        "destiny_points": sheet["info"]["destiny_points"],
        "power_current": sheet["power_current"],
        "power": sheet["power"],  # L100: current Power never past it
        # The merits that change what a battle's success gains (L609, L629).
        "power_merits": tuple(
            sorted(m for m in merits if m in {spends.STRONG_IN_THE_FORCE, spends.POWER_RECOVERY})
        ),
    }


# The aiming table each attack ability rolls with (L248, L261); Force pools aim by the
# ranged table, for abilities with the "Aiming" descriptor only (L259).
AIM_TABLE: dict[str, str] = {
    "firearms": aiming.RANGED,
    "melee": aiming.MELEE,
    "brawl": aiming.MELEE,
}
ACTIONS = frozenset({"attribute", "ability", "force"})  # pools split by multiple actions (L204)


def _destiny_uses(kind: str, slug: str, reach: str) -> tuple[str, ...]:
    """The Destiny spends a roll offers (L83-85), by the reading of what a combat roll is."""
    if kind == "initiative":
        return (spends.DESTINY_INITIATIVE,)  # L84
    uses = []
    combat = kind in {"force", "damage"} or slug in spends.COMBAT_ABILITIES
    if kind in ACTIONS | {"damage"} and (combat or reach == "any_action"):
        uses.append(spends.DESTINY_SUCCESSES)  # L83
    if kind in ACTIONS:
        uses.append(spends.DESTINY_WOUNDS)  # L85
    return tuple(uses)


def _armor_penalty(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> tuple[int, str]:
    """The worn armor's penalty dice (L741) and which pools it reaches (a reading)."""
    from rulesets.swd10.rules import SETTINGS, derived

    resolved = resolve_settings(SETTINGS, settings)
    reach = resolved[armor.ARMOR_PENALTY_ROLLS]
    penalty = derived(sheet, resolved)["armor_penalty"]
    return (penalty, reach) if reach != "none" else (0, reach)


def _armor_facts(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict[str, int]:
    """The worn armor's rating and the dice its merits take off a penalty (L741-793): a
    roll offers the penalty converted from Saga Edition (L1374) from them."""
    from rulesets.swd10.rules import SETTINGS, derived, trait_view

    resolved = resolve_settings(SETTINGS, settings)
    worn = derived(sheet, resolved)["armor_worn"]
    if worn is None or resolved[armor.ARMOR_PENALTY_ROLLS] == "none":
        return {"armor_rating": 0, "armor_relief": 0}
    view = trait_view(sheet)
    proficient = armor.proficiencies(view.merit_choices)
    relief = armor.penalty_relief(worn.rating, set(view.merits), proficient)
    return {"armor_rating": worn.rating, "armor_relief": relief}


def _rollable(key, label, dice, kind, group, source, common, **facts) -> Rollable:
    merged = {"kind": kind, **common, **facts}
    return Rollable(key, label, dice, tuple(sorted(merged.items())), group, source)


def rollables(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> tuple[Rollable, ...]:
    """Every pool the sheet can roll: attributes, abilities (with an attribute the player
    picks), Force knowledge pools, Willpower, initiative and the two Path rolls."""
    from rulesets.swd10.prerequisites import force_pool
    from rulesets.swd10.rules import SETTINGS, ability_label, trait_view

    common = _sheet_facts(sheet, settings)
    attributes = sheet["attributes"]
    penalty, reach = _armor_penalty(sheet, settings)
    worn = _armor_facts(sheet, settings)
    combat = resolve_settings(SETTINGS, settings)[spends.DESTINY_COMBAT_ROLLS]
    found: list[Rollable] = []
    for trait in ATTRIBUTES:
        found.append(
            _rollable(
                f"attr.{trait.slug}",
                trait.label,
                attributes[trait.slug],
                "attribute",
                "Attributes",
                trait.source,
                common,
                armor_penalty=penalty if trait.slug == "dexterity" else 0,
                armor_reach=trait.slug == "dexterity",
                **worn,
                destiny_uses=_destiny_uses("attribute", trait.slug, combat),
            )
        )
    attribute_dots = tuple((t.slug, attributes[t.slug]) for t in ATTRIBUTES)
    for trait in ABILITIES:
        dots = sheet["abilities"][trait.slug]
        if dots == 0 and trait.group == "knowledges":
            continue  # knowledges cannot be rolled untrained (L193)
        untrained_skill = dots == 0 and trait.group == "skills"
        found.append(
            _rollable(
                f"abil.{trait.slug}",
                ability_label(sheet, trait.slug),
                dots,
                "ability",
                "Abilities",
                trait.source,
                common,
                attributes=attribute_dots,
                default_attribute=DEFAULT_ATTRIBUTE.get(
                    trait.slug, "intelligence" if trait.group == "knowledges" else "wits"
                ),
                default_difficulty=UNTRAINED_SKILL_DIFFICULTY
                if untrained_skill
                else DEFAULT_DIFFICULTY,
                # Taken off only when Dexterity is the attribute rolled (L741).
                armor_penalty=penalty,
                armor_reach=True,
                **worn,
                aim_table=AIM_TABLE.get(trait.slug, ""),
                destiny_uses=_destiny_uses("ability", trait.slug, combat),
            )
        )
    view = trait_view(sheet)
    for knowledge in FORCE_KNOWLEDGES:
        if sheet["force_knowledges"][knowledge.slug] == 0:
            continue  # L193: no Force knowledge roll without dots
        # A Force pool adds the better of two attributes (L845): Dexterity-based when
        # Dexterity is that attribute.
        better = max(knowledge.attributes, key=lambda slug: (attributes[slug], slug == "dexterity"))
        found.append(
            _rollable(
                f"fk.{knowledge.slug}",
                f"{knowledge.name} (Force)",
                force_pool(knowledge, view),
                "force",
                "The Force",
                f"L845, {knowledge.source}",
                common,
                armor_penalty=penalty
                if better == "dexterity" and reach == "dexterity_pools"
                else 0,
                armor_reach=better == "dexterity" and reach == "dexterity_pools",
                **worn,
                aim_table=aiming.RANGED,
                destiny_uses=_destiny_uses("force", knowledge.slug, combat),
            )
        )
    partner = "charisma" if "force_intuition" in view.merits else "wits"  # L561
    found.append(
        _rollable(
            "pool.initiative",
            f"Initiative (Dexterity + {ATTRIBUTE_BY_SLUG[partner].label})",
            attributes["dexterity"] + attributes[partner],
            "initiative",
            "Other",
            "L199-200",
            common,
            default_difficulty=INITIATIVE_DIFFICULTY,
            armor_penalty=penalty if reach == "dexterity_pools" else 0,
            armor_reach=reach == "dexterity_pools",
            **worn,
            destiny_uses=_destiny_uses("initiative", "", combat),
        )
    )
    found.append(
        _rollable(
            "willpower", "Willpower", sheet["willpower"], "willpower", "Other", "L176", common
        )
    )
    if sheet["power_current"] >= 1:
        found.append(
            _rollable(
                "pool.power_contest",
                "Current Power against a commoner's attack",
                sheet["power_current"],
                "contest",
                "Other",
                "L108-110",
                common,
                default_difficulty=resolve_settings(SETTINGS, settings)[
                    spends.POWER_CONTEST_DIFFICULTY
                ],
            )
        )
    for side, label in (("light_side", "Light side"), ("dark_side", "Dark side")):
        if sheet[side] >= 1:
            found.append(
                _rollable(
                    f"path.{side}",
                    f"{label}: after a mistake",
                    sheet[side],
                    "path",
                    "Path",
                    "L120-126",
                    common,
                    side=side,
                )
            )
    for index, weapon in enumerate(sheet["weapons"]):
        if weapon["damage"] > 0:
            found.append(
                _rollable(
                    f"dmg.{index}",
                    f"{weapon['name']}: damage",
                    weapon["damage"],
                    "damage",
                    "Damage",
                    "L195, L246-270",
                    common,
                    destiny_uses=_destiny_uses("damage", "", combat),
                )
            )
    found.extend(_soak_rollables(sheet, settings, common))
    return tuple(found)


def _soak_rollables(
    sheet: Mapping[str, Any], settings: Mapping[str, Any], common: Mapping[str, Any]
) -> list[Rollable]:
    """Stamina's soak (L187) and the worn armor's and shield's (L185), each at difficulty 6."""
    from rulesets.swd10.rules import derived

    values = derived(sheet, settings)
    found = [
        _rollable(
            "soak.stamina",
            "Soak: Stamina",
            sheet["attributes"]["stamina"],
            "soak",
            "Soak",
            "L187",
            common,
            soaks="stamina",
            hero=values["hero"],
        )
    ]
    for protection in (values["shield_worn"], values["armor_worn"]):
        if protection is None:
            continue
        found.append(
            _rollable(
                f"soak.{protection.kind}",
                f"Soak: {protection.name} ({protection.kind})",
                protection.soak,
                "soak",
                "Soak",
                "L185, L220" if protection.kind == armor.SHIELD else "L185, L224",
                common,
                soaks=protection.kind,
                row=protection.index,
                lost=protection.lost,
                rating=protection.rating,
            )
        )
    return found


def at_round(rollable: Rollable, state: spends.RoundState | None) -> Rollable:
    """The rollable as rolled in a scene's round (the web layer knows the scenes): the
    Destiny point's once-a-round limit (L81) and a battle's Power (L100) read it."""
    if state is None:
        return rollable
    facts = tuple(sorted((*((k, v) for k, v in rollable.facts if k != "round"), ("round", state))))
    return replace(rollable, facts=facts)


# --- the options a player sets --------------------------------------------------------------


def _path_side(rollable: Rollable) -> str:
    return rollable.fact("side", paths.LIGHT)


def _held(side: str, value: int) -> str:
    """The degree a Path's value holds (L134-168), said beside the roll after a mistake."""
    if not 1 <= value <= len(paths.PATHS[side]):
        return ""
    held = paths.grade(side, value)
    return f"Grade {held.grade} held: {held.degree}. "


def roll_options(rollable: Rollable, settings: Mapping[str, Any]) -> tuple[RollOption, ...]:
    """The modifiers for one roll; what the sheet or the readings rule out is not offered."""
    settings = resolve_settings(DICE_SETTINGS, settings)
    kind = rollable.fact("kind")
    options: list[RollOption] = []
    if kind == "ability":
        options.append(
            RollOption(
                "attribute",
                "Attribute",
                "choice",
                rollable.fact("default_attribute"),
                choices=tuple(
                    (slug, f"{ATTRIBUTE_BY_SLUG[slug].label} ({dots})")
                    for slug, dots in rollable.fact("attributes")
                ),
                help="The attribute the action calls for; its dots join the pool.",
            )
        )
    if kind == "path":
        side = _path_side(rollable)
        options.append(
            RollOption(
                "grade",
                "Grade of the mistake",
                "choice",
                "1",
                choices=paths.choices(side),
                source=f"L120, {paths.PATHS[side][0].source}-{paths.PATHS[side][-1].source[1:]}",
                help=_held(side, rollable.dice)
                + "The deed that tests each grade; the difficulty is the current value − "
                "the grade + 6.",
            )
        )
    else:
        options.append(
            RollOption(
                "difficulty",
                "Difficulty",
                "number",
                rollable.fact("default_difficulty", DEFAULT_DIFFICULTY),
                minimum=LOWEST_DIFFICULTY,
                maximum=HIGHEST_DIFFICULTY,
            )
        )
        if kind not in SOAK_AND_DAMAGE:
            options.append(
                RollOption("needed", "Successes needed", "number", 1, minimum=1, maximum=MAX_NEEDED)
            )
    table = rollable.fact("aim_table", "")
    if table:
        options.append(
            RollOption(
                "aim",
                "Aimed at",
                "choice",
                aiming.NOT_AIMED,
                choices=aiming.choices(table),
                source="L259"
                if kind == "force"
                else dict((t, s) for t, _l, s in aiming.TABLES)[table],
                help="Only a Force ability with the Aiming descriptor may aim."
                if kind == "force"
                else "The damage dice go on the weapon's damage roll, aimed the same way.",
            )
        )
    if kind == "damage":
        options.append(
            RollOption(
                "aim",
                "Aimed at",
                "choice",
                aiming.NOT_AIMED,
                choices=aiming.damage_choices(),
                source="L246-286",
                help="Where the attack was aimed: its damage dice, and what the damage does there.",
            )
        )
    if kind in ACTIONS:
        options.append(
            RollOption(
                "actions",
                "Actions declared this round",
                "number",
                1,
                minimum=1,
                maximum=spends.MAX_ACTIONS,
                source="L204",
                help="With more than one, the first loses that many dice, each later one more.",
            )
        )
        options.append(
            RollOption(
                "action",
                "This is action number",
                "number",
                1,
                minimum=1,
                maximum=spends.MAX_ACTIONS,
                source="L204",
            )
        )
        options.append(
            RollOption(
                "evasions",
                "Evasions made earlier this round",
                "number",
                0,
                minimum=0,
                maximum=spends.MAX_EVASIONS,
                source="L206",
                help="An evasion needs no declaring, but takes a die off every action after it.",
            )
        )
    options.extend(_armor_options(rollable))
    if kind == "soak":
        options.extend(_soak_options(rollable))
    options.append(
        RollOption(
            "dice",
            "Bonus or penalty dice",
            "number",
            0,
            minimum=-MAX_BONUS_DICE,
            maximum=MAX_BONUS_DICE,
            help="Merits, the Storyteller's modifiers: dice added to or taken from the pool.",
        )
    )
    if settings[SPECIALTY] != "none" and kind in {"ability", "attribute", "force"}:
        options.append(RollOption("specialty", "Specialty applies", "flag", False))
    if rollable.fact("willpower_current", 0) > 0:
        if kind not in NO_WILLPOWER_SUCCESS:
            options.append(
                RollOption(
                    "willpower",
                    "Spend Willpower: one automatic success",
                    "flag",
                    False,
                    source="L181",
                )
            )
        if rollable.fact("wound_penalty", 0) and kind not in NO_WILLPOWER_SUCCESS:
            options.append(
                RollOption(
                    "ignore_wounds",
                    "Spend Willpower: ignore wound penalties",
                    "flag",
                    False,
                    source="L180",
                )
            )
    options.extend(_spend_options(rollable))
    options.extend(_battle_options(rollable))
    return tuple(options)


def _armor_options(rollable: Rollable) -> list[RollOption]:
    """The worn armor's penalty by its class (L741), or as converted from Saga Edition
    (L1374), on the rolls the armor penalty reaches."""
    if not rollable.fact("armor_rating", 0) or not rollable.fact("armor_reach", False):
        return []
    return [
        RollOption(
            "armor_swse",
            "Worn armor's penalty",
            "choice",
            armor.CLASS_PENALTY,
            choices=armor.penalty_choices(
                rollable.fact("armor_penalty", 0), rollable.fact("armor_relief", 0)
            ),
            source="L741, L1374",
            help="Armor converted from Saga Edition takes 5 − its maximum Dexterity bonus "
            "(at least 1) instead of its class's dice; the armor merits still ease it. "
            + ("Only with Dexterity rolled." if rollable.fact("kind") == "ability" else ""),
        )
    ]


def _battle_options(rollable: Rollable) -> list[RollOption]:
    """Whether the roll is made in a battle, whose success fills current Power (L100)."""
    kind = rollable.fact("kind")
    if rollable.fact("power", 0) < 1 or kind in spends.NO_POWER_GAIN:
        return []  # a commoner has no current Power (L96-100)
    state = rollable.fact("round")
    merits = rollable.fact("power_merits", ())
    extra = []
    if kind == "force" and spends.STRONG_IN_THE_FORCE in merits:
        extra.append("+2 with Strong in the Force (L629)")
    if kind == "initiative" and spends.POWER_RECOVERY in merits:
        extra.append("Power Recovery adds 2 whatever the dice (L609)")
    where = (
        f"In round {state.round} of {state.scene}: ticked."
        if state is not None
        else "Tick it for a fight, or a hard contested roll the Storyteller counts."
    )
    return [
        RollOption(
            "battle",
            "A battle roll: a success adds current Power",
            "flag",
            state is not None,
            source="L100",
            help=" ".join(
                ["One point on a success, never past Power.", *(s + "." for s in extra), where]
            ),
        )
    ]


def _soak_options(rollable: Rollable) -> list[RollOption]:
    soaks = rollable.fact("soaks")
    found = []
    if soaks == "stamina":
        found.append(
            RollOption(
                "damage_type",
                "Damage",
                "choice",
                "lethal" if rollable.fact("hero") else "bashing",
                choices=(("bashing", "bashing"), ("lethal", "lethal")),
                source="L187",
                help="A commoner's Stamina soaks bashing damage only.",
            )
        )
    else:
        found.append(
            RollOption(
                "weapon",
                "The attack's weapon",
                "choice",
                "other",
                choices=armor.PIERCING_CHOICES,
                source="L230",
            )
        )
    found.append(
        RollOption(
            "incoming",
            "Damage successes to soak",
            "number",
            0,
            minimum=0,
            maximum=MAX_POOL * 2,
            source="L220" if soaks == armor.SHIELD else ("L224" if soaks == armor.ARMOR else ""),
            help="0 if not known. A shield that lets damage through, or armor that lets more "
            "than its rating through, loses a point.",
        )
    )
    return found


def _spend_options(rollable: Rollable) -> list[RollOption]:
    """Destiny points (L81-85) and current Power (L102-106) a roll may spend."""
    kind = rollable.fact("kind")
    found = []
    uses = [
        use
        for use in rollable.fact("destiny_uses", ())
        if use != spends.DESTINY_WOUNDS or rollable.fact("wound_penalty", 0)
    ]
    if rollable.fact("destiny_points", 0) > 0:
        # One flag per use: a form that asks for one the sheet no longer offers (its last
        # point went since the page was drawn) is refused as any spend is (ROLL_SPENDS).
        for use in uses:
            spend = spends.DESTINY_SPENDS[use]
            found.append(
                RollOption(
                    spends.destiny_option(use),
                    f"Spend a Destiny point: {spend.label}",
                    "flag",
                    False,
                    source=f"L81, {spend.source}",
                    help=spends.destiny_help(rollable.fact("round")),
                )
            )
    power = rollable.fact("power_current", 0)
    if power <= 0 or rollable.fact("round") is not None:
        # In a scene current Power is paid once at the round's start, on the roll page
        # (L104-105), and every roll of the round reads it (`read`): no roll pays again.
        return found
    if kind == "damage":
        found.append(
            RollOption(
                "power_damage",
                "Spend current Power: damage dice",
                "number",
                0,
                minimum=0,
                maximum=power,
                source="L104",
                help="One more die of base damage a point. Outside a scene this roll pays "
                "it and the table keeps the round; in a scene it is paid at the round's start.",
            )
        )
    if kind in ACTIONS:
        found.append(
            RollOption(
                "power_actions",
                "Spend current Power: less multiple-action penalty",
                "number",
                0,
                minimum=0,
                maximum=power,
                source="L105",
                help="One die less of the penalty a point. Outside a scene this roll pays "
                "it and the table keeps the round; in a scene it is paid at the round's start.",
            )
        )
    return found


# --- reading a roll -------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """Everything the dice of one roll depend on, after the sheet and options are read."""

    pool: int
    difficulty: int  # the difficulty the dice are rolled at (2-10)
    needed: int
    willpower: bool
    ones_cancel: bool
    botch: str
    specialty: str  # "none", "tens_twice" or "tens_again" (only when the specialty applies)
    path: bool = False
    # A Destiny point's successes (L83-84), met by the 1s as the DESTINY_DICE reading says.
    auto: int = 0
    auto_rule: str = "after_roll"


def _number(options: Mapping[str, Any], key: str, default: int, low: int, high: int, label: str):
    value = options.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRoll(key, f"{label}: expected a whole number.")
    if value < low:
        raise InvalidRoll(key, f"{label}: at least {low}, not {value}.")
    if value > high:
        raise InvalidRoll(key, f"{label}: at most {high}, not {value}.")
    return value


@dataclass(frozen=True)
class Reading:
    """What a roll's options come to beside its dice: the spends, aim and what it wears."""

    spec: Spec
    aim: aiming.Location | None = None
    damage_dice: int = 0  # the aim's damage dice (an attack's, said for its damage roll)
    destiny: str = spends.DESTINY_NONE
    power: int = 0
    incoming: int = 0
    notes: tuple[str, ...] = ()


def _aim(rollable: Rollable, options: Mapping[str, Any]) -> aiming.Location | None:
    kind, chosen = rollable.fact("kind"), options.get("aim", aiming.NOT_AIMED)
    if chosen == aiming.NOT_AIMED:
        return None
    table = rollable.fact("aim_table", "")
    if kind == "damage":
        table, _, chosen = str(chosen).partition(".")
    if not table:
        raise InvalidRoll("aim", "This roll cannot be aimed.")
    try:
        return aiming.location(table, str(chosen))
    except aiming.UnknownAim as unknown:
        raise InvalidRoll("aim", str(unknown)) from None


def _destiny(rollable: Rollable, options: Mapping[str, Any]) -> spends.DestinySpend | None:
    """The Destiny point's use a roll's options name, if any (L81: one a round)."""
    chosen = [use for use in spends.DESTINY_SPENDS if options.get(spends.destiny_option(use))]
    if not chosen:
        return None
    field = spends.destiny_option(chosen[0])
    if len(chosen) > 1:
        raise InvalidRoll(field, "One Destiny point a round: choose one of its uses.")
    if chosen[0] not in rollable.fact("destiny_uses", ()):
        raise InvalidRoll(field, "A Destiny point cannot buy that on this roll.")
    if rollable.fact("destiny_points", 0) < 1:
        raise InvalidRoll(field, "No Destiny point left to spend.")
    state = rollable.fact("round")
    if state is not None and state.destiny_spent:
        raise InvalidRoll(field, spends.destiny_refusal(state))
    return spends.DESTINY_SPENDS[chosen[0]]


def _armor_dice(rollable: Rollable, options: Mapping[str, Any]) -> int:
    """The worn armor's penalty on this roll: by its class (L741), or converted from Saga
    Edition (L1374) when the option says so."""
    chosen = str(options.get("armor_swse", armor.CLASS_PENALTY))
    if chosen == armor.CLASS_PENALTY or not rollable.fact("armor_rating", 0):
        return rollable.fact("armor_penalty", 0)
    if not rollable.fact("armor_reach", False):
        raise InvalidRoll("armor_swse", "No armor penalty reaches this roll.")
    if not (chosen.isascii() and chosen.isdigit() and int(chosen) < armor.SWSE_MAX_DEX_BONUS):
        raise InvalidRoll("armor_swse", "Worn armor's penalty: choose one of the list.")
    return max(armor.swse_penalty(int(chosen)) - rollable.fact("armor_relief", 0), 0)


def _power(rollable: Rollable, options: Mapping[str, Any]) -> tuple[str, int]:
    """The one Power spend a roll's options name, and how many points: ("", 0) for none."""
    named = [
        (key, _number(options, key, 0, 0, MAX_POOL, "Current Power"))
        for key in ("power_damage", "power_actions")
        if options.get(key)
    ]
    if not named:
        return "", 0
    key, points = named[0]
    kind = rollable.fact("kind")
    allowed = {
        "power_damage": kind == "damage",
        "power_actions": kind in ACTIONS,
    }
    if len(named) > 1 or not allowed[key]:
        raise InvalidRoll(key, "Current Power cannot be spent that way on this roll.")
    left = rollable.fact("power_current", 0)
    if points > left:
        raise InvalidRoll(key, f"Only {left} current Power left to spend.")
    return key, points


def read(rollable: Rollable, options: Mapping[str, Any]) -> Reading:
    """Check the options against the sheet and the readings: a Reading, or InvalidRoll."""
    readings = resolve_settings(DICE_SETTINGS, options)
    kind = rollable.fact("kind")
    if rollable.fact("incapacitated") and kind not in NOT_ACTIONS:
        raise InvalidRoll("pool", "An incapacitated character cannot act.")
    pool = rollable.dice
    notes: list[str] = []
    chosen = "dexterity" if kind != "ability" else ""  # the armor asks for Dexterity rolled
    if kind == "ability":
        attributes = dict(rollable.fact("attributes"))
        chosen = options.get("attribute", rollable.fact("default_attribute"))
        if chosen not in attributes:
            raise InvalidRoll("attribute", "Attribute: choose one of the nine attributes.")
        pool += attributes[chosen]
    worn_penalty = _armor_dice(rollable, options)
    if worn_penalty and chosen == "dexterity":
        pool -= worn_penalty
        notes.append(f"armor −{worn_penalty} dice")
    pool += _number(options, "dice", 0, -MAX_BONUS_DICE, MAX_BONUS_DICE, "Bonus or penalty dice")
    aim = _aim(rollable, options)
    destiny = _destiny(rollable, options)
    power_key, power = _power(rollable, options)
    state = rollable.fact("round")
    round_damage = round_actions = 0
    if state is not None:
        if power_key:
            raise InvalidRoll(power_key, "In a scene current Power is paid at the round's start.")
        round_damage, round_actions = state.power_damage, state.power_actions
    if kind in ACTIONS:
        declared = _number(options, "actions", 1, 1, spends.MAX_ACTIONS, "Actions declared")
        number = _number(options, "action", 1, 1, spends.MAX_ACTIONS, "Action number")
        if number > declared:
            raise InvalidRoll("action", f"Action number: at most the {declared} declared.")
        split = spends.penalty_after_power(declared, number, power + round_actions)
        if spends.multiple_action_penalty(declared, number):
            pool -= split
            notes.append(f"action {number} of {declared}: −{split} dice")
            if round_actions:
                notes.append(f"{ROUND_POWER_NOTE}: {round_actions} dice off it (L105)")
        evasions = _number(options, "evasions", 0, 0, spends.MAX_EVASIONS, "Evasions made")
        if evasions:
            pool -= spends.evasion_penalty(evasions)  # L206
            notes.append(f"{evasions} evasion(s) before: −{spends.evasion_penalty(evasions)} dice")
    if kind == "damage":
        damage_dice = aim.damage_dice if aim else 0
        pool += damage_dice + (power + round_damage) * spends.POWER_DAMAGE_PER_POINT
        if round_damage:
            notes.append(f"{ROUND_POWER_NOTE}: +{round_damage} damage (L104)")
    willpower_current = rollable.fact("willpower_current", 0)
    willpower = bool(options.get("willpower", False))
    ignore_wounds = bool(options.get("ignore_wounds", False))
    if (willpower or ignore_wounds) and kind in NO_WILLPOWER_SUCCESS:
        raise InvalidRoll("willpower", "Willpower cannot be spent on this roll.")
    if willpower + ignore_wounds > willpower_current:
        raise InvalidRoll("willpower", f"Only {willpower_current} Willpower left to spend.")
    wounds_apply = kind not in {"willpower", "path"} and (
        kind not in SOAK_AND_DAMAGE or readings[WOUNDS_ON_SOAK]
    )
    if destiny is not None and destiny.ignores_wounds:
        wounds_apply = False
    if state is not None and state.destiny_spent == spends.DESTINY_WOUNDS:
        # L85: the point spent earlier this round holds for the rest of it.
        if wounds_apply and rollable.fact("wound_penalty", 0):
            notes.append("wound penalties ignored: this round's Destiny point (L85)")
        wounds_apply = False
    if wounds_apply and not ignore_wounds:
        pool -= rollable.fact("wound_penalty", 0)
    auto = destiny.successes if destiny is not None else 0
    incoming = 0
    if kind == "soak":
        soaks = rollable.fact("soaks")
        if soaks == "stamina":
            damage_type = options.get("damage_type", "lethal")
            if damage_type == "lethal" and not rollable.fact("hero"):
                raise InvalidRoll("damage_type", "A commoner's Stamina soaks bashing damage only.")
        else:
            weapon = options.get("weapon", "other")
            if weapon not in armor.PIERCING:
                raise InvalidRoll("weapon", "The attack's weapon: choose one of the list.")
            if soaks in armor.PIERCING[weapon]:
                said = dict(armor.PIERCING_CHOICES)[weapon].split(" (")[0]
                raise InvalidRoll("weapon", f"The {soaks} soaks nothing against {said}.")
        incoming = _number(options, "incoming", 0, 0, MAX_POOL * 2, "Damage successes to soak")
    pool = max(pool, 0)
    if pool > MAX_POOL:
        raise InvalidRoll("dice", f"A pool holds at most {MAX_POOL} dice, not {pool}.")
    if kind == "path":
        raw = options.get("grade", 1)
        text = str(raw).strip()
        if isinstance(raw, bool) or not text.isdigit() or not 1 <= int(text) <= MAX_GRADE:
            raise InvalidRoll("grade", f"Grade of the mistake: choose 1 to {MAX_GRADE}.")
        difficulty = paths.difficulty(rollable.dice, int(text))  # L120
        needed = 1
    else:
        difficulty = _number(
            options,
            "difficulty",
            rollable.fact("default_difficulty", DEFAULT_DIFFICULTY),
            LOWEST_DIFFICULTY,
            HIGHEST_DIFFICULTY,
            "Difficulty",
        )
        if aim is not None and kind != "damage":
            difficulty += aim.difficulty
        needed = _number(options, "needed", 1, 1, MAX_NEEDED, "Successes needed")
    if difficulty > SIDES:
        rule = readings[ABOVE_TEN]
        if rule == "threshold":  # L1450
            needed += difficulty - 9
            difficulty = 9
        elif rule == "extra_successes":
            needed += difficulty - SIDES
            difficulty = SIDES
        else:
            difficulty = SIDES
    specialty = readings[SPECIALTY] if options.get("specialty") else "none"
    spec = Spec(
        pool=pool,
        difficulty=difficulty,
        needed=needed,
        willpower=willpower,
        ones_cancel=readings[ONES_CANCEL],
        botch=readings[BOTCH],
        specialty=specialty,
        path=kind == "path",
        auto=auto,
        auto_rule=readings[DESTINY_DICE],
    )
    return Reading(
        spec,
        aim=aim,
        damage_dice=aim.damage_dice if aim else 0,
        destiny=destiny.key if destiny else spends.DESTINY_NONE,
        power=power if power_key else 0,
        incoming=incoming,
        notes=tuple(notes),
    )


def read_roll(rollable: Rollable, options: Mapping[str, Any]) -> Spec:
    """The dice of a roll (`read` without what lies beside them)."""
    return read(rollable, options).spec


def is_botch(spec: Spec, successes: int, ones: int) -> bool:
    """Whether dice with `successes` (before 1s cancel) and `ones` botch under the readings:
    Willpower's success never botches; a Destiny point's as DESTINY_DICE says."""
    if spec.willpower or ones == 0:
        return False
    if spec.auto and spec.auto_rule == "after_roll":
        return False
    counted = successes + (spec.auto if spec.auto_rule == "with_dice" else 0)
    if spec.botch == "revised":
        return counted == 0
    return ones > counted


def net_successes(spec: Spec, successes: int, ones: int) -> int:
    """Successes kept: 1s cancel the dice's (and, counted with the dice, a Destiny point's)
    when the reading says so; Willpower's success is never cancelled (L181)."""
    if spec.auto_rule == "with_dice":
        counted = successes + spec.auto
        return (max(counted - ones, 0) if spec.ones_cancel else counted) + spec.willpower
    net = max(successes - ones, 0) if spec.ones_cancel else successes
    return net + spec.willpower + spec.auto


# --- exact odds ------------------------------------------------------------------------------


def _top(spec: Spec) -> int:
    """The last bar: every count of successes the dice can reach, or for re-rolled 10s
    (no upper bound) the pool size, lumping "that many or more" into one exact bar."""
    most = spec.pool * (2 if spec.specialty == "tens_twice" else 1)
    return max(most, spec.needed - spec.willpower - spec.auto, 0)


def _die_weights(spec: Spec, cap: int) -> tuple[list[int], int, int]:
    """One die that did not show a 1: integer weights of 0..cap successes, the weight of a
    1, and the denominator exponent E (weights are over 10**E). Re-rolled 10s have their
    own table (`_tens_again_table`)."""
    d = spec.difficulty
    blanks = d - 2  # faces 2..d-1
    hits = SIDES - d  # faces d..9
    weights = [0] * (cap + 1)
    weights[0] += blanks
    weights[min(1, cap)] += hits
    weights[min(2 if spec.specialty == "tens_twice" else 1, cap)] += 1
    return weights, 1, 1


def _convolve(left: list[int], right: list[int], cap: int) -> list[int]:
    out = [0] * (cap + 1)
    for i, a in enumerate(left):
        if a:
            for j, b in enumerate(right):
                if b:
                    out[min(i + j, cap)] += a * b
    return out


@lru_cache(maxsize=4096)
def _table(spec: Spec) -> tuple[dict[tuple[int, int], int], int]:
    """Integer weights of (successes before cancelling, capped; ones) over 10**(E * pool)."""
    top = _top(spec)
    cap = max(top + spec.pool, 1)
    if spec.specialty == "tens_again":
        return _tens_again_table(spec, max(cap, 3))
    weights, one, exponent = _die_weights(spec, cap)
    n = spec.pool
    powers = [[1] + [0] * cap]
    for _ in range(n):
        powers.append(_convolve(powers[-1], weights, cap))
    table: dict[tuple[int, int], int] = {}
    for ones in range(n + 1):
        factor = comb(n, ones) * one**ones
        for successes, weight in enumerate(powers[n - ones]):
            if weight:
                table[(successes, ones)] = factor * weight
    return table, exponent * n


def _tens_again_table(spec: Spec, cap: int) -> tuple[dict[tuple[int, int], int], int]:
    """`_table` for re-rolled 10s, over a far smaller denominator.

    A die that shows no 1 gives s successes with the chance a_s / 10^(s+1): a_0 = d − 2
    (faces 2..d−1); a_1 = 10·(10 − d) + d − 1 (a face d..9, or a 10 whose re-roll is
    below d); from 2 on a_s = 99 − 9d (a 10, then re-rolls adding s − 1 successes: the
    chain of 10s and its last die, a geometric series whose tail from s on sums to
    (11 − d) / 10^s). The exponent grows with s, so m such dice total t successes with
    some integer over 10^(t+m), whatever the mix: one denominator per total, not
    10^(cap+1) per die. Each 1 adds a factor 1/10, so a total t with any number of 1s is
    over 10^(t+n). Totals from `cap` on are one slot, what the others leave. Everything
    is returned over 10^(cap−1+n) (10^59 for 20 dice, where a denominator per die made
    it 10^820).
    """
    n, d = spec.pool, spec.difficulty
    first, second, rest = d - 2, 10 * (SIDES - d) + d - 1, 99 - 9 * d
    powers = [[1] + [0] * (cap - 1)]
    for _ in range(n):
        before = powers[-1]
        out = [0] * cap
        running = 0  # Σ before[u] for u ≤ t − 2: every a_s from s = 2 on is `rest`
        for t in range(cap):
            if t >= 2:
                running += before[t - 2]
            out[t] = first * before[t] + rest * running + (second * before[t - 1] if t else 0)
        powers.append(out)
    exponent = cap - 1 + n
    scales = [10 ** (cap - 1 - t) for t in range(cap)]
    table: dict[tuple[int, int], int] = {}
    for ones in range(n + 1):
        kept = n - ones
        factor = comb(n, ones)
        below = 0
        for t, ways in enumerate(powers[kept]):
            if ways:
                scaled = ways * scales[t]
                below += scaled
                table[(t, ones)] = factor * scaled
        # The dice without a 1 have 9^kept / 10^kept in all; the rest reaches `cap`.
        lumped = 9**kept * 10 ** (cap - 1) - below
        if lumped:
            table[(cap, ones)] = factor * lumped
    return table, exponent


def _bar_label(value: int, top: int, lumped: bool) -> str:
    word = "success" if value == 1 else "successes"
    if lumped and value == top:
        return f"{value} or more successes"
    return f"{value} {word}"


@lru_cache(maxsize=4096)
def _odds(spec: Spec) -> Odds:
    table, exponent = _table(spec)
    denominator = 10**exponent
    top = _top(spec) + spec.willpower + spec.auto
    lumped = spec.specialty == "tens_again"
    botch = 0
    counts = [0] * (top + 1)
    for (successes, ones), weight in table.items():
        if is_botch(spec, successes, ones):
            botch += weight
        else:
            counts[min(net_successes(spec, successes, ones), top)] += weight
    bars = [Bar("Botch", Fraction(botch, denominator))] if botch or spec.pool else []
    success = Fraction(0)
    for value, weight in enumerate(counts):
        chance = Fraction(weight, denominator)
        won = value >= spec.needed
        if won:
            success += chance
        bars.append(
            Bar(_bar_label(value, top, lumped), chance, won, threshold=value == spec.needed)
        )
    need = "a success" if spec.needed == 1 else f"{spec.needed} successes"
    dice = "1 die" if spec.pool == 1 else f"{spec.pool} dice"
    question = f"{dice} at difficulty {spec.difficulty}: {need}"
    notes = []
    if spec.path:
        notes.append("A failure loses one grade of the Path, a botch two.")
    if spec.willpower:
        notes.append("Willpower adds one success that no 1 cancels.")
    if spec.auto:
        notes.append(_DESTINY_NOTES[spec.auto_rule].format(spec.auto))
    if lumped:
        notes.append("Re-rolled 10s have no upper limit; the last bar holds all the rest.")
    return Odds(success, tuple(bars), question, exact=True, note=" ".join(notes))


_DESTINY_NOTES = {
    "after_roll": "A Destiny point adds {} successes after the dice: no 1 cancels them.",
    "botch_stands": "A Destiny point adds {} successes after the dice, but a botch stands.",
    "with_dice": "A Destiny point's {} successes count with the dice: 1s cancel them too.",
}


def odds_for(spec: Spec) -> Odds:
    """The odds of a roll already read (tests check them against enumeration)."""
    return _odds(spec)


def odds(rollable: Rollable, options: Mapping[str, Any]) -> Odds:
    """The exact chance of getting the successes needed (for a Path roll: of keeping the
    grade), with one bar per number of successes and one for a botch. Current Power paid
    at the round's start (L104-105) is said under them, as it is in the pool already."""
    reading = read(rollable, options)
    found = _odds(reading.spec)
    paid = [note for note in reading.notes if note.startswith(ROUND_POWER_NOTE)]
    if not paid:
        return found
    said = "; ".join(note[:1].upper() + note[1:] for note in paid) + " (in the pool)."
    return replace(found, note=" ".join(part for part in (found.note, said) if part))


ROUND_POWER_NOTE = "this round's current Power"


# --- a roll ---------------------------------------------------------------------------------


def _roll_die(spec: Spec, rng: random.Random, rolled: list[int]) -> tuple[int, int]:
    """Roll one die of the pool (and its re-rolls): (successes, ones)."""
    face = rng.randint(1, SIDES)
    rolled.append(face)
    if face == 1:
        return 0, 1
    if face < spec.difficulty:
        return 0, 0
    if face < SIDES or spec.specialty == "none":
        return 1, 0
    if spec.specialty == "tens_twice":
        return 2, 0
    successes = 1
    while True:  # a re-rolled die only adds (the reading's help says so)
        again = rng.randint(1, SIDES)
        rolled.append(again)
        if again >= spec.difficulty:
            successes += 1
        if again != SIDES:
            return successes, 0


def roll(rollable: Rollable, options: Mapping[str, Any], rng: random.Random) -> RollResult:
    """Roll the pool with the caller's generator and read it the way `odds` counts it."""
    reading = read(rollable, options)
    spec = reading.spec
    rolled: list[int] = []
    successes = ones = 0
    for _ in range(spec.pool):
        gained, one = _roll_die(spec, rng, rolled)
        successes += gained
        ones += one
    net = net_successes(spec, successes, ones)
    if is_botch(spec, successes, ones):
        outcome, won = "botch", False
    elif net >= spec.needed:
        outcome, won = "success", True
    else:
        outcome, won = "failure", False
    if spec.path:
        side = _path_side(rollable)
        outcome_text = f"{outcome}: {paths.reading(side, rollable.dice, outcome)}"  # L122-126
    else:
        outcome_text = outcome
    kept = f"{net} success" + ("" if net == 1 else "es")
    details = [f"difficulty {spec.difficulty}", f"{ones} one" + ("" if ones == 1 else "s")]
    details.extend(reading.notes)
    if spec.willpower:
        details.append("Willpower: +1 success")
    details.extend(_spend_details(reading))
    details.extend(_aim_details(rollable, reading, net, won))
    details.extend(_wear_details(rollable, reading, net))
    gained = _power_gained(rollable, options, won)
    if gained:
        details.append(f"current Power +{gained}: a battle roll (L100), never past Power")
    if spec.path and outcome != "success":
        details.append("the Path's lost grade is written on the sheet (L124-126)")
    facts: list[tuple[str, Any]] = []
    if reading.destiny != spends.DESTINY_NONE:
        facts.append(("destiny", reading.destiny))  # the once-a-round count reads it (L81)
    if rollable.fact("soaks") == "stamina" and reading.incoming:
        # L106: what is left after Stamina, for current Power to soak as a second step.
        facts.append(("soak_left", max(reading.incoming - net, 0)))
        facts.append(("incoming", reading.incoming))
    summary = (
        f"{rollable.label}: {spec.pool}d10 at difficulty {spec.difficulty} → "
        f"{kept} ({outcome_text})"
    )
    return RollResult(
        dice=tuple(rolled),
        kept=kept,
        outcome=outcome,
        success=won,
        summary=summary,
        total=net,
        details=tuple(details),
        facts=tuple(facts),
    )


def _power_gained(rollable: Rollable, options: Mapping[str, Any], won: bool) -> int:
    """Current Power a battle roll gains (L100, L609, L629), as far as Power leaves room."""
    if not options.get("battle") or rollable.fact("power", 0) < 1:
        return 0
    kind = rollable.fact("kind")
    gained = spends.power_gained(kind, won, rollable.fact("power_merits", ()))
    room = rollable.fact("power", 0) - rollable.fact("power_current", 0)
    return max(min(gained, room + _power_spent(options)), 0)


def _power_spent(options: Mapping[str, Any]) -> int:
    return sum(int(options.get(key) or 0) for key in ("power_damage", "power_actions"))


def _spend_details(reading: Reading) -> list[str]:
    found = []
    if reading.destiny != spends.DESTINY_NONE:
        spend = spends.DESTINY_SPENDS[reading.destiny]
        found.append(f"Destiny point: {spend.label}")
    if reading.power:
        found.append(f"current Power spent: {reading.power}")
    return found


def _aim_details(rollable: Rollable, reading: Reading, net: int, won: bool) -> list[str]:
    aim = reading.aim
    if aim is None:
        return []
    if rollable.fact("kind") != "damage":
        said = f"aimed at {aim.name}: {aim.difficulty:+d} difficulty"
        said += f", {aim.damage_dice:+d} damage dice" if won else ""
        return [said] + ([aiming.VITALS_NOTE] if aim.key == "vitals" else [])
    found = [f"aimed at {aim.name}: {aim.damage_dice:+d} damage dice"]
    hit = aiming.effect(aim.key, net)
    if hit is not None:
        found.append(f"{aim.name}, {net} damage: {hit.text}")
    return found


def _wear_details(rollable: Rollable, reading: Reading, net: int) -> list[str]:
    """What the soak leaves, and whether a shield or armor loses a point (L220, L224)."""
    if rollable.fact("kind") != "soak" or not reading.incoming:
        return []
    left = max(reading.incoming - net, 0)
    found = [f"{left} of {reading.incoming} damage left"]
    if _wears_down(rollable, reading.incoming, net):
        found.append(f"the {rollable.fact('soaks')} loses a point of rating")
    return found


def _wears_down(rollable: Rollable, incoming: int, net: int) -> bool:
    soaks = rollable.fact("soaks")
    if soaks == armor.SHIELD:
        return armor.shield_wears_down(incoming, net)  # L220
    if soaks == armor.ARMOR:
        return armor.armor_wears_down(incoming, net, rollable.dice)  # L224
    return False


# --- what a roll spends -----------------------------------------------------------------------

# The options that spend from the sheet, and what to say when a form asks for one the
# sheet no longer offers (the last Willpower went since the page was drawn).
ROLL_SPENDS: dict[str, str] = {
    "willpower": "No Willpower left to spend on this roll.",
    "ignore_wounds": "No Willpower left to spend on this roll.",
    **{
        spends.destiny_option(use): "No Destiny point left to spend on this roll."
        for use in spends.DESTINY_SPENDS
    },
    "power_damage": "Current Power is not paid on this roll: none is left, or in a scene "
    "it is paid at the round's start.",
    "power_actions": "Current Power is not paid on this roll: none is left, or in a scene "
    "it is paid at the round's start.",
}


def round_state(scene: str, number: int, logged: Iterable[Mapping[str, Any]]) -> spends.RoundState:
    """The round a character's roll is made in (the web layer finds the scene), with the
    Destiny point already spent in it among the rolls logged in that round (L81)."""
    logged = list(logged)
    damage, actions, paid = spends.power_paid_in(logged)
    return spends.RoundState(scene, number, spends.destiny_spent_in(logged), damage, actions, paid)


def power_soak_offer(facts: Mapping[str, Any], power_current: int) -> int:
    """The most current Power a logged Stamina soak still offers to spend (L106): 0 when it
    left nothing, was already followed, or the pool is empty."""
    left = facts.get("soak_left")
    if not isinstance(left, int) or isinstance(left, bool) or "power_soaked" in facts:
        return 0
    return spends.power_soak_most(left, power_current)


# The sheet's edit key of each Path (edits.py "side.light", "side.dark").
PATH_TRAITS = {paths.LIGHT: "side.light", paths.DARK: "side.dark"}


def power_soak(
    facts: Mapping[str, Any], power_current: int, raw: Any
) -> tuple[int, dict[str, str], str]:
    """The second step of Stamina's soak (L106): current Power spent on the levels Stamina
    left, once its result is seen. `facts` are the soak roll's as logged. The points, the
    sheet edit, and a line for the log; InvalidRoll when the sheet cannot pay."""
    left, incoming = facts.get("soak_left"), facts.get("incoming")
    if not isinstance(left, int) or not isinstance(incoming, int) or incoming < 1:
        raise InvalidRoll("power_soak", "Only a Stamina soak with its damage known takes Power.")
    if "power_soaked" in facts:
        raise InvalidRoll("power_soak", "Current Power was already spent on this soak.")
    if left < 1:
        raise InvalidRoll("power_soak", "Stamina soaked it all: nothing is left for Power.")
    text = str(raw if raw is not None else "").strip()
    if not (text.isascii() and text.isdigit() and len(text) < 4):
        raise InvalidRoll("power_soak", "Current Power to spend: a whole number.")
    points = int(text)
    most = spends.power_soak_most(left, power_current)
    if points < 1:
        raise InvalidRoll("power_soak", "Current Power to spend: at least 1.")
    if points > power_current:
        raise InvalidRoll("power_soak", f"Only {power_current} current Power left to spend.")
    if points > most:
        raise InvalidRoll("power_soak", f"At most {most}: only {left} levels are left.")
    soaked = points * spends.POWER_SOAK_PER_POINT
    line = (
        f"current Power spent after Stamina: {soaked} more level(s) soaked, "
        f"{left - soaked} of {incoming} damage left (L106)"
    )
    return points, {"power_current": str(power_current - points)}, line


def roll_edits(rollable: Rollable, options: Mapping[str, Any], result: RollResult) -> dict:
    """The sheet edits a roll calls for: each Willpower spent (an automatic success,
    L181; wound penalties ignored, L180) takes one from current Willpower; a Destiny point
    spent (L81-85) one from the Destiny points; current Power spent (L104-106) as many
    points; and a soak that wears a shield or armor down (L220, L224) a point of its
    rating. A battle roll's success adds current Power (L100), never past Power; a Path
    roll failed loses a grade, botched two (L124-126). The web layer applies them through
    the edit service with the roll."""
    edits: dict[str, str] = {}
    spent = bool(options.get("willpower")) + bool(options.get("ignore_wounds"))
    if spent:
        current = rollable.fact("willpower_current", 0)
        edits["willpower_current"] = str(max(current - spent, 0))
    if any(options.get(spends.destiny_option(use)) for use in spends.DESTINY_SPENDS):
        edits["info.destiny_points"] = str(max(rollable.fact("destiny_points", 0) - 1, 0))
    power_spent = _power_spent(options)
    gained = _power_gained(rollable, options, result.success)
    if power_spent or gained:
        current, most = rollable.fact("power_current", 0), rollable.fact("power", 0)
        edits["power_current"] = str(spends.power_after(current, most, power_spent, gained))
    if rollable.fact("kind") == "path" and result.outcome in paths.GRADES_LOST:
        side = _path_side(rollable)
        after = paths.after(rollable.dice, result.outcome)
        if after != rollable.dice:
            edits[PATH_TRAITS[side]] = str(after)
    incoming = int(options.get("incoming") or 0)
    if incoming and result.total is not None and _wears_down(rollable, incoming, result.total):
        lost = rollable.fact("lost", 0) + 1
        edits[f"armor.{rollable.fact('row')}.lost"] = str(min(lost, rollable.fact("rating", lost)))
    return edits


# --- between rolls (issue 27) ---------------------------------------------------------------


def between_pools(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> spends.Pools:
    """What a spend between rolls reads from the sheet."""
    from rulesets.swd10.rules import derived

    return spends.Pools(
        destiny_points=sheet["info"]["destiny_points"],
        willpower=sheet["willpower"],
        willpower_current=sheet["willpower_current"],
        power=sheet["power"],
        power_current=sheet["power_current"],
        incapacitated=bool(derived(sheet, settings)["incapacitated"]),
    )


def between_rolls(
    sheet: Mapping[str, Any],
    settings: Mapping[str, Any],
    action: str,
    round_state: spends.RoundState | None,
    scene_state: spends.SceneState | None,
    raw: Mapping[str, Any],
) -> spends.Spent:
    """A spend between rolls on this sheet (spends.between): a Spent, or InvalidRoll."""
    return spends.between(action, between_pools(sheet, settings), round_state, scene_state, raw)


def scene_state(scene: str, logged: Iterable[Mapping[str, Any]]) -> spends.SceneState:
    """The scene a character is in, with the once-a-scene Destiny use logged in it (L91)."""
    return spends.SceneState(scene, spends.scene_destiny_spent_in(logged))
