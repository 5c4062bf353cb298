"""The live feed: every change is published to the pages watching it, as server-sent events.

A page holds one stream (``/api/live``) subscribed to a few channels: ``hardware``,
``games`` (the archive list) and ``game:<id>`` for the game it shows. Each open stream
holds one of the server's worker threads, so a ``StreamGate`` admits only so many, in
total and per client; a page refused one polls its game instead and asks again later.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

KEEPALIVE_S = 5.0
RETRY_MS = 1000
QUEUE_LIMIT = 256
RETRY_AFTER_S = 10
"""How long a page refused a stream waits before asking again (it polls its game meanwhile)."""


@dataclass(frozen=True, slots=True)
class Message:
    """One server-sent event: its type name and JSON data, encoded once for all its streams."""

    event: str
    data: dict[str, Any]
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        text = f"event: {self.event}\ndata: {json.dumps(self.data, separators=(',', ':'))}\n\n"
        object.__setattr__(self, "text", text)

    def encode(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Subscription:
    """A subscriber's inbox, and how to leave."""

    inbox: queue.Queue[Message]
    close: Callable[[], None]


STALE = Message("stale", {"reason": "this page fell behind; reconnecting"})
"""The last message to a subscriber that stopped reading: its stream ends and the browser reconnects."""


class LiveFeed:
    """Channels of messages; each subscriber gets its own bounded queue."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[queue.Queue[Message]]] = defaultdict(set)
        self._lock = threading.Lock()

    def publish(self, channel: str, event: str, data: dict[str, Any]) -> None:
        """Send a message to everyone on ``channel``; a subscriber too slow to keep up is dropped."""
        message = Message(event, data)
        with self._lock:
            subscribers = list(self._subscribers.get(channel, ()))
        for inbox in subscribers:
            try:
                inbox.put_nowait(message)
            except queue.Full:
                self._drop(inbox)
                with inbox.mutex:
                    inbox.queue.clear()
                inbox.put_nowait(STALE)

    def subscribe(self, channels: Iterable[str]) -> Subscription:
        """A subscription receiving every message of ``channels`` until it is closed."""
        inbox: queue.Queue[Message] = queue.Queue(QUEUE_LIMIT)
        with self._lock:
            for name in channels:
                self._subscribers[name].add(inbox)
        return Subscription(inbox, lambda: self._drop(inbox))

    def count(self, channel: str) -> int:
        """How many subscribers ``channel`` has."""
        with self._lock:
            return len(self._subscribers.get(channel, ()))

    def _drop(self, inbox: queue.Queue[Message]) -> None:
        with self._lock:
            for subscribers in self._subscribers.values():
                subscribers.discard(inbox)


class StreamsFull(Exception):
    """A stream refused: the server, or this client, has as many open as allowed (the message says which)."""


class StreamGate:
    """Admits live streams: at most so many open at once in total and from one client address.

    A stream counts from its admission until its release, which the server calls when the
    stream's response closes (also when the client left without a word).
    """

    def __init__(self) -> None:
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def admit(self, client: str, total: int | None, per_client: int | None) -> Callable[[], None]:
        """The release of a stream newly admitted for ``client``; ``StreamsFull`` if a limit is reached.

        ``None`` for a limit means none; releasing twice counts once.
        """
        with self._lock:
            if total is not None and self._open.total() >= total:
                raise StreamsFull(f"the server has as many live streams open as it can hold ({total})")
            if per_client is not None and self._open[client] >= per_client:
                raise StreamsFull(f"this address has as many live streams open as one client may ({per_client})")
            self._open[client] += 1
        released = False

        def release() -> None:
            nonlocal released
            with self._lock:
                if not released:
                    released = True
                    self._open[client] -= 1
                    if not self._open[client]:
                        del self._open[client]

        return release

    def count(self, client: str | None = None) -> int:
        """Streams open now, in total or from ``client``."""
        with self._lock:
            return self._open.total() if client is None else self._open[client]


def event_stream(
    subscription: Subscription,
    first: Iterable[Message],
    keepalive_s: float = KEEPALIVE_S,
    lifetime_s: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[str]:
    """The text of a server-sent event stream: ``first`` messages, then the inbox as it fills.

    A comment line every ``keepalive_s`` keeps the browser from timing out and finds
    clients that left; after ``lifetime_s`` the stream ends (the browser then reconnects,
    so a stuck client cannot hold its place for ever). The subscription is closed when the stream ends.
    """
    deadline = None if lifetime_s is None else clock() + lifetime_s
    try:
        yield f"retry: {RETRY_MS}\n\n"
        for message in first:
            yield message.encode()
        while True:
            wait = keepalive_s if deadline is None else min(keepalive_s, deadline - clock())
            if wait <= 0:
                return
            try:
                message = subscription.inbox.get(timeout=wait)
            except queue.Empty:
                yield ": keepalive\n\n"
                continue
            yield message.encode()
            if message is STALE:
                return
    finally:
        subscription.close()
