"""The published JSON Schema of a character file, built from each system's sheet schema."""

from __future__ import annotations

import json

from rulesets.core.schema import json_schema
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.transfer.datapad import ENTRIES_SCHEMA, FORMAT, SCHEMA_VERSION
from sheets.transfer.records import MOST_ENTRIES, MOST_REVISIONS, EntryRecord, RevisionRecord


def _part(model: type, prefix: str, definitions: dict) -> dict:
    """A part's JSON Schema from its declaration, its definitions moved to the root."""
    schema = model.model_json_schema(mode="validation")
    schema = json.loads(json.dumps(schema).replace('"#/$defs/', f'"#/$defs/{prefix}.'))
    for name, definition in schema.pop("$defs", {}).items():
        definitions[f"{prefix}.{name}"] = definition
    return schema


def character_file_schema() -> dict:
    """Describe the file `export_character` writes: the envelope, then one sheet per system."""
    variants = []
    definitions: dict = {}
    revision = _part(RevisionRecord, "history", definitions)
    entry = _part(EntryRecord, "ledger", definitions)
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
            "ledger": {"type": "array", "items": entry, "maxItems": MOST_ENTRIES},
            "history": {"type": "array", "items": revision, "maxItems": MOST_REVISIONS},
            "entries": ENTRIES_SCHEMA,
            "exported_at": {"type": "string"},
        },
        "oneOf": variants,
        "$defs": definitions,
    }
