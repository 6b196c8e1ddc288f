"""A complete, legal example Jedi, built through apply_edit so it obeys every rule."""

from __future__ import annotations

from rulesets.ore.edits import apply_edit
from rulesets.ore.settings import resolved
from rulesets.ore.sheet import blank_sheet

# Each edit is (trait, raw value) exactly as a browser form would submit it. With the default
# settings (150 CP, wiggle die 5) creation spends exactly 150 CP; 2 of 3 XP go to Stealth.
DEMO_EDITS: tuple[tuple[str, str], ...] = (
    ("info.player", "Demo player"),
    ("info.gender", "Female"),
    ("info.career", "Jedi Knight"),
    ("info.age", "27"),
    ("info.height", "1.72 m"),
    ("info.weight", "61 kg"),
    ("info.eyes", "Grey"),
    ("info.hair", "Black"),
    ("info.skin", "Tan"),
    ("info.appearance", "Weathered robes, a hilt of dark alloy, a scar across one palm."),
    ("info.motivations", "Find her lost Padawan; keep the Outer Rim clinics open."),
    ("stat.body", "2d"),
    ("stat.coordination", "4d"),
    ("stat.sense", "3d"),
    ("stat.brains", "2d"),
    ("stat.command", "2d"),
    ("stat.cool", "3d"),
    ("skill.language_native.specialty", "Huttese"),
    ("skill.add", "Lightsaber"),
    ("skill.lightsaber", "3d"),
    ("skill.add", "Dodge"),
    ("skill.dodge", "2d"),
    ("skill.add", "Athletics"),
    ("skill.athletics", "1d"),
    ("skill.add", "Meditation"),
    ("skill.meditation", "2d"),
    ("skill.add", "Lore [Jedi lore]"),
    ("skill.lore_jedi_lore", "2d"),
    ("skill.add", "Pilot [Starfighter]"),
    ("skill.pilot_starfighter", "1d"),
    ("skill.add", "Sight"),
    ("skill.sight", "2d"),
    ("power.force_sense", "2d"),
    ("power.force_sense.hard", "1"),
    ("power.energy_manipulation", "2d"),
    ("power.energy_manipulation.approved", "yes"),
    ("power.physical_control", "2d"),
    ("power.physical_control.approved", "yes"),
    ("stunt.blaster_defense", "2d"),
    ("stunt.blaster_defense.approved", "yes"),
    ("stunt.force_jump", "1d"),
    ("stunt.force_jump.approved", "yes"),
    ("stunt.healing", "1d"),
    ("stunt.healing.approved", "yes"),
    ("power.mental_influence", "2d"),
    ("power.mental_influence.approved", "yes"),
    ("stunt.affect_mind", "1d"),
    ("stunt.affect_mind.approved", "yes"),
    ("skill.add", "Persuade"),
    ("skill.persuade", "1d"),
    ("skill.add", "Blaster"),
    ("skill.blaster", "2d"),
    ("willpower.bought", "3"),
    ("willpower.extra", "4"),
    ("lightsaber_form", "iii"),
    ("weapon.add", "lightsaber"),
    ("weapon.add", "Hold-out or decorative blaster"),
    ("armor.add", "Thick furs or leathers"),
    ("armor.0.worn", "no"),
    ("wound.left_arm.1", "cycle"),
    # Creation ends on exactly 150 CP; then one session of play and a first XP purchase.
    ("phase", "play"),
    ("xp.award", "3|Session 1: held the clinic gate, and the plan to flood the hangar worked"),
    ("skill.add", "Stealth"),
    ("skill.stealth", "1d"),
)


def demo_sheet() -> dict:
    """Build Kael Varrin, a human Jedi Knight on 150 CP with a hard die and three stunts."""
    settings = resolved({})
    sheet = blank_sheet(settings["creation_budget"])
    for trait, raw in DEMO_EDITS:
        sheet = apply_edit(sheet, trait, raw, settings)
    return sheet
