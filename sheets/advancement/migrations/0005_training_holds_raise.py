# A WEG raise that trains may wait for its training's end (the reading `training_counts`).

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("advancement", "0004_training"),
    ]

    operations = [
        migrations.AddField(
            model_name="training",
            name="holds_raise",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="training",
            name="new_value",
            field=models.IntegerField(default=0),
        ),
        migrations.AddField(
            model_name="training",
            name="ended_version",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="training",
            name="refunded",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
