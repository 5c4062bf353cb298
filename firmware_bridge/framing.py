"""Line framing of protocol v1: ``$BODY*CRC\\n``, its checksum and stream splitting.

Everything here is pure (no I/O): bytes in, bodies or reject reasons out.
"""

from __future__ import annotations

import binascii
from enum import StrEnum

MAX_LINE = 96
"""Longest line in bytes, from ``$`` up to and including the ``\\n``."""

START = b"$"
END = b"\n"
_CRC_DIGITS = frozenset(b"0123456789ABCDEF")


class Reason(StrEnum):
    """Why a line or message was rejected; the keys of the reject counters."""

    BAD_CRC = "bad_crc"
    MALFORMED = "malformed"
    TOO_LONG = "too_long"
    UNKNOWN_TYPE = "unknown_type"
    BAD_FACE = "bad_face"
    DUPLICATE = "duplicate"
    NO_HELLO = "no_hello"


class Rejected(ValueError):
    """A line or message that must not be used, with the reason it is counted under."""

    def __init__(self, reason: Reason, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


def crc16(body: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) of ``body``."""
    return binascii.crc_hqx(body, 0xFFFF)


def frame(body: str | bytes) -> bytes:
    """The wire form of one message body: ``$BODY*CRC\\n``."""
    raw = body.encode("ascii") if isinstance(body, str) else body
    return b"$%s*%04X\n" % (raw, crc16(raw))


def unframe(line: bytes) -> bytes:
    """The body of one complete line (``$`` to ``\\n``), checked; ``Rejected`` otherwise."""
    if len(line) > MAX_LINE:
        raise Rejected(Reason.TOO_LONG, f"{len(line)} bytes")
    content = line[1:].rstrip(b"\n")
    if content.endswith(b"\r"):
        content = content[:-1]
    body, star, crc = content.rpartition(b"*")
    if not star or len(crc) != 4 or not _CRC_DIGITS.issuperset(crc):
        raise Rejected(Reason.MALFORMED, f"no *CRC trailer in {line[:24]!r}")
    if int(crc, 16) != crc16(body):
        raise Rejected(Reason.BAD_CRC, f"{crc.decode()} != {crc16(body):04X}")
    return body


class LineSplitter:
    """Cuts a byte stream into candidate lines, resynchronising on every ``$``.

    Bytes outside a line are junk and skipped. A ``$`` inside a line ends that line
    as malformed and starts a new one; a line that reaches ``MAX_LINE`` bytes without
    ``\\n`` is rejected once as too long and the rest of it is skipped.
    """

    def __init__(self) -> None:
        self._line = bytearray()
        self._in_line = False
        self._overflow = False

    def feed(self, data: bytes) -> list[bytes | Rejected]:
        """Complete lines (``$`` … ``\\n``) and the rejects found in ``data``."""
        out: list[bytes | Rejected] = []
        pos, size = 0, len(data)
        while pos < size:
            if not self._in_line:
                start = data.find(START, pos)
                if start < 0:
                    return out
                self._line[:] = START
                self._in_line, self._overflow = True, False
                pos = start + 1
                continue
            stop = _first_of(data, pos)
            chunk = data[pos:stop]
            if not self._overflow:
                self._line += chunk
                if len(self._line) >= MAX_LINE:
                    out.append(Rejected(Reason.TOO_LONG, f"no newline within {MAX_LINE} bytes"))
                    self._overflow = True
            if stop == size:
                return out
            if data[stop] == END[0]:
                self._line += END
                if not self._overflow:
                    out.append(bytes(self._line))
                self._in_line = False
                pos = stop + 1
            else:  # a "$": a new line starts inside this one
                if not self._overflow:
                    out.append(Rejected(Reason.MALFORMED, f"line cut short: {bytes(self._line[:24])!r}"))
                self._in_line = False
                pos = stop
        return out

    def reset(self) -> Rejected | None:
        """Forget a half-received line (the link dropped); the reject it counts as, if any."""
        pending = self._in_line and not self._overflow
        self._in_line = False
        return Rejected(Reason.MALFORMED, "line cut short by a disconnect") if pending else None


def _first_of(data: bytes, pos: int) -> int:
    """Index of the first ``\\n`` or ``$`` at or after ``pos``, or ``len(data)``."""
    newline = data.find(END, pos)
    dollar = data.find(START, pos, newline if newline >= 0 else len(data))
    if dollar >= 0:
        return dollar
    return newline if newline >= 0 else len(data)
