"""The WEG d6 sheet laid out as the classic character template.

The header, then the six attributes, each a box with its skills and specializations
beneath (two boxes a line, as the template prints them), then Move and the points, the
wound track, the Force, the weapons, a character's equipment and credits or a droid's
building dice, the species, the raises of this adventure and the background with the
character's looks and quote. Every code row comes from the engine's `trait_rows`; its
− and + steps, its paid advance and its remove button come from the row too (`CodeRow`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from rulesets.core import Cost, InvalidEdit, TraitRow
from rulesets.weg_d6 import costs, traits, wounds
from rulesets.weg_d6.data import (
    ATTRIBUTES,
    CUSTOM_SPECIES,
    DESCRIPTION_LIMIT,
    EDITION_1E,
    FORCE_POWERS,
    FORCE_SKILLS,
    NAME_LIMIT,
    SKILLS,
    WEAPON_TEXT_LIMITS,
    WOUND_BY_SLUG,
)
from rulesets.weg_d6.force import counted_skills, learning_this_adventure
from rulesets.weg_d6.traits import code_text as code
from sheets.advancement.models import Training
from sheets.characters.layouts.base import Field, Layout, Narrowed, Part, Section, changed_fields
from sheets.characters.models import Character
from sheets.characters.state import SheetState
from sheets.characters.templatetags.sheet_rows import step_button, steps_of

PLAY = "play"
ATTRIBUTE_SECTION = {a.label: f"attr-{a.slug}" for a in ATTRIBUTES}
# Sections whose rows carry − / + / advance / remove buttons beside them: a change to any
# of those buttons redraws the section (the shell swaps single rows without them).
STEPPED_SECTIONS = (*ATTRIBUTE_SECTION.values(), "force", "droid")
ATTRIBUTE_CHOICES = tuple((a.slug, a.label) for a in ATTRIBUTES)
WEAPON_LIMITS = {"name": NAME_LIMIT, **WEAPON_TEXT_LIMITS}
PRINT_MIN_LINES = 5
PRINT_WEAPON_LINES = 3


def _advance_prefixes(attribute: str) -> tuple[str, ...]:
    """Claim the refused paid raises of an attribute's catalog rows for its box."""
    skills = [s.slug for s in SKILLS if s.attribute == attribute]
    return (
        f"advance.attr.{attribute}",
        *(f"advance.skill.{slug}" for slug in skills),
        # A specialization's key starts with its skill's ("space_transports_yt_1300").
        *(f"advance.spec.{slug}" for slug in skills),
    )


def _steps_key(section: str) -> str:
    return f"weg_steps_{section}"


class WegD6Layout(Layout):
    sections = (
        Section("details", "Character template", body="rulesets/weg_d6/_details.html"),
        *(
            Section(
                f"attr-{a.slug}",
                a.label,
                body="rulesets/weg_d6/_codes.html",
                prefixes=_advance_prefixes(a.slug),
                uses_extra=(_steps_key(f"attr-{a.slug}"), "weg_in_training"),
            )
            for a in ATTRIBUTES
        ),
        # The add rows sit in the body: their choices follow the edition and the skill list.
        Section(
            "skills",
            "New skills",
            body="rulesets/weg_d6/_skills.html",
            prefixes=("skill.add", "skill.remove", "spec.add", "spec.remove"),
            uses_extra=("weg_edition", "edition_1e", "weg_skill_choices"),
        ),
        Section(
            "points",
            "Move and points",
            body="rulesets/weg_d6/_points.html",
            prefixes=("advance.move",),
            uses_extra=("weg_move_advance",),
        ),
        Section(
            "wounds",
            "Wound status",
            body="rulesets/weg_d6/_wounds.html",
            prefixes=("wound.",),
            shows_derived=("wound",),
            uses_extra=(
                "weg_wounds",
                "weg_wound_advice",
                "edition_1e",
                "weg_stuns",
                "weg_scene_at",
            ),
        ),
        Section(
            "force",
            "The Force",
            body="rulesets/weg_d6/_force.html",
            prefixes=("power.", "advance.power", "advance.force."),
            uses_extra=(
                _steps_key("force"),
                "weg_powers",
                "weg_power_options",
                "is_droid",
                "weg_in_training",
            ),
        ),
        Section(
            "weapons",
            "Weapons",
            body="rulesets/weg_d6/_weapons.html",
            adds="rulesets/weg_d6/_weapons_add.html",
            prefixes=("weapon.",),
        ),
        Section(
            "gear",
            "Equipment and credits",
            body="rulesets/weg_d6/_gear.html",
            prefixes=("gear.",),
            uses_extra=("is_droid",),
        ),
        Section(
            "droid",
            "Droid",
            body="rulesets/weg_d6/_droid.html",
            adds="rulesets/weg_d6/_droid_add.html",
            prefixes=("equipment.",),
            shows_derived=("droid",),
            uses_extra=(_steps_key("droid"), "is_droid", "weg_in_training"),
        ),
        Section(
            "species",
            "Species and alien template",
            body="rulesets/weg_d6/_species.html",
            prefixes=("species.", "template."),
            shows_derived=("species",),
            uses_extra=("weg_custom_species", "is_droid"),
        ),
        Section(
            "interval",
            "Raises since the last adventure",
            body="rulesets/weg_d6/_interval.html",
            prefixes=("interval.",),
            uses_extra=("weg_interval", "weg_training"),
        ),
        # A multi-line box, which the shell's one-line text row would flatten: redrawing
        # the section whenever the text changes keeps it a box.
        Section(
            "background",
            "Background",
            body="rulesets/weg_d6/_background.html",
            uses_extra=("weg_description",),
        ),
        Section(
            "derived",
            "At a glance",
            body="rulesets/weg_d6/_derived.html",
            side=True,
            shows_derived=True,
            uses_extra=("is_droid",),
        ),
    )

    def section_for(self, row: TraitRow) -> str:
        if row.section == "attributes":
            return ATTRIBUTE_SECTION[row.group]
        if row.key == "info.description":
            return "background"
        return row.section

    def extra(self, state: SheetState, character: Character) -> dict:
        sheet, settings = state.sheet, state.settings
        play = sheet["stage"] == PLAY
        training = _training(character)
        # Traits whose paid raise still trains: no "Advance to" (the purchase would be
        # refused, sheets/advancement `_still_training`), "in training" instead.
        in_training = _in_training(sheet, training) if play else frozenset()
        steps: dict[str, list] = {section: [] for section in STEPPED_SECTIONS}
        for row in state.rows:
            section = self.section_for(row)
            if section in steps:
                steps[section].append(_buttons(row, play, row.key in in_training))
        return {
            "subtitle": state.derived["edition"],
            "play": play,
            "is_droid": sheet["kind"] == "droid",
            "edition_1e": sheet["edition"] == EDITION_1E,
            **{_steps_key(section): tuple(rows) for section, rows in steps.items()},
            "weg_edition": sheet["edition"],
            "weg_attributes": ATTRIBUTE_CHOICES,
            "weg_custom_species": sheet["species"] == CUSTOM_SPECIES,
            "weg_skill_choices": _skill_choices(sheet),
            "weg_move_advance": _move_advance(state.rows, sheet, play, in_training),
            "weg_in_training": in_training,
            "weg_wounds": _wounds(state.rows, sheet),
            # What the rules offer at this wound level: stabilising, rest, stun, the 1E
            # mortal roll and medpacs (rulesets/weg_d6/wounds.py), a roll link where one is.
            "weg_wound_advice": wounds.advice(sheet),
            # The 1E stun results kept, read at the scene round the character is in, which
            # a stun result marked here is kept with.
            **_stuns(sheet, character, settings),
            "weg_powers": _powers(sheet, settings),
            "weg_power_options": _power_options(sheet, settings, play),
            "weg_power_trait": "advance.power.add" if play else "power.add",
            "weg_interval": _interval(sheet),
            "weg_training": training,
            "weg_description": sheet["info"]["description"],
            "weg_description_limit": DESCRIPTION_LIMIT,
            "weg_limits": WEAPON_LIMITS,
            # The PDF renders print.html from the page context: built only when the print
            # template asks for it (a template calls a callable it is given).
            "printed": partial(_printed, state),
        }

    def print_extra(self, state: SheetState, character: Character) -> dict:
        return {"printed": _printed(state)}

    def narrowed(self, old: Part, new: Part, before: dict, after: dict) -> Narrowed | None:
        """An attribute's box whose buttons moved (a step changes the codes, and so the
        steps, of the skills under it) sends the rows that moved and the buttons of theirs
        that changed, each by its id, rather than the box: when its rows and messages are
        the same, and no row gains or loses its paid advance (a line of its own)."""
        if new.section.key not in ATTRIBUTE_SECTION.values() or (
            old.signature != new.signature
            or old.errors != new.errors
            or old.violations != new.violations
        ):
            return None
        flags = after["can_edit_player"], after["play"]
        if flags != (before["can_edit_player"], before["play"]):
            return None
        moved = changed_fields(old, new)
        training = set(before.get("weg_in_training", ())) | set(after.get("weg_in_training", ()))
        if any(field.key in training for field in new.fields):
            return None  # a row "in training" is drawn by its box's template alone
        earlier = {f.key: f for f in old.fields}
        fields = []
        for field in moved:
            was = _shown_buttons(earlier[field.key], *flags)
            now = _shown_buttons(field, *flags)
            if ("advance" in was) != ("advance" in now):
                return None
            if was.keys() != now.keys():
                # A button came or went: its row's steps go whole.
                fields.append((field, (steps_of(field, *flags, oob=True),)))
                continue
            buttons = tuple(
                step_button(name, field, *flags)
                for name, values in now.items()
                if name != "gap" and values != was[name]
            )
            fields.append((field, buttons))
        return Narrowed(tuple(fields))


def _shown_buttons(field: Field, can_edit_player: bool, play: bool) -> dict[str, tuple]:
    """The buttons a code row's steps show (`_steps.html`), each with the values it prints,
    and "gap" where a "−" is not offered beside a "+"."""
    row, refused = field.row, field.refused
    priced = bool(play and row.next_cost)
    shown: dict[str, tuple] = {}
    if not refused and row.down:
        shown["down"] = (row.key, row.down, row.label)
    elif not refused and row.up:
        shown["gap"] = ()
    if row.up and not refused and not priced:
        shown["up"] = (row.key, row.up, row.label)
    if row.remove and can_edit_player and not priced:
        shown["remove"] = (row.remove, row.remove_label, row.label)
    if priced and row.up and can_edit_player and not refused:
        shown["advance"] = (row.key, row.up, row.next_cost)
    return shown


def _buttons(row: TraitRow, play: bool, training: bool = False) -> tuple:
    """What a row's buttons say: redrawn with their section whenever this changes."""
    cost = row.next_cost if play else None
    return (
        row.key,
        getattr(row, "down", ""),
        getattr(row, "up", ""),
        getattr(row, "remove", ""),
        cost and (cost.amount, cost.unit),
        training,
    )


def _skill_choices(sheet: Mapping[str, Any]) -> list[str]:
    """Every skill on this sheet by name: a specialization or an advanced skill rests on one."""
    slugs = [s.slug for s in SKILLS] + list(sheet["custom_skills"])
    return [traits.skill_info(sheet, slug).label for slug in slugs]


def _move_advance(
    rows: list[TraitRow], sheet: Mapping[str, Any], play: bool, in_training=()
) -> dict | None:
    """The paid Move raise in play: to what and for how much, or None."""
    move = next((row for row in rows if row.key == "move"), None)
    if not play or move is None or move.next_cost is None:
        return None
    training = "move" in in_training
    return {
        "to": costs.next_step_value(sheet, "move"),
        "cost": move.next_cost,
        "training": training,
    }


def _wounds(rows: list[TraitRow], sheet: Mapping[str, Any]) -> list[dict]:
    """The wound track: every level the wound row accepts, with what it takes off."""
    row = next(row for row in rows if row.key == "wound")
    return [
        {
            "slug": slug,
            "label": label,
            "penalty": code(WOUND_BY_SLUG[slug].penalty) if WOUND_BY_SLUG[slug].penalty else "",
            "can_act": WOUND_BY_SLUG[slug].can_act,
            "source": WOUND_BY_SLUG[slug].source,
            "current": slug == sheet["wound"],
        }
        for slug, label in row.choices
    ]


def _scene_round(character: Character) -> wounds.Now:
    """The scene and round the character is in: its running scene (sheets/scenes/state),
    or None."""
    from sheets.scenes.state import running_scene_of  # the scenes app reads characters

    scene = running_scene_of(character)
    return None if scene is None else (scene.pk, scene.round)


def _stuns(sheet: Mapping[str, Any], character: Character, settings: Mapping[str, Any]) -> dict:
    """What the kept stun results do now (1E), and "@scene.round" where the character is in
    a scene: a hit or "remain conscious" marked on the sheet is kept with it."""
    if sheet["edition"] != EDITION_1E:
        return {"weg_stuns": None, "weg_scene_at": ""}
    now = _scene_round(character)
    return {
        "weg_stuns": wounds.stuns_shown(sheet, now, settings),
        "weg_scene_at": f"@{now[0]}.{now[1]}" if now else "",
    }


def _skill_names(sheet: Mapping[str, Any], slug: str, settings: Mapping[str, Any]) -> str:
    return " + ".join(skill.capitalize() for skill in traits.power_skills(sheet, slug, settings))


def _powers(sheet: Mapping[str, Any], settings: Mapping[str, Any]) -> list[dict]:
    force = sheet["force"]
    return [
        {
            "slug": slug,
            "label": traits.power_label(sheet, slug),
            "skills": _skill_names(sheet, slug, settings),
            "custom": slug in force["custom_powers"],
            "counted_in": _counted_in(sheet, slug, settings),
            # Learned this adventure in play: its undo on the Advancement page gives back
            # what it cost, so the sheet points there instead of offering "remove".
            "learned_now": sheet["stage"] == PLAY
            and learning_this_adventure(sheet, slug) is not None,
        }
        for slug in force["powers"]
    ]


def _counted_in(sheet: Mapping[str, Any], slug: str, settings: Mapping[str, Any]) -> str:
    """Name the one power total a 1E initial power fills, when that is not every skill it
    uses (the GM's reading "initial_power_slots"); "" otherwise."""
    counted = counted_skills(sheet, slug, settings)
    if counted == tuple(traits.power_skills(sheet, slug, settings)):
        return ""
    return " + ".join(skill.capitalize() for skill in counted)


def _power_options(sheet: Mapping[str, Any], settings: Mapping[str, Any], play: bool) -> list:
    """The catalog powers not yet learned, each with its skills and, in play, its price."""
    options = []
    for power in FORCE_POWERS:
        if power.slug in sheet["force"]["powers"]:
            continue
        words = [_skill_names(sheet, power.slug, settings)]
        if power.new_in_companion:
            words.append("Companion")
        if power.dark_side:
            words.append("a Dark Side Point on use")
        if play:
            price: Cost = costs.power_cost(sheet, power.slug, settings)
            words.append(f"{price.amount} {price.unit}")
        options.append((power.label, " · ".join(words)))
    return options


def _shown(trait: str, value: int) -> str:
    """A recorded raise's value as the sheet shows that trait."""
    if trait == "move":
        return str(value)
    if trait.startswith("power.") or trait == "force.sensitive":
        return "yes" if value else "no"
    return code(value)


def _training(character: Character) -> tuple[dict, ...]:
    """What the character trains for now (the ledger's record, 002:43-59, 003:1762)."""
    # An unsaved sheet (the print warm-up's, Django's documented `_state.adding`) has no
    # ledger and asks the database nothing.
    if character._state.adding:
        return ()
    found = Training.objects.filter(character_id=character.pk, finished=False).select_related(
        "entry"
    )
    return tuple(
        {
            "label": training.trait_label,
            "trait": training.entry.trait,
            "from": training.entry.from_value,
            "to": training.entry.to_value,
            "done": training.days_done,
            "left": training.days_left,
            "days": training.days,
            "taught": training.taught,
            # Paid, not yet on the sheet (the reading `training_counts`).
            "waiting": training.waiting,
        }
        for training in found.order_by("pk")
    )


def _in_training(sheet: Mapping[str, Any], training: tuple[dict, ...]) -> frozenset[str]:
    """The traits whose paid raise waits for its training: the ledger says so, and this
    sheet lists the raise above the value it still has. Read from the sheet too, so an
    edit's answer (both pages drawn after the purchase) sees the button go."""
    waiting = {t["trait"] for t in training if t["waiting"]}
    found = set()
    for entry in sheet["interval"]:
        if entry["trait"] in waiting:
            try:
                if traits.trait_value(sheet, entry["trait"]) < entry["to"]:
                    found.add(entry["trait"])
            except InvalidEdit:  # a trait removed since
                continue
    return frozenset(found)


def _interval(sheet: Mapping[str, Any]) -> list[dict]:
    entries = []
    for entry in sheet["interval"]:
        trait = entry["trait"]
        try:
            label = traits.trait_name(sheet, trait)
        except InvalidEdit:  # a raise of a skill removed since: name it by its key
            label = trait
        entries.append(
            {
                "label": label,
                "from": _shown(trait, entry["from"]),
                "to": _shown(trait, entry["to"]),
                "cost": entry["cost"],
            }
        )
    return entries


def _printed(state: SheetState) -> dict:
    """What the classic printed template holds, from the rows and the derived values."""
    sheet, derived = state.sheet, state.derived
    columns: dict[str, dict] = {}
    for row in state.rows:
        if row.section != "attributes":
            continue
        column = columns.setdefault(row.group, {"label": row.group, "code": "", "lines": []})
        head, _, slug = row.key.partition(".")
        if head == "attr":
            column["code"] = row.shown
        elif head == "spec":
            name = sheet["specializations"][slug]["name"]
            column["lines"].append({"label": name, "code": row.shown, "nested": True})
        elif row.shown:
            column["lines"].append({"label": row.label, "code": row.shown, "nested": False})
    ordered = list(columns.values())
    pairs = [ordered[i : i + 2] for i in range(0, len(ordered), 2)]
    for pair in pairs:
        height = max(PRINT_MIN_LINES, *(len(column["lines"]) + 1 for column in pair))
        for column in pair:
            column["blanks"] = range(height - len(column["lines"]))
    rows = {row.key: row for row in state.rows}
    return {
        "pairs": pairs,
        "force": [
            {"label": label, "code": rows[f"force.{slug}"].shown if sheet["force"][slug] else ""}
            for slug, label in FORCE_SKILLS
        ],
        "powers": _powers(sheet, state.settings),
        "wounds": [w for w in _wounds(state.rows, sheet) if w["slug"] != "healthy"],
        "speed": code(sheet["droid"]["speed"]),
        "armor": code(sheet["droid"]["armor"]),
        "droid": derived.get("droid"),
        # The template's weapons box always has room to pencil more in.
        "weapons": sheet["weapons"],
        "weapon_blanks": range(max(0, PRINT_WEAPON_LINES - len(sheet["weapons"]))),
        "equipment_blanks": range(0 if sheet["gear"]["equipment"] else PRINT_MIN_LINES),
    }


LAYOUT = WegD6Layout()
