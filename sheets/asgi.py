"""ASGI entry point, what `make run` and production serve: `uvicorn sheets.asgi:application`,
or under gunicorn with uvicorn's workers (README, Serving). The live streams
(sheets/live) wait on an event loop, so an open page never holds a worker thread."""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheets.settings")
application = get_asgi_application()


def warm_prints() -> None:
    """As sheets/wsgi.py: print each ready system's demo sheet once, so that no user's first
    PDF pays for loading its fonts and stylesheets. `make run`'s reloading server skips it
    (DATAPAD_NO_WARM_UP)."""
    if os.environ.get("DATAPAD_NO_WARM_UP"):
        return
    try:
        from sheets.printing.pdf import warm_up

        warm_up()
    except Exception:
        import logging

        logging.getLogger(__name__).exception("PDF warm-up failed; the worker starts cold")


warm_prints()
# As in sheets/wsgi.py: what is loaded by now stays out of the cycle collector's sweeps.
gc.collect()
gc.freeze()
