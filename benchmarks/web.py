"""Tablet page benchmarks: from an event posted to its arrival at 10 connected live pages; moves with 200 watchers.

A real waitress server on loopback; 10 real server-sent event streams read by threads;
an editor posts moves (a plant, then its undo, so the state stays small). Each figure
is printed beside a baseline measured in the same run, the round trip of a bare
``GET /api/session`` on the same server, and as a ratio to it (machines are shared
and noisy).

Target: median delivery to all 10 pages under 50 ms.

Then 200 watching pages from 10 loopback addresses ask for streams on a server with the
serve command's threads: those admitted read them, those refused (503) poll the game every
3 s, as the page does; the editor's move round trip is printed as a ratio to the same with
no watchers, measured on the same server just before.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]  # this file's name would hide the web package

from companion.cli.serve import THREADS  # noqa: E402
from web import create_app  # noqa: E402
from web.serving import background_server  # noqa: E402

sys.path.append(str(HERE.parent / "tests"))  # after importing web: tests/web would shadow it
from support.sse import EventReader  # noqa: E402

PIN = "1357"
WATCHER_ADDRESSES = [f"127.0.0.{n}" for n in range(2, 12)]
POLL_S = 3.0
PLAYERS = ["Ann", "Ben", "Cid"]


class Editor:
    """One keep-alive HTTP connection with the PIN entered."""

    def __init__(self, base: str):
        parts = urlsplit(base)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        self.cookie = ""
        self.token = self.call("GET", "/api/session")["csrf_token"]
        self.call("POST", "/api/session", {"pin": PIN})

    def call(self, method: str, path: str, body: object = None) -> dict:
        headers = {"Content-Type": "application/json", "Cookie": self.cookie}
        if method != "GET":
            headers["X-CSRF-Token"] = self.token
        self.connection.request(method, path, None if body is None else json.dumps(body), headers)
        response = self.connection.getresponse()
        if cookie := response.getheader("Set-Cookie"):
            self.cookie = cookie.split(";", 1)[0]
        return json.loads(response.read())


def move(editor: Editor, game_id: int, n: int) -> dict:
    """The ``n``-th move: a plant when ``n`` is even, else its undo (so the state stays small)."""
    if n % 2 == 0:
        return editor.call("POST", f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "blue"})
    return editor.call("POST", f"/api/games/{game_id}/undo")


def watch(reader: EventReader, arrivals: dict[int, float], wanted: int, done: threading.Event) -> None:
    """Record when each revision's state arrives at this page."""
    while len(arrivals) < wanted:
        data = reader.next_of("state")
        arrivals[data["revision"]] = time.perf_counter()
    done.set()


def run(clients: int, moves: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        settings = {"TABLE_PIN": PIN, "LIVE_KEEPALIVE_S": 0.2, "LIVE_STREAMS_PER_CLIENT": None}  # all from 127.0.0.1
        app = create_app(settings, instance_path=Path(folder))
        with background_server(app, threads=clients + 8) as base:
            editor = Editor(base)
            game = editor.call("POST", "/api/games", {"ruleset": "amigo-25", "players": ["Ann", "Ben", "Cid", "Dee"]})
            game_id, first = game["game_id"], game["revision"]
            readers = [EventReader(f"{base}/api/live?game={game_id}") for _ in range(clients)]
            for reader in readers:
                reader.next_of("state")  # the opening snapshot
            arrivals: list[dict[int, float]] = [{} for _ in readers]
            done = [threading.Event() for _ in readers]
            for reader, seen, flag in zip(readers, arrivals, done):
                threading.Thread(target=watch, args=(reader, seen, moves, flag), daemon=True).start()

            posted: dict[int, float] = {}
            baseline: list[float] = []
            for n in range(moves):
                start = time.perf_counter()
                editor.call("GET", "/api/session")
                baseline.append(time.perf_counter() - start)
                started = time.perf_counter()
                posted[move(editor, game_id, n)["revision"]] = started
                time.sleep(0.005)
            for flag in done:
                flag.wait(30)
            for reader in readers:
                reader.close()
        app.extensions["tables"].store.close()

    revisions = [first + n + 1 for n in range(moves)]
    to_all = [max(seen[r] for seen in arrivals) - posted[r] for r in revisions]
    each = [seen[r] - posted[r] for seen in arrivals for r in revisions]
    base_ms = statistics.median(baseline) * 1000
    print(f"web live delivery, {clients} pages, {moves} events (plant/undo) on a real waitress server")
    print(f"  baseline GET /api/session round trip: median {base_ms:.2f} ms")
    for label, samples in (("to all pages (slowest page)", to_all), ("to each page", each)):
        median = statistics.median(samples) * 1000
        p95 = statistics.quantiles(samples, n=20)[-1] * 1000
        print(f"  {label}: median {median:.2f} ms ({median / base_ms:.1f}x baseline), p95 {p95:.2f} ms")
    verdict = "met" if statistics.median(to_all) * 1000 < 50 else "MISSED"
    print(f"  target median < 50 ms to all {clients} pages: {verdict}")


def follow(reader: EventReader, seen: list[int], stop: threading.Event) -> None:
    """An admitted page: read its stream, counting states, until the run ends."""
    try:
        while not stop.is_set():
            seen.append(reader.next_of("state")["revision"])
    except ConnectionError:  # the server closed the stream at the end
        return


def poll(base: str, address: str, game_id: int, polls: list[float], stop: threading.Event) -> None:
    """A refused page: fetch the game every ``POLL_S`` seconds (from a random start), as the page's fallback does."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30, source_address=(address, 0))
    while not stop.wait(random.uniform(0.5, 1.5) * POLL_S):
        started = time.perf_counter()
        connection.request("GET", f"/api/games/{game_id}")
        connection.getresponse().read()
        polls.append(time.perf_counter() - started)
    connection.close()


def play(editor: Editor, game_id: int, moves: int) -> tuple[list[float], list[float]]:
    """Round trips of ``moves`` moves (plant, undo, ...) and of a bare GET /api/session before each."""
    round_trips, baseline = [], []
    for n in range(moves):
        start = time.perf_counter()
        editor.call("GET", "/api/session")
        baseline.append(time.perf_counter() - start)
        start = time.perf_counter()
        move(editor, game_id, n)
        round_trips.append(time.perf_counter() - start)
        time.sleep(0.02)
    return round_trips, baseline


def run_watched(watchers: int, moves: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TABLE_PIN": PIN}, instance_path=Path(folder))
        stop = threading.Event()
        with background_server(app, threads=THREADS) as base:
            editor = Editor(base)
            game_id = editor.call("POST", "/api/games", {"ruleset": "amigo-25", "players": PLAYERS})["game_id"]
            alone, alone_base = play(editor, game_id, moves)

            admitted: list[tuple[EventReader, list[int]]] = []
            followers: list[threading.Thread] = []
            polls: list[float] = []
            opened = time.perf_counter()
            for n in range(watchers):
                address = WATCHER_ADDRESSES[n % len(WATCHER_ADDRESSES)]
                reader = EventReader(f"{base}/api/live?game={game_id}", timeout=30, source=address)
                if reader.status == 200:
                    admitted.append((reader, []))
                    followers.append(threading.Thread(target=follow, args=(reader, admitted[-1][1], stop), daemon=True))
                    followers[-1].start()
                else:
                    reader.close()
                    threading.Thread(target=poll, args=(base, address, game_id, polls, stop), daemon=True).start()
            opening_s = time.perf_counter() - opened
            watched, watched_base = play(editor, game_id, moves)
            last = editor.call("GET", f"/api/games/{game_id}")["revision"]
            deadline = time.monotonic() + 10
            while any(not seen or seen[-1] < last for _, seen in admitted) and time.monotonic() < deadline:
                time.sleep(0.05)
            behind = sum(1 for _, seen in admitted if not seen or seen[-1] < last)
            stop.set()
        for follower in followers:  # the server, stopping, closed their streams
            follower.join(10)
        for reader, _ in admitted:
            reader.close()
        app.extensions["tables"].store.close()

    median_alone, median_watched = statistics.median(alone) * 1000, statistics.median(watched) * 1000
    p95_alone, p95_watched = (statistics.quantiles(s, n=20)[-1] * 1000 for s in (alone, watched))
    base_alone, base_watched = statistics.median(alone_base) * 1000, statistics.median(watched_base) * 1000
    print(f"web moves watched by {watchers} pages ({len(WATCHER_ADDRESSES)} addresses), {moves} moves each way, "
          f"{THREADS} threads")  # fmt: skip
    print(f"  streams admitted {len(admitted)}, refused with 503 {watchers - len(admitted)} "
          f"(these poll every {POLL_S:.0f} s); all {watchers} answered in {opening_s * 1000:.0f} ms")  # fmt: skip
    print(f"  move round trip, no watchers: median {median_alone:.2f} ms, p95 {p95_alone:.2f} ms "
          f"(GET /api/session {base_alone:.2f} ms)")  # fmt: skip
    print(f"  move round trip, {watchers} watchers: median {median_watched:.2f} ms, p95 {p95_watched:.2f} ms "
          f"(GET /api/session {base_watched:.2f} ms)")  # fmt: skip
    print(f"  ratio with/without watchers: median {median_watched / median_alone:.2f}x, "
          f"p95 {p95_watched / p95_alone:.2f}x")  # fmt: skip
    poll_ms = statistics.median(polls) * 1000 if polls else float("nan")
    print(f"  polls answered during the run: {len(polls)}, median {poll_ms:.2f} ms; "
          f"admitted pages behind the last move: {behind}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--watched-moves", type=int, default=100)
    args = parser.parse_args()
    run(args.clients, args.moves)
    run_watched(args.watchers, args.watched_moves)


if __name__ == "__main__":
    main()
