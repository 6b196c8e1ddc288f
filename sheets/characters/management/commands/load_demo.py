"""Create a demo user with one complete character per available rule system."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from rulesets.registry import get_ruleset, ready_systems
from sheets.characters.services import character_create

DEMO_NAMES = {
    "swd10": "Kira Dane",
    "ore": "Kael Varrin",
    "weg_d6": "Jax Durran",
    "o3d10": "Kira Vant",
}


class Command(BaseCommand):
    help = "Load demo characters (one per available system) for the user 'demo'."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="demo")
        parser.add_argument("--password", default="demo-pass")

    @transaction.atomic
    def handle(self, *args, username: str, password: str, **options) -> None:
        user, created = get_user_model().objects.get_or_create(username=username)
        if created:
            user.set_password(password)
            user.save()
        for info in ready_systems():
            ruleset = get_ruleset(info.key)
            sheet = ruleset.demo_sheet()
            name = DEMO_NAMES.get(info.key, info.name)
            if user.characters.filter(system=info.key, name=name).exists():
                continue
            character_create(
                owner=user,
                name=name,
                system=info.key,
                sheet=sheet,
                summary="Loaded as demo data",
            )
            self.stdout.write(f"Created {name} ({info.name}).")
        login = f"log in as {username} / {password}" if created else f"log in as {username}"
        self.stdout.write(self.style.SUCCESS(f"Demo characters ready: {login}."))
