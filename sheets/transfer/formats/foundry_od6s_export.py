"""A WEG d6 sheet as a Foundry VTT OD6S actor (OpenD6 Space 3.0.0, system `nonex-ist-od6s`).

The fields are those of the system's data models (src/module/data/actor/character.ts and
npc.ts, item/skill.ts, specialization.ts, manifestation.ts, weapon.ts, gear.ts; checked in
tests/transfer/test_export_foundry.py against tests/fixtures/formats/od6s_model.json), and
they are written the way the OD6S reader (foundry_od6s.py) reads them, so the file comes
back as the same sheet less what `Export.lost` lists: a skill's `base` is its pips above
the attribute, a specialization's too (above the attribute, not the skill), Control, Sense
and Alter are skills under `met` with the attribute at 0, Dark Side Points sit in `custom1`
by the Star Wars convention and the wound index follows the Star Wars deadliness table.
"""

from __future__ import annotations

import hashlib
import html
import re
from typing import Any

from rulesets.core.diecode import DieCode, DieCodeError
from rulesets.core.rows import Stage
from rulesets.weg_d6.data import (
    CUSTOM_SPECIES,
    DESCRIPTION_LIMIT,
    EDITION_LABELS,
    EDITION_RE,
    FORCE_SKILL_LABELS,
    FORCE_SKILL_SLUGS,
    NAME_LIMIT,
    POWER_BY_SLUG,
    SKILL_BY_SLUG,
    SPECIES_BY_SLUG,
)
from rulesets.weg_d6.sheet import WegSheet
from rulesets.weg_d6.traits import slugify
from sheets.transfer.formats.base import Notes, block, line, plain, shown
from sheets.transfer.formats.exporting import Export, cut
from sheets.transfer.formats.foundry_od6s import ATTRIBUTES, WOUNDS
from sheets.transfer.formats.weg import catalog_skill, force_skill

KEY = "foundry_od6s"
LABEL = "Foundry OD6S actor"
SUFFIX = ".od6s.json"
SYSTEM = "weg_d6"
SYSTEM_ID = "nonex-ist-od6s"
SYSTEM_VERSION = "3.0.0"
CORE_VERSION = "14.363"
ABBREVIATION = {slug: key for key, slug in ATTRIBUTES.items()}
# OD6S's Force skills use the metaphysics attribute, kept at 0D in a Star Wars world.
FORCE_ATTRIBUTE = "met"
# OD6S's manifestation skills by Datapad's Force skill (channel is Control, transform Alter).
MANIFESTATION_SKILLS = {"control": "channel", "sense": "sense", "alter": "transform"}
_POWER_BY_LABEL = {power.label.casefold(): slug for slug, power in POWER_BY_SLUG.items()}
_NUMERAL = re.compile(r"0|[1-9]\d{0,8}")
_STRENGTH_PLUS = re.compile(r"(?i)\s*(str|strength)\s*\+\s*(.+)")


def foundry_id(*parts: Any) -> str:
    """A Foundry document id (16 letters and digits), the same for the same parts."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return "".join(letters[b % len(letters)] for b in digest[:16])


def _html(text: str) -> str:
    """Plain text as the HTML an OD6S rich-text field holds, one <p> per line."""
    return "".join(f"<p>{html.escape(part, quote=False)}</p>" for part in text.split("\n"))


SPACING = "the OD6S reader keeps one space between words"


def _spoken(text: str) -> str:
    """A name as the OD6S reader keeps it: printable, one space between words."""
    return " ".join(plain(text).split())


def _power_found(name: str) -> str:
    """The key the OD6S reader gives a Force power of that name (WegBuilder.power)."""
    spoken = _spoken(name)
    found = slugify(spoken)
    return found if found in POWER_BY_SLUG else _POWER_BY_LABEL.get(spoken.casefold(), found)


def _code(text: str) -> int | None:
    """The pips of `text` when it is exactly a die code the reader writes back the same."""
    try:
        pips = DieCode.parse(text).total_pips
    except (DieCodeError, ValueError):
        return None
    # A score of 0 is read as no damage at all.
    return pips if pips and shown(pips) == text else None


def export(sheet: dict, name: str) -> Export:
    """`sheet` (validated WEG d6) as an OD6S actor named `name`, with what it cannot hold."""
    npc = sheet["role"] == "npc" or sheet["kind"] == "droid"
    actor_type = "npc" if npc else "character"
    system: dict[str, Any] = {}
    out = Export(
        KEY,
        LABEL,
        SUFFIX,
        {
            "name": name,
            "type": actor_type,
            "system": system,
            "items": [],
            "effects": [],
            "flags": {},
            "_stats": {
                "systemId": SYSTEM_ID,
                "systemVersion": SYSTEM_VERSION,
                "coreVersion": CORE_VERSION,
            },
        },
    )
    _whole_sheet(sheet, out, npc)
    system["attributes"] = {
        ABBREVIATION[slug]: {"base": pips} for slug, pips in sheet["attributes"].items()
    }
    system["move"] = {"value": sheet["move"]}
    system["characterpoints"] = {"value": sheet["points"]["character"]}
    system["fatepoints"] = {"value": sheet["points"]["force"]}
    dark_side = str(sheet["points"]["dark_side"])
    # A character's custom1 is a bare string in character.ts; an NPC's is {value} (common.ts).
    system["custom1"] = {"value": dark_side} if npc else dark_side
    system["wounds"] = {"value": WOUNDS.index(sheet["wound"])}
    system["credits"] = {"value": sheet["gear"]["credits"]}
    if not npc:
        system["metaphysicsextranormal"] = {"value": bool(sheet["force"]["sensitive"])}
    _words(sheet, system, out)
    _skills(sheet, out)
    _force(sheet, out, npc)
    _weapons(sheet, out)
    _equipment(sheet, out)
    return out


# The sheet's parts this exporter writes or lists; any other part the schema gains is listed
# as not written until it is mapped, so the list stays exact.
HANDLED = frozenset(
    {
        "schema_version", "stage", "edition", "kind", "role", "info", "species",
        "custom_species", "alien_template", "attributes", "move", "skills", "custom_skills",
        "specializations", "force", "points", "teacher", "interval", "wound", "droid",
        "weapons", "gear", "stuns",
    }
)  # fmt: skip


def _whole_sheet(sheet: dict, out: Export, npc: bool) -> None:
    blank = WegSheet().model_dump(mode="json")
    if sheet.get("dark_side") is not None:
        out.lose(
            "this adventure's calls on the Dark Side and atonement",
            "OD6S keeps no such record",
            "dark_side",
        )
    for key in sorted(set(sheet) - HANDLED - {"dark_side"}):
        if sheet[key] != blank.get(key):
            out.lose(f"the sheet's “{key}”", "not written to OD6S", key)
    if sheet.get("stuns"):
        count = len(sheet["stuns"])
        out.lose(
            f"{count} stun result{'s' if count > 1 else ''} still counting (1E, 003:438)",
            "an OD6S actor keeps its wound level only: the Stunned level goes, not the count",
            "stuns",
        )
    if sheet["stage"] != Stage.PLAY.value:
        out.lose(
            f"the stage ({sheet['stage']})",
            "an OD6S actor has no creation stage: it comes back as a character in play",
            "stage",
        )
    if sheet["edition"] != EDITION_RE:
        out.lose(
            f"the edition ({EDITION_LABELS[sheet['edition']]})",
            "an OD6S actor names no edition: it comes back as R&E",
            "edition",
        )
    if sheet["kind"] == "droid":
        out.lose("being a droid", "OD6S has no droid actor: it is written as an NPC", "kind")
    if sheet["droid"] != blank["droid"]:
        out.lose("the droid's speed, armor and equipment", "an OD6S NPC has no place", "droid")
    if sheet["role"] == "pc" and npc:
        out.lose("being a player character", "written as an OD6S NPC", "role")
    if sheet.get("alien_template") is not None:
        out.lose("the 1E alien template", "OD6S has no place for it", "alien_template")
    if sheet["teacher"] != blank["teacher"]:
        out.lose("the Force teacher's codes", "OD6S has no place for them", "teacher")
    if sheet["interval"]:
        out.lose(
            f"the raises of this interval ({len(sheet['interval'])})",
            "OD6S keeps no advancement in progress",
            "interval",
        )
    custom = sheet["custom_species"]
    if sheet["species"] != CUSTOM_SPECIES and custom != blank["custom_species"]:
        out.lose(
            "the sheet's own species, not in use",
            "an OD6S actor names the species it has only",
            "custom_species",
        )
    elif sheet["species"] == CUSTOM_SPECIES:
        # A picked species carries keys a blank sheet leaves out (its compendium mark, its
        # special abilities and story factors): absent there means not the blank's.
        plain = blank["custom_species"]
        changed = [key for key in custom if key != "name" and custom[key] != plain.get(key)]
        limits = [key for key in changed if key in plain]
        words = [key for key in changed if key not in plain]
        if limits:
            out.lose(
                "the species' attribute limits and Move",
                "an OD6S actor names its species only: it comes back with human limits",
                *(f"custom_species.{key}" for key in limits),
            )
        if words:
            out.lose(
                "the species' compendium mark, special abilities and story factors",
                "an OD6S actor names its species only",
                *(f"custom_species.{key}" for key in words),
            )


def _words(sheet: dict, system: dict, out: Export) -> None:
    info = sheet["info"]
    species = (
        SPECIES_BY_SLUG[sheet["species"]].label
        if sheet["species"] in SPECIES_BY_SLUG
        else sheet["custom_species"]["name"]
    )
    system["species"] = {"content": species}
    read_back = line(species, NAME_LIMIT, Notes(), "species", html_text=True)
    if sheet["species"] == CUSTOM_SPECIES and (
        read_back != species or slugify(read_back) in SPECIES_BY_SLUG or not read_back
    ):
        out.lose(
            f"the species “{cut(species)}”",
            "its name reads back otherwise (as HTML, on one line, or as a species of the catalog)",
            "species",
            "custom_species",
        )
    system["chartype"] = {"content": info["template"]}
    if line(info["template"], 200, Notes(), "template", html_text=True) != info["template"]:
        out.lose("the template's exact text", "OD6S reads it as HTML", "info.template")
    system["description"] = {"content": _html(info["description"])}
    description = block(_html(info["description"]), DESCRIPTION_LIMIT, Notes(), "d", html_text=True)
    if description != info["description"]:
        out.lose(
            "the description's spacing", "OD6S keeps it as HTML paragraphs", "info.description"
        )
    for key, label in (
        ("player", "player"),
        ("physical", "physical description"),
        ("quote", "quote"),
    ):
        if info[key]:
            out.lose(f"the {label}", "an OD6S actor has no field for it", f"info.{key}")
    if info.get("compendium") is not None:
        out.lose(
            "where the template was picked from", "OD6S keeps no compendium link", "info.compendium"
        )


def _item(out: Export, kind: str, name: str, system: dict) -> None:
    items = out.document["items"]
    items.append(
        {
            "_id": foundry_id(out.document["name"], kind, len(items), name),
            "name": name,
            "type": kind,
            "system": system,
            "effects": [],
            "flags": {},
        }
    )


def _landing(custom: dict) -> tuple[str | None, str]:
    """Where the OD6S reader files a skill of the sheet's own, and the name it keeps: a
    Force skill, the catalog's skill of that name, or the sheet's own under a key made
    from the name (WegBuilder.skill and skill_key)."""
    name = " ".join(custom["name"].split())
    if force_skill(name) is not None:
        return force_skill(name), name
    if custom["advanced"]:
        bare = name.removeprefix("(A)").strip()
        slug = catalog_skill(f"(A) {bare}")
        if slug is not None and SKILL_BY_SLUG[slug].advanced:
            return slug, name
        return (f"advanced_{slugify(bare)}" if slugify(bare) else None), f"(A) {bare}"
    slug = catalog_skill(name)
    return (slug, name) if slug is not None else (slugify(name) or None, name)


def _parent_name(parent: str, customs: dict) -> str:
    return SKILL_BY_SLUG[parent].label if parent in SKILL_BY_SLUG else customs[parent]["name"]


def _found_by_name(name: str) -> str | None:
    """The skill the OD6S reader gives a specialization of skill `name`: by name, never
    an advanced one (WegBuilder.specialization)."""
    spoken = _spoken(name)
    return catalog_skill(spoken) or slugify(spoken) or None


def _skills(sheet: dict, out: Export) -> None:
    attributes = sheet["attributes"]
    customs = sheet["custom_skills"]
    for key, pips in sheet["skills"].items():
        if key in SKILL_BY_SLUG:
            skill = SKILL_BY_SLUG[key]
            name, attribute, advanced = skill.label, skill.attribute, skill.advanced
        else:
            custom = customs[key]
            name, attribute, advanced = custom["name"], custom["attribute"], custom["advanced"]
        base = pips if advanced else pips - attributes[attribute]
        system = {"attribute": ABBREVIATION[attribute], "base": base}
        if advanced:
            system["isAdvancedSkill"] = True
        _item(out, "skill", name, system)
    landing = {key: _landing(custom) for key, custom in customs.items()}
    parents = {special["skill"] for special in sheet["specializations"].values()}
    for key, custom in customs.items():
        lands, name = landing[key]
        if lands == key and name == custom["name"]:
            # Another skill of the same name, written, brings this one's key back.
            written = {
                landing[other][0]
                for other in customs
                if other != key and (other in sheet["skills"] or other in parents)
            } | {
                _found_by_name(_parent_name(special["skill"], customs))
                for special in sheet["specializations"].values()
            }
            if key not in sheet["skills"] and key not in parents and key not in written:
                out.lose(
                    f"the untrained skill “{cut(custom['name'])}”",
                    "an OD6S skill item has a code: only trained skills are written",
                    f"custom_skills.{key}",
                )
            for part in ("prerequisite", "compendium"):
                if custom.get(part) is not None:
                    out.lose(
                        f"the skill “{cut(custom['name'])}”'s {part}",
                        "an OD6S skill has no place for it",
                        f"custom_skills.{key}.{part}",
                    )
            continue
        where = (
            (f"force.{lands}", "force.sensitive")
            if lands in FORCE_SKILL_SLUGS
            else (f"custom_skills.{lands}", f"skills.{lands}")
            if lands
            else ()
        )
        out.lose(
            f"the skill “{cut(custom['name'])}” as the sheet's own",
            "OD6S names a skill only: it comes back under its name, as the skill of that name",
            f"custom_skills.{key}",
            f"skills.{key}",
            *where,
            *(
                f"specializations.{spec_key}"
                for spec_key, special in sheet["specializations"].items()
                if special["skill"] == key
            ),
        )
    taken: set[str] = set()
    for key, special in sheet["specializations"].items():
        parent = special["skill"]
        if parent in SKILL_BY_SLUG:
            parent_name, attribute = SKILL_BY_SLUG[parent].label, SKILL_BY_SLUG[parent].attribute
        else:
            parent_name, attribute = customs[parent]["name"], customs[parent]["attribute"]
        _item(
            out,
            "specialization",
            special["name"],
            {
                "skill": parent_name,
                "attribute": ABBREVIATION[attribute],
                "base": special["pips"] - sheet["attributes"][attribute],
            },
        )
        remade = base = slugify(special["name"]) or "specialization"
        number = 2
        while remade in taken:
            remade, number = f"{base}_{number}", number + 1
        taken.add(remade)
        found = _found_by_name(parent_name)
        if found != parent and not (parent in customs and landing[parent][0] == found):
            out.lose(
                f"the specialization “{cut(special['name'])}” of “{cut(parent_name)}”",
                "the OD6S reader finds its skill by name and does not find this one",
                f"specializations.{key}",
                f"specializations.{remade}",
                *((f"custom_skills.{found}",) if found and found not in SKILL_BY_SLUG else ()),
            )
        if _spoken(special["name"]) != special["name"]:
            out.lose(
                f"the spacing of the specialization “{cut(special['name'])}”'s name",
                SPACING,
                f"specializations.{key}",
                f"specializations.{remade}",
            )
        if remade != key:
            out.lose(
                f"the key of the specialization “{cut(special['name'])}”",
                "OD6S names a specialization only: Datapad makes its key from the name again",
                f"specializations.{key}",
                f"specializations.{remade}",
            )
        elif special.get("compendium") is not None:
            out.lose(
                f"where the specialization “{cut(special['name'])}” was picked from",
                "OD6S keeps no compendium link",
                f"specializations.{key}.compendium",
            )


def _force(sheet: dict, out: Export, npc: bool) -> None:
    force = sheet["force"]
    for slug in FORCE_SKILL_SLUGS:
        if force[slug]:
            _item(
                out,
                "skill",
                FORCE_SKILL_LABELS[slug],
                {"attribute": FORCE_ATTRIBUTE, "base": force[slug]},
            )
    for slug in force["powers"]:
        custom = force["custom_powers"].get(slug)
        if custom is None:
            name, skills = POWER_BY_SLUG[slug].label, POWER_BY_SLUG[slug].skills
        else:
            name, skills = custom["name"], custom["skills"]
            spoken, found = _spoken(name), _power_found(name)
            if found != slug or spoken != name:
                out.lose(
                    f"the Force power “{cut(name)}” as the sheet's own",
                    "OD6S names a power only: it comes back under its name (one of the "
                    "catalog's if the name is)",
                    "force.powers",
                    f"force.custom_powers.{slug}",
                    *((f"force.custom_powers.{found}",) if found else ()),
                )
            elif list(skills) != [s for s in FORCE_SKILL_SLUGS if s in skills]:
                out.lose(
                    f"the order of the Force power “{cut(name)}”'s skills",
                    "OD6S marks each skill: they come back as Control, Sense, Alter",
                    f"force.custom_powers.{slug}.skills",
                )
            if custom.get("compendium") is not None:
                out.lose(
                    f"where the Force power “{cut(name)}” was picked from",
                    "OD6S keeps no compendium link",
                    f"force.custom_powers.{slug}.compendium",
                )
        _item(
            out,
            "manifestation",
            name,
            {
                "skills": {
                    MANIFESTATION_SKILLS[skill]: {"value": skill in skills}
                    for skill in FORCE_SKILL_SLUGS
                }
            },
        )
    # A taken power of the same name brings an untaken one's key back.
    landed = {
        _power_found(force["custom_powers"][taken]["name"])
        for taken in force["powers"]
        if taken in force["custom_powers"]
    }
    for slug in set(force["custom_powers"]) - set(force["powers"]) - landed:
        out.lose(
            f"the Force power “{cut(force['custom_powers'][slug]['name'])}” not taken",
            "OD6S lists the powers an actor has",
            f"force.custom_powers.{slug}",
        )
    for part, what in (
        ("power_picks", "the Force power picks"),
        ("power_picks_spent", "the picks each power used"),
    ):
        if force[part]:
            out.lose(what, "OD6S has no place for them", f"force.{part}")
    has_force = any(force[s] for s in FORCE_SKILL_SLUGS) or force["powers"]
    if not force["sensitive"] and has_force:
        out.lose(
            "Force-sensitive: no",
            "an actor with Force skills reads back as Force-sensitive",
            "force.sensitive",
        )
    elif npc and force["sensitive"] and not has_force:
        out.lose("Force-sensitive", "an OD6S NPC has no such mark", "force.sensitive")


def _weapons(sheet: dict, out: Export) -> None:
    for index, weapon in enumerate(sheet["weapons"]):
        name = weapon["name"]
        read = _spoken(name)
        if not read:
            out.lose(
                f"a weapon without a name (“{cut(name, 10)}”)",
                "an OD6S item needs a name: it is not written",
                "weapons",
            )
            continue
        if read != name:
            out.lose(
                f"the spacing of the weapon “{cut(read)}”'s name", SPACING, f"weapons.{index}.name"
            )
        system: dict[str, Any] = {}
        damage = weapon["damage"]
        pips = _code(damage) if damage else None
        strength = _STRENGTH_PLUS.fullmatch(damage) if damage else None
        if pips is not None:
            system["damage"] = {"score": pips}
        elif strength is not None and _code(strength.group(2).strip()) is not None:
            # A muscle-powered weapon: Strength plus the score (weapon.ts `damage.muscle`).
            system["damage"] = {"score": _code(strength.group(2).strip()), "muscle": True}
        written = system.get("damage", {})
        back = (
            ("STR+" if written.get("muscle") else "") + shown(written["score"]) if written else ""
        )
        if damage != back:
            out.lose(
                f"the weapon “{cut(name)}”'s damage “{cut(damage, 20)}”",
                f"OD6S keeps damage as dice and a Strength flag: it comes back as “{back}”"
                if back
                else "OD6S keeps damage as dice (and a Strength flag) only",
                f"weapons.{index}.damage",
            )
        ranges = weapon["range"].split("/") if weapon["range"] else []
        if ranges and len(ranges) <= 3 and all(_NUMERAL.fullmatch(r) for r in ranges):
            system["range"] = dict(zip(("short", "medium", "long"), ranges, strict=False))
        elif ranges:
            out.lose(
                f"the weapon “{cut(name)}”'s range “{cut(weapon['range'], 20)}”",
                "OD6S keeps three range numbers (short, medium, long)",
                f"weapons.{index}.range",
            )
        ammo = weapon["ammo"]
        if ammo and _NUMERAL.fullmatch(ammo) and ammo != "0":
            system["ammo"] = int(ammo)
        elif ammo:
            out.lose(
                f"the weapon “{cut(name)}”'s ammo “{cut(ammo, 20)}”",
                "OD6S keeps ammo as a number",
                f"weapons.{index}.ammo",
            )
        if weapon.get("compendium") is not None:
            out.lose(
                f"where the weapon “{cut(name)}” was picked from",
                "OD6S keeps no compendium link",
                f"weapons.{index}.compendium",
            )
        _item(out, "weapon", name, system)


def _equipment(sheet: dict, out: Export) -> None:
    text = sheet["gear"]["equipment"]
    rows = [" ".join(plain(part).split()) for part in text.split("\n")]
    rows = [row for row in rows if row]
    for row in rows:
        _item(out, "gear", row, {"quantity": 1})
    if "\n".join(rows) != text:
        out.lose(
            "the equipment's blank lines and spacing",
            "each line becomes an OD6S gear item",
            "gear.equipment",
        )
    if sheet["gear"].get("compendium"):
        out.lose(
            "where the equipment was picked from",
            "OD6S keeps no compendium link",
            "gear.compendium",
        )
