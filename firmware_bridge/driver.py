"""The dice link's protocol logic without I/O: handshake, keep-alive and backoff.

Every method takes the current time from the caller (a monotonic clock in seconds),
so the timing rules are tested without sleeping.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.dice.config import DiceSet
from firmware_bridge.events import DiceRoll
from firmware_bridge.framing import Rejected, frame
from firmware_bridge.messages import (
    HELLO_QUERY,
    PING,
    PROTOCOL_MAJOR,
    STATE_QUERY,
    DeviceError,
    Hello,
    Roll,
    State,
)
from firmware_bridge.parser import Parser


@dataclass(frozen=True, slots=True)
class Timing:
    """The link's timers, in seconds."""

    hello_wait: float = 2.0
    """How long to wait for the HELLO of a board that resets on open before asking ``HELLO?``."""
    handshake_timeout: float = 6.0
    ping_after: float = 3.0
    """Silence before the host sends ``PING``."""
    offline_after: float = 2.0
    """Further silence after the ``PING`` before the link counts as lost."""
    backoff_initial: float = 0.25
    backoff_max: float = 4.0


class LinkLost(Exception):
    """The link is no longer usable; close the port and reconnect later."""


class Incompatible(LinkLost):
    """The device is not one the bridge can use (protocol major, dice count)."""


class Backoff:
    """Reconnect delays: ``backoff_initial``, doubling up to ``backoff_max``."""

    def __init__(self, timing: Timing) -> None:
        self._timing = timing
        self._next = timing.backoff_initial

    def next(self) -> float:
        """The delay before the next attempt (and double the one after)."""
        delay = self._next
        self._next = min(delay * 2, self._timing.backoff_max)
        return delay

    def reset(self) -> None:
        """A connection succeeded: start again from the shortest delay."""
        self._next = self._timing.backoff_initial


class Driver:
    """One dice link's state across (re)connects: call ``opened``, then ``received`` for
    incoming bytes and ``poll`` regularly, write what ``take_outbox`` returns, and call
    ``closed`` when the port goes away.
    """

    def __init__(self, dice: DiceSet, timing: Timing = Timing()) -> None:
        self.dice = dice
        self.timing = timing
        self.parser = Parser()
        self.hello: Hello | None = None
        self.online = False
        self.faces: tuple[int, ...] | None = None
        self.device_error: str | None = None
        self.last_rx: float | None = None
        self._outbox: list[bytes] = []
        self._opened_at = 0.0
        self._next_query = 0.0
        self._pinged = False

    def opened(self, now: float) -> None:
        """A port was just opened: wait for a HELLO."""
        self.online, self._pinged = False, False
        self._opened_at = now
        self._next_query = now + self.timing.hello_wait

    def closed(self) -> None:
        """The port was closed."""
        self.online = False
        self._outbox.clear()
        self.parser.disconnected()

    def received(self, data: bytes, now: float) -> list[DiceRoll]:
        """Handle incoming bytes; the counted rolls among them. ``Incompatible`` on a bad HELLO."""
        rolls: list[DiceRoll] = []
        for message in self.parser.feed(data):
            if isinstance(message, Rejected):
                continue
            self.last_rx, self._pinged = now, False
            if isinstance(message, Hello):
                self._handshake(message)
            elif isinstance(message, Roll):
                self.faces = message.faces
                rolls.append(DiceRoll(message.seq, message.faces, tuple(self.dice.beans(message.faces))))
            elif isinstance(message, State):
                self.faces = message.faces
            elif isinstance(message, DeviceError):
                self.device_error = f"device error {message.code}: {message.text}"
        return rolls

    def poll(self, now: float) -> None:
        """Run the timers: ask ``HELLO?``, send ``PING``, or raise ``LinkLost``."""
        if not self.online:
            if now - self._opened_at >= self.timing.handshake_timeout:
                raise LinkLost("no HELLO from the dice")
            if now >= self._next_query:
                self._send(HELLO_QUERY)
                self._next_query = now + self.timing.hello_wait
            return
        silent = now - (self.last_rx if self.last_rx is not None else self._opened_at)
        if silent >= self.timing.ping_after + self.timing.offline_after:
            raise LinkLost(f"dice silent for {silent:.1f} s")
        if silent >= self.timing.ping_after and not self._pinged:
            self._send(PING)
            self._pinged = True

    def take_outbox(self) -> list[bytes]:
        """The lines to write to the device now."""
        out, self._outbox = self._outbox, []
        return out

    def _handshake(self, hello: Hello) -> None:
        if hello.major != PROTOCOL_MAJOR:
            raise Incompatible(
                f"{hello.device} {hello.firmware} speaks protocol {hello.major}; this bridge speaks {PROTOCOL_MAJOR}"
            )
        if hello.dice_count != len(self.dice.dice):
            raise Incompatible(
                f"{hello.device} has {hello.dice_count} dice; the dice configuration has {len(self.dice.dice)}"
            )
        self.hello, self.online, self.device_error = hello, True, None
        self._send(STATE_QUERY)

    def _send(self, command: str) -> None:
        self._outbox.append(frame(command))
