"""A real companion server on loopback (waitress in a thread), for browser tests and benchmarks."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask

from web import create_app
from web.serving import background_server


@dataclass(frozen=True, slots=True)
class LiveServer:
    """A running server: its base URL and app."""

    url: str
    app: Flask


@contextmanager
def live_server(instance: Path, threads: int = 32, **settings: Any) -> Iterator[LiveServer]:
    """Serve a fresh app from ``instance`` (PIN 2468) on a free loopback port, ``threads`` workers, until the end."""
    app = create_app({"TABLE_PIN": "2468", "LIVE_KEEPALIVE_S": 0.2, **settings}, instance_path=instance)
    try:
        with background_server(app, threads=threads) as url:
            yield LiveServer(url, app)
    finally:
        app.extensions["hardware"].close()
        app.extensions["tables"].store.close()
