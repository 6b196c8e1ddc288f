"""An SWd10 sheet as a Foundry VTT World of Darkness 20th actor (system `worldofdarkness`
7.2.5, the `PC` actor).

The fields are those of the system's data models (module/actor/datamodel/
pc-actor-datamodel.js with base/actor_attributes.js and actor_health.js;
module/items/datamodel/ability-item-datamodel.js and advantage-item-datamodel.js; checked
in tests/transfer/test_export_foundry.py against tests/fixtures/formats/wod20_model.json),
written the way the WoD20 reader (foundry_wod20.py) reads them: the nine attributes are
the same, each ability is an `Ability` item named by its SWd10 label in its talent, skill
or knowledge group, a named lore is a knowledge of that name, Willpower is an `Advantage`
item and the marked health boxes are bashing damage. What WoD20 has no field for (Power,
the Force, merits, languages, weapons...) is written as text in the biography and gear
notes, for the table to read, and listed in `Export.lost`: the reader does not take it back.
"""

from __future__ import annotations

import html
from typing import Any

from rulesets.core.rows import Stage
from rulesets.swd10.armor import KINDS
from rulesets.swd10.data import (
    ABILITIES,
    ATTRIBUTES,
    CUSTOM_LORES,
    FORCE_ABILITY_BY_SLUG,
    FORCE_KNOWLEDGES,
    MERIT_BY_SLUG,
    WEAPON_TECHNIQUES_BY_SKILL,
)
from rulesets.swd10.rules import health_track
from rulesets.swd10.sheet import SCHEMA
from sheets.transfer.formats.base import Notes, line
from sheets.transfer.formats.exporting import Export, cut
from sheets.transfer.formats.foundry_od6s_export import foundry_id
from sheets.transfer.formats.foundry_wod20 import _slug

KEY = "foundry_wod20"
LABEL = "Foundry WoD20 actor"
SUFFIX = ".wod20.json"
SYSTEM = "swd10"
SYSTEM_ID = "worldofdarkness"
SYSTEM_VERSION = "7.2.5"
CORE_VERSION = "14"
GROUPS = {"talents": "talent", "skills": "skill", "knowledges": "knowledge"}
# The reader keeps 40 characters of a lore's name and the part after its last dot.
LORE_NAME_READ = 40


def _html(lines: list[str]) -> str:
    return "".join(f"<p>{html.escape(text, quote=False)}</p>" for text in lines)


def export(sheet: dict, name: str) -> Export:
    """`sheet` (validated SWd10) as a WoD20 PC actor named `name`, with what it cannot hold."""
    blank = SCHEMA().model_dump(mode="json")
    items: list[dict] = []
    notes: list[str] = []
    gear: list[str] = []
    system: dict[str, Any] = {
        "attributes": {
            trait.slug: {"value": sheet["attributes"][trait.slug]} for trait in ATTRIBUTES
        },
        "bio": {
            "name": name,
            "nature": sheet["info"]["nature"],
            "demeanor": sheet["info"]["demeanor"],
        },
        "health": {"damage": {"bashing": sheet["health_marked"]}},
    }
    out = Export(
        KEY,
        LABEL,
        SUFFIX,
        {
            "name": name,
            "type": "PC",
            "system": system,
            "items": items,
            "effects": [],
            "flags": {},
            "_stats": {
                "systemId": SYSTEM_ID,
                "systemVersion": SYSTEM_VERSION,
                "coreVersion": CORE_VERSION,
            },
        },
    )

    def item(kind: str, item_name: str, body: dict) -> None:
        items.append(
            {
                "_id": foundry_id(name, kind, len(items), item_name),
                "name": item_name,
                "type": kind,
                "system": body,
                "effects": [],
                "flags": {},
            }
        )

    _abilities(sheet, out, item)
    item(
        "Advantage",
        "Willpower",
        {
            "id": "willpower",
            "label": "wod.advantages.willpower",
            "permanent": sheet["willpower"],
            "temporary": sheet["willpower_current"],
        },
    )
    levels = len(health_track(blank, {}))
    if sheet["health_marked"] > levels:
        out.lose(
            f"health boxes past {levels}",
            "the reader marks at most a hero's track without merits",
            "health_marked",
        )
    if sheet["attributes"]["appearance"] == 0:
        out.lose(
            "Appearance 0 (the Monstrous flaw)",
            "WoD20 holds no flaws, and Datapad reads Appearance 0 back only with the flaw: "
            "it refuses this file until Appearance is raised in it",
            "attributes.appearance",
        )
    _stage(sheet, out)
    _unknown(sheet, blank, out)
    _info(sheet, blank, out, notes)
    _traits(sheet, blank, out, notes)
    _gear(sheet, out, gear)
    if notes:
        system["bio"]["notes"] = _html(notes)
    if gear:
        system["gear"] = {"notes": _html(gear)}
    return out


def _abilities(sheet: dict, out: Export, item: Any) -> None:
    for trait in ABILITIES:
        if trait.slug in CUSTOM_LORES:
            continue
        item(
            "Ability",
            trait.label,
            {
                "type": f"wod.abilities.{GROUPS[trait.group]}",
                "value": sheet["abilities"][trait.slug],
            },
        )
    # The reader fills the lores in order with the knowledges SWd10 lacks.
    landing = iter(CUSTOM_LORES)
    for slug in CUSTOM_LORES:
        lore, dots = sheet["lore_names"][slug], sheet["abilities"][slug]
        if not lore and not dots:
            continue
        # The reader keeps the part after the last dot, on one line, cut at 40.
        tail = lore.split(".")[-1]
        read_name = line(tail, LORE_NAME_READ, Notes(), "lore")
        if dots and read_name and not _slug(tail):
            item("Ability", lore, {"type": "wod.abilities.knowledge", "value": dots})
            lands = next(landing)
            if lands == slug and read_name == lore:
                continue
            paths = [
                f"{part}.{key}" for key in (slug, lands) for part in ("abilities", "lore_names")
            ]
            why = "read back into the first free lore, its name on one line after its last dot"
        else:
            paths = [f"abilities.{slug}", f"lore_names.{slug}"]
            why = "a WoD20 knowledge needs a name of its own (not an SWd10 ability's) and dots"
        out.lose(f"the lore “{cut(lore or 'unnamed')}” ({dots})", why, *paths)


# The sheet's parts this exporter writes or lists; any other part the schema gains is listed
# as not written until it is mapped, so the list stays exact.
HANDLED = frozenset(
    {
        "schema_version", "stage", "info", "priorities", "attributes", "abilities",
        "lore_names", "force_knowledges", "power", "power_current", "willpower",
        "willpower_current", "light_side", "dark_side", "health_marked", "merits",
        "force_abilities", "languages", "techniques", "weapons", "armor", "swse_level",
        "baseline",
    }
)  # fmt: skip


def _unknown(sheet: dict, blank: dict, out: Export) -> None:
    for key in sorted(set(sheet) - HANDLED):
        if sheet[key] != blank.get(key):
            out.lose(f"the sheet's “{key}”", "not written to WoD20", key)


def _stage(sheet: dict, out: Export) -> None:
    if sheet["stage"] != Stage.PLAY.value:
        out.lose(
            f"the stage ({sheet['stage']})",
            "a WoD20 actor has no creation stage: it comes back in play, its traits as "
            "its creation baseline",
            "stage",
            "baseline",
        )
        return
    baseline = sheet["baseline"]
    now = {
        "attributes": sheet["attributes"],
        "abilities": sheet["abilities"],
        "force_knowledges": dict.fromkeys(sheet["force_knowledges"], 0),
        "willpower": sheet["willpower"],
        "merits": {},
        "languages": [],
    }
    if baseline != now:
        out.lose(
            "the creation baseline (what XP has bought since)",
            "WoD20 keeps current dots only: they come back as the baseline",
            "baseline",
        )


def _info(sheet: dict, blank: dict, out: Export, notes: list[str]) -> None:
    info = sheet["info"]
    for key in ("nature", "demeanor"):
        if info[key] != " ".join(info[key].split())[:200]:
            out.lose(f"the {key}'s spacing", "read back as one line", f"info.{key}")
    for key, label in (
        ("player", "Player"),
        ("chronicle", "Chronicle"),
        ("species", "Species"),
        ("destiny", "Destiny"),
        ("passion", "Passion"),
        ("virtue", "Virtue"),
        ("destiny_points", "Destiny points"),
        ("experience", "Experience"),
    ):
        if info[key] != blank["info"][key]:
            notes.append(f"{label}: {info[key]}")
            out.lose(
                f"{label} ({cut(str(info[key]))})",
                "written in the biography notes; WoD20 has no field for it",
                f"info.{key}",
            )
    if info.get("compendium") is not None:
        out.lose(
            "where the species was picked from", "WoD20 keeps no compendium link", "info.compendium"
        )
    if sheet["priorities"] != blank["priorities"]:
        out.lose("the priorities of creation", "WoD20 keeps no priorities", "priorities")


def _traits(sheet: dict, blank: dict, out: Export, notes: list[str]) -> None:
    knowledges = [
        f"{k.name} {sheet['force_knowledges'][k.slug]}"
        for k in FORCE_KNOWLEDGES
        if sheet["force_knowledges"][k.slug]
    ]
    if knowledges:
        notes.append(f"Force knowledges: {', '.join(knowledges)}")
        out.lose(
            f"the Force knowledges ({', '.join(knowledges)})",
            "written in the biography notes; WoD20's knowledges would read back as lores",
            "force_knowledges",
        )
    for key, label in (
        ("power", "Power"),
        ("power_current", "Current Power"),
        ("light_side", "Light side"),
        ("dark_side", "Dark side"),
        ("swse_level", "SWSE level"),
    ):
        if sheet[key] != blank[key]:
            notes.append(f"{label}: {sheet[key]}")
            out.lose(
                f"{label} ({sheet[key]})",
                "written in the biography notes; WoD20 has no field for it",
                key,
            )
    rows = {
        "merits": [
            f"{MERIT_BY_SLUG[m['slug']].name} {m['value']}"
            + (f" ({m['choice']})" if m["choice"] else "")
            for m in sheet["merits"]
        ],
        "force_abilities": [FORCE_ABILITY_BY_SLUG[slug].name for slug in sheet["force_abilities"]],
        "languages": [
            language["name"]
            + (
                " (read" + (", write" if language["write"] else "") + ")"
                if language["read"]
                else ""
            )
            for language in sheet["languages"]
        ],
        "techniques": [
            WEAPON_TECHNIQUES_BY_SKILL[t["skill"]][t["slug"]].name
            + (f" ({t['kind']})" if t["kind"] else "")
            for t in sheet["techniques"]
        ],
    }
    labels = {
        "merits": "Merits and flaws",
        "force_abilities": "Force abilities",
        "languages": "Languages",
        "techniques": "Weapon techniques",
    }
    for key, shown_rows in rows.items():
        if shown_rows:
            notes.append(f"{labels[key]}: {', '.join(shown_rows)}")
            out.lose(
                f"{labels[key]} ({len(shown_rows)})",
                "written in the biography notes; the reader does not take them back",
                key,
            )


def _gear(sheet: dict, out: Export, gear: list[str]) -> None:
    for weapon in sheet["weapons"]:
        gear.append(
            f"{weapon['name']}: difficulty {weapon['difficulty']}, rate {weapon['rate'] or '-'}, "
            f"damage {weapon['damage']}"
        )
    kinds = dict(KINDS)
    for row in sheet["armor"]:
        worn = ", worn" if row["worn"] else ""
        lost = f", {row['lost']} lost" if row["lost"] else ""
        gear.append(f"{row['name']} ({kinds[row['kind']].lower()} {row['rating']}{lost}{worn})")
    for key, label in (("weapons", "Weapons"), ("armor", "Armor and shields")):
        if sheet[key]:
            out.lose(
                f"{label} ({len(sheet[key])})",
                "written in the gear notes; WoD20's weapon items are not read back",
                key,
            )
