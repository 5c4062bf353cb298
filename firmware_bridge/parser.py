"""The pure device-stream parser: bytes in, device messages and rejects out.

It splits and checks lines (``framing``), decodes them (``messages``), and applies
the stream rules that need memory: the dice count announced by HELLO and the
duplicate rule for ROLL. Rejects are returned and counted by reason.
"""

from __future__ import annotations

from collections import Counter

from firmware_bridge.framing import LineSplitter, Reason, Rejected, unframe
from firmware_bridge.messages import SEQ_MODULO, DeviceMessage, Hello, Roll, State, decode_device


def is_newer(seq: int, than: int) -> bool:
    """Serial-number order (RFC 1982) on 16 bits: ``seq`` comes after ``than``."""
    return 0 < (seq - than) % SEQ_MODULO < SEQ_MODULO // 2


class Parser:
    """Turns the bytes a device sends into messages, counting every reject.

    A ROLL is a duplicate when its seq is not newer than the newest seq accepted
    since the last HELLO; a HELLO starts a new sequence. ROLL and STATE must carry
    one face per die announced by the HELLO and are rejected before any HELLO.
    """

    def __init__(self) -> None:
        self._splitter = LineSplitter()
        self.rejects: Counter[str] = Counter()
        self.dice_count: int | None = None
        self._newest: int | None = None

    def feed(self, data: bytes) -> list[DeviceMessage | Rejected]:
        """The messages and rejects in the next chunk of the stream, in order."""
        out: list[DeviceMessage | Rejected] = []
        for item in self._splitter.feed(data):
            try:
                if isinstance(item, Rejected):
                    raise item
                out.append(self._accept(decode_device(unframe(item))))
            except Rejected as reject:
                self.rejects[reject.reason] += 1
                out.append(reject)
        return out

    def disconnected(self) -> None:
        """The link dropped: drop any half line and wait for a HELLO on the next link."""
        reject = self._splitter.reset()
        if reject is not None:
            self.rejects[reject.reason] += 1
        self.dice_count = None

    def _accept(self, message: DeviceMessage) -> DeviceMessage:
        if isinstance(message, Hello):
            self.dice_count, self._newest = message.dice_count, None
            return message
        if isinstance(message, Roll | State):
            if self.dice_count is None:
                raise Rejected(Reason.NO_HELLO, f"{message} before HELLO")
            if len(message.faces) != self.dice_count:
                raise Rejected(Reason.MALFORMED, f"{len(message.faces)} faces from {self.dice_count} dice")
        if self._newest is not None and not is_newer(message.seq, self._newest):
            if isinstance(message, Roll):
                raise Rejected(Reason.DUPLICATE, f"seq {message.seq} after {self._newest}")
            return message
        self._newest = message.seq
        return message
