"""1o3d10 has no vehicle rules: its seed (004) names none, so Datapad keeps no vehicle sheet
for it. The vehicles page says so; this module only makes the absence explicit."""

from __future__ import annotations

HAS_VEHICLES = False
WHY_NONE = "The 1o3d10 rules (seed 004) have no vehicles or starships."
