"""The real ASGI server (uvicorn) for the tests that need a stream held open: Django's test
live server speaks WSGI, where a stream answers once and ends.

It runs in a thread of the test process, so it reads the test database as the test does
(SQLite's shared in-memory database, or PostgreSQL's test database)."""

from __future__ import annotations

import socket
import threading
import time

import pytest


@pytest.fixture(name="asgi_server")
def asgi_server_fixture(transactional_db):
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    config = uvicorn.Config(
        ASGIStaticFilesHandler(get_asgi_application()),
        log_level="warning",
        lifespan="off",
        # Open streams are cut after a second when the test ends.
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    listening.close()
