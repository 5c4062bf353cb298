"""The dice emulator: ``VirtualDice`` served on a pseudo-terminal or a TCP socket.

Like a real board it boots (sends HELLO) a moment after the host opens the port,
and it can be unplugged and plugged back in. A background thread owns the link;
``roll`` and the faults may be called from any thread.
"""

from __future__ import annotations

import os
import queue
import select
import socket
import tempfile
import threading
import time
import tty
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

from firmware_bridge.messages import Roll
from firmware_bridge.virtual_dice import VirtualDice

POLL_S = 0.02
WRITE_TIMEOUT_S = 1.0
FAULTS = ("bad_crc", "junk", "truncated", "duplicate", "reboot", "hang", "unplug", "replug")


class Emulator(ABC):
    """Virtual dice on a link, run by a background thread.

    ``delivered`` lists the rolls sent intact to a connected host (what a bridge must
    count, in order); ``lost`` the rolls that happened but were corrupted, cut short or
    sent while no host was connected.
    """

    def __init__(
        self,
        dice: VirtualDice | None = None,
        *,
        interval: float | None = None,
        boot_delay: float = 0.05,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.dice = dice or VirtualDice()
        self.interval = interval
        self.boot_delay = boot_delay
        self.delivered: list[Roll] = []
        self.lost: list[Roll] = []
        self._clock = clock
        self._lock = threading.RLock()
        self._requests: queue.Queue[tuple[Callable[[], None], threading.Event]] = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=type(self).__name__, daemon=True)
        self._host = False
        self._booted = False
        self._hung = False
        self._boot_at: float | None = None
        self._next_roll_at = 0.0

    @property
    @abstractmethod
    def url(self) -> str:
        """What a host opens to reach these dice (a path or a pyserial URL)."""

    def start(self) -> Self:
        """Plug in and start serving."""
        self._plug()
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving and unplug."""
        if self._thread.is_alive():
            self._stop.set()
            self._thread.join(timeout=5)
        with self._lock:
            self._unplug()

    def roll(self) -> Roll | None:
        """Throw the dice; the roll if it reached a host, else ``None``."""
        with self._lock:
            roll, data = self.dice.roll()
            return self._deliver(roll, data)

    def fault(self, kind: str) -> None:
        """Inject one of ``FAULTS``."""
        if kind in ("unplug", "replug"):
            self._on_thread(self._unplug if kind == "unplug" else self._plug)
            return
        with self._lock:
            if kind == "bad_crc":
                self._deliver(*self.dice.bad_crc_roll(), intact=False)
            elif kind == "truncated":
                self._deliver(*self.dice.truncated_roll(), intact=False)
            elif kind == "junk":
                self._send(self.dice.junk())
            elif kind == "duplicate":
                self._send(self.dice.duplicate())
            elif kind == "reboot":
                self._hung = False
                self._send(self.dice.reboot(self._clock()))
            elif kind == "hang":
                self._hung = True
            else:
                raise ValueError(f"unknown fault {kind!r}; one of {', '.join(FAULTS)}")

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # The link, implemented per transport. ``_open_link``, ``_close_link`` and ``_wait``
    # run on the emulator thread only; ``_write`` runs on any thread, under the lock.

    @abstractmethod
    def _open_link(self) -> None:
        """Plug in: make the link available to a host."""

    @abstractmethod
    def _close_link(self) -> None:
        """Unplug: break any host connection and make the link unavailable."""

    @abstractmethod
    def _wait(self, timeout: float) -> tuple[bool, bytes]:
        """Wait up to ``timeout`` for the host: (host connected, bytes it sent)."""

    @abstractmethod
    def _write(self, data: bytes) -> None:
        """Send bytes to the connected host; ``OSError`` if that fails."""

    def _plug(self) -> None:
        self._unplug()
        self._open_link()

    def _unplug(self) -> None:
        self._close_link()
        self._host_gone()

    def _on_thread(self, action: Callable[[], None]) -> None:
        """Run ``action`` on the emulator thread (which owns the link) and wait for it."""
        if not self._thread.is_alive() or threading.current_thread() is self._thread:
            action()
            return
        done = threading.Event()
        self._requests.put((action, done))
        if not done.wait(timeout=5):
            raise TimeoutError("emulator thread did not respond")

    def _deliver(self, roll: Roll, data: bytes, intact: bool = True) -> Roll | None:
        delivered = self._send(data) and intact
        (self.delivered if delivered else self.lost).append(roll)
        return roll if delivered else None

    def _send(self, data: bytes) -> bool:
        if not self._booted or self._hung or not data:
            return False
        try:
            self._write(data)
        except OSError:
            self._host_gone()
            return False
        return True

    def _host_gone(self) -> None:
        self._host = self._booted = False
        self._boot_at = None

    def _run(self) -> None:
        while not self._stop.is_set():
            while not self._requests.empty():
                action, done = self._requests.get()
                with self._lock:
                    action()
                done.set()
            connected, data = self._wait(POLL_S)
            with self._lock:
                self._step(connected, data, self._clock())

    def _step(self, connected: bool, data: bytes, now: float) -> None:
        if connected and not self._host:
            self._host, self._boot_at = True, now + self.boot_delay
        elif not connected and self._host:
            self._host_gone()
        if self._booted and data:
            self._send(self.dice.answer(data, now))
        if self._boot_at is not None and now >= self._boot_at:
            self._boot_at, self._booted, self._hung = None, True, False
            self._send(self.dice.boot(now))
            self._next_roll_at = now + (self.interval or 0.0)
        if self.interval and self._booted and now >= self._next_roll_at:
            self._next_roll_at = now + self.interval
            self.roll()


class PtyEmulator(Emulator):
    """Dice on a pseudo-terminal, reached through a stable symlink (``url``).

    Each plug-in makes a new pty, so the device node changes as it does for a USB
    board; the symlink plays the part of a udev ``/dev/serial/by-id`` name.
    """

    def __init__(self, dice: VirtualDice | None = None, *, link: str | Path | None = None, **options: Any) -> None:
        super().__init__(dice, **options)
        self._tmpdir = None if link else tempfile.mkdtemp(prefix="firmware-bridge-")
        self.link = Path(link) if link else Path(self._tmpdir or ".", "dice")
        self.tty_name: str | None = None
        self._master: int | None = None

    @property
    def url(self) -> str:
        return str(self.link)

    def close(self) -> None:
        super().close()
        if self._tmpdir:
            os.rmdir(self._tmpdir)
            self._tmpdir = None

    def _open_link(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        self.tty_name = os.ttyname(slave)
        os.close(slave)  # the host's open is what "connects"; until then the master sees a hangup
        os.set_blocking(master, False)
        staging = self.link.with_name(self.link.name + ".new")
        staging.unlink(missing_ok=True)
        staging.symlink_to(self.tty_name)
        staging.replace(self.link)
        self._master = master

    def _close_link(self) -> None:
        if self._master is not None:
            os.close(self._master)
            self._master = None
            self.link.unlink(missing_ok=True)

    def _wait(self, timeout: float) -> tuple[bool, bytes]:
        if self._master is None:
            self._stop.wait(timeout)
            return False, b""
        poller = select.poll()
        poller.register(self._master, select.POLLIN)
        events = poller.poll(timeout * 1000)
        if not events:
            return True, b""
        if events[0][1] & select.POLLIN:
            try:
                return True, os.read(self._master, 4096)
            except OSError:
                pass
        self._stop.wait(timeout)  # no host has the port open: a hangup, reported at once
        return False, b""

    def _write(self, data: bytes) -> None:
        assert self._master is not None
        deadline = time.monotonic() + WRITE_TIMEOUT_S
        while data:
            if not select.select([], [self._master], [], max(0.0, deadline - time.monotonic()))[1]:
                raise OSError("pty write timed out")
            data = data[os.write(self._master, data) :]


class SocketEmulator(Emulator):
    """Dice on a TCP port on this machine, reached as ``socket://127.0.0.1:PORT``."""

    def __init__(self, dice: VirtualDice | None = None, *, port: int = 0, **options: Any) -> None:
        super().__init__(dice, **options)
        self.port = port
        self._server: socket.socket | None = None
        self._conn: socket.socket | None = None

    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

    def _open_link(self) -> None:
        self._server = socket.create_server(("127.0.0.1", self.port))
        self.port = self._server.getsockname()[1]

    def _close_link(self) -> None:
        for sock in (self._conn, self._server):
            if sock is not None:
                sock.close()
        self._conn = self._server = None

    def _wait(self, timeout: float) -> tuple[bool, bytes]:
        watched = self._conn or self._server
        if watched is None:
            self._stop.wait(timeout)
            return False, b""
        if not select.select([watched], [], [], timeout)[0]:
            return self._conn is not None, b""
        if self._conn is None:
            conn, _ = watched.accept()
            conn.settimeout(WRITE_TIMEOUT_S)
            with self._lock:
                self._conn = conn
            return True, b""
        try:
            data = self._conn.recv(4096)
        except OSError:
            data = b""
        if not data:  # the host closed the connection
            with self._lock:
                self._conn.close()
                self._conn = None
                self._host_gone()
            return False, b""
        return True, data

    def _write(self, data: bytes) -> None:
        assert self._conn is not None
        self._conn.sendall(data)
