"""1o3d10, a homebrew Star Wars system: the middle die of 3d10, health from HP and Strength.

Source: seeds/004_8cbd6e5c00de6f21.txt; digest: rules/1o3d10.md. The seed has no creation,
advancement or equipment rules, so budgets, ranges, XP prices, maximum HP, Defense and the
equipment rows are house rules: settings whose label says "(house rule)".

Sheet shape (a JSON object; derived values such as health state, pools, Defense and odds
are computed by `derived`, never stored):

    {
      "system": "o3d10",
      "stage": "creation" | "play",
      "info": {"player": str, "species": str, "notes": str},
      "stats": {"strength": int, "dexterity": int, "intelligence": int, "perception": int},
      "skills": {"melee_weapons", "ranged_weapons", "dodge", "reflexes", "medicine",
                 "force_jump", "physical_school", "alteration_school", "organic_school": int},
      "custom_skills": [{"slug": str, "name": str, "stat": stat slug or "", "rank": int}],
      "base": null | {"stats": {...}, "skills": {slug: int}},  # frozen when creation ends
      "force_sensitive": bool,           # set by the GM; unlocks the Force skills
      "hp": int, "stabilised": bool,     # current HP; stabilised only while unconscious
      "defense_bonus": int,              # shield, cover or GM adjustment
      "luck": {"day": int, "last_used_day": int | null, "uses_that_day": int},
      "xp_earned": int,
      "weapons": [{"name": str, "kind": "melee" | "ranged", "damage": "2d6+1", "notes": str}],
      "armor": [{"name": str, "absorption": int, "worn": bool}],
    }

In the creation stage stats and skills spend the creation budgets; `sheet.finish_creation`
freezes them into "base", and every rank above base then costs XP.

Trait keys for apply_edit (raw is the string a form submits):

- info.name | info.player | info.species | info.notes: text
- stat.<strength|dexterity|intelligence|perception>: whole number
- skill.<slug>: rank of a standard or custom skill
- skill.add "Name|stat" (stat optional), skill.remove "<slug>", skill.<slug>.stat "<stat>"
- force.sensitive: yes/no
- hp.current (set), hp.damage, hp.heal (capped at maximum), hp.bleed "<d10 shown>",
  hp.stabilised yes/no
- defense.bonus: whole number
- luck.use (once per in-game day; a second use is refused), luck.new_day, luck.day "<n>"
- xp.earned: whole number
- sheet.finish_creation
- weapon.add "<catalog slug>" or "Name|melee|1d8", weapon.remove "<index>",
  weapon.<index>.name | .kind | .damage | .notes
- armor.add "<catalog slug>" or "Name|2", armor.remove "<index>",
  armor.<index>.name | .absorption | .worn
"""

from __future__ import annotations

from rulesets.o3d10.rules import (
    KEY,
    SETTINGS,
    advance_cost,
    apply_edit,
    blank_sheet,
    check,
    demo_sheet,
    derived,
    health_state,
    next_costs,
    validate_sheet,
)

NAME = "1o3d10"
SUMMARY = "A homebrew: the middle die of 3d10, health states from HP and Strength."

__all__ = [
    "KEY",
    "NAME",
    "SETTINGS",
    "SUMMARY",
    "advance_cost",
    "apply_edit",
    "blank_sheet",
    "check",
    "demo_sheet",
    "derived",
    "health_state",
    "next_costs",
    "validate_sheet",
]
