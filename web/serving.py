"""Running the app under waitress in a background thread (tests, benchmarks, embedding)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from waitress.server import create_server

LOOP_TIMEOUT_S = 0.05


@contextmanager
def background_server(app: Flask, host: str = "127.0.0.1", port: int = 0, threads: int = 32) -> Iterator[str]:
    """Serve ``app`` until the block ends; yields the base URL (port 0 picks a free port)."""
    server = create_server(app, host=host, port=port, threads=threads, ident="bohnanza-companion")
    stop = threading.Event()

    def run() -> None:
        """The server's own loop, in short rounds, so it can close everything itself when told to stop."""
        while not stop.is_set():
            server.asyncore.loop(timeout=LOOP_TIMEOUT_S, map=server._map, count=1)
        for channel in list(server._map.values()):  # the listener, the trigger and open live streams
            channel.close()

    thread = threading.Thread(target=run, name="companion-server", daemon=True)
    thread.start()
    try:
        yield f"http://{host}:{server.effective_port}"
    finally:
        stop.set()
        thread.join(5)
        server.task_dispatcher.shutdown(timeout=1)
