"""One truth per game: writers that are behind are refused by the store, reload and check again.

Each ``GameStore`` below is its own SQLite connection to one file, as two processes
(the tablet's server and ``companion play``, or two servers) would be.
"""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from companion.records import Header
from companion.records.replay import replay_log
from companion.rules import IllegalMove
from companion.session import GameSession
from companion.storage import GameStore, StaleLog

HEADER = Header("bohnanza", "amigo-25", ("Ann", "Ben", "Cid"), 0)


def plant(bean: str, player: int = 0) -> dict:
    return {"type": "plant", "player": player, "bean": bean, "source": "hand"}


def test_an_append_that_names_an_old_last_event_is_refused_and_writes_nothing(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        game_id = store.create_game(HEADER)
        first = store.append(game_id, plant("blue"), after=0)
        with pytest.raises(StaleLog, match="changed elsewhere"):
            store.append(game_id, plant("red"), after=0)
        assert store.log(game_id).events == [plant("blue")]
        assert store.log(game_id).last_seq == first


def test_an_undo_that_names_an_old_last_event_undoes_nothing(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        game_id = store.create_game(HEADER)
        first = store.append(game_id, plant("blue"), after=0)
        store.append(game_id, plant("red"), after=first)
        with pytest.raises(StaleLog):
            store.undo(game_id, 1, after=first)
        assert len(store.events(game_id)) == 2


def test_the_last_live_event_names_the_whole_log_after_undo_and_redo(tmp_path):
    with GameStore(tmp_path / "g.sqlite3") as store:
        game_id = store.create_game(HEADER)
        one = store.append(game_id, plant("blue"), after=0)
        two = store.append(game_id, plant("red"), after=one)
        store.undo(game_id, 1, after=two)
        assert store.last_seq(game_id) == one
        three = store.append(game_id, plant("soy"), after=one)
        assert three > two  # an undone position is never named again
        with pytest.raises(StaleLog):
            store.append(game_id, plant("green"), after=two)


def test_a_third_plant_from_a_writer_that_is_behind_is_refused_by_the_rules(tmp_path):
    """The audit's corruption: the server accepted a third plant from hand after the terminal planted two."""
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as server_store, GameStore(path) as terminal_store:
        server = GameSession.start(server_store, HEADER)
        terminal = GameSession.resume(terminal_store, server.game_id)
        terminal.push(plant("blue"))
        terminal.push(plant("red"))
        with pytest.raises(IllegalMove) as refused:
            server.push(plant("soy"))  # the server still believes no card was planted
        assert "two" in refused.value.violation.message.lower()
        assert [e["bean"] for e in server.events] == ["blue", "red"]  # it reloaded the stored game
        events = server_store.events(server.game_id)
        assert [e["bean"] for e in events] == ["blue", "red"]
        assert replay_log(HEADER, events).error is None


def test_a_legal_move_from_a_writer_that_is_behind_is_checked_again_and_stored(tmp_path):
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as one, GameStore(path) as two:
        first = GameSession.start(one, HEADER)
        second = GameSession.resume(two, first.game_id)
        first.push(plant("blue"))
        stored = second.push(plant("red"))
        assert stored["field"] == 1  # placed against the game as stored: field 0 holds the blue
        assert [e["bean"] for e in one.events(first.game_id)] == ["blue", "red"]


def test_an_undo_from_a_writer_that_has_not_seen_the_last_move_is_refused(tmp_path):
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as one, GameStore(path) as two:
        first = GameSession.start(one, HEADER)
        first.push(plant("blue"))
        second = GameSession.resume(two, first.game_id)
        first.push(plant("red"))
        with pytest.raises(StaleLog):
            second.undo()
        assert [e["bean"] for e in second.events] == ["blue", "red"]  # now it has seen it
        assert second.undo() == 1
        assert [e["bean"] for e in one.events(first.game_id)] == ["blue"]


def test_many_writers_racing_store_only_what_the_rules_allow(tmp_path):
    """Eight writers, each its own connection and each behind, plant from hand at once: two plants are stored."""
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store:
        game_id = GameSession.start(store, HEADER).game_id
    stores = [GameStore(path) for _ in range(8)]
    sessions = [GameSession.resume(s, game_id) for s in stores]
    outcomes: list[str] = []
    start = threading.Barrier(len(sessions))

    def write(session: GameSession, bean: str) -> None:
        start.wait()
        try:
            session.push(plant(bean))
            outcomes.append("stored")
        except IllegalMove:
            outcomes.append("refused")

    beans = ["blue", "red", "soy", "green", "chili", "stink", "wax", "black-eyed"]
    threads = [threading.Thread(target=write, args=(s, b)) for s, b in zip(sessions, beans)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for s in stores:
        s.close()
    assert sorted(outcomes) == ["refused"] * 6 + ["stored"] * 2
    with GameStore(path) as store:
        assert replay_log(HEADER, store.events(game_id)).error is None


def corrupt(path, game_id: int, event: dict) -> None:
    """Store an event behind the rules' back, as an older, unchecked writer once did."""
    with sqlite3.connect(path) as db:
        (seq,) = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)).fetchone()
        db.execute("INSERT INTO events (game_id, seq, data, recorded) VALUES (?, ?, ?, 0)",
                   (game_id, seq, json.dumps(event)))  # fmt: skip


def test_a_game_that_does_not_replay_opens_at_its_last_good_event_and_is_repaired_by_undoing(tmp_path):
    path = tmp_path / "g.sqlite3"
    with GameStore(path) as store:
        session = GameSession.start(store, HEADER)
        session.push(plant("blue"))
        session.push(plant("red"))
    corrupt(path, session.game_id, plant("soy"))
    corrupt(path, session.game_id, {"type": "end-trading", "player": 0})
    with GameStore(path) as store:
        broken = GameSession.resume(store, session.game_id)
        assert broken.broken is not None
        assert (broken.broken.number, broken.broken.undo) == (3, 2)
        assert len(broken.events) == 2  # the state is the one after the last good event
        assert broken.summary()["broken"]["event"] == 3
        with pytest.raises(IllegalMove) as refused:
            broken.push({"type": "turn-over", "player": 0, "beans": ["green", "chili"]})
        assert refused.value.violation.rule == "game.broken-log"
        assert broken.repair() == 2
        assert broken.broken is None
        broken.push({"type": "turn-over", "player": 0, "beans": ["green", "chili"]})
        assert replay_log(HEADER, store.events(session.game_id)).error is None
