"""Who may see and change which characters: the one place that decides it."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from sheets.characters.models import Character


def visible_characters(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Character]:
    """Characters `user` may open: for now, their own (GMs' tables come with campaigns)."""
    if not user.is_authenticated:
        return Character.objects.none()
    return Character.objects.filter(owner=user)


def editable_characters(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Character]:
    """Characters `user` may change: only their owner's."""
    if not user.is_authenticated:
        return Character.objects.none()
    return Character.objects.filter(owner=user)


def character_for_view(user: AbstractBaseUser | AnonymousUser, pk: int) -> Character:
    """Load a character the user may see, or 404 (never 403: that would confirm it exists)."""
    return get_object_or_404(visible_characters(user), pk=pk)


def character_for_edit(user: AbstractBaseUser | AnonymousUser, pk: int) -> Character:
    return get_object_or_404(editable_characters(user), pk=pk)
