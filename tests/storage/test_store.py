"""The SQLite store: games, append-only logs, undo, resume, and survival of a SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from companion.records import Header
from companion.rules import IllegalMove
from companion.rules.simulate import random_game, random_setup
from companion.session import GameSession
from companion.storage import GameStore, StoreError

HEADER = Header("bohnanza", "amigo-25", ("Ann", "Ben", "Cid"), 0)


def test_the_store_uses_wal_with_full_sync(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_game_is_stored_event_by_event_and_resumes(tmp_path):
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store:
        session = GameSession.start(store, HEADER)
        session.push({"type": "plant", "player": 0, "bean": "blue"})
        session.push({"type": "plant", "player": 0, "bean": "red"})
        game_id = session.game_id
    with GameStore(path) as store:
        again = GameSession.resume(store, game_id)
        fields = again.summary()["players"][0]["fields"]
        assert fields == [{"bean": "blue", "count": 1}, {"bean": "red", "count": 1}, None]
        assert store.games()[0].events == 2


def test_a_refused_move_stores_nothing(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        session = GameSession.start(store, HEADER)
        with pytest.raises(IllegalMove):
            session.push({"type": "plant", "player": 1, "bean": "blue"})
        with pytest.raises(ValueError):
            session.push({"type": "plant", "player": 0})
        assert store.events(session.game_id) == []


def test_undo_marks_events_undone_and_rederives_the_state(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        session = GameSession.start(store, HEADER)
        session.push({"type": "plant", "player": 0, "bean": "blue"})
        session.push({"type": "plant", "player": 0, "bean": "red"})
        assert session.undo() == 1
        assert [e["bean"] for e in store.events(session.game_id)] == ["blue"]
        session.push({"type": "plant", "player": 0, "bean": "soy"})
        assert session.summary()["players"][0]["fields"][1] == {"bean": "soy", "count": 1}
        rows = store._db.execute("SELECT COUNT(*) FROM events WHERE undone IS NOT NULL").fetchone()[0]
        assert rows == 1  # nothing is deleted


def test_a_finished_game_is_marked_finished(tmp_path):
    setup = random_setup("amigo-25", 3, 7)
    moves = random_game(setup, 7).move_stack
    header = Header("bohnanza", "amigo-25", setup.players, setup.start_player, deck={"seed": 7})
    with GameStore(tmp_path / "g.sqlite3") as store:
        session = GameSession.start(store, header)
        for move in moves:
            session.push(move)
        assert store.games()[0].finished
        session.undo()
        assert not store.games()[0].finished


WRITER = textwrap.dedent(
    """
    import sys
    from companion.records import Header
    from companion.rules.simulate import random_game, random_setup
    from companion.session import GameSession
    from companion.storage import GameStore

    setup = random_setup("classic", 5, 11)
    moves = random_game(setup, 11).move_stack
    header = Header("bohnanza", "classic", setup.players, setup.start_player, deck={"seed": 11})
    store = GameStore(sys.argv[1])
    session = GameSession.start(store, header)
    print("game", session.game_id, flush=True)
    for n, move in enumerate(moves, start=1):
        session.push(move)
        print("ack", n, flush=True)
    print("done", flush=True)
    """
)


@pytest.mark.parametrize("kill_after", [1, 37, 150])
def test_sigkill_mid_write_loses_no_acknowledged_event(tmp_path, kill_after):
    path = tmp_path / "crash.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True,
    )
    acked = 0
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("ack"):
            acked = int(line.split()[1])
            if acked >= kill_after:
                os.kill(proc.pid, signal.SIGKILL)  # the writer is mid-way through its next event
                break
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    with GameStore(path) as store:
        game = store.games()[0]
        assert game.events >= acked  # every acknowledged event survived
        resumed = GameSession.resume(store, game.id)  # and the log still replays
        resumed.push(resumed.kind.move_to_dict(random_game(random_setup("classic", 5, 11), 11).move_stack[game.events]))


def test_ids_beyond_sqlite_integers_are_unknown_games(tmp_path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        for game_id in (0, -1, 2**63, 10**30):
            with pytest.raises(KeyError):
                store.header(game_id)
            with pytest.raises(KeyError):
                store.events(game_id)


def test_a_game_whose_header_cannot_be_read_is_listed_with_the_problem_not_hidden_or_fatal(tmp_path):
    """A name stored before names were checked (a lone surrogate) must not break the whole list."""
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store:
        good = GameSession.start(store, HEADER).game_id
        bad = store.create_game(HEADER)
        store._db.execute("UPDATE games SET header = ? WHERE id = ?",
                          (json.dumps({**HEADER.to_dict(), "players": ["Ann", "\ud800", "Cid"]}), bad))  # fmt: skip
        listed = {g.id: g for g in store.games()}
        assert listed[good].header == HEADER and listed[good].problem is None
        assert listed[bad].header is None and f"game {bad} has a damaged header" in listed[bad].problem
        with pytest.raises(StoreError):
            store.header(bad)
    done = subprocess.run([sys.executable, "-m", "companion", "records", "list", "--db", str(path)],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0 and "damaged header" in done.stdout
