"""The live stream over a real waitress server: every change reaches every watching page, in order."""

from __future__ import annotations

import json
import time
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

from support.live_server import live_server
from support.sse import EventReader
from web.live import QUEUE_LIMIT, STALE, LiveFeed, event_stream


class HttpEditor:
    """A real HTTP client with the PIN entered."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.token = self._json("GET", "/api/session")["csrf_token"]
        self._json("POST", "/api/session", {"pin": "2468"})

    def _json(self, method: str, path: str, body: object = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data, method=method)
        request.add_header("Content-Type", "application/json")
        if method != "GET":
            request.add_header("X-CSRF-Token", self.token)
        try:
            with self.opener.open(request) as response:
                return json.load(response)
        except urllib.error.HTTPError as exc:
            return {"status": exc.code, **json.load(exc)}

    def post(self, path: str, body: object = None) -> dict:
        return self._json("POST", path, body)


def test_a_watching_page_gets_the_state_then_every_change(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        editor = HttpEditor(server.url)
        game_id = editor.post("/api/games", {"ruleset": "amigo-25", "players": ["Ann", "Ben", "Cid"]})["game_id"]
        watcher, second = EventReader(f"{server.url}/api/live?game={game_id}"), EventReader(f"{server.url}/api/live?game={game_id}")
        try:
            assert watcher.next_of("hardware")["dice"]["state"] == "none"
            opening = watcher.next_of("state")
            assert opening["change"] == {"kind": "connect", "event": None} and opening["events"] == 0
            second.next_of("state")
            editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "blue"})
            editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "red"})
            editor.post(f"/api/games/{game_id}/undo")
            changes = [watcher.next_of("state") for _ in range(3)]
            assert [c["change"]["kind"] for c in changes] == ["move", "move", "undo"]
            assert [c["events"] for c in changes] == [1, 2, 1]
            assert [c["revision"] for c in changes] == sorted(c["revision"] for c in changes)
            assert changes[0]["change"]["event"]["bean"] == "blue"
            assert [second.next_of("state")["events"] for _ in range(3)] == [1, 2, 1]
        finally:
            watcher.close()
            second.close()


def test_a_refused_move_is_announced_to_watchers_without_a_state_change(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        editor = HttpEditor(server.url)
        game_id = editor.post("/api/games", {"ruleset": "amigo-25", "players": ["Ann", "Ben", "Cid"]})["game_id"]
        watcher = EventReader(f"{server.url}/api/live?game={game_id}")
        try:
            watcher.next_of("state")
            refused = editor.post(f"/api/games/{game_id}/moves", {"type": "draw", "player": 0})
            assert refused["status"] == 409
            event, data = watcher.next()
            assert event == "refused" and data["rule"] == refused["rule"] and data["source"] == "tablet"
        finally:
            watcher.close()


def test_a_reconnecting_page_sees_the_current_state(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        editor = HttpEditor(server.url)
        game_id = editor.post("/api/games", {"ruleset": "classic", "players": ["Ann", "Ben", "Cid", "Dee"]})["game_id"]
        editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "soy"})
        watcher = EventReader(f"{server.url}/api/live?game={game_id}")
        try:
            state = watcher.next_of("state")
            assert state["events"] == 1 and state["state"]["players"][0]["fields"][0]["bean"] == "soy"
            assert state["change"] == {"kind": "connect", "event": {"type": "plant", "player": 0, "bean": "soy",
                                                                   "source": "hand", "field": 0}}
        finally:
            watcher.close()


def test_the_archive_channel_hears_of_new_games(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        editor = HttpEditor(server.url)
        watcher = EventReader(f"{server.url}/api/live")
        try:
            watcher.next_of("hardware")
            game_id = editor.post("/api/games", {"game": "dice", "players": ["Ann", "Ben"]})["game_id"]
            assert watcher.next_of("games") == {"game_id": game_id, "change": "start"}
        finally:
            watcher.close()


def test_a_page_that_stops_reading_is_cut_off_and_told_to_reconnect() -> None:
    feed = LiveFeed()
    subscription = feed.subscribe(["game:1"])
    for n in range(QUEUE_LIMIT + 5):
        feed.publish("game:1", "state", {"n": n})
    assert feed.count("game:1") == 0
    stream = event_stream(subscription, [], keepalive_s=0.01)
    assert next(stream).startswith("retry:")
    assert next(stream) == STALE.encode()
    assert list(stream) == []


def test_a_quiet_stream_sends_keepalives_and_unsubscribes_when_closed() -> None:
    feed = LiveFeed()
    stream = event_stream(feed.subscribe(["hardware"]), [], keepalive_s=0.01)
    assert next(stream).startswith("retry:")
    assert next(stream) == ": keepalive\n\n"
    assert feed.count("hardware") == 1
    stream.close()
    assert feed.count("hardware") == 0


def test_a_page_that_leaves_frees_its_subscription(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        feed = server.app.extensions["tables"].feed
        watcher = EventReader(f"{server.url}/api/live")
        watcher.next_of("hardware")
        assert feed.count("hardware") == 1
        watcher.close()
        deadline = time.monotonic() + 5
        while feed.count("hardware") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert feed.count("hardware") == 0
