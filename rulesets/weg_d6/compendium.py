"""The WEG d6 compendium: the kinds of entry a GM adds, and the seeds' catalogs as entries.

Die codes are whole pips (3 pips = 1D, 003:97), as on the sheet. An entry's fields are
what a sheet holds of it: a species' minimum and maximum are the sheet's
`custom_species`, a weapon's damage code and ranges its `weapons` row.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from rulesets.core.compendium import (
    BuiltinEntry,
    EntryBase,
    EntryKind,
    EntryPart,
    NamedCode,
    Picker,
    TextItem,
    builtin,
    checkbox,
    choice,
    code,
    entry_slug,
    group,
    line,
    lines,
    named_code_lines,
    normal_builtins,
    number,
    refuse_pick,
    rewrites,
    seed_ref,
    text_lines,
)
from rulesets.core.diecode import DieCode
from rulesets.core.rows import Stage
from rulesets.weg_d6 import gear
from rulesets.weg_d6.data import (
    ATTRIBUTES,
    CUSTOM_SPECIES,
    EDITION_1E,
    EDITION_RE,
    EQUIPMENT_TEXT_LIMIT,
    FORCE_POWERS,
    FORCE_SKILLS,
    MAX_CODE_PIPS,
    MAX_CREDITS,
    MAX_CUSTOM_POWERS,
    MAX_CUSTOM_SKILLS,
    MAX_EQUIPMENT,
    MAX_MOVE,
    MAX_SPECIALIZATIONS,
    MAX_WEAPONS,
    NAME_LIMIT,
    POWER_BY_SLUG,
    SKILLS,
    SPECIES,
    WEAPON_TEXT_LIMITS,
)
from rulesets.weg_d6.data import DESCRIPTION_LIMIT as SHEET_DESCRIPTION_LIMIT
from rulesets.weg_d6.edits import apply_edit
from rulesets.weg_d6.sheet import validate_sheet
from rulesets.weg_d6.traits import skill_code, skill_info, slugify

# Limits of what an entry may say: wide enough for any species or weapon a table invents.
MOST_ATTRIBUTE_PIPS = 3 * 20  # 20D
MOST_DAMAGE_PIPS = 3 * 30  # 30D (a capital weapon's)
MOST_SKILL_PIPS = 3 * 30
MOST_COST = MAX_CREDITS
MOST_RANGE = 100_000  # metres
MOST_AMMO = 10_000

ATTRIBUTE_CHOICES = tuple((a.slug, a.label) for a in ATTRIBUTES)
# The difficulty levels of the rules' difficulty table (003:151); "" leaves it unsaid.
DIFFICULTIES = (
    ("", "Not stated"),
    ("very_easy", "Very Easy"),
    ("easy", "Easy"),
    ("moderate", "Moderate"),
    ("difficult", "Difficult"),
    ("very_difficult", "Very Difficult"),
    ("heroic", "Heroic"),
)


def _attribute_codes(default: int, *, lowest: int) -> type[EntryPart]:
    fields = {a.slug: (code(a.label, lowest, MOST_ATTRIBUTE_PIPS), default) for a in ATTRIBUTES}
    annotations = {slug: spec[0] for slug, spec in fields.items()}
    namespace = {"__annotations__": annotations, **{s: spec[1] for s, spec in fields.items()}}
    return type(f"AttributeCodes{default}", (EntryPart,), namespace)


# A species' limits may start at 0D (a species weak in an attribute); a template's codes
# are attributes and start at 1D.
SpeciesCodes2D = _attribute_codes(6, lowest=0)
SpeciesCodes4D = _attribute_codes(12, lowest=0)
TemplateCodes = _attribute_codes(6, lowest=3)


class Species(EntryBase):
    minimum: Annotated[SpeciesCodes2D, group("Minimum")] = SpeciesCodes2D()
    maximum: Annotated[SpeciesCodes4D, group("Maximum")] = SpeciesCodes4D()
    move: number("Move", 0, MAX_MOVE) = 10  # type: ignore[valid-type]
    move_max: number("Most Move", 0, MAX_MOVE) = 12  # type: ignore[valid-type]
    special_abilities: lines(  # type: ignore[valid-type]
        "Special abilities", TextItem(), text_lines("Claws: +1D to brawling damage")
    ) = []
    story_factors: lines(  # type: ignore[valid-type]
        "Story factors", TextItem(), text_lines("Distrusted in the Core Worlds")
    ) = []
    favoured_skills: lines(  # type: ignore[valid-type]
        "Favoured skills", TextItem(), text_lines("climbing/jumping")
    ) = []

    def faults(self) -> dict[str, str]:
        found = {}
        for attribute in ATTRIBUTES:
            low = getattr(self.minimum, attribute.slug)
            high = getattr(self.maximum, attribute.slug)
            if low > high:
                found[f"minimum.{attribute.slug}"] = (
                    f"Minimum {attribute.label} {DieCode.from_pips(low)} is above the "
                    f"maximum {DieCode.from_pips(high)}."
                )
        if self.move > self.move_max:
            found["move"] = f"Move {self.move} is above the most Move {self.move_max}."
        return found


class ForceCodes(EntryPart):
    control: code("Control", 0, MOST_SKILL_PIPS) = 0  # type: ignore[valid-type]
    sense: code("Sense", 0, MOST_SKILL_PIPS) = 0  # type: ignore[valid-type]
    alter: code("Alter", 0, MOST_SKILL_PIPS) = 0  # type: ignore[valid-type]


class Template(EntryBase):
    # A player character's attributes come to 18D (003:913); the sheet's budget says so.
    attributes: Annotated[TemplateCodes, group("Attributes")] = TemplateCodes()
    # The dice above the attribute, as creation's skill dice count them.
    skills: lines(  # type: ignore[valid-type]
        "Skills",
        NamedCode,
        named_code_lines("a skill and the dice it has above its attribute, e.g. “blaster 1D+1”"),
    ) = []
    equipment: lines(  # type: ignore[valid-type]
        "Equipment", TextItem(), text_lines("heavy blaster pistol (5D)")
    ) = []
    credits: number("Credits", 0, MOST_COST) = 0  # type: ignore[valid-type]
    force_sensitive: checkbox("Force-sensitive") = False  # type: ignore[valid-type]
    # A 1E Force template's Force skills (003:1758).
    force: Annotated[ForceCodes, group("Force skills")] = ForceCodes()
    background: lines(  # type: ignore[valid-type]
        "Background", TextItem(), text_lines("Grew up on a mining colony")
    ) = []


class Skill(EntryBase):
    attribute: choice("Attribute", ATTRIBUTE_CHOICES) = "dexterity"  # type: ignore[valid-type]
    advanced: checkbox("Advanced skill", help="costs double to learn and improve") = False  # type: ignore[valid-type]
    specialization_of: line(  # type: ignore[valid-type]
        "Specialization of", help="blank for a skill; the skill's name for a specialization"
    ) = ""
    prerequisite: line(  # type: ignore[valid-type]
        "Rests on", help="an advanced skill's prerequisite skill, e.g. first aid"
    ) = ""


class Ranges(EntryPart):
    short: number("Short", 0, MOST_RANGE, optional=True) = None  # type: ignore[valid-type]
    medium: number("Medium", 0, MOST_RANGE, optional=True) = None  # type: ignore[valid-type]
    long: number("Long", 0, MOST_RANGE, optional=True) = None  # type: ignore[valid-type]


class Weapon(EntryBase):
    skill: line("Skill", 80, required=True, help="the skill it is fired or swung with") = "blaster"  # type: ignore[valid-type]
    damage: code("Damage", 0, MOST_DAMAGE_PIPS) = 12  # type: ignore[valid-type]
    adds_strength: checkbox(  # type: ignore[valid-type]
        "Adds Strength", help="damage is Strength plus the code (a melee weapon)"
    ) = False
    range: Annotated[Ranges, group("Range (m)")] = Ranges()
    ammo: number("Ammo", 0, MOST_AMMO, optional=True) = None  # type: ignore[valid-type]
    difficulty: choice("Difficulty", DIFFICULTIES) = ""  # type: ignore[valid-type]
    cost: number("Cost (credits)", 0, MOST_COST, optional=True) = None  # type: ignore[valid-type]
    availability: line("Availability", 10, help="as the books write it, e.g. 2, R") = ""  # type: ignore[valid-type]


class Armor(EntryBase):
    physical: code("Against physical", 0, MOST_DAMAGE_PIPS) = 0  # type: ignore[valid-type]
    energy: code("Against energy", 0, MOST_DAMAGE_PIPS) = 0  # type: ignore[valid-type]
    dexterity_penalty: code("Dexterity penalty", 0, MOST_ATTRIBUTE_PIPS) = 0  # type: ignore[valid-type]
    covers: line("Covers", 80, help="e.g. torso, head") = ""  # type: ignore[valid-type]
    cost: number("Cost (credits)", 0, MOST_COST, optional=True) = None  # type: ignore[valid-type]
    availability: line("Availability", 10, help="as the books write it, e.g. 2, R") = ""  # type: ignore[valid-type]


class Equipment(EntryBase):
    cost: number("Cost (credits)", 0, MOST_COST, optional=True) = None  # type: ignore[valid-type]
    availability: line("Availability", 10, help="as the books write it, e.g. 2, R") = ""  # type: ignore[valid-type]


class PowerSkills(EntryPart):
    control: checkbox("Control") = True  # type: ignore[valid-type]
    sense: checkbox("Sense") = False  # type: ignore[valid-type]
    alter: checkbox("Alter") = False  # type: ignore[valid-type]


class ForcePower(EntryBase):
    skills: Annotated[PowerSkills, group("Uses")] = PowerSkills()
    dark_side: checkbox("Dark side", help="using it earns a Dark Side Point") = False  # type: ignore[valid-type]

    def faults(self) -> dict[str, str]:
        if not (self.skills.control or self.skills.sense or self.skills.alter):
            return {"skills.control": "A power uses at least one Force skill."}
        return {}


class NpcTemplate(EntryBase):
    # An NPC's attributes come to 12D (003:913).
    attributes: Annotated[TemplateCodes, group("Attributes")] = TemplateCodes()
    skills: lines(  # type: ignore[valid-type]
        "Skills",
        NamedCode,
        named_code_lines("a skill and its whole code a line, e.g. “blaster 4D+1”"),
    ) = []
    move: number("Move", 0, MAX_MOVE) = 10  # type: ignore[valid-type]
    equipment: lines(  # type: ignore[valid-type]
        "Equipment", TextItem(), text_lines("blaster rifle (5D)")
    ) = []
    character_points: number("Character Points", 0, 999) = 0  # type: ignore[valid-type]
    force_points: number("Force Points", 0, 99) = 0  # type: ignore[valid-type]


COMPENDIUM_KINDS: tuple[EntryKind, ...] = (
    EntryKind("species", "Species", "Species", Species),
    EntryKind("template", "Template", "Templates", Template),
    EntryKind("skill", "Skill", "Skills", Skill),
    EntryKind("weapon", "Weapon", "Weapons", Weapon),
    EntryKind("armor", "Armor", "Armor", Armor),
    EntryKind("equipment", "Equipment", "Equipment", Equipment),
    EntryKind("force_power", "Force power", "Force powers", ForcePower),
    EntryKind("npc_template", "NPC template", "NPC templates", NpcTemplate),
)

_FORCE_SKILL_SLUGS = tuple(slug for slug, _label in FORCE_SKILLS)
SKILLS_BY_KEY = {s.slug: s for s in SKILLS}

_CATALOG: tuple[BuiltinEntry, ...] = (
    *(
        builtin(
            "species",
            s.label,
            s.source,
            minimum=dict(s.minimum),
            maximum=dict(s.maximum),
            move=s.move,
            move_max=s.move_max,
        )
        for s in SPECIES
    ),
    *(
        builtin(
            "skill",
            s.label,
            s.source,
            attribute=s.attribute,
            advanced=s.advanced,
            prerequisite=SKILLS_BY_KEY[s.prerequisite].label if s.prerequisite else "",
        )
        for s in SKILLS
    ),
    *(
        builtin(
            "force_power",
            p.label,
            p.source,
            skills={slug: slug in p.skills for slug in _FORCE_SKILL_SLUGS},
            dark_side=p.dark_side,
        )
        for p in FORCE_POWERS
    ),
)

# The 1E melee weapon chart (003:2694-2706), damage added to Strength but the lightsaber's,
# each with its difficulty band. The chart's second damage line (STR+1D, 3-5) lost its name
# in the seed's text, so it is left out rather than guessed.
_MELEE = (
    ("Hands", 0, True, "very_easy", "003:2702", ""),
    ("Gaderffii", 3, True, "very_easy", "003:2703", ""),
    ("Spear", 4, True, "easy", "003:2703", ""),
    ("Vibroaxe", 6, True, "moderate", "003:2704", ""),
    ("Vibroblade", 5, True, "moderate", "003:2704", ""),
    (
        "Lightsaber",
        15,
        False,
        "difficult",
        "003:2705-2706",
        "A wielder with the Control skill adds its code to the damage.",
    ),
)
# The equipment 003 explains (003:1082-1120), in our words; the seed gives no price or
# availability code for these, so those fields stay empty.
_EQUIPMENT = (
    ("Macrobinoculars", "003:1084", "Magnifies, ranges and targets far-off images."),
    ("Pocket computer (datapad)", "003:1088", "Keyboard, probe and a small scanning screen."),
    ("Recording rod", "003:1092", "An audio recorder holding about 100 hours."),
    ("Emergency space suit", "003:1098", "Leaks after 72 hours (a wound); useless after 120."),
    ("Utility space suit", "003:1100", "Lasts hundreds of hours; a puncturing hit adds a wound."),
    ("High-quality space suit", "003:1100", "Seals large ruptures; leaks only on a mortal wound."),
    ("Syntherope", "003:1106", "15 m coil, strength 3D."),
    ("Glow rod", "003:1110", "A narrow beam of light for about 50 hours a power cell."),
    ("Chronometer", "003:1114", "Keeps a planet's time and Galactic Standard."),
    ("Breath mask", "003:1118", "Gases for near-vacuum; no protection from cold or hard vacuum."),
)
_CATALOG = (
    *_CATALOG,
    *(
        builtin(
            "weapon",
            name,
            source,
            skill="melee",
            damage=damage,
            adds_strength=adds,
            difficulty=difficulty,
            description=description,
        )
        for name, damage, adds, difficulty, source, description in _MELEE
    ),
    *(
        builtin("equipment", name, source, description=description)
        for name, source, description in _EQUIPMENT
    ),
)
BUILTIN: tuple[BuiltinEntry, ...] = normal_builtins(COMPENDIUM_KINDS, _CATALOG)


def builtin_entries() -> tuple[BuiltinEntry, ...]:
    """The seeds' catalogs as read-only entries, each with its seed line."""
    return BUILTIN


# --- picking an entry onto a sheet ----------------------------------------------------------
# The sheet keeps a snapshot of what it needs and, on the picked item, where it came from: a
# species becomes the sheet's own species (its limits copied), a template fills a sheet in
# creation, a skill or a specialization joins the sheet's list, a weapon adds a row, armor
# and equipment add a line to the equipment, a Force power is learned as the sheet's own
# (the power rules apply), an NPC template fills an NPC.


def _pick_species(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    # The sheet's own species: the existing custom-species checks bound its attributes.
    sheet["species"] = CUSTOM_SPECIES
    sheet["custom_species"] = _species_row(entry) | {"compendium": mark}
    if sheet["stage"] == Stage.CREATION:
        sheet["move"] = entry["move"]
    return sheet


def _skill_slug(sheet: Mapping[str, Any], name: str) -> str | None:
    """The key of the sheet's skill called `name` (catalog or the sheet's own), or None."""
    slug = slugify(name)
    if skill_info(sheet, slug) is not None:
        return slug
    wanted = name.casefold()
    for skill in SKILLS:
        if skill.label.casefold() == wanted:
            return skill.slug
    for key, custom in sheet["custom_skills"].items():
        if custom["name"].casefold() == wanted:
            return key
    return None


def _skill_codes(
    sheet: Mapping[str, Any], lines_: list[dict], *, above_attribute: bool, field: str
) -> dict[str, int]:
    codes, faults = {}, []
    for number_, item in enumerate(lines_, start=1):
        slug = _skill_slug(sheet, item["name"])
        if slug is None:
            faults.append(f"line {number_}: “{item['name']}” is not a skill of this sheet")
            continue
        info = skill_info(sheet, slug)
        base = sheet["attributes"][info.attribute] if info is not None else 0
        codes[slug] = min(MAX_CODE_PIPS, base + item["code"] if above_attribute else item["code"])
    if faults:
        raise refuse_pick(f"{field}: " + "; ".join(faults[:3]) + " (add it as a skill first).")
    return codes


def _add_lines(sheet: dict, lines_: list[str], marks: list[dict]) -> None:
    gear = sheet["gear"]
    text_ = "\n".join(part for part in (gear["equipment"].rstrip(), *lines_) if part)
    if len(text_) > EQUIPMENT_TEXT_LIMIT:
        raise refuse_pick(f"The equipment would pass its {EQUIPMENT_TEXT_LIMIT} characters.")
    refs = [*gear.get("compendium", []), *marks]
    if len(refs) > MAX_EQUIPMENT:
        raise refuse_pick(f"A sheet records at most {MAX_EQUIPMENT} picked pieces of equipment.")
    gear["equipment"] = text_
    gear["compendium"] = refs


def _fill(sheet: dict, entry: dict, *, above_attribute: bool) -> None:
    """Attributes, skills and equipment of a template (the sheet's creation choices)."""
    if sheet["stage"] != Stage.CREATION:
        raise refuse_pick("A template fills a sheet in creation; this sheet is in play.")
    if sheet["kind"] == "droid":
        raise refuse_pick("A droid is built from building dice, not from a template.")
    sheet["attributes"] = dict(entry["attributes"])
    sheet["alien_template"] = None
    sheet["skills"] = _skill_codes(
        sheet, entry["skills"], above_attribute=above_attribute, field="Skills"
    )
    sheet["specializations"] = {}
    sheet["gear"]["equipment"] = ""
    _add_lines(sheet, entry["equipment"], [])


def _pick_template(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    _fill(sheet, entry, above_attribute=True)
    force = sheet["force"]
    for slug in _FORCE_SKILL_SLUGS:
        force[slug] = entry["force"][slug]
    force["sensitive"] = entry["force_sensitive"] or any(entry["force"].values())
    sheet["gear"]["credits"] = entry["credits"]
    info = sheet["info"]
    info["template"] = entry["name"][:NAME_LIMIT]
    background = "\n".join(entry["background"])
    if background and not info["description"]:
        info["description"] = background[:SHEET_DESCRIPTION_LIMIT]
    info["compendium"] = mark
    return sheet


def _pick_npc_template(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    sheet["role"] = "npc"
    _fill(sheet, entry, above_attribute=False)
    sheet["move"] = entry["move"]
    sheet["points"]["character"] = entry["character_points"]
    sheet["points"]["force"] = entry["force_points"]
    sheet["info"]["template"] = entry["name"][:NAME_LIMIT]
    sheet["info"]["compendium"] = mark
    return sheet


def _pick_skill(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    name = entry["name"]
    if entry["specialization_of"]:
        if sheet["edition"] != EDITION_RE:
            raise refuse_pick("1st edition has no specializations.")
        parent = _skill_slug(sheet, entry["specialization_of"])
        if parent is None:
            raise refuse_pick(f"“{entry['specialization_of']}” is not a skill of this sheet.")
        slug = slugify(f"{parent} {name}")
        if slug in sheet["specializations"]:
            raise refuse_pick(f"{name} is already a specialization of that skill.")
        if len(sheet["specializations"]) >= MAX_SPECIALIZATIONS:
            raise refuse_pick(f"A sheet keeps at most {MAX_SPECIALIZATIONS} specializations.")
        # A specialization starts where its skill stands (002:37).
        sheet["specializations"][slug] = {
            "name": name,
            "skill": parent,
            "pips": skill_code(sheet, parent),
            "compendium": mark,
        }
        return sheet
    slug = slugify(name)
    if not slug or skill_info(sheet, slug) is not None:
        raise refuse_pick(f"{name} is already on this sheet's list of skills.")
    if len(sheet["custom_skills"]) >= MAX_CUSTOM_SKILLS:
        raise refuse_pick(f"A sheet keeps at most {MAX_CUSTOM_SKILLS} custom skills.")
    if entry["advanced"] and sheet["edition"] == EDITION_1E:
        raise refuse_pick("1st edition has no advanced skills.")
    prerequisite = None
    if entry["advanced"] and entry["prerequisite"]:
        prerequisite = _skill_slug(sheet, entry["prerequisite"])
        if prerequisite is None:
            raise refuse_pick(f"“{entry['prerequisite']}” is not a skill of this sheet to rest on.")
    sheet["custom_skills"][slug] = {
        "name": name,
        "attribute": entry["attribute"],
        "advanced": entry["advanced"],
        "prerequisite": prerequisite,
        "compendium": mark,
    }
    return sheet


def _range_text(ranges: Mapping[str, int | None]) -> str:
    return "/".join(str(ranges[band]) for band in ("short", "medium", "long") if ranges[band])


# The seed's own vibroaxe: its damage is the table's reading of two seed lines (gear.py).
_VIBROAXE_REF = seed_ref("weapon", entry_slug("Vibroaxe"))


def _pick_weapon(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    if len(sheet["weapons"]) >= MAX_WEAPONS:
        raise refuse_pick(f"A sheet lists at most {MAX_WEAPONS} weapons.")
    if mark["ref"] == _VIBROAXE_REF:
        entry = dict(entry, damage=gear.vibroaxe_pips(settings))
    sheet["weapons"].append(_weapon_row(entry) | {"compendium": mark})
    return sheet


def _armor_line(entry: dict) -> str:
    parts = [
        f"{DieCode.from_pips(entry[key]).format(signed=True)} {label}"
        for key, label in (("physical", "physical"), ("energy", "energy"))
        if entry[key]
    ]
    if entry["dexterity_penalty"]:
        parts.append(f"{DieCode.from_pips(-entry['dexterity_penalty'])} Dexterity")
    if entry["covers"]:
        parts.append(entry["covers"])
    return f"{entry['name']} (armor: {', '.join(parts) or 'no bonus'})"


def _pick_armor(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    _add_lines(sheet, [_armor_line(entry)], [mark])
    return sheet


def _pick_equipment(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    _add_lines(sheet, [entry["name"]], [mark])
    return sheet


def _pick_force_power(sheet: dict, entry: dict, mark: dict, settings: Mapping) -> dict:
    slug = slugify(entry["name"])
    if slug in POWER_BY_SLUG:
        # The seeds' own power: learned as the catalog's, nothing of the sheet's own.
        return apply_edit(sheet, "power.add", slug, settings)
    force = sheet["force"]
    if slug in force["custom_powers"]:
        raise refuse_pick(f"{entry['name']} is already one of this sheet's powers.")
    if len(force["custom_powers"]) >= MAX_CUSTOM_POWERS:
        raise refuse_pick(f"A sheet keeps at most {MAX_CUSTOM_POWERS} custom powers.")
    force["custom_powers"][slug] = {
        "name": entry["name"],
        "skills": [s for s in _FORCE_SKILL_SLUGS if entry["skills"][s]],
        "compendium": mark,
    }
    # Learned as a typed power is: its Force skills and the power total apply.
    return apply_edit(sheet, "power.add", slug, settings)


def _weapon_row(entry: Mapping[str, Any]) -> dict:
    damage = DieCode.from_pips(entry["damage"])
    return {
        "name": entry["name"][:NAME_LIMIT],
        # As the sheet writes it (edits.parse_damage): 5D, or STR+1D for melee.
        "damage": f"STR{damage.format(signed=True)}" if entry["adds_strength"] else str(damage),
        "range": _range_text(entry["range"])[: WEAPON_TEXT_LIMITS["range"]],
        "ammo": "" if entry["ammo"] is None else str(entry["ammo"]),
    }


def _species_row(entry: Mapping[str, Any]) -> dict:
    return {
        "name": entry["name"][:NAME_LIMIT],
        "minimum": dict(entry["minimum"]),
        "maximum": dict(entry["maximum"]),
        "move": entry["move"],
        "move_max": entry["move_max"],
        # Words for the player and the GM, carried as written; no rule reads them.
        "special_abilities": list(entry["special_abilities"]),
        "story_factors": list(entry["story_factors"]),
    }


def _refresh_skill(item: dict, entry: Mapping[str, Any]) -> None:
    item["name"] = entry["name"]
    if "attribute" in item:  # a custom skill; a specialization keeps its skill and code
        item.update(attribute=entry["attribute"], advanced=entry["advanced"])


def _refresh_power(item: dict, entry: Mapping[str, Any]) -> None:
    item.update(name=entry["name"], skills=[s for s in _FORCE_SKILL_SLUGS if entry["skills"][s]])


PICKER = Picker(
    COMPENDIUM_KINDS,
    picks={
        "species": _pick_species,
        "template": _pick_template,
        "skill": _pick_skill,
        "weapon": _pick_weapon,
        "armor": _pick_armor,
        "equipment": _pick_equipment,
        "force_power": _pick_force_power,
        "npc_template": _pick_npc_template,
    },
    # A template's fill, armor and equipment lines are copied once.
    refresh={
        "species": rewrites(_species_row),
        "weapon": rewrites(_weapon_row),
        "skill": _refresh_skill,
        "force_power": _refresh_power,
    },
    validate_sheet=validate_sheet,
)
pick_entry = PICKER.pick_entry
refresh_entry = PICKER.refresh_entry
entry_refs = PICKER.entry_refs
