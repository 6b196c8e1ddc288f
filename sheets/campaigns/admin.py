"""The admin shows campaigns read-only: every write goes through campaigns.services."""

from __future__ import annotations

from django.contrib import admin

from sheets.campaigns.models import Campaign, Invitation, Membership
from sheets.characters.admin import ReadOnlyAdmin


@admin.register(Campaign)
class CampaignAdmin(ReadOnlyAdmin):
    list_display = ("name", "system", "created_by", "created_at")


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ("campaign", "user", "role", "joined_at")


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    list_display = ("campaign", "created_at", "expires_at", "max_uses", "uses", "revoked_at")
