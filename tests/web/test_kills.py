"""A real ``companion serve`` killed (SIGKILL) again and again during play loses no acknowledged move.

A whole known-deck game is played over HTTP; the server is killed at random moments
(a request may be mid-way), started again on the same store with the same PIN, and
the client goes on from what the server says it has. Every move answered 200 must be
stored, in order, and the game must replay to its end.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import requests

from companion.records.replay import replay_log
from companion.rules.moves import move_to_dict
from companion.rules.simulate import random_game, random_setup
from companion.storage import GameStore

KILLS = 5
PIN = "7531"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """One ``companion serve`` process on a fixed port and store."""

    def __init__(self, tmp_path: Path, port: int):
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_DATA_HOME": str(tmp_path / "data")}
        command = [sys.executable, "-m", "companion", "serve", "--db", str(tmp_path / "games.sqlite3"),
                   "--port", str(port), "--pin", PIN]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("Press Ctrl+C"):
                break
        else:
            raise AssertionError("the server stopped before its banner")
        threading.Thread(target=self.process.stdout.read, daemon=True).start()  # keep its pipe drained

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)


@pytest.mark.slow
def test_sigkills_during_play_lose_no_acknowledged_move(tmp_path: Path) -> None:
    setup = random_setup("amigo-25", 4, 21)
    moves = [move_to_dict(m) for m in random_game(setup, 21).move_stack]
    header = {"ruleset": "amigo-25", "players": list(setup.players), "start_player": setup.start_player,
              "deck": {"seed": setup.deck.seed}}  # fmt: skip
    rng = random.Random(5)
    kill_at = sorted(rng.sample(range(10, len(moves) - 10), KILLS))
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    acknowledged = 0
    server = Server(tmp_path, port)
    http = requests.Session()
    http.headers["X-CSRF-Token"] = http.get(f"{url}/api/session").json()["csrf_token"]
    assert http.post(f"{url}/api/session", json={"pin": PIN}).ok
    game_id = http.post(f"{url}/api/games", json=header).json()["game_id"]
    try:
        for kill in [*kill_at, len(moves)]:
            stored = http.get(f"{url}/api/games/{game_id}").json()["events"]
            assert stored >= acknowledged  # nothing answered 200 was lost
            for move in moves[stored:kill]:
                response = http.post(f"{url}/api/games/{game_id}/moves", json=move, timeout=30)
                assert response.status_code == 200, response.text
                acknowledged += 1
            if kill < len(moves):
                killer = threading.Timer(rng.uniform(0, 0.02), server.kill)  # often mid-way through the next move
                killer.start()
                try:
                    http.post(f"{url}/api/games/{game_id}/moves", json=moves[kill], timeout=30)
                except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError):
                    pass  # killed before its answer, or half-way through it
                killer.join()
                server = Server(tmp_path, port)  # the same PIN: the saved login still works
        assert http.get(f"{url}/api/games/{game_id}").json()["state"]["game_over"]
    finally:
        server.kill()
    with GameStore(tmp_path / "games.sqlite3") as store:
        events = store.events(game_id)
        header_read = store.header(game_id)
    assert events == moves and acknowledged >= len(moves) - KILLS
    assert replay_log(header_read, events).error is None
