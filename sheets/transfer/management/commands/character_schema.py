"""Print the JSON Schema of a character file (static/schema/ holds the published copy)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from sheets.transfer.schema import character_file_schema


class Command(BaseCommand):
    help = "Print the JSON Schema of a Datapad character file."

    def handle(self, *args, **options) -> None:
        self.stdout.write(json.dumps(character_file_schema(), indent=2, ensure_ascii=False))
