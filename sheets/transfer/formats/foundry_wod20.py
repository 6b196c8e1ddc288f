"""Foundry VTT World of Darkness 20th actors (system `worldofdarkness`) into SWd10.

From CHARACTER-FORMATS.md §8 (JohanFalt/Foundry_WoD20's data models): the nine attributes
are dots under `attributes.<name>.value`; abilities are items of type "Ability" (`value`,
`speciality`, `type` talent/skill/knowledge) in the current actor, or
`abilities[.<group>].<name>.value` in the older shape; Willpower is an Advantage item, or
`advantages.willpower` before. SWd10 has the same nine attributes and many of the same
abilities, so those land by name; a knowledge SWd10 lacks takes one of its three named
lores while one is free; everything else is listed as having no SWd10 place.
"""

from __future__ import annotations

from typing import Any

from rulesets.core import InvalidEdit, InvalidSheet
from rulesets.core.rows import Stage
from rulesets.swd10.data import ABILITIES, ATTRIBUTES, CUSTOM_LORES, MAX_WILLPOWER
from rulesets.swd10.rules import health_track
from rulesets.swd10.sheet import SCHEMA, validate_sheet
from sheets.transfer.formats import foundry
from sheets.transfer.formats.base import FormatRefused, Notes, Reading, items, line, number, obj

KEY = "foundry_wod20"
LABEL = "Foundry VTT World of Darkness 20th actor"
SYSTEM = "swd10"
SYSTEM_ID = "worldofdarkness"
_ATTRIBUTE = {a.slug: a for a in ATTRIBUTES}
_ABILITY = {a.slug: a for a in ABILITIES if a.slug not in CUSTOM_LORES}
_ABILITY_BY_LABEL = {a.label.casefold(): a.slug for a in _ABILITY.values()}
ALIASES = {
    "gambling": "gamble",
    "animal ken": "animal_ken",
    "computers": "computer",
    "crafting": "crafts",
}
# WoD's two attributes of the later editions that SWd10 has no place for.
NO_PLACE_ATTRIBUTES = ("composure", "resolve")
KNOWN = frozenset(
    {
        "settings",
        "traits",
        "bio",
        "attributes",
        "abilities",
        "advantages",
        "soak",
        "health",
        "initiative",
        "conditions",
        "movement",
        "gear",
        "favoriterolls",
    }
)


def detect(data: Any) -> bool:
    if not foundry.is_actor(data):
        return False
    if foundry.system_id(data) == SYSTEM_ID:
        return True
    attributes = foundry.body(data).get("attributes")
    return isinstance(attributes, dict) and {"strength", "charisma", "wits"} <= set(attributes)


def _slug(name: str) -> str:
    key = "_".join(name.strip().lower().replace("-", " ").split())
    if key in _ABILITY:
        return key
    return _ABILITY_BY_LABEL.get(name.strip().casefold()) or ALIASES.get(
        name.strip().casefold(), ""
    )


def _abilities(data: dict, system: dict) -> list[tuple[str, Any, str, str, str]]:
    """(name, dots, speciality, group, where) of every ability, in either shape."""
    found = []
    for index, item in enumerate(items(data.get("items"), "items")):
        if isinstance(item, dict) and str(item.get("type", "")).lower() == "ability":
            body = foundry.body(item)
            name = str(item.get("name") or body.get("label") or "").split(".")[-1]
            group = str(body.get("type") or "").split(".")[-1]
            found.append(
                (
                    name,
                    body.get("value"),
                    str(body.get("speciality") or ""),
                    group,
                    f"items.{index}",
                )
            )
    legacy = system.get("abilities")
    if isinstance(legacy, dict):
        for key, value in legacy.items():
            if isinstance(value, dict) and "value" in value:
                found.append(
                    (
                        str(value.get("label") or key).split(".")[-1],
                        value.get("value"),
                        str(value.get("speciality") or ""),
                        str(value.get("type") or ""),
                        f"abilities.{key}",
                    )
                )
            elif isinstance(value, dict):
                for inner, entry in value.items():
                    if isinstance(entry, dict) and "value" in entry:
                        found.append(
                            (
                                str(entry.get("label") or inner).split(".")[-1],
                                entry.get("value"),
                                str(entry.get("speciality") or ""),
                                str(key),
                                f"abilities.{key}.{inner}",
                            )
                        )
    return found


def read(data: dict, **_: Any) -> Reading:
    notes = Notes()
    system = foundry.body(data)
    shape = "system" if isinstance(data.get("system"), dict) else "data"
    notes.unknown_keys(shape, system, KNOWN)
    name = line(data.get("name"), 100, notes, "name") or "Imported character"
    sheet: dict[str, Any] = SCHEMA().model_dump(mode="json")
    attributes = obj(system.get("attributes"), f"{shape}.attributes")
    for slug, trait in _ATTRIBUTE.items():
        where = f"{shape}.attributes.{slug}"
        entry = obj(attributes.get(slug), where)
        if "value" not in entry:
            raise FormatRefused(f"{where}.value is missing: the actor has no {trait.label}.")
        dots = number(entry.get("value"), f"{where}.value", 0, 10)
        if not (0 if slug == "appearance" else trait.minimum) <= dots <= trait.maximum:
            raise FormatRefused(
                f"{where}.value: {trait.label} {dots} is out of range for SWd10 "
                f"({trait.minimum} to {trait.maximum})."
            )
        sheet["attributes"][slug] = dots
        notes.place(trait.label, dots, f"{where}.value")
    for slug in NO_PLACE_ATTRIBUTES:
        entry = attributes.get(slug)
        if (
            isinstance(entry, dict)
            and number(entry.get("value"), slug, 0, 10)
            and entry.get("isvisible", False)
        ):
            notes.drop(
                f"attribute {slug.capitalize()} {entry.get('value')}",
                "SWd10 has nine attributes: no place",
            )
    free_lores = list(CUSTOM_LORES)
    for ability, raw, speciality, group, where in _abilities(data, system):
        dots = number(raw, f"{where}.value", 0, 10)
        slug = _slug(ability)
        if not dots:
            continue
        if not slug and group.startswith("knowledge") and free_lores:
            slug = free_lores.pop(0)
            sheet["lore_names"][slug] = line(ability, 40, notes, "lore name")
            label = f"Lore: {ability}"
        elif not slug:
            notes.drop(f"ability {ability} {dots}", "no SWd10 place")
            continue
        else:
            label = _ABILITY[slug].label
        if dots > 5:
            raise FormatRefused(
                f"{where}.value: {ability} {dots} is out of range for SWd10 (0 to 5)."
            )
        if sheet["abilities"][slug]:
            notes.drop(
                f"ability {ability} {dots}",
                f"{label} already has {sheet['abilities'][slug]}: the higher is kept",
            )
        sheet["abilities"][slug] = max(sheet["abilities"][slug], dots)
        notes.place(label, dots, where)
        if speciality.strip():
            notes.drop(
                f"{ability}'s speciality “{speciality[:40]}”",
                "an SWd10 sheet keeps no specialities",
            )
    _willpower(data, system, shape, sheet, notes)
    _words(system, shape, sheet, notes)
    for item in items(data.get("items"), "items"):
        if isinstance(item, dict) and str(item.get("type", "")).lower() not in (
            "ability",
            "advantage",
        ):
            notes.drop(
                f"Foundry item “{str(item.get('name'))[:60]}” of type "
                f"“{str(item.get('type'))[:30]}”",
                "no SWd10 place",
            )
    health = obj(
        obj(system.get("health"), f"{shape}.health").get("damage"), f"{shape}.health.damage"
    )
    marked = sum(
        number(health.get(k), f"{shape}.health.damage.{k}", 0, 99)
        for k in ("bashing", "lethal", "aggravated")
    )
    if marked:
        levels = len(health_track(sheet, {}))
        if marked > levels:
            notes.drop(
                f"health damage {marked}", f"past the track's {levels} boxes: {levels} marked"
            )
            marked = levels
        sheet["health_marked"] = marked
        notes.place(
            "Health boxes marked", marked, f"{shape}.health.damage (bashing + lethal + aggravated)"
        )
        notes.drop("the kinds of damage", "SWd10 marks boxes without bashing, lethal or aggravated")
    # Played elsewhere: in play, with what it has as its creation baseline, so XP pays only
    # for what comes after.
    sheet["stage"] = Stage.PLAY.value
    sheet["baseline"] = {
        "attributes": dict(sheet["attributes"]),
        "abilities": dict(sheet["abilities"]),
        "force_knowledges": dict(sheet["force_knowledges"]),
        "willpower": sheet["willpower"],
        "merits": {},
        "languages": [],
    }
    try:
        sheet = validate_sheet(sheet)
    except (InvalidSheet, InvalidEdit) as error:
        raise FormatRefused(f"The sheet made from this file is not valid: {error}") from None
    return Reading(KEY, LABEL, SYSTEM, name, sheet, notes)


def _willpower(data: dict, system: dict, shape: str, sheet: dict, notes: Notes) -> None:
    permanent = temporary = None
    advantages = system.get("advantages")
    if isinstance(advantages, dict) and isinstance(advantages.get("willpower"), dict):
        permanent = advantages["willpower"].get("permanent")
        temporary = advantages["willpower"].get("temporary")
        source = f"{shape}.advantages.willpower"
        for key in sorted(set(advantages) - {"willpower"}):
            if advantages[key]:
                notes.drop(f"{shape}.advantages.{key}", "no SWd10 place")
    for index, item in enumerate(items(data.get("items"), "items")):
        if isinstance(item, dict) and str(item.get("type", "")).lower() == "advantage":
            body = foundry.body(item)
            if "willpower" in f"{item.get('name')} {body.get('id')} {body.get('label')}".lower():
                permanent = body.get("permanent", body.get("value"))
                temporary = body.get("temporary", permanent)
                source = f"items.{index}"
            else:
                notes.drop(f"advantage “{str(item.get('name'))[:40]}”", "no SWd10 place")
    if permanent is None:
        return
    value = number(permanent, f"{source}.permanent", 1, 10)
    if value > MAX_WILLPOWER:
        raise FormatRefused(f"{source}: Willpower {value} is out of range (1 to {MAX_WILLPOWER}).")
    current = min(number(temporary, f"{source}.temporary", 0, 10, empty=value), value)
    sheet["willpower"], sheet["willpower_current"] = value, current
    notes.place("Willpower", f"{current} of {value}", source)


def _words(system: dict, shape: str, sheet: dict, notes: Notes) -> None:
    bio = obj(system.get("bio"), f"{shape}.bio")
    for key in ("nature", "demeanor"):
        text = line(bio.get(key), 200, notes, key)
        if text:
            sheet["info"][key] = text
            notes.place(key.capitalize(), text, f"{shape}.bio.{key}")
    for key in ("concept", "appearance", "background", "notes", "derangement", "roleplaytip"):
        if line(bio.get(key), 200, notes, key, html_text=True):
            notes.drop(f"{shape}.bio.{key}", "an SWd10 sheet has no field for it")
    gear = obj(system.get("gear"), f"{shape}.gear")
    if line(gear.get("notes"), 200, notes, "gear", html_text=True):
        notes.drop(f"{shape}.gear.notes", "an SWd10 sheet lists weapons and armor only")
    money = obj(gear.get("money"), f"{shape}.gear.money")
    if any(money.get(k) for k in ("carried", "bank")):
        notes.drop(f"{shape}.gear.money", "an SWd10 sheet keeps no money")
