"""``companion play``: manual entry in a terminal, sharing the store with the tablet's server."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from companion.records import Header
from companion.session import GameSession
from companion.storage import GameStore

HEADER = Header("bohnanza", "amigo-25", ("Ann", "Ben", "Cid"), 0)


def play(database: Path, *args: str, typed: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "companion", "play", "--db", str(database), *args]
    return subprocess.run(command, input=typed, capture_output=True, text=True, timeout=60)


def test_a_game_that_does_not_replay_is_shown_stopped_and_repaired_by_typing_repair(tmp_path: Path):
    database = tmp_path / "games.sqlite3"
    with GameStore(database) as store:
        session = GameSession.start(store, HEADER)
        session.push({"type": "plant", "player": 0, "bean": "blue"})
    with sqlite3.connect(database) as db:
        db.execute("INSERT INTO events (game_id, seq, data, recorded) VALUES (?, 9, ?, 0)",
                   (session.game_id, json.dumps({"type": "draw", "player": 2})))  # fmt: skip
    done = play(database, "--game", str(session.game_id), typed="plant red\nrepair\nplant red\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "event 2 does not replay" in done.stdout
    assert "refused: This game cannot go on" in done.stdout
    assert "undid 1 event(s)" in done.stdout
    with GameStore(database) as store:
        assert [e.get("bean") for e in store.events(session.game_id)] == ["blue", "red"]


def test_a_game_changed_by_another_writer_is_shown_as_it_now_stands(tmp_path: Path):
    """The terminal plants one card, the tablet's server another: the terminal's third plant is refused."""
    database = tmp_path / "games.sqlite3"
    with GameStore(database) as store:
        game_id = GameSession.start(store, HEADER).game_id
        command = [sys.executable, "-m", "companion", "play", "--db", str(database), "--game", str(game_id)]
        terminal = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert terminal.stdin is not None
        terminal.stdin.write("plant blue\n")
        terminal.stdin.flush()
        deadline = time.monotonic() + 30
        while not store.events(game_id) and time.monotonic() < deadline:
            time.sleep(0.05)
        GameSession.resume(store, game_id).push({"type": "plant", "player": 0, "bean": "red"})
        out, _ = terminal.communicate("plant soy\nquit\n", timeout=60)
        assert "changed elsewhere" in out
        assert "refused: " in out
        assert [e["bean"] for e in store.events(game_id)] == ["blue", "red"]


def test_an_unknown_game_exits_2_with_a_sentence(tmp_path: Path):
    done = play(tmp_path / "games.sqlite3", "--game", "42", typed="")
    assert done.returncode == 2
    assert "there is no game 42" in done.stderr and "Traceback" not in done.stderr


def test_a_variant_is_started_with_modules_and_its_moves_entered_from_the_numbered_list(tmp_path: Path):
    database = tmp_path / "games.sqlite3"
    typed = "amigo-25-duel +magpie\nAnn, Ben\n\nplant blue\ndo 2\nsoy\n2\nquit\n"
    done = play(database, "--new", typed=typed)
    assert done.returncode == 0, done.stderr
    assert "do 2: Ann: Discard one hand card" in done.stdout
    assert "Ann discarded a Soy Bean from hand" in done.stdout
    with GameStore(database) as store:
        game = store.games()[0]
        assert game.header is not None and game.header.options == {"modules": ["magpie"]}
        assert store.events(game.id)[-1] == {"type": "discard", "player": 0, "bean": "soy", "at": 1}


def test_high_bohn_buildings_are_bought_by_typing_and_refused_with_the_rule(tmp_path: Path):
    database = tmp_path / "games.sqlite3"
    header = Header("bohnanza", "high-bohn", ("Ann", "Ben", "Cid"), 0)
    with GameStore(database) as store:
        session = GameSession.start(store, header)
        for event in ({"type": "plant", "player": 0, "bean": "red"}, {"type": "plant", "player": 0, "bean": "red"},
                      {"type": "turn-over", "player": 0, "beans": ["red", "red"]}, {"type": "end-trading", "player": 0},
                      {"type": "plant", "player": 0, "bean": "red", "source": "face-up"},
                      {"type": "plant", "player": 0, "bean": "red", "source": "face-up"},
                      {"type": "harvest", "player": 0, "field": 0}):  # four red: two red thalers
            session.push(event)
    done = play(database, "--game", str(session.game_id), typed="build Ann jail 1\nbuild Ann tipi 2\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "refused: The 1 Jail costs 1 thalers with a Blue Bean on the other side; Ann has 0" in done.stdout
    assert "Ann built the 2 Indian tipi with 2 Red Bean thalers" in done.stdout
    assert "Ann owns the 2 Indian tipi" in done.stdout  # the table the terminal shows
