"""The dice bridge: finds the port, runs the driver on it in a background thread,
reconnects with backoff, and reports counted rolls and status changes.

Wiring (for ``companion serve --dice SPEC``)::

    bridge = open_dice(spec, on_event)   # spec: a path/URL, "usb:VID:PID" or "emulate"
    ...                                  # on_event(DiceRoll | Status), on the bridge thread
    bridge.status                        # the latest Status, from any thread
    bridge.close()
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import Self

from companion.dice.config import DEFAULT_DICE, DiceSet
from firmware_bridge.driver import Backoff, Driver, Incompatible, LinkLost, Timing
from firmware_bridge.emulator import Emulator, PtyEmulator
from firmware_bridge.events import Event, StateName, Status
from firmware_bridge.transport import (
    BAUDRATE,
    PortLocator,
    SerialTransport,
    Transport,
    TransportError,
    locator_for,
)
from firmware_bridge.virtual_dice import VirtualDice

log = logging.getLogger(__name__)

EMULATE = "emulate"


class DiceBridge:
    """Keeps a dice link up in a background thread.

    ``on_event`` receives every counted ``DiceRoll`` and every ``Status`` that differs
    from the previous one (ignoring ``last_seen`` and ``faces``), in stream order, a
    status before the rolls that arrived with it (so ``status`` is current when a roll
    comes). It is called on the bridge thread, so it should hand the event over (e.g.
    ``queue.put``) and return.
    """

    def __init__(
        self,
        locator: PortLocator,
        on_event: Callable[[Event], None],
        *,
        dice: DiceSet = DEFAULT_DICE,
        timing: Timing = Timing(),
        open_transport: Callable[[str], Transport] = SerialTransport,
        clock: Callable[[], float] = time.monotonic,
        emulator: Emulator | None = None,
    ) -> None:
        self.emulator = emulator
        """The in-process emulator behind ``open_dice("emulate")``, else ``None``."""
        self._locator = locator
        self._on_event = on_event
        self._open_transport = open_transport
        self._clock = clock
        self._driver = Driver(dice, timing)
        self._backoff = Backoff(timing)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="dice-bridge", daemon=True)
        self._state: StateName = "offline"
        self._port = str(locator)
        self._error: str | None = None
        self._status = Status()
        self._published: Status | None = None

    @property
    def status(self) -> Status:
        """The latest status (safe to read from any thread)."""
        return self._status

    def start(self) -> Self:
        """Start the bridge thread; the first ``Status`` event follows at once."""
        self._thread.start()
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Stop the thread, close the port, and stop an owned emulator."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        if self.emulator is not None:
            self.emulator.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        self._publish()
        while not self._stop.is_set():
            url = self._locator.find()
            if url is None:
                self._set("offline", f"no dice at {self._locator}")
            else:
                self._port = url
                self._connect(url)
            self._stop.wait(self._backoff.next())
        self._set("offline", None)

    def _connect(self, url: str) -> None:
        try:
            transport = self._open_transport(url)
        except TransportError as exc:
            self._set("offline", str(exc))
            return
        self._driver.opened(self._clock())
        state: StateName = "offline"
        try:
            self._serve(transport)
            return  # stopped
        except Incompatible as exc:
            state, error = "error", str(exc)
        except (LinkLost, TransportError) as exc:
            error = str(exc)
        finally:
            transport.close()  # before telling anyone, so the port is free when "offline" is out
            self._driver.closed()
        self._set(state, error)

    def _serve(self, transport: Transport) -> None:
        driver = self._driver
        while not self._stop.is_set():
            data = transport.read()
            now = self._clock()
            rolls = driver.received(data, now) if data else []
            if driver.online and self._state != "online":
                self._backoff.reset()
                self._set("online", None)
            else:
                self._publish()
            for roll in rolls:  # after the status, so it is current when a roll arrives
                self._emit(roll)
            driver.poll(now)
            for line in driver.take_outbox():
                transport.write(line)

    def _set(self, state: StateName, error: str | None) -> None:
        self._state, self._error = state, error
        self._publish()

    def _publish(self) -> None:
        driver, now = self._driver, self._clock()
        hello = driver.hello
        last_seen = None if driver.last_rx is None else time.time() - (now - driver.last_rx)
        status = Status(
            state=self._state,
            port=self._port,
            device=hello.device if hello else None,
            firmware=hello.firmware if hello else None,
            last_seen=last_seen,
            faces=driver.faces,
            rejects=dict(driver.parser.rejects),
            error=driver.device_error if self._state == "online" else self._error,
        )
        self._status = status
        if status.changed_from(self._published):
            self._published = status
            self._emit(status)

    def _emit(self, event: Event) -> None:
        try:
            self._on_event(event)
        except Exception:  # a broken listener must not take the dice offline
            log.exception("dice event listener failed on %r", event)


def open_dice(
    spec: str,
    on_event: Callable[[Event], None],
    *,
    dice: DiceSet = DEFAULT_DICE,
    timing: Timing = Timing(),
    baudrate: int = BAUDRATE,
    seed: int | None = None,
    interval: float | None = None,
) -> DiceBridge:
    """Start a bridge to the dice named by ``spec``.

    ``spec`` is a serial port path or pyserial URL (``/dev/ttyACM0``, ``socket://host:port``),
    ``usb:VID:PID`` (hex ids; found again wherever the node moves), or ``"emulate"``:
    an in-process emulator on a pty (``seed``, and a roll every ``interval`` seconds if
    given; ``bridge.emulator.roll()`` rolls on demand). ``ValueError`` for a bad usb spec.
    """
    emulator = None
    if spec == EMULATE:
        emulator = PtyEmulator(VirtualDice(seed, dice_count=len(dice.dice)), interval=interval).start()
        spec = emulator.url
    transport = functools.partial(SerialTransport, baudrate=baudrate)
    bridge = DiceBridge(locator_for(spec), on_event, dice=dice, timing=timing, open_transport=transport,
                        emulator=emulator)
    return bridge.start()
