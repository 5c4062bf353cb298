"""The live feed: every change is published to the pages watching it, as server-sent events.

A page holds one stream (``/api/live``) subscribed to a few channels: ``hardware``,
``games`` (the archive list) and ``game:<id>`` for the game it shows.
"""

from __future__ import annotations

import json
import queue
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

KEEPALIVE_S = 5.0
RETRY_MS = 1000
QUEUE_LIMIT = 256


@dataclass(frozen=True, slots=True)
class Message:
    """One server-sent event: its type name and JSON data."""

    event: str
    data: dict[str, Any]

    def encode(self) -> str:
        return f"event: {self.event}\ndata: {json.dumps(self.data, separators=(',', ':'))}\n\n"


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


def event_stream(subscription: Subscription, first: Iterable[Message], keepalive_s: float = KEEPALIVE_S) -> Iterator[str]:
    """The text of a server-sent event stream: ``first`` messages, then the inbox as it fills.

    A comment line every ``keepalive_s`` keeps the browser from timing out and finds
    clients that left; the subscription is closed when the stream ends.
    """
    try:
        yield f"retry: {RETRY_MS}\n\n"
        for message in first:
            yield message.encode()
        while True:
            try:
                message = subscription.inbox.get(timeout=keepalive_s)
            except queue.Empty:
                yield ": keepalive\n\n"
                continue
            yield message.encode()
            if message is STALE:
                return
    finally:
        subscription.close()
