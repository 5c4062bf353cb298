"""Byte transport to the dice over pyserial, and how to find the port to open.

``serial_for_url`` gives real ports, ``loop://``, ``socket://host:port`` and the rest
of pyserial's URL handlers behind one interface.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

import serial
from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

BAUDRATE = 115200
READ_POLL_S = 0.05
BLOCK = 4096
"""Most bytes one ``read`` returns: whatever has arrived, up to this, in one call."""


class TransportError(ConnectionError):
    """The port could not be opened, or the link broke (unplug, peer closed)."""


class Transport(Protocol):
    """An open byte link to a device."""

    def read(self) -> bytes:
        """Bytes that arrived, waiting at most a short poll interval; ``b""`` if none."""

    def write(self, data: bytes) -> None:
        """Send ``data`` completely."""

    def close(self) -> None:
        """Release the port; safe to call twice."""


class SerialTransport:
    """A pyserial port opened with ``serial_for_url``."""

    def __init__(self, url: str, baudrate: int = BAUDRATE, poll_s: float = READ_POLL_S) -> None:
        self._poll_s = poll_s
        try:
            self._port = serial.serial_for_url(url, baudrate=baudrate, timeout=poll_s, write_timeout=1.0)
        except (serial.SerialException, OSError, ValueError) as exc:
            errno = getattr(exc, "errno", None)
            reason = os.strerror(errno) if isinstance(errno, int) and errno else str(exc)
            raise TransportError(f"cannot open {url}: {reason}") from exc

    def read(self) -> bytes:
        """The first byte waits up to the poll interval; the rest is what has arrived, up to ``BLOCK``.

        The rest is read without waiting (timeout 0) rather than by ``in_waiting``, which
        some handlers only answer with 0 or 1 (``socket://``: 2 bytes a read, far too slow).
        """
        try:
            data = self._port.read(1)
            if not data:
                return data
            self._port.timeout = 0
            try:
                return data + self._port.read(BLOCK - 1)
            finally:
                self._port.timeout = self._poll_s
        except (serial.SerialException, OSError) as exc:
            raise TransportError("link lost") from exc

    def write(self, data: bytes) -> None:
        try:
            self._port.write(data)
        except (serial.SerialException, OSError) as exc:
            raise TransportError("link lost (write failed)") from exc

    def close(self) -> None:
        self._port.close()


class PortLocator(Protocol):
    """Where the dice are right now; asked again before every (re)connect."""

    def find(self) -> str | None:
        """The URL or path to open, or ``None`` while the dice are not present."""


@dataclass(frozen=True)
class FixedPort:
    """A fixed path or pyserial URL (``/dev/ttyACM0``, ``socket://host:7000``, ``loop://``)."""

    url: str

    def find(self) -> str | None:
        return self.url

    def __str__(self) -> str:
        return self.url


@dataclass(frozen=True)
class UsbPort:
    """The first serial port with a USB vendor and product id, wherever its node is."""

    vid: int
    pid: int
    comports: Callable[[], Iterable[ListPortInfo]] = field(default=list_ports.comports, compare=False, repr=False)

    def find(self) -> str | None:
        matches = sorted(p.device for p in self.comports() if (p.vid, p.pid) == (self.vid, self.pid))
        return matches[0] if matches else None

    def __str__(self) -> str:
        return f"usb:{self.vid:04X}:{self.pid:04X}"


def locator_for(spec: str) -> PortLocator:
    """``usb:VID:PID`` (hex ids) or a path/URL; ``ValueError`` for a bad usb spec."""
    if not spec.startswith("usb:"):
        return FixedPort(spec)
    try:
        vid, pid = (int(part, 16) for part in spec[4:].split(":"))
    except ValueError:
        raise ValueError(f"{spec!r}: expected usb:VID:PID with hex ids, e.g. usb:2341:0043") from None
    return UsbPort(vid, pid)
