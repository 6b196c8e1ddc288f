"""TablePrint, moved from the campaigns app with its table (campaigns_tableprint): the
model is declared here and nothing in the database changes, so no row is lost."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("campaigns", "0002_move_tableprint"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="TablePrint",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "state",
                            models.CharField(
                                choices=[
                                    ("queued", "Waiting for a worker"),
                                    ("running", "Building"),
                                    ("done", "Ready"),
                                    ("failed", "Failed"),
                                ],
                                default="queued",
                                max_length=10,
                            ),
                        ),
                        ("done", models.PositiveIntegerField(default=0)),
                        ("total", models.PositiveIntegerField(default=0)),
                        ("task_id", models.CharField(blank=True, max_length=64)),
                        ("error", models.TextField(blank=True)),
                        ("pdf", models.BinaryField(blank=True, null=True)),
                        (
                            "campaign",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="prints",
                                to="campaigns.campaign",
                            ),
                        ),
                        (
                            "requested_by",
                            models.ForeignKey(
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "campaigns_tableprint",
                        "ordering": ["-created_at", "-pk"],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
