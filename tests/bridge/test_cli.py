"""The ``firmware-bridge`` command and ``open_dice`` end to end: real processes, a real pty."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.dice.config import DEFAULT_DICE
from firmware_bridge import Status, open_dice

CLI = [sys.executable, "-c", "import sys; from firmware_bridge.cli import main; sys.exit(main())"]


class Process:
    """A ``firmware-bridge`` process whose stdout is read line by line with timeouts."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen([*CLI, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self._buffer = b""

    def line(self, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            fd = self.proc.stdout.fileno()
            if not select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0]:
                pytest.fail(f"no output line within {timeout} s; so far {self._buffer!r}")
            chunk = os.read(fd, 4096)
            if not chunk:
                pytest.fail(f"process ended; output {self._buffer!r}; stderr {self.proc.stderr.read()!r}")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode()

    def event(self, predicate) -> dict:
        """The next JSON line for which ``predicate`` holds."""
        while not predicate(event := json.loads(self.line())):
            pass
        return event

    def press(self, key: str) -> str:
        """Send a key; the line the emulator answers with."""
        self.proc.stdin.write(key.encode())
        self.proc.stdin.flush()
        return self.line()

    def stop(self, signum: int) -> tuple[int, list[str]]:
        """Signal the process; its exit code and the output lines it had left."""
        self.proc.send_signal(signum)
        try:
            rest, _ = self.proc.communicate(timeout=10)
        finally:
            self.proc.kill()
        return self.proc.returncode, (self._buffer + rest).decode().splitlines()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("link", "signum"), [("pty", signal.SIGTERM), ("pty", signal.SIGINT), ("tcp", signal.SIGTERM)]
)
def test_emulate_and_listen_json(link, signum):
    emulator, listener = Process("emulate", "--seed", "11", *(["--tcp", "0"] if link == "tcp" else [])), None
    try:
        port = emulator.line()
        if link == "pty":
            assert Path(port).is_symlink() and os.readlink(port).startswith("/dev/pts/")
        else:
            assert re.fullmatch(r"socket://127\.0\.0\.1:[1-9]\d*", port)
        listener = Process("listen", port, "--json")
        listener.event(lambda e: e["event"] == "status" and e["connected"])
        sent = []
        for key in ("r", "c", "j", "d", "t", "r"):
            if match := re.fullmatch(r"rolled seq (\d+): ([1-6 ]+)", emulator.press(key)):
                sent.append((int(match[1]), [int(f) for f in match[2].split()]))
        assert len(sent) == 2
        counted = [listener.event(lambda e: e["event"] == "roll") for _ in sent]
        code, rest = listener.stop(signum)
        assert code == 0
        assert json.loads(rest[-1])["connected"] is False  # the last status, flushed on the way out
        assert not any(json.loads(line)["event"] == "roll" for line in rest)
    finally:
        if listener is not None:
            listener.proc.kill()
        code, _ = emulator.stop(signal.SIGTERM)
    assert code == 0 and (link == "tcp" or not Path(port).exists())
    assert [(e["seq"], e["faces"]) for e in counted] == sent
    assert [e["beans"] for e in counted] == [DEFAULT_DICE.beans(faces) for _, faces in sent]


@pytest.mark.slow
def test_listen_emulate_counts_interval_rolls_and_exits_on_sigterm():
    listener = Process("listen", "emulate", "--json", "--seed", "5", "--interval", "0.1")
    rolls = [listener.event(lambda e: e["event"] == "roll") for _ in range(3)]
    code, rest = listener.stop(signal.SIGTERM)
    assert code == 0
    seqs = [r["seq"] for r in rolls]
    assert seqs == sorted(set(seqs)) and all(len(r["beans"]) == 5 for r in rolls)
    assert json.loads(rest[-1])["state"] == "offline"


def test_listen_rejects_a_bad_usb_spec():
    proc = subprocess.run([*CLI, "listen", "usb:12", "--json"], capture_output=True, timeout=30)
    assert proc.returncode == 2 and b"usb:VID:PID" in proc.stderr


def test_open_dice_emulate_is_the_api_for_the_companion(events):
    bridge = open_dice("emulate", events, seed=1)
    try:
        link = bridge.emulator.url
        online = events.wait_state("online")
        assert isinstance(online, Status) and online.device == "emulated-dice"
        rolled = [bridge.emulator.roll() for _ in range(3)]
        events.wait(lambda ev: len(ev.rolls) == 3, what="3 rolls")
        assert [(r.seq, r.faces) for r in events.rolls] == [(r.seq, r.faces) for r in rolled]
    finally:
        bridge.close()
    assert events.statuses[-1].state == "offline" and not Path(link).exists()


def test_listen_without_json_prints_lines_for_people():
    from firmware_bridge.cli import describe
    from firmware_bridge.events import DiceRoll

    assert describe(DiceRoll(4, (1, 2, 3, 4, 5), ("blue", "garden", "blue", "blue", "green"))) == (
        "roll 4: 1 2 3 4 5 = blue, garden, blue, blue, green"
    )
    offline = Status(rejects={"too_long": 1, "bad_crc": 2}, error="link lost")
    assert describe(offline) == "dice offline: link lost (rejected: bad_crc 2, too_long 1)"
