"""The SWd10 sheet laid out as the seed prints it (L1-69), with what the rules add."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

import rulesets.swd10 as swd10
from rulesets.core import Cost, Report, Violation, resolve_settings
from rulesets.swd10.catalog import (
    FORCE_ABILITIES_BY_TREE,
    FORCE_ABILITY_BY_SLUG,
    FORCE_KNOWLEDGES,
    MERIT_BY_SLUG,
    MERITS,
    WEAPON_TECHNIQUES_BY_SKILL,
    Category,
    Kind,
)
from rulesets.swd10.data import (
    ABILITIES,
    ABILITY_GROUPS,
    ABILITY_PRIORITIES,
    ATTRIBUTE_GROUPS,
    ATTRIBUTE_PRIORITIES,
    ATTRIBUTES,
    CUSTOM_LORES,
    MAX_POWER,
    MAX_SIDE,
    MAX_WILLPOWER,
    NUMBER_FIELDS,
    RANK_LABELS,
    TEXT_FIELDS,
)
from sheets.characters.layouts.common import HasTraitId
from sheets.characters.models import Character

# Which part of the page an edited trait lives in, so an htmx response swaps just that.
_SECTION_OF_PREFIX = {
    "attr": "attributes",
    "abil": "abilities",
    "lorename": "abilities",
    "fk": "force",
    "fa": "force",
    "language": "languages",
    "merit": "merits",
    "technique": "techniques",
    "weapon": "weapons",
    "side": "other",
    "swse_level": "experience",
}
_OTHER_TRAITS = {"power", "power_current", "willpower", "willpower_current", "health"}
ALL_SECTIONS = frozenset(
    {
        "attributes",
        "abilities",
        "force",
        "languages",
        "merits",
        "techniques",
        "weapons",
        "other",
        "experience",
        "readings",
        "header",
    }
)


def _shown_on_a_row(trait: str) -> bool:
    """Tell whether a refusal appears beside its own row rather than under its section."""
    if trait.startswith(("attr.", "abil.", "lorename.", "fk.")):
        return True
    return bool(re.fullmatch(r"merit\.\d+\.value", trait))


def section_of(trait: str) -> str | None:
    if trait in _OTHER_TRAITS:
        return "other"
    if trait.startswith(("info.", "character.name")):
        return None  # a header field swaps on its own
    return _SECTION_OF_PREFIX.get(trait.partition(".")[0])


@dataclass
class Dot:
    number: int
    filled: bool
    # What a click on this dot sets: its own number, or one less when it is the last
    # filled dot, so clicking the top dot takes it away again.
    sets: int
    free: bool = False


@dataclass
class DotRow(HasTraitId):
    trait: str
    label: str
    value: int
    maximum: int
    dots: list[Dot]
    violations: list[Violation]
    next_cost: Cost | None = None
    error: str = ""
    note: str = ""
    name_trait: str = ""  # a custom lore's name field
    name_value: str = ""


@dataclass
class Field(HasTraitId):
    trait: str
    label: str
    value: str | int
    kind: str  # "text" or "number"
    error: str = ""


@dataclass
class Group:
    key: str
    label: str
    kind: str  # "attributes" or "abilities"
    rank: int
    allowed: int
    rows: list[DotRow] = field(default_factory=list)

    @property
    def rank_label(self) -> str:
        return RANK_LABELS[self.rank]

    @property
    def trait(self) -> str:
        return f"prio.{self.kind}.{self.key}"


def _dots(value: int, maximum: int, minimum: int = 0, free_first: bool = False) -> list[Dot]:
    return [
        Dot(n, n <= value, max(n - 1 if n == value else n, minimum), free_first and n == 1)
        for n in range(1, maximum + 1)
    ]


class _Builder:
    """Collects what every row needs: the report, the costs, the refusals."""

    def __init__(self, character: Character, errors: Mapping[str, str], submitted: Mapping):
        self.character = character
        self.sheet = character.sheet
        self.settings = resolve_settings(swd10.SETTINGS, character.rule_settings)
        self.report: Report = swd10.check(self.sheet, self.settings)
        self.errors = errors
        self.submitted = submitted

    def row(
        self,
        trait: str,
        label: str,
        value: int,
        maximum: int,
        *,
        minimum: int = 0,
        free_first: bool = False,
        note: str = "",
    ) -> DotRow:
        return DotRow(
            trait=trait,
            label=label,
            value=value,
            maximum=maximum,
            dots=_dots(value, maximum, minimum, free_first),
            violations=self.report.for_trait(trait),
            next_cost=self.next_cost(trait, value, maximum),
            error=self.errors.get(trait, ""),
            note=note,
        )

    def next_cost(self, trait: str, value: int, maximum: int) -> Cost | None:
        # Priced per shown row rather than for the whole sheet: an edit shows few rows.
        if value >= maximum or trait.startswith(("power", "side.")):
            return None
        return swd10.advance_cost(self.sheet, trait, value + 1, self.settings)

    def field(self, trait: str, label: str, value: str | int, kind: str = "text") -> Field:
        return Field(
            trait, label, self.submitted.get(trait, value), kind, self.errors.get(trait, "")
        )


def _force_ability_choices() -> list[dict]:
    """The add-a-Force-ability list by tree, with what each needs (the same for everyone)."""
    choices = []
    for knowledge in FORCE_KNOWLEDGES:
        options = []
        for ability in FORCE_ABILITIES_BY_TREE[knowledge.slug]:
            needs = []
            if ability.min_pool:
                needs.append(f"pool {ability.min_pool}+")
            if ability.side is not None:
                needs.append(f"{ability.side.value[0].upper()}S {ability.side_minimum}+")
            needs += [FORCE_ABILITY_BY_SLUG[r].name for r in ability.requires]
            label = ability.name + (f" ({', '.join(needs)})" if needs else "")
            options.append({"slug": ability.slug, "label": label})
        choices.append({"tree": knowledge.name, "options": options})
    return choices


def _merit_choices() -> list[dict]:
    """The add-a-merit-or-flaw list by kind and category (the same for everyone)."""
    catalog = []
    for kind in (Kind.MERIT, Kind.FLAW):
        for category in Category:
            entries = [m for m in MERITS if m.kind is kind and m.category is category]
            if entries:
                catalog.append(
                    {
                        "label": f"{category.value} {kind.value}s",
                        "entries": [
                            {"slug": m.slug, "label": f"{m.name} ({m.cost_label})"} for m in entries
                        ],
                    }
                )
    return catalog


FORCE_ABILITY_CHOICES = _force_ability_choices()
MERIT_CHOICES = _merit_choices()


def _groups(b: _Builder, kind: str, only: Collection[str] | None) -> list[Group]:
    sheet = b.sheet
    whole = only is None or any(t.startswith((f"prio.{kind}", "setting.", "stage")) for t in only)
    whole = whole or (kind == "attributes" and any(t.startswith("merit.") for t in only or ()))
    if kind == "attributes":
        specs, group_specs, priorities, prefix = (
            ATTRIBUTES,
            ATTRIBUTE_GROUPS,
            ATTRIBUTE_PRIORITIES,
            "attr",
        )
    else:
        specs, group_specs, priorities, prefix = (
            ABILITIES,
            ABILITY_GROUPS,
            ABILITY_PRIORITIES,
            "abil",
        )
    values = sheet[kind]
    free_dot = kind == "attributes" and bool(b.settings["attribute_free_dot"])
    monstrous = "monstrous" in swd10.owned_merits(sheet)
    result = []
    for key, label in group_specs:
        rank = sheet["priorities"][kind].index(key)
        group = Group(key, label, kind, rank, priorities[rank])
        for spec in specs:
            trait = f"{prefix}.{spec.slug}"
            if spec.group != key or not (
                whole or trait in only or f"lorename.{spec.slug}" in (only or ())
            ):
                continue
            minimum = 0 if spec.slug == "appearance" and monstrous else spec.minimum
            row = b.row(
                trait,
                swd10.trait_label(trait, sheet),
                values[spec.slug],
                spec.maximum,
                minimum=minimum,
                free_first=free_dot,
            )
            if spec.slug in CUSTOM_LORES:
                row.label = "Lore:"
                row.name_trait = f"lorename.{spec.slug}"
                row.name_value = b.submitted.get(row.name_trait, sheet["lore_names"][spec.slug])
                row.error = row.error or b.errors.get(row.name_trait, "")
            group.rows.append(row)
        result.append(group)
    return result


def _force_rows(b: _Builder, derived: dict) -> list[DotRow]:
    rows = []
    for knowledge in FORCE_KNOWLEDGES:
        a, c = knowledge.attributes
        note = (
            f"pool {derived['force_pools'][knowledge.slug]} (better of "
            f"{a.capitalize()}/{c.capitalize()} + dots, {knowledge.source})"
        )
        rows.append(
            b.row(
                f"fk.{knowledge.slug}",
                knowledge.name,
                b.sheet["force_knowledges"][knowledge.slug],
                5,
                note=note,
            )
        )
    return rows


def _force_abilities(b: _Builder) -> tuple[list[dict], list[dict]]:
    owned = []

    for slug in b.sheet["force_abilities"]:
        ability = FORCE_ABILITY_BY_SLUG[slug]
        owned.append(
            {
                "slug": slug,
                "name": ability.name,
                "tree": ability.tree.capitalize(),
                "tags": " ".join(sorted(t.value for t in ability.tags)),
                "violations": b.report.for_trait(f"fa.{slug}"),
                "source": ability.source,
            }
        )
    return owned, FORCE_ABILITY_CHOICES


def _merits(b: _Builder) -> tuple[list[dict], list[dict]]:
    rows = []
    for index, row in enumerate(b.sheet["merits"]):
        merit = MERIT_BY_SLUG[row["slug"]]
        rows.append(
            {
                "index": index,
                "name": merit.name,
                "kind": merit.kind.value,
                "category": merit.category.value,
                "value": row["value"],
                "choice": row.get("choice", ""),
                "values": merit.allowed_values,
                "grants": [MERIT_BY_SLUG[s].name for s, _ in merit.grants],
                "storyteller_checks": merit.storyteller_checks,
                "violations": b.report.for_trait(f"merit.{index}"),
                "error": b.errors.get(f"merit.{index}.value", ""),
                "source": merit.source,
            }
        )
    return rows, MERIT_CHOICES


def sheet_context(
    character: Character,
    *,
    errors: Mapping[str, str],
    submitted: Mapping[str, str],
    only: Collection[str] | None = None,
) -> dict:
    """Lay out the sheet; with `only`, lay out just what an edit response swaps."""
    b = _Builder(character, errors, submitted)
    sheet, report = b.sheet, b.report
    derived = swd10.derived(sheet, b.settings)
    info = sheet["info"]

    def f(key: str, kind: str = "text") -> Field:
        return b.field(f"info.{key}", dict(TEXT_FIELDS + NUMBER_FIELDS)[key], info[key], kind)

    header_columns = [  # three columns of three, as at L3-5
        [b.field("character.name", "Name", character.name), f("player"), f("chronicle")],
        [f("nature"), f("demeanor"), f("species")],
        [f("experience", "number"), f("destiny"), f("destiny_points", "number")],
    ]
    force_owned, force_choices = _force_abilities(b)
    merit_rows, merit_catalog = _merits(b)
    track = derived["health_track"]
    # Every trait whose refusal has a place on the page; the rest show above the sheet.
    placed = {fl.trait for column in header_columns for fl in column}
    placed |= {f"setting.{s.key}" for s in swd10.SETTINGS} | {"info.passion", "info.virtue"}
    placed |= {f"attr.{t.slug}" for t in ATTRIBUTES} | {f"abil.{t.slug}" for t in ABILITIES}
    placed |= {f"lorename.{slug}" for slug in CUSTOM_LORES}
    placed |= {f"fk.{k.slug}" for k in FORCE_KNOWLEDGES} | _OTHER_TRAITS
    placed |= {"side.light", "side.dark", "swse_level", "stage"}
    placed |= {f"merit.{i}.value" for i in range(len(sheet["merits"]))}
    section_errors = {section: [] for section in ALL_SECTIONS}
    stray = []
    for trait, message in errors.items():
        if trait in placed:
            continue
        if (section := section_of(trait)) is not None and not _shown_on_a_row(trait):
            section_errors[section].append(message)
        else:
            stray.append(message)
    return {
        "character": character,
        "sheet": sheet,
        "report": report,
        "errors": errors,
        "stage": sheet["stage"],
        "stray_errors": stray,
        "section_errors": section_errors,
        "header_columns": header_columns,
        "passion": f("passion"),
        "virtue": f("virtue"),
        "attribute_groups": _groups(b, "attributes", only),
        "ability_groups": _groups(b, "abilities", only),
        "rank_choices": list(enumerate(RANK_LABELS)),
        "force_rows": _force_rows(b, derived),
        "force_owned": force_owned,
        "force_choices": force_choices,
        "merit_rows": merit_rows,
        "merit_catalog": merit_catalog,
        "languages": [
            {"index": i, **row, "error": errors.get(f"language.{i}.read", "")}
            for i, row in enumerate(sheet["languages"])
        ],
        "techniques": [
            {
                "index": i,
                "skill": row["skill"].capitalize(),
                "name": WEAPON_TECHNIQUES_BY_SKILL[row["skill"]][row["slug"]].name,
                "kind": row["kind"],
            }
            for i, row in enumerate(sheet["techniques"])
        ],
        "technique_choices": [
            (
                skill.capitalize(),
                [(f"{skill}|{t.slug}", t.name, t.one_per_kind) for t in techniques.values()],
            )
            for skill, techniques in WEAPON_TECHNIQUES_BY_SKILL.items()
        ],
        "weapons": [{"index": i, **row} for i, row in enumerate(sheet["weapons"])],
        "power_row": b.row("power", "Power", sheet["power"], MAX_POWER),
        "power_current": b.field(
            "power_current", "Current Power", sheet["power_current"], "number"
        ),
        "willpower_row": b.row(
            "willpower", "Willpower", sheet["willpower"], MAX_WILLPOWER, minimum=1
        ),
        "willpower_current": b.field(
            "willpower_current", "Current Willpower", sheet["willpower_current"], "number"
        ),
        "light_row": b.row("side.light", "Light side", sheet["light_side"], MAX_SIDE),
        "dark_row": b.row("side.dark", "Dark side", sheet["dark_side"], MAX_SIDE),
        "health_boxes": [
            {
                "level": level,
                "marked": n <= sheet["health_marked"],
                "sets": n - 1 if n == sheet["health_marked"] else n,
            }
            for n, level in enumerate(track, start=1)
        ],
        "health_violations": report.for_trait("health"),
        "other_errors": {t: errors[t] for t in ("health",) if t in errors},
        "pools": [(pool, report.for_trait(f"pool.{pool.key}")) for pool in report.pools],
        "languages_violations": report.for_trait("languages"),
        "derived": derived,
        "xp_spent": swd10.xp_spent(sheet, b.settings),
        "swse_level": b.field("swse_level", "SWSE level", sheet["swse_level"], "number"),
        **_print_extras(merit_rows, sheet),
        "readings": [
            (setting, b.settings[setting.key], setting.label_for(b.settings[setting.key]))
            for setting in swd10.SETTINGS
        ],
        "setting_errors": {
            k.removeprefix("setting."): v for k, v in errors.items() if k.startswith("setting.")
        },
    }


def edit_fragments(context: dict, edits: Mapping[str, str]) -> dict:
    """Pick the fields and sections an edit touched, for out-of-band swaps."""
    traits = set(edits)
    sections: set[str] = set()
    for trait in traits:
        if trait == "stage" or trait.startswith("setting."):
            sections |= ALL_SECTIONS - {"header"}
        elif trait.startswith("prio.attributes."):
            sections.add("attributes")
        elif trait.startswith("prio.abilities."):
            sections.add("abilities")
        elif trait.startswith("merit."):
            # Merits move Appearance's range, prerequisites, the Force block and health.
            # The add row stays: swapping it under a queued request would reset its choice.
            sections |= {"merit_list", "attributes", "force_lists", "other"}
        elif trait.startswith("fa."):
            sections.add("force_lists")
        elif trait in ("power", "side.light", "side.dark", "willpower"):
            sections |= {"other", "force_lists", "merit_list"}
        elif (section := section_of(trait)) is not None and not trait.startswith(
            ("attr.", "abil.", "lorename.")
        ):
            sections.add(section)
    if "character.name" in traits:
        sections.add("title")
    if any(t.startswith(("abil.firearms", "abil.melee")) for t in traits):
        sections.add("techniques")
    if any(t.startswith(("attr.", "abil.")) for t in traits):
        # Force pools and prerequisite messages follow the dots; the add rows do not.
        sections |= {"force_lists", "merit_list"}
    rows = [
        row
        for group in context["attribute_groups"] + context["ability_groups"]
        for row in group.rows
        if (row.trait in traits or row.name_trait in traits)
        and section_of(row.trait) not in sections
    ]
    fields = [f for column in context["header_columns"] for f in column if f.trait in traits]
    fields += [f for f in (context["passion"], context["virtue"]) if f.trait in traits]
    return {"edited_rows": rows, "edited_fields": fields, "edited_sections": sections}


def _print_extras(merit_rows: list[dict], sheet: Mapping) -> dict:
    """Rows and blank lines the one-page print needs to keep the seed's layout (L45-69)."""

    def printed(kind: str) -> list[dict]:
        return [
            row | {"circles": [n <= row["value"] for n in range(1, max(5, row["value"]) + 1)]}
            for row in merit_rows
            if row["kind"] == kind
        ]

    merits, flaws = printed("merit"), printed("flaw")
    return {
        "merits_printed": merits,
        "flaws_printed": flaws,
        "merit_blanks": range(max(0, 12 - len(merits))),
        "flaw_blanks": range(max(0, 5 - len(flaws))),
        "language_blanks": range(max(0, 8 - len(sheet["languages"]))),
        "weapon_blanks": range(max(0, 5 - len(sheet["weapons"]))),
    }
