"""West End Games d6 Star Wars: 1st edition (Rules Companion) and 2nd edition R&E.

Sources: seeds 002 (R&E upgrade) and 003 (1E Rules Companion); digest rules/weg_d6.md.
Every die code on the sheet is a whole number of pips (3 pips = 1D): 14 is 4D+2.

Sheet shape (a JSON dict; `validate_sheet` gives its normal form):

    edition        "2e_re" | "1e"            per character; the currency is CP or skill points
    kind           "character" | "droid"     droids use 1E building dice (003:929-947)
    role           "pc" | "npc"              18D/12D attributes, 65D/35D building dice
    stage          "creation" | "play"       creation budgets are checked only in creation
    info           {name, player, template, description}: text
    species        "human" | "custom";  custom_species {name, minimum{attr: pips},
                   maximum{attr: pips}, move, move_max} is the GM's own species
    alien_template null | {attr: pips}       1E alien PC: template + 6D, 1D to each
    attributes     {dexterity, knowledge, mechanical, perception, strength, technical: pips}
    move           whole number (R&E)
    skills         {skill slug: pips}        full codes; catalog slugs or custom_skills keys
    custom_skills  {slug: {name, attribute, advanced, prerequisite}}
    specializations {slug: {name, skill, pips}}   R&E only; independent once chosen
    force          {sensitive, control, sense, alter (pips), powers [slugs],
                    custom_powers {slug: {name, skills}}, power_picks [skills owed a power]}
    points         {character, force, dark_side}
    teacher        {present, control, sense, alter (the teacher's codes, 1E)}
    interval       [{trait, from, to, cost}]  paid raises since the last adventure (002:39)
    wound          healthy | stunned | wounded | wounded_twice (R&E) | incapacitated |
                   mortally_wounded | killed
    droid          {speed, armor (pips), equipment [{name, features}]}

Trait keys for apply_edit (raw is what the form submits):

    info.name|player|template|description   text
    info.edition|kind|role|stage|species    a choice ("2e_re", "droid", "npc", "play", ...)
    attr.<attribute>                        "3D+1"
    species.name, species.move, species.move_max, species.min.<attr>, species.max.<attr>
    template.<attr> "2D" / template.clear   the 1E alien template
    skill.<slug> "4D+2" ("" resets it to the attribute); skill.add "Name|DEX" or
        "Name|TEC|advanced:first_aid"; skill.remove "<slug>"
    spec.add "Name|<skill slug>"; spec.<slug> "6D"; spec.remove "<slug>"
    force.sensitive yes/no; force.control|sense|alter "1D"
    power.add "<slug>" or "Name|control+sense"; power.remove "<slug>"
    points.character|force|dark_side        whole numbers
    teacher.present yes/no; teacher.control|sense|alter "7D+1"
    move "11"; wound "wounded"
    droid.speed|armor "2D"; equipment.add "Name|features"; equipment.<i>.name|features;
        equipment.remove "<i>"
    advance.<trait> "<new code>"            a paid raise: checks the one-pip rule, spends
        points, records it in interval; advance.force.sensitive; advance.power "<slug>"
    interval.close                          a new adventure: the one-pip window starts over
"""

from __future__ import annotations

from rulesets.weg_d6.costs import (
    advance_cost,
    next_costs,
    resolve_attribute_roll,
    roll_attribute_improvement,
)
from rulesets.weg_d6.demo import demo_droid_sheet, demo_sheet, droid_3po_sheet
from rulesets.weg_d6.droids import droid_build
from rulesets.weg_d6.force import power_totals
from rulesets.weg_d6.rules import (
    check,
    consumption_odds,
    dark_side_check,
    derived,
    roll_spend_problems,
    wound_after_another,
)
from rulesets.weg_d6.settings import SETTINGS
from rulesets.weg_d6.sheet import apply_edit, blank_sheet, validate_sheet

KEY = "weg_d6"
NAME = "West End Games d6"
SUMMARY = (
    "Die codes like 4D+2: 18D of attributes, skills and specializations, the Force, droids "
    "from building dice, and Character Points, in 1st edition or R&E."
)

__all__ = [
    "KEY",
    "NAME",
    "SETTINGS",
    "SUMMARY",
    "advance_cost",
    "apply_edit",
    "blank_sheet",
    "check",
    "consumption_odds",
    "dark_side_check",
    "demo_droid_sheet",
    "demo_sheet",
    "derived",
    "droid_3po_sheet",
    "droid_build",
    "next_costs",
    "power_totals",
    "resolve_attribute_roll",
    "roll_attribute_improvement",
    "roll_spend_problems",
    "validate_sheet",
    "wound_after_another",
]
