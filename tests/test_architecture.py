"""The shape of the code: imports flow one way (the contracts in .importlinter) and no
module of the web layer imports one that imports it back, directly or through others."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_hold():
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def _web_modules(graph: grimp.ImportGraph) -> list[str]:
    # Migrations are history: they may call what the app offered when they were written.
    return sorted(m for m in graph.modules if m.startswith("sheets") and ".migrations" not in m)


def test_no_module_imports_one_that_imports_it_back():
    graph = grimp.build_graph("sheets", "rulesets")
    modules = set(_web_modules(graph))
    looped = sorted(
        (importer, imported)
        for importer in modules
        for imported in graph.find_modules_directly_imported_by(importer) & modules
        if graph.chain_exists(importer=imported, imported=importer)
    )
    assert looped == [], "\n".join(f"{a} -> {b}" for a, b in looped)
