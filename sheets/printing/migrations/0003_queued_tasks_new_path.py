"""The table's PDF task moved from sheets.campaigns.printing to sheets.printing.tasks.

A task queued before the move names the old path, which no longer imports: a worker would
fail it and its build would wait for good. This points every task not yet finished at the
new path (same function, same arguments). The admin's permissions on builds follow the
model too: its content type is renamed, not created anew."""

from django.db import migrations

OLD_TASK_PATH = "sheets.campaigns.printing.build_table_pdf"
NEW_TASK_PATH = "sheets.printing.tasks.build_table_pdf"


def forward(apps, schema_editor):
    DBTaskResult = apps.get_model("django_tasks_database", "DBTaskResult")
    DBTaskResult.objects.filter(task_path=OLD_TASK_PATH, status__in=["READY", "RUNNING"]).update(
        task_path=NEW_TASK_PATH
    )
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="printing", model="tableprint").exists():
        ContentType.objects.filter(app_label="campaigns", model="tableprint").update(
            app_label="printing"
        )


def backward(apps, schema_editor):
    DBTaskResult = apps.get_model("django_tasks_database", "DBTaskResult")
    DBTaskResult.objects.filter(task_path=NEW_TASK_PATH, status__in=["READY", "RUNNING"]).update(
        task_path=OLD_TASK_PATH
    )
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="campaigns", model="tableprint").exists():
        ContentType.objects.filter(app_label="printing", model="tableprint").update(
            app_label="campaigns"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("printing", "0002_tableprint_worker_heartbeat"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(forward, backward)]
