"""Editor logins kept on the server, so they can be revoked: one per browser that entered the table PIN.

A login id is random and travels in the browser's signed session cookie; the instance folder
keeps only its hash and the PIN generation it was made in (``logins.sqlite3``, mode 0600).
The PIN is kept as a salted scrypt hash, never in clear: a start with another PIN begins a
new generation, which ends every earlier login. A start with the same PIN keeps them all.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from pathlib import Path

from flask import Flask

from web.private_db import PrivateDb

FILE = "logins.sqlite3"
MAX_LOGINS = 1000
"""Live logins kept; beyond this the oldest end (browsers that were cleared never log out)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS pin (
    id INTEGER PRIMARY KEY CHECK (id = 1), salt BLOB NOT NULL, hash BLOB NOT NULL, generation INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS login (digest BLOB PRIMARY KEY, generation INTEGER NOT NULL, made REAL NOT NULL);
"""


class Logins:
    """The ``logins`` extension: the live editor logins of the instance folder, for the app's table PIN."""

    def init_app(self, app: Flask) -> None:
        """Open (or make) the instance folder's logins; a table PIN other than the last one ends them all."""
        self.db = PrivateDb(Path(app.instance_path) / FILE, _SCHEMA)
        self.generation = self._start(app.config["TABLE_PIN"])
        app.extensions["logins"] = self

    def login(self) -> str:
        """A new live login id (the PIN was right)."""
        login_id = secrets.token_urlsafe(32)
        with self.db.transaction() as db:
            db.execute("INSERT INTO login VALUES (?, ?, ?)", (digest(login_id), self.generation, time.time()))
            db.execute("DELETE FROM login WHERE digest IN "
                       "(SELECT digest FROM login ORDER BY made DESC LIMIT -1 OFFSET ?)", (MAX_LOGINS,))  # fmt: skip
        return login_id

    def is_live(self, login_id: object) -> bool:
        """Whether ``login_id`` is a login that was not revoked, made with the current PIN."""
        if not isinstance(login_id, str):
            return False
        with self.db.connect() as db:
            row = db.execute("SELECT 1 FROM login JOIN pin USING (generation) WHERE digest = ?",
                             (digest(login_id),)).fetchone()  # fmt: skip
        return row is not None

    def revoke(self, login_id: object) -> None:
        """End ``login_id``: a saved copy of its cookie no longer changes anything."""
        if isinstance(login_id, str):
            with self.db.transaction() as db:
                db.execute("DELETE FROM login WHERE digest = ?", (digest(login_id),))

    def _start(self, pin: str) -> int:
        """The PIN generation for ``pin``: the stored one if the PIN is the same, else a new one."""
        with self.db.transaction() as db:
            row = db.execute("SELECT salt, hash, generation FROM pin").fetchone()
            if row is not None and hmac.compare_digest(_hash_pin(pin, row[0]), row[1]):
                return int(row[2])
            generation = 1 if row is None else int(row[2]) + 1
            salt = secrets.token_bytes(16)
            db.execute("INSERT OR REPLACE INTO pin VALUES (1, ?, ?, ?)", (salt, _hash_pin(pin, salt), generation))
            db.execute("DELETE FROM login WHERE generation < ?", (generation,))
            return generation


def digest(login_id: str) -> bytes:
    """What the instance folder keeps of a login id: its SHA-256."""
    return hashlib.sha256(login_id.encode()).digest()


def _hash_pin(pin: str, salt: bytes) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=2**14, r=8, p=1)
