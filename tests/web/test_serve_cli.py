"""``companion serve``: a real server process on loopback, with its banner, PIN and clean refusals; its options."""

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
import requests

import web
from companion.cli import main, serve
from companion.cli.common import default_instance
from web.instance import REMEDY, UnsafeInstance


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_DATA_HOME": str(tmp_path / "data")}
    command = [sys.executable, "-m", "companion", "serve", "--db", str(tmp_path / "games.sqlite3"), *args]
    # as from a terminal: a test run started in the background (nohup, &) would hand its ignored Ctrl+C on
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


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
        assert (tmp_path / "games.sqlite3").exists() and not (tmp_path / "secret_key").exists()
        assert (tmp_path / "data" / "bohnanza-companion" / "secret_key").exists()  # the instance: the data folder
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)  # a loaded CI machine can take a while to wind the server down
    assert process.returncode in (0, 130)


def test_the_join_link_holds_the_address_the_server_prints(tmp_path: Path) -> None:
    """The phones' QR code holds the printed address, whatever address the host's browser used."""
    port = _free_port()
    process = _start(tmp_path, "--port", str(port), "--pin", "4321")
    try:
        _banner(process)
        with requests.Session() as host:
            base = f"http://localhost:{port}"  # the host's browser used another name for this machine
            host.headers["X-CSRF-Token"] = host.get(f"{base}/api/session", timeout=10).json()["csrf_token"]
            assert host.post(f"{base}/api/session", json={"pin": "4321"}, timeout=10).ok
            game = host.post(f"{base}/api/games", json={"ruleset": "amigo-25", "players": ["Ann", "Ben", "Cid"]},
                             timeout=10).json()
            code = host.post(f"{base}/api/join/code", timeout=10).json()["code"]
            link = host.get(f"{base}/api/join?game={game['game_id']}", timeout=10).json()["link"]
        assert link == f"http://127.0.0.1:{port}/games/{game['game_id']}?join={code}"
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)


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


def test_a_session_key_others_could_write_stops_serve_with_a_sentence(tmp_path: Path) -> None:
    instance = tmp_path / "instance"
    instance.mkdir()
    planted = instance / "secret_key"
    planted.write_text("0" * 64)
    planted.chmod(0o666)
    process = _start(tmp_path, "--port", str(_free_port()), "--instance", str(instance))
    output, _ = process.communicate(timeout=30)
    assert process.returncode == 2 and "Traceback" not in output
    assert output.strip() == f"companion serve: {planted} can be written by other users: {REMEDY}"


def test_the_instance_folder_is_the_users_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_instance() == tmp_path / "xdg" / "bohnanza-companion"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_instance() == tmp_path / "home" / ".local" / "share" / "bohnanza-companion"


class _Stop(Exception):
    """Raised by the stand-in app factory: the arguments are recorded, no server starts."""


@pytest.fixture
def factory_calls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[dict, Path]]:
    """``companion serve``'s calls of ``create_app``, which refuses each (as a bad set-up, exit 2)."""
    calls: list[tuple[dict, Path]] = []

    def record(settings: dict, instance_path: Path) -> None:
        calls.append((settings, instance_path))
        raise UnsafeInstance("stopped by the test")

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(web, "create_app", record)
    return calls


def test_serve_keeps_its_instance_out_of_the_stores_folder(factory_calls: list, tmp_path: Path, capsys) -> None:
    assert main(["serve", "--db", "/tmp/games.sqlite3"]) == 2
    settings, instance = factory_calls[0]
    assert settings["DATABASE"] == "/tmp/games.sqlite3" and settings["WATCH_NEEDS_PIN"] is False
    assert instance == (tmp_path / "xdg" / "bohnanza-companion").resolve()
    assert capsys.readouterr().err == "companion serve: stopped by the test\n"


def test_serve_private_and_instance_options(factory_calls: list, tmp_path: Path) -> None:
    assert main(["serve", "--db", "/tmp/games.sqlite3", "--private", "--instance", str(tmp_path / "mine")]) == 2
    settings, instance = factory_calls[0]
    assert settings["WATCH_NEEDS_PIN"] is True and instance == (tmp_path / "mine").resolve()


def test_the_banner_says_who_may_watch() -> None:
    lan = serve._banner("http://192.168.1.20:8000/", "4321", Path("games.sqlite3"), lan=True, private=False)
    assert "Table PIN: 4321   (needed to change a game)\n" in lan
    assert "Anyone on this network can watch the games at this address; start with --private" in lan
    private = serve._banner("http://192.168.1.20:8000/", "4321", Path("games.sqlite3"), lan=True, private=True)
    assert "Table PIN: 4321   (needed to watch and to change a game)" in private and "Anyone" not in private
    local = serve._banner("http://127.0.0.1:8000/", "4321", Path("games.sqlite3"), lan=False, private=False)
    assert "anyone on this machine may watch" in local and "network" not in local


def test_a_loopback_qr_code_says_it_opens_on_this_machine_only_and_how_to_start_with_lan() -> None:
    """Issue 21, item 11: a tablet that scans a 127.0.0.1 QR code gets nothing; the banner says so beside it."""
    local = serve._banner("http://127.0.0.1:8000/", "4321", Path("games.sqlite3"), lan=False, private=False)
    lines = local.splitlines()
    last_qr_line = max(i for i, line in enumerate(lines) if set(line) & set("█▀▄"))
    note = "\n".join(lines[last_qr_line + 1:last_qr_line + 4])
    assert "listens on 127.0.0.1 alone" in note and "companion serve --lan" in note
    lan = serve._banner("http://192.168.1.20:8000/", "4321", Path("games.sqlite3"), lan=True, private=False)
    assert "--lan" not in lan and "this machine only" not in lan
