"""Which scene a character is in now: the one answer the rules read (SWd10's spends once a
round or once a scene, sheets/rolls/services; WEG 1E's stuns kept with their scene round,
sheets/rolls/hits and the WEG layout; the roll page's "in <scene>, round N")."""

from __future__ import annotations

from sheets.characters.models import Character
from sheets.scenes.models import Scene


def running_scene_of(character: Character) -> Scene | None:
    """The running scene of its table the character takes part in: not ended, the newest
    when it is in several; None outside a table or any running scene."""
    if character._state.adding or character.campaign_id is None:
        return None
    return (
        Scene.objects.filter(
            campaign_id=character.campaign_id,
            participants__character=character,
            ended_at__isnull=True,
        )
        .order_by("-created_at", "-pk")
        .first()
    )
