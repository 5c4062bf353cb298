"""``socket://`` dice: the transport reads whole blocks, so rolls behind a flood of junk arrive in time.

A real loopback TCP server plays a Wi-Fi board that answers the host's ``HELLO?`` with its
HELLO, a 1 MiB line of garbage and then 20 rolls; the real bridge must count all 20 well within the keep-alive
timers. At 2 bytes a read (pyserial's ``in_waiting`` on ``socket://`` is 0 or 1) the bridge
took over a second per 64 KiB, fell silent past the keep-alive and dropped the link with the rolls.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import suppress

import pytest

from firmware_bridge.bridge import DiceBridge
from firmware_bridge.driver import Timing
from firmware_bridge.framing import frame
from firmware_bridge.messages import HELLO_QUERY
from firmware_bridge.transport import BLOCK, FixedPort, SerialTransport

JUNK = b"$" + bytes(range(37, 127)) * (2**20 // 90) + b"\n"
"""One 1 MiB line of printable garbage after a ``$``: rejected once as too long, then skipped."""
ROLLS = 20
BOUND_S = 3.0
"""The rolls must all be counted within this time, well inside ping_after + offline_after (5 s)."""


@pytest.fixture
def board(lines) -> Iterator[str]:
    """A TCP server on loopback that answers the first host's ``HELLO?`` with HELLO, the junk line
    and 20 rolls; its URL. (It waits to be asked: pyserial drops what arrives while it opens the port.)"""
    server = socket.create_server(("127.0.0.1", 0))
    done = threading.Event()

    def serve() -> None:
        conn, _ = server.accept()
        with conn, suppress(OSError):  # a host that gave up closes the link mid-send
            asked = b""
            while frame(HELLO_QUERY) not in asked:
                chunk = conn.recv(64)
                if not chunk:
                    return
                asked += chunk
            conn.sendall(lines.hello() + JUNK + b"".join(lines.roll(seq, 1 + seq % 6, 2, 3, 4, 5)
                                                        for seq in range(1, ROLLS + 1)))
            done.wait(30)  # keep the link open while the test runs

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"socket://127.0.0.1:{server.getsockname()[1]}"
    finally:
        done.set()
        thread.join(5)
        server.close()


def test_rolls_behind_a_long_junk_line_all_arrive_in_bounded_time(board, events) -> None:
    url = board
    started = time.monotonic()
    with DiceBridge(FixedPort(url), events, timing=Timing(hello_wait=0.05, backoff_initial=0.05)):
        events.wait(lambda ev: len(ev.rolls) == ROLLS, timeout=BOUND_S, what=f"{ROLLS} rolls")
    assert time.monotonic() - started < BOUND_S
    assert [r.seq for r in events.rolls] == list(range(1, ROLLS + 1))
    assert [r.faces[0] for r in events.rolls] == [1 + seq % 6 for seq in range(1, ROLLS + 1)]
    assert events.statuses[-1].rejects == {"too_long": 1}
    assert all(s.state != "offline" or s.error is None for s in events.statuses)  # never dropped the link


def test_one_read_returns_a_whole_block_of_what_has_arrived(board, lines) -> None:
    url = board
    sent = len(lines.hello()) + len(JUNK) + sum(len(lines.roll(seq)) for seq in range(1, ROLLS + 1))
    transport = SerialTransport(url, poll_s=0.5)
    try:
        transport.write(frame(HELLO_QUERY))
        time.sleep(0.2)  # more than a block has arrived by now
        started = time.monotonic()
        sizes = []
        while sum(sizes) < sent:
            sizes.append(len(transport.read()))
            assert sizes[-1], f"the stream ended after {sum(sizes)} of {sent} bytes"
        elapsed = time.monotonic() - started
    finally:
        transport.close()
    assert sizes[0] == BLOCK and len(sizes) < 2 * sent / BLOCK  # blocks, not 1 or 2 bytes a read
    assert elapsed < 1.0  # and no read waited for its block to fill (each would take poll_s = 0.5 s)
