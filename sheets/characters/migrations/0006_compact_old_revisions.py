"""Turn every stored revision's before/after pair into row-level operations.

The old pairs stored whole lists. Each character's versions are rebuilt from its current
state, newest first: the state before a revision is the state after it with the pair's
"before" values put back. The operations are then the difference of the two states, so
they always lead back through the history exactly as far as the pairs did.

An old pair cannot tell a key that was missing from one that held null; a rule reading
is never null, so a null one was missing, and a sheet's null stays null.
"""

from __future__ import annotations

import copy

from django.db import migrations

BATCH = 500


def _put_back(state: dict, before: dict, *, first: bool) -> dict:
    """The state before a revision, from the state after it and the pair's "before"."""
    if first and all(value is None for value in before.values()):
        # The revision that created the character: nothing existed before it.
        return {}
    earlier = copy.deepcopy(state)
    for dotted, value in before.items():
        *parents, last = dotted.split(".")
        container = earlier
        for step in parents:
            if not isinstance(container, dict):
                break
            container = container.setdefault(step, {})
        if not isinstance(container, dict):
            # The sheet's shape changed since (a schema upgrade): nothing to put back there.
            continue
        if value is None and dotted.startswith("settings."):
            container.pop(last, None)
        else:
            container[last] = value
    return earlier


def _lines(system: str, before: dict, after: dict, chosen: dict) -> list[list]:
    from sheets.history.revisions import change_lines

    if not before:
        return []
    try:
        return change_lines(system, before, after, chosen)
    except Exception:
        # A version from before a sheet upgrade may not fit today's rows; its summary,
        # which already names the traits in words, still says what changed.
        return []


def compact(apps, schema_editor):
    from sheets.history.revisions import CHANGES_KEPT, diff_ops, kept_lines

    Character = apps.get_model("characters", "Character")
    Revision = apps.get_model("characters", "Revision")
    for character in Character.objects.select_related("campaign").iterator():
        chosen = (
            character.campaign.rule_settings if character.campaign_id else character.rule_settings
        )
        state = copy.deepcopy(
            {"name": character.name, "settings": character.rule_settings, "sheet": character.sheet}
        )
        changed = []
        revisions = list(Revision.objects.filter(character=character).order_by("-version"))
        for number, revision in enumerate(revisions, start=1):
            earlier = _put_back(state, revision.before, first=number == len(revisions))
            lines = _lines(character.system, earlier, state, chosen)
            revision.ops = diff_ops(earlier, state)
            revision.changes = kept_lines(lines)
            revision.changes_more = max(0, len(lines) - CHANGES_KEPT)
            changed.append(revision)
            state = earlier
        Revision.objects.bulk_update(changed, ["ops", "changes", "changes_more"], batch_size=BATCH)


def expand(apps, schema_editor):
    """Back to before/after pairs: the dotted paths that differ, lists taken whole."""
    from sheets.history.revisions import changes_between, revert_ops

    Character = apps.get_model("characters", "Character")
    Revision = apps.get_model("characters", "Revision")
    for character in Character.objects.iterator():
        state = copy.deepcopy(
            {"name": character.name, "settings": character.rule_settings, "sheet": character.sheet}
        )
        changed = []
        for revision in Revision.objects.filter(character=character).order_by("-version"):
            earlier = copy.deepcopy(state)
            revert_ops(earlier, revision.ops)
            revision.before, revision.after = changes_between(earlier, state)
            changed.append(revision)
            state = earlier
        Revision.objects.bulk_update(changed, ["before", "after"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [("characters", "0005_revision_ops")]

    operations = [migrations.RunPython(compact, expand)]
