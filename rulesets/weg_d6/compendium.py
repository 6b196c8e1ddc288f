"""The WEG d6 compendium: the kinds of entry a GM adds, and the seeds' catalogs as entries.

Die codes are whole pips (3 pips = 1D, 003:97), as on the sheet. An entry's fields are
what a sheet holds of it: a species' minimum and maximum are the sheet's
`custom_species`, a weapon's damage code and ranges its `weapons` row.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from rulesets.core.compendium import (
    NAMED_CODE_LINES,
    BuiltinEntry,
    EntryBase,
    EntryKind,
    EntryPart,
    InvalidEntry,
    NamedCode,
    TextItem,
    builtin,
    checkbox,
    choice,
    code,
    find_kind,
    find_refs,
    group,
    line,
    lines,
    normal_builtins,
    number,
    text_lines,
)
from rulesets.core.diecode import DieCode
from rulesets.weg_d6.data import (
    ATTRIBUTES,
    FORCE_POWERS,
    FORCE_SKILLS,
    MAX_CREDITS,
    MAX_MOVE,
    SKILLS,
    SPECIES,
)

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


class Template(EntryBase):
    attributes: Annotated[TemplateCodes, group("Attributes")] = TemplateCodes()
    skills: lines("Skills", NamedCode, NAMED_CODE_LINES) = []  # type: ignore[valid-type]
    equipment: lines(  # type: ignore[valid-type]
        "Equipment", TextItem(), text_lines("heavy blaster pistol (5D)")
    ) = []
    credits: number("Credits", 0, MOST_COST) = 0  # type: ignore[valid-type]
    force_sensitive: checkbox("Force-sensitive") = False  # type: ignore[valid-type]
    background: lines(  # type: ignore[valid-type]
        "Background", TextItem(), text_lines("Grew up on a mining colony")
    ) = []


class Skill(EntryBase):
    attribute: choice("Attribute", ATTRIBUTE_CHOICES) = "dexterity"  # type: ignore[valid-type]
    advanced: checkbox("Advanced skill", help="costs double to learn and improve") = False  # type: ignore[valid-type]
    specialization_of: line(  # type: ignore[valid-type]
        "Specialization of", help="blank for a skill; the skill's name for a specialization"
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
    attributes: Annotated[TemplateCodes, group("Attributes")] = TemplateCodes()
    skills: lines("Skills", NamedCode, NAMED_CODE_LINES) = []  # type: ignore[valid-type]
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

_CATALOG: tuple[BuiltinEntry, ...] = (
    *(
        builtin(
            "species",
            s.label,
            s.source.split(" ")[0],
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
BUILTIN: tuple[BuiltinEntry, ...] = normal_builtins(COMPENDIUM_KINDS, _CATALOG)


def builtin_entries() -> tuple[BuiltinEntry, ...]:
    """The seeds' catalogs as read-only entries, each with its seed line."""
    return BUILTIN


def entry_refs(sheet: Mapping[str, Any]) -> list[tuple[str, str, int]]:
    """The (kind, ref, version) of every compendium entry the sheet uses."""
    return find_refs(sheet)


def pick_entry(
    sheet: Mapping[str, Any],
    kind: str,
    ref: str,
    version: int,
    data: Mapping[str, Any],
    settings: Mapping[str, Any],
) -> dict:
    """Return a new sheet with the entry picked onto it, or raise InvalidEntry."""
    chosen = find_kind(COMPENDIUM_KINDS, kind)
    raise InvalidEntry({"kind": f"{chosen.plural} cannot be picked onto a sheet yet."})
