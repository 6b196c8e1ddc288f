"""WSGI entry point: `gunicorn sheets.wsgi`."""

from __future__ import annotations

import gc
import os
import sys

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheets.settings")
application = get_wsgi_application()


def warm_prints() -> None:
    """Print every ready system's demo sheet once, so that no user's first PDF of a system
    pays for its stylesheets, fonts and text shaping (some 30 to 45 ms a system, measured
    by `manage.py bench`). `manage.py runserver` loads this module too: a development
    server restarting on every saved file skips it. Never raises (see pdf.warm_up)."""
    if sys.argv[1:2] == ["runserver"]:
        return
    try:
        from sheets.printing.pdf import warm_up

        warm_up()
    except Exception:
        import logging

        logging.getLogger(__name__).exception("PDF warm-up failed; the worker starts cold")


warm_prints()

# What is loaded by now lives as long as the worker: kept out of the cycle collector's
# sweeps, a full collection walks only what requests make. Measured in one process frozen
# after its first pages (more than is loaded here): the slowest of 300 O.R.E. edits
# 131-144 ms with a full collection in it, 45-48 ms frozen. The warm-up's fonts and parsed
# stylesheets are frozen with the rest.
gc.collect()
gc.freeze()
