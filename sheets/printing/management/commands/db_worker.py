"""`manage.py db_worker`: django-tasks-db's worker, which first queues again the table PDFs
a dead worker left running (sheets.printing.tasks.retry_builds_of_dead_workers).

The queue keeps no heartbeat of its own: a worker killed mid-task leaves its task
"running" for good. This command takes the place of django-tasks-db's one because the
printing app comes before django_tasks_db in INSTALLED_APPS (as whitenoise's app does for
runserver); it adds the retry and changes nothing else.
"""

from __future__ import annotations

from django_tasks_db.management.commands import db_worker

from sheets.printing.tasks import retry_builds_of_dead_workers


class Command(db_worker.Command):
    help = db_worker.Command.help + ", after queuing again the table PDFs of dead workers"

    def handle(self, *args, **options) -> None:
        retried = retry_builds_of_dead_workers()
        if retried and options.get("verbosity", 1) > 0:
            self.stdout.write(
                f"Queued again {len(retried)} table PDF build(s) whose worker died: "
                + ", ".join(map(str, retried))
            )
        super().handle(*args, **options)
