"""What the HTTP API sends and takes: pydantic models, which django-ninja also writes into
the OpenAPI document (/api/openapi.json). Field descriptions are the API's documentation."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Message(BaseModel):
    """Every refusal: what went wrong in words, and by field where a field is at fault."""

    detail: str
    errors: dict[str, str] = Field(default_factory=dict)


class Table(BaseModel):
    id: int
    name: str


class CharacterLine(BaseModel):
    """One character the token's user may open, as a list names it."""

    id: int
    name: str
    system: str = Field(description="The rule system's key: swd10, ore, weg_d6 or o3d10.")
    system_name: str
    campaign: Table | None = Field(description="The table it plays at; null for none.")
    npc: bool = Field(description="A non-player character of its table's GMs.")
    owner: bool = Field(description="Whether the token's user owns it.")
    gm: bool = Field(description="Whether the token's user is a GM of its table.")
    version: int = Field(description="Bumped by every change of the sheet.")
    review: str = Field(description="Where the GM's review stands, as the pages say it.")
    updated_at: datetime


class Check(BaseModel):
    """One rule the sheet breaks (an error) or strains (a warning)."""

    severity: str
    trait: str | None
    message: str
    source: str


class SheetStatus(BaseModel):
    stage: str = Field(description="creation or play")
    legal: bool
    errors: int
    warnings: int
    unspent: int | None = Field(description="XP or Character Points earned, not spent.")
    unit: str


class CharacterDetail(CharacterLine):
    """A character as its sheet page shows it to the token's user."""

    sheet: dict[str, Any] = Field(description="The sheet as stored (the ruleset's schema).")
    rule_settings: dict[str, Any] = Field(
        description="The rule readings in force: its table's, or its own at no table."
    )
    derived: dict[str, Any] = Field(description="Values the rules compute; never stored.")
    status: SheetStatus
    checks: list[Check]
    gm_note: str | None = Field(
        description="The table's private note on it: only for a GM of its table, else null."
    )


class Page(BaseModel):
    next_before: int | None = Field(
        description="Ask again with before=this for older entries; null when none are left."
    )


class Author(BaseModel):
    id: int | None
    username: str


class RollLine(BaseModel):
    """One entry of a table's roll log, as the log page prints it."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    kind: str = Field(description="roll, or hit (wounds marked from a roll or by hand)")
    created_at: datetime
    character: Table = Field(description="The sheet rolled from (id and name).")
    author: Author | None
    secret: bool = Field(description="A GM's secret roll: only the table's GMs read it.")
    rollable: str = Field(description="The key of what was rolled.")
    label: str
    pool: str
    options: dict[str, Any]
    modifiers: str
    dice: list[Any]
    kept: str
    outcome: str
    summary: str
    details: list[Any]
    total: int | None
    success: bool
    odds: str = Field(description="The exact chance of success before the roll, as n/d.")
    odds_percent: str
    question: str
    facts: dict[str, Any]


class RollLog(Page):
    items: list[RollLine]


class RollAsked(BaseModel):
    """A roll asked for: what to roll and its modifiers, as the roll panel's form sends them."""

    model_config = ConfigDict(extra="forbid")

    rollable: str = Field(
        min_length=1,
        max_length=120,
        description="The key of a rollable of this sheet (GET …/rollables/ lists them).",
    )
    options: dict[str, str | int | bool] = Field(
        default_factory=dict,
        description="Each modifier by its key: a number, a flag (true/false) or a choice.",
    )
    secret: bool = Field(False, description="A GM's secret roll (a GM of the table only).")
    campaign: int | None = Field(
        None,
        description=(
            "The table the roll is meant for; the roll is refused if the character no longer "
            "plays there. Left out: the table it plays at now."
        ),
    )


class OptionLine(BaseModel):
    key: str
    label: str
    kind: str = Field(description="number, flag or choice")
    default: Any
    minimum: int | None
    maximum: int | None
    choices: list[list[str]]
    help: str


class RollableLine(BaseModel):
    key: str
    label: str
    group: str
    options: list[OptionLine]


class Chance(BaseModel):
    """One exact chance: a result of the distribution, or one weighed beside success."""

    label: str
    chance: str = Field(description="Exact, as n/d.")
    percent: str
    success: bool | None = Field(None, description="For a bar: whether it is a success.")
    threshold: bool | None = Field(None, description="For a bar: where the difficulty sits.")
    source: str = ""


class OddsAnswer(BaseModel):
    """The exact odds of a roll with the modifiers given, as the roll panel shows them."""

    rollable: str
    label: str
    options: dict[str, Any] = Field(description="The modifiers as read, defaults filled in.")
    question: str
    odds: str = Field(description="The exact chance of success, as n/d.")
    percent: str
    exact: bool
    note: str
    bars: list[Chance]
    beside: list[Chance]
