"""One truth per game on the page: other writers, stale undos, games that do not replay, hidden decks."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import requests

from support.live_server import live_server
from support.sse import EventReader
from support.web_client import Editor


def plant(bean: str, player: int = 0) -> dict:
    return {"type": "plant", "player": player, "bean": bean, "source": "hand"}


def corrupt(path: str, game_id: int, event: dict) -> None:
    """Store an event behind the rules' back, as an older, unchecked writer once did."""
    with sqlite3.connect(path) as db:
        (seq,) = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)).fetchone()
        db.execute("INSERT INTO events (game_id, seq, data, recorded) VALUES (?, ?, ?, 0)",
                   (game_id, seq, json.dumps(event)))  # fmt: skip


def test_a_game_that_does_not_replay_opens_shows_the_broken_event_and_is_repaired_from_the_page(make_app):
    app = make_app()
    editor = Editor(app.test_client())
    game_id = editor.start()["game_id"]
    editor.post(f"/api/games/{game_id}/moves", plant("blue"))
    database = app.config["DATABASE"]
    app.extensions["tables"].close()
    corrupt(database, game_id, plant("red"))
    corrupt(database, game_id, plant("soy"))  # a third plant from hand: the audit's corruption
    again = Editor(make_app("second", DATABASE=database).test_client())

    shown = again.get(f"/api/games/{game_id}")
    assert shown.status_code == 200
    broken = shown.get_json()["broken"]
    assert (broken["event"], broken["undo"]) == (3, 1) and broken["rule"]
    assert shown.get_json()["events"] == 2  # the table as it stood before the broken event

    refused = again.post(f"/api/games/{game_id}/moves", {"type": "turn-over", "player": 0, "beans": ["green", "chili"]})
    assert refused.status_code == 409 and refused.get_json()["rule"] == "game.broken-log"
    assert "event 3 does not replay" in refused.get_json()["error"]

    repaired = again.post(f"/api/games/{game_id}/repair", {})
    assert repaired.status_code == 200 and repaired.get_json()["undone"] == 1
    assert repaired.get_json()["broken"] is None
    assert again.post(f"/api/games/{game_id}/repair", {}).status_code == 409  # nothing left to repair
    moved = again.post(f"/api/games/{game_id}/moves", {"type": "turn-over", "player": 0, "beans": ["green", "chili"]})
    assert moved.status_code == 200


def test_an_undo_from_a_page_that_has_not_seen_the_last_move_is_refused_and_undoes_nothing(editor):
    game_id = editor.start()["game_id"]
    seen = editor.post(f"/api/games/{game_id}/moves", plant("blue")).get_json()["seq"]
    editor.post(f"/api/games/{game_id}/moves", plant("red"))  # made on another tablet
    stale = editor.post(f"/api/games/{game_id}/undo", {"count": 1, "after": seen})
    assert stale.status_code == 409 and stale.get_json()["stale"] is True
    assert "changed elsewhere" in stale.get_json()["error"]
    assert len(editor.get(f"/api/games/{game_id}/events").get_json()["events"]) == 2
    latest = editor.get(f"/api/games/{game_id}").get_json()["seq"]
    undone = editor.post(f"/api/games/{game_id}/undo", {"count": 1, "after": latest})
    assert undone.status_code == 200 and undone.get_json()["undone"] == 1


def test_watchers_of_a_known_deck_game_see_no_seed_and_cannot_export_its_order(app, editor):
    game_id = editor.start(deck={"seed": 7})["game_id"]
    watcher = app.test_client()
    header = watcher.get(f"/api/games/{game_id}").get_json()["header"]
    assert header["deck"] == {"known": True}
    assert "7" not in json.dumps(header)
    refused = watcher.get(f"/api/games/{game_id}/record")
    assert refused.status_code == 403 and refused.get_json()["need_pin"] is True
    exported = editor.get(f"/api/games/{game_id}/record")
    assert exported.status_code == 200 and json.loads(exported.data.splitlines()[0])["deck"] == {"seed": 7}


def test_watchers_of_a_known_dice_deck_see_no_seed(app, editor):
    options = {"harvest_cards": "sample", "seed": 99}
    game_id = editor.start(game="dice", players=["Ann", "Ben"], options=options)["game_id"]
    header = app.test_client().get(f"/api/games/{game_id}").get_json()["header"]
    assert header["options"] == {"harvest_cards": "sample"}


def test_the_server_and_the_terminal_play_one_game_at_once_without_an_illegal_event(tmp_path: Path):
    """`companion play` in another process plants two cards; the server refuses a third and shows theirs live."""
    database = tmp_path / "games.sqlite3"
    with live_server(tmp_path / "instance", DATABASE=str(database), STORE_POLL_S=0.1) as server, \
            requests.Session() as http:  # fmt: skip
        http.headers["X-CSRF-Token"] = http.get(f"{server.url}/api/session").json()["csrf_token"]
        assert http.post(f"{server.url}/api/session", json={"pin": "2468"}).ok
        game_id = http.post(f"{server.url}/api/games", json={"ruleset": "amigo-25", "players": ["Ann", "Ben", "Cid"]}
                            ).json()["game_id"]  # fmt: skip
        stream = EventReader(f"{server.url}/api/live?game={game_id}")
        assert stream.next_of("state")["change"]["kind"] == "connect"

        terminal = subprocess.run(
            [sys.executable, "-m", "companion", "play", "--db", str(database), "--game", str(game_id)],
            input="plant blue\nplant red\nquit\n", capture_output=True, text=True, timeout=60,
        )
        assert terminal.returncode == 0, terminal.stderr

        external = stream.next_of("state")  # pushed by the server's store watcher, no request needed
        while external["events"] < 2:  # the watcher may look between the terminal's two plants: each is pushed
            assert external["change"]["kind"] == "external" and external["events"] == 1
            external = stream.next_of("state")
        assert external["change"]["kind"] == "external" and external["events"] == 2
        third = http.post(f"{server.url}/api/games/{game_id}/moves", json=plant("soy"))
        assert third.status_code == 409, third.text
        events = http.get(f"{server.url}/api/games/{game_id}/events").json()["events"]
        assert [e["bean"] for e in events] == ["blue", "red"]
        stream.close()
