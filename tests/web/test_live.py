"""The live stream over a real waitress server: every change reaches every watching page, in order."""

from __future__ import annotations

import json
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from flask import Flask

from companion.cli.serve import THREADS
from support.live_server import live_server
from support.sse import EventReader
from web import DEFAULTS
from web.live import QUEUE_LIMIT, RETRY_AFTER_S, STALE, LiveFeed, Message, StreamGate, StreamsFull, event_stream
from web.serving import background_server, live_streams_max

WATCHER_ADDRESSES = [f"127.0.0.{n}" for n in range(2, 12)]
"""Ten client addresses on loopback (Linux answers all of 127/8), ten watching pages each."""
MOVE_WAIT_S = 5.0


class HttpEditor:
    """A real HTTP client with the PIN entered."""

    def __init__(self, base: str, timeout: float = 10.0):
        self.base = base
        self.timeout = timeout
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
            with self.opener.open(request, timeout=self.timeout) as response:
                return json.load(response)
        except urllib.error.HTTPError as exc:
            return {"status": exc.code, **json.load(exc)}

    def post(self, path: str, body: object = None) -> dict:
        return self._json("POST", path, body)


def test_a_watching_page_gets_the_state_then_every_change(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        editor = HttpEditor(server.url)
        game_id = editor.post("/api/games", {"ruleset": "amigo-25", "players": ["Ann", "Ben", "Cid"]})["game_id"]
        watcher, second = (EventReader(f"{server.url}/api/live?game={game_id}") for _ in range(2))
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
            assert state["change"] == {
                "kind": "connect",
                "event": {"type": "plant", "player": 0, "bean": "soy", "source": "hand", "field": 0},
            }
        finally:
            watcher.close()


def test_a_hardware_change_while_a_stream_opens_reaches_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stream subscribes before it reads the status it opens with: a change between the two is not lost."""
    with live_server(tmp_path, LIVE_KEEPALIVE_S=30) as server:
        hardware = server.app.extensions["hardware"]
        opened = False

        def status_then_a_change() -> dict:
            nonlocal opened
            if opened:
                return {"dice": {"state": "online"}, "camera": {"state": "none"}}
            opened = True
            hardware.publish()  # the dice come online just after the status was read
            return {"dice": {"state": "offline"}, "camera": {"state": "none"}}

        monkeypatch.setattr(hardware, "status", status_then_a_change)
        watcher = EventReader(f"{server.url}/api/live", timeout=3.0)
        try:
            assert [watcher.next_of("hardware")["dice"]["state"] for _ in range(2)] == ["offline", "online"]
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


def test_a_stream_ends_after_its_lifetime_so_no_page_holds_its_place_for_ever() -> None:
    feed, now = LiveFeed(), [0.0]
    stream = event_stream(feed.subscribe(["hardware"]), [], keepalive_s=0.01, lifetime_s=60, clock=lambda: now[0])
    assert next(stream).startswith("retry:")
    assert next(stream) == ": keepalive\n\n"
    now[0] = 59.5
    feed.publish("hardware", "hardware", {"dice": "online"})
    assert next(stream) == Message("hardware", {"dice": "online"}).encode()
    now[0] = 60.0
    assert list(stream) == []
    assert feed.count("hardware") == 0


def test_the_gate_admits_streams_within_both_limits_and_counts_each_until_released() -> None:
    gate = StreamGate()
    first, second = gate.admit("10.0.0.1", 3, 2), gate.admit("10.0.0.1", 3, 2)
    with pytest.raises(StreamsFull, match=r"this address has as many live streams open as one client may \(2\)"):
        gate.admit("10.0.0.1", 3, 2)
    gate.admit("10.0.0.2", 3, 2)
    with pytest.raises(StreamsFull, match=r"the server has as many live streams open as it can hold \(3\)"):
        gate.admit("10.0.0.3", 3, 2)
    assert (gate.count(), gate.count("10.0.0.1")) == (3, 2)
    first()
    first()  # a second release of the same stream frees nothing more
    assert (gate.count(), gate.count("10.0.0.1")) == (2, 1)
    gate.admit("10.0.0.3", 3, 2)
    second()
    assert gate.admit("10.0.0.1", None, None) and gate.count() == 3


def test_the_server_admits_as_many_streams_as_leave_threads_for_requests(make_app: Callable[..., Flask]) -> None:
    assert DEFAULTS["LIVE_STREAMS_MAX"] is None
    assert live_streams_max(THREADS) == 40 and live_streams_max(32) == 20 and live_streams_max(4) == 0
    fitted, chosen = make_app("fitted"), make_app("chosen", LIVE_STREAMS_MAX=3)
    for app in (fitted, chosen):
        with background_server(app, threads=THREADS):  # waitress made as the serve command makes it
            pass
    assert (fitted.config["LIVE_STREAMS_MAX"], chosen.config["LIVE_STREAMS_MAX"]) == (40, 3)


def test_a_page_over_the_limit_gets_503_with_retry_after_until_another_leaves(tmp_path: Path) -> None:
    with live_server(tmp_path, LIVE_STREAMS_PER_CLIENT=1) as server, ExitStack() as hang_up:
        gate = server.app.extensions["live_streams"]
        first = EventReader(f"{server.url}/api/live", timeout=5)
        hang_up.callback(first.close)
        first.next_of("hardware")
        second = EventReader(f"{server.url}/api/live", timeout=5)
        hang_up.callback(second.close)
        assert (second.status, second.response.getheader("Retry-After")) == (503, str(RETRY_AFTER_S))
        refusal = second.refusal()
        assert "as one client may (1)" in refusal["error"] and refusal["retry_after"] == RETRY_AFTER_S
        assert gate.count() == 1
        first.close()  # the server notices at its next keepalive and frees the place
        deadline = time.monotonic() + 5
        while gate.count() and time.monotonic() < deadline:
            time.sleep(0.05)
        third = EventReader(f"{server.url}/api/live", timeout=5)
        hang_up.callback(third.close)
        assert third.status == 200 and third.next_of("hardware")


def test_a_hundred_watchers_cannot_starve_the_table(tmp_path: Path) -> None:
    """100 pages from 10 addresses watch one game on a server with the serve command's threads; the table plays on.

    Before streams were admitted by a gate, the 65th stream took the last worker thread and every
    request after it waited: here the 65th page's connection, or the first move, times out.
    """
    admitted_max, per_client = live_streams_max(THREADS), DEFAULTS["LIVE_STREAMS_PER_CLIENT"]
    with live_server(tmp_path, threads=THREADS) as server, ExitStack() as hang_up:
        editor = HttpEditor(server.url, timeout=MOVE_WAIT_S)
        game_id = editor.post("/api/games", {"ruleset": "amigo-25", "players": ["Ann", "Ben", "Cid"]})["game_id"]
        admitted: list[tuple[str, EventReader]] = []
        refused: list[EventReader] = []
        for address in WATCHER_ADDRESSES:
            for _ in range(10):
                page = EventReader(f"{server.url}/api/live?game={game_id}", timeout=MOVE_WAIT_S, source=address)
                hang_up.callback(page.close)
                if page.status == 200:
                    admitted.append((address, page))
                else:
                    refused.append(page)
        assert (len(admitted), len(refused)) == (admitted_max, 100 - admitted_max)
        assert max(Counter(address for address, _ in admitted).values()) == per_client
        for page in refused:
            assert (page.status, page.response.getheader("Retry-After")) == (503, str(RETRY_AFTER_S))
            assert "live streams open" in page.refusal()["error"]
        for _, page in admitted:
            assert page.next_of("state")["events"] == 0

        slowest = 0.0
        for n in range(10):
            started = time.monotonic()
            if n % 2 == 0:
                reply = editor.post(f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "blue"})
            else:
                reply = editor.post(f"/api/games/{game_id}/undo")
            slowest = max(slowest, time.monotonic() - started)
            assert "status" not in reply, reply
        assert slowest < MOVE_WAIT_S
        for _, page in admitted:
            assert [page.next_of("state")["events"] for _ in range(10)] == [1, 0] * 5
