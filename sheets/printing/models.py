"""A build of the table's PDF, as the task worker reports it to the campaign page."""

from __future__ import annotations

import os
import socket
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

# A running build writes a heartbeat after every sheet, a fraction of a second each: one
# silent for this long has lost its worker (killed, or its machine gone). Settings may
# shorten it (TABLE_PRINT_STALE_SECONDS).
STALE_AFTER = timedelta(seconds=60)


def stale_after() -> timedelta:
    seconds = getattr(settings, "TABLE_PRINT_STALE_SECONDS", None)
    return STALE_AFTER if seconds is None else timedelta(seconds=seconds)


def this_process() -> str:
    """How a worker names itself on a build: its machine and process id."""
    return f"{socket.gethostname()}:{os.getpid()}"


class TablePrint(models.Model):
    """One build of the table's PDF: every approved sheet, made by a task worker."""

    class State(models.TextChoices):
        QUEUED = "queued", "Waiting for a worker"
        RUNNING = "running", "Building"
        DONE = "done", "Ready"
        FAILED = "failed", "Failed"

    campaign = models.ForeignKey(
        "campaigns.Campaign", on_delete=models.CASCADE, related_name="prints"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    task_id = models.CharField(max_length=64, blank=True)
    error = models.TextField(blank=True)
    # Kept in the database so a worker on another machine can hand it to the web server.
    pdf = models.BinaryField(null=True, blank=True)
    # Which worker process runs the build ("host:pid") and when it last reported: a build
    # whose worker died is told from one still at work by these two (see worker_gone).
    # Nullable so SQLite adds the column in place rather than rebuilding the table.
    worker = models.CharField(max_length=300, null=True, blank=True)  # noqa: DJ001
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # The table it had in the campaigns app: moved without rebuilding it.
        db_table = "campaigns_tableprint"
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Table PDF {self.pk} of {self.campaign_id} ({self.state})"

    def worker_gone(self, *, local_check: bool = False) -> bool:
        """Whether a running build's worker has stopped for good: silent past the stale
        time, or (`local_check`, asked by a worker on the same machine) its process no
        longer exists."""
        if self.state != self.State.RUNNING:
            return False
        beat = self.heartbeat_at or self.created_at
        if beat is None or timezone.now() - beat > stale_after():
            return True
        if local_check and self.worker:
            host, _, pid = self.worker.rpartition(":")
            if host == socket.gethostname() and pid.isdigit():
                return not _process_alive(int(pid))
        return False


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process: alive
    return True
