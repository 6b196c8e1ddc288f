"""The published JSON Schema of a character file, built from each system's sheet schema."""

from __future__ import annotations

import json

from rulesets.core.schema import json_schema
from rulesets.registry import SYSTEMS, get_ruleset
from sheets.characters.transfer import FORMAT, SCHEMA_VERSION


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
            "exported_at": {"type": "string"},
        },
        "oneOf": variants,
        "$defs": definitions,
    }
