"""Where the dice of a server-side roll come from: one source for the roll panel and for the
rolls the ledger makes (the WEG attribute improvement roll), low enough in the app's layers
that both services may import it (the roll service imports the ledger's, not the reverse)."""

from __future__ import annotations

import random

from django.conf import settings as django_settings


def dice_random() -> random.Random:
    """The operating system's randomness; a seeded generator only where a test asks for one.

    `DICE_SEED` is never set by sheets/settings.py: a test sets it (pytest-django's
    `settings` fixture) so a roll made through a page is repeatable.
    """
    seed = getattr(django_settings, "DICE_SEED", None)
    if seed is not None:
        return random.Random(seed)
    return random.SystemRandom()
