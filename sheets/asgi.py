"""ASGI entry point, what `make run` and production serve: `uvicorn sheets.asgi:application`,
or under gunicorn with uvicorn's workers (README, Serving). The live streams
(sheets/live) wait on an event loop, so an open page never holds a worker thread."""

from __future__ import annotations

import gc
import os
import threading

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheets.settings")
# Connections close with each request here (sheets/settings.py says why).
os.environ["DATAPAD_ASGI"] = "1"
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


# uvicorn imports the application inside its running event loop, where Django refuses a
# database query: the warm-up runs in a thread of its own, awaited here.
warming = threading.Thread(target=warm_prints, name="pdf-warm-up")
warming.start()
warming.join()
# As in sheets/wsgi.py: what is loaded by now stays out of the cycle collector's sweeps.
gc.collect()
gc.freeze()
