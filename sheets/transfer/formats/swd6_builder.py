"""1Bln21's swd6-character-generator `<name>.swd6.json` into WEG d6 (R&E).

Field by field from CHARACTER-FORMATS.md §1 (its app.js, `emptyChar()` and `attrTotal()`):
attributes are pips *above the species minimum* (`attrs` from creation plus `attrsCP`
bought with Character Points), so no value can be read without the species' minimums.
They come from the file's own `customSpecies` (species "Custom"), from the compendium
(the import service looks the name up and passes `species_limits`), or from the person
importing, who is asked for them (NeedsMinimums). A skill stores pips above its attribute
(`c` from the creation pool plus `cp`), a specialization too; an advanced skill "(A) ..."
is rolled without the attribute; the Force skills are totals.
"""

from __future__ import annotations

from typing import Any

from rulesets.weg_d6.data import DESCRIPTION_LIMIT, PHYSICAL_LIMIT, QUOTE_LIMIT
from sheets.transfer.formats.base import (
    NeedsMinimums,
    Notes,
    Reading,
    block,
    items,
    line,
    number,
    obj,
)
from sheets.transfer.formats.weg import SYSTEM, WegBuilder

KEY = "swd6_builder"
LABEL = "1Bln21 SWD6 character generator file (.swd6.json)"
SHORT = {
    "dex": "dexterity",
    "kno": "knowledge",
    "mec": "mechanical",
    "per": "perception",
    "str": "strength",
    "tec": "technical",
}
ORDER = ("dex", "kno", "mec", "per", "str", "tec")
KNOWN = frozenset(
    {
        "version",
        "info",
        "attrs",
        "attrsCP",
        "skills",
        "extraSkills",
        "force",
        "forceCP",
        "powers",
        "points",
        "customSpecies",
        "equipment",
        "armor",
        "armorWorn",
        "melee",
        "ranged",
        "explosives",
        "sabers",
        "credits",
        "notes",
        "overrides",
        "customGear",
        "customArmor",
        "customMelee",
        "customRanged",
        "customExplosives",
    }
)
ADVANCED = "(A) "


def detect(data: Any) -> bool:
    # The builder's own import asks for exactly these two (importChar()).
    return (
        isinstance(data, dict)
        and isinstance(data.get("info"), dict)
        and isinstance(data.get("attrs"), dict)
    )


def species_name(data: dict) -> str:
    info = data.get("info") or {}
    name = str(info.get("species") or "").strip()
    if name == "Custom":
        custom = data.get("customSpecies") or {}
        return str(custom.get("name") or "Custom").strip() if isinstance(custom, dict) else name
    return name


def _custom_limits(data: dict) -> dict | None:
    custom = data.get("customSpecies")
    if str((data.get("info") or {}).get("species")) != "Custom" or not isinstance(custom, dict):
        return None
    mins, maxs = custom.get("mins"), custom.get("maxs")
    if not isinstance(mins, list) or len(mins) != 6:
        return None
    maxs = maxs if isinstance(maxs, list) and len(maxs) == 6 else [m + 6 for m in mins]
    move = number(custom.get("move"), "customSpecies.move", 0, 99, empty=10)
    return {
        "minimum": {
            SHORT[k]: number(v, f"customSpecies.mins.{i}", 0, 180)
            for i, (k, v) in enumerate(zip(ORDER, mins, strict=True))
        },
        "maximum": {
            SHORT[k]: number(v, f"customSpecies.maxs.{i}", 0, 180)
            for i, (k, v) in enumerate(zip(ORDER, maxs, strict=True))
        },
        "move": move,
        "move_max": move + 2,
        "origin": "the file's own species",
    }


def read(data: dict, *, species_limits: dict | None = None, **_: Any) -> Reading:
    notes = Notes()
    notes.unknown_keys("", data, KNOWN)
    info = obj(data.get("info"), "info")
    name = line(info.get("name"), 100, notes, "name") or "Imported character"
    species = species_name(data)
    limits = _custom_limits(data) or species_limits
    if limits is None:
        raise NeedsMinimums(species or "(no species)")
    sheet = WegBuilder(notes)
    if species:
        sheet.species(species, limits, "info.species")
    attrs, bought = obj(data.get("attrs"), "attrs"), obj(data.get("attrsCP"), "attrsCP")
    totals: dict[str, int] = {}
    for short in ORDER:
        slug = SHORT[short]
        base = limits["minimum"][slug]
        above = number(attrs.get(short), f"attrs.{short}", -180, 180)
        paid = number(bought.get(short), f"attrsCP.{short}", 0, 180)
        totals[short] = base + above + paid
        sheet.attribute(
            slug,
            totals[short],
            f"species minimum {base} + attrs.{short} {above} + attrsCP.{short} {paid}",
        )
    extras = {}
    for index, extra in enumerate(items(data.get("extraSkills"), "extraSkills")):
        extra = obj(extra, f"extraSkills.{index}")
        extras[str(extra.get("name") or "")] = extra
    for key, value in obj(data.get("skills"), "skills").items():
        where = f"skills.{key}"
        short, _, skill = str(key).partition("|")
        if short not in SHORT or not skill:
            notes.drop(where, "not “<attribute>|<skill>”: not read")
            continue
        value = obj(value, where)
        extra = extras.get(skill, {})
        adds = (
            number(value.get("c"), f"{where}.c", 0, 180)
            + number(value.get("cp"), f"{where}.cp", 0, 180)
            + number(extra.get("sb"), f"extraSkills “{skill}”.sb", 0, 180)
        )
        if adds == 0:
            continue
        advanced = skill.startswith(ADVANCED) or bool(extra.get("adv"))
        if skill.startswith(ADVANCED):
            skill = skill[len(ADVANCED) :]
            skill_name = f"(A) {skill}"
        else:
            skill_name = skill
        total = adds if advanced else totals[short] + adds
        parent = extra.get("spec")
        if isinstance(parent, str) and parent.strip():
            sheet.specialization(skill, parent, SHORT[short], total, f"{where} ({short} + {adds})")
        else:
            sheet.skill(
                skill_name,
                SHORT[short],
                total,
                f"{where} ({'advanced' if advanced else short} + {adds})",
                advanced=advanced,
            )
    force, force_cp = obj(data.get("force"), "force"), obj(data.get("forceCP"), "forceCP")
    for slug in ("control", "sense", "alter"):
        pips = number(force.get(slug), f"force.{slug}", 0, 180) + number(
            force_cp.get(slug), f"forceCP.{slug}", 0, 180
        )
        if pips:
            sheet.force_skill(slug, pips, f"force.{slug} + forceCP.{slug}")
    for index, power in enumerate(items(data.get("powers"), "powers")):
        sheet.power(str(power), None, f"powers.{index}")
    _points(data, info, limits, sheet, notes)
    _words(data, info, sheet, notes)
    _gear(data, sheet, notes)
    return Reading(KEY, LABEL, SYSTEM, name, sheet.finish(), notes, species=species)


def _points(data: dict, info: dict, limits: dict, sheet: WegBuilder, notes: Notes) -> None:
    points = obj(data.get("points"), "points")
    sensitive = bool(info.get("forceSensitive"))
    sheet.sensitive(sensitive, "info.forceSensitive")
    fp = points.get("fpCurrent")
    sheet.points(
        "force",
        (2 if sensitive else 1) if fp is None else number(fp, "points.fpCurrent"),
        "points.fpCurrent",
    )
    sheet.points("dark_side", number(points.get("dsp"), "points.dsp"), "points.dsp")
    earned = number(points.get("cpEarned"), "points.cpEarned")
    if earned:
        notes.drop(
            f"points.cpEarned {earned}",
            "the builder computes Character Points left from its own prices and stores none: "
            "the sheet starts at 0; set them by hand",
        )
    sheet.move(
        limits["move"] + number(points.get("moveImp"), "points.moveImp", 0, 99),
        "species move + points.moveImp",
    )
    if data.get("overrides"):
        notes.drop("overrides", "creation pool overrides of the builder: not kept")


def _words(data: dict, info: dict, sheet: WegBuilder, notes: Notes) -> None:
    sheet.info(
        "player", line(info.get("player"), 200, notes, "player"), 200, "Player", "info.player"
    )
    sheet.info(
        "template",
        line(info.get("occupation"), 200, notes, "occupation"),
        200,
        "Template",
        "info.occupation",
    )
    sheet.info(
        "quote",
        line(info.get("quote"), QUOTE_LIMIT, notes, "quote"),
        QUOTE_LIMIT,
        "Quote",
        "info.quote",
    )
    physical = [
        f"{label}: {text}"
        for key, label in (
            ("gender", "Gender"),
            ("planet", "Planet"),
            ("age", "Age"),
            ("height", "Height"),
            ("weight", "Weight"),
        )
        if (text := line(info.get(key), 100, notes, key))
    ]
    sheet.info(
        "physical",
        "; ".join(physical)[:PHYSICAL_LIMIT],
        PHYSICAL_LIMIT,
        "Physical description",
        "info.gender/planet/age/height/weight",
    )
    parts = [
        f"{label}: {text}" if label else text
        for key, label in (
            ("description", ""),
            ("history", "History"),
            ("personality", "Personality"),
            ("objectives", "Objectives"),
            ("raceNotes", "Species notes"),
        )
        if (text := block(info.get(key), DESCRIPTION_LIMIT, notes, key))
    ]
    if text := block(data.get("notes"), DESCRIPTION_LIMIT, notes, "notes"):
        parts.append(f"Notes: {text}")
    sheet.info(
        "description",
        block("\n\n".join(parts), DESCRIPTION_LIMIT, notes, "description"),
        DESCRIPTION_LIMIT,
        "Description",
        "info.description/history/personality/objectives/notes",
    )
    if info.get("portrait"):
        notes.drop("info.portrait", "a picture: upload it as the sheet's portrait")


def _gear(data: dict, sheet: WegBuilder, notes: Notes) -> None:
    for key in ("equipment", "explosives"):
        for name, quantity in obj(data.get(key), key).items():
            count = number(quantity, f"{key}.{name}", 0, 999_999, empty=1)
            sheet.equip(f"{name} ×{count}" if count > 1 else str(name), f"{key}.{name}")
    worn = {str(n) for n in items(data.get("armorWorn"), "armorWorn")}
    for index, name in enumerate(items(data.get("armor"), "armor")):
        sheet.equip(f"{name} (armor{', worn' if str(name) in worn else ''})", f"armor.{index}")
    for key in ("ranged", "melee"):
        for index, name in enumerate(items(data.get(key), key)):
            if isinstance(name, str):
                sheet.weapon(name, "", "", "", f"{key}.{index}")
    if data.get("ranged") or data.get("melee"):
        notes.drop(
            "weapon stats", "the builder keeps only names; its catalog's stats are not in the file"
        )
    for index, saber in enumerate(items(data.get("sabers"), "sabers")):
        saber = obj(saber, f"sabers.{index}")
        sheet.weapon(str(saber.get("name") or "Lightsaber"), "", "", "", f"sabers.{index}")
    for key in ("customGear", "customArmor", "customMelee", "customRanged", "customExplosives"):
        for index, row in enumerate(items(data.get(key), key)):
            row = obj(row, f"{key}.{index}")
            name = str(row.get("name") or "").strip()
            if key in ("customMelee", "customRanged") and name:
                ranges = row.get("ranges")
                sheet.weapon(
                    name,
                    str(row.get("dmg") or ""),
                    "/".join(map(str, ranges)) if isinstance(ranges, list) else str(ranges or ""),
                    str(row.get("ammo") or ""),
                    f"{key}.{index}",
                )
            elif name:
                extra = row.get("note") or row.get("qty")
                sheet.equip(f"{name} ({extra})" if extra else name, f"{key}.{index}")
    credits = obj(data.get("credits"), "credits")
    balance = (
        number(credits.get("earned"), "credits.earned")
        - number(credits.get("spentMisc"), "credits.spentMisc")
        - number(credits.get("spentShip"), "credits.spentShip")
    )
    if balance < 0:
        notes.drop(f"credits balance {balance}", "below zero: the sheet starts at 0")
        balance = 0
    sheet.credits(balance, "credits.earned − spentMisc − spentShip")
    loans = [
        loan
        for loan in items(credits.get("loans"), "credits.loans")
        if isinstance(loan, dict) and loan.get("amount")
    ]
    for loan in loans:
        sheet.equip(
            f"Loan: {loan.get('amount')} credits to {loan.get('to') or '?'} at "
            f"{loan.get('interest') or 0}%",
            "credits.loans",
        )
