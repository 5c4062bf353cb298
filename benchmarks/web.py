"""Tablet page benchmark: from an event posted to its arrival at 10 connected live pages.

A real waitress server on loopback; 10 real server-sent event streams read by threads;
an editor posts moves (a plant, then its undo, so the state stays small). Each figure
is printed beside a baseline measured in the same run, the round trip of a bare
``GET /api/session`` on the same server, and as a ratio to it (machines are shared
and noisy).

Target: median delivery to all 10 pages under 50 ms.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]  # this file's name would hide the web package

from web import create_app  # noqa: E402
from web.serving import background_server  # noqa: E402

sys.path.append(str(HERE.parent / "tests"))  # after importing web: tests/web would shadow it
from support.sse import EventReader  # noqa: E402

PIN = "1357"


class Editor:
    """One keep-alive HTTP connection with the PIN entered."""

    def __init__(self, base: str):
        parts = urlsplit(base)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
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


def watch(reader: EventReader, arrivals: dict[int, float], wanted: int, done: threading.Event) -> None:
    """Record when each revision's state arrives at this page."""
    while len(arrivals) < wanted:
        data = reader.next_of("state")
        arrivals[data["revision"]] = time.perf_counter()
    done.set()


def run(clients: int, moves: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TABLE_PIN": PIN, "LIVE_KEEPALIVE_S": 0.2}, instance_path=Path(folder))
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
                if n % 2 == 0:
                    reply = editor.call("POST", f"/api/games/{game_id}/moves", {"type": "plant", "player": 0, "bean": "blue"})
                else:
                    reply = editor.call("POST", f"/api/games/{game_id}/undo")
                posted[reply["revision"]] = started
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    run(args.clients, args.moves)


if __name__ == "__main__":
    main()
