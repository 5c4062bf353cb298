"""Games and their append-only event logs in one SQLite file.

WAL journal with ``synchronous=FULL``: an event is acknowledged only after its
transaction is committed to disk, so a crash or SIGKILL at any moment keeps every
acknowledged event. Undo marks events as undone instead of deleting them.

One truth per game: every append and undo names the last live event it follows
(``after``, a sequence number). The store refuses a writer that is behind with
``StaleLog``, so two writers (the tablet's server and ``companion play``, or two
servers on one file) never both extend the same position of a game. The last live
sequence number fixes the whole live log: rows before it can only be undone after it.
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


class StaleLog(StoreError):
    """A writer named an event that is no longer the game's last: someone else changed the game."""

    def __init__(self, game_id: int, expected: int, found: int):
        super().__init__(
            f"game {game_id} changed elsewhere: its last event is now #{found}, not #{expected}; look again"
        )
        self.found = found


@dataclass(frozen=True, slots=True)
class StoredLog:
    """A game's live events, oldest first, and the sequence number of the last one (0 if none)."""

    events: list[dict[str, Any]]
    last_seq: int


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as listed in the store; a game whose header cannot be read has none, and a ``problem``."""

    id: int
    header: Header | None
    problem: str | None
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

    def append(self, game_id: int, event: dict[str, Any], *, after: int) -> int:
        """Append one event after live event ``after``; returns its sequence number once it is on disk.

        ``StaleLog`` (and nothing written) if ``after`` is no longer the game's last live event.
        """
        now = time.time()
        with self._transaction() as db:
            self._expect_last(db, game_id, after)
            (seq,) = db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            db.execute(
                "INSERT INTO events (game_id, seq, data, recorded) VALUES (?, ?, ?, ?)",
                (game_id, seq, json.dumps(event), now),
            )
            db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
        return int(seq)

    def undo(self, game_id: int, count: int = 1, *, after: int) -> int:
        """Mark the last ``count`` live events undone, the last being ``after``; returns how many were.

        ``StaleLog`` (and nothing undone) if ``after`` is no longer the game's last live event.
        """
        with self._transaction() as db:
            self._expect_last(db, game_id, after)
            cursor = db.execute(
                "UPDATE events SET undone = ? WHERE game_id = ? AND seq IN ("
                " SELECT seq FROM events WHERE game_id = ? AND undone IS NULL ORDER BY seq DESC LIMIT ?)",
                (time.time(), game_id, game_id, count),
            )
            return cursor.rowcount

    @staticmethod
    def _expect_last(db: sqlite3.Connection, game_id: int, after: int) -> None:
        found = _last_seq(db, game_id)
        if found != after:
            raise StaleLog(game_id, after, found)

    def last_seq(self, game_id: int) -> int:
        """The sequence number of the game's last live event (0 if none): cheap, to see if it changed."""
        with self._lock:
            return _last_seq(self._db, game_id)

    def data_version(self) -> int:
        """A number that changes when another connection (another process) commits to this file."""
        with self._lock:
            return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def set_finished(self, game_id: int, finished: bool) -> None:
        self._write("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    def events(self, game_id: int) -> list[dict[str, Any]]:
        """The live event log of a game, oldest first."""
        return self.log(game_id).events

    def history(self, game_id: int) -> list[tuple[dict[str, Any], bool]]:
        """Every event ever stored for a game, oldest first, each with whether it was undone."""
        self.header(game_id)
        with self._lock:
            rows = self._db.execute(
                "SELECT data, undone IS NOT NULL FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [(json.loads(data), bool(undone)) for data, undone in rows]

    def log(self, game_id: int) -> StoredLog:
        """The live event log of a game and its last sequence number, read together."""
        self.header(game_id)
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, data FROM events WHERE game_id = ? AND undone IS NULL ORDER BY seq", (game_id,)
            ).fetchall()
        return StoredLog([json.loads(data) for _, data in rows], rows[-1][0] if rows else 0)

    def header(self, game_id: int) -> Header:
        """A game's header; ``KeyError`` if there is no such game."""
        if not 0 < game_id <= MAX_ID:
            raise KeyError(f"there is no game {game_id}")
        with self._lock:
            row = self._db.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"there is no game {game_id}")
        header, problem = _read_header(game_id, row[0])
        if header is None:
            raise StoreError(problem)
        return header

    def games(self) -> list[StoredGame]:
        """Every game, most recently played first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.header, g.created, g.updated, g.finished,"
                " (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id AND e.undone IS NULL)"
                " FROM games g ORDER BY g.updated DESC, g.id DESC"
            ).fetchall()
        return [StoredGame(gid, *_read_header(gid, h), n, created, updated, bool(done))
                for gid, h, created, updated, done, n in rows]


def _read_header(game_id: int, text: str) -> tuple[Header | None, str | None]:
    """A stored header, or None and why it cannot be read (written under older, looser checks, or damaged)."""
    try:
        return Header.from_dict(json.loads(text)), None
    except (ValueError, RecordError) as exc:
        return None, f"game {game_id} has a damaged header: {exc}"


def _last_seq(db: sqlite3.Connection, game_id: int) -> int:
    (seq,) = db.execute(
        "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ? AND undone IS NULL", (game_id,)
    ).fetchone()
    return int(seq)
