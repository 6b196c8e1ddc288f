"""Datapad sheets out to Foundry VTT: which exporter takes a system's sheets.

Each exporter is a module of this package with KEY (the last part of its download URL),
LABEL, SUFFIX, SYSTEM and `export(sheet, name) -> Export`.
"""

from __future__ import annotations

from types import ModuleType

from sheets.transfer.formats import foundry_od6s_export, foundry_wod20_export

EXPORTERS: dict[str, ModuleType] = {
    module.KEY: module for module in (foundry_od6s_export, foundry_wod20_export)
}


def exporter_for(system: str, format_key: str) -> ModuleType | None:
    """The exporter of `format_key` when it takes sheets of `system`, else None."""
    found = EXPORTERS.get(format_key)
    return found if found is not None and system == found.SYSTEM else None


def exporter_of_system(system: str) -> ModuleType | None:
    """The Foundry exporter that takes sheets of `system`, if one does."""
    return next((m for m in EXPORTERS.values() if system == m.SYSTEM), None)
