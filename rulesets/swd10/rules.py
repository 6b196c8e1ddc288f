"""SWd10 sheet: a blank sheet, single-trait edits, creation and XP checks, derived values.

Sheet shape (a JSON-serialisable dict; the character's name lives on the character):

    {
      "stage": "creation" | "play",
      "info": {"player", "chronicle", "nature", "demeanor", "species", "destiny",
               "passion", "virtue": str, "destiny_points", "experience": int},
      "priorities": {"attributes": ["physical", "social", "mental"],   # primary first
                     "abilities": ["talents", "skills", "knowledges"]},
      "attributes": {"strength": 1..5, ...},            # Appearance 0 with Monstrous
      "abilities": {"alertness": 0..5, ..., "custom_lore_1": 0..5, ...},
      "lore_names": {"custom_lore_1": str, ...},
      "force_knowledges": {"battle": 0..5, ...},
      "power": 0..10, "power_current": 0..10,
      "willpower": 1..10, "willpower_current": 0..10,
      "light_side": 0..10, "dark_side": 0..10,
      "health_marked": 0..levels,                       # boxes filled from the top
      "merits": [{"slug": str, "value": int, "choice": str}],   # merits and flaws
      "force_abilities": [slug, ...],
      "languages": [{"name": str, "read": bool, "write": bool}],
      "techniques": [{"skill": "firearms" | "melee", "slug": str, "kind": str}],
      "weapons": [{"name": str, "difficulty": int, "rate": str, "damage": int}],
      "swse_level": 0..20,
      "baseline": null | {...}      # what creation ended with; XP pays for the rest
    }

Trait keys for apply_edit:
  "info.<field>", "attr.<slug>", "abil.<slug>", "lorename.<custom_lore_n>", "fk.<tree>",
  "prio.attributes.<group>" / "prio.abilities.<group>" (raw: the rank 0, 1 or 2),
  "power", "power_current", "willpower", "willpower_current", "side.light", "side.dark",
  "health" (boxes marked), "swse_level", "stage" ("creation" or "play"),
  "merit.add" ("slug", "slug|value" or "slug|value|choice"), "merit.<i>.value",
  "merit.<i>.remove", "fa.add" / "fa.remove" (raw: the ability slug),
  "language.add" (raw: the name), "language.<i>.read" / ".write" ("on"/"off"),
  "language.<i>.remove", "technique.add" ("firearms|blaster_pistols" or
  "melee|special_weapons|vibro-axe"), "technique.<i>.remove", "weapon.add" (raw: the name),
  "weapon.<i>.name" / ".difficulty" / ".rate" / ".damage", "weapon.<i>.remove".

In play, raises are paid from Experience: what was spent is the price of the difference
between the sheet and its baseline, computed on every check and never stored.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from rulesets.core import Cost, InvalidEdit, InvalidSheet, Pool, Report, Setting
from rulesets.swd10 import xp
from rulesets.swd10.catalog import (
    FORCE_ABILITY_BY_SLUG,
    FORCE_KNOWLEDGE_BY_SLUG,
    FORCE_KNOWLEDGES,
    MERIT_BY_SLUG,
    WEAPON_TECHNIQUES_BY_SKILL,
    Category,
    Kind,
)
from rulesets.swd10.data import (
    ABILITIES,
    ABILITY_BY_SLUG,
    ABILITY_GROUPS,
    ABILITY_PRIORITIES,
    ATTRIBUTE_BY_SLUG,
    ATTRIBUTE_GROUPS,
    ATTRIBUTE_PRIORITIES,
    ATTRIBUTES,
    COMMONER_HEALTH,
    CREATION_ABILITY_CAP,
    CREATION_POWER,
    CUSTOM_LORES,
    DEFAULT_WEAPON_DIFFICULTY,
    GIANT_LEVEL,
    HERO_HEALTH,
    MAX_FLAW_POINTS,
    MAX_LANGUAGES,
    MAX_POWER,
    MAX_SIDE,
    MAX_WEAPONS,
    MAX_WILLPOWER,
    MERIT_POINTS,
    NUMBER_FIELDS,
    RANK_LABELS,
    TEXT_FIELDS,
    HealthLevel,
    Trait,
)
from rulesets.swd10.prerequisites import (
    TraitView,
    abilities_per_tree,
    classification,
    force_pool,
    lost_side_warning,
    merits_granted_by_race,
    unmet_force_ability_prerequisites,
    unmet_merit_prerequisites,
)

TEXT_MAX_LENGTH = 200
NUMBER_LIMITS = {"destiny_points": (0, 99), "experience": (0, 100_000)}
MAX_SWSE_LEVEL = 20
STAGES = ("creation", "play")

SETTINGS: tuple[Setting, ...] = (
    Setting(
        key="attribute_free_dot",
        label="Attribute priority dots",
        default=True,
        source="L290 is silent; digest §2.1 proposes extra dots (WoD practice, Willpower "
        "2 on the blank sheet at L52)",
        help="Whether the 6/4/3 dots come on top of the free first dot every attribute "
        "prints (•0000).",
        choices=((True, "on top of the free first dot"), (False, "counting the first dot")),
    ),
    Setting(
        key="force_knowledges_at_creation",
        label="Force knowledges at creation",
        default="knowledges_pool",
        source="L292 is silent; digest §2.2 proposes the Knowledges pool",
        help="Whether Force knowledge dots may come from the Knowledges pool at creation "
        "(at most 3 each, with Force Sensitivity), or only from XP afterwards.",
        choices=(
            ("knowledges_pool", "from the Knowledges pool"),
            ("xp_only", "only with XP after creation"),
        ),
    ),
    xp.FORCE_KNOWLEDGE_FIRST_DOT,
    Setting(
        key="flaw_points_buy_merits",
        label="Flaw points",
        default=True,
        source="L300 leaves the rate to the Storyteller; digest §2.5 proposes 1 for 1",
        help="Whether each flaw point the Storyteller approves buys one more merit point.",
        choices=((True, "each buys one merit point"), (False, "buy no merit points")),
    ),
    Setting(
        key="commoner_health_levels",
        label="A commoner's health levels",
        default=4,
        source="L98 says four; digest §4.2 (ambiguity 6) asks whether full health is one",
        help="Power 0 characters: four boxes (full health, Injured, Mauled, "
        "Incapacitated) or three (no box for full health).",
        choices=((4, "four boxes"), (3, "three boxes")),
    ),
)
_SETTING_DEFAULTS = {s.key: s.default for s in SETTINGS}

_ATTR_GROUP_KEYS = tuple(key for key, _ in ATTRIBUTE_GROUPS)
_ABIL_GROUP_KEYS = tuple(key for key, _ in ABILITY_GROUPS)
_GROUP_LABEL = dict(ATTRIBUTE_GROUPS) | dict(ABILITY_GROUPS)
_TEXT_KEYS = dict(TEXT_FIELDS)
_SIDES = {"light": "light_side", "dark": "dark_side"}
_WEAPON_FIELDS = ("name", "difficulty", "rate", "damage")


def _settings(settings: Mapping[str, Any] | None) -> dict:
    return _SETTING_DEFAULTS | dict(settings or {})


def blank_sheet(settings: Mapping[str, Any] | None = None) -> dict:
    """Return a new hero: free attribute dots, Power 1 and Willpower Wits + 1 (L294-296)."""
    return {
        "stage": "creation",
        "info": {key: "" for key, _ in TEXT_FIELDS} | {key: 0 for key, _ in NUMBER_FIELDS},
        "priorities": {
            "attributes": list(_ATTR_GROUP_KEYS),
            "abilities": list(_ABIL_GROUP_KEYS),
        },
        "attributes": {t.slug: t.minimum for t in ATTRIBUTES},
        "abilities": {t.slug: t.minimum for t in ABILITIES},
        "lore_names": dict.fromkeys(CUSTOM_LORES, ""),
        "force_knowledges": {k.slug: 0 for k in FORCE_KNOWLEDGES},
        "power": CREATION_POWER,
        "power_current": 0,
        "willpower": 2,
        "willpower_current": 2,
        "light_side": 0,
        "dark_side": 0,
        "health_marked": 0,
        "merits": [],
        "force_abilities": [],
        "languages": [],
        "techniques": [],
        "weapons": [],
        "swse_level": 0,
        "baseline": None,
    }


# --- reading the sheet -------------------------------------------------------------------


def owned_merits(sheet: Mapping[str, Any]) -> dict[str, int]:
    """Every merit and flaw the character has, race grants included (slug -> points)."""
    owned = {m["slug"]: m["value"] for m in sheet["merits"]}
    return merits_granted_by_race(owned) | owned


def trait_view(sheet: Mapping[str, Any]) -> TraitView:
    merits = owned_merits(sheet)
    choices: dict[str, tuple[str, ...]] = {}
    for merit in sheet["merits"]:
        if merit.get("choice"):
            choices[merit["slug"]] = (*choices.get(merit["slug"], ()), merit["choice"])
    return TraitView(
        attributes=sheet["attributes"],
        abilities=sheet["abilities"],
        force_knowledges=sheet["force_knowledges"],
        power=sheet["power"],
        willpower=sheet["willpower"],
        light_side=sheet["light_side"],
        dark_side=sheet["dark_side"],
        merits=merits,
        merit_choices=choices,
        force_abilities=frozenset(sheet["force_abilities"]),
        species=sheet["info"]["species"],
    )


def health_track(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> list:
    """The health levels this character has: a hero's seven, a commoner's four (L98)."""
    settings = _settings(settings)
    if sheet["power"] == 0:
        levels = list(COMMONER_HEALTH)
        return levels if settings["commoner_health_levels"] == 4 else levels[1:]
    extra = [GIANT_LEVEL] if "giant" in owned_merits(sheet) else []  # L346
    return extra + list(HERO_HEALTH)


def trait_label(trait: str, sheet: Mapping[str, Any] | None = None) -> str:
    """Name a trait key the way the sheet prints it ("attr.wits" -> "Wits")."""
    section, _, rest = trait.partition(".")
    if section == "attr" and rest in ATTRIBUTE_BY_SLUG:
        return ATTRIBUTE_BY_SLUG[rest].label
    if section == "abil" and rest in ABILITY_BY_SLUG:
        if rest in CUSTOM_LORES and sheet and sheet["lore_names"].get(rest):
            return f"Lore: {sheet['lore_names'][rest]}"
        return ABILITY_BY_SLUG[rest].label
    if section == "fk" and rest in FORCE_KNOWLEDGE_BY_SLUG:
        return FORCE_KNOWLEDGE_BY_SLUG[rest].name
    if section == "info":
        return dict(TEXT_FIELDS + NUMBER_FIELDS).get(rest, rest)
    if section == "prio":
        return f"{_GROUP_LABEL.get(rest.partition('.')[2], rest)} priority"
    if section == "side":
        return f"{rest.capitalize()} side"
    simple = {
        "power": "Power",
        "power_current": "Current Power",
        "willpower": "Willpower",
        "willpower_current": "Current Willpower",
        "health": "Health",
        "swse_level": "SWSE level",
        "stage": "Stage",
    }
    return simple.get(trait, trait)


# --- edits --------------------------------------------------------------------------------


def _whole_number(trait: str, raw: Any, low: int, high: int, label: str) -> int:
    try:
        value = int(str(raw).strip())
    except ValueError:
        raise InvalidEdit(trait, f"{label}: “{raw}” is not a whole number.") from None
    if not low <= value <= high:
        raise InvalidEdit(trait, f"{label} runs from {low} to {high}; “{value}” is outside it.")
    return value


def _text(trait: str, raw: Any, label: str, limit: int = TEXT_MAX_LENGTH) -> str:
    text = " ".join(str(raw).split())
    if len(text) > limit:
        raise InvalidEdit(trait, f"{label} is limited to {limit} characters.")
    return text


def _flag(raw: Any) -> bool:
    return str(raw).strip().lower() in {"1", "true", "on", "yes"}


def _index(trait: str, raw_index: str, rows: list, noun: str) -> int:
    try:
        index = int(raw_index)
    except ValueError:
        raise InvalidEdit(trait, f"“{trait}” does not name a {noun} row.") from None
    if not 0 <= index < len(rows):
        raise InvalidEdit(trait, f"There is no {noun} number {index + 1} on this sheet.")
    return index


def _attribute_range(sheet: Mapping[str, Any], spec: Trait) -> tuple[int, int]:
    merits = owned_merits(sheet)
    if spec.slug == "appearance" and "monstrous" in merits:
        return 0, 0  # L390: Monstrous sets Appearance to 0
    if spec.slug == "appearance" and "disfigured" in merits:
        return spec.minimum, 2  # L382
    return spec.minimum, spec.maximum


def _below_baseline(sheet: Mapping[str, Any], trait: str, section: str, slug: str, value: int):
    baseline = sheet.get("baseline")
    if sheet["stage"] == "play" and baseline and value < baseline[section].get(slug, 0):
        raise InvalidEdit(
            trait,
            f"{trait_label(trait, sheet)} was {baseline[section][slug]} when creation ended; "
            "in play it can only go up with XP.",
        )


def _set_dots(sheet: dict, trait: str, section: str, slug: str, raw: str, low: int, high: int):
    value = _whole_number(trait, raw, low, high, trait_label(trait, sheet))
    _below_baseline(sheet, trait, section, slug, value)
    sheet[section][slug] = value


def _set_priority(sheet: dict, trait: str, kind: str, group: str, raw: str) -> None:
    order: list[str] = sheet["priorities"][kind]
    if group not in order:
        raise InvalidEdit(trait, f"There is no {kind} group called “{group}”.")
    rank = _whole_number(trait, raw, 0, 2, f"{_GROUP_LABEL[group]} priority")
    old_rank = order.index(group)
    order[old_rank], order[rank] = order[rank], order[old_rank]


def _flaw_points(merits: Mapping[str, int]) -> int:
    return sum(v for s, v in merits.items() if MERIT_BY_SLUG[s].kind is Kind.FLAW)


def _add_merit(sheet: dict, trait: str, raw: str) -> None:
    slug, _, rest = str(raw).strip().partition("|")
    raw_value, _, choice = rest.partition("|")
    merit = MERIT_BY_SLUG.get(slug.strip())
    if merit is None:
        raise InvalidEdit(trait, f"“{slug}” is not a merit or flaw of the SWd10 catalog.")
    values = merit.allowed_values
    if raw_value.strip():
        value = _whole_number(trait, raw_value, 0, 99, merit.name)
    elif len(values) == 1:
        value = values[0]
    else:
        raise InvalidEdit(trait, f"{merit.name} costs {merit.cost_label}: choose how many.")
    if value not in values:
        raise InvalidEdit(trait, f"{merit.name} costs {merit.cost_label}, not {value}.")
    choice = choice.strip()
    owned = [m for m in sheet["merits"] if m["slug"] == merit.slug]
    if owned and not merit.repeatable:
        raise InvalidEdit(trait, f"The sheet already has {merit.name}.")
    if any(m.get("choice", "") == choice for m in owned):
        raise InvalidEdit(trait, f"The sheet already has {merit.name} for {choice}.")
    unmet = unmet_merit_prerequisites(merit, trait_view(sheet), choice=choice or None)
    if unmet:
        raise InvalidEdit(trait, "Cannot take it: " + "; ".join(unmet) + ".")
    if merit.kind is Kind.FLAW:
        total = _flaw_points(owned_merits(sheet)) + value
        if total > MAX_FLAW_POINTS:
            raise InvalidEdit(
                trait,
                f"{merit.name} would bring flaws to {total} points; at most "
                f"{MAX_FLAW_POINTS} are allowed (L302).",
            )
    sheet["merits"].append({"slug": merit.slug, "value": value, "choice": choice})


def _edit_merit_row(sheet: dict, trait: str, raw_index: str, field: str, raw: str) -> None:
    index = _index(trait, raw_index, sheet["merits"], "merit or flaw")
    row = sheet["merits"][index]
    merit = MERIT_BY_SLUG[row["slug"]]
    if field == "remove":
        del sheet["merits"][index]
        return
    if field != "value":
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a SWd10 sheet.")
    values = merit.allowed_values
    value = _whole_number(trait, raw, 0, 99, merit.name)
    if value not in values:
        raise InvalidEdit(trait, f"{merit.name} costs {merit.cost_label}, not {value}.")
    if merit.kind is Kind.FLAW:
        total = _flaw_points(owned_merits(sheet)) - row["value"] + value
        if total > MAX_FLAW_POINTS:
            raise InvalidEdit(
                trait, f"Flaws would total {total} points; at most {MAX_FLAW_POINTS} (L302)."
            )
    row["value"] = value


def _add_force_ability(sheet: dict, trait: str, raw: str) -> None:
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


def _remove_force_ability(sheet: dict, trait: str, raw: str) -> None:
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


def _add_language(sheet: dict, trait: str, raw: str) -> None:
    name = _text(trait, raw, "A language name", 60)
    if not name:
        raise InvalidEdit(trait, "Name the language.")
    if any(row["name"].casefold() == name.casefold() for row in sheet["languages"]):
        raise InvalidEdit(trait, f"{name} is already on the sheet.")
    if len(sheet["languages"]) >= MAX_LANGUAGES:
        raise InvalidEdit(trait, f"The sheet holds at most {MAX_LANGUAGES} languages.")
    sheet["languages"].append({"name": name, "read": False, "write": False})


def _edit_language(sheet: dict, trait: str, raw_index: str, field: str, raw: str) -> None:
    index = _index(trait, raw_index, sheet["languages"], "language")
    if field == "remove":
        del sheet["languages"][index]
    elif field in ("read", "write"):
        sheet["languages"][index][field] = _flag(raw)
    else:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a SWd10 sheet.")


def _add_technique(sheet: dict, trait: str, raw: str) -> None:
    skill, _, rest = str(raw).strip().partition("|")
    slug, _, kind = rest.partition("|")
    techniques = WEAPON_TECHNIQUES_BY_SKILL.get(skill)
    if techniques is None:
        raise InvalidEdit(trait, "Techniques belong to Firearms or Melee (L238, L240).")
    technique = techniques.get(slug)
    if technique is None:
        raise InvalidEdit(trait, f"“{slug}” is not a {skill.capitalize()} technique.")
    kind = _text(trait, kind, "A special weapon's kind", 60)
    if technique.one_per_kind and not kind:
        raise InvalidEdit(trait, f"Name the kind of {technique.name.lower()} (L238, L240).")
    row = {"skill": skill, "slug": slug, "kind": kind if technique.one_per_kind else ""}
    if row in sheet["techniques"]:
        raise InvalidEdit(trait, f"The sheet already has the {technique.name} technique.")
    sheet["techniques"].append(row)


def _add_weapon(sheet: dict, trait: str, raw: str) -> None:
    name = _text(trait, raw, "A weapon name", 60)
    if not name:
        raise InvalidEdit(trait, "Name the weapon.")
    if len(sheet["weapons"]) >= MAX_WEAPONS:
        raise InvalidEdit(trait, f"The sheet holds at most {MAX_WEAPONS} weapons.")
    sheet["weapons"].append(
        {"name": name, "difficulty": DEFAULT_WEAPON_DIFFICULTY, "rate": "", "damage": 0}
    )


def _edit_weapon(sheet: dict, trait: str, raw_index: str, field: str, raw: str) -> None:
    index = _index(trait, raw_index, sheet["weapons"], "weapon")
    row = sheet["weapons"][index]
    if field == "remove":
        del sheet["weapons"][index]
    elif field == "name":
        row["name"] = _text(trait, raw, "A weapon name", 60) or row["name"]
    elif field == "rate":
        row["rate"] = _text(trait, raw, "Rate", 20)
    elif field == "difficulty":
        row["difficulty"] = _whole_number(trait, raw, 2, 10, f"{row['name']} difficulty")
    elif field == "damage":
        row["damage"] = _whole_number(trait, raw, 0, 20, f"{row['name']} damage")
    else:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a SWd10 sheet.")


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


def _set_stage(sheet: dict, trait: str, raw: str) -> None:
    stage = str(raw).strip()
    if stage not in STAGES:
        raise InvalidEdit(trait, "The stage is creation or play.")
    if stage == sheet["stage"]:
        return
    if stage == "play":
        sheet["baseline"] = _purchasable(sheet)
    else:
        if _purchasable(sheet) != sheet["baseline"]:
            raise InvalidEdit(
                trait,
                "XP has been spent since creation ended; lower those traits first, or keep "
                "playing.",
            )
        sheet["baseline"] = None
    sheet["stage"] = stage


def _number_edits(sheet: dict) -> dict[str, tuple[str, int, int]]:
    """Single-number traits: trait -> (sheet key, lowest, highest)."""
    return {
        "power": ("power", 0, MAX_POWER),
        "power_current": ("power_current", 0, sheet["power"]),  # L100
        "willpower": ("willpower", 1, MAX_WILLPOWER),
        "willpower_current": ("willpower_current", 0, sheet["willpower"]),
        "side.light": ("light_side", 0, MAX_SIDE),
        "side.dark": ("dark_side", 0, MAX_SIDE),
        "health": ("health_marked", 0, len(health_track(sheet))),
        "swse_level": ("swse_level", 0, MAX_SWSE_LEVEL),
    }


def apply_edit(
    sheet: Mapping[str, Any], trait: str, raw: str, settings: Mapping[str, Any] | None = None
) -> dict:
    """Return a copy of `sheet` with one trait set from the raw submitted text."""
    new = copy.deepcopy(dict(sheet))
    section, _, rest = trait.partition(".")
    head, _, tail = rest.partition(".")
    numbers = _number_edits(new)
    if section == "attr" and rest in ATTRIBUTE_BY_SLUG:
        low, high = _attribute_range(new, ATTRIBUTE_BY_SLUG[rest])
        _set_dots(new, trait, "attributes", rest, raw, low, high)
    elif section == "abil" and rest in ABILITY_BY_SLUG:
        spec = ABILITY_BY_SLUG[rest]
        _set_dots(new, trait, "abilities", rest, raw, spec.minimum, spec.maximum)
    elif section == "fk" and rest in FORCE_KNOWLEDGE_BY_SLUG:
        _set_dots(new, trait, "force_knowledges", rest, raw, 0, 5)
    elif section == "lorename" and rest in CUSTOM_LORES:
        new["lore_names"][rest] = _text(trait, raw, "A lore's name", 40)
    elif section == "info" and rest in _TEXT_KEYS:
        new["info"][rest] = _text(trait, raw, _TEXT_KEYS[rest])
    elif section == "info" and rest in NUMBER_LIMITS:
        low, high = NUMBER_LIMITS[rest]
        new["info"][rest] = _whole_number(trait, raw, low, high, trait_label(trait))
    elif section == "prio" and head in ("attributes", "abilities"):
        _set_priority(new, trait, head, tail, raw)
    elif trait in numbers:
        key, low, high = numbers[trait]
        value = _whole_number(trait, raw, low, high, trait_label(trait))
        baseline = new.get("baseline")
        if key == "willpower" and new["stage"] == "play" and value < baseline["willpower"]:
            raise InvalidEdit(
                trait,
                f"Willpower was {baseline['willpower']} when creation ended; in play it can "
                "only go up with XP.",
            )
        new[key] = value
        # Lowering a maximum pulls its current pool down with it (L100, L176).
        new["power_current"] = min(new["power_current"], new["power"])
        new["willpower_current"] = min(new["willpower_current"], new["willpower"])
    elif trait == "stage":
        _set_stage(new, trait, raw)
    elif trait == "merit.add":
        _add_merit(new, trait, raw)
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
        del new["techniques"][_index(trait, head, new["techniques"], "technique")]
    elif trait == "weapon.add":
        _add_weapon(new, trait, raw)
    elif section == "weapon" and tail in (*_WEAPON_FIELDS, "remove"):
        _edit_weapon(new, trait, head, tail, raw)
    else:
        raise InvalidEdit(trait, f"“{trait}” is not a trait of a SWd10 sheet.")
    # Marked health boxes never outnumber the track (Giant lost, Power set to 0).
    new["health_marked"] = min(new["health_marked"], len(health_track(new, settings)))
    return new


# --- checks -------------------------------------------------------------------------------


def _check_pools(
    report: Report,
    *,
    kind: str,
    order: list[str],
    priorities: tuple[int, ...],
    spent_by_group: dict[str, int],
    source: str,
) -> None:
    for rank, group in enumerate(order):
        label = _GROUP_LABEL[group]
        pool = Pool(
            key=f"{kind}.{group}",
            label=f"{label} ({RANK_LABELS[rank].lower()})",
            allowed=priorities[rank],
            spent=spent_by_group[group],
            source=source,
        )
        report.add_pool(pool)
        if pool.over:
            report.error(
                f"{kind}_over_budget",
                f"pool.{pool.key}",
                f"{label} has {pool.spent} dots placed; as the {RANK_LABELS[rank].lower()} "
                f"group it allows {pool.allowed} ({source}). Remove {-pool.left}.",
                source,
            )
        elif pool.left:
            report.warn(
                f"{kind}_left",
                f"pool.{pool.key}",
                f"{label}: {pool.left} of {pool.allowed} dots still to place ({source}).",
                source,
            )


def _check_attribute_budget(report: Report, sheet: Mapping, settings: Mapping) -> None:
    free_dot = settings["attribute_free_dot"]
    spent = dict.fromkeys(_ATTR_GROUP_KEYS, 0)
    for spec in ATTRIBUTES:
        value = sheet["attributes"][spec.slug]
        if spec.slug == "appearance" and "monstrous" in owned_merits(sheet):
            value = 1  # the lost free dot is not charged to Social (digest §2.1)
        spent[spec.group] += value - (1 if free_dot else 0)
    _check_pools(
        report,
        kind="attributes",
        order=sheet["priorities"]["attributes"],
        priorities=ATTRIBUTE_PRIORITIES,
        spent_by_group=spent,
        source="L290",
    )


def _check_ability_budget(report: Report, sheet: Mapping, settings: Mapping) -> None:
    spent = dict.fromkeys(_ABIL_GROUP_KEYS, 0)
    for spec in ABILITIES:
        value = sheet["abilities"][spec.slug]
        spent[spec.group] += value
        if value > CREATION_ABILITY_CAP:
            report.error(
                "ability_above_creation_cap",
                f"abil.{spec.slug}",
                f"{trait_label('abil.' + spec.slug, sheet)} is {value}; no ability may be "
                f"above {CREATION_ABILITY_CAP} at creation (L292).",
                "L292",
            )
    knowledges = sheet["force_knowledges"]
    from_pool = settings["force_knowledges_at_creation"] == "knowledges_pool"
    for knowledge in FORCE_KNOWLEDGES:
        value = knowledges[knowledge.slug]
        trait = f"fk.{knowledge.slug}"
        if not value:
            continue
        if not from_pool:
            report.error(
                "force_knowledge_at_creation",
                trait,
                f"{knowledge.name} has {value} dots; under the reading in force, Force "
                "knowledges are bought with XP after creation.",
                "digest §2.2",
            )
            continue
        spent["knowledges"] += value
        if value > CREATION_ABILITY_CAP:
            report.error(
                "force_knowledge_above_creation_cap",
                trait,
                f"{knowledge.name} is {value}; no knowledge may be above "
                f"{CREATION_ABILITY_CAP} at creation (L292).",
                "L292",
            )
        if "force_sensitivity" not in owned_merits(sheet):
            report.error(
                "force_knowledge_needs_sensitivity",
                trait,
                f"{knowledge.name} needs the Force Sensitivity merit (L571).",
                "L571",
            )
    _check_pools(
        report,
        kind="abilities",
        order=sheet["priorities"]["abilities"],
        priorities=ABILITY_PRIORITIES,
        spent_by_group=spent,
        source="L292",
    )


def _check_merit_budget(report: Report, sheet: Mapping, settings: Mapping) -> None:
    bought = {m["slug"]: m["value"] for m in sheet["merits"]}
    flaws = _flaw_points(bought)
    merits = sum(v for s, v in bought.items() if MERIT_BY_SLUG[s].kind is Kind.MERIT)
    bonus = flaws if settings["flaw_points_buy_merits"] else 0
    merit_pool = Pool("merits", "Merits", MERIT_POINTS + bonus, merits, "points", "L298-300")
    report.add_pool(merit_pool)
    if merit_pool.over:
        extra = f" + {bonus} from flaws" if bonus else ""
        report.error(
            "merits_over_budget",
            "pool.merits",
            f"Merits cost {merits} points; creation allows {MERIT_POINTS}{extra} (L298-300).",
            "L298-300",
        )
    flaw_pool = Pool("flaws", "Flaws (at most)", MAX_FLAW_POINTS, flaws, "points", "L302")
    report.add_pool(flaw_pool)
    if flaw_pool.over:
        report.error(
            "flaws_over_limit",
            "pool.flaws",
            f"Flaws total {flaws} points; at most {MAX_FLAW_POINTS} are allowed (L302).",
            "L302",
        )


def _check_creation_values(report: Report, sheet: Mapping, view: TraitView) -> None:
    if sheet["power"] != CREATION_POWER:
        report.error(
            "power_at_creation",
            "power",
            f"Power is {sheet['power']}; a new hero starts at Power {CREATION_POWER} (L294).",
            "L294",
        )
    expected = sheet["attributes"]["wits"] + 1
    if sheet["willpower"] != expected:
        report.error(
            "willpower_at_creation",
            "willpower",
            f"Willpower is {sheet['willpower']}; at creation it equals Wits + 1 = "
            f"{expected} (L296).",
            "L296",
        )
    # Each Force knowledge dot brings one ability of its tree (L242); more cost XP later.
    counts = abilities_per_tree(view)
    for knowledge in FORCE_KNOWLEDGES:
        owned, dots = counts[knowledge.slug], sheet["force_knowledges"][knowledge.slug]
        if owned > dots:
            report.error(
                "force_abilities_over_dots",
                f"fk.{knowledge.slug}",
                f"{owned} {knowledge.name} abilities but {dots} {knowledge.name} dots; each "
                "dot brings one ability at creation (L242).",
                "L242",
            )
    for skill, label, source in (("firearms", "Firearms", "L238"), ("melee", "Melee", "L240")):
        owned = sum(1 for t in sheet["techniques"] if t["skill"] == skill)
        dots = sheet["abilities"][skill]
        if owned > dots:
            report.error(
                "techniques_over_dots",
                f"abil.{skill}",
                f"{owned} {label} techniques but {dots} {label} dots; each dot brings one "
                f"technique at creation ({source}).",
                source,
            )


def _prerequisite_messages(report: Report, sheet: Mapping, view: TraitView) -> None:
    creation = sheet["stage"] == "creation"
    add = report.error if creation else report.warn
    granted = merits_granted_by_race({m["slug"]: m["value"] for m in sheet["merits"]})
    for index, row in enumerate(sheet["merits"]):
        if row["slug"] in granted:
            continue  # a race's grant skips its own prerequisites (digest §5.5)
        unmet = unmet_merit_prerequisites(row["slug"], view, choice=row.get("choice") or None)
        for message in unmet:
            add("merit_prerequisite", f"merit.{index}", message + ".", "L843")
    for slug in sheet["force_abilities"]:
        warning = lost_side_warning(slug, view)
        if warning:
            report.warn("force_ability_side_lost", f"fa.{slug}", warning + ".", "L132")
            continue
        for message in unmet_force_ability_prerequisites(slug, view):
            add("force_ability_prerequisite", f"fa.{slug}", message + ".", "L843")


def _check_always(report: Report, sheet: Mapping, view: TraitView) -> None:
    for key, label in (("light_side", "Light side"), ("dark_side", "Dark side")):
        if sheet[key] > sheet["power"]:
            report.error(
                "side_above_power",
                f"side.{key.removesuffix('_side')}",
                f"{label} {sheet[key]} is above Power {sheet['power']}; neither side may "
                "exceed Power (L114).",
                "L114",
            )
    merits = view.merits
    appearance = sheet["attributes"]["appearance"]
    if "monstrous" in merits and appearance != 0:
        report.error(
            "monstrous_appearance",
            "attr.appearance",
            f"Monstrous sets Appearance to 0; it is {appearance} (L390).",
            "L390",
        )
    if "disfigured" in merits and appearance > 2:
        report.error(
            "disfigured_appearance",
            "attr.appearance",
            f"Disfigured caps Appearance at 2; it is {appearance} (L382).",
            "L382",
        )
    for slug in CUSTOM_LORES:
        if sheet["abilities"][slug] and not sheet["lore_names"][slug]:
            report.error(
                "lore_needs_name",
                f"abil.{slug}",
                "A lore of your own with dots needs a name (the blank Lore rows, L35-37).",
                "L35-37",
            )
    if not sheet["languages"]:
        report.warn(
            "no_language",
            "languages",
            "No language yet: the Storyteller sets them by species and background (L304).",
            "L304",
        )


def xp_spent(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> list[Cost]:
    """Price what the sheet gained since creation ended, item by item (L306-322).

    Computed from the sheet and its baseline every time, so purchase order cannot change
    the total and lowering a trait gives its XP back.
    """
    baseline = sheet.get("baseline")
    if sheet["stage"] != "play" or not baseline:
        return []
    settings = _settings(settings)
    costs: list[Cost] = []
    for spec in ATTRIBUTES:
        before, now = baseline["attributes"][spec.slug], sheet["attributes"][spec.slug]
        if now > before:
            costs.append(xp.attribute_cost(spec.label, before, now))
    for spec in ABILITIES:
        before, now = baseline["abilities"][spec.slug], sheet["abilities"][spec.slug]
        if now > before:
            label = trait_label(f"abil.{spec.slug}", sheet)
            costs.append(xp.ability_cost(label, before, now))
    first_dot = settings[xp.FORCE_KNOWLEDGE_FIRST_DOT.key]
    for knowledge in FORCE_KNOWLEDGES:
        before = baseline["force_knowledges"][knowledge.slug]
        now = sheet["force_knowledges"][knowledge.slug]
        if now > before:
            costs.append(
                xp.force_knowledge_cost(knowledge.name, before, now, first_dot_xp=first_dot)
            )
    if sheet["willpower"] > baseline["willpower"]:
        costs.append(xp.willpower_cost(baseline["willpower"], sheet["willpower"]))
    had = {row["name"].casefold(): row for row in baseline["languages"]}
    for row in sheet["languages"]:
        old = had.get(row["name"].casefold())
        written_now = row["read"] or row["write"]
        written_before = bool(old and (old["read"] or old["write"]))
        if old is None or (written_now and not written_before):
            costs.append(
                xp.language_cost(
                    row["name"], spoken=old is None, written=written_now and not written_before
                )
            )
    for slug, value in owned_merits(sheet).items():
        merit = MERIT_BY_SLUG[slug]
        before = baseline["merits"].get(slug, 0)
        if merit.kind is Kind.MERIT and merit.category is not Category.RACE and value > before:
            costs.append(xp.merit_cost(merit.name, before, value))
    view = trait_view(sheet)
    for tree, owned in abilities_per_tree(view).items():
        extra = owned - sheet["force_knowledges"][tree]
        for _ in range(max(0, extra)):
            costs.append(xp.force_ability_cost(f"{FORCE_KNOWLEDGE_BY_SLUG[tree].name} extra"))
    for skill in ("firearms", "melee"):
        extra = sum(1 for t in sheet["techniques"] if t["skill"] == skill)
        extra -= sheet["abilities"][skill]
        for _ in range(max(0, extra)):
            costs.append(xp.technique_cost(skill.capitalize(), "beyond the dots"))
    return costs


def xp_available(sheet: Mapping[str, Any]) -> int:
    """Experience earned plus what an SWSE transfer brings (level × 17, L1320)."""
    return sheet["info"]["experience"] + xp.swse_transfer_xp(sheet["swse_level"])


def check(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> Report:
    """Check a sheet: creation budgets (L288-304) or XP spent (L306-322), and every rule."""
    settings = _settings(settings)
    report = Report()
    view = trait_view(sheet)
    if sheet["stage"] == "creation":
        _check_attribute_budget(report, sheet, settings)
        _check_ability_budget(report, sheet, settings)
        _check_merit_budget(report, sheet, settings)
        _check_creation_values(report, sheet, view)
    else:
        spent = sum(cost.amount for cost in xp_spent(sheet, settings))
        pool = Pool("xp", "Experience", xp_available(sheet), spent, "XP", "L306-322")
        report.add_pool(pool)
        if pool.over:
            report.error(
                "xp_over_budget",
                "pool.xp",
                f"Raises since creation cost {spent} XP; the character has {pool.allowed} "
                f"(L306-322). {-pool.left} XP short.",
                "L306-322",
            )
    _check_always(report, sheet, view)
    _prerequisite_messages(report, sheet, view)
    return report


# --- derived values -----------------------------------------------------------------------


def _movement(sheet: Mapping, merits: Mapping[str, int], level: HealthLevel | None) -> dict:
    walk = (20 + sheet["attributes"]["dexterity"] * 3) / 2  # L212
    run: float | None = walk * 2
    notes = []
    if "short" in merits:
        walk, run = walk / 2, run / 2
        notes.append("Short: halved (L410)")
    if "lame" in merits:
        walk, run = walk / 4, None
        notes.append("Lame: a quarter, no running (L386)")
    if "paraplegic" in merits:
        walk, run = 1, None
        notes.append("Paraplegic: 1 m per round (L404-406)")
    if level is not None and level.name == "Wounded":
        run = None
        notes.append("Wounded: cannot run (L214)")
    if level is not None and level.name == "Crippled":
        walk, run = 1, None
        notes.append("Crippled: 1 m per round (L214)")
    return {"walk_metres": walk, "run_metres": run, "movement_notes": notes}


def derived(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> dict:
    """Compute values the sheet shows but never stores."""
    settings = _settings(settings)
    view = trait_view(sheet)
    merits = view.merits
    attributes = sheet["attributes"]
    track = health_track(sheet, settings)
    marked = sheet["health_marked"]
    level = track[marked - 1] if marked else None
    penalty = 0 if level is None or level.penalty is None else level.penalty
    if "pain_resistance" in merits:
        penalty = 0  # L354
    alignment = classification(sheet["light_side"], sheet["dark_side"])
    initiative_partner = "charisma" if "force_intuition" in merits else "wits"  # L561
    return {
        "willpower_at_creation": attributes["wits"] + 1,  # L296
        **_movement(sheet, merits, level),
        "initiative_pool": attributes["dexterity"] + attributes[initiative_partner],  # L199
        "initiative_with": ATTRIBUTE_BY_SLUG[initiative_partner].label,
        "initiative_preroll": max(sheet["light_side"], sheet["dark_side"]),  # L199
        "force_pools": {k.slug: force_pool(k, view) for k in FORCE_KNOWLEDGES},  # L845
        "health_track": track,
        "health_level": level,
        "wound_penalty": penalty,
        "incapacitated": level is not None and level.penalty is None,
        "hero": sheet["power"] >= 1,  # L96
        "alignment": alignment.value,  # L128
        "alignment_effects": _ALIGNMENT_EFFECTS[alignment.value],
        "xp_available": xp_available(sheet),
        "xp_spent": sum(cost.amount for cost in xp_spent(sheet, settings)),
        "swse_transfer_xp": xp.swse_transfer_xp(sheet["swse_level"]),
    }


_ALIGNMENT_EFFECTS = {  # L130, L170-172
    "light": "−1 difficulty on (L) abilities; Willpower to hold back Passion or act on "
    "Virtue at −2 difficulty.",
    "neutral": "No change to Force ability difficulties.",
    "dark": "−2 difficulty on (D) abilities, +4 on (L) abilities; Willpower to hold back "
    "Passion or act on Virtue at +2 difficulty.",
}


# --- costs --------------------------------------------------------------------------------


def _cost_function(sheet: Mapping, trait: str, settings: Mapping) -> tuple[int, Callable]:
    section, _, slug = trait.partition(".")
    if section == "attr" and slug in ATTRIBUTE_BY_SLUG:
        label = ATTRIBUTE_BY_SLUG[slug].label
        return sheet["attributes"][slug], lambda a, b: xp.attribute_cost(label, a, b)
    if section == "abil" and slug in ABILITY_BY_SLUG:
        label = trait_label(trait, sheet)
        return sheet["abilities"][slug], lambda a, b: xp.ability_cost(label, a, b)
    if section == "fk" and slug in FORCE_KNOWLEDGE_BY_SLUG:
        label, first = FORCE_KNOWLEDGE_BY_SLUG[slug].name, settings["force_knowledge_first_dot_xp"]
        return sheet["force_knowledges"][slug], lambda a, b: xp.force_knowledge_cost(
            label, a, b, first_dot_xp=first
        )
    if trait == "willpower":
        return sheet["willpower"], xp.willpower_cost
    raise InvalidEdit(trait, f"“{trait}” has no XP price.")


def advance_cost(
    sheet: Mapping[str, Any],
    trait: str,
    new_value: int,
    settings: Mapping[str, Any] | None = None,
) -> Cost:
    """Price a raise in XP (L306-322): each step priced on its new value, then summed."""
    current, price = _cost_function(sheet, trait, _settings(settings))
    try:
        return price(current, new_value)
    except ValueError as error:
        raise InvalidEdit(trait, str(error)) from None


def next_costs(sheet: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> dict:
    """Give the XP price of one more dot for every trait XP can raise (L306-322)."""
    settings = _settings(settings)
    costs: dict[str, Cost] = {}
    traits = [
        *(f"attr.{t.slug}" for t in ATTRIBUTES),
        *(f"abil.{t.slug}" for t in ABILITIES),
        *(f"fk.{k.slug}" for k in FORCE_KNOWLEDGES),
        "willpower",
    ]
    for trait in traits:
        current, _ = _cost_function(sheet, trait, settings)
        if current < (MAX_WILLPOWER if trait == "willpower" else 5):
            costs[trait] = advance_cost(sheet, trait, current + 1, settings)
    return costs


# --- import -------------------------------------------------------------------------------


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise InvalidSheet(message)


def _replay(sheet: dict, trait: str, value: Any, where: str) -> dict:
    try:
        return apply_edit(sheet, trait, str(value))
    except InvalidEdit as error:
        raise InvalidSheet(f"“{where}”: {error.message}") from None


def _whole(value: Any, where: str) -> None:
    _expect(isinstance(value, int) and not isinstance(value, bool), f"“{where}” must be a number.")


def validate_sheet(data: Any) -> dict:
    """Return the normal form of an imported sheet, or raise InvalidSheet saying what is wrong.

    Every value is replayed through apply_edit on a blank sheet, so an import can hold
    nothing an edit would refuse; missing sections take their blank values.
    """
    _expect(isinstance(data, dict), "The sheet must be a JSON object.")
    sheet = blank_sheet()
    unknown = set(data) - set(sheet)
    _expect(not unknown, f"Unknown sheet sections: {', '.join(sorted(unknown))}.")
    for section in ("info", "attributes", "abilities", "lore_names", "force_knowledges"):
        part = data.get(section, {})
        _expect(isinstance(part, dict), f"“{section}” must be a JSON object.")
        unknown = set(part) - set(sheet[section])
        _expect(not unknown, f"Unknown keys in “{section}”: {', '.join(sorted(unknown))}.")
    priorities = data.get("priorities", sheet["priorities"])
    _expect(isinstance(priorities, dict), "“priorities” must be a JSON object.")
    for kind, groups in (("attributes", _ATTR_GROUP_KEYS), ("abilities", _ABIL_GROUP_KEYS)):
        order = priorities.get(kind, list(groups))
        _expect(
            isinstance(order, list) and sorted(map(str, order)) == sorted(groups),
            f"“priorities.{kind}” must list {', '.join(groups)} once each, primary first.",
        )
        sheet["priorities"][kind] = list(order)
    for key, value in data.get("info", {}).items():
        if key in NUMBER_LIMITS:
            _whole(value, f"info.{key}")
        else:
            _expect(isinstance(value, str), f"“info.{key}” must be text.")
        sheet = _replay(sheet, f"info.{key}", value, f"info.{key}")
    # Merits first: Monstrous and Disfigured change what Appearance may be.
    merits = data.get("merits", [])
    _expect(isinstance(merits, list), "“merits” must be a list.")
    for row in merits:
        _expect(
            isinstance(row, dict) and set(row) <= {"slug", "value", "choice"},
            "Each merit is an object with slug, value and choice.",
        )
        _whole(row.get("value"), "merits.value")
        raw = f"{row.get('slug')}|{row.get('value')}|{row.get('choice', '')}"
        sheet = _add_merit_for_import(sheet, raw)
    for section, prefix in (
        ("attributes", "attr"),
        ("abilities", "abil"),
        ("lore_names", "lorename"),
        ("force_knowledges", "fk"),
    ):
        for key, value in data.get(section, {}).items():
            if section == "lore_names":
                _expect(isinstance(value, str), f"“{section}.{key}” must be text.")
            else:
                _whole(value, f"{section}.{key}")
            sheet = _replay(sheet, f"{prefix}.{key}", value, f"{section}.{key}")
    for key, trait in (
        ("power", "power"),
        ("willpower", "willpower"),
        ("power_current", "power_current"),
        ("willpower_current", "willpower_current"),
        ("light_side", "side.light"),
        ("dark_side", "side.dark"),
        ("swse_level", "swse_level"),
        ("health_marked", "health"),
    ):
        if key in data:
            _whole(data[key], key)
            sheet = _replay(sheet, trait, data[key], key)
    for slug in _list(data, "force_abilities", str):
        _expect(slug in FORCE_ABILITY_BY_SLUG, f"“{slug}” is not a Force ability.")
        _expect(slug not in sheet["force_abilities"], f"“{slug}” is listed twice.")
        sheet["force_abilities"].append(slug)
    for row in _list(data, "languages", dict):
        sheet = _replay(sheet, "language.add", row.get("name", ""), "languages")
        index = len(sheet["languages"]) - 1
        for field in ("read", "write"):
            _expect(isinstance(row.get(field, False), bool), f"“languages.{field}” is true/false.")
            sheet["languages"][index][field] = row.get(field, False)
    for row in _list(data, "techniques", dict):
        raw = f"{row.get('skill')}|{row.get('slug')}|{row.get('kind', '')}"
        sheet = _replay(sheet, "technique.add", raw, "techniques")
    for row in _list(data, "weapons", dict):
        _expect(set(row) <= set(_WEAPON_FIELDS), "Each weapon has name, difficulty, rate, damage.")
        sheet = _replay(sheet, "weapon.add", row.get("name", ""), "weapons")
        index = len(sheet["weapons"]) - 1
        for field in ("difficulty", "rate", "damage"):
            if field in row:
                sheet = _replay(sheet, f"weapon.{index}.{field}", row[field], f"weapons.{field}")
    stage = data.get("stage", "creation")
    _expect(stage in STAGES, "“stage” is creation or play.")
    if stage == "play":
        baseline = data.get("baseline")
        _expect(isinstance(baseline, dict), "A sheet in play needs its creation baseline.")
        expected_keys = set(_purchasable(sheet))
        _expect(set(baseline) == expected_keys, "The baseline does not have the sheet's shape.")
        sheet["stage"], sheet["baseline"] = "play", copy.deepcopy(baseline)
    return sheet


def _list(data: Mapping, key: str, kind: type) -> list:
    rows = data.get(key, [])
    _expect(isinstance(rows, list), f"“{key}” must be a list.")
    _expect(all(isinstance(row, kind) for row in rows), f"Every entry of “{key}” is malformed.")
    return rows


def _add_merit_for_import(sheet: dict, raw: str) -> dict:
    # Prerequisites are judged by check() once the whole sheet is in, not in file order.
    slug, _, rest = raw.partition("|")
    value, _, choice = rest.partition("|")
    merit = MERIT_BY_SLUG.get(slug)
    _expect(merit is not None, f"“{slug}” is not a merit or flaw of the SWd10 catalog.")
    _expect(int(value) in merit.allowed_values, f"{merit.name} costs {merit.cost_label}.")
    sheet["merits"].append({"slug": slug, "value": int(value), "choice": choice})
    _expect(
        _flaw_points({m["slug"]: m["value"] for m in sheet["merits"]}) <= MAX_FLAW_POINTS,
        f"Flaws total more than {MAX_FLAW_POINTS} points (L302).",
    )
    return sheet


def demo_sheet() -> dict:
    """Return a complete, legal creation sheet: the digest's base character B (§8)."""
    sheet = blank_sheet()
    sheet["info"] |= {
        "player": "Demo player",
        "chronicle": "Shadows of the Outer Rim",
        "nature": "Survivor",
        "demeanor": "Loner",
        "species": "Human",
        "destiny": "To find the lost Jedi archive",
        "passion": "Protect the crew",
        "virtue": "Loyalty",
    }
    sheet["attributes"] |= {
        "strength": 2, "dexterity": 4, "stamina": 3,  # physical: 1 + 3 + 2 = 6
        "charisma": 3, "manipulation": 2, "appearance": 2,  # social: 4
        "perception": 2, "intelligence": 2, "wits": 2,  # mental: 3
    }  # fmt: skip
    sheet["abilities"] |= {
        "alertness": 2, "athletics": 2, "acrobatics": 3, "brawl": 1, "dodge": 3,  # 11
        "firearms": 2, "melee": 2, "pilot": 2, "meditation": 1,  # 7
        "lore_jedi": 2, "technology": 1,  # 3, plus Battle 1 from the Knowledges pool
    }  # fmt: skip
    sheet["force_knowledges"]["battle"] = 1
    sheet["willpower"] = sheet["willpower_current"] = 3  # Wits 2 + 1
    sheet["light_side"] = 1
    sheet["merits"] = [
        {"slug": "force_sensitivity", "value": 1, "choice": ""},
        {"slug": "ambidextrous", "value": 1, "choice": ""},
        {"slug": "cat_like_balance", "value": 1, "choice": ""},
    ]
    sheet["force_abilities"] = ["battle_strike"]
    sheet["languages"] = [
        {"name": "Basic", "read": True, "write": True},
        {"name": "Huttese", "read": False, "write": False},
    ]
    sheet["techniques"] = [
        {"skill": "firearms", "slug": "blaster_pistols", "kind": ""},
        {"skill": "firearms", "slug": "blaster_rifles", "kind": ""},
        {"skill": "melee", "slug": "simple_weapons", "kind": ""},
        {"skill": "melee", "slug": "vibroblades", "kind": ""},
    ]
    sheet["weapons"] = [
        {"name": "Heavy blaster pistol", "difficulty": 6, "rate": "1", "damage": 3},
        {"name": "Vibroknife", "difficulty": 6, "rate": "1", "damage": 2},
    ]
    return sheet
