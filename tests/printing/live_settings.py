"""Datapad's settings for the printing tests' own servers and workers: a build silent for
two seconds counts as abandoned (60 s in production), so a test need not wait a minute."""

from sheets.settings import *  # noqa: F403

TABLE_PRINT_STALE_SECONDS = 2
