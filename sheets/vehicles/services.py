"""Every write to a vehicle, and its rolls: one transaction, the row locked, the version
checked, a revision left. The stat block's rules are the system's `rulesets/<key>/vehicles.py`;
a roll reads the crew member's own code through the rolls app and stores its entry in the
table's log (sheets/rolls), with exact odds from the system's dice module.
"""

from __future__ import annotations

import copy
import importlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from rulesets.core.diecode import DieCode
from rulesets.core.edits import InvalidSheet
from rulesets.core.npcs import Condition, HitField, InvalidHit, whole_number
from rulesets.core.rolls import (
    InvalidRoll,
    Odds,
    Rollable,
    RollOption,
    dice_readings,
    parse_roll_options,
)
from rulesets.registry import get_ruleset
from rulesets.weg_d6 import dice as weg_dice
from rulesets.weg_d6.data import EDITION_1E
from rulesets.weg_d6.vehicles import TARGET_SCALE
from sheets.campaigns.models import Campaign, Role
from sheets.characters.models import Character
from sheets.live.bus import scene_changed
from sheets.npcs.models import Visibility
from sheets.permissions import (
    Need,
    campaign_for,
    campaign_role,
    character_for,
    crew_characters,
    vehicle_for,
)
from sheets.rolls.hits import roll_facts
from sheets.rolls.models import RollEntry
from sheets.rolls.services import (
    character_settings,
    dice_random,
    modifiers_text,
    pool_text,
    rollables_of,
)
from sheets.scenes.models import Participant
from sheets.vehicles.models import OwnerKind, Vehicle, VehicleRevision

# Systems with vehicle rules, and the one without (its page says so).
VEHICLE_SYSTEMS = ("weg_d6", "ore", "swd10")
NAME_LIMIT = 100
WHOLE = "whole"


class VehicleRefused(Exception):
    """A write refused; `errors` maps each field at fault to its message."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = dict(errors)


class StaleVehicle(VehicleRefused):
    def __init__(self) -> None:
        super().__init__(
            {"version": "This vehicle changed since the page was drawn; reload it first."}
        )


def rules(system: str) -> ModuleType:
    """The system's vehicle rules, or VehicleRefused for a system without any."""
    if system not in VEHICLE_SYSTEMS:
        module = importlib.import_module(f"rulesets.{system}.vehicles")
        raise VehicleRefused({"system": getattr(module, "WHY_NONE", "No vehicle rules.")})
    return importlib.import_module(f"rulesets.{system}.vehicles")


def has_vehicles(system: str) -> bool:
    return system in VEHICLE_SYSTEMS


def why_none(system: str) -> str:
    return getattr(importlib.import_module(f"rulesets.{system}.vehicles"), "WHY_NONE", "")


def _fault(message: str) -> dict[str, str]:
    """An InvalidSheet message ("weapons.0.damage: expected …; hull: …") by field."""
    errors: dict[str, str] = {}
    for part in message.split("; "):
        field, sep, text = part.partition(": ")
        if sep and " " not in field:
            errors.setdefault(field, text)
        else:
            errors.setdefault(WHOLE, part)
    return errors


def validate(system: str, data: Any) -> dict:
    try:
        return rules(system).validate_vehicle(data)
    except InvalidSheet as invalid:
        raise VehicleRefused(_fault(str(invalid))) from None


def _name(raw: str) -> str:
    name = " ".join((raw or "").split())
    if not name:
        raise VehicleRefused({"name": "Give the vehicle a name."})
    if len(name) > NAME_LIMIT:
        raise VehicleRefused({"name": f"At most {NAME_LIMIT} characters."})
    return name


def starting_data(system: str, sample: str = "", edition: str = "") -> dict:
    module = rules(system)
    if sample:
        samples = getattr(module, "SAMPLES", {})
        if sample not in samples:
            raise VehicleRefused({"sample": "No such built-in vehicle."})
        return module.sample(sample)
    if system == "weg_d6":
        return module.blank(edition or module.EDITION_DEFAULT)
    return module.blank()


def _revise(vehicle: Vehicle, user: AbstractBaseUser, summary: str, before: dict) -> None:
    VehicleRevision.objects.create(
        vehicle=vehicle,
        version=vehicle.version,
        author=user,
        summary=summary[:300],
        before=before,
        after=vehicle.data,
    )
    # A scene showing this ship redraws for its viewers (its damage may be shown to them).
    for campaign_id, scene_id in Participant.objects.filter(vehicle=vehicle).values_list(
        "scene__campaign_id", "scene_id"
    ):
        scene_changed(campaign_id, scene_id)


@transaction.atomic
def vehicle_create(
    *,
    user: AbstractBaseUser,
    name: str,
    owner: str,
    campaign_id: int | None = None,
    character_id: int | None = None,
    sample: str = "",
    edition: str = "",
) -> Vehicle:
    """A new vehicle for a table (its GMs) or for a character or NPC (who may edit it)."""
    if owner == OwnerKind.CAMPAIGN:
        campaign, _ = campaign_for(user, campaign_id or 0, gm=True)
        system, fields = campaign.system, {"campaign": campaign}
    else:
        character, _ = character_for(user, character_id or 0, Need.EDIT)
        kind = OwnerKind.NPC if hasattr(character, "npc") else OwnerKind.CHARACTER
        system, fields = character.system, {"character": character}
        owner = kind
        if system == "weg_d6" and not edition:
            edition = character.sheet.get("edition", "")
    clean = _name(name)
    data = starting_data(system, sample, edition)
    vehicle = Vehicle.objects.create(
        system=system, name=clean, data=data, owner_kind=owner, created_by=user, **fields
    )
    _revise(vehicle, user, "Created" + (f" from {data.get('craft', '')}" if sample else ""), {})
    return vehicle


# --- edits --------------------------------------------------------------------------------------

ROW_LISTS = {"weapons", "sensors", "locations"}


def _parse_path(path: str) -> list[str | int]:
    parts: list[str | int] = []
    for part in path.split("."):
        if part.isascii() and part.isdigit():
            parts.append(int(part))
        elif part.replace("_", "").isalpha():
            parts.append(part)
        else:
            raise VehicleRefused({path: "No such field."})
    return parts


def _typed(current: Any, raw: str, path: str) -> Any:
    """The posted text as the stored value's type: the schema then judges its range."""
    if isinstance(current, bool):
        return raw in ("on", "true", "1", "yes")
    if isinstance(current, int):
        text = raw.strip()
        digits = text.lstrip("-")
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 15:
            raise VehicleRefused({path: "Expected a whole number."})
        return int(text)
    return raw


def _set(data: dict, path: str, raw: str) -> None:
    parts = _parse_path(path)
    node: Any = data
    try:
        for part in parts[:-1]:
            node = node[part]
        current = node[parts[-1]]
    except (KeyError, IndexError, TypeError):
        raise VehicleRefused({path: "No such field."}) from None
    if isinstance(current, (dict, list)):
        raise VehicleRefused({path: "No such field."})
    node[parts[-1]] = _typed(current, raw, path)


def apply_edits(system: str, data: dict, edits: Mapping[str, str]) -> dict:
    """The stat block with `edits` (field path -> posted text) applied and validated.
    `rows.add` adds a row to a list (`weapons`), `rows.remove` takes one out (`weapons.2`)."""
    out = _copy(data)
    for path, raw in edits.items():
        if path == "rows.add":
            if raw not in ROW_LISTS or raw not in out:
                raise VehicleRefused({WHOLE: "No such list."})
            out[raw].append(_new_row(system, raw))
        elif path == "rows.remove":
            name, _, index = raw.partition(".")
            if name not in ROW_LISTS or not index.isdigit() or int(index) >= len(out.get(name, [])):
                raise VehicleRefused({WHOLE: "No such row."})
            del out[name][int(index)]
        else:
            _set(out, path, raw)
    return validate(system, out)


def _new_row(system: str, name: str) -> dict:
    if name == "weapons":
        if system == "weg_d6":
            return {"name": "New weapon", "fire_control": "1D", "damage": "1D"}
        return {"name": "New weapon", "damage": "width+1"}
    if name == "sensors":
        return {"mode": "passive"}
    return {"low": 1, "high": 1, "name": "New location", "boxes": 1}


def _copy(data: dict) -> dict:
    return copy.deepcopy(data)


@transaction.atomic
def vehicle_apply_edits(
    *,
    user: AbstractBaseUser,
    vehicle_id: int,
    edits: Mapping[str, str],
    expected_version: int,
    name: str | None = None,
) -> Vehicle:
    """Change the stat block (and the name): refused whole, nothing stored, on any fault."""
    vehicle, _ = vehicle_for(user, vehicle_id, edit=True, for_update=True)
    if vehicle.version != expected_version:
        raise StaleVehicle()
    before = vehicle.data
    data = apply_edits(vehicle.system, before, edits)
    new_name = _name(name) if name is not None else vehicle.name
    if data == before and new_name == vehicle.name:
        return vehicle
    changed = sorted(edits) + (["name"] if new_name != vehicle.name else [])
    vehicle.data, vehicle.name = data, new_name
    vehicle.version += 1
    vehicle.save(update_fields=["data", "name", "version", "updated_at"])
    _revise(vehicle, user, "Changed " + ", ".join(changed), before)
    return vehicle


@transaction.atomic
def vehicle_hit(
    *,
    user: AbstractBaseUser,
    vehicle_id: int,
    damage_roll: str,
    hull_roll: str,
    ion: bool,
    expected_version: int,
) -> tuple[Vehicle, str]:
    """Mark one hit from the WEG starship damage summary (003:571-579), or for a capital
    ship its pips of ship damage (003:1264-1380)."""
    vehicle, _ = vehicle_for(user, vehicle_id, edit=True, for_update=True)
    if vehicle.system != "weg_d6":
        raise VehicleRefused({WHOLE: "Hits from damage and hull rolls are WEG d6's."})
    if vehicle.version != expected_version:
        raise StaleVehicle()
    module = rules("weg_d6")
    rolls = {}
    for field, raw in (("damage_roll", damage_roll), ("hull_roll", hull_roll)):
        text = (raw or "").strip()
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 999:
            raise VehicleRefused({field: "A roll's total: a whole number from 1 to 999."})
        rolls[field] = int(text)
    before = vehicle.data
    if vehicle.data["scale"] in ("capital", "death_star"):
        pips = module.capital_damage_pips(rolls["damage_roll"], rolls["hull_roll"], ion=ion)
        data = _copy(before)
        if ion:
            data["damage"]["ionization"] = max(data["damage"]["ionization"], min(pips, 3))
            text = f"Ionized −{min(pips, 3)}D." if pips else "No effect."
        else:
            total = min(9, data["damage"]["capital_pips"] + pips)
            data["damage"]["capital_pips"] = total
            data["damage"]["state"] = module.worse(
                data["damage"]["state"], module.capital_state(total)
            )
            text = f"{pips} pip{'s' if pips != 1 else ''} of ship damage (003:1365-1378)."
        data = validate("weg_d6", data)
    else:
        result = module.starship_damage(rolls["damage_roll"], rolls["hull_roll"], ion=ion)
        data = module.apply_hit(before, result)
        text = f"{result.text} ({result.source})"
    vehicle.data = data
    vehicle.version += 1
    vehicle.save(update_fields=["data", "version", "updated_at"])
    _revise(vehicle, user, f"Hit: damage {damage_roll} vs hull {hull_roll}: {text}", before)
    return vehicle, text


@transaction.atomic
def vehicle_improve(
    *, user: AbstractBaseUser, vehicle_id: int, code: str, expected_version: int
) -> tuple[Vehicle, str]:
    """Record one pip bought on a WEG code (1E skill points, 003:1006-1070; R&E a step of
    its modification chart, 002:259-414), with its cost in the revision."""
    vehicle, _ = vehicle_for(user, vehicle_id, edit=True, for_update=True)
    if vehicle.system != "weg_d6":
        raise VehicleRefused({WHOLE: "Improving codes pip by pip is WEG d6's."})
    if vehicle.version != expected_version:
        raise StaleVehicle()
    before = vehicle.data
    try:
        data, text = rules("weg_d6").improve(before, code)
    except InvalidSheet as refused:
        raise VehicleRefused({WHOLE: str(refused)}) from None
    vehicle.data = data
    vehicle.version += 1
    vehicle.save(update_fields=["data", "version", "updated_at"])
    _revise(vehicle, user, f"Improved {text}", before)
    return vehicle, text


# --- rolls -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VehicleRoll:
    """A roll from a vehicle, ready: the combined rollable, its options and the crew."""

    vehicle: Vehicle
    crew: Character
    rollable: Rollable
    definitions: tuple[RollOption, ...]
    readings: dict[str, Any]


def vehicle_codes(vehicle: Vehicle) -> list[tuple[str, str, bool]]:
    """(key, label, needs a crew trait) of every code a roll from this vehicle uses."""
    if vehicle.system == "weg_d6":
        return [
            (code.key, code.label, bool(code.crew_trait))
            for code in rules("weg_d6").codes(vehicle.data)
        ]
    if vehicle.system in ("ore", "swd10"):
        return [("pilot", "Piloting (the pilot's roll)", True)]
    return []


def _crew(user: AbstractBaseUser, vehicle: Vehicle, crew_id: str) -> Character:
    text = (crew_id or "").strip()
    for character in crew_characters(user, vehicle):
        if text == str(character.pk):
            return character
    raise VehicleRefused({"crew": "Pick a character of yours at this vehicle's table."})


def roll_setup(user: AbstractBaseUser, vehicle: Vehicle, raw: Mapping[str, str]) -> VehicleRoll:
    """The roll the panel describes: the vehicle's code (`code`), the crew member (`crew`)
    and their trait (`trait`), combined by the system's vehicle rules."""
    codes = {key: needs for key, _, needs in vehicle_codes(vehicle)}
    code = raw.get("code", "")
    if code not in codes:
        raise VehicleRefused({"code": "Pick one of this vehicle's codes."})
    crew = _crew(user, vehicle, raw.get("crew", ""))
    if crew.system != vehicle.system:
        raise VehicleRefused({"crew": "This character plays another system."})
    if vehicle.system == "weg_d6" and crew.sheet.get("edition") != vehicle.data["edition"]:
        # The Wild Die and the die caps are each one edition's: crew and craft share it.
        raise VehicleRefused({"crew": "This character plays the other edition of WEG d6."})
    settings = character_settings(crew)
    trait: Rollable | None = None
    if codes[code]:
        key = raw.get("trait", "")
        trait = next((r for r in rollables_of(crew, settings) if r.key == key), None)
        if trait is None:
            raise VehicleRefused({"trait": "Pick the crew member's skill or attribute."})
    module = rules(vehicle.system)
    try:
        if vehicle.system == "weg_d6":
            rollable = module.vehicle_rollable(vehicle.data, code, trait)
        else:
            rollable = module.crew_rollable(vehicle.data, trait)
    except InvalidRoll as refused:
        raise VehicleRefused({refused.option: refused.message}) from None
    except InvalidSheet as refused:
        raise VehicleRefused({"code": str(refused)}) from None
    ruleset = get_ruleset(vehicle.system)
    allowed = module.ROLL_OPTIONS
    definitions = tuple(o for o in ruleset.roll_options(rollable, settings) if o.key in allowed)
    if vehicle.system == "weg_d6" and vehicle.data["edition"] == EDITION_1E:
        # 1st edition caps dice against another scale (003:618-647); R&E has no such rule.
        definitions += (
            RollOption(
                TARGET_SCALE,
                "Target's scale",
                "choice",
                vehicle.data["scale"],
                choices=module.SCALES,
                source="003:618-647",
            ),
        )
    return VehicleRoll(
        vehicle=vehicle,
        crew=crew,
        rollable=rollable,
        definitions=definitions,
        readings=dice_readings(settings, ruleset.DICE_READINGS),
    )


def _cap(setup: VehicleRoll, chosen: Mapping[str, Any]) -> int:
    """The die cap the chosen target scale puts on this roll (6: none)."""
    target = chosen.get(TARGET_SCALE)
    if target is None:
        return 6
    code = setup.rollable.key.removeprefix("vehicle.")
    cap = rules("weg_d6").cap_for(setup.vehicle.data, code, target)
    if cap is None:
        raise VehicleRefused(
            {TARGET_SCALE: "The scale chart has no entry here: no such roll (003:634)."}
        )
    return cap


def _capped_spec(setup: VehicleRoll, options: Mapping[str, Any]):
    return weg_dice.read_roll(setup.rollable, options)


def roll_odds(setup: VehicleRoll, raw: Mapping[str, str]) -> tuple[dict[str, Any], Odds]:
    chosen_raw = {d.key: raw[d.key] for d in setup.definitions if d.key in raw}
    try:
        chosen = parse_roll_options(setup.definitions, chosen_raw)
        options = chosen | setup.readings
        cap = _cap(setup, chosen)
        if cap < 6:
            spec = _capped_spec(setup, options)
            odds = rules("weg_d6").capped_odds(spec.dice, spec.pips, cap, spec.difficulty)
        else:
            odds = get_ruleset(setup.vehicle.system).odds(setup.rollable, options)
    except InvalidRoll as refused:
        raise VehicleRefused({refused.option: refused.message}) from None
    return chosen, odds


def _hidden(vehicle: Vehicle) -> bool:
    """Whether no player may know of the vehicle: a hidden NPC's."""
    if vehicle.owner_kind != OwnerKind.NPC:
        return False
    npc = getattr(vehicle.character, "npc", None)
    return npc is not None and npc.visibility == Visibility.HIDDEN


def vehicle_roll(
    *,
    user: AbstractBaseUser,
    vehicle_id: int,
    raw: Mapping[str, str],
    rng: random.Random | None = None,
) -> RollEntry:
    """Roll from a vehicle into its table's log (or the crew's own log outside a table).

    The entry names the crew member who rolled; a hidden NPC's vehicle rolls in secret.
    """
    with transaction.atomic():
        vehicle, _ = vehicle_for(user, vehicle_id, edit=False, for_update=True)
        setup = roll_setup(user, vehicle, raw)
        chosen, odds = roll_odds(setup, raw)
        ruleset = get_ruleset(vehicle.system)
        options = chosen | setup.readings
        cap = _cap(setup, chosen)
        try:
            if cap < 6:
                spec = _capped_spec(setup, options)
                result = rules("weg_d6").capped_roll(
                    spec.dice, spec.pips, cap, spec.difficulty, rng or dice_random()
                )
            else:
                result = ruleset.roll(setup.rollable, options, rng or dice_random())
        except InvalidRoll as refused:
            raise VehicleRefused({refused.option: refused.message}) from None
        crew = setup.crew
        secret = _hidden(vehicle) and crew.campaign_id is not None
        if secret and campaign_role(user, crew.campaign) is not Role.GM:
            raise VehicleRefused({WHOLE: "Only a GM rolls from this vehicle."})
        return RollEntry.objects.create(
            campaign_id=crew.campaign_id,
            character=crew,
            author=user,
            secret=secret,
            system=vehicle.system,
            rollable_key=setup.rollable.key[:120],
            rollable_label=f"{vehicle.name}: {setup.rollable.label}"[:200],
            pool=pool_text(_as_code(vehicle.system, setup.rollable)),
            options=chosen,
            modifiers=modifiers_text(setup.definitions, chosen)[:400],
            dice=list(result.dice),
            kept=result.kept[:200],
            outcome=result.outcome[:40],
            summary=result.summary[:300],
            details=list(result.details),
            total=result.total,
            success=result.success,
            odds=f"{odds.success.numerator}/{odds.success.denominator}",
            odds_percent=odds.percent,
            question=odds.question[:200],
            facts=roll_facts(vehicle.system, setup.rollable, result),
        )


def _as_code(system: str, rollable: Rollable) -> Any:
    if system == "weg_d6":
        return DieCode.from_pips(rollable.dice)
    return rollable.dice


def campaign_of(user: AbstractBaseUser, pk: int) -> tuple[Campaign, Role]:
    return campaign_for(user, pk)


# A vehicle in a scene: what a hit asks, where it stands, and the hit marked ----------------
# The scene tracker (sheets/scenes) asks these; each system's hit in its own terms: WEG's
# damage roll against hull on the damage summary (vehicle_hit), an O.R.E. location's boxes
# (001:L448), SWd10's health levels by size (000:L1388-1408).


def hit_fields(vehicle: Vehicle) -> tuple[HitField, ...]:
    data = vehicle.data
    if vehicle.system == "weg_d6":
        return (
            HitField("damage_roll", "Damage roll", maximum=999, default="", source="003:571"),
            HitField("hull_roll", "Hull roll", maximum=999, default="", source="003:571"),
            HitField("ion", "Ion", (("", "No"), ("on", "Yes")), source="003:541"),
        )
    if vehicle.system == "ore" and data["locations"]:
        locations = tuple((str(i), row["name"]) for i, row in enumerate(data["locations"]))
        most = max(row["boxes"] for row in data["locations"])
        return (
            HitField("location", "Location", locations, default="0", source="001:L448"),
            HitField("shock", "Shock", minimum=0, maximum=most, default="0", source="001:L448"),
            HitField("killing", "Killing", minimum=0, maximum=most, default="1"),
        )
    if vehicle.system == "swd10":
        most = len(rules("swd10").health_levels(data))
        return (HitField("levels", "Health levels", maximum=most, default="1", source="000:L1388"),)
    return ()


def condition(vehicle: Vehicle) -> Condition | None:
    """Where the vehicle stands, as a scene row reads it."""
    data = vehicle.data
    if vehicle.system == "weg_d6":
        module = rules("weg_d6")
        state = data["damage"]["state"]
        order = [key for key, _ in module.DAMAGE_STATES]
        penalty = module.penalty_pips(data)
        return Condition(
            module.DAMAGE_LABELS[state],
            f"−{penalty} pips" if penalty else "",
            bool(module.can_act(data)),
            order.index(state),
            len(order) - 1,
            "003:571-579",
        )
    if vehicle.system == "ore":
        module = rules("ore")
        states = [f"{row['name']} {module.location_state(row)}" for row in data["locations"]]
        broken = [row for row in data["locations"] if module.location_state(row) != "working"]
        marks = sum(row["shock"] + row["killing"] for row in data["locations"])
        boxes = sum(row["boxes"] for row in data["locations"])
        text = ", ".join(states) if broken else "Working"
        return Condition(text, "", False, marks, boxes, "001:L448")
    if vehicle.system == "swd10":
        levels = rules("swd10").health_levels(data)
        marked = data["health_marked"]
        if not marked:
            return Condition("Unhurt", "", False, 0, len(levels), "000:L1388")
        level = levels[marked - 1]
        penalty = "" if level.penalty in (None, 0) else f"{level.penalty:+d} dice"
        return Condition(level.name, penalty, level.penalty is None, marked, len(levels))
    return None


def _whole(raw: Mapping[str, str], spec: HitField) -> int:
    try:
        return whole_number(raw, spec)
    except InvalidHit as refused:
        raise VehicleRefused({refused.field: refused.message}) from None


@transaction.atomic
def vehicle_mark_hit(
    *, user: AbstractBaseUser, vehicle_id: int, raw: Mapping[str, str], expected_version: int
) -> tuple[Vehicle, str]:
    """A hit from the scene tracker, in the vehicle's system's terms; refused whole, nothing
    stored, on any fault."""
    vehicle, _ = vehicle_for(user, vehicle_id, edit=True, for_update=True)
    if vehicle.version != expected_version:
        raise StaleVehicle()
    if vehicle.system == "weg_d6":
        return vehicle_hit(
            user=user,
            vehicle_id=vehicle.pk,
            damage_roll=raw.get("damage_roll", ""),
            hull_roll=raw.get("hull_roll", ""),
            ion=raw.get("ion") in ("on", "1", "true"),
            expected_version=expected_version,
        )
    specs = {spec.name: spec for spec in hit_fields(vehicle)}
    if not specs:
        raise VehicleRefused({WHOLE: "This vehicle has nothing a hit marks (no hit locations)."})
    before = vehicle.data
    data = _copy(before)
    if vehicle.system == "ore":
        where = str(raw.get("location", "")).strip()
        if where not in dict(specs["location"].choices):
            raise VehicleRefused({"location": "Choose one of the vehicle's hit locations."})
        row = data["locations"][int(where)]
        shock, killing = _whole(raw, specs["shock"]), _whole(raw, specs["killing"])
        if not shock and not killing:
            raise VehicleRefused({"killing": "A hit marks at least one box."})
        # Killing takes boxes first, Shock what is left: a full location is inoperable,
        # full of Killing destroyed (001:L448); more than its boxes marks nothing further.
        row["killing"] = min(row["boxes"], row["killing"] + killing)
        row["shock"] = min(row["boxes"] - row["killing"], row["shock"] + shock)
        text = f"{row['name']}: {rules('ore').location_state(row)}."
    else:
        levels = rules("swd10").health_levels(data)
        data["health_marked"] = min(
            len(levels), data["health_marked"] + _whole(raw, specs["levels"])
        )
        text = f"{levels[data['health_marked'] - 1].name}."
    vehicle.data = validate(vehicle.system, data)
    vehicle.version += 1
    vehicle.save(update_fields=["data", "version", "updated_at"])
    _revise(vehicle, user, f"Hit: {text}", before)
    return vehicle, text


@transaction.atomic
def vehicle_delete(*, user: AbstractBaseUser, vehicle_id: int, expected_version: int) -> str:
    """Delete a vehicle (whoever may change it). Refused while it is in a scene: taking it
    out there first keeps a running scene from losing a row, and its current turn, unseen."""
    vehicle, _ = vehicle_for(user, vehicle_id, edit=True, for_update=True)
    if vehicle.version != expected_version:
        raise StaleVehicle()
    scenes = sorted(set(vehicle.scene_rows.values_list("scene__name", flat=True)))
    if scenes:
        raise VehicleRefused(
            {WHOLE: "It is in a scene: take it out of " + ", ".join(scenes) + " first."}
        )
    name = vehicle.name
    vehicle.delete()
    return name
