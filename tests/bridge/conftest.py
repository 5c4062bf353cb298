"""Shared helpers for the dice bridge tests: byte builders and an event collector."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from firmware_bridge.events import DiceRoll, Event, Status
from firmware_bridge.framing import frame
from firmware_bridge.messages import Hello, Roll


class Lines:
    """Builders for framed device lines."""

    @staticmethod
    def hello(dice_count: int = 5, major: int = 1) -> bytes:
        return frame(Hello(major, "test-dice", "fw-1", dice_count).body())

    @staticmethod
    def roll(seq: int, *faces: int) -> bytes:
        return frame(Roll(seq, faces or (1, 2, 3, 4, 5)).body())


class Events:
    """Collects bridge events from the bridge thread; ``wait`` blocks with a timeout."""

    def __init__(self) -> None:
        self.items: list[Event] = []
        self._cond = threading.Condition()

    def __call__(self, event: Event) -> None:
        with self._cond:
            self.items.append(event)
            self._cond.notify_all()

    @property
    def rolls(self) -> list[DiceRoll]:
        with self._cond:
            return [e for e in self.items if isinstance(e, DiceRoll)]

    @property
    def statuses(self) -> list[Status]:
        with self._cond:
            return [e for e in self.items if isinstance(e, Status)]

    def wait(self, condition: Callable[[Events], bool], timeout: float = 10.0, what: str = "") -> None:
        """Wait for ``condition``, re-checked on every event and every 20 ms (it may read other state)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not condition(self):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    pytest.fail(f"timed out waiting for {what or condition}; events: {self.items[-6:]}")
                self._cond.wait(min(remaining, 0.02))

    def wait_state(self, state: str, after: int = 0, timeout: float = 10.0) -> Status:
        """The first status in ``state`` among the statuses from index ``after`` on."""
        self.wait(lambda ev: any(s.state == state for s in ev.statuses[after:]), timeout, f"status {state}")
        return next(s for s in self.statuses[after:] if s.state == state)


@pytest.fixture
def events() -> Events:
    return Events()


@pytest.fixture
def lines() -> type[Lines]:
    return Lines
