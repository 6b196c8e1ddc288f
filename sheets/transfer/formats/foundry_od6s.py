"""Foundry VTT OD6S actors (system `od6s`, its successor `nonex-ist-od6s`) into WEG d6.

Field by field from CHARACTER-FORMATS.md §4 (Jan-Ka/foundryvtt-opend6-space's data models):
attributes are total pips under `attributes.<agi|str|mec|kno|per|tec>.base`; a skill item
stores its pips *above* its attribute (`base`), a specialization too (above the attribute,
not the skill); an advanced skill (nonex-ist's `isAdvancedSkill`) is rolled without the
attribute; Control, Sense and Alter are skill items under `met`. Dark Side Points live in
`custom1` by the Star Wars convention, and the wound index is read under the Star Wars
deadliness setting, the one a Star Wars world uses.
"""

from __future__ import annotations

from typing import Any

from rulesets.weg_d6.data import DESCRIPTION_LIMIT, PHYSICAL_LIMIT
from sheets.transfer.formats import foundry
from sheets.transfer.formats.base import (
    FormatRefused,
    Notes,
    Reading,
    block,
    code_pips,
    items,
    line,
    number,
    obj,
    shown,
)
from sheets.transfer.formats.weg import SYSTEM, WegBuilder

KEY = "foundry_od6s"
LABEL = "Foundry VTT OD6S actor"
SYSTEM_IDS = ("od6s", "nonex-ist-od6s")
ATTRIBUTES = {
    "agi": "dexterity",
    "kno": "knowledge",
    "mec": "mechanical",
    "per": "perception",
    "str": "strength",
    "tec": "technical",
}
ACTOR_TYPES = ("character", "npc", "creature")
# The Star Wars deadliness table's levels in order (config/deadliness.ts, SW config).
WOUNDS = (
    "healthy",
    "stunned",
    "wounded",
    "wounded_twice",
    "incapacitated",
    "mortally_wounded",
    "killed",
)
KNOWN_SYSTEM = frozenset(
    {
        "attributes",
        "characterpoints",
        "fatepoints",
        "custom1",
        "custom2",
        "custom3",
        "metaphysicsextranormal",
        "wounds",
        "body_points",
        "stuns",
        "move",
        "species",
        "chartype",
        "credits",
        "funds",
        "background",
        "description",
        "personality",
        "gender",
        "age",
        "height",
        "weight",
        "scale",
        "initiative",
        "pr",
        "er",
        "noArmor",
        "dodge",
        "parry",
        "block",
        "vehicle",
        "sheetmode",
        "strengthdamage",
        "damage",
        "tags",
        "customeffects",
        "fatepointeffect",
        "use_wild_die",
        "roll_mod",
        "ranged",
        "melee",
        "brawl",
        "brawlattack",
        "meleeattack",
        "rangedattack",
        "mortally_wounded",
        "stunned",
        "wild",
        "ca1",
        "ca2",
        "ca3",
        "ca4",
        "items",
        "manifestations",
    }
)


def detect(data: Any) -> bool:
    if not foundry.is_actor(data):
        return False
    if foundry.system_id(data) in SYSTEM_IDS:
        return True
    attributes = foundry.body(data).get("attributes")
    return isinstance(attributes, dict) and {"agi", "mec", "kno"} <= set(attributes)


def _pips(value: Any, where: str) -> int:
    if isinstance(value, dict):
        # Older data: {dice, pips}.
        return number(value.get("dice"), where, -99, 99) * 3 + number(
            value.get("pips"), where, -99, 99
        )
    return code_pips(value, where)


def _on(value: Any) -> bool:
    return value is True or (isinstance(value, dict) and bool(value.get("value")))


def read(data: dict, **_: Any) -> Reading:
    kind = data.get("type")
    name = line(data.get("name"), 100, Notes(), "name") or "Imported character"
    if kind not in ACTOR_TYPES:
        raise FormatRefused(
            f"This Foundry OD6S actor is a {str(kind)[:30]}, not a character: Datapad imports "
            f"{', '.join(ACTOR_TYPES)} actors."
        )
    notes = Notes()
    system = foundry.body(data)
    shape = "system" if isinstance(data.get("system"), dict) else "data"
    notes.unknown_keys(shape, system, KNOWN_SYSTEM)
    sheet = WegBuilder(notes)
    if kind != "character":
        sheet.sheet["role"] = "npc"
        notes.place("Role", "NPC", "type")
    attributes = obj(system.get("attributes"), f"{shape}.attributes")
    totals: dict[str, int] = {}
    for key, slug in ATTRIBUTES.items():
        where = f"{shape}.attributes.{key}"
        entry = obj(attributes.get(key), where)
        if "base" not in entry:
            raise FormatRefused(f"{where}.base is missing: the actor has no {slug.capitalize()}.")
        pips = _pips(entry.get("base"), f"{where}.base")
        sheet.attribute(slug, pips, f"{where}.base")
        totals[key] = pips
        mod = _pips(entry.get("mod"), f"{where}.mod")
        if mod:
            notes.drop(f"{where}.mod {shown(mod)}", "a modifier, not part of the code: not kept")
    met = obj(attributes.get("met"), f"{shape}.attributes.met")
    totals["met"] = _pips(met.get("base"), f"{shape}.attributes.met.base") if met else 0
    for key in ("ca1", "ca2", "ca3", "ca4"):
        custom = attributes.get(key)
        if isinstance(custom, dict) and _pips(custom.get("base"), key):
            notes.drop(f"custom attribute {key}", "a WEG sheet has six attributes")
    _points(system, shape, sheet, notes)
    _words(system, shape, sheet, notes)
    specials: list[str] = []
    for index, item in enumerate(items(data.get("items"), "items")):
        _item(item, index, totals, sheet, notes, specials)
    if specials:
        text = "\n".join(specials)
        description = sheet.sheet["info"]["description"]
        joined = f"{description}\n\nSpecial abilities:\n{text}" if description else text
        sheet.sheet["info"]["description"] = block(joined, DESCRIPTION_LIMIT, notes, "description")
    return Reading(KEY, LABEL, SYSTEM, name, sheet.finish(), notes)


def _points(system: dict, shape: str, sheet: WegBuilder, notes: Notes) -> None:
    for key, kind in (("characterpoints", "character"), ("fatepoints", "force")):
        if key in system:
            sheet.points(
                kind, number(foundry.field(system, key), f"{shape}.{key}"), f"{shape}.{key}"
            )
    if "custom1" in system:
        value = foundry.field(system, "custom1")
        sheet.points(
            "dark_side", number(value, f"{shape}.custom1"), f"{shape}.custom1 (Dark Side Points)"
        )
    if "metaphysicsextranormal" in system:
        sensitive = foundry.field(system, "metaphysicsextranormal")
        sheet.sensitive(bool(sensitive), f"{shape}.metaphysicsextranormal")
    if "wounds" in system:
        index = number(foundry.field(system, "wounds"), f"{shape}.wounds", 0, 99)
        if index >= len(WOUNDS):
            notes.drop(
                f"{shape}.wounds {index}", "past Dead on the Star Wars table: read as killed"
            )
            index = len(WOUNDS) - 1
        sheet.wound(WOUNDS[index], f"{shape}.wounds (the Star Wars deadliness table)")
    if "move" in system:
        sheet.move(number(foundry.field(system, "move"), f"{shape}.move"), f"{shape}.move")
    if "credits" in system:
        sheet.credits(
            number(foundry.field(system, "credits"), f"{shape}.credits"), f"{shape}.credits"
        )
    if "funds" in system and foundry.field(system, "funds"):
        notes.drop(f"{shape}.funds", "the Funds attribute has no WEG Star Wars place")
    if "scale" in system and foundry.field(system, "scale"):
        notes.drop(f"{shape}.scale", "a character sheet has no scale")


def _words(system: dict, shape: str, sheet: WegBuilder, notes: Notes) -> None:
    species = line(foundry.field(system, "species"), 200, notes, "species", html_text=True)
    if species:
        sheet.species(species, None, f"{shape}.species")
    template = line(foundry.field(system, "chartype"), 200, notes, "template", html_text=True)
    sheet.info("template", template, 200, "Template", f"{shape}.chartype")
    parts = []
    for key, title in (
        ("description", ""),
        ("background", "Background"),
        ("personality", "Personality"),
    ):
        text = block(foundry.field(system, key), DESCRIPTION_LIMIT, notes, key, html_text=True)
        if text:
            parts.append(f"{title}: {text}" if title else text)
    sheet.info(
        "description",
        block("\n\n".join(parts), DESCRIPTION_LIMIT, notes, "description"),
        DESCRIPTION_LIMIT,
        "Description",
        f"{shape}.description/background/personality",
    )
    physical = []
    for key in ("gender", "age", "height", "weight"):
        text = line(foundry.field(system, key), 100, notes, key, html_text=True)
        if text:
            physical.append(f"{key.capitalize()}: {text}")
    sheet.info(
        "physical",
        "; ".join(physical)[:PHYSICAL_LIMIT],
        PHYSICAL_LIMIT,
        "Physical description",
        f"{shape}.gender/age/height/weight",
    )


def _item(
    item: Any, index: int, totals: dict, sheet: WegBuilder, notes: Notes, specials: list[str]
) -> None:
    where = f"items.{index}"
    if not isinstance(item, dict):
        raise FormatRefused(f"{where} must be a JSON object.")
    kind = str(item.get("type", ""))
    name = " ".join(str(item.get("name") or "").split())
    data = foundry.body(item)
    label = f"Foundry item “{name[:60]}” of type “{kind[:30]}”"
    if kind == "skill":
        attribute = str(data.get("attribute") or "")
        adds = _pips(data.get("base"), f"{where}.base")
        mod = _pips(data.get("mod"), f"{where}.mod")
        if mod:
            notes.drop(f"{where}.mod of “{name}”", "a modifier, not part of the code: not kept")
        advanced = bool(data.get("isAdvancedSkill"))
        total = adds if advanced else totals.get(attribute, 0) + adds
        source = f"{where} ({'advanced: ' if advanced else ''}{attribute} + base {adds})"
        sheet.skill(name, ATTRIBUTES.get(attribute), total, source, advanced=advanced)
    elif kind == "specialization":
        attribute = str(data.get("attribute") or "")
        adds = _pips(data.get("base"), f"{where}.base")
        sheet.specialization(
            name,
            str(data.get("skill") or ""),
            ATTRIBUTES.get(attribute),
            totals.get(attribute, 0) + adds,
            f"{where} ({attribute} + base {adds})",
        )
    elif kind == "manifestation":
        skills_of = obj(data.get("skills"), f"{where}.skills")
        wanted = [
            target
            for source, target in (
                ("channel", "control"),
                ("sense", "sense"),
                ("transform", "alter"),
            )
            if _on(skills_of.get(source))
        ]
        sheet.power(name, wanted, where)
    elif kind == "weapon":
        damage = obj(data.get("damage"), f"{where}.damage")
        pips = _pips(damage.get("score"), f"{where}.damage.score") if "score" in damage else 0
        ranges = obj(data.get("range"), f"{where}.range")
        shown_range = "/".join(
            str(number(ranges.get(k), f"{where}.range.{k}"))
            for k in ("short", "medium", "long")
            if ranges.get(k) not in (None, "")
        )
        sheet.weapon(
            name,
            # A muscle-powered weapon adds its score to Strength (weapon.ts `damage.muscle`).
            ("STR+" if damage.get("muscle") is True else "") + shown(pips) if pips else "",
            shown_range,
            str(foundry.field(data, "ammo") or ""),
            where,
        )
    elif kind == "armor":
        pr = _pips(foundry.field(data, "pr"), f"{where}.pr")
        er = _pips(foundry.field(data, "er"), f"{where}.er")
        sheet.equip(f"{name} (armor: +{shown(pr)} physical, +{shown(er)} energy)", where)
        notes.drop(f"{label}", "a WEG sheet has no armor rows: kept in Equipment")
    elif kind in ("gear", "cybernetic", "item", "equipment"):
        quantity = number(foundry.field(data, "quantity"), f"{where}.quantity", 0, 999_999, empty=1)
        sheet.equip(f"{name} ×{quantity}" if quantity > 1 else name, where)
        if kind not in ("gear", "equipment"):
            notes.drop(label, "has no place in a WEG sheet: kept in Equipment")
    elif kind in ("specialability", "advantage", "disadvantage"):
        text = line(
            foundry.field(data, "description"), 300, notes, f"{name} description", html_text=True
        )
        specials.append(f"{name}: {text}" if text else name)
        notes.place("Description (special abilities)", name, where)
    elif kind == "character-template":
        notes.drop(label, "a template lists skills without dice: nothing to place")
    else:
        if name:
            sheet.equip(name, where)
        notes.drop(label, "has no place in a WEG sheet: kept in Equipment")
