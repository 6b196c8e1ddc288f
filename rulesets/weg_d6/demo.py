"""Example sheets: an R&E smuggler at creation, a 1E Force student at creation, and the
seed's two droids (003:951-994)."""

from __future__ import annotations

from rulesets.weg_d6.data import EDITION_1E, EDITION_RE, INITIAL_POWERS_1E
from rulesets.weg_d6.sheet import blank_sheet


def demo_sheet() -> dict:
    """Return a legal R&E smuggler fresh from creation: 18D of attributes, 7D of skills."""
    sheet = blank_sheet({"default_edition": EDITION_RE})
    sheet["info"].update(
        template="Smuggler",
        description="Flies a battered YT-1300 faster than it should go; owes a Hutt.",
        physical="Lean, sun-creased, a jacket with more pockets than sense.",
        quote="Never tell me the odds. Tell me the fee.",
    )
    sheet["weapons"] = [
        {"name": "Heavy blaster pistol", "damage": "5D", "range": "3-7/25/50", "ammo": "25"},
        {"name": "Vibroknife", "damage": "STR+1D", "range": "", "ammo": ""},
    ]
    sheet["gear"] = {
        "credits": 1200,
        "equipment": "Comlink, glow rod, a datapad of unpaid debts, a YT-1300 (mostly).",
    }
    sheet["attributes"] = {
        "dexterity": 10,  # 3D+1
        "knowledge": 7,  # 2D+1
        "mechanical": 11,  # 3D+2
        "perception": 9,  # 3D
        "strength": 10,  # 3D+1
        "technical": 7,  # 2D+1
    }
    sheet["skills"] = {
        "blaster": 16,  # 5D+1: 2D of skill dice
        "dodge": 13,  # 4D+1: 1D
        "space_transports": 17,  # 5D+2: 2D
        "starship_gunnery": 14,  # 4D+2: 1D
        "streetwise": 9,  # 3D: 2 pips
    }
    # 1 pip of skill dice buys 3 pips of specialization: 5D+2 becomes 6D+2.
    sheet["specializations"] = {
        "space_transports_yt_1300": {
            "name": "YT-1300 transports",
            "skill": "space_transports",
            "pips": 20,
        }
    }
    return sheet


def force_student_1e_sheet() -> dict:
    """Return a legal 1E Minor Jedi fresh from creation: a Force template (003:1758), the
    three Force skills at 1D from 3D of the 7D of skill dice, and the nine powers of the
    traditional sets (003:1778-1796), which fit under the default reading."""
    sheet = blank_sheet({"default_edition": EDITION_1E})
    sheet["info"].update(
        template="Minor Jedi",
        description="Raised on a farm moon by a hermit who knew more than he said.",
        physical="Young, wiry, an old lightsaber hilt worn on a cord.",
        quote="There is another way. There is always another way.",
    )
    sheet["attributes"] = {
        "dexterity": 10,  # 3D+1
        "knowledge": 9,  # 3D
        "mechanical": 8,  # 2D+2
        "perception": 10,  # 3D+1
        "strength": 9,  # 3D
        "technical": 8,  # 2D+2
    }
    sheet["skills"] = {
        "melee": 13,  # 4D+1: 1D
        "dodge": 13,  # 4D+1: 1D
        "survival": 12,  # 4D: 1D
        "search": 13,  # 4D+1: 1D
    }
    # The Force template: the GM's mark, "Force-sensitive" on the sheet (003:1758).
    sheet["force"]["sensitive"] = True
    sheet["force"].update(control=3, sense=3, alter=3)
    sheet["force"]["powers"] = [
        slug for skill in ("control", "sense", "alter") for slug in INITIAL_POWERS_1E[skill]
    ]
    sheet["weapons"] = [{"name": "Lightsaber", "damage": "5D", "range": "", "ammo": ""}]
    sheet["gear"] = {"credits": 250, "equipment": "Robes, a survival kit, a hermit's journal."}
    return sheet


def demo_droid_sheet() -> dict:
    """Return the seed's R2 astromech as built with 1E building dice (003:951-975): 34D."""
    sheet = _droid("R2 astromech droid", "Astromech droid")
    sheet["attributes"]["technical"] = 6  # TEC 2D
    sheet["droid"]["speed"] = 6  # speed code 2D
    sheet["droid"]["armor"] = 3  # +1D armor
    # The OCR lost Binary Language's column (003:953); every R2 attribute but TEC is 1D,
    # so filing it under Knowledge prices it the same as anywhere else.
    sheet["custom_skills"]["binary_language"] = {
        "name": "Binary language",
        "attribute": "knowledge",
        "advanced": False,
        "prerequisite": None,
    }
    sheet["skills"] = {
        "binary_language": 9,  # 3D
        "computer_programming_repair": 21,  # 7D
        "starship_repair": 21,  # 7D
    }
    sheet["droid"]["equipment"] = [
        {"name": "Two wheeled legs, retractable third leg", "features": 0},
        {"name": "Heavy grasper arm", "features": 0},
        {"name": "Fine-work arm", "features": 0},
        {"name": "Video sensor, extends almost a meter", "features": 1},  # 003:975
        {"name": "Small arc welder", "features": 0},
        {"name": "Small buzz saw", "features": 0},
        {"name": "Video screen with holographic projection", "features": 1},  # 003:975
        {"name": "High-pitch acoustic signaller", "features": 0},
        {"name": "Small fire extinguisher", "features": 0},
    ]
    return sheet


def droid_3po_sheet() -> dict:
    """Return the seed's 3PO human-cyborg relations droid (003:977-994): exactly 35D."""
    sheet = _droid("3PO human-cyborg relations droid", "Protocol droid")
    for attribute in ("dexterity", "perception", "knowledge"):
        sheet["attributes"][attribute] = 6  # 2D each
    sheet["droid"]["speed"] = 6  # the speed code is Dexterity when nothing is bought
    sheet["skills"] = {
        "alien_races": 12,  # 4D
        "cultures": 12,  # 4D
        "languages": 30,  # 10D
        "planetary_systems": 9,  # 3D
    }
    sheet["droid"]["equipment"] = [
        {"name": "Two legs", "features": 0},  # one method of locomotion, 003:994
        {"name": "Left arm", "features": 0},
        {"name": "Right arm", "features": 0},
        {"name": "Left video sensor", "features": 0},
        {"name": "Right video sensor", "features": 0},
        {"name": "Broad-band antenna receiver", "features": 0},
        {"name": "Vocabulator speech/sound system", "features": 0},
    ]
    return sheet


def _droid(name: str, template: str) -> dict:
    sheet = blank_sheet({"default_edition": EDITION_1E})
    sheet["kind"] = "droid"
    sheet["role"] = "npc"
    sheet["info"]["template"] = f"{template} ({name})"
    sheet["attributes"] = dict.fromkeys(sheet["attributes"], 3)  # 1D each, 003:929
    sheet["droid"]["speed"] = 3
    sheet["points"] = {"character": 0, "force": 0, "dark_side": 0}
    return sheet
