"""Games and their append-only event logs in one SQLite file.

WAL journal with ``synchronous=FULL``: an event is acknowledged only after its
transaction is committed to disk, so a crash or SIGKILL at any moment keeps every
acknowledged event. Undo marks events as undone instead of deleting them.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.records.format import Header, RecordError

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    header TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    data TEXT NOT NULL,
    recorded REAL NOT NULL,
    undone REAL,
    PRIMARY KEY (game_id, seq)
);
"""


MAX_ID = 2**63 - 1
"""SQLite's largest integer: no game id is larger."""


class StoreError(RuntimeError):
    """The store cannot be opened or used; the message says what to do."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as listed in the store."""

    id: int
    header: Header
    events: int
    created: float
    updated: float
    finished: bool


class GameStore:
    """A SQLite file of games. Safe to share between threads of one process."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the game store {self.path}: {exc}") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, committed (to disk) before the block's caller goes on."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def _write(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
        with self._transaction() as db:
            return db.execute(sql, params)

    def create_game(self, header: Header) -> int:
        """Store a new game; returns its id."""
        return self.import_game(header, [])

    def import_game(self, header: Header, events: list[dict[str, Any]]) -> int:
        """Store a whole game with its events in one transaction; returns its id."""
        now = time.time()
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO games (header, created, updated) VALUES (?, ?, ?)",
                (json.dumps(header.to_dict()), now, now),
            )
            game_id = int(cursor.lastrowid)  # type: ignore[arg-type]
            db.executemany(
                "INSERT INTO events (game_id, seq, data, recorded) VALUES (?, ?, ?, ?)",
                [(game_id, seq, json.dumps(e), now) for seq, e in enumerate(events, start=1)],
            )
        return game_id

    def append(self, game_id: int, event: dict[str, Any]) -> int:
        """Append one event; returns its sequence number once it is safely on disk."""
        now = time.time()
        with self._transaction() as db:
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            db.execute(
                "INSERT INTO events (game_id, seq, data, recorded) VALUES (?, ?, ?, ?)",
                (game_id, seq, json.dumps(event), now),
            )
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
        return int(seq)

    def undo(self, game_id: int, count: int = 1) -> int:
        """Mark the last ``count`` live events as undone; returns how many were."""
        cursor = self._write(
            "UPDATE events SET undone = ? WHERE game_id = ? AND seq IN ("
            " SELECT seq FROM events WHERE game_id = ? AND undone IS NULL ORDER BY seq DESC LIMIT ?)",
            (time.time(), game_id, game_id, count),
        )
        return cursor.rowcount

    def set_finished(self, game_id: int, finished: bool) -> None:
        self._write("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """The live event log of a game, oldest first."""
        self.header(game_id)
        with self._lock:
            rows = self._db.execute(
                "SELECT data FROM events WHERE game_id = ? AND undone IS NULL ORDER BY seq", (game_id,)
            ).fetchall()
        return [json.loads(data) for (data,) in rows]

    def header(self, game_id: int) -> Header:
        """A game's header; ``KeyError`` if there is no such game."""
        if not 0 < game_id <= MAX_ID:
            raise KeyError(f"there is no game {game_id}")
        with self._lock:
            row = self._db.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"there is no game {game_id}")
        try:
            return Header.from_dict(json.loads(row[0]))
        except (ValueError, RecordError) as exc:
            raise StoreError(f"game {game_id} has a damaged header: {exc}") from None

    def games(self) -> list[StoredGame]:
        """Every game, most recently played first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.header, g.created, g.updated, g.finished,"
                " (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id AND e.undone IS NULL)"
                " FROM games g ORDER BY g.updated DESC, g.id DESC"
            ).fetchall()
        return [
            StoredGame(gid, Header.from_dict(json.loads(h)), n, created, updated, bool(done))
            for gid, h, created, updated, done, n in rows
        ]
