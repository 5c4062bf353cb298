"""A set of electronic dice as a pure state machine: what it sends, byte for byte.

The emulator serves this on a pty or a TCP socket; the faults are here so that
they are reproducible from a seed.
"""

from __future__ import annotations

import random

from firmware_bridge.framing import LineSplitter, Rejected, frame, unframe
from firmware_bridge.messages import (
    FACES,
    HELLO_QUERY,
    PING,
    PROTOCOL_MAJOR,
    SEQ_MODULO,
    STATE_QUERY,
    DeviceError,
    Heartbeat,
    Hello,
    Roll,
    Rolling,
    State,
    decode_host,
)

ERR_UNKNOWN_COMMAND = 1
ERR_BAD_LINE = 2


class VirtualDice:
    """Seeded dice that roll on request and answer ``HELLO?``, ``STATE?`` and ``PING``.

    Times (``now``) are monotonic seconds from the caller; they only feed the uptime.
    """

    def __init__(
        self,
        seed: int | None = None,
        dice_count: int = 5,
        device: str = "emulated-dice",
        firmware: str = "emu-1.0",
        major: int = PROTOCOL_MAJOR,
    ) -> None:
        self._rng = random.Random(seed)
        self.hello = Hello(major, device, firmware, dice_count)
        self.faces = self._throw()
        self._seq = 0
        self._booted_at = 0.0
        self._last_roll: bytes | None = None
        self._splitter = LineSplitter()

    def boot(self, now: float) -> bytes:
        """Power on (or reset): the HELLO, and a new sequence starting at 0."""
        self._booted_at = now
        self._splitter.reset()
        return self._hello()

    def roll(self) -> tuple[Roll, bytes]:
        """Throw all dice: the roll and its ROLLING and ROLL lines."""
        moving = Rolling(self._next_seq(), (1 << self.hello.dice_count) - 1)
        self.faces = self._throw()
        roll = Roll(self._next_seq(), self.faces)
        self._last_roll = frame(roll.body())
        return roll, frame(moving.body()) + self._last_roll

    def answer(self, data: bytes, now: float) -> bytes:
        """The replies to the host's bytes."""
        replies = b""
        for line in self._splitter.feed(data):
            try:
                if isinstance(line, Rejected):
                    raise line
                command = decode_host(unframe(line))
            except Rejected as reject:
                code = ERR_UNKNOWN_COMMAND if reject.reason == "unknown_type" else ERR_BAD_LINE
                replies += frame(DeviceError(self._next_seq(), code, reject.reason).body())
                continue
            if command == HELLO_QUERY:
                replies += self._hello()
            elif command == STATE_QUERY:
                replies += frame(State(self._next_seq(), self.faces).body())
            elif command == PING:
                uptime_ms = int((now - self._booted_at) * 1000)
                replies += frame(Heartbeat(self._next_seq(), uptime_ms).body())
        return replies

    # Faults: each returns the bytes to put on the wire.

    def bad_crc_roll(self) -> tuple[Roll, bytes]:
        """A roll whose ROLL line arrives with a wrong checksum (the roll is lost)."""
        roll, data = self._garbled_roll()
        crc = int(data[-5:-1], 16) ^ (1 << self._rng.randrange(16))
        return roll, data[:-5] + b"%04X\n" % crc

    def truncated_roll(self) -> tuple[Roll, bytes]:
        """A roll whose ROLL line is cut short, with no newline (the roll is lost)."""
        roll, data = self._garbled_roll()
        start = data.rindex(b"$")
        return roll, data[: self._rng.randrange(start + 1, len(data) - 1)]

    def junk(self) -> bytes:
        """Line noise: up to 160 random bytes."""
        return self._rng.randbytes(self._rng.randint(1, 160))

    def duplicate(self) -> bytes:
        """The last intact ROLL line again, byte for byte (empty before the first roll)."""
        return self._last_roll or b""

    def reboot(self, now: float) -> bytes:
        """A reset: bootloader noise, then the HELLO of a new sequence."""
        return self.junk() + self.boot(now)

    def _hello(self) -> bytes:
        """The HELLO; the sequence restarts, and rolls from before it are never resent."""
        self._seq, self._last_roll = 0, None
        return frame(self.hello.body())

    def _garbled_roll(self) -> tuple[Roll, bytes]:
        """A roll that will not arrive intact, so ``duplicate`` does not resend it."""
        last, result = self._last_roll, self.roll()
        self._last_roll = last
        return result

    def _next_seq(self) -> int:
        seq, self._seq = self._seq, (self._seq + 1) % SEQ_MODULO
        return seq

    def _throw(self) -> tuple[int, ...]:
        return tuple(self._rng.choice(FACES) for _ in range(self.hello.dice_count))
