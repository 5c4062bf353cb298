"""``companion serve``: a real server process on loopback, with its banner, PIN and clean refusals."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "companion", "serve", "--db", str(tmp_path / "games.sqlite3"), *args]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)


def _banner(process: subprocess.Popen[str]) -> list[str]:
    lines = []
    for line in process.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith("Press Ctrl+C"):
            return lines
    raise AssertionError("the server stopped before its banner: " + "\n".join(lines))


def test_serve_prints_address_qr_code_and_pin_and_serves_on_loopback(tmp_path: Path) -> None:
    port = _free_port()
    process = _start(tmp_path, "--port", str(port), "--pin", "4321")
    try:
        banner = _banner(process)
        assert banner[0] == f"Bohnanza companion on http://127.0.0.1:{port}/"
        assert sum("█" in line for line in banner) >= 10  # the QR code
        assert any(line.startswith("Table PIN: 4321") for line in banner)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/session", timeout=10) as response:
            assert json.load(response)["editor"] is False
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            assert response.headers["Server"] == "bohnanza-companion" and b"<html" in response.read()
        assert (tmp_path / "games.sqlite3").exists() and (tmp_path / "secret_key").exists()
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)  # a loaded CI machine can take a while to wind the server down
    assert process.returncode in (0, 130)


def test_a_busy_port_is_reported_without_a_traceback(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        process = _start(tmp_path, "--port", str(port))
        output, _ = process.communicate(timeout=30)
    assert process.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in output and "Traceback" not in output


@pytest.mark.parametrize("spec", ["usb:zz:yy"])
def test_a_bad_dice_spec_is_reported_without_a_traceback(tmp_path: Path, spec: str) -> None:
    process = _start(tmp_path, "--port", str(_free_port()), "--dice", spec)
    output, _ = process.communicate(timeout=30)
    assert process.returncode == 1 and "companion serve:" in output and "Traceback" not in output
