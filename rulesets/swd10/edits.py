"""SWd10 edits: one trait of a sheet set from the raw text a form sent.

Trait keys: "info.<field>", "attr.<slug>", "abil.<slug>", "lorename.<custom_lore_n>",
"fk.<tree>", "prio.attributes.<group>" / "prio.abilities.<group>" (raw: the rank 0, 1 or 2),
"power", "power_current", "willpower", "willpower_current", "side.light", "side.dark",
"health" (boxes marked), "swse_level", "stage" ("creation" or "play"),
"merit.add" ("slug", "slug|value" or "slug|value|choice"), "merit.<i>.value",
"merit.<i>.remove", "fa.add" / "fa.remove" (raw: the ability slug), "language.add" (raw: the
name), "language.<i>.read" / ".write" (yes or no), "language.<i>.remove", "technique.add"
("firearms|blaster_pistols" or "melee|special_weapons|vibro-axe"), "technique.<i>.remove",
"weapon.add" (raw: the name), "weapon.<i>.name" / ".difficulty" / ".rate" / ".damage",
"weapon.<i>.remove", "armor.add" ("armor|name" or "shield|name"), "armor.<i>.name" / ".rating" /
".lost" / ".worn" / ".remove", "destiny.refill" (a Destiny point spent to refill current
Willpower, L93). Row numbers <i> count from 0; messages count them from 1.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from rulesets.core import InvalidEdit, Stage, resolve_settings
from rulesets.core.edits import copy_sheet
from rulesets.core.parsing import (
    parse_choice,
    parse_flag,
    parse_row_index,
    parse_text,
    parse_whole,
)
from rulesets.core.stage import STAGE_TRAIT, change_stage
from rulesets.swd10.armor import ARMOR_NAME_LIMIT, KINDS, MAX_ARMOR_ROWS, RATING_RANGE
from rulesets.swd10.data import (
    ABILITY_BY_SLUG,
    ATTRIBUTE_BY_SLUG,
    CUSTOM_LORES,
    DEFAULT_WEAPON_DIFFICULTY,
    FORCE_ABILITY_BY_SLUG,
    FORCE_KNOWLEDGE_BY_SLUG,
    LANGUAGE_NAME_LIMIT,
    LORE_NAME_LIMIT,
    MAX_FLAW_POINTS,
    MAX_LANGUAGES,
    MAX_MERITS,
    MAX_TECHNIQUES,
    MAX_WEAPONS,
    MERIT_BY_SLUG,
    MERIT_CHOICE_LIMIT,
    NUMBER_LIMITS,
    RATE_LIMIT,
    TECHNIQUE_KIND_LIMIT,
    TEXT_FIELDS,
    WEAPON_DAMAGE_RANGE,
    WEAPON_DIFFICULTY_RANGE,
    WEAPON_NAME_LIMIT,
    WEAPON_TECHNIQUES_BY_SKILL,
    Kind,
)
from rulesets.swd10.prerequisites import (
    unmet_force_ability_prerequisites,
    unmet_merit_prerequisites,
)
from rulesets.swd10.rules import (
    RANK_CHOICES,
    SETTINGS,
    attribute_range,
    creation_lock,
    creation_willpower,
    flaw_points,
    floor_in_play,
    health_track,
    merit_values,
    number_traits,
    owned_merits,
    sheet_label,
    trait_label,
    trait_view,
)

_TEXT_KEYS = dict(TEXT_FIELDS)


def _not_a_trait(trait: str) -> InvalidEdit:
    return InvalidEdit(trait, f"“{trait}” is not a trait of a SWd10 sheet.")


def _dots(sheet: dict, trait: str, section: str, slug: str, raw: Any, low: int, high: int) -> int:
    """Read a dotted trait's new value; in play it never goes below where creation left it."""
    label = sheet_label(sheet, trait)
    value = parse_whole(trait, raw, label=label, minimum=low, maximum=high)
    floor = floor_in_play(sheet, section, slug)
    if value < floor:
        raise InvalidEdit(
            trait,
            f"{label} was {floor} when creation ended; in play it can only go up with XP.",
        )
    return value


def _set_priority(sheet: dict, trait: str, kind: str, group: str, raw: Any) -> None:
    order: list[str] = sheet["priorities"][kind]
    if group not in order:
        raise InvalidEdit(trait, f"There is no {kind} group called “{group}”.")
    rank = int(parse_choice(trait, raw, RANK_CHOICES, label=trait_label(trait)))
    old_rank = order.index(group)
    order[old_rank], order[rank] = order[rank], order[old_rank]


def _add_merit(sheet: dict, trait: str, raw: Any, settings: Mapping[str, Any]) -> None:
    slug, _, rest = str(raw).strip().partition("|")
    raw_value, _, raw_choice = rest.partition("|")
    merit = MERIT_BY_SLUG.get(slug.strip())
    if merit is None:
        raise InvalidEdit(trait, f"“{slug}” is not a merit or flaw of the SWd10 catalog.")
    values = merit.allowed_values
    if raw_value.strip():
        value = parse_whole(trait, raw_value, label=merit.name, minimum=0, maximum=99)
    elif len(values) == 1:
        value = values[0]
    else:
        raise InvalidEdit(trait, f"{merit.name} costs {merit.cost_label}: choose how many.")
    if value not in values:
        raise InvalidEdit(trait, f"{merit.name} costs {merit.cost_label}, not {value}.")
    choice = parse_text(trait, raw_choice, label="The choice", limit=MERIT_CHOICE_LIMIT)
    owned = [m for m in sheet["merits"] if m["slug"] == merit.slug]
    if owned and not merit.repeatable:
        raise InvalidEdit(trait, f"The sheet already has {merit.name}.")
    if any(m.get("choice", "") == choice for m in owned):
        raise InvalidEdit(trait, f"The sheet already has {merit.name} for {choice}.")
    if len(sheet["merits"]) >= MAX_MERITS:
        raise InvalidEdit(trait, f"The sheet holds at most {MAX_MERITS} merits and flaws.")
    unmet = unmet_merit_prerequisites(
        merit,
        trait_view(sheet),
        choice=choice or None,
        species_bound=settings["race_merit_species"] == "own_species",
    )
    if unmet:
        raise InvalidEdit(trait, "Cannot take it: " + "; ".join(unmet) + ".")
    if merit.kind is Kind.FLAW:
        total = flaw_points(owned_merits(sheet)) + value
        if total > MAX_FLAW_POINTS:
            raise InvalidEdit(
                trait,
                f"{merit.name} would bring flaws to {total} points; at most "
                f"{MAX_FLAW_POINTS} are allowed.",
            )
    sheet["merits"].append({"slug": merit.slug, "value": value, "choice": choice})


def _edit_merit_row(sheet: dict, trait: str, raw_index: str, field: str, raw: Any) -> None:
    index = parse_row_index(trait, raw_index, sheet["merits"], noun="merit or flaw")
    row = sheet["merits"][index]
    merit = MERIT_BY_SLUG[row["slug"]]
    if field == "remove":
        del sheet["merits"][index]
        return
    if field != "value":
        raise _not_a_trait(trait)
    value = parse_whole(trait, raw, label=merit.name, minimum=0, maximum=99)
    if value not in merit.allowed_values:
        raise InvalidEdit(trait, f"{merit.name} costs {merit.cost_label}, not {value}.")
    if value not in merit_values(sheet, index):
        total = flaw_points(owned_merits(sheet)) - row["value"] + value
        raise InvalidEdit(trait, f"Flaws would total {total} points; at most {MAX_FLAW_POINTS}.")
    row["value"] = value


def _add_force_ability(sheet: dict, trait: str, raw: Any) -> None:
    slug = str(raw).strip()
    ability = FORCE_ABILITY_BY_SLUG.get(slug)
    if ability is None:
        raise InvalidEdit(trait, f"“{slug}” is not a Force ability of the SWd10 catalog.")
    if slug in sheet["force_abilities"]:
        raise InvalidEdit(trait, f"The sheet already has {ability.name}.")
    unmet = unmet_force_ability_prerequisites(ability, trait_view(sheet))
    if unmet:
        raise InvalidEdit(trait, "Cannot take it: " + "; ".join(unmet) + ".")
    sheet["force_abilities"].append(slug)


def _remove_force_ability(sheet: dict, trait: str, raw: Any) -> None:
    slug = str(raw).strip()
    if slug not in sheet["force_abilities"]:
        raise InvalidEdit(trait, f"The sheet has no Force ability “{slug}”.")
    dependants = [
        FORCE_ABILITY_BY_SLUG[other].name
        for other in sheet["force_abilities"]
        if slug in FORCE_ABILITY_BY_SLUG[other].requires
    ]
    if dependants:
        raise InvalidEdit(trait, f"Remove {', '.join(dependants)} first: it needs this ability.")
    sheet["force_abilities"].remove(slug)


def _add_language(sheet: dict, trait: str, raw: Any) -> None:
    name = parse_text(trait, raw, label="A language name", limit=LANGUAGE_NAME_LIMIT)
    if not name:
        raise InvalidEdit(trait, "Name the language.")
    if any(row["name"].casefold() == name.casefold() for row in sheet["languages"]):
        raise InvalidEdit(trait, f"{name} is already on the sheet.")
    if len(sheet["languages"]) >= MAX_LANGUAGES:
        raise InvalidEdit(trait, f"The sheet holds at most {MAX_LANGUAGES} languages.")
    sheet["languages"].append({"name": name, "read": False, "write": False})


def _edit_language(sheet: dict, trait: str, raw_index: str, field: str, raw: Any) -> None:
    index = parse_row_index(trait, raw_index, sheet["languages"], noun="language")
    if field == "remove":
        del sheet["languages"][index]
    elif field in ("read", "write"):
        sheet["languages"][index][field] = parse_flag(trait, raw, label=trait_label(trait))
    else:
        raise _not_a_trait(trait)


def _add_technique(sheet: dict, trait: str, raw: Any) -> None:
    skill, _, rest = str(raw).strip().partition("|")
    slug, _, raw_kind = rest.partition("|")
    techniques = WEAPON_TECHNIQUES_BY_SKILL.get(skill)
    if techniques is None:
        raise InvalidEdit(trait, "Techniques belong to Firearms or Melee.")
    technique = techniques.get(slug)
    if technique is None:
        raise InvalidEdit(trait, f"“{slug}” is not a {skill.capitalize()} technique.")
    kind = parse_text(trait, raw_kind, label="A special weapon's kind", limit=TECHNIQUE_KIND_LIMIT)
    if technique.one_per_kind and not kind:
        raise InvalidEdit(trait, f"Name the kind of {technique.name.lower()}.")
    row = {"skill": skill, "slug": slug, "kind": kind if technique.one_per_kind else ""}
    if row in sheet["techniques"]:
        raise InvalidEdit(trait, f"The sheet already has the {technique.name} technique.")
    if len(sheet["techniques"]) >= MAX_TECHNIQUES:
        raise InvalidEdit(trait, f"The sheet holds at most {MAX_TECHNIQUES} techniques.")
    sheet["techniques"].append(row)


def _add_weapon(sheet: dict, trait: str, raw: Any) -> None:
    name = parse_text(trait, raw, label="A weapon name", limit=WEAPON_NAME_LIMIT)
    if not name:
        raise InvalidEdit(trait, "Name the weapon.")
    if len(sheet["weapons"]) >= MAX_WEAPONS:
        raise InvalidEdit(trait, f"The sheet holds at most {MAX_WEAPONS} weapons.")
    sheet["weapons"].append(
        {"name": name, "difficulty": DEFAULT_WEAPON_DIFFICULTY, "rate": "", "damage": 0}
    )


def _edit_weapon(sheet: dict, trait: str, raw_index: str, field: str, raw: Any) -> None:
    index = parse_row_index(trait, raw_index, sheet["weapons"], noun="weapon")
    row = sheet["weapons"][index]
    if field == "remove":
        del sheet["weapons"][index]
    elif field == "name":
        name = parse_text(trait, raw, label="A weapon name", limit=WEAPON_NAME_LIMIT)
        row["name"] = name or row["name"]
    elif field == "rate":
        row["rate"] = parse_text(trait, raw, label="Rate", limit=RATE_LIMIT)
    elif field == "difficulty":
        low, high = WEAPON_DIFFICULTY_RANGE
        label = f"{row['name']} difficulty"
        row["difficulty"] = parse_whole(trait, raw, label=label, minimum=low, maximum=high)
    elif field == "damage":
        low, high = WEAPON_DAMAGE_RANGE
        label = f"{row['name']} damage"
        row["damage"] = parse_whole(trait, raw, label=label, minimum=low, maximum=high)
    else:
        raise _not_a_trait(trait)


def _add_armor(sheet: dict, trait: str, raw: Any) -> None:
    kind, _, raw_name = str(raw).strip().partition("|")
    kinds = dict(KINDS)
    if kind not in kinds:
        raise InvalidEdit(trait, "Choose armor or a shield.")
    name = parse_text(trait, raw_name, label=f"{kinds[kind]} name", limit=ARMOR_NAME_LIMIT)
    if not name:
        raise InvalidEdit(trait, f"Name the {kinds[kind].lower()}.")
    if len(sheet["armor"]) >= MAX_ARMOR_ROWS:
        raise InvalidEdit(trait, f"The sheet holds at most {MAX_ARMOR_ROWS} armor and shields.")
    sheet["armor"].append({"name": name, "kind": kind, "rating": 1, "lost": 0, "worn": False})


def _edit_armor(sheet: dict, trait: str, raw_index: str, field: str, raw: Any) -> None:
    index = parse_row_index(trait, raw_index, sheet["armor"], noun="armor or shield")
    row = sheet["armor"][index]
    if field == "remove":
        del sheet["armor"][index]
    elif field == "name":
        name = parse_text(trait, raw, label="A name", limit=ARMOR_NAME_LIMIT)
        row["name"] = name or row["name"]
    elif field == "rating":
        low, high = RATING_RANGE[row["kind"]]  # armor: the classes of L741
        label = f"{row['name']} rating"
        row["rating"] = parse_whole(trait, raw, label=label, minimum=low, maximum=high)
        row["lost"] = min(row["lost"], row["rating"])
    elif field == "lost":
        label = f"{row['name']}: points lost"
        row["lost"] = parse_whole(trait, raw, label=label, minimum=0, maximum=row["rating"])
    elif field == "worn":
        row["worn"] = parse_flag(trait, raw, label=trait_label(trait))
        if row["worn"]:  # putting one on takes off the other of its kind
            for other_index, other in enumerate(sheet["armor"]):
                if other_index != index and other["kind"] == row["kind"]:
                    other["worn"] = False
    else:
        raise _not_a_trait(trait)


def _refill_willpower(sheet: dict, trait: str) -> None:
    """L93: once a scene a Destiny point refills current Willpower (the scene is the
    table's to count)."""
    if sheet["info"]["destiny_points"] < 1:
        raise InvalidEdit(trait, "No Destiny point left to spend.")
    if sheet["willpower_current"] >= sheet["willpower"]:
        raise InvalidEdit(trait, "Current Willpower is already full.")
    sheet["info"]["destiny_points"] -= 1
    sheet["willpower_current"] = sheet["willpower"]


def _purchasable(sheet: Mapping[str, Any]) -> dict:
    """The parts of a sheet XP pays for, as creation leaves them (the baseline)."""
    return copy.deepcopy(
        {
            "attributes": sheet["attributes"],
            "abilities": sheet["abilities"],
            "force_knowledges": sheet["force_knowledges"],
            "willpower": sheet["willpower"],
            "merits": owned_merits(sheet),
            "languages": sheet["languages"],
        }
    )


def _freeze(sheet: dict) -> None:
    sheet["baseline"] = _purchasable(sheet)


def _reopen(sheet: dict) -> None:
    if _purchasable(sheet) != sheet["baseline"]:
        raise InvalidEdit(
            STAGE_TRAIT,
            "XP has been spent since creation ended; lower those traits first, or keep playing.",
        )
    sheet["baseline"] = None


def _follow_willpower(old: Mapping[str, Any], new: dict) -> None:
    """Keep Willpower where the rules put it after an edit.

    At creation permanent Willpower is Wits + 1 (L296) and nothing has been spent yet, so
    the current pool is full. In play a raise bought with XP (L314) refills a pool the
    player has not drawn on; one they have spent from keeps what is left.
    """
    if new["stage"] == Stage.CREATION:
        new["willpower"] = creation_willpower(new)
        new["willpower_current"] = new["willpower"]
    elif new["willpower"] != old["willpower"] and old["willpower_current"] == old["willpower"]:
        new["willpower_current"] = new["willpower"]


def apply_edit(sheet: Mapping[str, Any], trait: str, raw: str, settings: Mapping[str, Any]) -> dict:
    """Return a copy of `sheet` with one trait set from the raw submitted text."""
    settings = resolve_settings(SETTINGS, settings)
    new = copy_sheet(dict(sheet))
    section, _, rest = trait.partition(".")
    head, _, tail = rest.partition(".")
    numbers = number_traits(new, settings)
    if section == "attr" and rest in ATTRIBUTE_BY_SLUG:
        low, high = attribute_range(new, rest)
        new["attributes"][rest] = _dots(new, trait, "attributes", rest, raw, low, high)
    elif section == "abil" and rest in ABILITY_BY_SLUG:
        spec = ABILITY_BY_SLUG[rest]
        low, high = spec.minimum, spec.maximum
        new["abilities"][rest] = _dots(new, trait, "abilities", rest, raw, low, high)
    elif section == "fk" and rest in FORCE_KNOWLEDGE_BY_SLUG:
        new["force_knowledges"][rest] = _dots(new, trait, "force_knowledges", rest, raw, 0, 5)
    elif section == "lorename" and rest in CUSTOM_LORES:
        new["lore_names"][rest] = parse_text(
            trait, raw, label="A lore's name", limit=LORE_NAME_LIMIT
        )
    elif section == "info" and rest in _TEXT_KEYS:
        new["info"][rest] = parse_text(trait, raw, label=_TEXT_KEYS[rest])
    elif section == "info" and rest in NUMBER_LIMITS:
        low, high = NUMBER_LIMITS[rest]
        new["info"][rest] = parse_whole(
            trait, raw, label=trait_label(trait), minimum=low, maximum=high
        )
    elif section == "prio" and head in ("attributes", "abilities"):
        _set_priority(new, trait, head, tail, raw)
    elif creation_lock(new, trait):
        raise InvalidEdit(trait, creation_lock(new, trait))
    elif trait == "willpower":
        _, low, high = numbers[trait]
        new["willpower"] = _dots(new, trait, "willpower", "", raw, low, high)
    elif trait in numbers:
        key, low, high = numbers[trait]
        new[key] = parse_whole(trait, raw, label=trait_label(trait), minimum=low, maximum=high)
    elif trait == STAGE_TRAIT:
        change_stage(new, raw, freeze=_freeze, reopen=_reopen)
    elif trait == "merit.add":
        _add_merit(new, trait, raw, settings)
    elif section == "merit" and tail:
        _edit_merit_row(new, trait, head, tail, raw)
    elif trait == "fa.add":
        _add_force_ability(new, trait, raw)
    elif trait == "fa.remove":
        _remove_force_ability(new, trait, raw)
    elif trait == "language.add":
        _add_language(new, trait, raw)
    elif section == "language" and tail:
        _edit_language(new, trait, head, tail, raw)
    elif trait == "technique.add":
        _add_technique(new, trait, raw)
    elif section == "technique" and tail == "remove":
        index = parse_row_index(trait, head, new["techniques"], noun="technique")
        del new["techniques"][index]
    elif trait == "weapon.add":
        _add_weapon(new, trait, raw)
    elif section == "weapon" and tail in ("name", "difficulty", "rate", "damage", "remove"):
        _edit_weapon(new, trait, head, tail, raw)
    elif trait == "destiny.refill":
        _refill_willpower(new, trait)
    elif trait == "armor.add":
        _add_armor(new, trait, raw)
    elif section == "armor" and tail in ("name", "rating", "lost", "worn", "remove"):
        _edit_armor(new, trait, head, tail, raw)
    else:
        raise _not_a_trait(trait)
    _follow_willpower(sheet, new)
    # Lowering a maximum pulls its current pool down with it (L100, L176); marked health
    # boxes never outnumber the track (Giant lost, Power set to 0). Current Power is not
    # refilled: it starts empty and only battle fills it (L100).
    new["power_current"] = min(new["power_current"], new["power"])
    new["willpower_current"] = min(new["willpower_current"], new["willpower"])
    new["health_marked"] = min(new["health_marked"], len(health_track(new, settings)))
    return new
