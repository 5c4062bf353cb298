"""Running the app under waitress: sized for live pages; also in a background thread (tests, benchmarks, embedding).

Each open live stream holds one of waitress's worker threads, so the app admits only as many
as leave a reserve of threads for ordinary requests (``live_streams_max``). Pages refused a
stream poll instead; each keeps a connection or two, hence room for a few hundred connections.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import waitress.server
from flask import Flask

LOOP_TIMEOUT_S = 0.05
IDENT = "bohnanza-companion"
CONNECTION_LIMIT = 600
"""Connections waitress keeps open (its default, 100, is too few for a room of watching pages)."""
RESERVE_SHARE = 3 / 8
RESERVE_MIN = 4
"""Worker threads kept from live streams for ordinary requests: this share of them, and at least this many."""


def live_streams_max(threads: int) -> int:
    """How many live streams a server with ``threads`` worker threads admits (64 threads: 40)."""
    return max(0, threads - max(RESERVE_MIN, round(threads * RESERVE_SHARE)))


def create_server(app: Flask, threads: int, **options: Any) -> waitress.server.BaseWSGIServer:
    """waitress's ``create_server`` (``options`` are its settings), with the live-stream limit fitted to ``threads``.

    A ``LIVE_STREAMS_MAX`` set explicitly is kept; unset (None), it becomes ``live_streams_max(threads)``.
    """
    if app.config.get("LIVE_STREAMS_MAX") is None:
        app.config["LIVE_STREAMS_MAX"] = live_streams_max(threads)
    options = {
        "connection_limit": CONNECTION_LIMIT, "asyncore_use_poll": True, "ident": IDENT,
        # waitress buffers a body before the app sees it: refuse one well over Flask's own limit right away
        "max_request_body_size": 2 * app.config["MAX_CONTENT_LENGTH"], **options,
    }  # fmt: skip
    return waitress.server.create_server(app, threads=threads, **options)


@contextmanager
def background_server(app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = 32) -> Iterator[str]:
    """Serve ``app`` until the block ends; yields the base URL (port 0 picks a free port)."""
    server = create_server(app, threads, host=host, port=port)
    stop = threading.Event()

    def run() -> None:
        """The server's own loop, in short rounds, so it can close everything itself when told to stop."""
        while not stop.is_set():
            server.asyncore.loop(timeout=LOOP_TIMEOUT_S, map=server._map, count=1, use_poll=True)
        for channel in list(server._map.values()):  # the listener and open live streams
            if channel is not server.trigger:  # which worker threads still pull, until they stop
                channel.close()

    thread = threading.Thread(target=run, name="companion-server", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.effective_port}"
    finally:
        stop.set()
        thread.join(5)
        server.task_dispatcher.shutdown(timeout=1)
        server.trigger.close()
