"""The published JSON Schema of a character file, built from each system's sheet schema."""

from __future__ import annotations

import json

from rulesets.core.schema import json_schema
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.transfer.datapad import FORMAT, SCHEMA_VERSION
from sheets.transfer.records import MOST_ENTRIES, MOST_REVISIONS

_TEXT = {"type": "string"}
_WHOLE = {"type": "integer"}
LEDGER_ENTRY = {
    "type": "object",
    "required": ["id", "kind", "amount", "created_at", "version"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "integer", "minimum": 1},
        "kind": {"enum": ["award", "purchase", "refund", "correction"]},
        "amount": _WHOLE,
        "unit": {"type": "string", "maxLength": 20},
        "trait": {"type": "string", "maxLength": 200},
        "trait_label": {"type": "string", "maxLength": 200},
        "from_value": {"type": "string", "maxLength": 100},
        "to_value": {"type": "string", "maxLength": 100},
        "reason": {"type": "string", "maxLength": 500},
        "teacher": {"type": "string", "maxLength": 100},
        "author": {"type": "string", "maxLength": 150},
        "created_at": _TEXT,
        "version": {"type": "integer", "minimum": 1},
        "undoes": {"type": ["integer", "null"], "description": "the id of the entry it undoes"},
        "adventure": {"type": "integer", "minimum": 1},
        "pending": {"type": "boolean"},
        "carried": {
            "type": "boolean",
            "description": "carries over what the sheet held before its ledger: never undone",
        },
    },
}
_PATH = {"type": "array", "minItems": 1, "items": {"type": ["string", "integer"]}}
OPERATION = {
    "type": "object",
    "required": ["op", "path"],
    "additionalProperties": False,
    "properties": {
        "op": {"enum": ["set", "insert", "remove"]},
        "path": _PATH,
        "before": {},
        "after": {},
        "value": {},
    },
}
REVISION = {
    "type": "object",
    "required": ["version", "ops"],
    "additionalProperties": False,
    "properties": {
        "version": {"type": "integer", "minimum": 1},
        "created_at": _TEXT,
        "author": {"type": "string", "maxLength": 150},
        "summary": {"type": "string", "maxLength": 200},
        "ops": {"type": "array", "items": OPERATION},
        "changes": {
            "type": "array",
            "items": {"type": "array", "minItems": 3, "maxItems": 3},
            "description": "[label, before, after] as a player reads them",
        },
        "changes_more": {"type": "integer", "minimum": 0},
    },
}


def character_file_schema() -> dict:
    """Describe the file `export_character` writes: the envelope, then one sheet per system."""
    variants = []
    definitions: dict = {}
    for key, info in SYSTEMS.items():
        ruleset = get_ruleset(key)
        sheet = json_schema(ruleset.SCHEMA, title=f"{info.name} sheet")
        # Each system's definitions move to the root under its own prefix, so their
        # references still resolve from the file's root.
        sheet = json.loads(json.dumps(sheet).replace('"#/$defs/', f'"#/$defs/{key}.'))
        for name, definition in sheet.pop("$defs", {}).items():
            definitions[f"{key}.{name}"] = definition
        variants.append(
            {
                "title": info.name,
                "properties": {"system": {"const": key}, "sheet": sheet},
            }
        )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Datapad character file",
        "type": "object",
        "required": ["format", "schema_version", "system", "name", "sheet"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": FORMAT},
            "schema_version": {"const": SCHEMA_VERSION},
            "system": {"enum": list(SYSTEMS)},
            "name": {"type": "string", "minLength": 1, "maxLength": 100},
            "rule_settings": {"type": "object"},
            "sheet": {"type": "object"},
            "adventure": {"type": "integer", "minimum": 1},
            "ledger": {"type": "array", "items": LEDGER_ENTRY, "maxItems": MOST_ENTRIES},
            "history": {"type": "array", "items": REVISION, "maxItems": MOST_REVISIONS},
            "exported_at": {"type": "string"},
        },
        "oneOf": variants,
        "$defs": definitions,
    }
