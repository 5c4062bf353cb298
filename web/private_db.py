"""A small SQLite file of the instance folder that decides who may change games (logins, join codes).

The file is made private (mode 0600) before first use and refused when others could write it;
each block opens its own connection, so several servers on one instance folder see each other's writes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from web.instance import check_private, create_private


class PrivateDb:
    """The SQLite file at ``path`` with ``schema`` applied: connections in autocommit mode, and write transactions."""

    def __init__(self, path: Path, schema: str):
        self.path = path
        create_private(path, b"")
        check_private(path)
        with self.connect() as db:
            db.executescript(schema)

    def connect(self) -> closing[sqlite3.Connection]:
        """A connection in autocommit mode, closed at the end of its block."""
        return closing(sqlite3.connect(self.path, timeout=10, isolation_level=None))

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A connection in one write transaction (committed, or rolled back on error), closed after."""
        with self.connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
