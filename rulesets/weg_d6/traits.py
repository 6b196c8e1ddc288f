"""Read a sheet by trait key: what kind of trait a key names, its code, its name.

Codes are whole pips everywhere (3 pips = 1D, 003:97); `code_text` prints them as 4D+2.
Edits, costs, checks and rows all read the sheet through these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesets.core import DieCode, InvalidEdit, Pool
from rulesets.weg_d6.data import (
    ATTRIBUTE_BY_SLUG,
    CUSTOM_SPECIES,
    FORCE_SKILL_LABELS,
    POWER_BY_SLUG,
    SKILL_BY_SLUG,
    SPECIES_BY_SLUG,
    Species,
)

ATTRIBUTE = "attribute"
SKILL = "skill"
ADVANCED = "advanced skill"
SPECIALIZATION = "specialization"
FORCE_SKILL = "Force skill"
MOVE = "move"
FORCE_SENSITIVE = "Force-sensitivity"
POWER = "Force power"


def code_text(pips: int) -> str:
    """Print whole pips the way the books do: 14 -> 4D+2."""
    return DieCode.from_pips(pips).format()


@dataclass(frozen=True)
class PipPool(Pool):
    """A budget counted in pips, which a page prints as die codes: 18D, not 54.

    Code reads `pool.allowed` as a whole number of pips, as for every pool; a template's
    `{{ pool.allowed }}` tries `pool["allowed"]` first (Django's lookup order) and gets
    the die code, so the shared budget panel prints codes without knowing about pips.
    """

    def __getitem__(self, name: str) -> str:
        if name in ("allowed", "spent", "left"):
            return code_text(getattr(self, name))
        raise KeyError(name)


def amount_text(pips: int) -> str:
    """Say an amount left to spend: "2 pips" under a die, else a code like 1D+1."""
    if 0 < pips < 3:
        return f"{pips} pip" + ("s" if pips > 1 else "")
    return code_text(pips)


def slugify(name: str) -> str:
    slug = "".join(ch if ch.isalnum() else "_" for ch in name.strip().lower())
    return "_".join(part for part in slug.split("_") if part)


def species_of(sheet: Mapping[str, Any]) -> Species:
    """The catalog species, or the sheet's own definition when the GM made one."""
    if sheet["species"] == CUSTOM_SPECIES:
        custom = sheet["custom_species"]
        return Species(
            CUSTOM_SPECIES,
            custom["name"] or "Custom species",
            minimum=dict(custom["minimum"]),
            maximum=dict(custom["maximum"]),
            move=custom["move"],
            move_max=custom["move_max"],
            source="the sheet's own species",
        )
    return SPECIES_BY_SLUG[sheet["species"]]


@dataclass(frozen=True)
class SkillInfo:
    slug: str
    label: str
    attribute: str
    advanced: bool
    prerequisite: str | None
    custom: bool


def skill_info(sheet: Mapping[str, Any], slug: str) -> SkillInfo | None:
    """A catalog skill or one of the sheet's custom skills; None for an unknown slug."""
    custom = sheet["custom_skills"].get(slug)
    if custom is not None:
        return SkillInfo(
            slug,
            custom["name"],
            custom["attribute"],
            custom["advanced"],
            custom["prerequisite"],
            custom=True,
        )
    entry = SKILL_BY_SLUG.get(slug)
    if entry is None:
        return None
    return SkillInfo(
        slug, entry.label, entry.attribute, entry.advanced, entry.prerequisite, custom=False
    )


def skill_code(sheet: Mapping[str, Any], slug: str) -> int:
    """A skill's code; a skill nobody trained rolls at its attribute (003:947)."""
    if slug in sheet["skills"]:
        return sheet["skills"][slug]
    info = skill_info(sheet, slug)
    return sheet["attributes"][info.attribute] if info else 0


def power_skills(sheet: Mapping[str, Any], slug: str, settings: Mapping[str, Any]) -> tuple:
    """The Force skills a power needs, honouring the GM's shift-sense reading (003:1796)."""
    custom = sheet["force"]["custom_powers"].get(slug)
    if custom is not None:
        return tuple(custom["skills"])
    if slug == "shift_sense":
        return (settings["shift_sense_skill"],)
    return POWER_BY_SLUG[slug].skills


def power_label(sheet: Mapping[str, Any], slug: str) -> str:
    custom = sheet["force"]["custom_powers"].get(slug)
    return custom["name"] if custom is not None else POWER_BY_SLUG[slug].label


def trait_kind(sheet: Mapping[str, Any], trait: str) -> str:
    """Say what a trait key names, or refuse a key this sheet does not know."""
    head, _, rest = trait.partition(".")
    if head == "attr" and rest in ATTRIBUTE_BY_SLUG:
        return ATTRIBUTE
    if head == "skill":
        info = skill_info(sheet, rest)
        if info is not None:
            return ADVANCED if info.advanced else SKILL
    if head == "spec" and rest in sheet["specializations"]:
        return SPECIALIZATION
    if head == "force":
        if rest in FORCE_SKILL_LABELS:
            return FORCE_SKILL
        if rest == "sensitive":
            return FORCE_SENSITIVE
    if trait == "move":
        return MOVE
    if head == "power" and (rest in POWER_BY_SLUG or rest in sheet["force"]["custom_powers"]):
        return POWER
    raise InvalidEdit(trait, f"“{trait}” is not a trait of this sheet.")


def trait_value(sheet: Mapping[str, Any], trait: str) -> int:
    """The current value of a raisable trait: pips for codes, a number for Move, 0/1 flags."""
    kind = trait_kind(sheet, trait)
    rest = trait.partition(".")[2]
    if kind == ATTRIBUTE:
        return sheet["attributes"][rest]
    if kind in (SKILL, ADVANCED):
        return skill_code(sheet, rest)
    if kind == SPECIALIZATION:
        return sheet["specializations"][rest]["pips"]
    if kind == FORCE_SKILL:
        return sheet["force"][rest]
    if kind == MOVE:
        return sheet["move"]
    if kind == FORCE_SENSITIVE:
        return int(sheet["force"]["sensitive"])
    return int(rest in sheet["force"]["powers"])


def trait_name(sheet: Mapping[str, Any], trait: str) -> str:
    """Name a raisable trait as this sheet shows it (custom skills by their own name)."""
    kind = trait_kind(sheet, trait)
    rest = trait.partition(".")[2]
    if kind == ATTRIBUTE:
        return ATTRIBUTE_BY_SLUG[rest].label
    if kind in (SKILL, ADVANCED):
        info = skill_info(sheet, rest)
        assert info is not None
        return info.label
    if kind == SPECIALIZATION:
        spec = sheet["specializations"][rest]
        parent = skill_info(sheet, spec["skill"])
        return f"{parent.label if parent else spec['skill']}: {spec['name']}"
    if kind == FORCE_SKILL:
        return FORCE_SKILL_LABELS[rest]
    if kind == MOVE:
        return "Move"
    if kind == FORCE_SENSITIVE:
        return "Force-sensitivity"
    return power_label(sheet, rest)
