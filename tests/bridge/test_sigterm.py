"""SIGTERM (what ``kill``, systemd and docker send) leaves no ``/tmp/firmware-bridge-*`` folder or pty link behind.

Real processes: the ``firmware-bridge`` emulator and listener, and ``companion serve --dice emulate``,
each stopped with SIGTERM once its emulated dice are up.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

BRIDGE = [sys.executable, "-m", "firmware_bridge.cli"]
WAIT_S = 20.0


def _line_with(stream: int, prefix: str, timeout: float = WAIT_S) -> str:
    """The first line on the pipe ``stream`` that starts with ``prefix``."""
    deadline, buffer = time.monotonic() + timeout, b""
    while True:
        lines = buffer.decode(errors="replace").splitlines()
        if found := next((line for line in lines if line.startswith(prefix)), None):
            return found
        if not select.select([stream], [], [], max(0.0, deadline - time.monotonic()))[0]:
            pytest.fail(f"no line starting {prefix!r} within {timeout} s; got {buffer!r}")
        chunk = os.read(stream, 4096)
        if not chunk:
            pytest.fail(f"the process ended before a line starting {prefix!r}; got {buffer!r}")
        buffer += chunk


def _terminate(process: subprocess.Popen) -> int:
    """SIGTERM, then the exit status (killed after 20 s, and then a failure)."""
    process.send_signal(signal.SIGTERM)
    try:
        return process.wait(WAIT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("the process did not stop on SIGTERM")


def _assert_removed(link: Path) -> None:
    assert not link.is_symlink() and not link.exists(), f"{link} was left behind"
    if link.parent.name.startswith("firmware-bridge-"):
        assert not link.parent.exists(), f"{link.parent} was left behind"


def test_the_emulator_removes_its_link_and_folder_on_sigterm() -> None:
    process = subprocess.Popen([*BRIDGE, "emulate"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)  # fmt: skip
    try:
        link = Path(_line_with(process.stdout.fileno(), "/"))
        assert link.is_symlink() and link.parent.name.startswith("firmware-bridge-")
    finally:
        code = _terminate(process)
    assert code == 0
    _assert_removed(link)


def test_the_listener_removes_its_emulator_link_and_folder_on_sigterm() -> None:
    process = subprocess.Popen([*BRIDGE, "listen", "emulate", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        link = Path(_line_with(process.stderr.fileno(), "emulated dice on ").removeprefix("emulated dice on "))
        connected = json.loads(_line_with(process.stdout.fileno(), '{"event": "status", "connected": true'))
        assert connected["port"] == str(link) and link.is_symlink()
    finally:
        code = _terminate(process)
    assert code == 0
    _assert_removed(link)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _emulated_link(port: int) -> Path:
    """The pty link of the server's emulated dice, once its bridge has reported it."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/hardware", timeout=10) as response:
            dice = json.load(response)["dice"]
        if dice["state"] == "online":
            return Path(dice["port"])
        time.sleep(0.05)
    pytest.fail(f"the emulated dice did not come online: {dice}")


@pytest.mark.slow
def test_companion_serve_removes_its_emulated_dice_on_sigterm(tmp_path: Path) -> None:
    port = _free_port()
    command = [sys.executable, "-m", "companion", "serve", "--port", str(port), "--dice", "emulate", "--pin", "1234",
               "--db", str(tmp_path / "games.sqlite3"), "--instance", str(tmp_path / "instance")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
    try:
        _line_with(process.stdout.fileno(), "Press Ctrl+C")
        link = _emulated_link(port)
        assert link.is_symlink() and link.parent.name.startswith("firmware-bridge-")
    finally:
        code = _terminate(process)
    try:
        assert code == 0
        _assert_removed(link)
    finally:  # not to litter /tmp while the test fails
        shutil.rmtree(link.parent, ignore_errors=True)
