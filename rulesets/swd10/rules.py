"""SWd10 rules: creation and XP checks, XP prices, derived values, and the rows a sheet
page prints (the sheet's shape is SCHEMA in sheet.py; edits are in edits.py).

In play, raises are paid from Experience: what was spent is the price of the difference
between the sheet and its baseline, computed on every check and never stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from rulesets.core import (
    Cost,
    InvalidEdit,
    Pool,
    Report,
    RowKind,
    Setter,
    Setting,
    Stage,
    Status,
    TraitRow,
    resolve_settings,
)
from rulesets.core.parsing import ROW_NUMBER
from rulesets.core.stage import STAGE_CHOICES, STAGE_TRAIT
from rulesets.swd10 import armor, paths, spends, xp
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
    FORCE_KNOWLEDGE_BY_SLUG,
    FORCE_KNOWLEDGES,
    GIANT_LEVEL,
    HERO_HEALTH,
    LORE_NAME_LIMIT,
    MAX_FLAW_POINTS,
    MAX_POWER,
    MAX_SIDE,
    MAX_SWSE_LEVEL,
    MAX_WILLPOWER,
    MERIT_BY_SLUG,
    MERIT_POINTS,
    NUMBER_FIELDS,
    NUMBER_LIMITS,
    RANK_LABELS,
    RATE_LIMIT,
    TEXT_FIELDS,
    WEAPON_DAMAGE_RANGE,
    WEAPON_DIFFICULTY_RANGE,
    WEAPON_NAME_LIMIT,
    Category,
    HealthLevel,
    Kind,
)
from rulesets.swd10.dice import DICE_SETTINGS
from rulesets.swd10.prerequisites import (
    TraitView,
    abilities_per_tree,
    classification,
    force_pool,
    lost_side_warning,
    merits_granted_by_race,
    opposite_side_message,
    unmet_force_ability_prerequisites,
    unmet_merit_prerequisites,
)

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
    xp.MERIT_RAISE,
    xp.FLAW_BUY_OFF,
    Setting(
        key="flaw_points_buy_merits",
        label="Flaw points",
        default=True,
        source="L300 leaves the rate to the Storyteller; digest §2.5 proposes 1 for 1",
        help="Whether each flaw point the Storyteller approves buys one more merit point.",
        choices=((True, "each buys one merit point"), (False, "buy no merit points")),
    ),
    Setting(
        key="race_merit_species",
        label="Race merits",
        default="own_species",
        source="L641-653 do not say who may take them; digest §5.5 [INTERP] proposes only a "
        "character of that species",
        help="Whether Kel Dor, Twi'lek and Zabrak fit only a character of that species.",
        choices=(("own_species", "only a character of that species"), ("any", "any character")),
    ),
    Setting(
        key="side_tag_bars",
        label="Light and Dark Force abilities",
        default=False,
        source="L130 gives the (D) and (L) tags difficulty modifiers only; digest ambiguity "
        "11 proposes no bar",
        help="Whether a Light side character may take a Dark side ability (and a Dark side "
        "character a Light side one), paying only the difficulty change, or may not.",
        choices=(
            (False, "anyone may take them; only the difficulty changes"),
            (True, "not for a character of the other side"),
        ),
    ),
    # The seed gives no starting sides or Destiny points (digest §2.7, ambiguity 8); a new
    # hero's Power is 1 (L294) and neither side may exceed Power (L114), hence the cap.
    Setting(
        key="starting_light_side",
        label="Light side of a new hero",
        default=0,
        source="not given (L114-116 leave it to the Storyteller); digest §2.7 and ambiguity 8 "
        "propose 0",
        help="The Light side a new character starts with; at most Power, which starts at 1.",
        minimum=0,
        maximum=CREATION_POWER,
    ),
    Setting(
        key="starting_dark_side",
        label="Dark side of a new hero",
        default=0,
        source="not given (L114-116 leave it to the Storyteller); digest §2.7 and ambiguity 8 "
        "propose 0",
        help="The Dark side a new character starts with; at most Power, which starts at 1.",
        minimum=0,
        maximum=CREATION_POWER,
    ),
    Setting(
        key="starting_destiny_points",
        label="Destiny points of a new hero",
        default=0,
        source="not given (L79 leaves it to the Storyteller); digest §2.7 and ambiguity 8 "
        "propose 0",
        help="The Destiny points a new character starts with.",
        minimum=0,
        maximum=NUMBER_LIMITS["destiny_points"][1],
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
    *armor.SETTINGS,
    *spends.SETTINGS,
    *DICE_SETTINGS,
)
_GROUP_LABEL = dict(ATTRIBUTE_GROUPS) | dict(ABILITY_GROUPS)
RANK_CHOICES = tuple((str(rank), label) for rank, label in enumerate(RANK_LABELS))
XP_UNIT = "XP"

# --- reading the sheet -------------------------------------------------------------------


def owned_merits(sheet: Mapping[str, Any]) -> dict[str, int]:
    """Every merit and flaw the character has, race grants included (slug -> points)."""
    owned = {m["slug"]: m["value"] for m in sheet["merits"]}
    return merits_granted_by_race(owned) | owned


def creation_willpower(sheet: Mapping[str, Any]) -> int:
    """Return permanent Willpower as creation sets it: Wits + 1 (L296)."""
    return min(sheet["attributes"]["wits"] + 1, MAX_WILLPOWER)


# What a player cannot set while the sheet is in creation, because it follows another trait
# (L296; the current pool is full until play spends it, L176), and why.
CREATION_FOLLOWS: dict[str, str] = {
    "willpower": "At creation Willpower is Wits + 1 ({willpower}); it follows Wits.",
    "willpower_current": "At creation current Willpower is full ({willpower}); "
    "it can be spent once the character is in play.",
}


def creation_lock(sheet: Mapping[str, Any], trait: str) -> str:
    """Return why `trait` cannot be set while the sheet is in creation, or ""."""
    if sheet["stage"] != Stage.CREATION or trait not in CREATION_FOLLOWS:
        return ""
    return CREATION_FOLLOWS[trait].format(willpower=creation_willpower(sheet))


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


def health_track(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[HealthLevel]:
    """The health levels this character has: a hero's seven, a commoner's four (L98)."""
    settings = resolve_settings(SETTINGS, settings)
    if sheet["power"] == 0:
        levels = list(COMMONER_HEALTH)
        return levels if settings["commoner_health_levels"] == 4 else levels[1:]
    extra = [GIANT_LEVEL] if "giant" in owned_merits(sheet) else []  # L346
    return extra + list(HERO_HEALTH)


_SIMPLE_LABELS = {
    "power": "Power",
    "power_current": "Current Power",
    "willpower": "Willpower",
    "willpower_current": "Current Willpower",
    "health": "Health",
    "swse_level": "SWSE level",
    STAGE_TRAIT: "Stage",
    "merit.add": "New merit or flaw",
    "fa.add": "New Force ability",
    "fa.remove": "Force ability removed",
    "language.add": "New language",
    "technique.add": "New technique",
    "weapon.add": "New weapon",
    "armor.add": "New armor or shield",
    "destiny.refill": "Destiny point: current Willpower refilled",
}
_ROW_NOUNS = {
    "merit": "Merit or flaw",
    "language": "Language",
    "technique": "Technique",
    "weapon": "Weapon",
    "armor": "Armor or shield",
}
_ROW_FIELDS = {
    "value": "points",
    "remove": "removed",
    "read": "read",
    "write": "written",
    "name": "name",
    "difficulty": "difficulty",
    "rate": "rate",
    "damage": "damage",
    "rating": "rating",
    "lost": "points lost",
    "worn": "worn",
}


def trait_label(trait: str) -> str:
    """Name a trait key the way the sheet prints it ("attr.wits" -> "Wits")."""
    section, _, rest = trait.partition(".")
    head, _, tail = rest.partition(".")
    if section == "attr" and rest in ATTRIBUTE_BY_SLUG:
        return ATTRIBUTE_BY_SLUG[rest].label
    if section == "abil" and rest in ABILITY_BY_SLUG:
        return ABILITY_BY_SLUG[rest].label
    if section == "lorename" and rest in CUSTOM_LORES:
        return "Name of your own lore"
    if section == "fk" and rest in FORCE_KNOWLEDGE_BY_SLUG:
        return FORCE_KNOWLEDGE_BY_SLUG[rest].name
    if section == "info" and rest in dict(TEXT_FIELDS + NUMBER_FIELDS):
        return dict(TEXT_FIELDS + NUMBER_FIELDS)[rest]
    if section == "prio" and head in ("attributes", "abilities") and tail in _GROUP_LABEL:
        return f"{_GROUP_LABEL[tail]} priority"
    if section == "side" and rest in ("light", "dark"):
        return f"{rest.capitalize()} side"
    if section in _ROW_NOUNS and ROW_NUMBER.fullmatch(head) and tail in _ROW_FIELDS:
        return f"{_ROW_NOUNS[section]} {int(head) + 1}: {_ROW_FIELDS[tail]}"
    return _SIMPLE_LABELS.get(trait, trait)


def ability_label(sheet: Mapping[str, Any], slug: str) -> str:
    """Name an ability as this sheet prints it: a lore of the player's own by its name."""
    if slug in CUSTOM_LORES and sheet["lore_names"][slug]:
        return f"Lore: {sheet['lore_names'][slug]}"
    return ABILITY_BY_SLUG[slug].label


def sheet_label(sheet: Mapping[str, Any], trait: str) -> str:
    """Name a trait key for this sheet (a lore of the player's own by its chosen name)."""
    section, _, rest = trait.partition(".")
    if section == "abil" and rest in ABILITY_BY_SLUG:
        return ability_label(sheet, rest)
    return trait_label(trait)


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
                f"group it allows {pool.allowed}. Remove {-pool.left}.",
                source,
            )
        elif pool.left:
            report.warn(
                f"{kind}_left",
                f"pool.{pool.key}",
                f"{label}: {pool.left} of {pool.allowed} dots still to place.",
                source,
            )


def _check_attribute_budget(report: Report, sheet: Mapping, settings: Mapping) -> None:
    free_dot = settings["attribute_free_dot"]
    spent = dict.fromkeys((key for key, _ in ATTRIBUTE_GROUPS), 0)
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
    spent = dict.fromkeys((key for key, _ in ABILITY_GROUPS), 0)
    for spec in ABILITIES:
        value = sheet["abilities"][spec.slug]
        spent[spec.group] += value
        if value > CREATION_ABILITY_CAP:
            report.error(
                "ability_above_creation_cap",
                f"abil.{spec.slug}",
                f"{ability_label(sheet, spec.slug)} is {value}; no ability may be "
                f"above {CREATION_ABILITY_CAP} at creation.",
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
                "L292",
            )
            continue
        spent["knowledges"] += value
        if value > CREATION_ABILITY_CAP:
            report.error(
                "force_knowledge_above_creation_cap",
                trait,
                f"{knowledge.name} is {value}; no knowledge may be above "
                f"{CREATION_ABILITY_CAP} at creation.",
                "L292",
            )
        if "force_sensitivity" not in owned_merits(sheet):
            report.error(
                "force_knowledge_needs_sensitivity",
                trait,
                f"{knowledge.name} needs the Force Sensitivity merit.",
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
    flaws = flaw_points(bought)
    merits = sum(v for s, v in bought.items() if MERIT_BY_SLUG[s].kind is Kind.MERIT)
    bonus = flaws if settings["flaw_points_buy_merits"] else 0
    merit_pool = Pool("merits", "Merits", MERIT_POINTS + bonus, merits, "points", "L298-300")
    report.add_pool(merit_pool)
    if merit_pool.over:
        extra = f" + {bonus} from flaws" if bonus else ""
        report.error(
            "merits_over_budget",
            "pool.merits",
            f"Merits cost {merits} points; creation allows {MERIT_POINTS}{extra}.",
            "L298-300",
        )
    flaw_pool = Pool("flaws", "Flaws (at most)", MAX_FLAW_POINTS, flaws, "points", "L302", cap=True)
    report.add_pool(flaw_pool)
    if flaw_pool.over:
        report.error(
            "flaws_over_limit",
            "pool.flaws",
            f"Flaws total {flaws} points; at most {MAX_FLAW_POINTS} are allowed.",
            "L302",
        )


def _check_creation_values(report: Report, sheet: Mapping, view: TraitView) -> None:
    if sheet["power"] != CREATION_POWER:
        report.error(
            "power_at_creation",
            "power",
            f"Power is {sheet['power']}; a new hero starts at Power {CREATION_POWER}.",
            "L294",
        )
    expected = creation_willpower(sheet)
    if sheet["willpower"] != expected:
        report.error(
            "willpower_at_creation",
            "willpower",
            f"Willpower is {sheet['willpower']}; at creation it equals Wits + 1 = {expected}.",
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
                "dot brings one ability at creation.",
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
                f"technique at creation.",
                source,
            )


def _prerequisite_messages(
    report: Report, sheet: Mapping, view: TraitView, settings: Mapping[str, Any]
) -> None:
    creation = sheet["stage"] == "creation"
    add = report.error if creation else report.warn
    granted = merits_granted_by_race({m["slug"]: m["value"] for m in sheet["merits"]})
    for index, row in enumerate(sheet["merits"]):
        if row["slug"] in granted:
            continue  # a race's grant skips its own prerequisites (digest §5.5)
        unmet = unmet_merit_prerequisites(
            row["slug"],
            view,
            choice=row.get("choice") or None,
            species_bound=settings["race_merit_species"] == "own_species",
        )
        for message in unmet:
            add("merit_prerequisite", f"merit.{index}", message + ".", "L843")
    for slug in sheet["force_abilities"]:
        barred = settings["side_tag_bars"] and opposite_side_message(slug, view)
        if barred:
            add("force_ability_other_side", f"fa.{slug}", barred + ".", "L130")
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
                "exceed Power.",
                "L114",
            )
    merits = view.merits
    appearance = sheet["attributes"]["appearance"]
    if "monstrous" in merits and appearance != 0:
        report.error(
            "monstrous_appearance",
            "attr.appearance",
            f"Monstrous sets Appearance to 0; it is {appearance}.",
            "L390",
        )
    if "disfigured" in merits and appearance > 2:
        report.error(
            "disfigured_appearance",
            "attr.appearance",
            f"Disfigured caps Appearance at 2; it is {appearance}.",
            "L382",
        )
    for slug in CUSTOM_LORES:
        if sheet["abilities"][slug] and not sheet["lore_names"][slug]:
            report.error(
                "lore_needs_name",
                f"abil.{slug}",
                "A lore of your own with dots needs a name.",
                "L35-37",
            )
    if not sheet["languages"]:
        report.warn(
            "no_language",
            "languages",
            "No language yet: the Storyteller sets them by species and background.",
            "L304",
        )


def xp_spent(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[Cost]:
    """Price what the sheet gained since creation ended, item by item (L306-322).

    Computed from the sheet and its baseline every time, so purchase order cannot change
    the total and lowering a trait gives its XP back.
    """
    baseline = sheet.get("baseline")
    if sheet["stage"] != "play" or not baseline:
        return []
    settings = resolve_settings(SETTINGS, settings)
    costs: list[Cost] = []
    for spec in ATTRIBUTES:
        before, now = baseline["attributes"][spec.slug], sheet["attributes"][spec.slug]
        if now > before:
            costs.append(xp.attribute_cost(spec.label, before, now))
    for spec in ABILITIES:
        before, now = baseline["abilities"][spec.slug], sheet["abilities"][spec.slug]
        if now > before:
            label = ability_label(sheet, spec.slug)
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
            raise_by = settings[xp.MERIT_RAISE.key]
            costs.append(xp.merit_cost(merit.name, before, value, raise_by=raise_by))
    if settings[xp.FLAW_BUY_OFF.key] == "merit_price":
        now_owned = owned_merits(sheet)
        for slug, before in baseline["merits"].items():
            flaw = MERIT_BY_SLUG[slug]
            after = now_owned.get(slug, 0)
            if flaw.kind is Kind.FLAW and after < before:
                costs.append(xp.flaw_buy_off_cost(flaw.name, before, after))
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


def check(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Report:
    """Check a sheet: creation budgets (L288-304) or XP spent (L306-322), and every rule."""
    settings = resolve_settings(SETTINGS, settings)
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
                f"Raises since creation cost {spent} XP; the character has {pool.allowed}. "
                f"{-pool.left} XP short.",
                "L306-322",
            )
    _check_always(report, sheet, view)
    _prerequisite_messages(report, sheet, view, settings)
    return report


# --- derived values -----------------------------------------------------------------------


def _movement(sheet: Mapping, merits: Mapping[str, int], level: HealthLevel | None) -> dict:
    walk = (20 + sheet["attributes"]["dexterity"] * 3) / 2  # L212
    run: float | None = walk * 2
    notes = []
    if "short" in merits:
        walk, run = walk / 2, run / 2
        notes.append("Short: halved")
    if "lame" in merits:
        walk, run = walk / 4, None
        notes.append("Lame: a quarter, no running")
    if "paraplegic" in merits:
        walk, run = 1, None
        notes.append("Paraplegic: 1 m per round")
    if level is not None and level.name == "Wounded":
        run = None
        notes.append("Wounded: cannot run")
    if level is not None and level.name == "Crippled":
        walk, run = 1, None
        notes.append("Crippled: 1 m per round")
    return {"walk_metres": walk, "run_metres": run, "movement_notes": notes}


def derived(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict:
    """Compute values the sheet shows but never stores."""
    settings = resolve_settings(SETTINGS, settings)
    view = trait_view(sheet)
    merits = view.merits
    attributes = sheet["attributes"]
    track = health_track(sheet, settings)
    # A track shortened by a reading or a lost merit shows its last box as the mark.
    marked = min(sheet["health_marked"], len(track))
    level = track[marked - 1] if marked else None
    penalty = 0 if level is None or level.penalty is None else level.penalty
    if "pain_resistance" in merits:
        penalty = 0  # L354
    alignment = classification(sheet["light_side"], sheet["dark_side"])
    protections = armor.protections(sheet["armor"], set(merits), view.merit_choices)
    worn_armor = armor.worn(protections, armor.ARMOR)
    worn_shield = armor.worn(protections, armor.SHIELD)
    initiative_partner = "charisma" if "force_intuition" in merits else "wits"  # L561
    return {
        "willpower_at_creation": creation_willpower(sheet),  # L296
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
        "protections": protections,
        "armor_worn": worn_armor,
        "shield_worn": worn_shield,
        "armor_soak": worn_armor.soak if worn_armor else 0,  # L185
        "shield_soak": worn_shield.soak if worn_shield else 0,  # L185
        "armor_penalty": worn_armor.penalty if worn_armor else 0,  # L741
        "stamina_soak": attributes["stamina"],  # L187
        # L187: a commoner's Stamina soaks bashing damage only.
        "stamina_soaks": "bashing and lethal" if sheet["power"] >= 1 else "bashing only",
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
        label = ability_label(sheet, slug)
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
    settings: Mapping[str, Any],
) -> Cost:
    """Price a raise in XP (L306-322): each step priced on its new value, then summed."""
    current, price = _cost_function(sheet, trait, resolve_settings(SETTINGS, settings))
    try:
        return price(current, new_value)
    except ValueError as error:
        raise InvalidEdit(trait, str(error)) from None


# --- ranges shared by edits and rows ------------------------------------------------------


def attribute_range(sheet: Mapping[str, Any], slug: str) -> tuple[int, int]:
    """Return the lowest and highest value an attribute may take on this sheet."""
    spec = ATTRIBUTE_BY_SLUG[slug]
    merits = owned_merits(sheet)
    if slug == "appearance" and "monstrous" in merits:
        return 0, 0  # L390: Monstrous sets Appearance to 0
    if slug == "appearance" and "disfigured" in merits:
        return spec.minimum, 2  # L382
    return spec.minimum, spec.maximum


def floor_in_play(sheet: Mapping[str, Any], section: str, slug: str) -> int:
    """Return what a trait was when creation ended: in play it never goes below that."""
    baseline = sheet["baseline"]
    if sheet["stage"] != Stage.PLAY or baseline is None:
        return 0
    return baseline[section] if slug == "" else baseline[section][slug]


def number_traits(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> dict:
    """Single-number traits: trait -> (sheet key, lowest, highest)."""
    return {
        "power": ("power", 0, MAX_POWER),
        "power_current": ("power_current", 0, sheet["power"]),  # L100
        "willpower": ("willpower", 1, MAX_WILLPOWER),
        "willpower_current": ("willpower_current", 0, sheet["willpower"]),
        "side.light": ("light_side", 0, MAX_SIDE),
        "side.dark": ("dark_side", 0, MAX_SIDE),
        "health": ("health_marked", 0, len(health_track(sheet, settings))),
        "swse_level": ("swse_level", 0, MAX_SWSE_LEVEL),
    }


def flaw_points(merits: Mapping[str, int]) -> int:
    return sum(v for s, v in merits.items() if MERIT_BY_SLUG[s].kind is Kind.FLAW)


def merit_values(sheet: Mapping[str, Any], index: int) -> tuple[int, ...]:
    """Return the points merit row `index` may be set to without passing the flaw cap."""
    row = sheet["merits"][index]
    merit = MERIT_BY_SLUG[row["slug"]]
    if merit.kind is not Kind.FLAW:
        return merit.allowed_values
    others = flaw_points(owned_merits(sheet)) - row["value"]
    return tuple(v for v in merit.allowed_values if others + v <= MAX_FLAW_POINTS)


# --- rows ---------------------------------------------------------------------------------

# What current Power is, for the sheet and the print (L100).
CURRENT_POWER_NOTE = "Gains one with each successful roll in battle; a full rest empties it."

# What the seed reserves to the Storyteller (source line, plain note).
_STORYTELLER = {
    "power": ("000:L96", "The Storyteller decides when Power grows."),
    "side.light": ("000:L116", "The Storyteller decides when a grade is reached."),
    "side.dark": ("000:L116", "The Storyteller decides when a grade is reached."),
    "info.destiny": ("000:L79", "The Storyteller defines it and may keep it hidden."),
    "info.experience": ("000:L394", "Experience is what the Storyteller awards."),
    "swse_level": ("000:L1316", "The Storyteller approves a character brought from SWSE."),
}
_TEXT_SOURCES = {"passion": "000:L59-61", "virtue": "000:L59-61"}
# What a Destiny point buys beyond a roll's spends (which the roll panel offers, L83-85).
_DESTINY_POINTS = {
    "note": "With a roll (one a round), or for "
    + ", ".join(use for use, _source in spends.DESTINY_ELSEWHERE)
    + ".",
    "source": "000:L81-94",
}


class _Rows:
    """Build the rows of one sheet, in the order the seed's sheet prints them."""

    def __init__(self, sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> None:
        self.sheet = sheet
        self.settings = resolve_settings(SETTINGS, settings)
        self.play = sheet["stage"] == Stage.PLAY
        self.rows: list[TraitRow] = []

    def add(self, key: str, section: str, value: Any, kind: RowKind, **extra: Any) -> None:
        source, note = _STORYTELLER.get(key, ("", ""))
        extra.setdefault("label", trait_label(key))
        extra.setdefault("shown", str(value))
        if source:
            extra |= {"setter": Setter.GM, "source": source}
            extra.setdefault("note", note)
        self.rows.append(TraitRow(key=key, section=section, value=value, kind=kind, **extra))

    def dots(
        self, key: str, section: str, value: int, low: int, high: int, *, floor: int, **extra: Any
    ) -> None:
        """A dotted trait: in play it cannot go below what creation ended with."""
        minimum = max(low, floor)
        if minimum > high:
            extra["locked"] = f"It was {floor} when creation ended and may now be at most {high}."
        if value < high and key != "power" and not key.startswith("side."):
            extra["next_cost"] = advance_cost(self.sheet, key, value + 1, self.settings)
        self.add(key, section, value, RowKind.DOTS, minimum=minimum, maximum=high, **extra)

    def text(self, key: str, section: str, value: str, **extra: Any) -> None:
        self.add(key, section, value, RowKind.TEXT, **extra)

    def build(self) -> list[TraitRow]:
        self.header()
        self.traits("attributes", "attr", ATTRIBUTES, ATTRIBUTE_GROUPS)
        self.traits("abilities", "abil", ABILITIES, ABILITY_GROUPS)
        self.force()
        self.merits()
        self.languages()
        self.weapons()
        self.armor()
        self.other()
        self.add(
            STAGE_TRAIT,
            "stage",
            self.sheet["stage"],
            RowKind.CHOICE,
            shown=dict(STAGE_CHOICES)[self.sheet["stage"]],
            choices=STAGE_CHOICES,
            source="000:L288-322",
        )
        return self.rows

    def header(self) -> None:
        info = self.sheet["info"]
        for key, _label in TEXT_FIELDS:
            if key not in _TEXT_SOURCES:
                self.text(f"info.{key}", "header", info[key], source="000:L3-5")
        for key, _label in NUMBER_FIELDS:
            low, high = NUMBER_LIMITS[key]
            extra = _DESTINY_POINTS if key == "destiny_points" else {}
            self.add(
                f"info.{key}",
                "header",
                info[key],
                RowKind.NUMBER,
                minimum=low,
                maximum=high,
                **extra,
            )

    def traits(self, section: str, prefix: str, specs: Any, groups: Any) -> None:
        sheet = self.sheet
        for group, group_label in groups:
            rank = sheet["priorities"][section].index(group)
            self.add(
                f"prio.{section}.{group}",
                section,
                str(rank),
                RowKind.CHOICE,
                shown=RANK_LABELS[rank],
                choices=RANK_CHOICES,
                group=group_label,
                source="000:L290" if section == "attributes" else "000:L292",
            )
            for spec in specs:
                if spec.group == group:
                    self.trait(section, prefix, spec, group_label)

    def trait(self, section: str, prefix: str, spec: Any, group_label: str) -> None:
        sheet, key = self.sheet, f"{prefix}.{spec.slug}"
        value = sheet[section][spec.slug]
        extra: dict[str, Any] = {"group": group_label, "source": f"000:{spec.source}"}
        if prefix == "attr":
            low, high = attribute_range(sheet, spec.slug)
            if (low, high) == (0, 0):
                extra["locked"] = "The Monstrous flaw sets Appearance to 0."
            elif high < spec.maximum:
                extra["note"] = f"The Disfigured flaw caps Appearance at {high}."
        else:
            low, high = spec.minimum, spec.maximum
        if spec.slug in CUSTOM_LORES:
            self.text(
                f"lorename.{spec.slug}",
                section,
                sheet["lore_names"][spec.slug],
                maximum=LORE_NAME_LIMIT,
                group=group_label,
                source="000:L35-37",
            )
            extra["label"] = ability_label(sheet, spec.slug)
        floor = floor_in_play(sheet, section, spec.slug)
        self.dots(key, section, value, low, high, floor=floor, **extra)

    def force(self) -> None:
        sheet = self.sheet
        view = trait_view(sheet)
        for knowledge in FORCE_KNOWLEDGES:
            first, second = (ATTRIBUTE_BY_SLUG[a].label for a in knowledge.attributes)
            self.dots(
                f"fk.{knowledge.slug}",
                "force",
                sheet["force_knowledges"][knowledge.slug],
                0,
                5,
                floor=floor_in_play(sheet, "force_knowledges", knowledge.slug),
                source=f"000:{knowledge.source}",
                note=f"Pool {force_pool(knowledge, view)}: the better of {first} and "
                f"{second}, plus the dots.",
            )

    def merits(self) -> None:
        for index, row in enumerate(self.sheet["merits"]):
            merit = MERIT_BY_SLUG[row["slug"]]
            values = merit_values(self.sheet, index)
            extra: dict[str, Any] = {}
            notes = list(merit.storyteller_checks)
            if merit.grants:
                granted = " and ".join(MERIT_BY_SLUG[slug].name for slug, _ in merit.grants)
                notes.insert(0, f"Brings {granted} free.")
            if self.play and merit.kind is Kind.MERIT:
                # L320: a merit bought with XP needs the Storyteller's consent.
                extra = {"setter": Setter.GM}
                notes.append("Needs the Storyteller's consent in play.")
            if notes:
                extra["note"] = " ".join(notes)
            choices = tuple((str(v), f"{v} point" + ("" if v == 1 else "s")) for v in values)
            # A choice row's value is one of its choice keys (or, past the cap, none of them).
            self.add(
                f"merit.{index}.value",
                "merits",
                str(row["value"]),
                RowKind.CHOICE,
                label=merit.name + (f" ({row['choice']})" if row["choice"] else ""),
                shown=dict(choices).get(str(row["value"]), str(row["value"])),
                choices=choices,
                group=f"{merit.category.value} {merit.kind.value}s",
                source=f"000:{merit.source}" + (", 000:L320" if "setter" in extra else ""),
                **extra,
            )

    def languages(self) -> None:
        for index, row in enumerate(self.sheet["languages"]):
            for field, said in (("read", "Reads"), ("write", "Writes")):
                self.add(
                    f"language.{index}.{field}",
                    "languages",
                    row[field],
                    RowKind.FLAG,
                    label=f"{row['name']}: {said.lower()}",
                    shown="yes" if row[field] else "no",
                    group=row["name"],
                    source="000:L314",
                )

    def weapons(self) -> None:
        for index, row in enumerate(self.sheet["weapons"]):
            key, group = f"weapon.{index}", row["name"]
            self.text(f"{key}.name", "weapons", row["name"], maximum=WEAPON_NAME_LIMIT, group=group)
            low, high = WEAPON_DIFFICULTY_RANGE
            self.add(
                f"{key}.difficulty",
                "weapons",
                row["difficulty"],
                RowKind.NUMBER,
                minimum=low,
                maximum=high,
                group=group,
            )
            self.text(f"{key}.rate", "weapons", row["rate"], maximum=RATE_LIMIT, group=group)
            low, high = WEAPON_DAMAGE_RANGE
            self.add(
                f"{key}.damage",
                "weapons",
                row["damage"],
                RowKind.NUMBER,
                minimum=low,
                maximum=high,
                group=group,
            )

    def armor(self) -> None:
        found = armor.protections(
            self.sheet["armor"], set(owned_merits(self.sheet)), trait_view(self.sheet).merit_choices
        )
        for row, protection in zip(self.sheet["armor"], found, strict=True):
            key, group = f"armor.{protection.index}", row["name"]
            kind = dict(armor.KINDS)[row["kind"]]
            self.text(
                f"{key}.name", "armor", row["name"], maximum=armor.ARMOR_NAME_LIMIT, group=group
            )
            low, high = armor.RATING_RANGE[row["kind"]]
            if protection.kind == armor.ARMOR:
                what = f"{protection.class_name} armor: −{protection.penalty} dice on "
                what += "Dexterity-based rolls while worn"
                source = "000:L185, 000:L741"
            else:
                what, source = "A shield: no penalty", "000:L185, 000:L220"
            self.add(
                f"{key}.rating",
                "armor",
                row["rating"],
                RowKind.NUMBER,
                label=f"{kind} rating",
                minimum=low,
                maximum=high,
                group=group,
                note=f"{what}; soaks {protection.soak} dice at difficulty {armor.SOAK_DIFFICULTY}.",
                source=source,
            )
            self.add(
                f"{key}.lost",
                "armor",
                row["lost"],
                RowKind.NUMBER,
                label="Points lost to hits",
                minimum=0,
                maximum=row["rating"],
                group=group,
                source="000:L224" if protection.kind == armor.ARMOR else "000:L220",
            )
            self.add(
                f"{key}.worn",
                "armor",
                row["worn"],
                RowKind.FLAG,
                label="Worn",
                shown="yes" if row["worn"] else "no",
                group=group,
            )

    def other(self) -> None:
        sheet, numbers = self.sheet, number_traits(self.sheet, self.settings)
        for key in ("power", "willpower", "side.light", "side.dark"):
            stored, low, high = numbers[key]
            floor = floor_in_play(sheet, "willpower", "") if key == "willpower" else 0
            extra = {"locked": creation_lock(sheet, key)}
            if key.startswith("side.") and sheet[stored] >= 1:
                # The grade held, read from the side's table (L134-168).
                held = paths.grade(stored, min(sheet[stored], len(paths.PATHS[stored])))
                extra["note"] = f"{_STORYTELLER[key][1]} Grade {held.grade}: {held.degree}."
            self.dots(key, "other", sheet[stored], low, high, floor=floor, **extra)
            if "note" in extra:  # the Storyteller's line, then the table's
                grade_source = paths.grade(stored, min(sheet[stored], 10)).source
                self.rows[-1] = replace(
                    self.rows[-1], source=f"{self.rows[-1].source}, 000:{grade_source}"
                )
        for key in ("power_current", "willpower_current", "health"):
            stored, low, high = numbers[key]
            extra = {"locked": creation_lock(sheet, key)}
            if key == "power_current":
                extra["note"] = CURRENT_POWER_NOTE
                extra["source"] = "000:L100"
            self.add(
                key, "other", sheet[stored], RowKind.NUMBER, minimum=low, maximum=high, **extra
            )
        info = sheet["info"]
        for key, source in _TEXT_SOURCES.items():
            self.text(f"info.{key}", "other", info[key], source=source)
        stored, low, high = numbers["swse_level"]
        self.add(
            "swse_level", "experience", sheet[stored], RowKind.NUMBER, minimum=low, maximum=high
        )


def trait_rows(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[TraitRow]:
    """Return one row per trait a player or the Storyteller sets, in print order."""
    return _Rows(sheet, settings).build()


def status(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> Status:
    """Summarise the sheet for a GM's list: stage, legal, errors, warnings, XP unspent."""
    report = check(sheet, settings)
    unspent = report.pool("xp").left if sheet["stage"] == Stage.PLAY else None
    return Status.from_report(report, stage=sheet["stage"], unspent=unspent, unit=XP_UNIT)
