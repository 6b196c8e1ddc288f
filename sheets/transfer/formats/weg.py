"""Build a WEG d6 sheet from another tool's values, noting where each one lands.

Every WEG reader hands this builder what its file says in whole pips, already totalled the
way Datapad stores them (a skill's full code, a specialization's full code): the builder
finds the catalog skill or makes the sheet's own, and the sheet is validated at the end by
the ruleset itself (rulesets/weg_d6/sheet.py), so nothing the engine would refuse is built.
"""

from __future__ import annotations

from typing import Any

from rulesets.core import InvalidEdit, InvalidSheet
from rulesets.core.rows import Stage
from rulesets.weg_d6.data import (
    ATTRIBUTE_BY_SLUG,
    CUSTOM_SPECIES,
    EDITION_RE,
    EQUIPMENT_TEXT_LIMIT,
    FORCE_SKILL_LABELS,
    FORCE_SKILL_SLUGS,
    LOWEST_ATTRIBUTE_PIPS,
    MAX_CODE_PIPS,
    MAX_CREDITS,
    MAX_CUSTOM_POWERS,
    MAX_CUSTOM_SKILLS,
    MAX_MOVE,
    MAX_POINTS,
    MAX_SPECIALIZATIONS,
    MAX_WEAPONS,
    NAME_LIMIT,
    POWER_BY_SLUG,
    SKILL_BY_SLUG,
    SKILLS,
    SPECIES_BY_SLUG,
    WEAPON_TEXT_LIMITS,
)
from rulesets.weg_d6.sheet import WegSheet, validate_sheet
from rulesets.weg_d6.traits import slugify
from sheets.transfer.formats.base import FormatRefused, Notes, line, plain, shown

SYSTEM = "weg_d6"

# Names other tools give the catalog's skills (their own spelling, the books' older one).
SKILL_ALIASES = {
    "hide": "hide_sneak",
    "sneak": "hide_sneak",
    "hide_and_sneak": "hide_sneak",
    "melee_combat": "melee",
    "melee_weapons": "melee",
    "computer_programming": "computer_programming_repair",
    "computer_repair": "computer_programming_repair",
    "a_medicine": "advanced_medicine",
    "climbing": "climbing_jumping",
    "jumping": "climbing_jumping",
    "gambling_sabacc": "gambling",
    "starship_weapons": "starship_gunnery",
    "space_transport": "space_transports",
    "starfighter_pilot": "starfighter_piloting",
    "repulsorlift_op": "repulsorlift_operation",
}
_SKILL_BY_LABEL = {skill.label.casefold(): skill.slug for skill in SKILLS}
_POWER_BY_LABEL = {power.label.casefold(): power.slug for power in POWER_BY_SLUG.values()}
ATTRIBUTE_NAMES = {
    **{slug: slug for slug in ATTRIBUTE_BY_SLUG},
    **{a.abbreviation.lower(): a.slug for a in ATTRIBUTE_BY_SLUG.values()},
    **{a.label.lower(): a.slug for a in ATTRIBUTE_BY_SLUG.values()},
}


def catalog_skill(name: str) -> str | None:
    slug = slugify(name)
    if slug in SKILL_BY_SLUG:
        return slug
    return _SKILL_BY_LABEL.get(name.strip().casefold()) or SKILL_ALIASES.get(slug)


def force_skill(name: str) -> str | None:
    slug = slugify(name)
    return slug if slug in FORCE_SKILL_SLUGS else None


class WegBuilder:
    """A WEG sheet under construction, with the notes of what went where."""

    def __init__(self, notes: Notes, *, edition: str = EDITION_RE) -> None:
        self.notes = notes
        self.sheet: dict[str, Any] = WegSheet().model_dump(mode="json")
        self.sheet["edition"] = edition
        # A character brought from another tool has been played: creation's budgets are
        # not asked of it (the preview still lists every rule it breaks).
        self.sheet["stage"] = Stage.PLAY.value
        self.equipment: list[str] = []

    # Attributes, skills, specializations ------------------------------------------------

    def attribute(self, slug: str, pips: int, source: str) -> None:
        label = ATTRIBUTE_BY_SLUG[slug].label
        if not LOWEST_ATTRIBUTE_PIPS <= pips <= MAX_CODE_PIPS:
            raise FormatRefused(
                f"{source}: {label} {shown(pips)} is out of range "
                f"({shown(LOWEST_ATTRIBUTE_PIPS)} to {shown(MAX_CODE_PIPS)})."
            )
        self.sheet["attributes"][slug] = pips
        self.notes.place(label, shown(pips), source)

    def _code(self, label: str, pips: int, source: str) -> int | None:
        if pips > MAX_CODE_PIPS:
            raise FormatRefused(
                f"{source}: {label} {shown(pips)} is out of range (at most {shown(MAX_CODE_PIPS)})."
            )
        if pips < 0:
            self.notes.drop(f"{label} {shown(pips)}", "a code below 0D: set to 0D")
            return 0
        return pips

    def skill_key(self, name: str, attribute: str | None, *, advanced: bool = False) -> str | None:
        """The sheet's key for the skill `name`, made the sheet's own if not in the catalog.

        An advanced skill is the catalog's "(A)" one of that name, or the sheet's own under
        a key of its own (never the basic skill's: "medicine" and "(A) Medicine" differ).
        """
        if advanced:
            bare = name.removeprefix("(A)").strip()
            slug = catalog_skill(f"(A) {bare}")
            if slug is not None and SKILL_BY_SLUG[slug].advanced:
                return slug
            key = f"advanced_{slugify(bare)}" if slugify(bare) else ""
            name = f"(A) {bare}"
        else:
            slug = catalog_skill(name)
            if slug is not None:
                return slug
            key = slugify(name)
        if not key:
            return None
        customs = self.sheet["custom_skills"]
        if key in customs:
            return key
        if len(customs) >= MAX_CUSTOM_SKILLS:
            self.notes.drop(
                f"skill “{name}”", f"a sheet holds at most {MAX_CUSTOM_SKILLS} own skills"
            )
            return None
        if attribute not in ATTRIBUTE_BY_SLUG:
            self.notes.drop(
                f"skill “{name}”'s attribute", "not one of the six: filed under Dexterity"
            )
            attribute = "dexterity"
        customs[key] = {
            "name": line(name, NAME_LIMIT, self.notes, f"skill name “{name[:30]}”"),
            "attribute": attribute,
            "advanced": advanced,
            "prerequisite": None,
            "compendium": None,
        }
        return key

    def skill(
        self, name: str, attribute: str | None, pips: int, source: str, *, advanced: bool = False
    ) -> None:
        name = " ".join(str(name).split())
        power_skill = force_skill(name)
        if power_skill is not None:
            self.force_skill(power_skill, pips, source)
            return
        if not name:
            self.notes.drop(f"{source}: a skill without a name", "nothing to file it under")
            return
        code = self._code(name, pips, source)
        if code is None:
            return
        key = self.skill_key(name, attribute, advanced=advanced)
        if key is None:
            return
        skills = self.sheet["skills"]
        if key in skills:
            self.notes.drop(
                f"{source}: skill “{name}” {shown(code)}",
                f"the sheet already has it at {shown(skills[key])}: the higher code is kept",
            )
            skills[key] = max(skills[key], code)
            return
        skills[key] = code
        label = SKILL_BY_SLUG[key].label if key in SKILL_BY_SLUG else name
        self.notes.place(f"Skill {label}", shown(code), source)

    def specialization(
        self, name: str, parent: str, attribute: str | None, pips: int, source: str
    ) -> None:
        name = " ".join(str(name).split())
        if not name:
            self.notes.drop(f"{source}: a specialization without a name", "nothing to call it")
            return
        if len(self.sheet["specializations"]) >= MAX_SPECIALIZATIONS:
            self.notes.drop(
                f"specialization “{name}”",
                f"a sheet holds at most {MAX_SPECIALIZATIONS} specializations",
            )
            return
        code = self._code(name, pips, source)
        parent_key = self.skill_key(parent, attribute) if str(parent).strip() else None
        if parent_key is None:
            self.notes.drop(
                f"{source}: specialization “{name}” {shown(code or 0)}",
                "its skill is not named: kept as a skill of its own",
            )
            self.skill(name, attribute, code or 0, source)
            return
        # A name of punctuation alone ("/") slugs to nothing: the key still needs a word.
        key = base = slugify(name) or "specialization"
        number = 2
        while key in self.sheet["specializations"]:
            key, number = f"{base}_{number}", number + 1
        self.sheet["specializations"][key] = {
            "name": line(name, NAME_LIMIT, self.notes, "specialization name"),
            "skill": parent_key,
            "pips": code or 0,
            "compendium": None,
        }
        self.notes.place(f"Specialization {name} (of {parent})", shown(code or 0), source)

    # The Force ---------------------------------------------------------------------------

    def force_skill(self, slug: str, pips: int, source: str) -> None:
        code = self._code(FORCE_SKILL_LABELS[slug], pips, source) or 0
        self.sheet["force"][slug] = max(self.sheet["force"][slug], code)
        if code:
            self.sheet["force"]["sensitive"] = True
        self.notes.place(f"Force skill {FORCE_SKILL_LABELS[slug]}", shown(code), source)

    def sensitive(self, value: bool, source: str) -> None:
        self.sheet["force"]["sensitive"] = bool(value) or self.sheet["force"]["sensitive"]
        self.notes.place("Force-sensitive", "yes" if value else "no", source)

    def power(self, name: str, skills: list[str] | None, source: str) -> None:
        name = " ".join(str(name).split())
        if not name:
            return
        force = self.sheet["force"]
        slug = slugify(name)
        if slug not in POWER_BY_SLUG:
            slug = _POWER_BY_LABEL.get(name.casefold(), slug)
        if slug in POWER_BY_SLUG:
            if slug not in force["powers"]:
                force["powers"].append(slug)
                self.notes.place("Force power", POWER_BY_SLUG[slug].label, source)
            return
        if not slug:
            return
        if len(force["custom_powers"]) >= MAX_CUSTOM_POWERS:
            self.notes.drop(f"Force power “{name}”", f"at most {MAX_CUSTOM_POWERS} own powers")
            return
        wanted = [s for s in FORCE_SKILL_SLUGS if s in set(skills or [])]
        if not wanted:
            wanted = ["control"]
            self.notes.drop(
                f"Force power “{name}”'s skills",
                "the file does not say which Force skills it uses: Control is assumed",
            )
        if slug not in force["custom_powers"]:
            force["custom_powers"][slug] = {
                "name": line(name, NAME_LIMIT, self.notes, "power name"),
                "skills": wanted,
                "compendium": None,
            }
            force["powers"].append(slug)
            labels = "+".join(FORCE_SKILL_LABELS[s] for s in wanted)
            self.notes.place("Force power (the sheet's own)", f"{name} ({labels})", source)

    # Points, wounds, species, words ------------------------------------------------------

    def points(self, kind: str, value: int, source: str) -> None:
        labels = {
            "character": "Character Points",
            "force": "Force Points",
            "dark_side": "Dark Side Points",
        }
        if not 0 <= value <= MAX_POINTS:
            raise FormatRefused(
                f"{source}: {value} {labels[kind]} is out of range (0 to {MAX_POINTS})."
            )
        self.sheet["points"][kind] = value
        self.notes.place(labels[kind], value, source)

    def move(self, value: int, source: str) -> None:
        if not 0 <= value <= MAX_MOVE:
            raise FormatRefused(f"{source}: Move {value} is out of range (0 to {MAX_MOVE}).")
        self.sheet["move"] = value
        self.notes.place("Move", value, source)

    def wound(self, slug: str, source: str) -> None:
        self.sheet["wound"] = slug
        self.notes.place("Wound level", slug.replace("_", " ").capitalize(), source)

    def species(self, name: str, limits: dict | None, source: str) -> None:
        """The species by name: the catalog's, the compendium's limits, or the name alone."""
        name = line(name, NAME_LIMIT, self.notes, "species name")
        if not name:
            return
        slug = slugify(name)
        if limits is not None and limits.get("catalog_slug") in SPECIES_BY_SLUG:
            self.sheet["species"] = limits["catalog_slug"]
            self.notes.place("Species", SPECIES_BY_SLUG[limits["catalog_slug"]].label, source)
            return
        if slug in SPECIES_BY_SLUG and limits is None:
            self.sheet["species"] = slug
            self.notes.place("Species", SPECIES_BY_SLUG[slug].label, source)
            return
        self.sheet["species"] = CUSTOM_SPECIES
        custom = self.sheet["custom_species"]
        custom["name"] = name
        if limits is not None:
            for part in ("minimum", "maximum"):
                custom[part] = dict(limits[part])
            custom["move"], custom["move_max"] = limits["move"], limits["move_max"]
            custom["compendium"] = limits.get("compendium")
            self.notes.place("Species", f"{name} ({limits.get('origin', 'its limits')})", source)
        else:
            self.notes.place("Species", name, source)
            self.notes.drop(
                f"species “{name}”'s limits",
                "not in your compendium: the name is kept with human limits; set them on the sheet",
            )

    def info(self, field: str, value: str, limit: int, label: str, source: str) -> None:
        if value:
            self.sheet["info"][field] = value[:limit]
            self.notes.place(label, value if len(value) <= 60 else value[:57] + "…", source)

    def weapon(self, name: str, damage: str, range_: str, ammo: str, source: str) -> None:
        name = line(name, NAME_LIMIT, self.notes, "weapon name")
        if not name:
            return
        if len(self.sheet["weapons"]) >= MAX_WEAPONS:
            self.equip(f"{name} (damage {damage})" if damage else name, source)
            self.notes.drop(
                f"weapon “{name}”", f"a sheet has {MAX_WEAPONS} weapon lines: kept in Equipment"
            )
            return
        row = {"name": name, "compendium": None}
        for key, value in (("damage", damage), ("range", range_), ("ammo", ammo)):
            limit = WEAPON_TEXT_LIMITS[key]
            row[key] = line(value, limit, self.notes, f"weapon “{name}” {key}")
        self.sheet["weapons"].append(row)
        self.notes.place(
            "Weapon", " · ".join(v for v in (name, row["damage"], row["range"]) if v), source
        )

    def equip(self, text: str, source: str) -> None:
        text = " ".join(plain(text).split())
        if text:
            self.equipment.append(text)
            self.notes.place("Equipment", text, source)

    def credits(self, value: int, source: str) -> None:
        if not 0 <= value <= MAX_CREDITS:
            raise FormatRefused(f"{source}: {value} credits is out of range (0 to {MAX_CREDITS}).")
        self.sheet["gear"]["credits"] = value
        self.notes.place("Credits", value, source)

    def finish(self) -> dict:
        text = "\n".join(self.equipment)
        if len(text) > EQUIPMENT_TEXT_LIMIT:
            self.notes.drop(
                f"equipment past {EQUIPMENT_TEXT_LIMIT} characters",
                "the sheet's field is full: cut",
            )
            text = text[:EQUIPMENT_TEXT_LIMIT]
        self.sheet["gear"]["equipment"] = text
        force = self.sheet["force"]
        if any(force[s] for s in FORCE_SKILL_SLUGS) or force["powers"]:
            force["sensitive"] = True
        try:
            return validate_sheet(self.sheet)
        except (InvalidSheet, InvalidEdit) as error:
            raise FormatRefused(f"The sheet made from this file is not valid: {error}") from None
