"""A character's portrait (sheets/characters/portraits.py): one picture per character,
kept in the database with its digest and size."""

import django.db.models.deletion
import django.db.models.manager
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('characters', '0013_revisions_and_ledger_moved'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Portrait',
            fields=[
                ('character', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='portrait', serialize=False, to='characters.character')),
                ('image', models.BinaryField()),
                ('content_type', models.CharField(default='image/jpeg', max_length=40)),
                ('width', models.PositiveSmallIntegerField()),
                ('height', models.PositiveSmallIntegerField()),
                ('digest', models.CharField(max_length=64)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('updated_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'base_manager_name': 'without_image',
            },
            managers=[
                ('objects', django.db.models.manager.Manager()),
                ('without_image', django.db.models.manager.Manager()),
            ],
        ),
    ]
