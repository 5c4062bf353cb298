"""A small server-sent events reader over a real HTTP connection (web tests and benchmarks)."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit


class EventReader:
    """Reads ``event:``/``data:`` messages from a stream; comments and ``retry:`` are skipped."""

    def __init__(self, url: str, timeout: float = 10.0, source: str | None = None):
        """Connect (from the local address ``source``, if given) and read the answer's head; see ``status``."""
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(
            parts.hostname, parts.port, timeout=timeout, source_address=None if source is None else (source, 0)
        )
        self.connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""))
        self.response = self.connection.getresponse()

    @property
    def status(self) -> int:
        """The HTTP status: 200 for a stream; a refusal's JSON body is ``refusal()``."""
        return self.response.status

    def refusal(self) -> dict[str, Any]:
        """The JSON body of a refused stream."""
        return json.loads(self.response.read())

    def next(self) -> tuple[str, dict[str, Any]]:
        """The next message as (event name, data); ``TimeoutError`` if none comes in time."""
        event, data = "message", None
        while True:
            line = self.response.fp.readline()
            if not line:
                raise ConnectionError("the stream ended")
            text = line.decode().rstrip("\n")
            if text.startswith("event: "):
                event = text[7:]
            elif text.startswith("data: "):
                data = json.loads(text[6:])
            elif text == "" and data is not None:
                return event, data

    def next_of(self, name: str) -> dict[str, Any]:
        """The data of the next message named ``name`` (others are skipped)."""
        while True:
            event, data = self.next()
            if event == name:
                return data

    def close(self) -> None:
        """Hang up (the response holds the socket too)."""
        self.response.close()
        self.connection.close()
